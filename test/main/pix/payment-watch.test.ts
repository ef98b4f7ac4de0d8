/**
 * The watch that learns a bolepix was paid, on a clock the specs move (FakeScheduler): how often
 * it reads, how it waits after failures, and how each ending is told. The same watch against
 * the real sandbox over HTTP: payment-watch-sandbox.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionError, NotFoundError, RateLimitError, ServerError } from '../../../main/api/errors.js';
import type { Transaction } from '../../../main/api/normalize.js';
import {
  type BolepixSource,
  PixWatchError,
  type PixWatchOutcome,
  type PixWatchUpdate,
  watchBolepix,
} from '../../../main/pix/payment-watch.js';
import { FakeScheduler } from '../../helpers/fake-scheduler.js';
import { thrown } from '../../helpers/thrown.js';

const ID = 'a'.repeat(32);
const EXPIRES = '2026-11-29T23:59:59+00:00';

/** A bolepix as the client returns it, pending unless changed. */
function bolepix(changes: Partial<Transaction> = {}): Transaction {
  return {
    id: ID,
    resource: 'transaction',
    status: 'pending',
    amount: 15_000,
    original_amount: 15_000,
    currency: 'BRL',
    payment_type: 'bolepix',
    boleto: {
      barcode: '0'.repeat(44),
      digitable_line: '',
      url: '',
      expiration_date: '2026-11-29',
      payment_limit_date: '2026-12-28',
      billing_instructions: null,
      status: 'not_paid',
      paid_at: null,
    },
    pix: { qr_code: '000201…', qr_code_url: '', expiration_date_time: EXPIRES },
    ...changes,
  } as Transaction;
}

/** A source answering from a script: each read takes the next answer (the last one repeats). */
class ScriptedSource implements BolepixSource {
  reads = 0;
  aborted = 0;
  readonly answers: Array<Transaction | Error | 'hang'>;

  constructor(...answers: Array<Transaction | Error | 'hang'>) {
    this.answers = answers;
  }

  retrieve(id: string, options: { signal: AbortSignal; timeoutMs: number; maxRetries: number }): Promise<Transaction> {
    expect(id).toBe(ID);
    expect(options.maxRetries).toBe(0);
    const answer = this.answers[Math.min(this.reads, this.answers.length - 1)]!;
    this.reads++;
    if (answer === 'hang') {
      return new Promise((_resolve, reject) =>
        options.signal.addEventListener('abort', () => {
          this.aborted++;
          reject(options.signal.reason as Error);
        }),
      );
    }
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
  }
}

function watch(source: BolepixSource, extra: { expiresAt?: Date; epoch?: string } = {}) {
  const scheduler = new FakeScheduler(Date.parse(extra.epoch ?? '2026-11-29T15:00:00.000Z'));
  const updates: PixWatchUpdate[] = [];
  let outcome: PixWatchOutcome | undefined;
  const handle = watchBolepix(source, ID, {
    scheduler,
    now: scheduler.date,
    onUpdate: (update) => updates.push(update),
    random: () => 0,
    ...(extra.expiresAt ? { expiresAt: extra.expiresAt } : {}),
  });
  void handle.done.then((value) => (outcome = value));
  return { scheduler, updates, handle, outcome: () => outcome };
}

const paidByPix = bolepix({
  status: 'succeeded',
  boleto: { ...bolepix().boleto!, status: 'paid', paid_at: '2026-11-29T15:00:07+00:00' },
  pix: {
    ...bolepix().pix!,
    paid_at: '2026-11-29T15:00:07+00:00',
    end_to_end_id: 'E9999999920261129150012345678901',
  },
});

