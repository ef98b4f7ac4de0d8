/**
 * Itaú's (bank 341) 25-digit free field for its ordinary portfolios, 109 ("direta eletrônica
 * sem emissão – simples") among them:
 *
 *   20–22 carteira (3)       23–30 nosso número (8)
 *   31    DAC of agência + conta + carteira + nosso número (modulo 10)
 *   32–35 agência (4)        36–40 conta (5, without its DAC)
 *   41    DAC of agência + conta (modulo 10)
 *   42–44 "000"
 *
 * Sources: Itaú's barcode layout as transcribed in kivanio/brcobranca
 * (lib/brcobranca/boleto/itau.rb, "DEMAIS CARTEIRAS"; lib/brcobranca/util/itau.rb for the DAC
 * inputs and the portfolios whose DAC covers only carteira + nosso número), checked against
 * the published examples of tomas-stefano/boleto_bancario (spec/boleto_bancario/core/itau_spec.rb:
 * carteira 109, agência 0057, conta 12345, nosso número 12345678 →
 * "1091234567800057123457000") and brcobranca (spec/brcobranca/boleto/itau_spec.rb).
 */
import { mod10 } from './modulo.js';

export interface ItauFreeFieldInput {
  /** 3 digits, e.g. "109". */
  readonly carteira: string;
  /** 8 digits. */
  readonly nossoNumero: string;
  /** 4 digits, without its DAC. */
  readonly agencia: string;
  /** 5 digits, without its DAC. */
  readonly conta: string;
}

/** Portfolios whose nosso-número DAC is computed over carteira + nosso número only. */
const DAC_WITHOUT_ACCOUNT = new Set(['112', '126', '131', '146', '150', '168']);
/** Portfolios with the 15-position layout (seu número + client code), which this module does not build. */
const SPECIAL_LAYOUT = new Set(['106', '107', '122', '142', '143', '195', '196', '198']);

function requireDigits(value: string, length: number, name: string): void {
  if (!new RegExp(`^[0-9]{${length}}$`).test(value)) {
    throw new Error(`Itaú ${name} must be ${length} digits, got "${value}"`);
  }
}

/** DAC of the nosso número as printed "109/12345678-8". */
export function itauNossoNumeroDac(input: ItauFreeFieldInput): number {
  const { carteira, nossoNumero, agencia, conta } = input;
  return DAC_WITHOUT_ACCOUNT.has(carteira)
    ? mod10(carteira + nossoNumero)
    : mod10(agencia + conta + carteira + nossoNumero);
}

/** DAC of the account as printed "0057 / 12345-7". */
export const itauAccountDac = (agencia: string, conta: string): number => mod10(agencia + conta);

export function itauFreeField(input: ItauFreeFieldInput): string {
  const { carteira, nossoNumero, agencia, conta } = input;
  requireDigits(carteira, 3, 'carteira');
  requireDigits(nossoNumero, 8, 'nosso número');
  requireDigits(agencia, 4, 'agência');
  requireDigits(conta, 5, 'conta');
  if (SPECIAL_LAYOUT.has(carteira)) {
    throw new Error(`Itaú carteira ${carteira} uses the 15-position layout, which the sandbox does not issue`);
  }
  return `${carteira}${nossoNumero}${itauNossoNumeroDac(input)}${agencia}${conta}${itauAccountDac(agencia, conta)}000`;
}
