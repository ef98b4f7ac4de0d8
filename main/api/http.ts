/**
 * The request core every resource goes through: bearer header, JSON in and out, a timeout per
 * attempt, retries where they are safe, and one error class per failure.
 *
 * Retries. A request is retried only when repeating it cannot do something twice: GET and
 * DELETE, and POST/PATCH that carry an Idempotency-Key (the service answers a repeat with the
 * first response). It is retried on network errors, attempt timeouts, 408, 429, 500, 502, 503
 * and 504 — never on another 4xx (409 included: it means the key was reused with another body,
 * or the state forbids the operation, and repeating changes nothing). The wait is exponential
 * backoff with full jitter (random in [0, min(cap, base·2^(n-1))], base 250 ms, cap 4 s), or the
 * server's Retry-After (seconds or an HTTP date) when it gave one; a Retry-After longer than
 * `maxRetryAfterMs` is not waited for: the error is thrown at once with `retryAfterMs`.
 *
 * 401. Credentials do not heal by repetition: a 401 is thrown as `AuthenticationError` without
 * retry, and for `authFailureCooldownMs` (5 s) afterwards every call fails the same way without
 * a request, so a loop of callers cannot hammer the service with a dead token. The first call
 * after the window is sent for real; a success clears the state.
 *
 * Logs carry method, path (ids, never the query string: it may hold a CPF), status, attempt and
 * duration — never the token, a body or card data.
 */
import { VERSION } from '../version.js';
import { errorFromResponse, parseErrorBody } from './error-body.js';
import {
  AuthenticationError,
  ConnectionError,
  InvalidResponseError,
  type PaymentsApiError,
  TimeoutError,
} from './errors.js';

