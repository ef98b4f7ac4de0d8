/**
 * Pushes the agent's metrics by remote write: every `intervalMs` it collects the registry into
 * one batch, queues it (queue.ts), and sends the queued batches oldest first. A receiver that is
 * down, slow (past `timeoutMs`), overloaded (429) or failing (5xx) is tried again later, waits
 * growing from `retryBaseMs` (full jitter: a chain's checkouts that lost the endpoint together do
 * not come back together); a batch the receiver calls bad (another 4xx) is dropped with a log
 * line, as the remote-write spec says, since sending it again cannot help.
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

export interface PusherOptions {
  readonly source: MetricsSource;
  readonly queue: BatchQueue;
  /** An http(s) URL. */
  readonly endpoint: string;
  /** Sent with every push (credentials included); never logged. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  readonly identity: IdentityLabels;
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
  | { readonly kind: 'sent' }
  | { readonly kind: 'retry'; readonly reason: string }
  | { readonly kind: 'rejected'; readonly status: number; readonly detail: string };

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

  async #collect(): Promise<void> {
    const { source, identity, queue, logger } = this.#options;
    const stamp = (this.#options.now ?? Date.now)();
    try {
      const series = seriesOf(await source.getMetricsAsJSON(), identity, stamp);
      if (series.length > 0) queue.push(remoteWriteBody(series));
    } catch (error) {
      logger.warn({ err: messageOf(error) }, 'telemetry: the metrics could not be collected');
    }
  }

  async #drain(): Promise<void> {
    const { queue, logger } = this.#options;
    if (Date.now() < this.#retryAt) return;
    for (let batch = queue.peek(); batch !== undefined && !this.#stop.signal.aborted; batch = queue.peek()) {
      const outcome = await this.send(batch.body);
      if (outcome.kind === 'sent') {
        queue.remove(batch.seq);
        if (this.#failures > 0)
          logger.info({ endpoint: loggableEndpoint(this.#options.endpoint) }, 'telemetry pushes again');
        this.#failures = 0;
      } else if (outcome.kind === 'rejected') {
        queue.drop(batch.seq, 'rejected');
        logger.warn(
          { endpoint: loggableEndpoint(this.#options.endpoint), status: outcome.status, detail: outcome.detail },
          'telemetry: the receiver refused a batch as bad; it is dropped',
        );
      } else {
        if (this.#stop.signal.aborted) return;
        this.#failures += 1;
        if (this.#failures === 1)
          logger.warn(
            { endpoint: loggableEndpoint(this.#options.endpoint), reason: outcome.reason, queued: queue.batches },
            'telemetry push failed; retrying with backoff (batches wait on disk)',
          );
        const wait = backoffDelay(this.#failures, {
          baseMs: this.#options.retryBaseMs ?? 1_000,
          capMs: this.#options.retryCapMs ?? 300_000,
          jitter: { kind: 'full' },
        });
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

  /** POSTs one compressed WriteRequest and says what came of it (never throws). */
  async send(body: Uint8Array): Promise<SendOutcome> {
    const { timeoutMs, userAgent } = this.#options;
    const headers = this.#headers;
    try {
      const response = await fetch(this.#url, {
        method: 'POST',
        headers: {
          ...REMOTE_WRITE_HEADERS,
          ...(userAgent === undefined ? {} : { 'User-Agent': userAgent }),
          ...headers,
        },
        body,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.#stop.signal]),
      });
      const text = await response.text().catch(() => '');
      if (response.ok) return { kind: 'sent' };
      if (response.status === 429 || response.status >= 500)
        return { kind: 'retry', reason: `HTTP ${response.status}` };
      return { kind: 'rejected', status: response.status, detail: text.slice(0, 300) };
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
