import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorA, Transaction } from '../../../main/contract/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { newId } from '../../../main/sandbox/time.js';
import {
  call,
  eventFor,
  freshMarket,
  subscribedReceiver,
  type Market,
  type Problem,
  type Receiver,
} from '../../helpers/sandbox.js';

const DEVICE = 'nfc-a1b2c3';

let sandbox: RunningSandbox;
let market: Market;
let receiver: Receiver;

async function pending(amount = 2500, overrides: Record<string, unknown> = {}): Promise<Transaction> {
  const { status, body } = await call<Transaction>(market, 'POST', `/v1/marketplaces/${market.id}/transactions`, {
    payment_locale: 'tap_to_pay',
    payment_type: 'credit',
    on_behalf_of: market.sellerId,
    description: 'Venda no celular',
    currency: 'BRL',
    amount,
    terminal: DEVICE,
    ...overrides,
  });
  expect(status).toBe(201);
  return body;
}

const phone = (id: string, body: Record<string, unknown> = {}) =>
  call<Transaction & Problem>(
    market,
    'POST',
    `/v1/sandbox/marketplaces/${market.id}/transactions/${id}/tap_to_pay`,
    body,
  );

beforeAll(async () => {
  sandbox = await startSandbox();
  market = await freshMarket(sandbox);
  receiver = await subscribedReceiver(market);
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

describe('completing a tap-to-pay transaction on the phone', () => {
  it('approves it: succeeded, contactless chip on that device, card brand and last 4 digits', async () => {
    const created = await pending(2500, { installment_plan: { number_installments: 2 }, reference_id: 'ttp-1' });
    const { status, body } = await phone(created.id, {
      outcome: 'approved',
      card_brand: 'mastercard',
      last4_digits: '4321',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'succeeded',
      captured: true,
      gateway_authorizer: 'sandbox',
      point_of_sale: { entry_mode: 'contactless_chip', identification_number: DEVICE },
      payment_method: { resource: 'card', card_brand: 'MasterCard', last4_digits: '4321' },
      error: null,
    });
    expect(body.payment_authorization?.authorization_code).toMatch(/^[0-9]{6}$/);
    expect(body.history.at(-1)).toMatchObject({
      operation_type: 'authorization',
      status: 'succeeded',
      response_code: '00',
    });
    const event = await eventFor(receiver, created.id, 'transaction.succeeded');
    expect(event).toMatchObject({
      payment_locale: 'tap_to_pay',
      payment_type: 'credit',
      amount: 2500,
      installment_plan: { number_installments: 2 },
      terminal: DEVICE,
      card: { brand: 'MasterCard', last4: '4321', entry_mode: 'contactless_chip' },
      authorization_code: body.payment_authorization?.authorization_code,
      nsu: body.payment_authorization?.authorization_nsu,
      reference_id: 'ttp-1',
    });
  });

  it('declines it with card_declined and sends transaction.failed', async () => {
    const created = await pending();
    const { body } = await phone(created.id, { outcome: 'declined' });
    expect(body).toMatchObject({ status: 'failed', error: { code: 'card_declined', response_code: '05' } });
    const event = await eventFor(receiver, created.id, 'transaction.failed');
    expect(event).toMatchObject({ payment_locale: 'tap_to_pay', error_code: 'card_declined', status: 'failed' });
  });

  it('fails it with nfc_read_error when the phone could not read the card', async () => {
    const created = await pending();
    const { status, body } = await phone(created.id, { outcome: 'nfc_read_error' });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'failed',
      payment_method: null,
      error: { code: 'nfc_read_error', response_code: null },
      point_of_sale: { entry_mode: 'contactless_chip' },
    });
    expect((await eventFor(receiver, created.id, 'transaction.failed')).error_code).toBe('nfc_read_error');
  });

  it('lets the amount decide when no outcome is given', async () => {
    const declined = await phone((await pending(2054)).id);
    expect(declined.body.error).toMatchObject({ code: 'expired_card', response_code: '54' });
    const approved = await phone((await pending(2000)).id);
    expect(approved.body.status).toBe('succeeded');
    expect(approved.body.payment_method).toMatchObject({ card_brand: 'Visa' });
  });

  it('approves the slow amount ending without holding anything back', async () => {
    const { body } = await phone((await pending(2096)).id);
    expect(body.status).toBe('succeeded');
  });

  it('answers 409 when the transaction is no longer pending', async () => {
    const created = await pending();
    await phone(created.id, { outcome: 'approved' });
    const { status, body } = await phone(created.id, { outcome: 'declined' });
    expect(status).toBe(409);
    expect(body.detail).toBe('Transaction is not pending');
  });

  it('answers 400 for a PINPAD transaction', async () => {
    const created = await pending(2500, { payment_locale: 'pinpad', terminal: 'PINPAD-9' });
    const { status, body } = await phone(created.id);
    expect(status).toBe(400);
    expect(body.detail).toBe('Transaction is not a tap-to-pay transaction');
  });

  it('answers 404 for an unknown transaction', async () => {
    expect((await phone(newId())).status).toBe(404);
  });

  it('rejects an outcome the phone cannot report', async () => {
    const { status, body } = await phone((await pending()).id, { outcome: 'maybe' });
    expect(status).toBe(400);
    expect(body.detail).toBe('Field outcome must be one of "approved", "declined", "nfc_read_error"');
  });

  it('keeps a tap-to-pay transaction off the terminal channel', async () => {
    const created = await pending();
    const list = await call<{ items: Transaction[] }>(
      market,
      'GET',
      `/v1/marketplaces/${market.id}/terminals/${DEVICE}/pending_transactions`,
    );
    expect(list.body.items).toEqual([]);
    const reversal = await call<ErrorA>(
      market,
      'POST',
      `/v1/marketplaces/${market.id}/transactions/${created.id}/reversal`,
      {
        terminal: DEVICE,
        reason: 'cancelled',
      },
    );
    expect(reversal.status).toBe(400);
  });

  it('can be voided after approval like any card payment', async () => {
    const created = await pending(2500);
    await phone(created.id, { outcome: 'approved' });
    const { status, body } = await call<Transaction>(
      market,
      'POST',
      `/v1/marketplaces/${market.id}/transactions/${created.id}/void`,
      {
        on_behalf_of: market.sellerId,
      },
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'canceled', voided: true });
  });
});
