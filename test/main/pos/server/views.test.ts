/**
 * The one place the core's payment outcome and progress become the POS wire: the core speaks
 * camelCase domain words (core/outcome.ts, core/events.ts), the POS reads protocol/models.ts. Every
 * field crosses under its wire name with its value untouched (wire-adapter.ts's tables map the core's
 * lists one to one), `phase` is added from the state, and nothing else passes.
 */
import { describe, expect, it } from 'vitest';
import type { PaymentProgress } from '../../../../main/core/events.js';
import type { PaymentOutcome } from '../../../../main/core/outcome.js';
import { outcomeView, progressView } from '../../../../main/pos/server/views.js';

const declined: PaymentOutcome = {
  status: 'declined',
  referenceId: 'pdv-42',
  paymentId: 'pay_01',
  transactionId: 'tx_01',
  terminal: 'PB-1',
  amount: 1951,
  paymentType: 'credit',
  installments: 2,
  authorizationCode: null,
  nsu: '000123',
  card: { brand: 'visa', maskedPan: '411111******1111', entryMode: 'chip' },
  confirmation: null,
  state: 'declined',
  problem: { code: 'CARD_DECLINED', message: 'Declined by the issuer (51)', cashierMessage: 'Saldo insuficiente' },
  declineCode: 'insufficient_funds',
  issuerResponseCode: '51',
  customerTaxId: '52998224725',
  createdAt: '2026-11-27T09:00:00.000Z',
  finishedAt: '2026-11-27T09:00:31.000Z',
};

describe('outcomeView', () => {
  it('names every field of the core outcome as the wire does, values untouched, with the phase', () => {
    expect(outcomeView(declined)).toStrictEqual({
      status: 'declined',
      reference_id: 'pdv-42',
      payment_id: 'pay_01',
      transaction_id: 'tx_01',
      terminal: 'PB-1',
      amount: 1951,
      payment_type: 'credit',
      installments: 2,
      authorization_code: null,
      nsu: '000123',
      card: { brand: 'visa', masked_pan: '411111******1111', entry_mode: 'chip' },
      confirmation: null,
      state: 'declined',
      phase: 'decided',
      problem: { code: 'CARD_DECLINED', message: 'Declined by the issuer (51)', cashier_message: 'Saldo insuficiente' },
      decline_code: 'insufficient_funds',
      issuer_response_code: '51',
      customer_tax_id: '52998224725',
      created_at: '2026-11-27T09:00:00.000Z',
      finished_at: '2026-11-27T09:00:31.000Z',
    });
  });

  it('keeps an absent card and problem null, and a running payment in progress', () => {
    const running: PaymentOutcome = {
      ...declined,
      status: 'in_progress',
      state: 'authorizing',
      card: null,
      problem: null,
      declineCode: null,
      issuerResponseCode: null,
      finishedAt: null,
    };
    expect(outcomeView(running)).toMatchObject({
      status: 'in_progress',
      state: 'authorizing',
      phase: 'in_progress',
      card: null,
      problem: null,
      decline_code: null,
      issuer_response_code: null,
      finished_at: null,
    });
  });
});

describe('progressView', () => {
  it('names every field of the core progress event as the wire does, values untouched, with the phase', () => {
    const event: PaymentProgress = {
      paymentId: 'pay_01',
      referenceId: 'pdv-42',
      terminal: 'PB-1',
      step: 'entering_pin',
      state: 'card_read',
      message: 'Customer is entering the PIN',
      cashierMessage: 'Cliente digitando a senha',
      at: '2026-11-27T09:00:12.000Z',
    };
    expect(progressView(event)).toStrictEqual({
      payment_id: 'pay_01',
      reference_id: 'pdv-42',
      terminal: 'PB-1',
      step: 'entering_pin',
      state: 'card_read',
      phase: 'in_progress',
      message: 'Customer is entering the PIN',
      cashier_message: 'Cliente digitando a senha',
      at: '2026-11-27T09:00:12.000Z',
    });
  });
});
