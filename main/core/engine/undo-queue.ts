/**
 * The undo queue's timer: cancels, reversals and voids the API did not take (journaled with
 * their next attempt, see steps/undo.ts) are tried again when the earliest is due, one payment at
 * a time through its lane, skipping those a live run still holds.
 */
import type { PaymentRecord } from '../journal/record.js';
import type { ScheduledTimer } from '../scheduler.js';
import type { EngineContext } from './context.js';

export class UndoQueue {
  readonly #ctx: EngineContext;
  readonly #isRunning: (paymentId: string) => boolean;
  readonly #settle: (record: PaymentRecord) => Promise<PaymentRecord>;
  #timer: ScheduledTimer | undefined;

  constructor(
    ctx: EngineContext,
    isRunning: (paymentId: string) => boolean,
    settle: (record: PaymentRecord) => Promise<PaymentRecord>,
  ) {
    this.#ctx = ctx;
    this.#isRunning = isRunning;
    this.#settle = settle;
  }

  /** One timer for the earliest queued undo. */
  schedule(): void {
    if (this.#ctx.closed()) return;
    this.#timer?.cancel();
    this.#timer = undefined;
    const queued = this.#ctx.journal.pendingUndos().filter((record) => !this.#isRunning(record.id));
    const next = queued
      .map((record) => (record.pendingUndo ? Date.parse(record.pendingUndo.nextAttemptAt) : 0))
      .reduce((earliest, at) => Math.min(earliest, at), Number.POSITIVE_INFINITY);
    if (!Number.isFinite(next)) return;
    const wait = Math.max(0, next - this.#ctx.now().getTime());
    this.#timer = this.#ctx.scheduler.after(wait, () => {
      this.#timer = undefined;
      void this.#flush();
    });
  }

  async #flush(): Promise<void> {
    const now = this.#ctx.now().getTime();
    for (const record of this.#ctx.journal.pendingUndos()) {
      if (this.#ctx.closed()) return;
      if (this.#isRunning(record.id)) continue;
      if (record.pendingUndo && Date.parse(record.pendingUndo.nextAttemptAt) > now) continue;
      await this.#settle(record).catch((error: unknown) =>
        this.#ctx.log.error({ payment: record.id, error: String(error) }, 'queued undo failed'),
      );
    }
    this.schedule();
  }

  close(): void {
    this.#timer?.cancel();
  }
}
