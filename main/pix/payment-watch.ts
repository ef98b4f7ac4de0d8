/**
 * Learning that a bolepix was paid while its QR code is shown: by polling the payments API.
 *
 * Why not the provider's webhook: the agent runs on the store's PC, behind the store's NAT and
 * firewall, with no public address: the provider cannot reach it (and the contract has webhooks
 * for terminal payments and cancellations, no way to subscribe a checkout). A Pix settles in
 * seconds, so while a QR is on the PINPAD the agent reads the transaction every 2 s — one small
 * GET per checkout showing a QR, which the customer waits on; a failed read is tried again after
 * 2 s, 4 s, 8 s… up to 30 s (longer when the provider says Retry-After); the watch ends at paid,
 * cancelled (or failed) and at the Pix code's expiry, and whenever its owner stops it.
 * `checkNow()` reads at once (a POS that heard the provider's webhook, a cashier's "check").
 * docs/pix.md says more.
 *
 * Time goes through a Scheduler (main/core/scheduler.ts) and the wall clock `now`, so specs move
 * a fake clock. Nothing here holds card data: a bolepix has none, and the outcomes carry ids,
 * amounts and times only.
 */
import { backoffDelay, type Jitter } from '../../lib/backoff.js';
import { CodedError, messageOf } from '../../lib/errors.js';
import type { Transaction } from '../api/normalize.js';
import { centavos, type Centavos } from '../core/money.js';
import type { Scheduler, ScheduledTimer } from '../core/scheduler.js';

/** What the watch needs of the payments API: a transaction read by id (PaymentsClient.transactions). */
export interface BolepixSource {
  retrieve(
    transactionId: string,
    options: { readonly signal: AbortSignal; readonly timeoutMs: number; readonly maxRetries: number },
  ): Promise<Transaction>;
}

/** How the bolepix was paid, when the provider says (a Pix carries its end-to-end id). */
export type PaidVia = 'pix' | 'boleto' | 'unknown';

/** How a watch ended. */
export type PixWatchOutcome =
  | {
      readonly state: 'paid';
      readonly transactionId: string;
      /** What was paid (a provider's amount that is no whole number of centavos counts as a failed read). */
      readonly amount: Centavos;
      readonly via: PaidVia;
      /** When the provider says it was paid (ISO 8601), else null. */
      readonly paidAt: string | null;
      /** The Pix end-to-end id (BCB: "E" + ISPB + time + sequence), for the receipt; null when not given. */
      readonly endToEndId: string | null;
    }
  /** Cancelled (by the POS, the cashier, the provider) or ended failed/reversed: nothing more will be paid. */
  | { readonly state: 'cancelled'; readonly transactionId: string; readonly status: string }
  /** The Pix code expired unpaid (the boleto may still be paid at a bank until its limit date). */
  | { readonly state: 'expired'; readonly transactionId: string; readonly expiredAt: string }
  /** The provider does not know the transaction (404). */
  | { readonly state: 'not_found'; readonly transactionId: string }
  /** The transaction is not a bolepix with a Pix code. */
  | { readonly state: 'not_bolepix'; readonly transactionId: string; readonly paymentType: string }
  /** stop() was called. */
  | { readonly state: 'stopped'; readonly transactionId: string };

/** What happens while it lasts. */
export type PixWatchUpdate =
  /** A read said pending. `expiresAt`: when the Pix code (or the caller's display) expires, ISO 8601. */
  | {
      readonly state: 'waiting';
      readonly transactionId: string;
      readonly reads: number;
      readonly expiresAt: string | null;
    }
  /** A read failed (network, 5xx, 401…): tried again in `retryInMs`. */
  | {
      readonly state: 'failing';
      readonly transactionId: string;
      /** The client's code (connection_error, server_error, authentication_failed…), or "unexpected". */
      readonly code: string;
      readonly message: string;
      /** Failed reads in a row. */
      readonly failures: number;
      readonly retryInMs: number;
    };

export interface PixWatchOptions {
  readonly scheduler: Scheduler;
  /** The wall clock the Pix expiry is compared with. */
  readonly now: () => Date;
  readonly onUpdate?: (update: PixWatchUpdate) => void;
  /** Between reads while waiting (default 2 s). */
  readonly intervalMs?: number;
  /** After a failed read: doubling from this (default 2 s)… */
  readonly failureBaseMs?: number;
  /** …up to this (default 30 s). */
  readonly failureCapMs?: number;
  /** One read's deadline (default 10 s); a read is one request, the watch does the retrying. */
  readonly readTimeoutMs?: number;
  /** Give up earlier than the Pix code's own expiry (a display of 15 minutes, say). */
  readonly expiresAt?: Date;
  /** A payment made just before the expiry may be reported a little after: reads go on this long (default 30 s). */
  readonly expiryGraceMs?: number;
  /** Spreads the failure waits (default: up to 20 % added), so checkouts that failed together do not retry together. */
  readonly jitter?: Jitter;
  readonly random?: () => number;
}

export interface PixWatch {
  readonly transactionId: string;
  /** Settles once, with how the watch ended; never rejects. */
  readonly done: Promise<PixWatchOutcome>;
  /** Reads at once (unless a read is under way); nothing once ended. */
  checkNow(): void;
  /** Ends the watch ('stopped'), aborting a read under way; nothing once ended. */
  stop(): void;
}

