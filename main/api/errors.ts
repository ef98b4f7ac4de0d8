/**
 * The client's error classes. Every failure of a call is a `PaymentsApiError`; its subclass says
 * what went wrong (HTTP status class, network, timeout, bad response, bad input) so callers can
 * `instanceof` instead of reading numbers. The fields are the same whatever body shape the
 * service answered with (shape A, shape B, Zoop's envelope, RFC 7807 or a proxy's HTML page):
 * see `error-body.ts` for the parsing.
 *
 * Nothing here ever holds the access token, a request body or card data: `raw` is the
 * service's response body (or a truncated text of it), never what we sent.
 */
import { CodedError } from '../../lib/errors.js';
import type { Violation } from '../contract/index.js';

/** Stable machine codes, one per class (plus `request_failed` for statuses with no class). */
export const PAYMENTS_ERROR_CODES = [
  'authentication_failed',
  'permission_denied',
  'not_found',
  'validation_error',
  'conflict',
  'rate_limited',
  'request_timeout',
  'not_enabled',
  'server_error',
  'connection_error',
  'timeout',
  'invalid_response',
  'invalid_request',
  'request_failed',
] as const;

export type PaymentsErrorCode = (typeof PAYMENTS_ERROR_CODES)[number];

export interface PaymentsApiErrorInit {
  readonly message: string;
  readonly status?: number;
  readonly code: PaymentsErrorCode;
  /** The service's own classification: shape B `type`, Zoop `type`, RFC 7807 `type` URL. */
  readonly type?: string;
  /** Zoop / RFC 7807 `category` (e.g. card_error, insufficient_funds_error). */
  readonly category?: string;
  /** The service's human-readable reason, as sent (the message may differ, e.g. for 401). */
  readonly detail?: string;
  readonly traceId?: string;
  readonly requestId?: string;
  /** Zoop `reasons`. */
  readonly reasons?: readonly string[];
  readonly raw?: unknown;
  readonly method?: string;
  readonly path?: string;
  readonly cause?: unknown;
}

export class PaymentsApiError extends CodedError<PaymentsErrorCode> {
  /** HTTP status, or undefined when no response arrived (network, timeout, client-side validation). */
  readonly status: number | undefined;
  readonly type: string | undefined;
  readonly category: string | undefined;
  readonly detail: string;
  readonly traceId: string | undefined;
  readonly requestId: string | undefined;
  readonly reasons: readonly string[];
  /** The response body (parsed JSON, or text truncated to a few KB). */
  readonly raw: unknown;
  /** Method and path (no query string: it may carry a tax id) of the failed request. */
  readonly method: string | undefined;
  readonly path: string | undefined;

  constructor(init: PaymentsApiErrorInit) {
    super(init.code, init.message, init);
    this.status = init.status;
    this.type = init.type;
    this.category = init.category;
    this.detail = init.detail ?? init.message;
    this.traceId = init.traceId;
    this.requestId = init.requestId;
    this.reasons = init.reasons ?? [];
    this.raw = init.raw;
    this.method = init.method;
    this.path = init.path;
  }
}

type SubclassInit = Omit<PaymentsApiErrorInit, 'code'>;

export const AUTHENTICATION_FAILED_MESSAGE = 'Payments API credentials invalid or expired';

/** 401. Never retried; further calls fail fast for a short window (see `http.ts`). */
export class AuthenticationError extends PaymentsApiError {
  /** False when the client refused to send the request because a 401 arrived moments ago. */
  readonly sent: boolean;
  constructor(init: Omit<SubclassInit, 'message'> & { sent?: boolean }) {
    super({
      ...init,
      status: init.status ?? 401,
      message: AUTHENTICATION_FAILED_MESSAGE,
      code: 'authentication_failed',
    });
    this.sent = init.sent ?? true;
  }
}

/** 403. */
export class PermissionError extends PaymentsApiError {
  constructor(init: SubclassInit) {
    super({ ...init, code: 'permission_denied' });
  }
}

/** 404: the record (or the marketplace) does not exist for this token. */
export class NotFoundError extends PaymentsApiError {
  constructor(init: SubclassInit) {
    super({ ...init, code: 'not_found' });
  }
}

/** 400 / 422 (and 413): the service refused the input. `field` when the detail names one. */
export class ValidationError extends PaymentsApiError {
  readonly field: string | undefined;
  constructor(init: SubclassInit & { field?: string }) {
    super({ ...init, code: 'validation_error' });
    this.field = init.field;
  }
}

/** 409: duplicate record, an Idempotency-Key reused with another body, a state that forbids the operation. */
export class ConflictError extends PaymentsApiError {
  constructor(init: SubclassInit) {
    super({ ...init, code: 'conflict' });
  }
}

/** 429. `retryAfterMs` from Retry-After (or the body's retry_after) when the service gave one. */
export class RateLimitError extends PaymentsApiError {
  readonly retryAfterMs: number | undefined;
  constructor(init: SubclassInit & { retryAfterMs?: number }) {
    super({ ...init, code: 'rate_limited' });
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * 408: the service gave up waiting for the request (Zoop: service_request_timeout). Whether it
 * acted on it is not said, so it is retried only where repeating is safe, like a timeout.
 */
export class RequestTimeoutError extends PaymentsApiError {
  constructor(init: SubclassInit) {
    super({ ...init, code: 'request_timeout' });
  }
}

/**
 * 501: the feature is not enabled for this marketplace (GoPag answers it for a payment locale
 * not activated in homologation, e.g. PINPAD or tap to pay, with `validated_data`). Nothing was
 * done and repeating will not help: the provider must enable it.
 */
export class NotEnabledError extends PaymentsApiError {
  /** The body's `validated_data`, when the service echoed what it accepted. */
  readonly validatedData: unknown;
  constructor(init: SubclassInit & { validatedData?: unknown }) {
    super({ ...init, code: 'not_enabled' });
    this.validatedData = init.validatedData;
  }
}

/** 5xx (after the retries, when the request could be retried); 501 is NotEnabledError. */
export class ServerError extends PaymentsApiError {
  readonly retryAfterMs: number | undefined;
  constructor(init: SubclassInit & { retryAfterMs?: number }) {
    super({ ...init, code: 'server_error' });
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** No HTTP response: refused, reset, DNS… `cause` is the underlying error. */
export class ConnectionError extends PaymentsApiError {
  constructor(init: SubclassInit) {
    super({ ...init, code: 'connection_error' });
  }
}

/** An attempt (or a wait such as `waitForCompletion`) ran out of time. */
export class TimeoutError extends PaymentsApiError {
  readonly timeoutMs: number;
  constructor(init: SubclassInit & { timeoutMs: number }) {
    super({ ...init, code: 'timeout' });
    this.timeoutMs = init.timeoutMs;
  }
}

/** A response that is not JSON, or not the shape the call expects. Never retried. */
export class InvalidResponseError extends PaymentsApiError {
  constructor(init: SubclassInit) {
    super({ ...init, code: 'invalid_response' });
  }
}

/** The client refused the input before sending anything. */
export class InvalidRequestError extends PaymentsApiError {
  readonly violations: readonly Violation[];
  constructor(violations: readonly Violation[], context?: { method?: string; path?: string }) {
    super({
      message: `Invalid request: ${violations.map((v) => v.message).join('; ')}`,
      code: 'invalid_request',
      ...context,
    });
    this.violations = violations;
  }
}
