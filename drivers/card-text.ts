/**
 * Text as the card-number search reads it (card-number.ts): every way of writing a digit made an
 * ASCII digit, invisible characters gone, and the text inside base64 or hex tokens brought out.
 *
 * - Unicode NFKC first: full-width digits (５), mathematical and circled digits, superscripts,
 *   the no-break and other typographic spaces become their plain forms.
 * - Every decimal digit of any script (`\p{Nd}`: Arabic-Indic ٥, Devanagari ५, Thai ๕…) becomes
 *   its ASCII digit. Unicode assigns each script's digits as 10 consecutive code points, 0 to 9,
 *   and runs of several such blocks (U+1D7CE–1D7FF) are whole blocks too: a digit's value is its
 *   distance from the start of its run of digits, modulo 10.
 * - Format characters (`\p{Cf}`: zero-width space and joiner, soft hyphen, byte-order mark) and
 *   combining marks (`\p{M}`) are dropped: they are invisible or decorate a character, and would
 *   otherwise cut "5\u200B5…" into one-digit groups that no card search joins.
 *
 * Each normalised character remembers which characters of the original it came from, so what is
 * found can be masked in the original text.
 */

export interface NormalisedText {
  readonly text: string;
  /** For a UTF-16 unit of `text`: where its source code point starts in the original. */
  from(index: number): number;
  /** For a UTF-16 unit of `text`: where its source code point ends in the original. */
  to(index: number): number;
}

/** Only ASCII (nothing above U+007F). */
const ASCII = /^[^\u0080-\u{10FFFF}]*$/u;

const DECIMAL_DIGIT = /^\p{Nd}$/u;
const DROPPED = /^[\p{Cf}\p{M}]$/u;
const digitValues = new Map<number, string>();

/** The ASCII digit of a decimal digit of any script (see the module comment for why this works). */
function asciiDigit(codePoint: number): string {
  const known = digitValues.get(codePoint);
  if (known !== undefined) return known;
  let start = codePoint;
  while (start > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  const digit = String((codePoint - start) % 10);
  digitValues.set(codePoint, digit);
  return digit;
}

/** One source code point as the search reads it (often itself; "" when dropped). */
function readAs(char: string): string {
  let out = '';
  for (const part of char.normalize('NFKC')) {
    const codePoint = part.codePointAt(0)!;
    if (codePoint >= 0x80 && DECIMAL_DIGIT.test(part)) out += asciiDigit(codePoint);
    else if (!DROPPED.test(part)) out += part;
  }
  return out;
}

/** `text` normalised for the search, each character mapped back to its source. */
export function normaliseForSearch(text: string): NormalisedText {
  // ASCII is its own NFKC form, and the most common text by far: nothing to map.
  if (ASCII.test(text)) return { text, from: (index) => index, to: (index) => index + 1 };
  let out = '';
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < text.length;) {
    const codePoint = text.codePointAt(i)!;
    const width = codePoint > 0xffff ? 2 : 1;
    // ASCII is its own NFKC form: the common case costs nothing.
    const read = codePoint < 0x80 ? text[i]! : readAs(String.fromCodePoint(codePoint));
    for (let k = 0; k < read.length; k++) {
      from.push(i);
      to.push(i + width);
    }
    out += read;
    i += width;
  }
  return { text: out, from: (index) => from[index]!, to: (index) => to[index]! };
}

const OTHER_DIGIT = /(?![0-9])\p{Nd}/gu;
const INVISIBLE = /[\p{Cf}\p{M}]/gu;

/**
 * `text` normalised for the search (digits of any script as ASCII, invisible characters gone),
 * without the map back to the original: for megabytes of text (the test run's artifacts).
 */
export function normaliseDigits(text: string): string {
  return text
    .normalize('NFKC')
    .replace(OTHER_DIGIT, (digit) => asciiDigit(digit.codePointAt(0)!))
    .replace(INVISIBLE, '');
}

/**
 * Base64 (standard or URL-safe) or hex written as a token: what a token of at least 16 such
 * characters may decode to. Shorter tokens cannot hide 13 digits (base64 takes 4 characters for 3
 * bytes: a 13-character text is 20 characters of base64, hex 26).
 */
const ENCODED_TOKEN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
/** Hex runs are looked for inside tokens too: "0x3335…" is hex after its prefix. */
const HEX_RUN = /[0-9A-Fa-f]{26,}/g;
/** A decoded run worth searching: long enough for a card number, nothing unprintable in it. */
const PRINTABLE_RUN = /[^\p{C}\uFFFD]{13,}/gu;

export interface DecodedToken {
  /** Where the token is in the normalised text. */
  readonly start: number;
  readonly end: number;
  /** The printable runs of what it decodes to (each at least 13 characters). */
  readonly texts: readonly string[];
}

const utf8 = new TextDecoder('utf-8', { fatal: false });

/** The length of the well-formed UTF-8 sequence at `i` (1 for printable ASCII), or 0. */
function printableAt(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!;
  if (lead >= 0x20 && lead < 0x7f) return 1;
  const length =
    lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length === 0 || i + length > bytes.length) return 0;
  for (let k = 1; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return 0;
  return length;
}

/** True when `bytes` hold 13 printable characters in a row (checked on the bytes: most decode to none). */
function hasPrintableRun(bytes: Uint8Array): boolean {
  let run = 0;
  for (let i = 0; i < bytes.length;) {
    const length = printableAt(bytes, i);
    if (length === 0) {
      run = 0;
      i++;
    } else {
      if (++run >= 13) return true;
      i += length;
    }
  }
  return false;
}

function printableRuns(bytes: Uint8Array, into: Set<string>): void {
  if (bytes.length < 13 || !hasPrintableRun(bytes)) return;
  for (const match of utf8.decode(bytes).matchAll(PRINTABLE_RUN)) into.add(match[0]);
}

/**
 * The tokens of `text` (already normalised) that decode, as base64 or hex, to printable text.
 * Every alignment is tried — 4 for base64, 2 for hex — because a token may start with letters
 * that are not part of the encoding ("ref" + base64): the text after them then decodes whole.
 * Random ids and words decode to bytes that are mostly unprintable (a random byte is printable
 * ASCII 37 % of the time; a 13-character printable run by chance, under one in 100 000), so only
 * an encoded text gives something to search.
 */
export function decodedTokens(text: string): DecodedToken[] {
  const found: DecodedToken[] = [];
  for (const match of text.matchAll(ENCODED_TOKEN)) {
    const token = match[0];
    const runs = new Set<string>();
    const base64 = token.replace(/=+$/, '').replaceAll('-', '+').replaceAll('_', '/');
    for (let offset = 0; offset < 4; offset++) {
      const part = base64.slice(offset);
      // A last group of 2 or 3 characters is a valid unpadded end; a lone 1 is not.
      printableRuns(Buffer.from(part.length % 4 === 1 ? part.slice(0, -1) : part, 'base64'), runs);
    }
    for (const run of token.matchAll(HEX_RUN)) {
      for (let offset = 0; offset < 2; offset++) printableRuns(Buffer.from(run[0].slice(offset), 'hex'), runs);
    }
    if (runs.size > 0) found.push({ start: match.index, end: match.index + token.length, texts: [...runs] });
  }
  return found;
}
