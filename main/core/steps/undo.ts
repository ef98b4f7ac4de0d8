/**
 * Cancels, reversals and voids until the API takes them (the undo queue): a payment that ends
 * without an approval (`aborting`), an approval the card or the clock refused (`reversing`), a
 * sale the POS voids (`undoing`). Each is journaled before it is sent; one the API did not take
 * stays in its state with its next attempt planned.
 */
import { backoffDelay } from '../../../lib/backoff.js';
import type { PaymentProblem, PaymentRecord, PendingUndo } from '../journal/record.js';
import type { ProblemCode } from '../problems.js';
import {
  endWith,
  errorText,
  land,
  move,
  newUndo,
  type AbortAs,
  type ReversalReason,
  type StepsDeps,
} from './context.js';
import { findOwn, isGone, reverseOrConfirmGone } from './provider-transactions.js';

/** Problems whose cause may have left a transaction at the provider: never ended without looking. */
const MAY_HAVE_CREATED: ReadonlySet<string> = new Set<ProblemCode>([
  'API_UNAVAILABLE',
  'API_ERROR',
  'API_CONFLICT',
  'INTERRUPTED',
]);

/**
 * Ends a payment that has no approval: straight to the final state when no API transaction can
 * exist, otherwise through `aborting` (the pending transaction is cancelled, retried until it lands).
 */
export async function abort(
  deps: StepsDeps,
  record: PaymentRecord,
  why: PaymentProblem,
  abortAs: AbortAs,
): Promise<PaymentRecord> {
  if (record.state === 'intent' && record.transactionId === null && !MAY_HAVE_CREATED.has(why.code)) {
    // Nothing was sent to the API yet (cancelled while choosing installments, say).
    return endWith(
      deps,
      record,
      abortAs === 'declined' ? 'failed' : abortAs,
      { problem: why },
      'ended before any transaction',
    );
  }
  const aborting = move(
    deps,
    record,
    'aborting',
    { problem: why, pendingUndo: newUndo(deps, { abortAs }) },
    `ending: ${why.code}`,
  );
  deps.emit(aborting, 'cancelling');
  return settle(deps, aborting);
}

export async function reverse(
  deps: StepsDeps,
  record: PaymentRecord,
  why: PaymentProblem,
  reason: ReversalReason,
): Promise<PaymentRecord> {
  const reversing = move(
    deps,
    record,
    'reversing',
    { problem: why, pendingUndo: newUndo(deps, { reason }) },
    `reversing: ${why.code}`,
  );
  deps.emit(reversing, 'reversing');
  return settle(deps, reversing);
}

/** `note`: said in the journal entry beside the reason (who authorized the void). */
export async function undo(
  deps: StepsDeps,
  record: PaymentRecord,
  why: PaymentProblem,
  note?: string,
): Promise<PaymentRecord> {
  const undoing = move(
    deps,
    record,
    'undoing',
    { problem: why, pendingUndo: newUndo(deps, {}) },
    note === undefined ? `undoing: ${why.code}` : `undoing: ${why.code}; ${note}`,
  );
  deps.emit(undoing, 'undoing');
  return settle(deps, undoing);
}

/**
 * Sends the API call an undo state stands for (cancel a pending transaction, reverse, void) and
 * moves to the final state once it lands. On failure the record stays in its state with the
 * next attempt planned (the undo queue); an API that already shows the transaction undone
 * counts as landed.
 */
export async function settle(deps: StepsDeps, record: PaymentRecord): Promise<PaymentRecord> {
  const { payments, sellerId, journal } = deps;
  const pending = record.pendingUndo ?? newUndo(deps, {});
  try {
    switch (record.state) {
      case 'aborting': {
        const abortAs = pending.abortAs ?? 'failed';
        let transactionId = record.transactionId;
        if (transactionId === null) {
          const found = await findOwn(deps, record);
          if (!found) return land(deps, record, abortAs, 'no transaction existed at the API');
          transactionId = found.id;
          record = journal.update(record.id, { transactionId }, 'transaction found by reference');
        }
        await reverseOrConfirmGone(deps, transactionId, record.terminal, reasonFor(abortAs));
        return land(deps, record, abortAs, 'pending transaction cancelled at the API');
      }
      case 'reversing': {
        if (record.transactionId === null) return land(deps, record, 'reversed', 'nothing to reverse');
        await reverseOrConfirmGone(deps, record.transactionId, record.terminal, pending.reason ?? 'other');
        return land(deps, record, 'reversed', 'approval reversed at the API');
      }
      case 'undoing': {
        if (record.transactionId === null) return land(deps, record, 'undone', 'nothing to void');
        try {
          await payments.terminal.void(
            record.transactionId,
            { on_behalf_of: sellerId },
            { timeoutMs: deps.config.apiTimeoutMs },
          );
        } catch (error) {
          if (!(await isGone(deps, record.transactionId))) throw error;
        }
        return land(deps, record, 'undone', 'sale voided at the API');
      }
      default:
        return record;
    }
  } catch (error) {
    return queueAgain(deps, record, pending, error);
  }
}

/** An undo the API did not take: journaled with its next attempt, announced, and handed to the queue. */
function queueAgain(deps: StepsDeps, record: PaymentRecord, pending: PendingUndo, error: unknown): PaymentRecord {
  const attempts = pending.attempts + 1;
  const { baseMs, maxMs } = deps.config.undoRetry;
  const delay = backoffDelay(attempts, { baseMs, capMs: maxMs });
  const next: PendingUndo = {
    ...pending,
    attempts,
    nextAttemptAt: new Date(deps.now().getTime() + delay).toISOString(),
    lastError: errorText(error),
  };
  const queued = deps.journal.update(
    record.id,
    { pendingUndo: next },
    `undo not sent (attempt ${attempts}): ${errorText(error)}`,
  );
  deps.logger.warn(
    {
      payment: record.id,
      reference: record.referenceId,
      state: record.state,
      attempts,
      retryInMs: delay,
      error: errorText(error),
    },
    'undo could not be sent; queued',
  );
  deps.emit(queued, 'undo_pending');
  deps.undoQueued(queued);
  return queued;
}

function reasonFor(abortAs: AbortAs): ReversalReason {
  return abortAs === 'cancelled' ? 'cancelled' : 'other';
}
