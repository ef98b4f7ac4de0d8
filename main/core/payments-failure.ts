/**
 * How a call through the PaymentsPort failed, as the engine branches on it. The port's errors
 * say so in a `kind` the core owns (an adapter classifies its client's errors into it: the HTTP
 * client's in main/agent/payments-port.ts; a provider's own gateway throws a PaymentsPortError):
 * the core reads that field, never a client's classes or codes, and counts an error without a
 * known kind as a lost answer — the one reading that can never charge twice.
 */
import type { PaymentProblem } from './journal/record.js';
import { problem } from './problems.js';

export const PAYMENTS_FAILURE_KINDS = [
  /** The credentials (key, client certificate) were refused, or may not do this (HTTP 401/403). */
  'access_denied',
  /** The feature (PINPAD, tap to pay) is not enabled for the marketplace (HTTP 501). */
  'not_enabled',
  /** Refused before anything was done, for the rate; `retryAfterMs` when the provider said how long (HTTP 429). */
  'rate_limited',
  /** The record does not exist (HTTP 404). */
  'not_found',
  /** The input was refused, by the provider or before sending it (HTTP 400/422). */
  'refused',
  /** A duplicate, or a state that forbids the operation (HTTP 409): something may exist. */
  'conflict',
  /**
   * The provider answered with an error of its own (HTTP 500, 502, 503, 504): it, or a gateway in
   * front of it, may have acted on the request before failing, so the outcome is unknown — but it
   * was reached, which a cashier and a technician must hear apart from a network that is down.
   */
  'server_error',
  /** No answer, a timeout, an unreadable answer: the outcome is unknown. */
  'answer_unknown',
] as const;

export type PaymentsFailureKind = (typeof PAYMENTS_FAILURE_KINDS)[number];

/** What a PaymentsPort's error carries (any error with these fields will do). */
export interface PaymentsPortFailure {
  readonly kind: PaymentsFailureKind;
  /** The provider's own code (the HTTP client's: validation_error, connection_error…), for the journal and the logs. */
  readonly code?: string | undefined;
  /** Never card data: it goes to the journal and the logs. */
  readonly message: string;
  readonly retryAfterMs?: number | undefined;
}

/** The failure of a PaymentsPort call: what an adapter or a provider's own gateway throws. */
export class PaymentsPortError extends Error implements PaymentsPortFailure {
  readonly kind: PaymentsFailureKind;
  readonly code: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(failure: PaymentsPortFailure & { readonly cause?: unknown }) {
    super(failure.message, failure.cause === undefined ? undefined : { cause: failure.cause });
    this.name = 'PaymentsPortError';
    this.kind = failure.kind;
    this.code = failure.code;
    this.retryAfterMs = failure.retryAfterMs;
  }
}

export interface PaymentsFailure {
  /** `answer_unknown` for an error that carries no known kind. `server_error` reads as a lost answer too (isDefinitiveRefusal). */
  readonly kind: PaymentsFailureKind;
  /** "code: message", for the journal and the logs (the port's errors never hold card data). */
  readonly text: string;
  readonly retryAfterMs: number | undefined;
}

export const isPaymentsFailureKind = (value: unknown): value is PaymentsFailureKind =>
  typeof value === 'string' && (PAYMENTS_FAILURE_KINDS as readonly string[]).includes(value);

export function paymentsFailureOf(error: unknown): PaymentsFailure {
  const fields =
    typeof error === 'object' && error !== null
      ? (error as { kind?: unknown; code?: unknown; retryAfterMs?: unknown })
      : {};
  const message = error instanceof Error ? error.message : String(error);
  if (!isPaymentsFailureKind(fields.kind)) return { kind: 'answer_unknown', text: message, retryAfterMs: undefined };
  const code = typeof fields.code === 'string' && fields.code !== '' ? fields.code : undefined;
  return {
    kind: fields.kind,
    text: code === undefined ? message : `${code}: ${message}`,
    retryAfterMs:
      typeof fields.retryAfterMs === 'number' && Number.isFinite(fields.retryAfterMs) ? fields.retryAfterMs : undefined,
  };
}

/** Failures after which the provider certainly did not create or change anything. */
const REFUSALS: ReadonlySet<PaymentsFailureKind> = new Set([
  'access_denied',
  'not_enabled',
  'rate_limited',
  'not_found',
  'refused',
]);

export const isDefinitiveRefusal = (failure: PaymentsFailure): boolean => REFUSALS.has(failure.kind);

/** The problem a payment ends with when the service refused to create its transaction. */
export function refusalProblem(failure: PaymentsFailure): PaymentProblem {
  switch (failure.kind) {
    case 'access_denied':
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
