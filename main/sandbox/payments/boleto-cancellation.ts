/**
 * Boleto cancellation (contract, "Rules that the cancellation of a boleto obeys"): only an
 * unpaid boleto can be cancelled, a paid one ignores the request, cancellation is irreversible,
 * and its effects are applied after a processing delay. A request is a row in
 * `boleto_cancellations` with the time it falls due; a sweeper applies due rows — on a timer
 * armed for the earliest one, on startup for rows left pending while the sandbox was stopped,
 * and on demand before a read or a payment, so no reader sees a due cancellation unapplied.
 */
import type { BoletoCancellation } from '../../contract/index.js';
import type { SandboxContext, WebhookEventInput } from '../context.js';
import { badRequest } from '../errors.js';
import {
  dueCancellations,
  findCancellation,
  findTransaction,
  insertCancellation,
  markCancellationApplied,
  nextCancellationDueAt,
  updateTransaction,
  type TransactionRecord,
} from '../store/transactions.js';
import { utcTimestamp } from '../time.js';
import { cancellationIgnoredEvent } from './events.js';
import { applyBoletoCancellation, isBoleto } from './transitions.js';

/** Node's setTimeout limit (about 24.8 days); a later due time is re-armed when this fires. */
const MAX_TIMER_MS = 2_147_483_647;

export interface CancellationSweeper {
  /** Applies every cancellation whose delay has passed; returns how many were applied. */
  applyDue(): number;
  /** (Re-)arms the timer for the earliest pending cancellation. */
  schedule(): void;
  stop(): void;
}

const sweepers = new WeakMap<SandboxContext, CancellationSweeper>();

/** The sandbox's one sweeper (created on first use, stopped when the sandbox closes). */
export function cancellationSweeper(ctx: SandboxContext): CancellationSweeper {
  let sweeper = sweepers.get(ctx);
  if (!sweeper) {
    sweeper = createSweeper(ctx);
    sweepers.set(ctx, sweeper);
    const created = sweeper;
    ctx.onClose(() => created.stop());
  }
  return sweeper;
}

function createSweeper(ctx: SandboxContext): CancellationSweeper {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const applyDue = (): number => {
    if (stopped) return 0;
    const now = ctx.now();
    const events: Array<{ marketplaceId: string; event: WebhookEventInput }> = [];
    const apply = ctx.db.transaction(() => {
      const rows = dueCancellations(ctx.db, now.getTime());
      for (const row of rows) {
        const record = findTransaction(ctx.db, row.marketplace_id, row.transaction_id);
        if (!record) {
          markCancellationApplied(ctx.db, row.transaction_id, utcTimestamp(now), 'ignored');
          continue;
        }
        const result = applyBoletoCancellation(record, now);
        if (result.changed) updateTransaction(ctx.db, row.marketplace_id, result.record);
        markCancellationApplied(ctx.db, row.transaction_id, utcTimestamp(now), result.outcome);
        if (result.event) events.push({ marketplaceId: row.marketplace_id, event: result.event });
      }
      return rows.length;
    });
    const applied = apply();
    // Webhooks only once the changes are committed.
    for (const { marketplaceId, event } of events) ctx.webhooks.emit(marketplaceId, event);
    return applied;
  };

  const schedule = (): void => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    const due = nextCancellationDueAt(ctx.db);
    if (due === undefined) return;
    const delay = Math.min(Math.max(0, due - ctx.now().getTime()), MAX_TIMER_MS);
    timer = setTimeout(() => {
      timer = undefined;
      try {
        applyDue();
      } catch (error) {
        ctx.log.error({ err: error }, 'applying boleto cancellations failed');
      }
      schedule();
    }, delay);
    timer.unref();
  };

  return {
    applyDue,
    schedule,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Answers a cancellation request. An unpaid boleto gets a row due after the processing delay
 * (a repeat, or a request for one already canceled, changes nothing and is REQUESTED again); a
 * paid boleto is IGNORED at once and a `transaction.cancellation.ignored` webhook tells so.
 */
export function requestBoletoCancellation(
  ctx: SandboxContext,
  marketplaceId: string,
  record: TransactionRecord,
): BoletoCancellation {
  if (!isBoleto(record) || !record.boleto) {
    throw badRequest('Only boleto and bolepix transactions can be cancelled here; void card transactions instead');
  }
  const now = ctx.now();
  if (record.boleto.status === 'paid') {
    const event = cancellationIgnoredEvent(record, now);
    if (event) ctx.webhooks.emit(marketplaceId, event);
    return {
      resource: 'cancellation',
      status: 'IGNORED',
      message: 'Boleto was already paid; the cancellation request was ignored',
      transaction_id: record.id,
    };
  }
  const existing = findCancellation(ctx.db, record.id);
  if (!existing) {
    insertCancellation(ctx.db, {
      transactionId: record.id,
      marketplaceId,
      requestedAt: utcTimestamp(now),
      applyAtMs: now.getTime() + ctx.settings.boletoCancellationDelayMs,
    });
    cancellationSweeper(ctx).schedule();
  }
  return {
    resource: 'cancellation',
    status: 'REQUESTED',
    message:
      record.boleto.status === 'canceled'
        ? 'Boleto is already canceled'
        : 'Cancellation requested; the boleto is removed from DDA and payments are refused once it is processed',
    transaction_id: record.id,
  };
}
