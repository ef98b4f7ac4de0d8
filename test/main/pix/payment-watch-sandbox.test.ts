/**
 * The Pix watch against the real payments sandbox over HTTP on 127.0.0.1, through the real
 * client: a bolepix created, watched, paid by Pix with the sandbox's route, and the watch says
 * paid with the sandbox's end-to-end id; a Pix code that expires unpaid; the API answering 503
 * and refusing connections for a while, then back. Real timers, short intervals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentsClient } from '../../../main/api/index.js';
import type { Transaction } from '../../../main/contract/index.js';
import { systemScheduler } from '../../../main/core/scheduler.js';
import { type PixWatchOutcome, type PixWatchUpdate, watchBolepix } from '../../../main/pix/payment-watch.js';
import { pinpadScreenFromGix } from '../../../main/pix/pinpad-screen.js';
import { renderPinpadQr } from '../../../main/pix/qr-image.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { newId } from '../../../main/sandbox/time.js';
import { startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';
import { decodeQrGif, decodeQrPng } from '../../helpers/qr-decode.js';
import { call, eventually, freshMarket, storeBuyer, type Market } from '../../helpers/sandbox.js';

/** The sandbox's clock and the watch's: one wall clock the specs can move. */
let clockMs = Date.parse('2026-11-29T15:00:00.000Z');
const now = (): Date => new Date(clockMs);
let sandbox: RunningSandbox;
let market: Market;
let buyerId: string;
let proxy: FaultProxy;
let client: PaymentsClient;

