/**
 * Recovery: every payment no run drives is brought to a defined state (at start-up, before each
 * new sale, and on its own backoff timer while one stays undecided), one payment at a time
 * through its lane — the same lane a queued undo and a confirmation deadline take.
 *
 * A payment left undecided (its run stopped on a full disk, recovery could not reach the API) is
 * never reported `failed`: it is `in_progress` until recovery decides it and announces the result.
 */
import { backoffDelay } from '../../../lib/backoff.js';
import type { PaymentProblem, PaymentRecord } from '../journal/record.js';
import { outcomeOf, type PaymentOutcome } from '../outcome.js';
import type { ScheduledTimer } from '../scheduler.js';
import { isDecided, isFinal } from '../states.js';
import { recover } from '../steps/recover.js';
import { messageOf } from '../../../lib/errors.js';
import type { EngineContext } from './context.js';
import type { RecoveryReport } from './types.js';

export interface RecoveryDeps {
  /** The confirmation policy, for an approval recovery leaves waiting (confirmation-policy.ts). */
  readonly applyPolicy: (record: PaymentRecord) => Promise<void>;
  /** Sets the undo queue's timer again (undo-queue.ts). */
  readonly scheduleUndos: () => void;
  /** Whether a live run drives the payment (then it is the run's, not recovery's). */
  readonly isRunning: (paymentId: string) => boolean;
  /** A payment no run was driving got its result: the engine's `result` event. */
  readonly decided: (outcome: PaymentOutcome) => void;
}

/**
 * Undecided, or an approval the `auto` policy could not confirm (the disk filled at that very
 * write): recovery's, not the undo queue's or a deadline's.
 */
export function needsRecovery(record: PaymentRecord): boolean {
  if (record.state === 'awaiting_confirmation') return record.confirmation === 'auto';
  return !isDecided(record.state);
}

export class Recovery {
  readonly #ctx: EngineContext;
  readonly #deps: RecoveryDeps;
  /** Payments being recovered or settled outside a run, by id (one at a time each). */
  readonly #settling = new Map<string, Promise<PaymentRecord>>();
  /** Why a run stopped without deciding its payment (a full disk…): recovery ends it with that. */
  readonly #stopped = new Map<string, PaymentProblem>();
  #timer: ScheduledTimer | undefined;
  /** Recovery attempts scheduled in a row (their backoff): 0 after one that left nothing undecided. */
  #attempts = 0;

  constructor(ctx: EngineContext, deps: RecoveryDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
  }

  /** A run stopped without deciding its payment: recovery ends it with `why`. */
  markStopped(paymentId: string, why: PaymentProblem): void {
    this.#stopped.set(paymentId, why);
  }

  isStopped(paymentId: string): boolean {
    return this.#stopped.has(paymentId);
  }

  /** Whether recovery (or a queued undo) is working on the payment right now. */
  isSettling(paymentId: string): boolean {
    return this.#settling.has(paymentId);
  }

  /**
   * Brings every unfinished payment that no run is driving to a defined state (start-up, and
   * before each new sale), and applies the confirmation policy to waiting approvals.
   */
  async recover(): Promise<RecoveryReport> {
    const unfinished = this.#ctx.journal.unfinished().filter((record) => !this.#deps.isRunning(record.id));
    let settled = 0;
    for (const record of unfinished) {
      try {
        const after = await this.settleOutsideRun(record);
        if (isFinal(after.state) || after.state === 'awaiting_confirmation') settled++;
      } catch (error) {
        // One payment the journal cannot take now (a full disk) does not hold back the others.
        this.#ctx.log.error(
          { payment: record.id, error: messageOf(error) },
          'recovery of a payment failed; will try again',
        );
      }
    }
    this.#deps.scheduleUndos();
    this.schedule();
    return { found: unfinished.length, settled, pending: unfinished.length - settled };
  }

  /** Recovery, waited for at most `ms`: what is not done by then goes on in the background. */
  async recoverWithin(ms: number): Promise<void> {
    let timer: ScheduledTimer | undefined;
    const recovery = this.recover().catch((error: unknown) => {
      this.#ctx.log.error({ error: messageOf(error) }, 'recovery before a sale failed');
    });
    await Promise.race([
      recovery,
      new Promise<void>((resolve) => (timer = this.#ctx.scheduler.after(ms, resolve, { keepAlive: true }))),
    ]);
    timer?.cancel();
  }

  /** Recovery or a queued undo for one payment, never two at once for the same payment. */
  settleOutsideRun(record: PaymentRecord): Promise<PaymentRecord> {
    const inFlight = this.#settling.get(record.id);
    if (inFlight) return inFlight;
    const work = (async () => {
      try {
        const current = this.#ctx.journal.get(record.id) ?? record;
        const after = await recover(this.#ctx.steps, current, this.#stopped.get(record.id));
        await this.#deps.applyPolicy(after);
        const settled = this.#ctx.journal.get(record.id) ?? after;
        if (!needsRecovery(settled)) this.#stopped.delete(record.id);
        // Its POS heard `in_progress` (or nothing): now it hears the result.
        if (!isDecided(current.state) && isDecided(settled.state)) this.#deps.decided(outcomeOf(settled));
        return settled;
      } finally {
        this.#settling.delete(record.id);
      }
    })();
    this.#settling.set(record.id, work);
    return work;
  }

  /**
   * The recovery timer: while any payment no run drives is still undecided, recovery tries again
   * with a backoff (base, doubling to the cap); once none is, the timer stops and the backoff
   * resets. So a payment left undecided by a full disk or an unreachable API ends by itself,
   * within the cap of both coming back, with no next sale or restart needed.
   */
  schedule(): void {
    if (this.#ctx.closed() || this.#timer !== undefined) return;
    let undecided: boolean;
    try {
      undecided = this.#ctx.journal
        .unfinished()
        .some((record) => !this.#deps.isRunning(record.id) && needsRecovery(record));
    } catch (error) {
      // The journal cannot be read: the next recovery (a sale, a restart) tries again.
      this.#ctx.log.error({ error: messageOf(error) }, 'recovery not scheduled: the journal cannot be read');
      return;
    }
    if (!undecided) {
      this.#attempts = 0;
      return;
    }
    const { baseMs, maxMs } = this.#ctx.config.recoveryRetry;
    this.#attempts += 1;
    const delayMs = backoffDelay(this.#attempts, { baseMs, capMs: maxMs });
    this.#timer = this.#ctx.scheduler.after(delayMs, () => {
      this.#timer = undefined;
      void this.recover().catch((error: unknown) => {
        this.#ctx.log.error({ error: messageOf(error) }, 'recovery failed; will try again');
      });
    });
  }

  /** Stops the timer (close). */
  stopTimer(): void {
    this.#timer?.cancel();
  }

  /** Settles once the payments being settled now are. */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.#settling.values()]);
  }
}
