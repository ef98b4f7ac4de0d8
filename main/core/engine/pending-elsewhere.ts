/**
 * Pending PINPAD transactions created elsewhere for this PINPAD run here like any other sale,
 * oldest first, while the PINPAD is free. "Created elsewhere" means meant for this PINPAD by
 * someone other than a Pinbridge sale — the POS back end, through the API — and is known by
 * what the transaction carries: a Pinbridge sale creates its transaction with
 * `metadata.pinbridge_payment_id` (steps/provider-transactions.ts), so one carrying it is some
 * Pinbridge agent's sale and is never run here as a remote one. Each listed transaction is, in
 * order:
 *
 * - this journal's (by transaction id, or by its payment id / reference): left to its run or to
 *   recovery; once that payment has ended, a pending one is an orphan (a creation that reached
 *   the API after the payment gave up on it, a gateway's second creation) and is cancelled;
 * - another agent's Pinbridge sale (another journal on this PINPAD's serial): never run. Left
 *   alone while its agent may still be running it; cancelled as an orphan once it has been seen
 *   pending here for longer than any sale takes (`orphanAfterMs`), since no agent can still
 *   authorize it then;
 * - a remote sale under a reference_id another live transaction at the provider also has (a
 *   charged or pending one: a duplicate, or a Pinbridge sale of the same reference): not run,
 *   said once in the log — a second charge for one sale is not for this agent to make;
 * - otherwise run.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../contract/index.js';
import type { PaymentRecord } from '../journal/record.js';
import { centavos } from '../money.js';
import type { PaymentOutcome } from '../outcome.js';
import type { ProviderTransaction } from '../ports.js';
import { isFinal } from '../states.js';
import { liveOthersWithReference, pinbridgePaymentOf } from '../steps/provider-transactions.js';
import type { AttachedTerminals } from './attached-terminals.js';
import { messageOf } from '../../../lib/errors.js';
import { assertOpen, type EngineContext } from './context.js';
import type { LiveRuns } from './live-runs.js';
import { newRun } from './run.js';

export class PendingElsewhere {
  readonly #ctx: EngineContext;
  readonly #terminals: AttachedTerminals;
  readonly #runs: LiveRuns;
  /**
   * Pending transactions of other agents' sales this engine has seen, by transaction id: when it
   * first saw each (its own clock, so a provider's clock cannot make a live sale look old), and
   * whether the skip was logged. Forgotten once a poll no longer lists them.
   */
  readonly #othersPending = new Map<string, { readonly serial: string; readonly firstSeen: number; logged: boolean }>();

  constructor(ctx: EngineContext, terminals: AttachedTerminals, runs: LiveRuns) {
    this.#ctx = ctx;
    this.#terminals = terminals;
    this.#runs = runs;
  }

  /** Runs the pending transactions created elsewhere for the PINPAD `serial` (see above). */
  async runFor(serial: string): Promise<PaymentOutcome[]> {
    assertOpen(this.#ctx);
    const { journal, payments, config, log } = this.#ctx;
    const terminal = this.#terminals.pick(serial);
    if (terminal.busy) return [];
    const pending = await payments.terminal.pendingTransactions(serial, { timeoutMs: config.apiTimeoutMs });
    this.#forgetOthersPending(serial, pending);
    const outcomes: PaymentOutcome[] = [];
    for (const transaction of pending) {
      if (terminal.busy || this.#ctx.closed()) break;
      if (journal.findByTransactionId(transaction.id)) continue;
      const referenceId = transaction.reference_id ?? `txn:${transaction.id}`;
      const sale = pinbridgePaymentOf(transaction);
      // A Pinbridge sale is this journal's by its payment id; another transaction by its reference.
      const known = sale === undefined ? journal.findByReference(referenceId) : journal.get(sale);
      if (known && isFinal(known.state)) {
        await this.#cancelOrphan(transaction, known.terminal, 'left behind by an ended payment', {
          reference: known.referenceId,
          payment: known.id,
        });
        continue;
      }
      if (known) {
        log.debug(
          { transaction: transaction.id, reference: referenceId, payment: known.id },
          'pending transaction belongs to a payment in progress here; skipped',
        );
        continue;
      }
      if (sale !== undefined) {
        await this.#otherAgentsSale(transaction, serial, sale);
        continue;
      }
      if (await this.#referenceTaken(transaction, serial)) continue;
      const record = this.#remoteIntent(transaction, referenceId, serial);
      const run = newRun(serial, false, record.referenceId);
      this.#terminals.setBusy(terminal, run);
      outcomes.push(await this.#runs.launch(record, terminal, run));
    }
    return outcomes;
  }

  /** Another agent's Pinbridge sale pending on this PINPAD: left to that agent, or cancelled once it cannot be running (runFor). */
  async #otherAgentsSale(transaction: ProviderTransaction, serial: string, sale: string): Promise<void> {
    const now = this.#ctx.scheduler.monotonicMs();
    let seen = this.#othersPending.get(transaction.id);
    if (seen === undefined) {
      seen = { serial, firstSeen: now, logged: false };
      this.#othersPending.set(transaction.id, seen);
    }
    if (now - seen.firstSeen >= this.#ctx.config.orphanAfterMs) {
      await this.#cancelOrphan(transaction, serial, "another agent's sale, pending longer than any sale takes", {
        reference: transaction.reference_id,
        sale,
      });
      return;
    }
    if (!seen.logged) {
      seen.logged = true;
      this.#ctx.log.info(
        { transaction: transaction.id, reference: transaction.reference_id, sale, serial },
        "pending transaction is another Pinbridge agent's sale: not run here",
      );
    }
  }

  /** Whether another live transaction at the provider has this remote sale's reference (then it is not run); logged once. */
  async #referenceTaken(transaction: ProviderTransaction, serial: string): Promise<boolean> {
    let others: readonly ProviderTransaction[];
    try {
      others = await liveOthersWithReference(this.#ctx.steps, transaction);
    } catch (error) {
      // Not known: not run now; the next poll looks again.
      this.#ctx.log.warn(
        { transaction: transaction.id, error: messageOf(error) },
        'could not look up the reference of a pending transaction; not run now',
      );
      return true;
    }
    if (others.length === 0) return false;
    const seen = this.#othersPending.get(transaction.id);
    if (seen?.logged !== true) {
      this.#othersPending.set(transaction.id, {
        serial,
        firstSeen: seen?.firstSeen ?? this.#ctx.scheduler.monotonicMs(),
        logged: true,
      });
      this.#ctx.log.warn(
        {
          transaction: transaction.id,
          reference: transaction.reference_id,
          serial,
          others: others.map((other) => `${other.id} (${other.status})`),
        },
        'pending transaction not run: another live transaction has its reference',
      );
    }
    return true;
  }

  /** Forgets the other agents' transactions a poll of this PINPAD no longer lists (they ended). */
  #forgetOthersPending(serial: string, pending: readonly ProviderTransaction[]): void {
    const listed = new Set(pending.map((transaction) => transaction.id));
    for (const [id, seen] of this.#othersPending) {
      if (seen.serial === serial && !listed.has(id)) this.#othersPending.delete(id);
    }
  }

  /**
   * Cancels a pending transaction no sale will authorize any more (runFor says which): one left
   * behind by a payment that ended without it (its creation reached the API after a crash and
   * after recovery looked for it, or a gateway created it twice), or another agent's sale pending
   * longer than any sale takes. Nothing was charged; it is cancelled so it cannot be paid later by
   * mistake.
   */
  async #cancelOrphan(
    transaction: ProviderTransaction,
    serial: string,
    why: string,
    fields: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.#ctx.payments.terminal.reverse(
        transaction.id,
        { terminal: serial, reason: 'other' },
        { timeoutMs: this.#ctx.config.apiTimeoutMs },
      );
      this.#othersPending.delete(transaction.id);
      this.#ctx.log.warn({ transaction: transaction.id, ...fields }, `cancelled an orphan pending transaction: ${why}`);
    } catch (error) {
      this.#ctx.log.warn(
        { transaction: transaction.id, error: messageOf(error) },
        'could not cancel a left-behind pending transaction; will try at the next poll',
      );
    }
  }

  /** Journals a pending transaction created elsewhere, under a reference no payment has yet. */
  #remoteIntent(transaction: ProviderTransaction, referenceId: string, serial: string): PaymentRecord {
    const paymentType = transaction.payment_type === 'debit' ? 'debit' : 'credit';
    const installments = transaction.installment_plan ? Number(transaction.installment_plan.number_installments) : null;
    return this.#ctx.journal.createIntent({
      referenceId,
      source: 'remote',
      terminal: serial,
      // The provider's amount enters Pinbridge here; one that is not Centavos stops the pick-up.
      amount: centavos(transaction.amount),
      paymentType,
      installments: paymentType === 'credit' ? (installments ?? 1) : null,
      description: transaction.description ?? '',
      notification: transaction.notification,
      paramsHash: createHash('sha256')
        .update(canonicalJson({ transaction: transaction.id }))
        .digest('hex'),
      confirmation: this.#ctx.config.confirmation,
      transactionId: transaction.id,
    });
  }
}
