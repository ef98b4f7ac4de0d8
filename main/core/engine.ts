/**
 * The payment engine: PINPAD payments, exactly once. It owns the journal, the attached PINPADs
 * (one operation each at a time, several in parallel, routed by serial number) and the undo
 * queue, and answers the POS's operations: start (idempotent by reference_id), cancel, status,
 * confirm, undo, list. It knows nothing of WebSockets, HTTP servers or Electron.
 *
 * Guarantees (architecture §6):
 * - every step is journaled before its side effect; after a crash `recover()` finishes or undoes
 *   what was in flight, and `status` tells the truth from the journal;
 * - a lost authorization answer is resolved against the API, never by authorizing again;
 * - cancels, reversals and voids the API did not take are queued and retried (visible in
 *   `pendingUndos()` and as `undo_pending` progress events), at start-up, before each new sale
 *   and on a backoff timer;
 * - a payment left undecided (its run stopped on a full disk, recovery could not reach the API)
 *   is never reported `failed`: it is `in_progress` until recovery, on its own backoff timer,
 *   decides it and announces the result (`result` event);
 * - no sale starts without room on the journal's disk (DISK_FULL), and the journal keeps a
 *   reserve for the steps of the payments in flight;
 * - an approval follows the confirmation policy: `auto` confirms at once; `pos` waits for
 *   `confirm`/`undo` and voids it after the deadline.
 *
 * This class is the facade: each concern is a module of engine/ — the attached PINPADs
 * (attached-terminals.ts), the live runs (live-runs.ts), an idempotent start (start.ts), the
 * POS's requests on a payment (payment-requests.ts), the confirmation policy
 * (confirmation-policy.ts), the undo queue (undo-queue.ts), recovery (recovery.ts), pending
 * transactions created elsewhere and their poll (pending-elsewhere.ts, pending-poll.ts), the
 * PINPAD-message relay (message-relay.ts) and the progress events (progress.ts).
 */
import { EventEmitter } from 'node:events';
import type { Journal } from './journal/journal.js';
import type { ListQuery, PaymentRecord } from './journal/record.js';
import { outcomeOf, type PaymentOutcome, type PaymentStatusAnswer } from './outcome.js';
import { silentEngineLogger, type SaleDevice } from './ports.js';
import type { SaleRequest } from './sale-request.js';
import { systemScheduler } from './scheduler.js';
import { AttachedTerminals } from './engine/attached-terminals.js';
import { DEFAULT_ENGINE_CONFIG, type EngineConfig } from './engine/config.js';
import { ConfirmationPolicy } from './engine/confirmation-policy.js';
import { assertOpen, type EngineContext } from './engine/context.js';
import { LiveRuns } from './engine/live-runs.js';
import { MessageRelay } from './engine/message-relay.js';
import { PaymentRequests } from './engine/payment-requests.js';
import { PendingElsewhere } from './engine/pending-elsewhere.js';
import { PendingPoll } from './engine/pending-poll.js';
import { progressAnnouncer } from './engine/progress.js';
import { Recovery } from './engine/recovery.js';
import { startPayment } from './engine/start.js';
import type {
  EngineEvents,
  PaymentEngineOptions,
  RecoveryReport,
  StartOptions,
  TerminalState,
  VoidOptions,
} from './engine/types.js';
import { UndoQueue } from './engine/undo-queue.js';

export { DEFAULT_ENGINE_CONFIG, type EngineConfig } from './engine/config.js';
export { PINPAD_MESSAGES_PER_SECOND } from './engine/message-relay.js';
export type {
  EngineEvents,
  PaymentEngineOptions,
  RecoveryReport,
  StartOptions,
  TerminalState,
  VoidOptions,
} from './engine/types.js';

export class PaymentEngine extends EventEmitter<EngineEvents> {
  readonly journal: Journal;
  readonly config: EngineConfig;
  readonly #ctx: EngineContext;
  readonly #terminals: AttachedTerminals;
  readonly #runs: LiveRuns;
  readonly #policy: ConfirmationPolicy;
  readonly #undos: UndoQueue;
  readonly #recovery: Recovery;
  readonly #requests: PaymentRequests;
  readonly #pendingElsewhere: PendingElsewhere;
  readonly #poll: PendingPoll;
  readonly #messages: MessageRelay;
  #closed = false;

