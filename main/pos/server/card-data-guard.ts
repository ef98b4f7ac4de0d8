/**
 * No card data from the POS: the card is read by the PINPAD, so nothing a POS sends may hold a
 * card number or a magnetic track — not its sale's reference or description, not the notification,
 * a buyer's name or address, its own name when it pairs, metadata (values and keys), nor the
 * headers of its connection that get logged. Every string of a request's params is searched
 * (drivers/card-number.ts: normalised — digits of any script, any separators, zero padding —
 * track shapes, Luhn-valid 13–19 digit numbers that start like a payment card, 2 to 6, and what
 * base64 or hex tokens decode to), and so is their concatenation, in the order sent, so a number
 * split between `reference_id` and `description` is found too — before anything is stored,
 * logged or sent on.
 *
 * Keys whose values are digits by nature are left out: tax ids (a CNPJ has 14 digits and passes
 * the Luhn check one time in ten; an alphanumeric one may hold a run of 13), bank account and
 * routing numbers, phone numbers, postal codes, boleto lines and barcodes (a 47-digit line in its
 * printed groups holds a Luhn-valid 15 or 16 digit window one time in five), PINPAD serial numbers
 * and pairing codes. Their methods' schemas, checked next, let nothing else into those keys: `ein`
 * is a CNPJ's 14 characters, no more than a numeric CNPJ's 14 digits could hide. Inside metadata,
 * which the POS fills as it likes and no schema closes, no key is left out.
 *
 * The guard runs on every request, and most of what it reads is short plain text (keys, a serial
 * number, "credit"): `mayHoldCardData` tells in one pass over the characters that such a text
 * cannot hold card data, and only the others go through the full search.
 */
import { cardDataAcross, cardDataIn, holdsDigits } from '../../../drivers/card-number.js';

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
  'serial_number',
  'code',
]);

/** Objects the POS fills freely (any key, any value): nothing in them is left out. */
const FREE_FORM: ReadonlySet<string> = new Set(['metadata']);

const API_ID = /^[0-9a-f]{32}$/i;

/**
 * Ids Pinbridge or the payments API generated, which a POS only sends back: by field, the shape
 * each has. Random hex holds a 13–19 digit run that passes the search about once in a thousand
 * ids (drivers/card-number.ts), and refusing one would lock a POS out of its own buyer or pairing:
 * in its field and in its exact shape, such an id is not searched. Anything a POS types
 * (`reference_id`, descriptions, names, metadata) is, whatever it looks like.
 */
const GENERATED_IDS: ReadonlyMap<string, RegExp> = new Map([
  ['pairing_id', /^pair_[0-9a-f]{32}$/],
  ['client_id', /^cli_[0-9a-f]{16}$/],
  ['payment_id', API_ID],
  ['buyer_id', API_ID],
  ['customer', API_ID],
  ['bank_account_id', API_ID],
  ['transaction_id', API_ID],
]);

/** The headers of a POS's connection that reach a log line or a store (server.ts). */
const LOGGED_HEADERS = ['origin', 'host'] as const;

export interface CardDataFound {
  /**
   * The dotted path of the field ("reference_id", "buyer.address.line1"), "metadata.(key)" for a
   * key, or the fields joined by " + " when only their concatenation holds card data; never its value.
   */
  readonly field: string;
  readonly kind: 'track' | 'card_number';
}

export interface PosCardDataOptions {
  /** True for the serial number of a PINPAD this agent has: a `terminal` naming one is not searched. */
  readonly knownTerminal?: (serial: string) => boolean;
}

interface Text {
  readonly field: string;
  readonly text: string;
}

/** `A-Z a-z 0-9 + / _ -`: the characters of a base64 (standard or URL-safe) or hex token. */
function tokenCharacter(code: number): boolean {
  return (
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    (code >= 48 && code <= 57) ||
    code === 43 ||
    code === 47 ||
    code === 95 ||
    code === 45
  );
}

