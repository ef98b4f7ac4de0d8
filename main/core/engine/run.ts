/** What holds a PINPAD: a payment's live run, or a reservation (a payment's start, another operation). */
import type { PaymentOutcome } from '../outcome.js';
import { EngineError } from '../errors.js';
import type { LiveRun } from '../sale.js';

export interface Run extends LiveRun {
  /** '' while the PINPAD is only reserved (before the intent is journaled, or for another operation). */
  readonly paymentId: string;
  /** The payment's reference_id from its start on; '' for another operation. */
  readonly referenceId: string;
  readonly terminal: string;
  readonly abort: AbortController;
  promise: Promise<PaymentOutcome>;
  /**
   * Another operation that is brief (a message on the display): a payment's start waits for
   * `settled` instead of answering BUSY. Absent for a payment and for what waits on the customer.
   */
  brief?: {
    readonly settled: Promise<void>;
    /**
     * The operation gives way to a payment: a start aborts it (its signal) before waiting for it
     * (a media file being loaded for a Pix QR, issue 38), so the sale never waits out a slow load.
     */
    readonly yieldsToPayment?: boolean;
  };
}

/**
 * A PINPAD reservation; the live runs (live-runs.ts) name the payment and set the promise.
 * `referenceId`: the payment's, known from its start (before the intent is journaled); '' for
 * another operation.
 */
export function newRun(terminal: string, askTaxId: boolean, referenceId = ''): Run {
  const abort = new AbortController();
  return {
    paymentId: '',
    referenceId,
    terminal,
    abort,
    signal: abort.signal,
    undoRequested: false,
    askTaxId,
    promise: Promise.resolve(undefined as unknown as PaymentOutcome),
  };
}

/**
 * BUSY, naming what holds the PINPAD the way a POS knows it: the payment's reference_id (never
 * the journal's internal id), or another operation (a message, a key, a customer prompt).
 */
export function busyError(serial: string, run: Run): EngineError {
  if (run.referenceId === '') {
    return new EngineError(
      'BUSY',
      `PINPAD ${serial} is busy with another operation (a message, a key or data the customer types)`,
    );
  }
  return new EngineError('BUSY', `PINPAD ${serial} is busy with the payment of reference_id "${run.referenceId}"`, {
    busyWith: run.referenceId,
  });
}
