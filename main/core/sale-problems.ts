/**
 * What stops a live sale, and the problem its payment ends with: the engine aborting the run (the
 * POS cancelled it, its PINPAD went away) or a PINPAD step failing (the cable, the card, the
 * customer, the clock).
 */
import type { PaymentProblem } from './journal/record.js';
import { problem, type ProblemCode } from './problems.js';
import { SaleStepError } from './sale-failure.js';

/**
 * Why the engine aborted a run: the POS cancelled it, or its PINPAD went away (a pulled cable is
 * not a cancel). The abort reason of the run's signal; any other reason reads as a cancel.
 */
export class RunStopped extends Error {
  override readonly name = 'RunStopped';
  constructor(
    readonly why: 'CANCELLED_BY_POS' | 'PINPAD_DISCONNECTED',
    message: string,
  ) {
    super(message);
  }
}

/** The problem a PINPAD step's failure stands for, and how the payment ends. */
export function stepProblem(
  error: unknown,
  signal: AbortSignal,
): { why: PaymentProblem; abortAs: 'cancelled' | 'failed' } {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    const why = reason instanceof RunStopped ? reason.why : 'CANCELLED_BY_POS';
    return { why: problem(why), abortAs: why === 'CANCELLED_BY_POS' ? 'cancelled' : 'failed' };
  }
  const why = pinpadProblem(error);
  const cancelled = why.code === 'CANCELLED_BY_POS' || why.code === 'CANCELLED_BY_CUSTOMER';
  return { why, abortAs: cancelled ? 'cancelled' : 'failed' };
}

/** What a PINPAD step's error says went wrong: the cable, the card, the customer, the clock. */
export function pinpadProblem(error: unknown): PaymentProblem {
  if (!(error instanceof SaleStepError)) {
    return problem('PINPAD_ERROR', error instanceof Error ? error.message : String(error));
  }
  const byCode: Record<SaleStepError['code'], ProblemCode> = {
    CANCELLED: 'CANCELLED_BY_POS',
    CUSTOMER_CANCELLED: 'CANCELLED_BY_CUSTOMER',
    TIMEOUT: error.step === 'chip' ? 'PIN_TIMEOUT' : error.step === 'read_card' ? 'CARD_TIMEOUT' : 'PINPAD_TIMEOUT',
    CARD_REMOVED: 'CARD_REMOVED',
    CARD_ERROR: 'CARD_ERROR',
    PINPAD_DISCONNECTED: 'PINPAD_DISCONNECTED',
    PINPAD_BUSY: 'PINPAD_ERROR',
    PINPAD_ERROR: 'PINPAD_ERROR',
    PIN_BLOCKED: 'PIN_BLOCKED',
    PIN_ENTRY_BUSY: 'PINPAD_PIN_BUSY',
    UNSUPPORTED_CARD: 'UNSUPPORTED_CARD',
    KEYS_MISSING: 'PINPAD_KEYS_MISSING',
    PINPAD_UNSUPPORTED: 'PINPAD_UNSUPPORTED',
    TABLES_UNAVAILABLE: 'PINPAD_TABLES',
  };
  const why = problem(byCode[error.code], error.message);
  // "Erro no PINPAD" and "Não foi possível ler o cartão" say little: the cause's own pt-BR
  // sentence (the driver's code, the PINPAD's status) tells the cashier what to do.
  return error.specific && (why.code === 'PINPAD_ERROR' || why.code === 'CARD_ERROR')
    ? { ...why, cashierMessage: error.cashierMessage }
    : why;
}