export class PixWatchError extends CodedError<'INVALID_TRANSACTION_ID'> {}

const DEFAULTS = {
  intervalMs: 2_000,
  failureBaseMs: 2_000,
  failureCapMs: 30_000,
  readTimeoutMs: 10_000,
  expiryGraceMs: 30_000,
  jitter: { kind: 'added', ratio: 0.2 } as Jitter,
};

/** The reading of one answer: ended, or still to wait for. */
function outcomeOf(transaction: Transaction): PixWatchOutcome | 'pending' {
  const id = transaction.id;
  if (transaction.payment_type !== 'bolepix' || transaction.pix === undefined) {
    return { state: 'not_bolepix', transactionId: id, paymentType: transaction.payment_type };
  }
  const { pix, boleto } = transaction;
  if (transaction.status === 'succeeded' || boleto?.status === 'paid') {
    const endToEndId = pix.end_to_end_id ?? null;
    const pixPaidAt = pix.paid_at ?? null;
    const via: PaidVia = endToEndId !== null || pixPaidAt !== null ? 'pix' : boleto?.paid_at ? 'boleto' : 'unknown';
    return {
      state: 'paid',
      transactionId: id,
      amount: centavos(transaction.amount),
      via,
      paidAt: pixPaidAt ?? boleto?.paid_at ?? null,
      endToEndId,
    };
  }
  if (transaction.status === 'pending' && boleto?.status !== 'canceled') return 'pending';
  return {
    state: 'cancelled',
    transactionId: id,
    status: boleto?.status === 'canceled' ? 'canceled' : transaction.status,
  };
}

/** The client's error code, when it is one of the client's errors (or any coded error). */
function failureCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'unexpected';
}

/** Watches one bolepix until it is paid, cancelled or expired, or until stopped. */
export function watchBolepix(source: BolepixSource, transactionId: string, options: PixWatchOptions): PixWatch {
  if (!/^[0-9a-fA-F]{32}$/.test(transactionId)) {
    throw new PixWatchError('INVALID_TRANSACTION_ID', `"${transactionId}" is not a transaction id (32 hex digits)`);
  }
  const settings = { ...DEFAULTS, ...options };
  const { scheduler, now } = options;
  let ended = false;
  let reading = false;
  let reads = 0;
  let failures = 0;
  let timer: ScheduledTimer | undefined;
  let controller: AbortController | undefined;
  /** When the watch gives up, from the first answer's Pix expiry (or the caller's earlier one). */
  let expiresAtMs: number | undefined = options.expiresAt?.getTime();
  let resolve!: (outcome: PixWatchOutcome) => void;
  const done = new Promise<PixWatchOutcome>((settle) => (resolve = settle));

  const end = (outcome: PixWatchOutcome): void => {
    if (ended) return;
    ended = true;
    timer?.cancel();
    controller?.abort(new Error('The Pix watch ended'));
    resolve(outcome);
  };
  const schedule = (ms: number): void => {
    timer?.cancel();
    timer = scheduler.after(ms, () => void read());
  };
  const update = (value: PixWatchUpdate): void => {
    try {
      options.onUpdate?.(value);
    } catch {
      // A listener that throws must not end the watch: the payment is still to be learned.
    }
  };

  async function read(): Promise<void> {
    if (ended || reading) return;
    reading = true;
    timer?.cancel();
    controller = new AbortController();
    try {
      const transaction = await source.retrieve(transactionId, {
        signal: controller.signal,
        timeoutMs: settings.readTimeoutMs,
        maxRetries: 0,
      });
      if (ended) return;
      failures = 0;
      reads++;
      const outcome = outcomeOf(transaction);
      if (outcome !== 'pending') return end(outcome);
      const pixExpiry = Date.parse(transaction.pix?.expiration_date_time ?? '');
      if (Number.isFinite(pixExpiry)) expiresAtMs = Math.min(expiresAtMs ?? pixExpiry, pixExpiry);
      const nowMs = now().getTime();
      if (expiresAtMs !== undefined && nowMs >= expiresAtMs + settings.expiryGraceMs) {
        return end({ state: 'expired', transactionId, expiredAt: new Date(expiresAtMs).toISOString() });
      }
      update({
        state: 'waiting',
        transactionId,
        reads,
        expiresAt: expiresAtMs === undefined ? null : new Date(expiresAtMs).toISOString(),
      });
      schedule(settings.intervalMs);
    } catch (error) {
      if (ended) return;
      const code = failureCode(error);
      if (code === 'not_found') return end({ state: 'not_found', transactionId });
      failures++;
      const retryAfter = (error as { retryAfterMs?: unknown }).retryAfterMs;
      const backoff = backoffDelay(
        failures,
        { baseMs: settings.failureBaseMs, capMs: settings.failureCapMs, jitter: settings.jitter },
        settings.random,
      );
      const retryInMs = Math.round(Math.max(backoff, typeof retryAfter === 'number' ? retryAfter : 0));
      update({ state: 'failing', transactionId, code, message: messageOf(error), failures, retryInMs });
      schedule(retryInMs);
    } finally {
      reading = false;
      controller = undefined;
    }
  }

  schedule(0);
  return {
    transactionId,
    done,
    checkNow: () => void read(),
    stop: () => end({ state: 'stopped', transactionId }),
  };
}
