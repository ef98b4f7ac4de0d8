/**
 * A pairing code as the cashier typed it, read as they meant it. The window shows the code as
 * "422 105"; people type it with or without the space, with a hyphen or a dot, or in full-width
 * digits from an input method in wide mode. The agent reads past the same things
 * (main/pos/clients/pairing-code.ts); the client does too, so a POS can check a code's shape
 * before sending it, and an older agent that wanted exactly six digits still gets them.
 */

/** How many digits a pairing code has. */
export const PAIRING_CODE_LENGTH = 6;

const DECIMAL_DIGIT = /^\p{Nd}$/u;
/** Decimal digits of scripts other than ASCII (Arabic-Indic ٥, Devanagari ५…). */
const OTHER_DIGIT = /(?![0-9])\p{Nd}/gu;
/** Invisible characters: format characters (zero-width space, soft hyphen) and combining marks. */
const INVISIBLE = /[\p{Cf}\p{M}]/gu;
/** What a person puts between digits: spaces of every kind, dashes, dots, slashes. */
const SEPARATORS = /[\p{Z}\s\p{P}]/gu;
const MAX_TYPED_LENGTH = 64;

/**
 * A decimal digit's value: Unicode gives each script its digits as 10 consecutive code points
 * from 0 to 9 (and runs of such blocks are whole blocks), so it is the distance from the start of
 * its run of digits, modulo 10.
 */
function asciiDigit(digit: string): string {
  const codePoint = digit.codePointAt(0)!;
  let start = codePoint;
  while (start > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return String((codePoint - start) % 10);
}

/**
 * The code's six ASCII digits — "422 105", "422-105", "４２２１０５" all give "422105" — or null
 * when what was typed is not a pairing code (too few or too many digits, a letter).
 */
export function pairingCodeDigits(typed: string): string | null {
  if (typeof typed !== 'string' || typed.length > MAX_TYPED_LENGTH) return null;
  const digits = typed
    .normalize('NFKC')
    .replace(OTHER_DIGIT, asciiDigit)
    .replace(INVISIBLE, '')
    .replace(SEPARATORS, '');
  return digits.length === PAIRING_CODE_LENGTH && /^[0-9]+$/.test(digits) ? digits : null;
}
