/**
 * Whether the payments API is reachable, from the answers the client gets anyway (no polling of
 * its own): any HTTP answer below 500 means the service is there — even a 404 or a refused
 * request — while no answer, a timeout or a 5xx means it is not. A change emits `change`, so the
 * POS and the cashier's window hear "API down" once, not once per call.
 */
import { EventEmitter } from 'node:events';
import type { AttemptReport } from './http.js';

export type ApiHealthState = 'up' | 'down' | 'unknown';

export interface ApiHealthSnapshot {
  readonly state: ApiHealthState;
  /** ISO time of the last change; null while unknown. */
  readonly since: string | null;
  readonly lastError: { readonly code: string; readonly message: string } | null;
  /** The last attempt's duration in ms (null before any). */
  readonly lastDurationMs: number | null;
}

export interface ApiHealthEvents {
  change: [snapshot: ApiHealthSnapshot];
}

/**
 * A timeout of an attempt given less than this is no verdict on the service: a caller that
 * waits for something with a deadline (a tap-to-pay watch) polls once more with what is left of
 * it — a millisecond, say — and a healthy API cannot answer that fast.
 */
export const MIN_JUDGED_TIMEOUT_MS = 1_000;

export class ApiHealthMonitor extends EventEmitter<ApiHealthEvents> {
  #state: ApiHealthState = 'unknown';
  #since: string | null = null;
  #lastError: ApiHealthSnapshot['lastError'] = null;
  #lastDurationMs: number | null = null;
  readonly #now: () => Date;

  constructor(options: { now?: () => Date } = {}) {
    super();
    this.#now = options.now ?? (() => new Date());
  }

  /** Pass as the client's `onAttempt`. */
  readonly record = (attempt: AttemptReport): void => {
    const reachable = attempt.status !== null && attempt.status < 500;
    if (!reachable && attempt.code === 'timeout' && attempt.timeoutMs < MIN_JUDGED_TIMEOUT_MS) return;
    this.#lastDurationMs = attempt.durationMs;
    if (!reachable) this.#lastError = { code: attempt.code ?? 'unknown', message: attempt.message ?? 'no answer' };
    const state: ApiHealthState = reachable ? 'up' : 'down';
    if (state === this.#state) return;
    this.#state = state;
    this.#since = this.#now().toISOString();
    this.emit('change', this.snapshot());
  };

  snapshot(): ApiHealthSnapshot {
    return { state: this.#state, since: this.#since, lastError: this.#lastError, lastDurationMs: this.#lastDurationMs };
  }
}
