/**
 * How a call through the PaymentsPort failed, as the engine branches on it. The port's errors say
 * so in a `code` string (the HTTP client's PaymentsApiError does; a provider's own gateway throws
 * errors with the same codes): the core reads that field, never the client's classes, and counts
 * an error without a known code as a lost answer — the one reading that can never charge twice.
 */
import type { PaymentProblem } from './journal/record.js';
import { problem } from './problems.js';

export const PAYMENTS_FAILURE_CODES = [
  /** 401: the key (or the client certificate) was refused. */
  'authentication_failed',
  /** 403: the key may not do this (another marketplace, a certificate for another marketplace). */
  'permission_denied',
  'not_found',
  /** 400/422: the service refused the input. */
  'validation_error',
  /** The client refused the input before sending it. */
  'invalid_request',
  /** 501: the feature (PINPAD, tap to pay) is not enabled for the marketplace. */
  'not_enabled',
  /** 429: refused before anything was done; `retryAfterMs` when the service said how long. */
  'rate_limited',
  /** 409: a duplicate, or a state that forbids the operation. */
  'conflict',
  /** 408, 5xx, no answer, an attempt deadline, an unreadable answer: the outcome is unknown. */
  'request_timeout',
  'server_error',
  'connection_error',
  'timeout',
  'invalid_response',
  'request_failed',
] as const;

export type PaymentsFailureCode = (typeof PAYMENTS_FAILURE_CODES)[number];

export interface PaymentsFailure {
  /** Undefined for an error that carries no known code: treated as a lost answer. */
  readonly code: PaymentsFailureCode | undefined;
  /** "code: message", for the journal and the logs (the port's errors never hold card data). */
  readonly text: string;
  readonly retryAfterMs: number | undefined;
}

const isCode = (value: unknown): value is PaymentsFailureCode =>
  typeof value === 'string' && (PAYMENTS_FAILURE_CODES as readonly string[]).includes(value);

export function paymentsFailureOf(error: unknown): PaymentsFailure {
  const fields =
    typeof error === 'object' && error !== null
      ? (error as { code?: unknown; retryAfterMs?: unknown; detail?: unknown })
      : {};
  const code = isCode(fields.code) ? fields.code : undefined;
  const said = error instanceof Error ? error.message : String(error);
  // The service's own words, when the error's message is a fixed sentence (a 401's is).
  const message =
    typeof fields.detail === 'string' && fields.detail !== '' && fields.detail !== said
      ? `${said} (${fields.detail})`
      : said;
  return {
    code,
    text: code === undefined ? message : `${code}: ${message}`,
    retryAfterMs:
      typeof fields.retryAfterMs === 'number' && Number.isFinite(fields.retryAfterMs) ? fields.retryAfterMs : undefined,
  };
}

/** Failures after which the service certainly did not create or change anything. */
const REFUSALS: ReadonlySet<PaymentsFailureCode> = new Set([
  'authentication_failed',
  'permission_denied',
  'not_found',
  'validation_error',
  'invalid_request',
  'not_enabled',
  'rate_limited',
]);

export const isDefinitiveRefusal = (failure: PaymentsFailure): boolean =>
  failure.code !== undefined && REFUSALS.has(failure.code);

/** The problem a payment ends with when the service refused to create its transaction. */
export function refusalProblem(failure: PaymentsFailure): PaymentProblem {
  switch (failure.code) {
    case 'authentication_failed':
    case 'permission_denied':
      return problem('API_ACCESS_DENIED', failure.text);
    case 'not_enabled':
      return problem('API_NOT_ENABLED', failure.text);
    case 'rate_limited':
      return problem(
        'API_BUSY',
        failure.retryAfterMs === undefined
          ? failure.text
          : `${failure.text} (retry after ${Math.ceil(failure.retryAfterMs / 1000)} s)`,
      );
    default:
      return problem('API_REJECTED', failure.text);
  }
}
