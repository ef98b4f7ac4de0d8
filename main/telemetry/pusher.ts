/**
 * Pushes telemetry batches: every `intervalMs` it collects one batch — the agent's metrics by
 * remote write (the default), or what `collect` gives (the OTLP traces and logs, otlp-*.ts) —
 * queues it (queue.ts), and sends the queued batches oldest first. What an answer means is the
 * wire's (`PushWire`): for remote write, a receiver that is down, slow (past `timeoutMs`),
 * overloaded (429) or failing (5xx) is tried again later; for OTLP only 429, 502, 503 and 504
 * are (otlp-wire.ts). Retries wait what the receiver's Retry-After asks, else growing from
 * `retryBaseMs` (full jitter: a chain's checkouts that lost the endpoint together do not come
 * back together); a batch the receiver calls bad is dropped with a log line, as both specs say,
 * since sending it again cannot help.
 *
 * Off the payment path: it runs on its own timers, unref'd (they never keep the process up), and
 * nothing a sale does awaits it. Headers are never logged (they hold the credentials), nor is the
 * endpoint's query string.
 */
import { backoffDelay } from '../../lib/backoff.js';
import { messageOf } from '../../lib/errors.js';
import type { BatchQueue } from './queue.js';
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from './remote-write.js';
import { seriesOf, type IdentityLabels, type MetricsSource } from './series.js';

export interface PusherLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
}

/** What a protocol sends with each batch, and what an answer to it means. */
export interface PushWire {
  /** Content-Type and the protocol's own headers. */
  readonly headers: Readonly<Record<string, string>>;
  /** The outcome of an HTTP answer (`retryAfterMs`: the answer's Retry-After, when it had a valid one). */
  outcome(status: number, body: Uint8Array, retryAfterMs: number | undefined): SendOutcome;
}

/** Remote write v1: 2xx sent; 429 and 5xx tried again; another status dropped as bad. */
export const REMOTE_WRITE_WIRE: PushWire = {
  headers: REMOTE_WRITE_HEADERS,
  outcome(status, body, retryAfterMs) {
    if (status >= 200 && status < 300) return { kind: 'sent' };
    if (status === 429 || status >= 500) return { kind: 'retry', reason: `HTTP ${status}`, afterMs: retryAfterMs };
    return { kind: 'rejected', status, detail: Buffer.from(body).toString('utf8').slice(0, 300) };
  },
};

export interface PusherOptions {
  /** The metrics collected into each batch (remote write), unless `collect` is given. */
  readonly source?: MetricsSource | undefined;
  /** Each batch's body, or undefined when there is nothing to send (replaces source and identity). */
  readonly collect?: (() => Uint8Array | undefined) | undefined;
  /** The protocol: remote write unless given. */
  readonly wire?: PushWire | undefined;
  /** What is pushed, for the log's lines ("metrics", "OTLP traces"…; default "metrics"). */
  readonly what?: string | undefined;
  readonly queue: BatchQueue;
  /** An http(s) URL. */
  readonly endpoint: string;
  /** Sent with every push (credentials included); never logged. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly identity?: IdentityLabels | undefined;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly logger: PusherLogger;
  /** The first wait after a failed push (default 1 s), doubling up to `retryCapMs` (default 5 min). */
  readonly retryBaseMs?: number | undefined;
  readonly retryCapMs?: number | undefined;
  readonly userAgent?: string | undefined;
  /** The clock stamped on samples (default Date.now). */
  readonly now?: (() => number) | undefined;
}

/** What one send came to. */
export type SendOutcome =
  /** `warning`: the receiver took it but said something (OTLP's partial success). */
  | { readonly kind: 'sent'; readonly warning?: string | undefined }
  /** `afterMs`: how long the receiver asked to wait (Retry-After); else the backoff's wait. */
  | { readonly kind: 'retry'; readonly reason: string; readonly afterMs?: number | undefined }
  | { readonly kind: 'rejected'; readonly status: number; readonly detail: string };

/** Retry-After's wait in milliseconds (delay-seconds or an HTTP-date), or undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP-date names its day and month ("Sun, 29 Nov 2026 10:00:30 GMT"); Date.parse alone would take "-5" as a year.
  const at = /^[A-Za-z]{3}, /.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** The endpoint as the log may show it: no user info, no query (either may carry a secret). */
