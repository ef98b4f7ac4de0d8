/**
 * The card-data scanner: searches a text for card data the masking should have taken out — the
 * simulator's test card numbers, track 2 ("PAN=YYMM…") and track 1 ("B PAN^…"), and any 13–19
 * digit run that starts like a card number (2–6) and passes the Luhn check. It is the second net
 * after the masking (drivers/card-number.ts): the support bundle (bundle.ts) refuses a file in
 * which it still finds something, and the specs' "no card data at rest" check
 * (test/helpers/card-data-scan.ts) runs it over every artifact. Its findings say where and give
 * the first six characters only, never the whole value.
 */
import { luhnValid, normaliseDigits } from '../../drivers/card-number.js';
import { TEST_CARDS } from '../../drivers/simulator/cards.js';

export interface CardDataFinding {
  readonly file: string;
  readonly kind:
    | 'recorded secret'
    | 'test card number'
    | 'track data'
    | 'card-like number'
    | 'corpus card number'
    | 'data in a disk reserve';
  /** Where in the file, and the first six characters of what was found (never the whole value). */
  readonly offset: number;
  readonly hint: string;
}

// Several test cards share a PAN (the same card swiped or inserted): each number once.
const TEST_PANS: readonly string[] = [...new Set(Object.values(TEST_CARDS).map((card) => card.pan))];
const TRACK2 = /(?<![0-9A-Za-z])[2-6]\d{12,18}[=D]\d{4}/g;
const TRACK1 = /B[2-6]\d{12,18}\^/g;
const CARD_LIKE = /(?<![0-9A-Za-z])[2-6]\d{12,18}(?![0-9A-Za-z])/g;

const SLICE = 64 * 1024;
/** Control characters but the whitespace ones (tab, line breaks), and U+FFFD (bytes that are no UTF-8). */
const BINARY = /(?:(?![\t\n\v\f\r])[\p{Cc}\uFFFD])+/gu;

/**
 * The text with JSON's escapes read as what they stand for, every digit of any script made ASCII,
 * and everything that is neither a letter nor a digit taken out (binary bytes but kept as a break): "5555.5555\t５５５５…" reads
 * "55555555５５５５…" → "5555555555554444".
 */
export function compacted(text: string): string {
  // In slices: one regular expression over megabytes of a journal's pages overflows V8's stack.
  const parts: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + SLICE);
    // Never between the two halves of a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end++;
    const unescaped = text
      .slice(at, end)
      // Binary (a NUL, a control byte, bytes that are no UTF-8) separates values in a database
      // page, where no one reads them as one number: kept as a break.
      .replace(BINARY, 'x')
      .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\[bfnrt]/g, ' ');
    parts.push(normaliseDigits(unescaped).replace(/[^\p{L}\p{N}]+/gu, ''));
    at = end;
  }
  return parts.join('');
}

/**
 * Findings in one text: the `secrets` (upper case) the caller knows must not be there, the test
 * card numbers, track data and card-like numbers. Files are best read as latin1, so SQLite pages
 * and WAL frames scan too.
 */
export function scanText(text: string, secrets: readonly string[] = [], file = '(text)'): CardDataFinding[] {
  const findings: CardDataFinding[] = [];
  const add = (kind: CardDataFinding['kind'], offset: number, value: string): void => {
    findings.push({ file, kind, offset, hint: `${value.slice(0, 6)}…` });
  };
  const upper = text.toUpperCase();
  for (const secret of secrets) {
    const at = upper.indexOf(secret);
    if (at >= 0) add('recorded secret', at, secret);
  }
  for (const pan of TEST_PANS) {
    const at = text.indexOf(pan);
    if (at >= 0) add('test card number', at, pan);
  }
  for (const pattern of [TRACK2, TRACK1]) {
    for (const match of text.matchAll(pattern)) add('track data', match.index, match[0]);
  }
  for (const match of text.matchAll(CARD_LIKE)) {
    if (luhnValid(match[0]) && !TEST_PANS.includes(match[0])) add('card-like number', match.index, match[0]);
  }
  return findings;
}