describe('watching a bolepix while its QR is shown', () => {
  it('reads at once, then every 2 s while it is pending, and reports paid by Pix with the end-to-end id', async () => {
    const source = new ScriptedSource(bolepix(), bolepix(), bolepix(), paidByPix);
    const { scheduler, updates, outcome } = watch(source);
    await scheduler.advance(0);
    expect(source.reads).toBe(1);
    expect(updates).toEqual([{ state: 'waiting', transactionId: ID, reads: 1, expiresAt: '2026-11-29T23:59:59.000Z' }]);
    expect(scheduler.pending()).toEqual([2_000]);
    await scheduler.advance(1_999);
    expect(source.reads).toBe(1);
    await scheduler.advance(1);
    expect(source.reads).toBe(2);
    await scheduler.advance(4_000);
    expect(outcome()).toEqual({
      state: 'paid',
      transactionId: ID,
      amount: 15_000,
      via: 'pix',
      paidAt: '2026-11-29T15:00:07+00:00',
      endToEndId: 'E9999999920261129150012345678901',
    });
    expect(scheduler.pending()).toEqual([]);
    await scheduler.advance(60_000);
    expect(source.reads).toBe(4);
  });

  it('reports a payment at a bank as paid via boleto, without an end-to-end id', async () => {
    const atBank = bolepix({
      status: 'succeeded',
      boleto: { ...bolepix().boleto!, status: 'paid', paid_at: '2026-11-29T15:10:00+00:00' },
    });
    const { scheduler, outcome } = watch(new ScriptedSource(atBank));
    await scheduler.advance(0);
    expect(outcome()).toMatchObject({
      state: 'paid',
      via: 'boleto',
      paidAt: '2026-11-29T15:10:00+00:00',
      endToEndId: null,
    });
  });

  it('ends at a cancellation (the boleto canceled), and at a failed transaction', async () => {
    const canceled = bolepix({ status: 'canceled', boleto: { ...bolepix().boleto!, status: 'canceled' } });
    const first = watch(new ScriptedSource(bolepix(), canceled));
    await first.scheduler.advance(2_000);
    expect(first.outcome()).toEqual({ state: 'cancelled', transactionId: ID, status: 'canceled' });
    const second = watch(new ScriptedSource(bolepix({ status: 'failed' })));
    await second.scheduler.advance(0);
    expect(second.outcome()).toEqual({ state: 'cancelled', transactionId: ID, status: 'failed' });
  });

  it('expires when a read after the Pix expiry (and 30 s of grace for a late report) still says pending', async () => {
    const source = new ScriptedSource(bolepix());
    const { scheduler, outcome, updates } = watch(source, { epoch: '2026-11-29T23:59:50.000Z' });
    await scheduler.advance(38_000);
    expect(outcome()).toBeUndefined();
    await scheduler.advance(2_000);
    expect(outcome()).toEqual({ state: 'expired', transactionId: ID, expiredAt: '2026-11-29T23:59:59.000Z' });
    expect(updates.at(-1)).toMatchObject({ state: 'waiting' });
  });

  it('does not call a QR expired while the API cannot be read: it may have been paid meanwhile', async () => {
    const down = new ServerError({ message: 'Payments API answered 503', status: 503 });
    const source = new ScriptedSource(bolepix(), down, down, down, down, down, down, down, down, paidByPix);
    const { scheduler, outcome, updates } = watch(source, { epoch: '2026-11-29T23:59:50.000Z' });
    await scheduler.advance(2 * 60_000);
    expect(updates.filter((u) => u.state === 'failing').length).toBeGreaterThanOrEqual(5);
    expect(outcome()).toBeUndefined();
    await scheduler.advance(2 * 60_000);
    expect(outcome()).toMatchObject({ state: 'paid', via: 'pix' });
  });

  it("gives up at the caller's own expiry when it comes before the Pix code's", async () => {
    const { scheduler, outcome } = watch(new ScriptedSource(bolepix()), {
      expiresAt: new Date('2026-11-29T15:01:00.000Z'),
    });
    await scheduler.advance(89_000);
    expect(outcome()).toBeUndefined();
    await scheduler.advance(2_000);
    expect(outcome()).toMatchObject({ state: 'expired', expiredAt: '2026-11-29T15:01:00.000Z' });
  });

  it('after failed reads waits 2, 4, 8, 16, 30, 30 s, says so each time, and goes back to 2 s once a read works', async () => {
    const down = new ServerError({ message: 'Payments API answered 503', status: 503 });
    const source = new ScriptedSource(down, down, down, down, down, down, bolepix(), paidByPix);
    const { scheduler, updates, outcome } = watch(source);
    await scheduler.advance(0);
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const [next] = scheduler.pending();
      waits.push(next!);
      await scheduler.advance(next!);
    }
    expect(waits).toEqual([2_000, 4_000, 8_000, 16_000, 30_000, 30_000]);
    expect(updates.filter((u) => u.state === 'failing')).toHaveLength(6);
    expect(updates[0]).toMatchObject({ state: 'failing', code: 'server_error', failures: 1, retryInMs: 2_000 });
    expect(updates[5]).toMatchObject({ state: 'failing', failures: 6, retryInMs: 30_000 });
    expect(updates[6]).toMatchObject({ state: 'waiting', reads: 1 });
    expect(scheduler.pending()).toEqual([2_000]);
    await scheduler.advance(2_000);
    expect(outcome()).toMatchObject({ state: 'paid' });
  });

  it("waits as long as a 429's Retry-After says, when longer than its own backoff", async () => {
    const limited = new RateLimitError({ message: 'Too many requests', status: 429, retryAfterMs: 20_000 });
    const { scheduler, updates } = watch(new ScriptedSource(limited, bolepix()));
    await scheduler.advance(0);
    expect(updates[0]).toMatchObject({ state: 'failing', code: 'rate_limited', retryInMs: 20_000 });
    expect(scheduler.pending()).toEqual([20_000]);
  });

  it('keeps trying through a network failure with the client’s code in the update', async () => {
    const refused = new ConnectionError({ message: 'connect ECONNREFUSED 127.0.0.1:1' });
    const { scheduler, updates } = watch(new ScriptedSource(refused, bolepix()));
    await scheduler.advance(2_000);
    expect(updates.map((u) => u.state)).toEqual(['failing', 'waiting']);
    expect(updates[0]).toMatchObject({ code: 'connection_error', message: 'connect ECONNREFUSED 127.0.0.1:1' });
  });

  it('ends not_found when the provider does not know the transaction, not_bolepix for another kind', async () => {
    const gone = watch(new ScriptedSource(new NotFoundError({ message: 'Transaction not found', status: 404 })));
    await gone.scheduler.advance(0);
    expect(gone.outcome()).toEqual({ state: 'not_found', transactionId: ID });
    const card = watch(new ScriptedSource(bolepix({ payment_type: 'credit', pix: undefined })));
    await card.scheduler.advance(0);
    expect(card.outcome()).toEqual({ state: 'not_bolepix', transactionId: ID, paymentType: 'credit' });
  });

  it('stop() ends it at once, aborting the read under way; nothing runs after', async () => {
    const source = new ScriptedSource('hang');
    const { scheduler, handle, outcome } = watch(source);
    await scheduler.advance(0);
    expect(source.reads).toBe(1);
    handle.stop();
    await scheduler.advance(0);
    expect(source.aborted).toBe(1);
    expect(outcome()).toEqual({ state: 'stopped', transactionId: ID });
    handle.checkNow();
    await scheduler.advance(60_000);
    expect(source.reads).toBe(1);
  });

  it('checkNow() reads at once instead of at the next tick (a POS that heard the webhook)', async () => {
    const source = new ScriptedSource(bolepix(), paidByPix);
    const { scheduler, handle, outcome } = watch(source);
    await scheduler.advance(0);
    handle.checkNow();
    await scheduler.advance(0);
    expect(source.reads).toBe(2);
    expect(outcome()).toMatchObject({ state: 'paid' });
  });

  it('a listener that throws does not end the watch', async () => {
    const scheduler = new FakeScheduler();
    const source = new ScriptedSource(bolepix(), paidByPix);
    const handle = watchBolepix(source, ID, {
      scheduler,
      now: scheduler.date,
      onUpdate: () => {
        throw new Error('listener bug');
      },
    });
    await scheduler.advance(2_000);
    await expect(handle.done).resolves.toMatchObject({ state: 'paid' });
  });

  it('refuses an id that is not a transaction id', () => {
    const scheduler = new FakeScheduler();
    const error = thrown(() => watchBolepix(new ScriptedSource(bolepix()), 'abc', { scheduler, now: scheduler.date }));
    expect(error).toBeInstanceOf(PixWatchError);
    expect((error as PixWatchError).code).toBe('INVALID_TRANSACTION_ID');
  });
});
