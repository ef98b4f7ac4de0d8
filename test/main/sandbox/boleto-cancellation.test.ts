import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoletoCancellation, ErrorA, Transaction } from '../../../main/contract/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { newId } from '../../../main/sandbox/time.js';
import {
  call,
  eventFor,
  eventually,
  freshMarket,
  storeBuyer,
  subscribedReceiver,
  type Market,
  type Problem,
  type Receiver,
} from '../../helpers/sandbox.js';

/** A marketplace with a buyer to issue boletos to. */
type BuyerMarket = Market & { readonly buyerId: string };

async function marketWithBuyer(sandbox: RunningSandbox): Promise<BuyerMarket> {
  const market = await freshMarket(sandbox);
  return { ...market, buyerId: storeBuyer(market) };
}

async function issue(market: BuyerMarket, overrides: Record<string, unknown> = {}): Promise<Transaction> {
  const { status, body } = await call<Transaction>(market, 'POST', `/v1/marketplaces/${market.id}/transactions`, {
    payment_type: 'boleto',
    on_behalf_of: market.sellerId,
    customer: market.buyerId,
    amount: 9900,
    currency: 'BRL',
    description: 'Pedido',
    reference_id: `order-${newId().slice(0, 8)}`,
    ...overrides,
  });
  expect(status).toBe(201);
  return body;
}

/** A card sale, pending: what the boleto endpoints must refuse. */
async function cardSale(market: Market, overrides: Record<string, unknown>): Promise<Transaction> {
  const { status, body } = await call<Transaction>(market, 'POST', `/v1/marketplaces/${market.id}/transactions`, {
    payment_type: 'credit',
    on_behalf_of: market.sellerId,
    description: 'Venda',
    currency: 'BRL',
    amount: 1000,
    ...overrides,
  });
  expect(status).toBe(201);
  return body;
}

const cancelPath = (market: Market, id: string) => `/v1/cancellation/marketplaces/${market.id}/transactions/${id}`;
const cancel = (market: Market, id: string) =>
  call<BoletoCancellation & Problem>(market, 'POST', cancelPath(market, id), {});
const pay = (market: Market, id: string) =>
  call<Transaction & Problem>(market, 'POST', `/v1/sandbox/marketplaces/${market.id}/transactions/${id}/pay`, {});
const lookup = async (market: Market, id: string): Promise<Transaction> =>
  (await call<Transaction>(market, 'GET', `/v1/marketplaces/${market.id}/transactions/${id}`)).body;

const DELAY_MS = 60_000;

// A sandbox on a clock the tests move: the processing delay passes when they say so.
let clockMs = Date.now();
let clocked: RunningSandbox;
let market: BuyerMarket;
let receiver: Receiver;

const advance = (ms: number): void => {
  clockMs += ms;
};

beforeAll(async () => {
  clocked = await startSandbox({ now: () => new Date(clockMs), settings: { boletoCancellationDelayMs: DELAY_MS } });
  market = await marketWithBuyer(clocked);
  receiver = await subscribedReceiver(market);
});

afterAll(async () => {
  await clocked.close();
  await receiver.close();
});

