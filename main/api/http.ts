/**
 * The request core every resource goes through: bearer header, JSON in and out, a timeout per
 * attempt, retries where they are safe, and one error class per failure.
 *
 * Retries. A request is retried only when repeating it cannot do something twice: GET and
 * DELETE, and POST/PATCH that carry an Idempotency-Key (the service answers a repeat with the
 * first response) — keys are sent only to a provider said to honour them (`idempotencyKeys`,
 * off by default), so against any other a POST whose answer may have been lost is never sent
 * again by the client. It is retried on network errors, attempt timeouts, 408, 429, 500, 502, 503
 * and 504 — never on another 4xx (409 included: it means the key was reused with another body,
 * or the state forbids the operation, and repeating changes nothing) nor on 501 (a feature not
 * enabled). Any request, even a POST without a key, is retried after a 429 or a refused
 * connection: the service certainly did not act on it. The wait is exponential
 * backoff with full jitter (random in [0, min(cap, base·2^(n-1))], base 250 ms, cap 4 s), or the
 * server's Retry-After (seconds or an HTTP date) when it gave one; a Retry-After longer than
 * `maxRetryAfterMs` is not waited for: the error is thrown at once with `retryAfterMs`.
 *
 * 401. Credentials do not heal by repetition: a 401 is thrown as `AuthenticationError` without
 * retry, and for `authFailureCooldownMs` (5 s) afterwards every call fails the same way without
 * a request, so a loop of callers cannot hammer the service with a dead token. The first call
 * after the window is sent for real; a success clears the state. An undo (a reversal or a void:
 * `undo` on the request) is sent even within the window: it is what leaves nothing charged after
 * a refused authorization, and one request per payment hammers nobody.
 *
 * Logs carry method, path (ids, never the query string: it may hold a CPF), status, attempt and
 * duration — never the token, a body or card data.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { buildConnector, Dispatcher } from 'undici';
import { backoffDelay as exponentialBackoff } from '../../lib/backoff.js';
import { nodeHttp } from '../../lib/net-builtins.js';
import { VERSION } from '../version.js';
import type { ClientTls } from './client-certificate.js';
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

/**
 * How the key goes in the Authorization header: `bearer` as the contract says ("Bearer <token>",
 * GoPag), or `basic` as the Zoop API underneath authenticates (the key as the user name, an
 * empty password: "Basic base64(key + ':')").
 */
export type AuthScheme = 'bearer' | 'basic';

export interface HttpCoreOptions {
  /** "http://127.0.0.1:PORT" or "https://api.example.com" (paths start with /v1). */
  readonly baseUrl: string;
  readonly token: string;
  /** Default `bearer`. */
  readonly authScheme?: AuthScheme;
  /**
   * The provider honours Idempotency-Key (default false: neither GoPag nor Zoop documents it).
   * False: no key is sent, so a POST or PATCH is never sent again after an answer that may have
   * been lost (only after a 429 or a refused connection, which the service certainly did not act on).
   */
  readonly idempotencyKeys?: boolean;
  /**
   * The client certificate every connection presents (mutual TLS) and the CAs trusted for the
   * server beside the public ones (client-certificate.ts reads and checks them). Not with
   * `dispatcher`: a dispatcher of the caller's own carries its own TLS settings.
   */
  readonly tls?: ClientTls;
  /** Per attempt (default 20 s): connecting, the answer and its whole body. */
  readonly timeoutMs?: number;
  /** Retries after the first attempt, for requests that may be retried (default 2). */
  readonly maxRetries?: number;
  /**
   * The undici dispatcher requests go through (default: an Agent of the client's own, with
   * keep-alive). Pass a ProxyAgent for a store behind an HTTP proxy, or an Agent with its own
   * TLS settings.
   */
  readonly dispatcher?: Dispatcher;
  readonly logger?: PaymentsLogger;
  readonly userAgent?: string;
  /** How long calls fail fast after a 401 (default 5 s; 0 disables). */
  readonly authFailureCooldownMs?: number;
  /**
   * How long a connection of the client's own pool is kept when it never carries a request
   * (default 4 s, undici's keep-alive). See `closingUnused`.
   */
  readonly unusedConnectionMs?: number;
  /** Backoff base and cap (defaults 250 ms and 4 s). */
  readonly retryBaseDelayMs?: number;
  readonly retryMaxDelayMs?: number;
  /** Longest Retry-After the client waits for (default 10 s); beyond it the error is thrown. */
  readonly maxRetryAfterMs?: number;
  /** Random source in [0, 1) for the jitter (tests may fix it). */
  readonly random?: () => number;
  /** Clock in ms (tests may move it). */
  readonly now?: () => number;
  /** Told about every attempt's end (health monitors, metrics): never card data, never the token. */
  readonly onAttempt?: (attempt: AttemptReport) => void;
}