/** The subset of a pino logger the client uses (a pino `Logger` fits). */
export interface PaymentsLogger {
  debug(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface HttpCoreOptions {
  /** "http://127.0.0.1:PORT" or "https://api.example.com" (paths start with /v1). */
  readonly baseUrl: string;
  readonly token: string;
  /** Per attempt (default 20 s). */
  readonly timeoutMs?: number;
  /** Retries after the first attempt, for requests that may be retried (default 2). */
  readonly maxRetries?: number;
  readonly fetch?: typeof fetch;
  readonly logger?: PaymentsLogger;
  readonly userAgent?: string;
  /** How long calls fail fast after a 401 (default 5 s; 0 disables). */
  readonly authFailureCooldownMs?: number;
  /** Backoff base and cap (defaults 250 ms and 4 s). */
  readonly retryBaseDelayMs?: number;
  readonly retryMaxDelayMs?: number;
  /** Longest Retry-After the client waits for (default 10 s); beyond it the error is thrown. */
  readonly maxRetryAfterMs?: number;
  /** Random source in [0, 1) for the jitter (tests may fix it). */
  readonly random?: () => number;
  /** Clock in ms (tests may move it). */
  readonly now?: () => number;
}

/** Per-call options every resource method accepts. */
export interface CallOptions {
  /** Aborts the call (and its retries and waits); the call rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  readonly timeoutMs?: number;
  /** Overrides the client's retry count (still only for requests that may be retried). */
  readonly maxRetries?: number;
}

export interface HttpRequest extends CallOptions {
  readonly method: HttpMethod;
  /** Path with ids already encoded, starting with /v1. */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** JSON body (POST/PATCH). */
  readonly body?: unknown;
  readonly idempotencyKey?: string;
}

const MAX_TIMER_MS = 2_147_483_647;

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

export const DEFAULTS = {
  timeoutMs: 20_000,
  maxRetries: 2,
  authFailureCooldownMs: 5_000,
  retryBaseDelayMs: 250,
  retryMaxDelayMs: 4_000,
  maxRetryAfterMs: 10_000,
} as const;

/** Retry-After in ms: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Full-jitter exponential backoff for retry number `retry` (1-based). */
export function backoffDelay(retry: number, baseMs: number, capMs: number, random: () => number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** Waits `ms`; rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface AttemptFailure {
  readonly error: PaymentsApiError;
  readonly retryable: boolean;
  /** Server-asked wait before the next attempt. */
  readonly retryAfterMs?: number;
}

const requestIdOf = (response: Response): string | undefined =>
  response.headers.get('x-request-id') ?? response.headers.get('request-id') ?? undefined;

const silentLogger: PaymentsLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export class HttpCore {
  readonly #token: string;
  readonly #authorization: string;
  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #log: PaymentsLogger;
  readonly #userAgent: string;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #authCooldownMs: number;
  readonly #baseDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #maxRetryAfterMs: number;
  readonly #random: () => number;
  readonly #now: () => number;
  /** Until when calls fail fast after a 401 (ms since epoch). */
  #authBlockedUntil = 0;

  constructor(options: HttpCoreOptions) {
    if (typeof options.token !== 'string' || options.token.trim() === '') throw new TypeError('PaymentsClient: token is required');
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new TypeError('PaymentsClient: baseUrl must be an absolute http(s) URL');
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError('PaymentsClient: baseUrl must be an absolute http(s) URL');
    }
    this.#baseUrl = base.href.replace(/\/+$/, '');
    this.#token = options.token;
    this.#authorization = `Bearer ${options.token}`;
    const fetchImpl = options.fetch;
    this.#fetch = fetchImpl ?? ((input, init) => fetch(input, init));
    this.#log = options.logger ?? silentLogger;
    this.#userAgent = options.userAgent ?? `pinbridge/${VERSION} (node ${process.version})`;
    this.#timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    this.#maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
    this.#authCooldownMs = options.authFailureCooldownMs ?? DEFAULTS.authFailureCooldownMs;
    this.#baseDelayMs = options.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs;
    this.#maxDelayMs = options.retryMaxDelayMs ?? DEFAULTS.retryMaxDelayMs;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
  }

  /** The per-attempt timeout calls get unless they pass their own. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** Sends the request (retrying where safe) and returns the parsed JSON body of the 2xx answer. */
  async request(request: HttpRequest): Promise<unknown> {
    const { method, path } = request;
    if (this.#authBlockedUntil > this.#now()) {
      this.#log.warn({ method, path, code: 'authentication_failed' }, 'payments api call refused: credentials failed moments ago');
      throw new AuthenticationError({ method, path, sent: false, detail: 'Not sent: the service rejected the credentials moments ago' });
    }
    const retryable = method === 'GET' || method === 'DELETE' || request.idempotencyKey !== undefined;
    const attempts = retryable ? 1 + Math.max(0, request.maxRetries ?? this.#maxRetries) : 1;
    const url = this.#url(path, request.query);
    const init = this.#init(request);
    // Whole milliseconds within setTimeout's range (beyond it Node fires at once).
    const timeoutMs = Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(request.timeoutMs ?? this.#timeoutMs)));

    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const outcome = await this.#attempt(url, init, request, attempt, timeoutMs);
      const durationMs = Math.round(performance.now() - started);
      if (outcome.ok) {
        this.#authBlockedUntil = 0;
        this.#log.debug({ method, path, status: outcome.status, attempt, durationMs }, 'payments api request');
        return outcome.body;
      }
      const { error } = outcome.failure;
      if (error instanceof AuthenticationError) this.#authBlockedUntil = this.#now() + this.#authCooldownMs;
      const wait = this.#retryWait(outcome.failure, attempt, attempts, retryable);
      const fields = { method, path, status: error.status, code: error.code, attempt, durationMs, traceId: error.traceId };
      if (wait === undefined) {
        this.#log.warn(fields, 'payments api request failed');
        throw error;
      }
      this.#log.warn({ ...fields, retryInMs: wait }, 'payments api request failed; retrying');
      await sleep(wait, request.signal);
    }
  }

  /** How long to wait before the next attempt, or undefined to give up. */
  #retryWait(failure: AttemptFailure, attempt: number, attempts: number, retryable: boolean): number | undefined {
    if (!retryable || !failure.retryable || attempt >= attempts) return undefined;
    if (failure.retryAfterMs !== undefined) {
      return failure.retryAfterMs > this.#maxRetryAfterMs ? undefined : failure.retryAfterMs;
    }
    return backoffDelay(attempt, this.#baseDelayMs, this.#maxDelayMs, this.#random);
  }

  async #attempt(
    url: string,
    init: RequestInit,
    request: HttpRequest,
    attempt: number,
    timeoutMs: number,
  ): Promise<{ ok: true; status: number; body: unknown } | { ok: false; failure: AttemptFailure }> {
    const { method, path, signal: callerSignal } = request;
    callerSignal?.throwIfAborted();
    // One controller per attempt, aborted by its timer or by the caller's signal. (Cheaper on the
    // hot path than AbortSignal.timeout + AbortSignal.any, and it holds no reference to a
    // long-lived caller signal once the attempt is over.)
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`Attempt timed out after ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(url, { ...init, signal: controller.signal });
      text = await response.text();
    } catch (cause) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (timedOut) {
        const error = new TimeoutError({
          message: `Payments API did not answer ${method} ${path} within ${timeoutMs} ms (attempt ${attempt})`,
          timeoutMs,
          method,
          path,
        });
        return { ok: false, failure: { error, retryable: true } };
      }
      const reason = cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
      const error = new ConnectionError({
        message: `Could not reach the payments API (${method} ${path}): ${this.#scrub(reason)}`,
        method,
        path,
        cause,
      });
      return { ok: false, failure: { error, retryable: true } };
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }

    const { status } = response;
    if (status >= 200 && status < 300) {
      if (text === '') return { ok: true, status, body: undefined };
      try {
        return { ok: true, status, body: JSON.parse(text) as unknown };
      } catch {
        if (text.trim() === '') return { ok: true, status, body: undefined };
        text = this.#scrub(text);
        const requestId = requestIdOf(response);
        const parsed = parseErrorBody(text, response.statusText);
        const error = new InvalidResponseError({
          message: `Payments API answered ${method} ${path} with a body that is not JSON (HTTP ${status})`,
          status,
          raw: parsed.raw,
          requestId,
          method,
          path,
        });
        return { ok: false, failure: { error, retryable: false } };
      }
    }
    text = this.#scrub(text);
    const requestId = requestIdOf(response);
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), this.#now());
    const body = parseErrorBody(text, `HTTP ${status} ${response.statusText}`.trim());
    const error = errorFromResponse({ status, statusText: response.statusText, method, path, requestId, retryAfterMs }, body);
    const askedWait =
      retryAfterMs ?? (body.retryAfterSeconds === undefined ? undefined : Math.round(body.retryAfterSeconds * 1000));
    return { ok: false, failure: { error, retryable: RETRYABLE_STATUSES.has(status), retryAfterMs: askedWait } };
  }

  #url(path: string, query: HttpRequest['query']): string {
    let url = this.#baseUrl + path;
    if (query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
      const search = params.toString();
      if (search !== '') url += `?${search}`;
    }
    return url;
  }

  #init(request: HttpRequest): RequestInit {
    const headers: Record<string, string> = {
      authorization: this.#authorization,
      accept: 'application/json',
      'user-agent': this.#userAgent,
    };
    // Never follow a redirect: it could carry the token or a payment to another place.
    if (request.body === undefined && request.idempotencyKey === undefined) return { method: request.method, headers, redirect: 'manual' };
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    return { method: request.method, headers, body, redirect: 'manual' };
  }

  /** The token never leaves in an error text, even if a proxy echoes it. */
  #scrub(text: string): string {
    return this.#token.length >= 8 && text.includes(this.#token) ? text.split(this.#token).join('[redacted]') : text;
  }
}
