/**
 * A Scheduler (main/core/scheduler.ts) whose time moves only when a spec says: `advance(ms)` runs
 * every timer that falls due on the way, in order, letting the promises each one starts settle
 * before the next. `date()` is the wall clock on the same time line, for the engine's `now`.
 */
import type { ScheduledTimer, Scheduler } from '../../main/core/scheduler.js';

interface Entry {
  readonly at: number;
  readonly order: number;
  readonly run: () => void;
  cancelled: boolean;
}

/** Lets pending promise callbacks and I/O callbacks queued so far run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class FakeScheduler implements Scheduler {
  #now = 0;
  #order = 0;
  readonly #entries: Entry[] = [];
  readonly #epoch: number;

  constructor(epoch = Date.parse('2026-11-29T15:00:00.000Z')) {
    this.#epoch = epoch;
  }

  after(ms: number, run: () => void): ScheduledTimer {
    const entry: Entry = { at: this.#now + Math.max(0, ms), order: this.#order++, run, cancelled: false };
    this.#entries.push(entry);
    return { cancel: () => (entry.cancelled = true) };
  }

  monotonicMs(): number {
    return this.#now;
  }

  /** The wall clock on this time line. */
  readonly date = (): Date => new Date(this.#epoch + this.#now);

  /** The waits set and not yet run or cancelled, in ms from now, soonest first. */
  pending(): number[] {
    return this.#live()
      .map((entry) => entry.at - this.#now)
      .sort((a, b) => a - b);
  }

  /** Moves time `ms` forward, running each timer due on the way at its own time. */
  async advance(ms: number): Promise<void> {
    const until = this.#now + ms;
    await settle();
    for (;;) {
      const next = this.#live()
        .filter((entry) => entry.at <= until)
        .sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (next === undefined) break;
      this.#now = next.at;
      next.cancelled = true;
      next.run();
      await settle();
    }
    this.#now = until;
    await settle();
  }

  #live(): Entry[] {
    return this.#entries.filter((entry) => !entry.cancelled);
  }
}
