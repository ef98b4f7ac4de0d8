/**
 * Card numbers and tracks recognised in text, as the journal and the POS API use them: what a
 * card's number or a magnetic track looks like is found whatever surrounds it, and what a store's
 * own numbers look like (order numbers, timestamps, a number that fails the Luhn check, a masked
 * PAN) is left alone.
 */
import { describe, expect, it } from 'vitest';
import { cardDataIn, looksLikeCardNumber, luhnValid } from '../../drivers/card-number.js';

describe('cardDataIn: what a POS must never send', () => {
  it.each([
    ['a Mastercard number', '5555555555554444'],
    ['a Mastercard 2-series number', '2223000048400011'],
    ['a Visa number grouped by spaces', 'Pedido 4111 1111 1111 1111'],
    ['a Visa number grouped by dashes', '4111-1111-1111-1111'],
    ['an Amex number (15 digits)', '378282246310005'],
    ['an Amex number in its printed groups (4-6-5)', '3782 822463 10005'],
    ['an Elo number inside a sentence', 'cliente pagou com 6362970000457013 ontem'],
    ['a POS named after a card', 'Caixa 5105105105105100'],
  ])('finds %s', (_, text) => {
    expect(cardDataIn(text)).toBe('card_number');
  });

  it.each([
    ['a track 2', '2223000048400011=28122011234567890'],
    ['a track 2 with its sentinel', ';4111111111111111=3012101?'],
    ['a track 1', '%B4111111111111111^TESTE/VISA^3012101?'],
    ['a track 1 without its sentinel', 'B4111111111111111^TESTE/VISA^'],
  ])('finds %s by its shape', (_, text) => {
    expect(cardDataIn(text)).toBe('track');
  });

  it.each([
    ['a numeric order number that starts with 1 (Luhn-valid)', '1234567890123452'],
    ['a millisecond timestamp (13 digits, Luhn-valid)', '1764150000008'],
    ['a Luhn-valid number outside the card industries (9…)', '9000000000000001'],
    ['a card-like number that fails the Luhn check', '4111111111111112'],
    ['a masked PAN', '411111******1111'],
    ['a short number', 'Mesa 4111111'],
    ['an order code with letters', 'PEDIDO-2026-000123'],
    ['a reference gluing a lone digit to a timestamp (5 + 1764150000007 passes Luhn)', 'pedido-5-1764150000007'],
    ['a hex id', 'a3f9c2e14b6d4e0f9a7c5b3d2e1f0a9b'],
  ])('leaves %s alone', (_, text) => {
    expect(cardDataIn(text)).toBeUndefined();
  });
});

describe('looksLikeCardNumber: the journal’s wider net', () => {
  it('takes any first digit: a Luhn-valid 16-digit order number is kept off disk too', () => {
    expect(looksLikeCardNumber('1234567890123452')).toBe(true);
    expect(looksLikeCardNumber('1234567890123452', { paymentCardsOnly: true })).toBe(false);
  });

  it('joins any groups, where the POS check joins only a card’s printed groups', () => {
    expect(looksLikeCardNumber('pedido-5-1764150000007')).toBe(true);
    expect(looksLikeCardNumber('pedido-5-1764150000007', { paymentCardsOnly: true })).toBe(false);
  });

  it('checks every run of whole groups in a longer sequence', () => {
    expect(looksLikeCardNumber('4111 1111 1111 1111 12 29')).toBe(true);
    expect(looksLikeCardNumber('PAN 4111111111111111 CVV 123')).toBe(true);
  });

  it('uses the Luhn check', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('4')).toBe(false);
  });
});
