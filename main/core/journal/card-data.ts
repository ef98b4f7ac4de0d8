/**
 * The journal's last line of defence for "no card data at rest": before anything is written,
 * every string headed for disk is searched for what a full card number looks like — 13 to 19
 * digits that pass the Luhn check, in any script's digits, bare, zero-padded, grouped by any
 * separators ("4111 1111 1111 1111", "4111.1111/1111_1111") or encoded in base64 or hex
 * (drivers/card-number.ts). A masked PAN ("411111******1111") never matches: its asterisks leave
 * 6 and 4 digits.
 */

import { findCardData, looksLikeCardNumber, maskCardData } from '../../../drivers/card-number.js';

export { cardDataAcross, cardDataIn, looksLikeCardNumber } from '../../../drivers/card-number.js';

/**
 * The dotted path of the first string in `value` (objects and arrays walked) that looks like a
 * card number, or undefined. Paths in `exempt` ("terminal", "authorization.transactionNumber")
 * are skipped: fields that are digits by nature (a CPF/CNPJ, an acquirer's transaction number
 * such as "Z123456-000123456", whose groups would pass the Luhn check one time in ten) or hex ids.
 */
export function findCardNumber(value: unknown, exempt: ReadonlySet<string> = new Set(), path = ''): string | undefined {
  if (typeof value === 'string') return looksLikeCardNumber(value) ? path || '(value)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  for (const [key, item] of entries) {
    const itemPath = path === '' ? key : `${path}.${key}`;
    if (exempt.has(itemPath)) continue;
    const found = findCardNumber(item, exempt, itemPath);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Rounds of masking before every digit goes: a masked number's kept digits may join its neighbours into another. */
const MASK_ROUNDS = 4;

/**
 * `text` with every card number the journal's search finds masked (first 6 and last 4 kept,
 * tracks and encoded card data removed), such that the search finds nothing in what is left.
 * For what Pinbridge writes about a payment rather than the payment itself — an event's note, a
 * problem's English message, an undo's last error — which quote error messages, and those quote
 * the API's paths: a marketplace's 32-hex-digit id holds a Luhn-valid run of 13–19 digits about
 * once in 500 (measured: 0.19 %), and a store keeps its marketplace for years. Refusing such a text would refuse the move it explains, and a sale's state
 * matters more than its diagnostics; so it is written masked instead.
 */
export function maskForJournal(text: string): string {
  let masked = text;
  for (let round = 0; round < MASK_ROUNDS; round++) {
    if (findCardData(masked).length === 0) return masked;
    masked = maskCardData(masked, {}).text;
  }
  return findCardData(masked).length === 0 ? masked : masked.replace(/\p{N}/gu, '*');
}