/** One HTTP attempt, as `onAttempt` hears of it. */
export interface AttemptReport {
  readonly method: HttpMethod;
  readonly path: string;
  readonly ok: boolean;
  /** The HTTP status; null when no answer came (connection refused, timeout). */
  readonly status: number | null;
  /** The client's error code when it failed (CONNECTION_ERROR, TIMEOUT, SERVER_ERROR…). */
  readonly code: string | null;
  readonly message: string | null;
  readonly durationMs: number;
  /** The attempt's own deadline: a timeout of a very short one says little about the service. */
  readonly timeoutMs: number;
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
  /** An undo (reversal, void): sent even within the cool-down after a 401 (see the module comment). */
  readonly undo?: boolean;
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
  unusedConnectionMs: 4_000,
} as const;

/**
 * undici's connector, with each new connection closed when it has carried no request `ms` after it
 * opened. undici (nodejs/undici#5845; the 7.30 shipped here does it) opens a new connection for a
 * request aborted while its answer was arriving — a Pix watch stopped mid-read — and then drops
 * the request: that connection never serves anything and may get no keep-alive timer, so it
 * stayed open to the provider until the provider gave up on it (the sandbox's close waited for
 * it). A connection that carried a request is undici's to keep or close, as before; a TLS
 * handshake is over before the callback, so only a request moves `bytesWritten` after it.
 */
function closingUnused(connector: buildConnector.connector, ms: number): buildConnector.connector {
  return (options, callback) =>
    connector(options, (error, socket) => {
      if (error !== null || socket === null) return callback(error ?? new Error('no connection'), null);
      const written = socket.bytesWritten;
      const timer = setTimeout(() => {
        if (socket.bytesWritten === written) socket.destroy();
      }, ms);
      timer.unref();
      socket.once('close', () => clearTimeout(timer));
      callback(null, socket);
    });
}

/** Whole milliseconds within setTimeout's range (beyond it Node fires at once); NaN becomes the default. */
function timerMs(ms: number): number {
  if (Number.isNaN(ms)) return DEFAULTS.timeoutMs;
  return Math.min(MAX_TIMER_MS, Math.max(1, Math.ceil(ms)));
}

