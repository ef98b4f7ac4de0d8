/**
 * The payments running on a PINPAD now, by payment id: each launched as a sale (sale.ts) holding
 * its PINPAD, then handed to the confirmation policy; what a run leaves behind (an undo the API
 * did not take, a payment it could not decide) goes to the undo queue or to recovery.
 */
import { JournalError } from '../journal/journal.js';
import type { PaymentRecord } from '../journal/record.js';
import { outcomeOf, stalledOutcome, type PaymentOutcome } from '../outcome.js';
import type { SaleDevice } from '../ports.js';
import { problem } from '../problems.js';
import { runSale } from '../sale.js';
import { isDecided } from '../states.js';
import type { AttachedTerminals, Terminal } from './attached-terminals.js';
import type { ConfirmationPolicy } from './confirmation-policy.js';
import { messageOf } from '../../../lib/errors.js';
import type { EngineContext } from './context.js';
import { needsRecovery, type Recovery } from './recovery.js';
import type { Run } from './run.js';
import type { UndoQueue } from './undo-queue.js';

/** PINPAD texts when a run stopped before its result (≤ 16 characters a line). */
const STOPPED_TEXT = 'VERIFICANDO\nRESULTADO';

export interface LiveRunsDeps {
  readonly terminals: AttachedTerminals;
  readonly policy: ConfirmationPolicy;
  readonly recovery: Recovery;
  readonly undos: UndoQueue;
}

export class LiveRuns {
  readonly #ctx: EngineContext;
  readonly #deps: LiveRunsDeps;
  readonly #runs = new Map<string, Run>();

  constructor(ctx: EngineContext, deps: LiveRunsDeps) {
    this.#ctx = ctx;
    this.#deps = deps;
  }

  has(paymentId: string): boolean {
    return this.#runs.has(paymentId);
  }

  get(paymentId: string): Run | undefined {
    return this.#runs.get(paymentId);
  }

  /**
   * Runs the journaled payment on the PINPAD `reservation` holds, to its result. A run that stops
   * before deciding its payment (a full disk, a bug) answers `in_progress` (its stalled outcome),
   * never `failed`: the card may be charged, and recovery decides it on its own timer.
   */
  launch(record: PaymentRecord, terminal: Terminal, reservation: Run): Promise<PaymentOutcome> {
    const { terminals, policy, recovery, undos } = this.#deps;
    const { journal, config, log } = this.#ctx;
    const run: Run = { ...reservation, paymentId: record.id, referenceId: record.referenceId };
    terminals.setBusy(terminal, run);
    this.#runs.set(record.id, run);
    // Whether the run left an undo for the queue (unknown after a failure: assume it did).
    let leftUndo = true;
    run.promise = (async () => {
      try {
        const ended = await runSale(
          {
            steps: this.#ctx.steps,
            device: terminal.device,
            installments: config.installments,
            emit: this.#ctx.progress,
          },
          record,
          run,
        );
        await policy.apply(ended);
        const final = journal.get(record.id) ?? ended;
        leftUndo = final.pendingUndo !== null;
        // A run always ends decided; should one ever not, recovery's timer takes it over.
        if (needsRecovery(final)) recovery.markStopped(record.id, problem('INTERRUPTED'));
        log.info(
          {
            payment: record.id,
            reference: record.referenceId,
            terminal: record.terminal,
            state: final.state,
            problem: final.problem?.code ?? null,
          },
          'payment ended',
        );
        return recovery.isStopped(record.id) ? stalledOutcome(final) : outcomeOf(final);
      } catch (error) {
        // A full disk or a bug: the record stays as journaled and recovery, on its own timer,
        // decides it. Until then the POS hears `in_progress`, never `failed`: the card may be charged.
        const full = error instanceof JournalError && error.code === 'DISK_FULL';
        log.error({ payment: record.id, error: messageOf(error) }, 'payment run stopped; recovery will decide it');
        const current = journal.get(record.id) ?? record;
        if (needsRecovery(current)) recovery.markStopped(record.id, problem(full ? 'DISK_FULL' : 'INTERRUPTED'));
        if (!isDecided(current.state)) {
          await stopDevice(terminal.device);
          this.#ctx.progress(current, 'result_pending');
        }
        return stalledOutcome(current);
      } finally {
        this.#runs.delete(record.id);
        if (terminal.busy === run) terminals.setBusy(terminal, undefined);
        // An undo this run could not send is now the queue's (its timer skipped live runs).
        if (leftUndo) undos.schedule();
        if (recovery.isStopped(record.id)) recovery.schedule();
      }
    })();
    return run.promise;
  }

  /** Aborts every run (the engine is closing) and waits for them to end. */
  async abortAll(): Promise<void> {
    const runs = [...this.#runs.values()];
    for (const run of runs) run.abort.abort(new Error('engine closing'));
    await Promise.allSettled(runs.map((run) => run.promise));
  }
}

/** Takes the card back and tells the customer to wait: the cashier's window says the rest. */
async function stopDevice(device: SaleDevice): Promise<void> {
  await device.removeCard('RETIRE O CARTAO').catch(() => undefined);
  await device.showResult(STOPPED_TEXT).catch(() => undefined);
}
