/**
 * The Pix "copia e cola" payload: an EMV QRCPS Merchant-Presented-Mode string of
 * ID(2) + length(2) + value fields, as the BCB "Manual de Padrões para Iniciação do Pix" lays
 * it out:
 *
 *   00 "01"                    payload format indicator
 *   01 "12"                    point of initiation: 12 = single use (dynamic QR, with a location)
 *   26 merchant account        00 GUI "br.gov.bcb.pix", 01 key (static) or 25 location URL
 *                              (dynamic), 02 description (optional)
 *   52 "0000"  53 "986"        merchant category, currency (BRL)
 *   54 amount                  "123.45", optional
 *   58 "BR"  59 name (≤25)  60 city (≤15)
 *   62 additional data         05 txid ("***" when none)
 *   63 CRC16                   over the whole payload including "6304"
 */
import { crc16Ccitt, PIX_GUI } from '../../contract/brcode.js';

export { PIX_GUI };
export const MERCHANT_NAME_MAX = 25;
export const MERCHANT_CITY_MAX = 15;
export const TXID_MAX = 25;

export interface PixCopyAndPasteInput {
  /** Pix key (static payload). One of key / locationUrl is required. */
  readonly key?: string;
  /** PSP location without scheme, e.g. "pix.example.com/qr/v2/…" (dynamic payload). */
  readonly locationUrl?: string;
  readonly merchantName: string;
  readonly merchantCity: string;
  readonly amountCentavos?: number;
  /** Up to 25 letters and digits; "***" is written when absent. */
  readonly txid?: string;
  readonly description?: string;
}

/** One ID + 2-digit length + value field. */
function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`BR Code field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** Removes accents and anything outside printable ASCII (names and cities must be ASCII). */
export function toBrCodeAscii(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

function formatAmount(centavos: number): string {
  if (!Number.isInteger(centavos) || centavos <= 0) {
    throw new Error(`Pix amount must be a positive integer number of centavos, got ${centavos}`);
  }
  const text = `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`;
  if (text.length > 13) throw new Error(`Pix amount ${text} is longer than 13 characters`);
  return text;
}

export function pixCopyAndPaste(input: PixCopyAndPasteInput): string {
  const { key, locationUrl, amountCentavos, txid, description } = input;
  if ((key === undefined) === (locationUrl === undefined)) {
    throw new Error('A Pix payload carries either a key (static) or a location URL (dynamic), exactly one');
  }
  if (key !== undefined && (key.length === 0 || key.length > 77)) throw new Error('Pix key must be 1–77 characters');
  if (locationUrl !== undefined && (locationUrl.length === 0 || /^[a-z]+:\/\//i.test(locationUrl))) {
    throw new Error(`Pix location URL must be given without a scheme, got "${locationUrl}"`);
  }
  const name = toBrCodeAscii(input.merchantName).slice(0, MERCHANT_NAME_MAX).trim();
  const city = toBrCodeAscii(input.merchantCity).slice(0, MERCHANT_CITY_MAX).trim();
  if (name.length === 0) throw new Error('Pix merchant name is empty');
  if (city.length === 0) throw new Error('Pix merchant city is empty');
  if (txid !== undefined && !new RegExp(`^[A-Za-z0-9]{1,${TXID_MAX}}$`).test(txid)) {
    throw new Error(`Pix txid must be 1–${TXID_MAX} letters or digits, got "${txid}"`);
  }
  const info = description === undefined ? '' : toBrCodeAscii(description);

  const account =
    field('00', PIX_GUI) +
    (key !== undefined ? field('01', key) : field('25', locationUrl ?? '')) +
    (info.length > 0 ? field('02', info) : '');
  const body =
    field('00', '01') +
    (locationUrl !== undefined ? field('01', '12') : '') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    (amountCentavos !== undefined ? field('54', formatAmount(amountCentavos)) : '') +
    field('58', 'BR') +
    field('59', name) +
    field('60', city) +
    field('62', field('05', txid ?? '***')) +
    '6304';
  return body + crc16Ccitt(body);
}

export { parseBrCode, parseTlv, type ParsedBrCode } from '../../contract/brcode.js';
