/**
 * The payments API client as the engine's PaymentsPort (main/core/ports.ts). The client's
 * records already have the port's shapes; what this adapter adds is the port's failure
 * vocabulary: each of the client's errors becomes a PaymentsPortError whose `kind` says what
 * the engine may conclude (a refusal: nothing was done; a lost answer: anything may have been),
 * with the client's code kept for the journal and the logs. Anything else the client throws (an
 * abort's reason) goes through as it is, which the engine reads as a lost answer.
 */
import { PaymentsApiError, type PaymentsErrorCode } from '../api/index.js';
import { PaymentsPortError, type PaymentsFailureKind } from '../core/payments-failure.js';
import type { PaymentsPort } from '../core/ports.js';

const KIND_OF_CODE: Readonly<Record<PaymentsErrorCode, PaymentsFailureKind>> = {
  authentication_failed: 'access_denied',
  permission_denied: 'access_denied',
  not_found: 'not_found',
  validation_error: 'refused',
  invalid_request: 'refused',
  not_enabled: 'not_enabled',
  rate_limited: 'rate_limited',
  conflict: 'conflict',
  // The service answered with an error of its own (5xx): the outcome is unknown, the service reached.
  server_error: 'server_error',
  // 408, no answer, an attempt's deadline, an unreadable answer: the outcome is unknown.
  request_timeout: 'answer_unknown',
  connection_error: 'answer_unknown',
  timeout: 'answer_unknown',
  invalid_response: 'answer_unknown',
  request_failed: 'answer_unknown',
};

/** The port's failure for one of the client's errors; other values are returned as they are. */
export function paymentsPortFailureOf(error: unknown): unknown {
  if (!(error instanceof PaymentsApiError)) return error;
  // The service's own words, when the error's message is a fixed sentence (a 401's is).
  const message =
    error.detail !== '' && error.detail !== error.message ? `${error.message} (${error.detail})` : error.message;
  const retryAfterMs = (error as { retryAfterMs?: unknown }).retryAfterMs;
  return new PaymentsPortError({
    kind: KIND_OF_CODE[error.code],
    code: error.code,
    message,
    retryAfterMs: typeof retryAfterMs === 'number' ? retryAfterMs : undefined,
    cause: error,
  });
}

const classified = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    throw paymentsPortFailureOf(error);
  }
};

/**
 * `client`: the PaymentsClient, or anything shaped like the port whose calls fail with the
 * client's errors (a test's wrapper of the client, which injects the client's own failures).
 */
export function paymentsPortOf(client: PaymentsPort): PaymentsPort {
  const { transactions, terminal } = client;
  return {
    transactions: {
      create: (params, options) => classified(() => transactions.create(params, options)),
      retrieve: (transactionId, options) => classified(() => transactions.retrieve(transactionId, options)),
      listByReference: (referenceId, options) => classified(() => transactions.listByReference(referenceId, options)),
    },
    terminal: {
      pendingTransactions: (serial, options) => classified(() => terminal.pendingTransactions(serial, options)),
      authorize: (transactionId, request, options) =>
        classified(() => terminal.authorize(transactionId, request, options)),
      complete: (transactionId, request, options) =>
        classified(() => terminal.complete(transactionId, request, options)),
      reverse: (transactionId, request, options) => classified(() => terminal.reverse(transactionId, request, options)),
      void: (transactionId, request, options) => classified(() => terminal.void(transactionId, request, options)),
    },
  };
}
