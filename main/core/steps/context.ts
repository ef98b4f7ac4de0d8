/**
 * What every API-side step of a payment works with (create, authorize, undo, recover…): the
 * journal, the payments port, the engine's clock, scheduler and progress events, and the moves
 * they share — a journaled move, a final move that says so, an undo landing.
 */
import { paymentsFailureOf } from '../payments-failure.js';
import type { ProgressStep, StepText } from '../events.js';
import type { Journal } from '../journal/journal.js';
import type { PaymentPatch, PaymentRecord, PendingUndo } from '../journal/record.js';
import type { EngineLogger, PaymentsPort } from '../ports.js';
import type { Scheduler } from '../scheduler.js';
import type { PaymentState } from '../states.js';

export interface StepsConfig {
  readonly apiTimeoutMs: number;
  readonly unknownResolution: { readonly attempts: number; readonly delayMs: number };
  readonly undoRetry: { readonly baseMs: number; readonly maxMs: number };
  readonly confirmationDeadlineMs: number;
}

export interface StepsDeps {
  readonly journal: Journal;
  readonly payments: PaymentsPort;
  readonly sellerId: string;
  readonly config: StepsConfig;
  readonly logger: EngineLogger;
  readonly now: () => Date;
  /** Where its waits between attempts are set (the engine's). */
  readonly scheduler: Scheduler;
  /** `text`: the cashier's sentence instead of the step's (a string), or both sentences, English first. */
  readonly emit: (record: PaymentRecord, step: ProgressStep, text?: string | StepText) => void;
  /** Called when an undo could not be sent and must be retried at `pendingUndo.nextAttemptAt`. */
  readonly undoQueued: (record: PaymentRecord) => void;
}

export type AbortAs = NonNullable<PendingUndo['abortAs']>;
export type ReversalReason = NonNullable<PendingUndo['reason']>;

export const errorText = (error: unknown): string => paymentsFailureOf(error).text;

export function move(
  deps: StepsDeps,
  record: PaymentRecord,
  to: PaymentState,
  patch: PaymentPatch = {},
  note = '',
): PaymentRecord {
  return deps.journal.transition(record.id, to, patch, note);
}

/**
 * Ends a payment with no API call left to make, and says so: the POS, the window and the
 * metrics hear of every end through its final progress step.
 */
export function endWith(
  deps: StepsDeps,
  record: PaymentRecord,
  to: 'failed' | 'cancelled',
  patch: PaymentPatch,
  note: string,
): PaymentRecord {
  const ended = move(deps, record, to, patch, note);
  deps.emit(ended, to);
  return ended;
}

/** The progress step announcing each state an undo can land in. */
const LANDED_STEPS: Partial<Record<PaymentState, ProgressStep>> = {
  undone: 'undone',
  reversed: 'reversed',
  cancelled: 'cancelled',
  declined: 'declined',
  failed: 'failed',
};

/** An undo that landed (or found nothing to undo): the final state, its queue entry cleared. */
export function land(deps: StepsDeps, record: PaymentRecord, to: PaymentState, note: string): PaymentRecord {
  const landed = move(deps, record, to, { pendingUndo: null }, note);
  deps.emit(landed, LANDED_STEPS[to] ?? 'failed');
  return landed;
}

/** A fresh undo entry: due now. */
export function newUndo(deps: StepsDeps, extra: Pick<PendingUndo, 'abortAs' | 'reason'>): PendingUndo {
  return { attempts: 0, nextAttemptAt: deps.now().toISOString(), lastError: null, ...extra };
}
