/**
 * A token bucket per client: `capacity` tokens, refilled at `refillPerSecond`. Each method costs
 * its `cost` (methods.ts): reads 1, PINPAD and money operations more. A call over budget is
 * answered RATE_LIMITED with how long to wait — the connection stays open, so a POS that burst
 * too hard recovers by itself, and a hostile flood only ever gets cheap refusals.
 */
export interface RateLimitOptions {
  readonly capacity: number;
  readonly refillPerSecond: number;
  /** Clock in ms (tests move it). */
  readonly now?: () => number;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { capacity: 200, refillPerSecond: 100 };

export class TokenBucket {
  readonly #capacity: number;
  readonly #refillPerMs: number;
  readonly #now: () => number;
  #tokens: number;
  #at: number;

  constructor(options: RateLimitOptions) {
    this.#capacity = options.capacity;
    this.#refillPerMs = options.refillPerSecond / 1000;
    this.#now = options.now ?? (() => performance.now());
    this.#tokens = options.capacity;
    this.#at = this.#now();
  }

  /** Takes `cost` tokens; returns 0 when allowed, else the ms to wait before it would be. */
  take(cost: number): number {
    const now = this.#now();
    this.#tokens = Math.min(this.#capacity, this.#tokens + (now - this.#at) * this.#refillPerMs);
    this.#at = now;
    if (this.#tokens >= cost) {
      this.#tokens -= cost;
      return 0;
    }
    return Math.ceil((cost - this.#tokens) / this.#refillPerMs);
  }
}