describe('requesting the cancellation of a boleto', () => {
  it('answers 200 REQUESTED at once', async () => {
    const boleto = await issue(market);
    const { status, body } = await cancel(market, boleto.id);
    expect(status).toBe(200);
    expect(body).toMatchObject({ resource: 'cancellation', status: 'REQUESTED', transaction_id: boleto.id });
    expect(body.message.length).toBeGreaterThan(0);
  });

  it('leaves the boleto as it was until the processing delay has passed', async () => {
    const boleto = await issue(market);
    await cancel(market, boleto.id);
    advance(DELAY_MS - 1000);
    const during = await lookup(market, boleto.id);
    expect(during.status).toBe('pending');
    expect(during.boleto?.status).toBe('not_paid');
    expect(during.history.map((h) => h.operation_type)).toEqual(['created']);
    advance(1000);
  });

  it('cancels it once the delay has passed: status canceled, history canceled, transaction.canceled', async () => {
    const boleto = await issue(market, { reference_id: 'to-cancel' });
    await cancel(market, boleto.id);
    advance(DELAY_MS);
    const after = await lookup(market, boleto.id);
    expect(after.status).toBe('canceled');
    expect(after.boleto?.status).toBe('canceled');
    expect(after.history.at(-1)).toMatchObject({ operation_type: 'canceled', status: 'succeeded' });
    const event = await eventFor(receiver, boleto.id, 'transaction.canceled');
    expect(event).toMatchObject({
      payment_type: 'boleto',
      status: 'canceled',
      amount: 9900,
      reference_id: 'to-cancel',
    });
  });

  it('refuses a payment after the cancellation took effect', async () => {
    const boleto = await issue(market);
    await cancel(market, boleto.id);
    advance(DELAY_MS);
    const { status, body } = await pay(market, boleto.id);
    expect(status).toBe(409);
    expect(body.detail).toBe('Boleto was canceled; payment refused');
  });

  it('accepts a payment made before the delay passed, and the cancellation is then ignored', async () => {
    const boleto = await issue(market);
    await cancel(market, boleto.id);
    expect((await pay(market, boleto.id)).status).toBe(200);
    advance(DELAY_MS);
    const after = await lookup(market, boleto.id);
    expect(after.status).toBe('succeeded');
    expect(after.boleto?.status).toBe('paid');
    expect(await eventFor(receiver, boleto.id, 'transaction.cancellation.ignored')).toMatchObject({
      payment_type: 'boleto',
      status: 'succeeded',
    });
  });

  it('is irreversible: a repeat answers REQUESTED and moves nothing', async () => {
    const boleto = await issue(market);
    await cancel(market, boleto.id);
    const row = () =>
      clocked.context.db
        .statement('SELECT apply_at_ms FROM boleto_cancellations WHERE transaction_id = ?')
        .get(boleto.id) as { apply_at_ms: number };
    const due = row().apply_at_ms;
    advance(10_000);
    const again = await cancel(market, boleto.id);
    expect(again.body.status).toBe('REQUESTED');
    expect(row().apply_at_ms).toBe(due);
    advance(DELAY_MS);
    expect((await lookup(market, boleto.id)).status).toBe('canceled');
    const later = await cancel(market, boleto.id);
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ status: 'REQUESTED', message: 'Boleto is already canceled' });
    expect((await lookup(market, boleto.id)).history.filter((h) => h.operation_type === 'canceled')).toHaveLength(1);
  });

  it('ignores the request for a paid boleto: 200 IGNORED and transaction.cancellation.ignored', async () => {
    const boleto = await issue(market);
    await pay(market, boleto.id);
    const { status, body } = await cancel(market, boleto.id);
    expect(status).toBe(200);
    expect(body).toMatchObject({ resource: 'cancellation', status: 'IGNORED', transaction_id: boleto.id });
    expect(body.message).toContain('paid');
    advance(DELAY_MS);
    expect((await lookup(market, boleto.id)).boleto?.status).toBe('paid');
    const event = await eventFor(receiver, boleto.id, 'transaction.cancellation.ignored');
    expect(event).toMatchObject({ status: 'succeeded', reason: 'Boleto was already paid' });
  });

  it('cancels a bolepix the same way', async () => {
    const bolepix = await issue(market, { payment_type: 'bolepix' });
    expect((await cancel(market, bolepix.id)).body.status).toBe('REQUESTED');
    advance(DELAY_MS);
    expect((await lookup(market, bolepix.id)).boleto?.status).toBe('canceled');
  });

  it('accepts a request with no body at all, or an empty JSON body', async () => {
    const first = await issue(market);
    const noBody = await call<BoletoCancellation>(market, 'POST', cancelPath(market, first.id));
    expect(noBody.status).toBe(200);
    expect(noBody.body.status).toBe('REQUESTED');
    const second = await issue(market);
    const empty = await call<BoletoCancellation>(market, 'POST', cancelPath(market, second.id), '');
    expect(empty.status).toBe(200);
  });

  it('rejects a body that is not an empty object', async () => {
    const boleto = await issue(market);
    const { status, body } = await call<ErrorA>(market, 'POST', cancelPath(market, boleto.id), {
      reason: 'changed my mind',
    });
    expect(status).toBe(400);
    expect(body.detail).toBe('Unexpected fields in request [reason]');
  });

  it('answers 400 for a card transaction', async () => {
    const card = await cardSale(market, { payment_locale: 'pinpad', terminal: 'PINPAD-1' });
    const { status, body } = await cancel(market, card.id);
    expect(status).toBe(400);
    expect(body.detail).toBe(
      'Only boleto and bolepix transactions can be cancelled here; void card transactions instead',
    );
  });

  it('answers 404 for an unknown transaction', async () => {
    for (const id of [newId(), 'nope']) {
      const { status, body } = await cancel(market, id);
      expect(status).toBe(404);
      expect(body.detail).toBe('Transaction not found');
    }
  });
});

