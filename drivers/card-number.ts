/**
 * Card numbers and magnetic tracks recognised in text, however they are written: the Luhn (mod 10)
 * check the simulator refuses bad test cards with, the search the journal uses to keep a full PAN
 * off disk, the stricter search the POS API uses to refuse card data in what a POS sends, and the
 * masking the log uses as a last resort.
 *
 * The text is normalised first (card-text.ts): digits of any script and width become ASCII,
 * invisible characters go. Then a card number is 13 to 19 digits that pass the Luhn check, bare or
 * in groups; a group separator is ANY run of characters that are neither letters nor digits
 * (spaces of every kind, tabs, dots, slashes, underscores, dashes, punctuation), so
 * "5555.5555/5555_4444" is "5555 5555 5555 4444". Letters end a run of digits without joining
 * it to anything: "pedido5555555555554444" holds "5555555555554444". Zero padding is not part of
 * a number: "0000" + PAN and PAN + "0000000000000000" are that PAN (a long bare run is searched
 * once its leading and trailing zeros are set aside, and only then: the inside of a 44-digit NF-e
 * access key or a 47-digit boleto line is never cut out, or one in two such keys would hold a
 * Luhn-valid 13–19 digit stretch). Tokens that decode from base64 or hex to printable text are
 * decoded and searched as well (twice over, for an encoding of an encoding).
 */
import { decodedTokens, normaliseDigits, normaliseForSearch, type NormalisedText } from './card-text.js';

export { normaliseDigits };

const PAN_MIN_DIGITS = 13;
const PAN_MAX_DIGITS = 19;
/** Groups of a sequence are joined up to this many digits (a PAN, and generous zero padding). */
const MAX_WINDOW_DIGITS = PAN_MAX_DIGITS + 64;
/** How many times an encoded token's text is decoded again (base64 of base64). */
const DECODE_DEPTH = 2;

/** Digit groups separated by runs of anything that is neither a letter nor a digit. */
const DIGIT_SEQUENCE = /[0-9]+(?:[^\p{L}\p{N}]+[0-9]+)*/gu;
const DIGIT_GROUP = /[0-9]+/g;

/**
 * Track data by its shape: track 2 ("PAN=YYMM…", with or without its ";" sentinel) and track 1
 * ("%BPAN^NAME^…", the B format code after an optional "%"). The spans reach to the end sentinel
 * (at most a track's length), so masking removes the whole track.
 */
const TRACK = /(?<![0-9])[0-9]{12,19}=[0-9]{4}|%?B[0-9]{12,19}\^/;
const TRACK_SPAN = /(?:;|(?<![0-9]))[0-9]{12,19}=[0-9]{4}[0-9]{0,20}\??|%?B[0-9]{12,19}\^[^?\n]{0,60}\??/g;

