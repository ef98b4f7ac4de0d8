/**
 * The sandbox plays the payer of a bolepix: `POST /v1/sandbox/marketplaces/{mid}/transactions/{id}/pay`
 * with `{"via": "pix"}` marks it paid as the provider reports a Pix payment — the transaction
 * `succeeded`, the boleto `paid`, `pix.paid_at` and the Pix end-to-end id, the webhook
 * `transaction.succeeded` carrying both — until the Pix code expires; `{}` or `{"via": "boleto"}`
 * is the payer at a bank, as before.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../main/contract/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { newId } from '../../../main/sandbox/time.js';
import {
  call,
  eventFor,
  freshMarket,
  storeBuyer,
  subscribedReceiver,
  type Market,
  type Problem,
  type Receiver,
} from '../../helpers/sandbox.js';

let clockMs = Date.parse('2026-11-29T15:00:00.000Z');
let sandbox: RunningSandbox;
let market: Market;
let buyerId: string;
let receiver: Receiver;

beforeAll(async () => {
  sandbox = await startSandbox({ now: () => new Date(clockMs) });
  market = await freshMarket(sandbox);
  buyerId = storeBuyer(market);
  receiver = await subscribedReceiver(market);
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

async function issue(paymentType: 'bolepix' | 'boleto', extra: Record<string, unknown> = {}): Promise<Transaction> {
  const { status, body } = await call<Transaction>(market, 'POST', `/v1/marketplaces/${market.id}/transactions`, {
    payment_type: paymentType,
    on_behalf_of: market.sellerId,
    customer: buyerId,
    amount: 15_000,
    currency: 'BRL',
    description: 'Pedido',
    reference_id: `pix-${newId().slice(0, 8)}`,
    ...extra,
  });
  expect(status).toBe(201);
  return body;
}

const pay = (id: string, body: unknown) =>
  call<Transaction & Problem>(market, 'POST', `/v1/sandbox/marketplaces/${market.id}/transactions/${id}/pay`, body);

describe('the sandbox marks a bolepix paid by Pix', () => {
  it('as the provider reports it: succeeded, boleto paid, pix.paid_at and the end-to-end id, and the webhook says so', async () => {
    const bolepix = await issue('bolepix');
    expect(bolepix.pix?.paid_at).toBeUndefined();
    const { status, body } = await pay(bolepix.id, { via: 'pix' });
    expect(status).toBe(200);
    expect(body.status).toBe('succeeded');
    expect(body.boleto?.status).toBe('paid');
    expect(body.pix?.paid_at).toBe('2026-11-29T15:00:00+00:00');
    expect(body.pix?.end_to_end_id).toMatch(/^E99999999202611291500[0-9a-zA-Z]{11}$/);
    expect(body.history.at(-1)).toMatchObject({
      operation_type: 'paid',
      status: 'succeeded',
      response_message: 'Paid by Pix',
    });

    const read = (await call<Transaction>(market, 'GET', `/v1/marketplaces/${market.id}/transactions/${bolepix.id}`))
      .body;
    expect(read.pix).toEqual(body.pix);

    const event = await eventFor(receiver, bolepix.id, 'transaction.succeeded');
    expect(event).toMatchObject({
      payment_type: 'bolepix',
      status: 'succeeded',
      amount: 15_000,
      paid_at: '2026-11-29T15:00:00+00:00',
      end_to_end_id: body.pix?.end_to_end_id,
    });
  });

  it('paid at a bank (no body field, or via boleto): no Pix fields, no end-to-end id in the webhook', async () => {
    for (const request of [{}, { via: 'boleto' }]) {
      const bolepix = await issue('bolepix');
      const { status, body } = await pay(bolepix.id, request);
      expect(status).toBe(200);
      expect(body.boleto?.status).toBe('paid');
      expect(body.pix?.paid_at).toBeUndefined();
      expect(body.pix?.end_to_end_id).toBeUndefined();
      const event = await eventFor(receiver, bolepix.id, 'transaction.succeeded');
      expect(event).not.toHaveProperty('end_to_end_id');
    }
  });

  it('refuses a Pix payment once the Pix code expired (409); the boleto is still payable at a bank', async () => {
    const bolepix = await issue('bolepix', { payment_method: { due_at: '2026-11-30' } });
    expect(bolepix.pix?.expiration_date_time).toBe('2026-11-30T23:59:59+00:00');
    const saved = clockMs;
    clockMs = Date.parse('2026-12-01T00:00:00.000Z');
    try {
      const late = await pay(bolepix.id, { via: 'pix' });
      expect(late.status).toBe(409);
      expect(late.body.detail).toBe('The Pix code expired at 2026-11-30T23:59:59+00:00; payment refused');
      const atBank = await pay(bolepix.id, { via: 'boleto' });
      expect(atBank.status).toBe(200);
    } finally {
      clockMs = saved;
    }
  });

  it('refuses Pix for a plain boleto (400), a second payment (409) and an unknown field (400)', async () => {
    const boleto = await issue('boleto');
    expect((await pay(boleto.id, { via: 'pix' })).status).toBe(400);
    const bolepix = await issue('bolepix');
    expect((await pay(bolepix.id, { via: 'cash' })).status).toBe(400);
    expect((await pay(bolepix.id, { via: 'pix', amount: 1 })).status).toBe(400);
    expect((await pay(bolepix.id, { via: 'pix' })).status).toBe(200);
    const again = await pay(bolepix.id, { via: 'pix' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toBe('Boleto is already paid');
  });
});
