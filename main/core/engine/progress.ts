/** A payment's progress event: the step's two sentences, and the cashier's words an undone approval needs. */
import {
  PROGRESS_STEPS,
  UNCONFIRMED_UNDO_TEXTS,
  UNDONE_BEFORE_CONFIRMATION_CODES,
  type PaymentProgress,
  type ProgressStep,
  type StepText,
} from '../events.js';
import type { PaymentRecord } from '../journal/record.js';

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