/** A track holds 12 digits at least, a card number 13 (drivers/card-number.ts). */
const FEWEST_DIGITS = 12;
/** The shortest token the search decodes (ENCODED_TOKEN in drivers/card-text.ts). */
const SHORTEST_TOKEN = 16;

/**
 * False when `text` cannot hold what the search finds (cardDataIn), so it need not be searched:
 * plain ASCII (which the search reads as it is) with fewer than 12 digits and no run of 16 base64
 * or hex characters. Beyond ASCII it is always true: a character may be a digit of another script,
 * or become several characters once normalised (NFKC), so such a text is searched whole.
 */
export function mayHoldCardData(text: string): boolean {
  let digits = 0;
  let token = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) return true;
    if (code >= 48 && code <= 57 && ++digits >= FEWEST_DIGITS) return true;
    token = tokenCharacter(code) ? token + 1 : 0;
    if (token >= SHORTEST_TOKEN) return true;
  }
  return false;
}

/** cardDataIn, with the texts that cannot hold card data answered at once. */
const searched = (text: string): CardDataFound['kind'] | undefined =>
  mayHoldCardData(text) ? cardDataIn(text) : undefined;

/** False for plain ASCII without a digit: it holds no part of a number split between fields (holdsDigits). */
function mayHoldDigits(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80 || (code >= 48 && code <= 57)) return true;
  }
  return false;
}

const join = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/**
 * Searches `value`; the strings searched that hold a digit are collected in `texts` for their
 * concatenation (acrossFields reads no other).
 */
function walk(
  value: unknown,
  path: string,
  freeForm: boolean,
  texts: Text[],
  options: PosCardDataOptions,
): CardDataFound | undefined {
  if (typeof value === 'string') {
    const kind = searched(value);
    if (kind !== undefined) return { field: path || '(params)', kind };
    if (mayHoldDigits(value)) texts.push({ field: path || '(params)', text: value });
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = walk(value[index], join(path, String(index)), freeForm, texts, options);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    // A key is text too — one the schema does not know would be named in its refusal — and is
    // named without being repeated.
    const kind = searched(key);
    if (kind !== undefined) return { field: join(path, '(key)'), kind };
    if (freeForm) {
      if (mayHoldDigits(key)) texts.push({ field: join(path, '(key)'), text: key });
    } else if (typeof item === 'string') {
      if (DIGITS_BY_NATURE.has(key)) continue;
      if (GENERATED_IDS.get(key)?.test(item) === true) continue;
      if (key === 'terminal' && options.knownTerminal?.(item) === true) continue;
    }
    const found = walk(item, join(path, key), freeForm || FREE_FORM.has(key), texts, options);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The fewest consecutive `texts` (those with digits: see cardDataAcross) whose concatenation
 * holds card data, named together ("reference_id + description"), or undefined.
 */
function acrossFields(all: readonly Text[]): CardDataFound | undefined {
  if (all.length < 2) return undefined;
  const texts = all.filter((t) => holdsDigits(t.text));
  if (texts.length < 2 || cardDataAcross(texts.map((t) => t.text)) === undefined) return undefined;
  for (let size = 2; size <= texts.length; size++) {
    for (let first = 0; first + size <= texts.length; first++) {
      const window = texts.slice(first, first + size);
      const kind = cardDataAcross(window.map((t) => t.text));
      if (kind !== undefined) return { field: window.map((t) => t.field).join(' + '), kind };
    }
  }
  return undefined;
}

/** The first field of `params` (or run of fields) that holds card data, or undefined. */
export function findPosCardData(params: unknown, options: PosCardDataOptions = {}): CardDataFound | undefined {
  const texts: Text[] = [];
  return walk(params, '', false, texts, options) ?? acrossFields(texts);
}

/** The name of the first logged header ("origin", "host") that holds card data, or undefined. */
export function findHeaderCardData(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
): (typeof LOGGED_HEADERS)[number] | undefined {
  return LOGGED_HEADERS.find((name) => {
    const value = headers[name];
    const values = value === undefined ? [] : typeof value === 'string' ? [value] : value;
    return values.some((text) => searched(text) !== undefined);
  });
}
