import { afterEach, describe, expect, it } from 'vitest';
import { NotFoundError, TimeoutError } from '../../../main/api/index.js';
import { startStub, stubClient, TXN_ID, wireTransaction, type Stub } from './stub-server.js';

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const pending = { body: wireTransaction({ payment_locale: 'tap_to_pay', status: 'pending' }) };

describe('transactions.waitForCompletion', () => {
  it('polls until the status is no longer pending and returns the transaction', async () => {
    stub = await startStub(pending, pending, { body: wireTransaction({ status: 'succeeded', amount: '15.00' }) });
    const done = await stubClient(stub).tapToPay.waitForCompletion(TXN_ID, { intervalMs: 5, timeoutMs: 5_000 });
    expect(done.status).toBe('succeeded');
    expect(done.amount).toBe(1500);
    expect(stub.requests).toHaveLength(3);
    expect(new Set(stub.requests.map((r) => `${r.method} ${r.path}`))).toEqual(
      new Set([`GET /v1/marketplaces/0123456789abcdef0123456789abcdef/transactions/${TXN_ID}`]),
    );
  });

  it('waits longer between polls as time goes by (backoff)', async () => {
    stub = await startStub(pending, pending, pending, pending, { body: wireTransaction({ status: 'failed' }) });
    await stubClient(stub).transactions.waitForCompletion(TXN_ID, { intervalMs: 40, maxIntervalMs: 1_000 });
    const gaps = stub.requests.slice(1).map((r, i) => r.at - (stub?.requests[i]?.at ?? 0));
    // 40, 60, 90, 135 ms: each pause at least the planned one.
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[3]).toBeGreaterThanOrEqual(130);
  });

  it('rides out transient failures of a poll', async () => {
    stub = await startStub(
      pending,
      { status: 503, body: 'busy' },
      { reset: true },
      { body: wireTransaction({ status: 'failed' }) },
    );
    const done = await stubClient(stub, { maxRetries: 0 }).transactions.waitForCompletion(TXN_ID, { intervalMs: 5 });
    expect(done.status).toBe('failed');
    expect(stub.requests).toHaveLength(4);
  });

  it('throws the error of a poll that cannot get better (404)', async () => {
    stub = await startStub(pending, {
      status: 404,
      body: { status: 404, detail: 'Transaction not found', trace_id: 'x' },
    });
    await expect(stubClient(stub).transactions.waitForCompletion(TXN_ID, { intervalMs: 5 })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });

  it('throws TimeoutError when the transaction is still pending at the deadline', async () => {
    stub = await startStub(pending);
    const error = await stubClient(stub)
      .transactions.waitForCompletion(TXN_ID, { intervalMs: 10, timeoutMs: 100 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).message).toMatch(/still pending after 100 ms/);
    expect((error as TimeoutError).timeoutMs).toBe(100);
  });

  it('stops when the signal aborts, with its reason, and polls no more', async () => {
    stub = await startStub(pending);
    const controller = new AbortController();
    const reason = new Error('sale cancelled');
    const waiting = stubClient(stub).transactions.waitForCompletion(TXN_ID, {
      intervalMs: 1_000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(reason), 50);
    await expect(waiting).rejects.toBe(reason);
    const polls = stub.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(stub.requests.length).toBe(polls);
    expect(polls).toBe(1);
  });
});
