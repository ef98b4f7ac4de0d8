/**
 * No card data from the POS: the card is read by the PINPAD, so nothing a POS sends may hold a
 * card number or a magnetic track — not its sale's reference or description, not the notification,
 * a buyer's name or address, its own name when it pairs, nor metadata. Every string of a request's
 * params is searched (drivers/card-number.ts: track shapes, and Luhn-valid 13–19 digit runs that
 * start like a payment card, 2 to 6), before anything is stored, logged or sent on.
 *
 * Keys whose values are digits by nature are left out: tax ids (a CNPJ has 14 digits and passes
 * the Luhn check one time in ten; an alphanumeric one may hold a run of 13), bank account and
 * routing numbers, phone numbers, postal codes, boleto lines, PINPAD serial numbers and pairing
 * codes. Their methods' schemas, checked first, let nothing else into those keys: `ein` is a
 * CNPJ's 14 characters, no more than a numeric CNPJ's 14 digits could hide.
 */
import { cardDataIn } from '../../../drivers/card-number.js';

const DIGITS_BY_NATURE: ReadonlySet<string> = new Set([
  'taxpayer_id',
  'ein',
  'tax_id',
  'account_number',
  'routing_number',
  'bank_code',
  'phone_number',
  'postal_code',
  'digitable_line',
  'barcode',
  'terminal',
  'serial_number',
  'code',
]);

/**
 * Generated ids — the payments API's and Pinbridge's payment ids (32 hexadecimal characters),
 * pairing requests (`pair_` + 32) and clients (`cli_` + 16) — are random hex, not typed, and random
 * hex holds a 13–19 digit run that passes the search about once in a thousand ids: they are
 * skipped.
 */
const GENERATED_ID = /^(?:[a-z]+_[0-9a-f]{16,64}|[0-9a-f]{32})$/i;

export interface CardDataFound {
  /** The dotted path of the field ("reference_id", "buyer.address.line1"); never its value. */
  readonly field: string;
  readonly kind: 'track' | 'card_number';
}

/** The first field of `params` that holds card data, or undefined. */
export function findPosCardData(params: unknown, path = ''): CardDataFound | undefined {
  if (typeof params === 'string') {
    if (GENERATED_ID.test(params)) return undefined;
    const kind = cardDataIn(params);
    return kind === undefined ? undefined : { field: path || '(params)', kind };
  }
  if (params === null || typeof params !== 'object') return undefined;
  const entries = Array.isArray(params)
    ? params.map((item: unknown, index) => [String(index), item] as const)
    : Object.entries(params);
  for (const [key, value] of entries) {
    if (!Array.isArray(params) && DIGITS_BY_NATURE.has(key)) continue;
    const found = findPosCardData(value, path === '' ? key : `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
