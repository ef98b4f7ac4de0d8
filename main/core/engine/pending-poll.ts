/**
 * The poll for pending transactions created elsewhere (pending-elsewhere.ts), when the settings
 * turn it on (`pendingPollMs`): one timer per attached PINPAD; a tick while it is busy (or still
 * polling) just waits for the next. A failing poll is logged once, and again when it recovers.
 */
import type { PaymentOutcome } from '../outcome.js';
import type { AttachedTerminals, Terminal } from './attached-terminals.js';
import { messageOf } from '../../../lib/errors.js';
import type { EngineContext } from './context.js';

export class PendingPoll {
  readonly #ctx: EngineContext;
  readonly #terminals: AttachedTerminals;
  /** The engine's runPendingFor (through the engine, as a POS's call would). */
  readonly #runPendingFor: (serial: string) => Promise<PaymentOutcome[]>;

  constructor(
    ctx: EngineContext,
    terminals: AttachedTerminals,
    runPendingFor: (serial: string) => Promise<PaymentOutcome[]>,
  ) {
    this.#ctx = ctx;
    this.#terminals = terminals;
    this.#runPendingFor = runPendingFor;
  }

  /** One timer per PINPAD; a tick while it is busy (or still polling) just waits for the next. */
  schedule(terminal: Terminal): void {
    const every = this.#ctx.config.pendingPollMs;
    if (every <= 0 || this.#ctx.closed()) return;
    terminal.poll = this.#ctx.scheduler.after(every, () => {
      terminal.poll = undefined;
      void this.#pollOnce(terminal).finally(() => {
        if (this.#terminals.isAttached(terminal)) this.schedule(terminal);
      });
    });
  }

  async #pollOnce(terminal: Terminal): Promise<void> {
    if (terminal.busy || this.#ctx.closed()) return;
    try {
      await this.#runPendingFor(terminal.serial);
      if (terminal.pollFailing)
        this.#ctx.log.info({ terminal: terminal.serial }, 'pending transactions can be read again');
      terminal.pollFailing = false;
    } catch (error) {
      if (!terminal.pollFailing) {
        this.#ctx.log.warn(
          { terminal: terminal.serial, error: messageOf(error) },
          'cannot read pending transactions; will keep trying',
        );
      }
      terminal.pollFailing = true;
    }
  }

  /** Stops every PINPAD's poll (close). */
  close(): void {
    for (const terminal of this.#terminals.all()) terminal.poll?.cancel();
  }
}
