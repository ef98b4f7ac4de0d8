/**
 * Reconnection delays: exponential from `minDelayMs` up to `maxDelayMs`, with "equal jitter"
 * (half fixed, half random) so POS tabs that lost the agent together do not come back in step,
 * yet never retry sooner than half the nominal delay.
 */
export interface BackoffOptions {
  /** The first delay (default 500 ms). */
  readonly minDelayMs?: number;
  /** The longest delay (default 10 s). */
  readonly maxDelayMs?: number;
}

export const DEFAULT_MIN_DELAY_MS = 500;
export const DEFAULT_MAX_DELAY_MS = 10_000;

export class Backoff {
  readonly #minDelayMs: number;
  readonly #maxDelayMs: number;
  readonly #random: () => number;
  #attempt = 0;

  constructor(options: BackoffOptions = {}, random: () => number = Math.random) {
    this.#minDelayMs = Math.max(0, options.minDelayMs ?? DEFAULT_MIN_DELAY_MS);
    this.#maxDelayMs = Math.max(this.#minDelayMs, options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS);
    this.#random = random;
  }

  /** The delay before the next attempt; each call doubles the nominal delay up to the maximum. */
  next(): number {
    const nominal = Math.min(this.#maxDelayMs, this.#minDelayMs * 2 ** this.#attempt);
    // Capped so a long outage does not overflow 2 ** attempt into Infinity.
    this.#attempt = Math.min(this.#attempt + 1, 30);
    return Math.round(nominal / 2 + (this.#random() * nominal) / 2);
  }

  /** After a successful connection: start from the shortest delay again. */
  reset(): void {
    this.#attempt = 0;
  }
}