/** Retry-After in ms: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^[0-9]+(\.[0-9]+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/** Full-jitter exponential backoff for retry number `retry` (1-based), in whole milliseconds. */
export function backoffDelay(retry: number, baseMs: number, capMs: number, random: () => number): number {
  return Math.floor(exponentialBackoff(retry, { baseMs, capMs, jitter: { kind: 'full' } }, random));
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

type AttemptOutcome = { ok: true; status: number; body: unknown } | { ok: false; failure: AttemptFailure };

interface AttemptFailure {
  readonly error: PaymentsApiError;
  readonly retryable: boolean;
  /**
   * The service certainly did not act on the request (429: refused before processing; the
   * connection refused: nothing was sent), so even a request without an Idempotency-Key may be
   * sent again.
   */
  readonly unprocessed?: boolean;
  /** Server-asked wait before the next attempt. */
  readonly retryAfterMs?: number;
}

/** The request's method, headers and JSON text: the same for every attempt. */
interface AttemptInit {
  readonly method: HttpMethod;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

/** undici's own limits (the connect timeout; headers and body limits of a custom dispatcher). */
const UNDICI_TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function isUndiciTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNDICI_TIMEOUT_CODES.has(code);
}

/** The connection was refused (nothing listens there): the request never left. */
function isRefused(error: unknown): boolean {
  for (
    let current: unknown = error, depth = 0;
    current instanceof Error && depth < 4;
    current = current.cause, depth++
  ) {
    if ((current as NodeJS.ErrnoException).code === 'ECONNREFUSED') return true;
  }
  return false;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const requestIdOf = (headers: IncomingHttpHeaders): string | undefined =>
  headerValue(headers, 'x-request-id') ?? headerValue(headers, 'request-id');

const silentLogger: PaymentsLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

export class HttpCore {
  readonly #token: string;
  readonly #authorization: string;
  /** "https://api.example.com" (scheme, host and port). */
  readonly #origin: string;
  /** The base URL's path without a trailing slash ("" for most services). */
  readonly #basePath: string;
  /** The dispatcher requests go through: the caller's, or this client's own Agent (made at the first request). */
  readonly #dispatcher: () => Promise<Dispatcher>;
  /** This client's own Agent, once made (close() closes it; a caller's dispatcher is the caller's). */
  #own: Promise<Dispatcher> | undefined;
  #closed: Promise<void> | undefined;
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
  readonly #onAttempt: ((attempt: AttemptReport) => void) | undefined;
  readonly #idempotencyKeys: boolean;
  readonly #authScheme: AuthScheme;
  /** Until when calls fail fast after a 401 (ms since epoch). */
  #authBlockedUntil = 0;

  constructor(options: HttpCoreOptions) {
    if (typeof options.token !== 'string' || options.token.trim() === '')
      throw new TypeError('PaymentsClient: token is required');
    let base: URL;
    try {
      base = new URL(options.baseUrl);
    } catch {
      throw new TypeError('PaymentsClient: baseUrl must be an absolute http(s) URL');
    }
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError('PaymentsClient: baseUrl must be an absolute http(s) URL');
    }
    this.#origin = base.origin;
    this.#basePath = base.pathname.replace(/\/+$/, '');
    this.#token = options.token;
    const scheme = options.authScheme ?? 'bearer';
    if (scheme !== 'bearer' && scheme !== 'basic')
      throw new TypeError('PaymentsClient: authScheme must be "bearer" or "basic"');
    this.#authScheme = scheme;
    this.#authorization =
      scheme === 'basic' ? `Basic ${Buffer.from(`${options.token}:`).toString('base64')}` : `Bearer ${options.token}`;
    this.#log = options.logger ?? silentLogger;
    this.#userAgent = options.userAgent ?? `pinbridge/${VERSION} (node ${process.version})`;
    this.#timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
    // A pool of this client's own: keep-alive connections to the service, nothing shared with
    // other code's global fetch dispatcher (whose undici version is the runtime's, not ours).
    // Connecting may take as long as a whole attempt (undici's default would cut it at 10 s).
    if (options.dispatcher !== undefined && options.tls !== undefined) {
      throw new TypeError('PaymentsClient: give the client certificate to the dispatcher, or tls without a dispatcher');
    }
    const given = options.dispatcher;
    const connect = { timeout: timerMs(this.#timeoutMs), ...options.tls };
    // undici (some 110 modules) is loaded with the first request: an agent in training mode, or
    // whose PINPAD is idle, may make none for hours.
    const unusedMs = timerMs(options.unusedConnectionMs ?? DEFAULTS.unusedConnectionMs);
    this.#dispatcher =
      given === undefined
        ? () =>
            (this.#own ??= import('undici').then(
              ({ Agent, buildConnector }) => new Agent({ connect: closingUnused(buildConnector(connect), unusedMs) }),
            ))
        : () => Promise.resolve(given);
    this.#maxRetries = options.maxRetries ?? DEFAULTS.maxRetries;
    this.#authCooldownMs = options.authFailureCooldownMs ?? DEFAULTS.authFailureCooldownMs;
    this.#baseDelayMs = options.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs;
    this.#maxDelayMs = options.retryMaxDelayMs ?? DEFAULTS.retryMaxDelayMs;
    this.#maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULTS.maxRetryAfterMs;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
    this.#onAttempt = options.onAttempt;
    this.#idempotencyKeys = options.idempotencyKeys ?? false;
  }

  /**
   * Closes the client's own connections (the agent stops): requests under way are answered first,
   * each within its deadline; a call after it fails. A dispatcher the caller gave is left open.
   */
  close(): Promise<void> {
    const own = this.#own;
    if (own === undefined) return Promise.resolve();
    return (this.#closed ??= own.then((agent) => agent.close()));
  }

  /** How the key is presented: `bearer` (GoPag's front) or `basic` (the Zoop API underneath). */
  get authScheme(): AuthScheme {
    return this.#authScheme;
  }

  /** The per-attempt timeout calls get unless they pass their own. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** Sends the request (retrying where safe) and returns the parsed JSON body of the 2xx answer. */
  async request(asked: HttpRequest): Promise<unknown> {
    // A provider that does not dedupe by key gets none: nothing may then pass for a safe repeat.
    const request =
      this.#idempotencyKeys || asked.idempotencyKey === undefined ? asked : { ...asked, idempotencyKey: undefined };
    const { method, path } = request;
    if (this.#authBlockedUntil > this.#now() && request.undo !== true) {
      this.#log.warn(
        { method, path, code: 'authentication_failed' },
        'payments api call refused: credentials failed moments ago',
      );
      throw new AuthenticationError({
        method,
        path,
        sent: false,
        detail: 'Not sent: the service rejected the credentials moments ago',
      });
    }
    const retryable = method === 'GET' || method === 'DELETE' || request.idempotencyKey !== undefined;
    const attempts = 1 + Math.max(0, request.maxRetries ?? this.#maxRetries);
    const url = this.#url(path, request.query);
    const init = this.#init(request);
    const timeoutMs = timerMs(request.timeoutMs ?? this.#timeoutMs);

    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const outcome = await this.#attempt(url, init, request, attempt, timeoutMs);
      const durationMs = Math.round(performance.now() - started);
      this.#report(method, path, outcome, durationMs, timeoutMs);
      if (outcome.ok) {
        this.#authBlockedUntil = 0;
        this.#log.debug({ method, path, status: outcome.status, attempt, durationMs }, 'payments api request');
        return outcome.body;
      }
      const { error } = outcome.failure;
      if (error instanceof AuthenticationError) this.#authBlockedUntil = this.#now() + this.#authCooldownMs;
      const wait = this.#retryWait(outcome.failure, attempt, attempts, retryable);
      const fields = {
        method,
        path,
        status: error.status,
        code: error.code,
        attempt,
        durationMs,
        traceId: error.traceId,
      };
      if (wait === undefined) {
        this.#log.warn(fields, 'payments api request failed');
        throw error;
      }
      this.#log.warn({ ...fields, retryInMs: wait }, 'payments api request failed; retrying');
      await sleep(wait, request.signal);
    }
  }

  #report(method: HttpMethod, path: string, outcome: AttemptOutcome, durationMs: number, timeoutMs: number): void {
    if (this.#onAttempt === undefined) return;
    const report: AttemptReport = outcome.ok
      ? { method, path, ok: true, status: outcome.status, code: null, message: null, durationMs, timeoutMs }
      : {
          method,
          path,
          ok: false,
          status: outcome.failure.error.status ?? null,
          code: outcome.failure.error.code,
          message: outcome.failure.error.message,
          durationMs,
          timeoutMs,
        };
    try {
      this.#onAttempt(report);
    } catch {
      // An observer's bug must not fail a payment.
    }
  }

  /** How long to wait before the next attempt, or undefined to give up. */
  #retryWait(failure: AttemptFailure, attempt: number, attempts: number, retryable: boolean): number | undefined {
    if (!(retryable || failure.unprocessed === true) || !failure.retryable || attempt >= attempts) return undefined;
    if (failure.retryAfterMs !== undefined) {
      return failure.retryAfterMs > this.#maxRetryAfterMs ? undefined : failure.retryAfterMs;
    }
    return backoffDelay(attempt, this.#baseDelayMs, this.#maxDelayMs, this.#random);
  }

  async #attempt(
    url: string,
    init: AttemptInit,
    request: HttpRequest,
    attempt: number,
    timeoutMs: number,
  ): Promise<AttemptOutcome> {
    const { method, path, signal: callerSignal } = request;
    callerSignal?.throwIfAborted();
    const dispatcher = await this.#dispatcher();
    // One controller per attempt, aborted by its timer or by the caller's signal. The timer is a
    // deadline for the whole attempt (connecting, the answer and its body), to the millisecond;
    // undici's own headers/body timeouts tick only twice a second.
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException(`Attempt timed out after ${timeoutMs} ms`, 'TimeoutError'));
    }, timeoutMs);
    const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    let status: number;
    let headers: IncomingHttpHeaders;
    let text: string;
    try {
      // undici's request API rather than fetch: the same connection pool without the WHATWG
      // Request/Response objects, which cost more than everything else the client does.
      const response = await dispatcher.request({
        origin: this.#origin,
        path: url,
        method: init.method,
        headers: init.headers,
        body: init.body,
        signal: controller.signal,
      });
      status = response.statusCode;
      headers = response.headers;
      text = await response.body.text();
    } catch (cause) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (timedOut || isUndiciTimeout(cause)) {
        const error = new TimeoutError({
          message: `Payments API did not answer ${method} ${path} within ${timeoutMs} ms (attempt ${attempt})`,
          timeoutMs,
          method,
          path,
        });
        return { ok: false, failure: { error, retryable: true } };
      }
      const reason =
        cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
      const error = new ConnectionError({
        message: `Could not reach the payments API (${method} ${path}): ${this.#scrub(reason)}`,
        method,
        path,
        cause,
      });
      return { ok: false, failure: { error, retryable: true, unprocessed: isRefused(cause) } };
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onCallerAbort);
    }

    const statusText = nodeHttp().STATUS_CODES[status] ?? '';
    if (status >= 200 && status < 300) {
      if (text === '') return { ok: true, status, body: undefined };
      try {
        return { ok: true, status, body: JSON.parse(text) as unknown };
      } catch {
        if (text.trim() === '') return { ok: true, status, body: undefined };
        text = this.#scrub(text);
        const parsed = parseErrorBody(text, statusText);
        const error = new InvalidResponseError({
          message: `Payments API answered ${method} ${path} with a body that is not JSON (HTTP ${status})`,
          status,
          raw: parsed.raw,
          requestId: requestIdOf(headers),
          method,
          path,
        });
        return { ok: false, failure: { error, retryable: false } };
      }
    }
    text = this.#scrub(text);
    const requestId = requestIdOf(headers);
    const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after') ?? null, this.#now());
    const body = parseErrorBody(text, `HTTP ${status} ${statusText}`.trim());
    const error = errorFromResponse({ status, statusText, method, path, requestId, retryAfterMs }, body);
    const askedWait =
      retryAfterMs ?? (body.retryAfterSeconds === undefined ? undefined : Math.round(body.retryAfterSeconds * 1000));
    return {
      ok: false,
      failure: {
        error,
        retryable: RETRYABLE_STATUSES.has(status),
        unprocessed: status === 429,
        retryAfterMs: askedWait,
      },
    };
  }

  /** The request target: the base URL's path prefix, the path and the query string. */
  #url(path: string, query: HttpRequest['query']): string {
    let url = this.#basePath + path;
    if (query) {
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
      const search = params.toString();
      if (search !== '') url += `?${search}`;
    }
    return url;
  }

  #init(request: HttpRequest): AttemptInit {
    const headers: Record<string, string> = {
      authorization: this.#authorization,
      accept: 'application/json',
      'user-agent': this.#userAgent,
    };
    // Redirects are never followed (undici's request does not): one could carry the token or a
    // payment to another place; a 3xx is an error like any other non-2xx answer.
    if (request.body === undefined && request.idempotencyKey === undefined) return { method: request.method, headers };
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    if (request.idempotencyKey !== undefined) headers['idempotency-key'] = request.idempotencyKey;
    return { method: request.method, headers, body };
  }

  /** The token never leaves in an error text, even if a proxy echoes it (or its Basic header). */
  #scrub(text: string): string {
    let scrubbed = text;
    for (const secret of [this.#token, this.#authorization.slice(this.#authorization.indexOf(' ') + 1)]) {
      if (secret.length >= 8 && scrubbed.includes(secret)) scrubbed = scrubbed.split(secret).join('[redacted]');
    }
    return scrubbed;
  }
}