  constructor(options: PaymentEngineOptions) {
    super();
    this.journal = options.journal;
    this.config = { ...DEFAULT_ENGINE_CONFIG, ...options.config };
    const log = options.logger ?? silentEngineLogger;
    const now = options.now ?? (() => new Date());
    const scheduler = options.scheduler ?? systemScheduler;
    const progress = progressAnnouncer(log, now, (event) => this.emit('progress', event));
    this.#ctx = {
      journal: this.journal,
      config: this.config,
      payments: options.payments,
      steps: {
        journal: this.journal,
        payments: options.payments,
        sellerId: options.sellerId,
        config: this.config,
        logger: log,
        now,
        scheduler,
        emit: progress,
        undoQueued: () => this.#undos.schedule(),
      },
      log,
      now,
      scheduler,
      closed: () => this.#closed,
      progress,
    };
    const settle = (record: PaymentRecord): Promise<PaymentRecord> => this.#recovery.settleOutsideRun(record);
    const isRunning = (paymentId: string): boolean => this.#runs.has(paymentId);
    this.#terminals = new AttachedTerminals((state) => this.emit('terminal', state));
    this.#policy = new ConfirmationPolicy(this.#ctx, settle);
    this.#undos = new UndoQueue(this.#ctx, isRunning, settle);
    this.#recovery = new Recovery(this.#ctx, {
      applyPolicy: (record) => this.#policy.apply(record),
      scheduleUndos: () => this.#undos.schedule(),
      isRunning,
      decided: (outcome) => this.emit('result', outcome),
    });
    this.#runs = new LiveRuns(this.#ctx, {
      terminals: this.#terminals,
      policy: this.#policy,
      recovery: this.#recovery,
      undos: this.#undos,
    });
    this.#requests = new PaymentRequests(this.#ctx, this.#runs, this.#recovery, this.#policy);
    this.#pendingElsewhere = new PendingElsewhere(this.#ctx, this.#terminals, this.#runs);
    this.#poll = new PendingPoll(this.#ctx, this.#terminals, (serial) => this.runPendingFor(serial));
    this.#messages = new MessageRelay(this.#ctx, this.#terminals);
  }

  // ------------------------------------------------------------------------------------------
  // PINPADs

  /** Makes a PINPAD available for sales under its serial number (the transaction's `terminal`). */
  attachTerminal(serial: string, device: SaleDevice): void {
    this.#poll.schedule(this.#terminals.attach(serial, device));
  }

  detachTerminal(serial: string): void {
    this.#terminals.detach(serial);
  }

  terminals(): TerminalState[] {
    return this.#terminals.states();
  }

  /** One attached PINPAD's state; undefined when none is attached under `serial`. */
  terminal(serial: string): TerminalState | undefined {
    return this.#terminals.state(serial);
  }

  /**
   * Runs an operation that is not a payment on a PINPAD (a message, a key, a CPF for the POS),
   * holding it as a payment would: a payment or another operation meanwhile gets BUSY — except
   * that a payment's start waits out a `brief` one (a message: one display command) rather than
   * be refused because the agent was redrawing the idle screen. The operation gets an
   * AbortSignal, fired by `abortOperation` or when the PINPAD is detached — and, for a brief one
   * that `yieldsToPayment` (a Pix QR's media load), by a payment's start, which then waits for it.
   */
  async withTerminal<T>(
    serial: string | undefined,
    operation: (serial: string, signal: AbortSignal) => Promise<T>,
    options: { readonly brief?: boolean; readonly yieldsToPayment?: boolean } = {},
  ): Promise<T> {
    assertOpen(this.#ctx);
    return this.#terminals.hold(serial, operation, options);
  }

  /** Aborts the operation `withTerminal` runs on a PINPAD; never a payment (that is `cancel`). */
  abortOperation(serial: string | undefined): boolean {
    return this.#terminals.abortOperation(serial);
  }

  /**
   * The text a PINPAD shows during a blocking command, relayed to the POS and the window. A PINPAD
   * may repeat its messages without end (a faulty or hostile one floods them): the same text as
   * the last one relayed is dropped, and past PINPAD_MESSAGES_PER_SECOND a second only the newest
   * text waits for the next second.
   */
  relayPinpadMessage(serial: string, text: string): void {
    this.#messages.relay(serial, text);
  }

  // ------------------------------------------------------------------------------------------
  // Operations

  /**
   * Runs a payment to its result. The same reference with the same parameters returns the same
   * payment (the running one, or its stored result); with other parameters it is REFERENCE_CONFLICT.
   * The request comes checked (main/pos/server/wire-adapter.ts builds it from payment.start's);
   * the engine checks only the store's installment rules.
   */
  async start(request: SaleRequest, options: StartOptions = {}): Promise<PaymentOutcome> {
    return startPayment(
      this.#ctx,
      { terminals: this.#terminals, runs: this.#runs, recovery: this.#recovery },
      request,
      options,
    );
  }

  /** Who started the payment with this reference (null: no POS client); undefined when there is none. */
  ownerOf(referenceId: string): string | null | undefined {
    return this.journal.findByReference(referenceId)?.owner;
  }

  /**
   * Processed (with the result) / InProgress / NotFound, from the journal. An undecided payment
   * that nothing drives right now (recovery waits for its next attempt) carries its
   * `stalled` outcome, so a POS waiting on it can stop waiting and tell the cashier.
   */
  status(referenceId: string): PaymentStatusAnswer {
    return this.#requests.status(referenceId);
  }

  /**
   * Cancels: before the card is read (or while the PIN is typed) the PINPAD command is aborted
   * (CAN) and the pending transaction cancelled; once the authorization went out it becomes a
   * void of the approval. A payment already ended without a sale is returned as it is.
   */
  async cancel(referenceId: string, options: VoidOptions = {}): Promise<PaymentOutcome> {
    return this.#requests.cancel(referenceId, options);
  }

  /** Confirms an approval (`pos` policy). Confirming a confirmed sale is harmless. */
  async confirm(referenceId: string): Promise<PaymentOutcome> {
    return this.#requests.confirm(referenceId);
  }

  /**
   * Undoes an approval: a confirmed sale is voided (VOIDED_BY_POS, "cancelada"), one still waiting
   * for confirmation is undone (UNDONE_BY_POS, "desfeita": TEF's desfazimento). Undoing an undone
   * sale is harmless. `note` goes into the journal entry of the void (who authorized it).
   */
  async undo(referenceId: string, options: VoidOptions = {}): Promise<PaymentOutcome> {
    return this.#requests.undo(referenceId, options);
  }

  /**
   * Adds a line to a payment's journal history without moving it (an attempt that did not go
   * through, e.g. a void refused for a wrong supervisor PIN). NOT_FOUND for an unknown reference.
   */
  note(referenceId: string, text: string): void {
    this.journal.annotate(this.#requests.find(referenceId).id, text);
  }

  list(query: ListQuery = {}): { items: PaymentOutcome[]; total: number } {
    const { items, total } = this.journal.list(query);
    return { items: items.map(outcomeOf), total };
  }

  /** Approvals waiting for the POS, and undos waiting for the API: what a technician looks at. */
  pending(): { confirmations: PaymentOutcome[]; undos: PaymentOutcome[] } {
    return {
      confirmations: this.journal.pendingConfirmations().map(outcomeOf),
      undos: this.journal.pendingUndos().map(outcomeOf),
    };
  }

  /**
   * Brings every unfinished payment that no run is driving to a defined state (start-up, and
   * before each new sale), and applies the confirmation policy to waiting approvals.
   */
  async recover(): Promise<RecoveryReport> {
    return this.#recovery.recover();
  }

  /**
   * Pending PINPAD transactions created elsewhere for this PINPAD run here like any other sale,
   * oldest first, while the PINPAD is free; other Pinbridge agents' sales, orphans and duplicate
   * references are not (engine/pending-elsewhere.ts says which is which).
   */
  async runPendingFor(serial: string): Promise<PaymentOutcome[]> {
    return this.#pendingElsewhere.runFor(serial);
  }

  /** Stops timers and aborts live PINPAD steps; the journal stays open (its owner closes it). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#undos.close();
    this.#recovery.stopTimer();
    this.#poll.close();
    this.#policy.close();
    await this.#runs.abortAll();
    await this.#recovery.drain();
  }
}
