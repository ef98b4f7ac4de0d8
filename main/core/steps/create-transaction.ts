/**
 * The payment's transaction at the provider: created once (idempotent by reference_id), never
 * sent again when the answer was lost — the provider's listing tells whether it exists.
 */
import type { PaymentRecord } from '../journal/record.js';
import type { ProviderTransaction } from '../ports.js';
import { isDefinitiveRefusal, paymentsFailureOf, refusalProblem, type PaymentsFailure } from '../payments-failure.js';
import { problem, type ProblemCode } from '../problems.js';
import { endWith, errorText, move, type StepsDeps } from './context.js';
import { findOwn, paymentMetadata } from './provider-transactions.js';
import { abort } from './undo.js';

/**
 * The problem a call whose outcome was unknown ends a payment with, once Pinbridge made sure
 * nothing is charged: what the provider said (a 409, a 5xx), or that it could not be reached.
 */
function unknownOutcomeProblem(failure: PaymentsFailure): ProblemCode {
  if (failure.kind === 'conflict') return 'API_CONFLICT';
  if (failure.kind === 'server_error') return 'API_ERROR';
  return 'API_UNAVAILABLE';
}

/**
 * POST …/transactions for the intent (idempotent by reference_id). Returns the record moved to
 * `created`, or already ended (refused, or queued for a cancel when the answer was lost and the
 * lookup failed too).
 */
export async function createTransaction(deps: StepsDeps, record: PaymentRecord): Promise<PaymentRecord> {
  const { payments, sellerId } = deps;
  try {
    const transaction = await payments.transactions.create(
      {
        payment_locale: 'pinpad',
        payment_type: record.paymentType,
        on_behalf_of: sellerId,
        description: record.description,
        amount: record.amount,
        terminal: record.terminal,
        reference_id: record.referenceId,
        metadata: paymentMetadata(record),
        ...(record.notification === null ? {} : { notification: record.notification }),
        ...(record.paymentType === 'credit' && record.installments !== null
          ? { installment_plan: { number_installments: record.installments } }
          : {}),
      },
      { timeoutMs: deps.config.apiTimeoutMs },
    );
    return move(deps, record, 'created', { transactionId: transaction.id }, 'transaction created');
  } catch (error) {
    return creationUnanswered(deps, record, error);
  }
}

/** The creation failed: refused (nothing exists), or its outcome unknown (the listing says). */
async function creationUnanswered(deps: StepsDeps, record: PaymentRecord, error: unknown): Promise<PaymentRecord> {
  const failure = paymentsFailureOf(error);
  if (isDefinitiveRefusal(failure)) {
    return endWith(deps, record, 'failed', { problem: refusalProblem(failure) }, 'transaction refused by the API');
  }
  // The outcome is unknown (no answer, a 5xx, a 409): the transaction may exist. The creation
  // is never sent again; the provider's listing (by reference_id and this payment's metadata)
  // tells whether it exists.
  deps.logger.warn(
    { reference: record.referenceId, kind: failure.kind, error: failure.text },
    'transaction creation outcome unknown; looking it up',
  );
  const code = unknownOutcomeProblem(failure);
  let found: ProviderTransaction | undefined;
  try {
    found = await findOwn(deps, record);
  } catch (lookupError) {
    // Neither the creation nor the listing answered: recorded as possibly created, and the
    // undo queue looks again until it can cancel what exists (or sees nothing does).
    return abort(
      deps,
      record,
      problem(code, `${failure.text}; the lookup failed too: ${errorText(lookupError)}`),
      'failed',
    );
  }
  if (found)
    return move(
      deps,
      record,
      'created',
      { transactionId: found.id },
      `transaction found by reference after an unknown outcome (${failure.kind})`,
    );
  return endWith(
    deps,
    record,
    'failed',
    { problem: problem(code, `${failure.text}; no transaction was created`) },
    'transaction not created',
  );
}