/** True for a string of at least two digits whose Luhn sum is a multiple of 10. */
export function luhnValid(pan: string): boolean {
  if (!/^[0-9]{2,}$/.test(pan)) return false;
  let sum = 0;
  let double = false;
  for (let i = pan.length - 1; i >= 0; i--) {
    let digit = pan.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

export interface CardNumberSearch {
  /**
   * Only what is written like a payment card: a number that starts with a major industry
   * identifier of 2 to 6 (ISO/IEC 7812: 2 and 5 Mastercard, 3 Amex/JCB/Diners/Hipercard, 4 Visa
   * and Elo, 6 Elo/Discover/Hipercard), bare, in the groups cards are printed in (3 to 6
   * digits: 4-4-4-4, 4-6-5) or cut in two halves of 7 to 10 digits (see joins). A POS's order numbers and timestamps (13 digits starting with 1), and
   * references such as "pedido-5-1764150000008" (a lone digit before a timestamp), then pass; the
   * journal, for what Pinbridge itself writes, takes every first digit and every grouping.
   *
   * Random hex ids: a 32-character one holds a maximal run of 13–19 digits about 1.8 % of the
   * time (a given character starts one with probability (10/16)^13 ≈ 0.22 %, over ~8 effective
   * starting places), and that run starts with 2–6 and passes Luhn one time in 20: about one id
   * in 1 000 is taken for a card number (measured: 0.1 %); a `cli_` id's 16 characters, one in
   * 4 000 (0.025 %). UUIDs never are: their groups are 8-4-4-4-12 characters, an all-digit group
   * of 8 or 12 is no card's group, and digits glued to hex letters are never joined to another
   * group (inHexToken), so at most the three middle groups join: 12 digits. This is why the ids
   * Pinbridge or the payments API generate are exempted by the callers where they know a field
   * holds one (card-data-guard.ts), and nowhere else.
   */
  readonly paymentCardsOnly?: boolean;
}

/** A group a printed card number is made of. */
const CARD_GROUP = /^[0-9]{3,6}$/;
const PAYMENT_CARD_START = /^[2-6]/;

/** What was found, where in the original text; never the value. */
export interface CardDataFound {
  readonly kind: 'track' | 'card_number';
  readonly start: number;
  readonly end: number;
  /**
   * For a number written in digits: the original ranges of the digits masking hides (all but
   * the first 6 and last 4 of the number, and its zero padding). Absent for a track or an encoded
   * token, which are hidden whole.
   */
  readonly hide?: readonly (readonly [number, number])[];
}

/**
 * Where in `digits` (a run of 13 or more) a card number is, its zero padding set aside: the number
 * of leading and trailing digits left out, or undefined. Every way of dropping padding zeros that
 * leaves 13–19 digits is tried (a PAN may itself end in zeros: 5105105105105100 + "0000").
 */
function panWithin(digits: string, strict: boolean): readonly [number, number] | undefined {
  const n = digits.length;
  let lead = 0;
  while (lead < n && digits[lead] === '0') lead++;
  if (lead === n) return undefined;
  let trail = 0;
  while (digits[n - 1 - trail] === '0') trail++;
  if (n - lead - trail > PAN_MAX_DIGITS) return undefined;
  for (let a = lead; a >= 0; a--) {
    if (n - a - trail > PAN_MAX_DIGITS) break;
    // Strictly, a payment card's number never starts with 0: leading zeros are all padding.
    if (strict && a < lead) break;
    // The most padding left out first: the number found is the shortest, its mask the plainest.
    for (let b = trail; b >= 0; b--) {
      const length = n - a - b;
      if (length < PAN_MIN_DIGITS) continue;
      if (length > PAN_MAX_DIGITS) break;
      const candidate = digits.slice(a, n - b);
      if (strict && !PAYMENT_CARD_START.test(candidate)) continue;
      if (luhnValid(candidate)) return [a, b];
    }
  }
  return undefined;
}

/** More digits than a PAN once the zero padding is set aside: no longer window can hold one. */
function pastAnyPan(digits: string): boolean {
  const core = digits.replace(/^0+/, '').replace(/0+$/, '');
  return core.length > PAN_MAX_DIGITS;
}

interface Group {
  readonly at: number;
  readonly digits: string;
  /** A card's group (3–6 digits) standing alone, not part of a hex token: may be joined (computed when first asked). */
  joinable?: boolean;
}

const ALPHANUMERIC = /[\p{L}\p{N}]/u;
const HEX_TOKEN = /^[0-9A-Fa-f]+$/;

/**
 * Whether the digits at `at` are only part of a hexadecimal token — digits glued to the letters
 * a–f and nothing else. A printed card's groups stand alone ("4111 1111"), or follow a word
 * ("pedido5555 5555…": not hex, still joined), while the digits of a UUID's groups glued to
 * their hex letters ("…-4576-8403-393365f2c19f") joined to their neighbours would make one
 * UUID in 1 700 a card number. Alone, such a run is still searched.
 */
function inHexToken(text: string, at: number, length: number): boolean {
  let start = at;
  while (start > 0 && ALPHANUMERIC.test(text[start - 1]!)) start--;
  let end = at + length;
  while (end < text.length && ALPHANUMERIC.test(text[end]!)) end++;
  return (start < at || end > at + length) && HEX_TOKEN.test(text.slice(start, end));
}

/** A group that may be joined to others in the strict search: a card's group, standing alone. */
function joinable(text: string, group: Group): boolean {
  group.joinable ??= CARD_GROUP.test(group.digits) && !inHexToken(text, group.at, group.digits.length);
  return group.joinable;
}

/** Half a card number: 7 to 10 digits standing alone. */
const HALF = /^[0-9]{7,10}$/;

/**
 * Strictly, groups `first`..`last` are read as one number when each is a card's printed group
 * (3–6 digits: 4-4-4-4, 4-6-5), or when they are just two halves of 7 to 10 digits
 * ("42424242 42424242"). Never longer groups in threes or more: "45-1764150000007" (a store and a
 * timestamp) and "20260310-000123" (a date and a sequence: 8 + 6) stay apart.
 */
function joins(text: string, groups: readonly Group[], first: number, last: number): boolean {
  if (joinable(text, groups[first]!) && joinable(text, groups[last]!)) return true;
  if (last !== first + 1) return false;
  return [groups[first]!, groups[last]!].every(
    (group) => HALF.test(group.digits) && !inHexToken(text, group.at, group.digits.length),
  );
}

/** Card numbers written in digits in the normalised text, as original ranges. */
function* numbersIn(normal: NormalisedText, strict: boolean): Generator<CardDataFound> {
  for (const sequence of normal.text.matchAll(DIGIT_SEQUENCE)) {
    const groups: Group[] = [...sequence[0].matchAll(DIGIT_GROUP)].map((g) => ({
      at: sequence.index + g.index,
      digits: g[0],
    }));
    for (let first = 0; first < groups.length; first++) {
      let digits = '';
      for (let last = first; last < groups.length; last++) {
        if (strict && last > first && !joins(normal.text, groups, first, last)) break;
        digits += groups[last]!.digits;
        if (pastAnyPan(digits)) break;
        const pan = digits.length >= PAN_MIN_DIGITS ? panWithin(digits, strict) : undefined;
        if (pan !== undefined) {
          yield found(normal, groups.slice(first, last + 1), digits.length, pan);
          first = last;
          break;
        }
        if (digits.length > MAX_WINDOW_DIGITS) break;
      }
    }
  }
}

/** The find for the PAN at `pan` (padding left out) in the digits of `groups`. */
function found(
  normal: NormalisedText,
  groups: readonly Group[],
  length: number,
  [lead, trail]: readonly [number, number],
): CardDataFound {
  const hide: [number, number][] = [];
  let index = 0;
  for (const group of groups) {
    for (let k = 0; k < group.digits.length; k++, index++) {
      const inPan = index - lead;
      const panLength = length - lead - trail;
      const visible = inPan >= 0 && inPan < panLength && (inPan < 6 || inPan >= panLength - 4);
      if (!visible) hide.push([normal.from(group.at + k), normal.to(group.at + k)]);
    }
  }
  const firstGroup = groups[0]!;
  const lastGroup = groups.at(-1)!;
  return {
    kind: 'card_number',
    start: normal.from(firstGroup.at),
    end: normal.to(lastGroup.at + lastGroup.digits.length - 1),
    hide,
  };
}

function* tracksIn(normal: NormalisedText): Generator<CardDataFound> {
  for (const match of normal.text.matchAll(TRACK_SPAN)) {
    if (!TRACK.test(match[0])) continue;
    yield {
      kind: 'track',
      start: normal.from(match.index),
      end: normal.to(match.index + match[0].length - 1),
    };
  }
}

/** Card data in the texts encoded tokens decode to, as the tokens' original ranges. */
function* encodedIn(normal: NormalisedText, strict: boolean, depth: number): Generator<CardDataFound> {
  if (depth <= 0) return;
  for (const token of decodedTokens(normal.text)) {
    for (const text of token.texts) {
      const inside = finds(text, strict, depth - 1).next();
      if (inside.done !== true) {
        yield { kind: inside.value.kind, start: normal.from(token.start), end: normal.to(token.end - 1) };
        break;
      }
    }
  }
}

function* finds(text: string, strict: boolean, depth = DECODE_DEPTH): Generator<CardDataFound> {
  const normal = normaliseForSearch(text);
  yield* tracksIn(normal);
  yield* numbersIn(normal, strict);
  yield* encodedIn(normal, strict, depth);
}

/** Every track and card number in `text` (strict: `paymentCardsOnly`), in the order searched. */
export function findCardData(text: string, search: CardNumberSearch = {}): CardDataFound[] {
  return [...finds(text, search.paymentCardsOnly === true)];
}

/**
 * True when `text` holds a card number: 13 to 19 digits passing the Luhn check, written in any
 * digits, bare, grouped by any separators, zero-padded or encoded (see the module comment). Within
 * one sequence of groups every run of consecutive whole groups is tried, so "PAN 4111111111111111
 * CVV 123" and "4111 1111 1111 1111 12/29" are both caught although the whole sequence is longer
 * than a PAN. A masked PAN ("411111******1111") never matches: its asterisks leave 6 and 4 digits.
 */
export function looksLikeCardNumber(text: string, search: CardNumberSearch = {}): boolean {
  for (const find of finds(text, search.paymentCardsOnly === true)) if (find.kind === 'card_number') return true;
  return false;
}

/** What card data `text` holds, if any: a magnetic track's shape, or a payment card's number. */
export function cardDataIn(text: string): 'track' | 'card_number' | undefined {
  const normal = normaliseForSearch(text);
  if (TRACK.test(normal.text)) return 'track';
  const first = finds(text, true).next();
  return first.done === true ? undefined : first.value.kind;
}

const ENDS_IN_DIGITS = /[0-9]{3}$/;
const STARTS_WITH_DIGITS = /^[0-9]{3}/;

/** True when `text` holds a digit of any script: only such a text can hold part of a number. */
export function holdsDigits(text: string): boolean {
  return /[0-9]/.test(normaliseDigits(text));
}

/**
 * Card data the strict search finds in `texts` read as one (several fields of a request): spaced
 * — the end of one and the start of the next as neighbouring groups ("5555 5555" + "5555 4444")
 * — and glued where digits meet digits ("55555555" + "55554444"). Only digits are glued (3 or
 * more on each side): gluing letters would change the tokens around them, and the digits of a
 * UUID glued to a word ("…f2c19f" + "Pedido") would no longer read as a hex id's. Texts without
 * a digit are left out: they hold no part of a number, and must not stand between two parts (a
 * request's "credit" between its reference and its description).
 */
export function cardDataAcross(all: readonly string[]): 'track' | 'card_number' | undefined {
  const texts = all.filter(holdsDigits);
  if (texts.length < 2) return undefined;
  const spaced = texts.join(' ');
  let glued = texts[0]!;
  for (const text of texts.slice(1)) {
    const digitsMeet = ENDS_IN_DIGITS.test(normaliseDigits(glued)) && STARTS_WITH_DIGITS.test(normaliseDigits(text));
    glued += digitsMeet ? text : ` ${text}`;
  }
  return cardDataIn(spaced) ?? (glued === spaced ? undefined : cardDataIn(glued));
}

/** What masking writes in place of a whole track, and of an encoded token that holds card data. */
export const TRACK_REMOVED = '[track removed]';
export const ENCODED_REMOVED = '[card data removed]';

/**
 * `text` with what the search finds masked — the strict search unless `search` says otherwise
 * (the journal masks what its wider search finds): a card number keeps its first 6 and last 4
 * digits ("555555******4444", its separators kept), a track becomes "[track removed]" and an
 * encoded token that holds card data "[card data removed]". `masked` counts what was masked (a
 * PAN inside a track counts once, with its track); 0 is the expected answer.
 */
export function maskCardData(
  text: string,
  search: CardNumberSearch = { paymentCardsOnly: true },
): { text: string; masked: number } {
  const all = findCardData(text, search);
  if (all.length === 0) return { text, masked: 0 };
  const removed = all.filter((find) => find.hide === undefined);
  const inRemoved = (find: CardDataFound): boolean =>
    removed.some((other) => other !== find && other.start <= find.start && find.end <= other.end);
  // Per original UTF-16 unit: undefined keeps it, a string replaces it. Digits first, then
  // what is removed whole, over them.
  const replaced: (string | undefined)[] = new Array<string | undefined>(text.length);
  for (const find of all) {
    for (const [start, end] of find.hide ?? []) {
      replaced[start] = '*';
      for (let i = start + 1; i < end; i++) replaced[i] = '';
    }
  }
  for (const find of removed) {
    replaced[find.start] = find.kind === 'track' ? TRACK_REMOVED : ENCODED_REMOVED;
    for (let i = find.start + 1; i < find.end; i++) replaced[i] = '';
  }
  let out = '';
  for (let i = 0; i < text.length; i++) out += replaced[i] ?? text[i]!;
  return { text: out, masked: all.filter((find) => !inRemoved(find)).length };
}
