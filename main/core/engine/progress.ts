/**
 * A payment's progress events, to the POS, the window and the metrics: the step's two sentences,
 * and the cashier's words an undone approval needs.
 */
import {
  PROGRESS_STEPS,
  UNCONFIRMED_UNDO_TEXTS,
  UNDONE_BEFORE_CONFIRMATION_CODES,
  type PaymentProgress,
  type ProgressStep,
  type StepText,
} from '../events.js';
import type { PaymentRecord } from '../journal/record.js';
import type { EngineLogger } from '../ports.js';

/** Announces a payment's step; `text`: the cashier's sentence, or both sentences (see progressEvent). */
export type Announce = (record: PaymentRecord, step: ProgressStep, text?: string | StepText) => void;

/** The engine's announcer: each step as a `progress` event (`publish`), and a debug line. */
export function progressAnnouncer(
  log: EngineLogger,
  now: () => Date,
  publish: (event: PaymentProgress) => void,
): Announce {
  return (record, step, text) => {
    const event = progressEvent(record, step, text, now());
    // Debug: the journal already keeps every step; an info line per step costs a tenth of a payment.
    log.debug({ payment: record.id, reference: record.referenceId, step, state: record.state }, 'payment progress');
    publish(event);
  };
}

/**
 * `text`: the cashier's sentence instead of the step's (a PINPAD's own text), or both sentences.
 * An approval undone before its confirmation reads "desfeita", not "cancelada" (events.ts).
 */
export function progressEvent(
  record: PaymentRecord,
  step: ProgressStep,
  text: string | StepText | undefined,
  at: Date,
): PaymentProgress {
  const [stepMessage, byStep] = PROGRESS_STEPS[step];
  const unconfirmed =
    record.problem !== null && UNDONE_BEFORE_CONFIRMATION_CODES.has(record.problem.code)
      ? UNCONFIRMED_UNDO_TEXTS[step]
      : undefined;
  const [message, cashier] = typeof text === 'object' ? text : [stepMessage, text ?? unconfirmed ?? byStep];
  return {
    paymentId: record.id,
    referenceId: record.referenceId,
    terminal: record.terminal,
    step,
    state: record.state,
    message,
    cashierMessage: cashier,
    at: at.toISOString(),
  };
}
