/**
 * Card numbers and tracks recognised in text, as the journal, the POS API and the log use them:
 * what a card's number or a magnetic track looks like is found whatever surrounds it and however
 * it is written (any digits, any separators, zero padding, base64 or hex), and what a store's own
 * numbers look like (order numbers, timestamps, a number that fails the Luhn check, a masked PAN,
 * UUIDs, NF-e keys) is left alone. The corpus of disguises is card-number-corpus.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  cardDataAcross,
  cardDataIn,
  ENCODED_REMOVED,
  looksLikeCardNumber,
  luhnValid,
  maskCardData,
  TRACK_REMOVED,
} from '../../drivers/card-number.js';

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

describe('normalised before searching', () => {
  it.each([
    ['full-width digits', '５５５５５５５５５５５５４４４４'],
    ['Arabic-Indic digits', '٥٥٥٥٥٥٥٥٥٥٥٥٤٤٤٤'],
    ['Devanagari digits with no-break spaces', '५५५५\u00a0५५५५\u00a0५५५५\u00a0४४४४'],
    ['mathematical digits (NFKC)', '𝟓𝟓𝟓𝟓𝟓𝟓𝟓𝟓𝟓𝟓𝟓𝟓𝟒𝟒𝟒𝟒'],
    ['a zero-width space between every digit', [...'5555555555554444'].join('\u200b')],
    ['a combining mark on every digit', [...'5555555555554444'].join('\u0332')],
  ])('reads %s as ASCII digits', (_, text) => {
    expect(cardDataIn(text)).toBe('card_number');
  });

  it.each([
    ['dots', '5555.5555.5555.4444'],
    ['slashes', '5555/5555/5555/4444'],
    ['underscores', '5555_5555_5555_4444'],
    ['double spaces', '5555  5555  5555  4444'],
    ['tabs', '5555\t5555\t5555\t4444'],
    ['line breaks', '5555\n5555\n5555\n4444'],
    ['runs of mixed punctuation', '5555 -/- 5555 (5555) 4444'],
  ])('takes any run of %s for a group separator', (_, text) => {
    expect(cardDataIn(text)).toBe('card_number');
  });

  it('reads a number cut in two halves of 7 to 10 digits, but no longer groups in threes', () => {
    expect(cardDataIn('55555555 55554444')).toBe('card_number');
    // A store number and a timestamp, a date and a sequence: never read as one number.
    expect(cardDataIn('loja 45-1764150000007')).toBeUndefined();
    expect(cardDataIn('pedido 4521 1764150000007')).toBeUndefined();
  });
});

describe('letters, padding and ids', () => {
  it('finds a number glued to letters, before or after', () => {
    expect(cardDataIn('ref_5555555555554444')).toBe('card_number');
    expect(cardDataIn('pedido5555555555554444')).toBe('card_number');
    expect(cardDataIn('5555555555554444abc')).toBe('card_number');
    expect(cardDataIn('pedido5555 5555 5555 4444')).toBe('card_number');
  });

  it('sets zero padding aside, before and after, even a PAN that itself ends in zeros', () => {
    expect(cardDataIn(`5555555555554444${'0'.repeat(16)}`)).toBe('card_number');
    expect(cardDataIn(`00000${'5555555555554444'}`)).toBe('card_number');
    expect(cardDataIn(`5105105105105100${'0'.repeat(20)}`)).toBe('card_number');
  });

  it('never cuts a card number out of a long run of digits that is not padding (NF-e keys, boleto lines)', () => {
    expect(cardDataIn('35260334028316000109550010000123411000000133')).toBeUndefined();
    expect(cardDataIn('23793381288600826771739650000639410420000012345')).toBeUndefined();
    expect(cardDataIn(`1${'5555555555554444'}${'0'.repeat(16)}`)).toBeUndefined();
  });

  it('does not join the digits of a hex token to their neighbours: a UUID is never a card number', () => {
    // Without that rule, "4576-8403-393365" (the last glued to f2c19f) is a Luhn-valid 16.
    expect(cardDataIn('acfb5635-9117-4576-8403-393365f2c19f')).toBeUndefined();
    // Alone, a hex token's digit run is still searched.
    expect(cardDataIn('cafe5555555555554444')).toBe('card_number');
  });
});

describe('encoded numbers', () => {
  const pan = '5555555555554444';
  it.each([
    ['base64', Buffer.from(pan).toString('base64')],
    ['URL-safe base64 without padding', Buffer.from(pan).toString('base64url')],
    ['base64 after letters', `ref${Buffer.from(pan).toString('base64')}`],
    ['base64 of base64', Buffer.from(Buffer.from(pan).toString('base64')).toString('base64')],
    ['hex', Buffer.from(pan).toString('hex')],
    ['hex after 0x', `0x${Buffer.from(pan).toString('hex').toUpperCase()}`],
    ['base64 of a track', Buffer.from(`${pan}=28121011234`).toString('base64')],
  ])('decodes %s and searches what it says', (_, text) => {
    expect(cardDataIn(text)).toBeDefined();
  });

  it('leaves ids and words alone: they decode to bytes, not text', () => {
    expect(cardDataIn('a3f9c2e14b6d4e0f9a7c5b3d2e1f0a9b')).toBeUndefined();
    expect(cardDataIn('Pagamentoparceladosemjuros')).toBeUndefined();
    expect(cardDataIn(Buffer.from('pedido 123456 ok, obrigado').toString('base64'))).toBeUndefined();
  });
});

describe('cardDataAcross: several fields read as one', () => {
  it('finds a number split between fields, glued or in groups', () => {
    expect(cardDataAcross(['55555555', '55554444'])).toBe('card_number');
    expect(cardDataAcross(['Pedido 5555 5555', '5555 4444 ok'])).toBe('card_number');
  });

  it('glues only digits to digits: a UUID next to a word stays a UUID', () => {
    expect(cardDataAcross(['acfb5635-9117-4576-8403-393365f2c19f', 'Pedido 123'])).toBeUndefined();
    expect(cardDataAcross(['Pedido 123 - 2 itens', 'D5C21762-4061-4004-A209-BF6E385A0A36'])).toBeUndefined();
  });
});

describe('maskCardData: what the log writes instead', () => {
  it('keeps the first 6 and last 4 digits and the separators, in the digits written', () => {
    expect(maskCardData('cartao 5555.5555.5555.4444 ok')).toEqual({ text: 'cartao 5555.55**.****.4444 ok', masked: 1 });
    expect(maskCardData('５５５５５５５５５５５５４４４４').text).toBe('５５５５５５******４４４４');
    expect(maskCardData(`ref_5555555555554444${'0'.repeat(4)}`).text).toBe('ref_555555******4444****');
  });

  it('removes a track and an encoded number whole', () => {
    expect(maskCardData(`x ${Buffer.from('5555555555554444').toString('base64')} y`)).toEqual({
      text: `x ${ENCODED_REMOVED} y`,
      masked: 1,
    });
    expect(maskCardData('t ;5555555555554444=28121010000? u')).toEqual({ text: `t ${TRACK_REMOVED} u`, masked: 1 });
  });

  it('leaves text without card data as it is', () => {
    const text = '{"time":1764150000008,"id":"550e8400-e29b-41d4-a716-446655440000","msg":"sale 123"}';
    expect(maskCardData(text)).toEqual({ text, masked: 0 });
  });
});
