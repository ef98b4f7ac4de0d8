/**
 * The NFC-e / NF-e payment group (YA, `detPag` and its `card`) of an integrated card payment, as
 * data for the POS's fiscal document: SEFAZ rules ask for the same authorization number on the
 * receipt and in the note (`cAut`), the brand (`tBand`), the acquirer's CNPJ, the merchant's CNPJ
 * (`CNPJReceb`) and the terminal (`idTermPag`), with `tpIntegra` 1 (anchors §6.3).
 */
import { formatReais } from '../locale/br-format.js';

export interface NfcePaymentGroup {
  /** 03 credit card, 04 debit card. */
  readonly tPag: '03' | '04';
  /** The amount in reais with a dot and two decimals ("450.00"), as the XML writes it. */
  readonly vPag: string;
  /** 1: the payment was integrated (the POS did not key it in). */
  readonly tpIntegra: 1;
  /** The acquirer's CNPJ (settings), or null when not configured. */
  readonly CNPJ: string | null;
  /** The brand's code in the national table ("01" Visa… "99" others). */
  readonly tBand: string;
  /** The authorization code, as on the receipt. */
  readonly cAut: string | null;
  /** The merchant's CNPJ. */
  readonly CNPJReceb: string;
  /** The payment terminal: the PINPAD's serial number. */
  readonly idTermPag: string;
  /** Beside the group: the NSU and the acquirer's name, which POS fiscal modules also ask for. */
  readonly nsu: string | null;
  readonly acquirer: string | null;
}

export interface NfceInput {
  readonly paymentType: 'credit' | 'debit';
  readonly amount: number;
  readonly brandCode: string;
  readonly authorizationCode: string | null;
  readonly nsu: string | null;
  readonly acquirer: string | null;
  readonly acquirerCnpj: string | null;
  readonly merchantCnpj: string;
  readonly terminal: string;
}

export function nfcePaymentGroup(input: NfceInput): NfcePaymentGroup {
  return {
    tPag: input.paymentType === 'credit' ? '03' : '04',
    vPag: formatReais(input.amount).replace(/\./g, '').replace(',', '.'),
    tpIntegra: 1,
    CNPJ: input.acquirerCnpj,
    tBand: input.brandCode,
    cAut: input.authorizationCode,
    CNPJReceb: input.merchantCnpj,
    idTermPag: input.terminal,
    nsu: input.nsu,
    acquirer: input.acquirer,
  };
}
