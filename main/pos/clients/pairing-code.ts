/**
 * Pairing codes: the six digits the Pinbridge window (or terminal) shows the cashier and the POS
 * user types back into the POS. Uniform draws from crypto randomness (`crypto.randomInt`), the hash
 * they are stored as, and the constant-time comparison that checks them.
 *
 * The hash keeps codes out of plain sight in the database and its logs; it is no defence against
 * someone who can read the file (a million guesses are instant). What protects a code is its
 * short life and the few attempts a pairing request allows (client-store.ts).
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { normaliseDigits } from '../../../drivers/card-text.js';

/** Where random bytes come from: `crypto.randomBytes` unless a test passes its own. */
export type RandomSource = (bytes: number) => Buffer;

export const PAIRING_CODE_DIGITS = 6;

const CODE_SPACE = 10 ** PAIRING_CODE_DIGITS;
const UINT32_SPACE = 2 ** 32;
/**
 * Draws at or above this are thrown away: below it every code is hit by exactly the same number
 * of 32-bit values, so `value % CODE_SPACE` has no modulo bias.
 */
const ACCEPT_BELOW = UINT32_SPACE - (UINT32_SPACE % CODE_SPACE);
/**
 * A draw is rejected with probability < 0.03 %; a hundred in a row means the random source is
 * broken (a stub returning one value), and looping forever would hang the agent instead of failing.
 */
const MAX_DRAWS = 100;

/** The bytes of `random(count)`, refusing a source that returns too few (or too many). */
export function draw(random: RandomSource, count: number): Buffer {
  const bytes = random(count);
  if (!Buffer.isBuffer(bytes) || bytes.length !== count) {
    throw new Error(
      `the random source returned ${Buffer.isBuffer(bytes) ? bytes.length : 'no'} bytes instead of ${count}`,
    );
  }
  return bytes;
}

/**
 * A code of PAIRING_CODE_DIGITS decimal digits, leading zeros kept, every code equally likely.
 * From crypto's own source, `crypto.randomInt` draws it (without modulo bias). A test's source
 * of bytes cannot drive randomInt, so its bytes go through the same rejection sampling by hand.
 */
export function generatePairingCode(random: RandomSource = randomBytes): string {
  if (random === randomBytes) return String(randomInt(CODE_SPACE)).padStart(PAIRING_CODE_DIGITS, '0');
  for (let attempt = 0; attempt < MAX_DRAWS; attempt++) {
    const value = draw(random, 4).readUInt32BE(0);
    if (value < ACCEPT_BELOW) return String(value % CODE_SPACE).padStart(PAIRING_CODE_DIGITS, '0');
  }
  throw new Error(`the random source gave ${MAX_DRAWS} unusable values in a row; it is not random`);
}

/** Longer input is no code a person typed: refused before any work. */
const MAX_TYPED_LENGTH = 64;
/**
 * What a person puts between digits to read them: spaces of every kind (the window shows
 * "422 105"), dashes and other punctuation ("422-105", "422.105", "422/105").
 */
const SEPARATORS = /[\p{Z}\s\p{P}]/gu;

/**
 * The code as the POS typed it, read as the cashier meant it: every way of writing a digit made an
 * ASCII digit (full-width "４２２", other scripts' digits; drivers/card-text.ts), invisible
 * characters dropped, and the spaces, hyphens and other separators a person adds removed
 * ("422 105", "422-105"). Undefined when what is left is not PAIRING_CODE_DIGITS digits.
 */
export function normalizePairingCode(input: string): string | undefined {
  if (typeof input !== 'string' || input.length > MAX_TYPED_LENGTH) return undefined;
  const digits = normaliseDigits(input).replace(SEPARATORS, '');
  return digits.length === PAIRING_CODE_DIGITS && /^[0-9]+$/u.test(digits) ? digits : undefined;
}

/**
 * SHA-256 (hex) of the pairing id and the code: salted by the id so that two requests with the
 * same code do not share a hash.
 */
export function hashPairingCode(pairingId: string, code: string): string {
  return createHash('sha256').update(`${pairingId}:${code}`, 'utf8').digest('hex');
}

/** Whether `code` is the one hashed into `expectedHash` for this pairing, compared in constant time. */
export function pairingCodeMatches(pairingId: string, code: string, expectedHash: string): boolean {
  const actual = Buffer.from(hashPairingCode(pairingId, code), 'hex');
  const expected = Buffer.from(expectedHash, 'hex');
  // A damaged stored hash has another length; timingSafeEqual would throw on it.
  if (expected.length !== actual.length) return false;
  return timingSafeEqual(actual, expected);
}
