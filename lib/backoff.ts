/**
 * Exponential backoff: the wait before a retry grows by `factor` from `baseMs` up to `capMs`, and
 * may be spread at random so that parties which failed together do not retry together. Pure: the
 * caller counts the attempts and passes the random source (tests pass their own).
 *
 * The tree's retry loops all use it: the payments API client, the TCP transport's reconnection,
 * the PINPAD keeper, the engine's undo queue and recovery timer, the print queue and the
 * sandbox's webhooks. (The `client/` package is published on its own and keeps its own copy.)
 */

/** How the delay is spread at random; the three shapes the tree's retry loops need. */
export type Jitter =
  /** Anywhere in [0, delay) ("full jitter"): the widest spread, for many clients of one server. */
  | { readonly kind: 'full' }
  /** delay × (1 ± ratio), never below 0. */
  | { readonly kind: 'spread'; readonly ratio: number }
  /** delay plus up to delay × ratio: never earlier than the delay itself. */
  | { readonly kind: 'added'; readonly ratio: number };

export interface Backoff {
  /** The wait before the first retry (before jitter). */
  readonly baseMs: number;
  /** The longest wait (before jitter); none by default. */
  readonly capMs?: number;
  /** How much each wait grows over the one before; 2 by default. */
  readonly factor?: number;
  /** No jitter by default: the delay as computed. */
  readonly jitter?: Jitter;
}

/**
 * The wait before retry number `attempt` (1-based: the first waits `baseMs`), in milliseconds and
 * not rounded: min(cap, base × factor^(attempt−1)), then spread by the jitter with `random()`
 * (uniform in [0, 1)), which is only called when there is a jitter.
 */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const { baseMs, capMs = Number.POSITIVE_INFINITY, factor = 2, jitter } = backoff;
  const delay = Math.min(capMs, baseMs * factor ** (attempt - 1));
  switch (jitter?.kind) {
    case undefined:
      return delay;
    case 'full':
      return random() * delay;
    case 'spread':
      return Math.max(0, delay * (1 + jitter.ratio * (2 * random() - 1)));
    case 'added':
      return delay + delay * jitter.ratio * random();
  }
}
