import { describe, expect, it } from 'vitest';
import {
  DECLINE_CATEGORIES,
  declineCategories,
  declineReasonOf,
  responseCodesOf,
} from '../../../main/core/declines.js';
import { declinedProblem } from '../../../main/core/problems.js';

describe('why an issuer declined', () => {
  it.each([
    ['51', 'insufficient_funds', true],
    ['55', 'incorrect_pin', true],
    ['54', 'expired_card', false],
    ['05', 'do_not_honor', true],
    ['57', 'transaction_not_allowed', false],
    ['59', 'suspected_fraud', true],
    ['75', 'pin_try_exceeded', true],
    ['41', 'lost_card', false],
    ['43', 'stolen_card', false],
    ['14', 'invalid_card', false],
    ['56', 'invalid_card', false],
    ['13', 'invalid_amount', false],
    ['23', 'invalid_installments', false],
    ['78', 'card_blocked', true],
    ['91', 'issuer_unavailable', true],
  ])('reads issuer code %s (ABECS Normativo 21) as %s, retryable %s', (code, category, retryable) => {
    expect(declineReasonOf(code)).toMatchObject({ category, issuerCode: code, retryable });
  });

  it('takes the issuer code over the provider’s own word, which decides only when the code is missing or unknown', () => {
    expect(declineReasonOf('51', 'invalid_pin').category).toBe('insufficient_funds');
    expect(declineReasonOf(null, 'invalid_pin').category).toBe('incorrect_pin');
    expect(declineReasonOf('Z9', 'insufficient_funds_error')).toMatchObject({
      category: 'insufficient_funds',
      issuerCode: 'Z9',
    });
    expect(declineReasonOf(undefined, 'Invalid-PIN-Code').category).toBe('incorrect_pin');
  });

  it('reads back the categories a journal record holds', () => {
    for (const category of DECLINE_CATEGORIES) expect(declineReasonOf(null, category).category).toBe(category);
  });

  it('calls an unknown code with no known reason a generic decline, keeping the code as received', () => {
    expect(declineReasonOf(' n7 ', 'something new')).toMatchObject({
      category: 'generic_decline',
      issuerCode: 'N7',
      cashierMessage: 'Transação não autorizada',
      pinpadText: 'NAO AUTORIZADA',
    });
    expect(declineReasonOf('', null)).toMatchObject({ category: 'generic_decline', issuerCode: null });
  });

  it('tells the customer on the PINPAD only what helps them, in two lines of at most 16 characters without accents', () => {
    expect(declineReasonOf('55').pinpadText).toBe('NAO AUTORIZADA\nSENHA INVALIDA');
    expect(declineReasonOf('54').pinpadText).toBe('NAO AUTORIZADA\nCARTAO VENCIDO');
    // Insufficient funds is not announced at the counter.
    expect(declineReasonOf('51').pinpadText).toBe('NAO AUTORIZADA');
    for (const { category } of declineCategories()) {
      const lines = declineReasonOf(null, category).pinpadText.split('\n');
      expect(lines.length).toBeLessThanOrEqual(2);
      for (const line of lines) expect(line, category).toMatch(/^[A-Z0-9 ]{1,16}$/);
    }
  });

  it('gives every category a Portuguese sentence for the cashier and an English one for the logs', () => {
    expect(declineReasonOf('51').cashierMessage).toBe('Saldo insuficiente');
    expect(declineReasonOf('55').cashierMessage).toBe('Senha inválida');
    const sentences = declineCategories();
    expect(sentences.map((c) => c.category)).toEqual([...DECLINE_CATEGORIES]);
    for (const { category, cashier, message } of sentences) {
      expect(cashier.length, category).toBeGreaterThan(0);
      expect(message, category).toMatch(/^[A-Z][A-Za-z ,()/-]+$/);
    }
  });

  it('lists the issuer codes of a category', () => {
    expect(responseCodesOf('pin_try_exceeded')).toEqual(['38', '75']);
    expect(responseCodesOf('incorrect_pin')).toEqual(['55', '86']);
  });

  it('makes the problem the journal keeps: CARD_DECLINED with the category, the code and the cashier’s sentence', () => {
    expect(declinedProblem(declineReasonOf('51'), 'Insufficient funds or credit limit')).toEqual({
      code: 'CARD_DECLINED',
      message: 'The issuer declined the card: Insufficient funds or credit limit (51)',
      cashierMessage: 'Saldo insuficiente',
      declineCode: 'insufficient_funds',
      issuerCode: '51',
    });
    expect(declinedProblem(declineReasonOf('05'), 'Cartão com restrição').message).toBe(
      'The issuer declined the card: Do not honor (generic decline) (05); the provider said "Cartão com restrição"',
    );
    expect(declinedProblem(declineReasonOf(null, 'card_declined'))).not.toHaveProperty('issuerCode');
  });
});
