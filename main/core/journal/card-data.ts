/**
 * The journal's last line of defence for "no card data at rest": before anything is written,
 * every string headed for disk is searched for what a full card number looks like — 13 to 19
 * digits that pass the Luhn check, in any script's digits, bare, zero-padded, grouped by any
 * separators ("4111 1111 1111 1111", "4111.1111/1111_1111") or encoded in base64 or hex
 * (drivers/card-number.ts). A masked PAN ("411111******1111") never matches: its asterisks leave
 * 6 and 4 digits.
 */

import { looksLikeCardNumber } from '../../../drivers/card-number.js';

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