export function loggableEndpoint(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

export class TelemetryPusher {
  readonly #options: PusherOptions;
  readonly #stop = new AbortController();
  #interval: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  /** The tick or drain under way: never two at once. */
  #busy: Promise<void> | undefined;
  #failures = 0;
  #retryAt = 0;

  /** The URL requested: the endpoint without user info, which fetch refuses in a URL… */
  readonly #url: string;
  /** …and sent instead as Basic credentials, unless the headers carry an Authorization of their own. */
  readonly #headers: Readonly<Record<string, string>>;

  constructor(options: PusherOptions) {
    const url = new URL(options.endpoint);
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`telemetry endpoint must be an http(s) URL, not ${url.protocol}`);
    this.#options = options;
    const headers: Record<string, string> = { ...options.headers };
    if (url.username !== '' || url.password !== '') {
      const hasAuthorization = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
      const user = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
      if (!hasAuthorization) headers.Authorization = `Basic ${Buffer.from(user).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    this.#url = url.href;
    this.#headers = headers;
  }

  /** Collects and pushes now, then every interval. */
  start(): void {
    if (this.#interval !== undefined || this.#stop.signal.aborted) return;
    this.#interval = setInterval(() => void this.tick(), this.#options.intervalMs).unref();
    setTimeout(() => void this.tick(), 0).unref();
  }

  /** Stops the timers and any push under way (what was not sent stays queued). */
  async stop(): Promise<void> {
    this.#stop.abort();
    clearInterval(this.#interval);
    clearTimeout(this.#retry);
    await this.#busy;
  }

  /** One round: collect a batch, then send what waits (unless a retry's wait is not over). */
  tick(): Promise<void> {
    return this.#exclusive(async () => {
      await this.#collect();
      await this.#drain();
    });
  }

  /** Sends what waits, without collecting (a retry). */
  drain(): Promise<void> {
    return this.#exclusive(() => this.#drain());
  }

  async #exclusive(work: () => Promise<void>): Promise<void> {
    while (this.#busy !== undefined) await this.#busy;
    if (this.#stop.signal.aborted) return;
    const running = work().finally(() => {
      this.#busy = undefined;
    });
    this.#busy = running;
    await running;
  }

  /** Collects one batch into the queue. */
  async #collect(): Promise<void> {
    const { source, identity, queue, logger, collect } = this.#options;
    const stamp = (this.#options.now ?? Date.now)();
    try {
      if (collect !== undefined) {
        const body = collect();
        if (body !== undefined) queue.push(body);
        return;
      }
      if (source === undefined || identity === undefined) return;
      const series = seriesOf(await source.getMetricsAsJSON(), identity, stamp);
      if (series.length > 0) queue.push(remoteWriteBody(series));
    } catch (error) {
      logger.warn(
        { pushing: this.#what, err: messageOf(error) },
        `telemetry: the ${this.#what} could not be collected`,
      );
    }
  }

  get #what(): string {
    return this.#options.what ?? 'metrics';
  }

  async #drain(): Promise<void> {
    const { queue, logger } = this.#options;
    if (Date.now() < this.#retryAt) return;
    for (let batch = queue.peek(); batch !== undefined && !this.#stop.signal.aborted; batch = queue.peek()) {
      const outcome = await this.send(batch.body);
      const endpoint = loggableEndpoint(this.#options.endpoint);
      // `pushing` names the signal: the OTLP log export leaves out the lines about itself (otlp-logs.ts).
      const pushing = this.#what;
      if (outcome.kind === 'sent') {
        queue.remove(batch.seq);
        if (outcome.warning !== undefined)
          logger.warn(
            { pushing, endpoint, detail: outcome.warning },
            `telemetry: the receiver took the ${this.#what} with a warning`,
          );
        if (this.#failures > 0) logger.info({ pushing, endpoint }, `telemetry pushes again (${this.#what})`);
        this.#failures = 0;
      } else if (outcome.kind === 'rejected') {
        queue.drop(batch.seq, 'rejected');
        logger.warn(
          { pushing, endpoint, status: outcome.status, detail: outcome.detail },
          `telemetry: the receiver refused a batch of ${this.#what} as bad; it is dropped`,
        );
      } else {
        if (this.#stop.signal.aborted) return;
        this.#failures += 1;
        if (this.#failures === 1)
          logger.warn(
            { pushing, endpoint, reason: outcome.reason, queued: queue.batches },
            `telemetry push failed (${this.#what}); retrying with backoff (batches wait on disk)`,
          );
        const capMs = this.#options.retryCapMs ?? 300_000;
        const baseMs = this.#options.retryBaseMs ?? 1_000;
        // The receiver's Retry-After when it gave one (the OTLP spec's SHOULD), within the cap and
        // never under the first backoff step: "Retry-After: 0" on every answer is no reason to spin.
        const wait =
          outcome.afterMs !== undefined
            ? Math.min(Math.max(outcome.afterMs, baseMs), capMs)
            : backoffDelay(this.#failures, { baseMs, capMs, jitter: { kind: 'full' } });
        this.#retryAt = Date.now() + wait;
        clearTimeout(this.#retry);
        this.#retry = setTimeout(() => {
          // A timer may fire a millisecond before Date.now() reaches #retryAt: the wait is over.
          this.#retryAt = 0;
          void this.drain();
        }, wait).unref();
        return;
      }
    }
  }

  /** POSTs one batch and says what came of it (never throws). */
  async send(body: Uint8Array): Promise<SendOutcome> {
    const { timeoutMs, userAgent } = this.#options;
    const wire = this.#options.wire ?? REMOTE_WRITE_WIRE;
    const headers = this.#headers;
    try {
      const response = await fetch(this.#url, {
        method: 'POST',
        headers: {
          ...wire.headers,
          ...(userAgent === undefined ? {} : { 'User-Agent': userAgent }),
          ...headers,
        },
        body,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.#stop.signal]),
      });
      const answer = new Uint8Array(await response.arrayBuffer().catch(() => new ArrayBuffer(0)));
      return wire.outcome(response.status, answer, retryAfterMs(response.headers.get('retry-after')));
    } catch (error) {
      // fetch says "fetch failed" and keeps the why (ECONNREFUSED, ENOTFOUND…) in its cause.
      const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? 'timeout'
          : typeof cause?.code === 'string'
            ? cause.code
            : // A message may quote the URL, and its query may hold a secret.
              messageOf(error).replaceAll(this.#url, loggableEndpoint(this.#url));
      return { kind: 'retry', reason };
    }
  }
}