beforeAll(async () => {
  sandbox = await startSandbox({ now });
  market = await freshMarket(sandbox);
  buyerId = storeBuyer(market);
  proxy = await startFaultProxy(sandbox.url);
  client = new PaymentsClient({ baseUrl: proxy.url, token: market.token, marketplaceId: market.id });
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

const BOLEPIX_READ = { method: 'GET', path: /\/v1\/marketplaces\/[^/]+\/transactions\/[0-9a-f]{32}$/ } as const;

async function createBolepix(dueAt?: string): Promise<Transaction> {
  return client.boletos.createBolepix({
    on_behalf_of: market.sellerId,
    customer: buyerId,
    amount: 15_000,
    description: 'Pedido 1001',
    reference_id: `pix-${newId().slice(0, 8)}`,
    ...(dueAt ? { payment_method: { due_at: dueAt } } : {}),
  }) as Promise<Transaction>;
}

function watch(id: string) {
  const updates: PixWatchUpdate[] = [];
  let outcome: PixWatchOutcome | undefined;
  const handle = watchBolepix(client.transactions, id, {
    scheduler: systemScheduler,
    now,
    intervalMs: 20,
    failureBaseMs: 20,
    failureCapMs: 80,
    onUpdate: (update) => updates.push(update),
  });
  void handle.done.then((value) => (outcome = value));
  return { handle, updates, outcome: () => outcome };
}

describe('the bolepix the API returns, drawn for the PINPAD', () => {
  it("its own BR Code, drawn for the PPC-930's screen (GIX 03200240, 11) with the amount, reads back as exactly that code", async () => {
    const bolepix = await createBolepix();
    const code = bolepix.pix!.qr_code;
    const screen = pinpadScreenFromGix({ graphicSize: '03200240', mediaSupport: '11', maxBytes: 4096 })!;
    const png = renderPinpadQr(code, screen, { caption: 'R$ 150,00' });
    expect(png.format).toBe('png');
    expect(png.bytes.length).toBeLessThanOrEqual(4096);
    expect(decodeQrPng(png.bytes)).toBe(code);
    const gif = renderPinpadQr(code, { ...screen, formats: ['gif'] }, { caption: 'R$ 150,00' });
    expect(decodeQrGif(gif.bytes)).toBe(code);
  });
});

describe('learning over HTTP that a bolepix shown at the counter was paid', () => {
  it('created, watched (waiting), paid by Pix in the sandbox: the watch says paid, with the end-to-end id', async () => {
    const bolepix = await createBolepix();
    const watching = watch(bolepix.id);
    await eventually(() => watching.updates.filter((u) => u.state === 'waiting').length >= 2 || undefined, 'two reads');
    expect(watching.outcome()).toBeUndefined();

    const paid = await call<Transaction>(
      market,
      'POST',
      `/v1/sandbox/marketplaces/${market.id}/transactions/${bolepix.id}/pay`,
      { via: 'pix' },
    );
    expect(paid.status).toBe(200);
    const outcome = await watching.handle.done;
    expect(outcome).toEqual({
      state: 'paid',
      transactionId: bolepix.id,
      amount: 15_000,
      via: 'pix',
      paidAt: '2026-11-29T15:00:00+00:00',
      endToEndId: paid.body.pix?.end_to_end_id,
    });
    expect(JSON.stringify(watching.updates)).not.toMatch(/qr_code|card/);
  });

  it('a Pix code that expires unpaid: waiting until its expiry and the grace, then expired', async () => {
    const bolepix = await createBolepix('2026-11-29');
    expect(bolepix.pix?.expiration_date_time).toBe('2026-11-29T23:59:59+00:00');
    const watching = watch(bolepix.id);
    await eventually(() => watching.updates.some((u) => u.state === 'waiting') || undefined, 'a read');
    clockMs = Date.parse('2026-11-30T00:00:10.000Z'); // past the expiry, within the 30 s grace
    const reads = watching.updates.length;
    await eventually(() => watching.updates.length >= reads + 2 || undefined, 'reads within the grace');
    expect(watching.outcome()).toBeUndefined();
    clockMs = Date.parse('2026-11-30T00:00:30.000Z');
    await expect(watching.handle.done).resolves.toEqual({
      state: 'expired',
      transactionId: bolepix.id,
      expiredAt: '2026-11-29T23:59:59.000Z',
    });
    clockMs = Date.parse('2026-11-29T15:00:00.000Z');
  });

  it('the API down for a while (503, then connections reset), then back: failing updates, and paid once it answers', async () => {
    const bolepix = await createBolepix();
    const unavailable = proxy.add({ ...BOLEPIX_READ, action: 'status', status: 503, times: Infinity });
    const watching = watch(bolepix.id);
    await eventually(
      () => watching.updates.filter((u) => u.state === 'failing').length >= 3 || undefined,
      'three failed reads',
    );
    unavailable.remove();
    const reset = proxy.add({ ...BOLEPIX_READ, action: 'reset_before', times: Infinity });
    await eventually(() => reset.hits >= 2 || undefined, 'two reads reset');
    // Paid while the agent could not see it: the watch learns it when the API answers again.
    const paid = await call(market, 'POST', `/v1/sandbox/marketplaces/${market.id}/transactions/${bolepix.id}/pay`, {
      via: 'pix',
    });
    expect(paid.status).toBe(200);
    expect(watching.outcome()).toBeUndefined();
    reset.remove();
    await expect(watching.handle.done).resolves.toMatchObject({ state: 'paid', via: 'pix' });

    const failing = watching.updates.filter((u) => u.state === 'failing');
    expect(failing.slice(0, 3).map((u) => u.code)).toEqual(['server_error', 'server_error', 'server_error']);
    expect(failing.map((u) => u.code)).toContain('connection_error');
    expect(failing.map((u) => u.failures)).toEqual(failing.map((_u, index) => index + 1));
  });

  it('a cancelled bolepix ends the watch as cancelled', async () => {
    const bolepix = await createBolepix();
    const watching = watch(bolepix.id);
    await eventually(() => watching.updates.some((u) => u.state === 'waiting') || undefined, 'a read');
    await client.boletos.cancel(bolepix.id);
    // The sandbox applies a cancellation after its processing delay; move its clock past it.
    clockMs += 10 * 60_000;
    await expect(watching.handle.done).resolves.toEqual({
      state: 'cancelled',
      transactionId: bolepix.id,
      status: 'canceled',
    });
    clockMs = Date.parse('2026-11-29T15:00:00.000Z');
  });
});
