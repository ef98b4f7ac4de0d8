/**
 * How the engine waits (issue 36): every timer it sets — a POS's confirmation deadline, the undo
 * queue, recovery's backoff, the pending-transaction poll, the PINPAD-message relay, recovery
 * before a sale — goes through this port, with the monotonic clock they are measured on, so a spec
 * drives them by advancing a clock of its own instead of waiting (test/main/core/scheduler.test.ts).
 */

/** A timer set by `Scheduler.after`. */
export interface ScheduledTimer {
  /** Stops it before it runs; nothing once it ran or was cancelled. */
  cancel(): void;
}

export interface Scheduler {
  /**
   * Runs `run` once, `ms` from now (0 for a negative wait; a wait past a timer's range, about 24.8
   * days, is that range: the caller sets the next one when it runs). The timer does not keep the
   * process alive unless `keepAlive` says so.
   */
  after(ms: number, run: () => void, options?: { readonly keepAlive?: boolean }): ScheduledTimer;
  /** Milliseconds on a clock that only goes forward (performance.now for the real one). */
  monotonicMs(): number;
}

/** The longest wait one timer takes (setTimeout's 32-bit range). */
export const MAX_TIMER_MS = 2_147_483_647;

/** The real one: Node's timers and performance.now(). */
export const systemScheduler: Scheduler = {
  after(ms, run, options = {}) {
    const timer = setTimeout(run, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    if (options.keepAlive !== true) timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
  monotonicMs: () => performance.now(),
};
