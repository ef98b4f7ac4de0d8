/**
 * The texts a PINPAD shows during a blocking command, relayed to the POS and the window as the
 * payment's `pinpad_message` steps. A PINPAD may repeat its messages without end (a faulty or
 * hostile one floods them): the same text as the last one relayed is dropped, and past
 * PINPAD_MESSAGES_PER_SECOND a second only the newest text waits for the next second.
 */
import type { ScheduledTimer } from '../scheduler.js';
import type { AttachedTerminals } from './attached-terminals.js';
import type { EngineContext } from './context.js';
import type { Run } from './run.js';

/** At most this many PINPAD messages a second reach the POS for one payment. */
export const PINPAD_MESSAGES_PER_SECOND = 4;

/** The PINPAD messages relayed for one run. */
interface RelayWindow {
  last: string | undefined;
  windowStart: number;
  sent: number;
  /** The newest text held back by the ceiling, sent when the second is over. */
  newest: string | undefined;
  timer: ScheduledTimer | undefined;
}

export class MessageRelay {
  readonly #ctx: EngineContext;
  readonly #terminals: AttachedTerminals;
  /** Each payment run's window; it goes with its run. */
  readonly #windows = new WeakMap<Run, RelayWindow>();

  constructor(ctx: EngineContext, terminals: AttachedTerminals) {
    this.#ctx = ctx;
    this.#terminals = terminals;
  }

  relay(serial: string, text: string): void {
    const run = this.#terminals.get(serial)?.busy;
    if (run === undefined || run.paymentId === '') return;
    let relay = this.#windows.get(run);
    if (relay === undefined) {
      relay = { last: undefined, windowStart: 0, sent: 0, newest: undefined, timer: undefined };
      this.#windows.set(run, relay);
    }
    if (text === relay.last) {
      relay.newest = undefined;
      return;
    }
    const now = this.#ctx.scheduler.monotonicMs();
    if (now - relay.windowStart >= 1_000) {
      relay.windowStart = now;
      relay.sent = 0;
    }
    if (relay.sent >= PINPAD_MESSAGES_PER_SECOND) {
      relay.newest = text;
      const held = relay;
      held.timer ??= this.#ctx.scheduler.after(Math.max(1, 1_000 - (now - held.windowStart)), () => {
        held.timer = undefined;
        const newest = held.newest;
        held.newest = undefined;
        if (newest !== undefined && this.#terminals.get(serial)?.busy === run) this.relay(serial, newest);
      });
      return;
    }
    relay.sent++;
    relay.last = text;
    const record = this.#ctx.journal.get(run.paymentId);
    if (record) this.#ctx.progress(record, 'pinpad_message', text);
  }
}
