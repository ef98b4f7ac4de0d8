/**
 * The POS's requests on a payment it started, by reference: its status, and cancel, confirm and
 * undo — each answered from the payment's live run when one drives it, otherwise through its lane
 * outside a run (recovery.ts), so a request never races recovery or the deadline.
 */
import { EngineError } from '../errors.js';
import type { PaymentRecord } from '../journal/record.js';
import { outcomeOf, stalledOutcome, statusOf, type PaymentOutcome, type PaymentStatusAnswer } from '../outcome.js';
import { problem } from '../problems.js';
import { RunStopped } from '../sale-problems.js';
import type { ConfirmationPolicy } from './confirmation-policy.js';
import type { EngineContext } from './context.js';
import type { LiveRuns } from './live-runs.js';
import type { Recovery } from './recovery.js';
import type { VoidOptions } from './types.js';

export class PaymentRequests {
  readonly #ctx: EngineContext;
  readonly #runs: LiveRuns;
  readonly #recovery: Recovery;
  readonly #policy: ConfirmationPolicy;

  constructor(ctx: EngineContext, runs: LiveRuns, recovery: Recovery, policy: ConfirmationPolicy) {
    this.#ctx = ctx;
    this.#runs = runs;
    this.#recovery = recovery;
    this.#policy = policy;
  }

  /** NOT_FOUND for a reference no payment has. */
  find(referenceId: string): PaymentRecord {
    const record = this.#ctx.journal.findByReference(referenceId);
    if (!record) throw new EngineError('NOT_FOUND', `No payment with reference ${referenceId}`);
    return record;
  }

  status(referenceId: string): PaymentStatusAnswer {
    const record = this.#ctx.journal.findByReference(referenceId);
    // In progress until its run answers: the journal holds an approval a moment before it is on
    // the disk (its fsync overlaps the card's removal), and no one may hear of it before that.
    if (record && this.#runs.has(record.id)) return { kind: 'in_progress', state: record.state, paymentId: record.id };
    const answer = statusOf(record);
    if (answer.kind !== 'in_progress' || record === undefined || this.#recovery.isSettling(record.id)) return answer;
    return { ...answer, stalled: stalledOutcome(record) };
  }

  async cancel(referenceId: string, options: VoidOptions): Promise<PaymentOutcome> {
    const record = this.find(referenceId);
    const run = this.#runs.get(record.id);
    if (run) {
      const current = this.#ctx.journal.get(record.id) ?? record;
      if (current.state === 'intent' || current.state === 'created' || current.state === 'card_read') {
        run.abort.abort(new RunStopped('CANCELLED_BY_POS', 'cancelled by the POS'));
      } else {
        run.undoRequested = true;
      }
      return run.promise;
    }
    const settled = await this.#recovery.settleOutsideRun(record);
    if (settled.state === 'awaiting_confirmation' || settled.state === 'confirmed') {
      return outcomeOf(await this.#policy.undo(settled, problem('CANCELLED_BY_POS'), options.note));
    }
    return outcomeOf(settled);
  }

  async confirm(referenceId: string): Promise<PaymentOutcome> {
    let record = this.find(referenceId);
    const run = this.#runs.get(record.id);
    if (run) record = this.#ctx.journal.get((await run.promise).paymentId) ?? record;
    if (record.state === 'confirmed') return outcomeOf(record);
    if (record.state !== 'awaiting_confirmation') {
      throw new EngineError('INVALID_STATE', `Payment ${referenceId} cannot be confirmed: it is ${record.state}`);
    }
    if (record.confirmation === 'pos' && this.#policy.untilDeadline(record) <= 0) {
      // Too late: the published policy voids it, whether or not its timer has fired yet.
      await this.#recovery.settleOutsideRun(record);
      throw new EngineError(
        'INVALID_STATE',
        `Payment ${referenceId} cannot be confirmed: its confirmation deadline passed and it was voided`,
      );
    }
    return outcomeOf(this.#policy.confirmByPos(record));
  }

  async undo(referenceId: string, options: VoidOptions): Promise<PaymentOutcome> {
    let record = this.find(referenceId);
    const run = this.#runs.get(record.id);
    if (run) {
      run.undoRequested = true;
      record = this.#ctx.journal.get((await run.promise).paymentId) ?? record;
    }
    if (record.state === 'undone' || record.state === 'undoing') return outcomeOf(record);
    if (record.state !== 'awaiting_confirmation' && record.state !== 'confirmed') {
      throw new EngineError('INVALID_STATE', `Payment ${referenceId} cannot be undone: it is ${record.state}`);
    }
    return outcomeOf(
      await this.#policy.undo(
        record,
        problem(record.state === 'confirmed' ? 'VOIDED_BY_POS' : 'UNDONE_BY_POS'),
        options.note,
      ),
    );
  }
}