describe('the processing delay on the real clock', () => {
  it('is applied by the sweeper without any further request', async () => {
    const quick = await startSandbox({ settings: { boletoCancellationDelayMs: 50 } });
    try {
      const own = await marketWithBuyer(quick);
      const boleto = await issue(own);
      await cancel(own, boleto.id);
      const applied = await eventually(() => {
        const row = quick.context.db
          .statement('SELECT outcome FROM boleto_cancellations WHERE transaction_id = ? AND applied_at IS NOT NULL')
          .get(boleto.id) as { outcome: string } | undefined;
        return row?.outcome;
      }, 'the sweeper to apply the cancellation');
      expect(applied).toBe('canceled');
      expect((await lookup(own, boleto.id)).status).toBe('canceled');
    } finally {
      await quick.close();
    }
  });

  it('is applied on restart for a cancellation that fell due while the sandbox was stopped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pinbridge-cancellation-'));
    try {
      const first = await startSandbox({ dataDir, settings: { boletoCancellationDelayMs: 100 } });
      const own = await marketWithBuyer(first);
      const boleto = await issue(own);
      await cancel(own, boleto.id);
      await first.close();
      await new Promise((resolve) => setTimeout(resolve, 150));

      const second = await startSandbox({ dataDir, settings: { boletoCancellationDelayMs: 100 } });
      try {
        // Applied during startup, before any request reads it.
        const row = second.context.db
          .statement('SELECT outcome FROM boleto_cancellations WHERE transaction_id = ?')
          .get(boleto.id) as {
          outcome: string | null;
        };
        expect(row.outcome).toBe('canceled');
        const again = { ...own, sandbox: second };
        expect((await lookup(again, boleto.id)).boleto?.status).toBe('canceled');
        expect((await pay(again, boleto.id)).status).toBe(409);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('paying a boleto (sandbox helper)', () => {
  it('marks it paid: succeeded, boleto paid with paid_at, history paid, transaction.succeeded', async () => {
    const boleto = await issue(market, { reference_id: 'to-pay' });
    const { status, body } = await pay(market, boleto.id);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'succeeded', boleto: { status: 'paid' } });
    expect(body.boleto?.paid_at).toMatch(/\+00:00$/);
    expect(body.history.at(-1)).toMatchObject({ operation_type: 'paid', status: 'succeeded', amount: 9900 });
    const event = await eventFor(receiver, boleto.id, 'transaction.succeeded');
    expect(event).toMatchObject({
      payment_type: 'boleto',
      status: 'succeeded',
      amount: 9900,
      reference_id: 'to-pay',
      paid_at: body.boleto?.paid_at,
    });
  });

  it('answers 409 for a boleto already paid', async () => {
    const boleto = await issue(market);
    await pay(market, boleto.id);
    const { status, body } = await pay(market, boleto.id);
    expect(status).toBe(409);
    expect(body.detail).toBe('Boleto is already paid');
  });

  it('answers 409 once the payment limit date has passed', async () => {
    const today = new Date(clockMs).toISOString().slice(0, 10);
    const boleto = await issue(market, { payment_method: { expiration_date: today, payment_limit_date: today } });
    advance(86_400_000);
    const { status, body } = await pay(market, boleto.id);
    expect(status).toBe(409);
    expect(body.detail).toBe(`Boleto is past its payment limit date (${today}); payment refused`);
  });

  it('answers 400 for a card transaction', async () => {
    const card = await cardSale(market, { payment_locale: 'tap_to_pay', payment_type: 'debit', terminal: 'phone-1' });
    const { status, body } = await pay(market, card.id);
    expect(status).toBe(400);
    expect(body.detail).toBe('Transaction is not a boleto');
  });
});
