/**
 * The online authorization through the terminal channel, what its answer journals (the code,
 * the NSU, the receipt's fields), and a lost answer: read from the API, never authorized again.
 */
import { declineReasonOf } from '../declines.js';
import type { AuthorizationData, PaymentProblem, PaymentRecord } from '../journal/record.js';
import type { PaymentsFailure } from '../payments-failure.js';
import type { AuthorizationAnswer, CardRead, ProviderTransaction, TransactionStatus } from '../ports.js';
import { declinedProblem, problem } from '../problems.js';
import { errorText, move, newUndo, type StepsDeps } from './context.js';
import { reverse, settle } from './undo.js';

/**
 * The online authorization (terminal channel). Sent with the client's own retries only for
 * answers that are safe to repeat (the call carries an idempotency key per transaction), so a
 * lost answer is never a second authorization.
 */
export async function authorize(deps: StepsDeps, record: PaymentRecord, card: CardRead): Promise<AuthorizationAnswer> {
  if (record.transactionId === null) throw new Error('authorize: the payment has no transaction');
  const { authorization } = card;
  return deps.payments.terminal.authorize(
    record.transactionId,
    { ...authorization, terminal: { serial_number: record.terminal, ...authorization.terminal } },
    { timeoutMs: deps.config.apiTimeoutMs },
  );
}

/** What the journal keeps of an authorization's answer (approved or declined). */
export function authorizationOf(answer: AuthorizationAnswer): AuthorizationData {
  return {
    authorizationCode: answer.authorization_code,
    nsu: answer.nsu,
    responseCode: answer.response_code,
    responseMessage: answer.response_message,
    ...receiptFieldsOf(answer.transaction),
  };
}

/** The authorization read from the API's transaction (its answer was lost). */
export function authorizationFromTransaction(transaction: ProviderTransaction): AuthorizationData {
  const last = [...transaction.history].reverse().find((entry) => entry.operation_type === 'authorization');
  return {
    authorizationCode: transaction.payment_authorization?.authorization_code ?? last?.authorization_code ?? null,
    nsu: transaction.payment_authorization?.authorization_nsu ?? last?.authorization_nsu ?? null,
    responseCode: last?.response_code ?? '00',
    responseMessage: last?.response_message ?? 'Approved',
    ...receiptFieldsOf(transaction),
  };
}

/** What a receipt prints of the API's transaction beside the authorization: its number and the acquirer. */
export function receiptFieldsOf(
  transaction: ProviderTransaction,
): Pick<AuthorizationData, 'transactionNumber' | 'acquirer'> {
  return {
    transactionNumber: transaction.transaction_number,
    acquirer: transaction.gateway_authorizer ?? transaction.payment_authorization?.authorizer_id ?? null,
  };
}

/**
 * The authorization's answer was lost: read the transaction (a few times) and follow it. Never
 * authorizes again. With the card still in the PINPAD (`live`), an approval continues to the
 * chip; after a restart it is reversed (nobody saw the chip's final word). When the API cannot
 * be read either, the payment is reversed: a reversal of a pending transaction cancels it, of
 * an approved one undoes it, so nothing is charged either way.
 */
export async function resolveUnknown(
  deps: StepsDeps,
  record: PaymentRecord,
  live: boolean,
  interrupted: PaymentProblem = problem('INTERRUPTED'),
  cause?: PaymentsFailure,
): Promise<PaymentRecord> {
  const { attempts, delayMs } = deps.config.unknownResolution;
  deps.emit(record, 'resolving_unknown');
  const transactionId = record.transactionId;
  if (transactionId !== null) {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      let transaction: ProviderTransaction;
      try {
        transaction = await deps.payments.transactions.retrieve(transactionId, { timeoutMs: deps.config.apiTimeoutMs });
      } catch (error) {
        deps.logger.warn(
          { payment: record.id, attempt, error: errorText(error) },
          'could not read the transaction of a lost authorization',
        );
        if (attempt < attempts)
          await new Promise<void>((resolve) => deps.scheduler.after(delayMs, resolve, { keepAlive: true }));
        continue;
      }
      return followTransaction(deps, record, transaction, live, interrupted, cause);
    }
  }
  return reverse(deps, record, problem('AUTHORIZATION_UNKNOWN'), 'unknown_outcome');
}

/** The lost authorization's transaction as the API shows it: approved, declined, or not authorized. */
async function followTransaction(
  deps: StepsDeps,
  record: PaymentRecord,
  transaction: ProviderTransaction,
  live: boolean,
  interrupted: PaymentProblem,
  cause: PaymentsFailure | undefined,
): Promise<PaymentRecord> {
  switch (transaction.status) {
    case 'succeeded': {
      const approved = move(
        deps,
        record,
        'approved',
        { authorization: authorizationFromTransaction(transaction) },
        'approved (read from the API after a lost answer)',
      );
      if (live) return approved;
      const why =
        interrupted.code === 'INTERRUPTED' ? problem('INTERRUPTED', 'the chip never gave its final word') : interrupted;
      return reverse(deps, approved, why, 'unknown_outcome');
    }
    case 'failed': {
      const declined = move(
        deps,
        record,
        'declined',
        {
          problem: declinedProblem(
            declineReasonOf(transaction.error?.response_code, transaction.error?.code),
            transaction.error?.message,
          ),
        },
        'declined (read from the API after a lost answer)',
      );
      deps.emit(declined, 'declined');
      return declined;
    }
    default: {
      // Not decided by an issuer: pending, canceled, reversed. Nothing is charged; the
      // pending transaction is cancelled. Why is what the provider answered: a 409 it
      // explained, a 5xx of its own — or, with no answer at all, that the authorization
      // never reached it.
      const why = notAuthorizedProblem(cause, transaction.status);
      const aborting = move(
        deps,
        record,
        'aborting',
        { problem: why, pendingUndo: newUndo(deps, { abortAs: 'failed' }) },
        `authorization not at the API (status ${transaction.status})`,
      );
      return settle(deps, aborting);
    }
  }
}

/** Why an authorization left its transaction undecided (see resolveUnknown). */
function notAuthorizedProblem(cause: PaymentsFailure | undefined, status: TransactionStatus): PaymentProblem {
  const detail = cause === undefined ? undefined : `${cause.text} (the transaction is ${status})`;
  if (cause?.kind === 'conflict') return problem('API_CONFLICT', detail);
  if (cause?.kind === 'server_error') return problem('API_ERROR', detail);
  return problem('AUTHORIZATION_NOT_RECEIVED');
}
