/**
 * The numbers of a sandbox boleto. The sandbox registers its boletos at Itaú (bank 341),
 * carteira 109, as Zoop does (shared/payments-api-notes.md §2.1), under a fixed fictitious
 * agência/conta; the nosso número is the boleto's sequence.
 */
import { boletoBarcode } from './barcode.js';
import { digitableLine } from './digitable-line.js';
import { itauAccountDac, itauFreeField, itauNossoNumeroDac } from './itau.js';

export const SANDBOX_BANK_CODE = '341';
export const SANDBOX_CARTEIRA = '109';
export const SANDBOX_AGENCIA = '0057';
export const SANDBOX_CONTA = '12345';
const NOSSO_NUMERO_MODULUS = 100_000_000;

export interface IssuedBoletoNumbers {
  /** 44 digits. */
  readonly barcode: string;
  /** Formatted "AAAAA.AAAAA BBBBB.BBBBBB CCCCC.CCCCCC D EEEEFFFFFFFFFF". */
  readonly digitableLine: string;
  /** 8 digits. */
  readonly nossoNumero: string;
}

export interface IssueBoletoInput {
  readonly amountCentavos: number;
  /** YYYY-MM-DD. */
  readonly dueDate: string;
  /** Positive integer, unique per boleto; the nosso número is it modulo 10^8. */
  readonly sequence: number;
}

export function issueBoletoNumbers(input: IssueBoletoInput): IssuedBoletoNumbers {
  const { amountCentavos, dueDate, sequence } = input;
  if (!Number.isSafeInteger(sequence) || sequence < 1) {
    throw new Error(`Boleto sequence must be a positive integer, got ${sequence}`);
  }
  const nossoNumero = String(sequence % NOSSO_NUMERO_MODULUS).padStart(8, '0');
  const freeField = itauFreeField({
    carteira: SANDBOX_CARTEIRA,
    nossoNumero,
    agencia: SANDBOX_AGENCIA,
    conta: SANDBOX_CONTA,
  });
  const barcode = boletoBarcode({ bankCode: SANDBOX_BANK_CODE, amountCentavos, dueDate, freeField });
  return { barcode, digitableLine: digitableLine(barcode), nossoNumero };
}

/** "109/00000042-3", as Itaú prints the nosso número. */
export function formatSandboxNossoNumero(nossoNumero: string): string {
  const dac = itauNossoNumeroDac({
    carteira: SANDBOX_CARTEIRA,
    nossoNumero,
    agencia: SANDBOX_AGENCIA,
    conta: SANDBOX_CONTA,
  });
  return `${SANDBOX_CARTEIRA}/${nossoNumero}-${dac}`;
}

/** "0057 / 12345-7", the beneficiary's agência/código printed on the boleto. */
export const SANDBOX_AGENCIA_CODIGO = `${SANDBOX_AGENCIA} / ${SANDBOX_CONTA}-${itauAccountDac(SANDBOX_AGENCIA, SANDBOX_CONTA)}`;

/** The public link of a boleto's PDF (served by routes/documents.ts), e.g. for `boleto.url`. */
export const boletoPdfUrl = (baseUrl: string, transactionId: string): string =>
  `${baseUrl}/boletos/${transactionId}.pdf`;

export { boletoBarcode, dueDateFactor, generalCheckDigit, parseBoletoBarcode } from './barcode.js';
export { barcodeFromDigitableLine, digitableLine, mod10 } from './digitable-line.js';
export { itauFreeField } from './itau.js';
