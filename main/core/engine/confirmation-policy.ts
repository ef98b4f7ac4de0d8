/**
 * The confirmation policy of an approval (`awaiting_confirmation`): `auto` confirms at once; `pos`
 * waits for the POS's `confirm`/`undo` and voids the approval once its deadline passes (a timer
 * per payment, through the scheduler).
 */
import type { PaymentProblem, PaymentRecord } from '../journal/record.js';
import { problem } from '../problems.js';
import type { ScheduledTimer } from '../scheduler.js';
import { confirm } from '../steps/completion.js';
import { undo } from '../steps/undo.js';
import type { EngineContext } from './context.js';

export class ConfirmationPolicy {
  readonly #ctx: EngineContext;
  /** The payment's lane outside a run (recovery.ts): a deadline goes through it, never beside it. */
  readonly #settle: (record: PaymentRecord) => Promise<PaymentRecord>;
  readonly #deadlines = new Map<string, ScheduledTimer>();

  constructor(ctx: EngineContext, settle: (record: PaymentRecord) => Promise<PaymentRecord>) {
    this.#ctx = ctx;
    this.#settle = settle;
  }

  /**
   * `awaiting_confirmation`: auto confirms; pos arms the deadline, or — when it has already passed
   * (a restart after it) — voids the approval before anyone can read it as standing.
   */
  async apply(record: PaymentRecord): Promise<void> {
    if (record.state !== 'awaiting_confirmation') return;
    if (record.confirmation === 'auto') {
      confirm(this.#ctx.steps, record, 'confirmed by the auto policy');
      return;
    }
    const wait = this.untilDeadline(record);
    this.clearDeadline(record.id);
    if (wait <= 0) {
      await this.undo(record, problem('NOT_CONFIRMED'));
      return;
    }
    const timer = this.#ctx.scheduler.after(wait, () => {
      this.#deadlines.delete(record.id);
      const current = this.#ctx.journal.get(record.id);
      if (current?.state !== 'awaiting_confirmation' || this.#ctx.closed()) return;
      // Through the per-payment lane, so a confirm racing the deadline cannot undo it twice.
      void this.#settle(current).catch((error: unknown) =>
        this.#ctx.log.error(
          { payment: record.id, error: String(error) },
          'undo after the confirmation deadline failed',
        ),
      );
    });
    this.#deadlines.set(record.id, timer);
  }

  /** Milliseconds left for the POS to confirm (≤ 0: the deadline has passed). */
  untilDeadline(record: PaymentRecord): number {
    const deadline = record.confirmDeadline === null ? 0 : Date.parse(record.confirmDeadline);
    return deadline - this.#ctx.now().getTime();
  }

  clearDeadline(id: string): void {
    this.#deadlines.get(id)?.cancel();
    this.#deadlines.delete(id);
  }

  /** Voids an approval (its deadline no longer counts). `note`: for the void's journal entry. */
  async undo(record: PaymentRecord, why: PaymentProblem, note?: string): Promise<PaymentRecord> {
    this.clearDeadline(record.id);
    return undo(this.#ctx.steps, record, why, note);
  }

  /** Confirms an approval for the POS (its deadline no longer counts). */
  confirmByPos(record: PaymentRecord): PaymentRecord {
    this.clearDeadline(record.id);
    return confirm(this.#ctx.steps, record, 'confirmed by the POS');
  }

  close(): void {
    for (const timer of this.#deadlines.values()) timer.cancel();
    this.#deadlines.clear();
  }
}
