import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { luhnValid } from '../../../../drivers/card-number.js';
import { findCardNumber, looksLikeCardNumber } from '../../../../main/core/journal/card-data.js';

/** Appends the Luhn check digit to `body`. */
function withCheckDigit(body: string): string {
  for (let digit = 0; digit <= 9; digit++) if (luhnValid(`${body}${digit}`)) return `${body}${digit}`;
  throw new Error('unreachable');
}

const digits = (min: number, max: number): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...'0123456789'), { minLength: min, maxLength: max }).map((chars) => chars.join(''));

/** A Luhn-valid number of 13 to 19 digits: what a full PAN looks like. */
const pan = digits(12, 18).map(withCheckDigit);

/** Text around a number that does not glue more digits to it. */
const surrounding = fc.string({ maxLength: 20 }).map((text) => text.replace(/[\d -]/g, 'x'));

describe('luhnValid', () => {
  it('accepts the test card numbers and refuses them with one digit changed', () => {
    for (const number of [
      '4111111111111111',
      '5555555555554444',
      '378282246310005',
      '6011111111111117',
      '3530111333300000',
    ]) {
      expect(luhnValid(number)).toBe(true);
      const last = Number(number.at(-1));
      expect(luhnValid(`${number.slice(0, -1)}${(last + 1) % 10}`)).toBe(false);
    }
  });
});

describe('looksLikeCardNumber', () => {
  it('finds any Luhn-valid run of 13 to 19 digits inside other text', () => {
    fc.assert(
      fc.property(surrounding, pan, surrounding, (before, number, after) =>
        looksLikeCardNumber(`${before}${number}${after}`),
      ),
    );
  });

  it('finds a card number grouped by spaces or dashes, and next to other digit groups', () => {
    expect(looksLikeCardNumber('4111 1111 1111 1111')).toBe(true);
    expect(looksLikeCardNumber('cartão 5555-5555-5555-4444 validade 12/29')).toBe(true);
    expect(looksLikeCardNumber('4111 1111 1111 1111 123')).toBe(true);
    expect(looksLikeCardNumber('PAN 378282246310005 CVV 1234')).toBe(true);
  });

  it('never flags a masked PAN, whatever its digits', () => {
    fc.assert(
      fc.property(digits(6, 6), fc.integer({ min: 3, max: 9 }), digits(4, 4), (first, hidden, last) => {
        return !looksLikeCardNumber(`${first}${'*'.repeat(hidden)}${last}`);
      }),
    );
  });

  it('leaves alone short numbers, numbers that fail Luhn, longer runs, times and money', () => {
    expect(looksLikeCardNumber('123456789012')).toBe(false);
    expect(looksLikeCardNumber('4111111111111112')).toBe(false);
    expect(looksLikeCardNumber('35260112345678000190550010000001231123456789')).toBe(false);
    expect(looksLikeCardNumber('2026-03-10T12:00:00.000Z')).toBe(false);
    expect(looksLikeCardNumber('R$ 1.234,56 em 3x')).toBe(false);
    expect(looksLikeCardNumber('CPF 529.982.247-25')).toBe(false);
  });
});

describe('findCardNumber', () => {
  it('names the path of the first string that holds a card number, skipping exempt top-level keys', () => {
    const value = {
      referenceId: '4111111111111111',
      card: { brand: 'visa', maskedPan: '411111******1111' },
      list: ['ok', 'x 4111111111111111'],
    };
    expect(findCardNumber(value, new Set(['referenceId']))).toBe('list.1');
    expect(findCardNumber(value)).toBe('referenceId');
    expect(findCardNumber({ a: 1, b: null, c: { d: 'fine' } })).toBeUndefined();
  });
});
