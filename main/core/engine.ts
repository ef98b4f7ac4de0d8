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
 */
import { EventEmitter } from 'node:events';
import { backoffDelay } from '../../lib/backoff.js';
import { canonicalJson } from '../contract/index.js';
import { EngineError } from './errors.js';
import {
  PROGRESS_STEPS,
  UNCONFIRMED_UNDO_TEXTS,
  UNDONE_BEFORE_CONFIRMATION_CODES,
  type PaymentProgress,
  type ProgressStep,
  type StepText,
} from './events.js';
import { JournalError, type Journal } from './journal/journal.js';
import type { ConfirmationPolicy, ListQuery, PaymentProblem, PaymentRecord } from './journal/record.js';
import { outcomeOf, stalledOutcome, statusOf, type PaymentOutcome, type PaymentStatusAnswer } from './outcome.js';
import { paramsHash } from './params-hash.js';
import { startViolations, type InstallmentRules, type StartParams } from './params.js';
import {
  silentEngineLogger,
  type EngineLogger,
  type PaymentsPort,
  type ProviderTransaction,
  type SaleDevice,
} from './ports.js';
import { problem } from './problems.js';
import { RunStopped, runSale, type LiveRun } from './sale.js';
import { PaymentSteps, pinbridgePaymentOf, type StepsConfig } from './steps.js';
import { isDecided, isFinal } from './states.js';
import { onlyTerminal } from './terminals.js';
import { systemScheduler, type Scheduler, type ScheduledTimer } from './scheduler.js';
import { createHash } from 'node:crypto';

export interface EngineConfig extends StepsConfig {
  readonly confirmation: ConfirmationPolicy;
  readonly installments: InstallmentRules;
  /**
   * How often each idle PINPAD asks the API for pending transactions created elsewhere; 0 leaves
   * it to explicit `runPendingFor` calls (the agent's settings turn it on, see settings.ts).
   */
  readonly pendingPollMs: number;
  /**
   * How often recovery tries again a payment it could not decide (the API unreachable, the disk
   * full): from `baseMs`, doubling to `maxMs`. The cap bounds how long a payment stays undecided
   * once the API and the disk are back.
   */
  readonly recoveryRetry: { readonly baseMs: number; readonly maxMs: number };
  /**
   * How long a pending transaction of another Pinbridge agent's sale (another journal: a second
   * PC on the same PINPAD, a reinstall, `pay --journal`) must have been seen pending here before
   * this agent cancels it as an orphan (see runPendingFor). Longer than any sale holds its
   * transaction pending: under the settings' largest limits the card (10 min, twice for a
   * contactless card presented again), the PIN (10 min) and the authorization's deadline (2 min)
   * come to under 35 minutes.
   */
  readonly orphanAfterMs: number;
}

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  confirmation: 'auto',
  confirmationDeadlineMs: 10 * 60_000,
  installments: { max: 12, minInstallmentAmount: 500 },
  apiTimeoutMs: 20_000,
  unknownResolution: { attempts: 3, delayMs: 1_000 },
  undoRetry: { baseMs: 2_000, maxMs: 5 * 60_000 },
  pendingPollMs: 0,
  recoveryRetry: { baseMs: 1_000, maxMs: 30_000 },
  orphanAfterMs: 60 * 60_000,
};

export interface PaymentEngineOptions {
  readonly journal: Journal;
  readonly payments: PaymentsPort;
  /** The seller the sales are made for (`on_behalf_of`). */
  readonly sellerId: string;
  readonly config?: Partial<EngineConfig>;
  readonly logger?: EngineLogger;
  readonly now?: () => Date;
  /** Its timers and the monotonic clock they are measured on (default: Node's). */
  readonly scheduler?: Scheduler;
}

/** A PINPAD as the engine holds it: whether something runs on it, and which payment. */
export interface TerminalState {
  readonly serial: string;
  readonly busy: boolean;
  /** The payment it runs; null when free or busy with another operation (a message, a key…). */
  readonly payment: { readonly id: string; readonly referenceId: string } | null;
}

export interface EngineEvents {
  progress: [event: PaymentProgress];
  /** A PINPAD became busy or free. */
  terminal: [state: TerminalState];
  /**
   * A payment no run was driving got its result (recovery decided it): the answer its POS did
   * not get from `start` — that one said `in_progress`, or the POS was away.
   */
  result: [outcome: PaymentOutcome];
}

export interface StartOptions {
  /** Who starts it (the POS client's id), kept with the payment: see PaymentRecord.owner. */
  readonly owner?: string;
}

/** What a void (undo, or a cancel that becomes one) carries beside the reference. */
export interface VoidOptions {
  /** A line for the void's journal entry, e.g. who authorized it ("authorized by the supervisor (…)"). */
  readonly note?: string;
}

export interface RecoveryReport {
  /** Unfinished payments found. */
  readonly found: number;
  /** Of those, how many reached a final state (or a confirmed/awaiting one). */
  readonly settled: number;
  /** Still waiting for the API (queued undos, lookups that failed). */
  readonly pending: number;
}

interface Terminal {
  readonly serial: string;
  readonly device: SaleDevice;
  busy: Run | undefined;
  /** The next poll for pending transactions, when polling is on. */
  poll: ScheduledTimer | undefined;
  /** The last poll failed (logged once, not at every tick). */
  pollFailing: boolean;
}

/** The PINPAD messages relayed for one run (see relayPinpadMessage). */
interface MessageRelay {
  last: string | undefined;
  windowStart: number;
  sent: number;
  /** The newest text held back by the ceiling, sent when the second is over. */
  newest: string | undefined;
  timer: ScheduledTimer | undefined;
}

/** At most this many PINPAD messages a second reach the POS for one payment. */
export const PINPAD_MESSAGES_PER_SECOND = 4;

interface Run extends LiveRun {
  /** '' while the PINPAD is only reserved (before the intent is journaled, or for another operation). */
  readonly paymentId: string;
  /** The payment's reference_id from its start on; '' for another operation. */
  readonly referenceId: string;
  readonly terminal: string;
  readonly abort: AbortController;
  promise: Promise<PaymentOutcome>;
  messages?: MessageRelay;
}

/** A PINPAD reservation; `#launch` names the payment and sets the promise. */
/**
 * BUSY, naming what holds the PINPAD the way a POS knows it: the payment's reference_id (never
 * the journal's internal id), or another operation (a message, a key, a customer prompt).
 */
function busyError(serial: string, run: Run): EngineError {
  if (run.referenceId === '') {
    return new EngineError(
      'BUSY',
      `PINPAD ${serial} is busy with another operation (a message, a key or data the customer types)`,
    );
  }
  return new EngineError('BUSY', `PINPAD ${serial} is busy with the payment of reference_id "${run.referenceId}"`, {
    busyWith: run.referenceId,
  });
}

/** `referenceId`: the payment's, known from its start (before the intent is journaled); '' for another operation. */
function newRun(terminal: string, askTaxId: boolean, referenceId = ''): Run {
  const abort = new AbortController();
  return {
    paymentId: '',
    referenceId,
    terminal,
    abort,
    signal: abort.signal,
    undoRequested: false,
    askTaxId,
    promise: Promise.resolve(undefined as unknown as PaymentOutcome),
  };
}

export class PaymentEngine extends EventEmitter<EngineEvents> {
  readonly journal: Journal;
  readonly config: EngineConfig;
  readonly #payments: PaymentsPort;
  readonly #steps: PaymentSteps;
  readonly #log: EngineLogger;
  readonly #now: () => Date;
  readonly #scheduler: Scheduler;
  /**
   * The attached PINPADs: the one record of which PINPADs are connected and can sell. The
   * PinpadRegistry describes them (model, address, tables) and reads "connected" from here rather
   * than keeping its own set. The set lives here, not behind a port the registry implements,
   * because the engine must act at the moment one comes or goes (a poll timer, aborting the run
   * on it), the registry is built on the engine (it holds PINPADs through `withTerminal`), and
   * the engine's specs, the bench and the crash agent attach with no registry at all.
   */
  readonly #terminals = new Map<string, Terminal>();
  /** Live runs by payment id. */
  readonly #runs = new Map<string, Run>();
  /** Payments being recovered or settled outside a run, by id (one at a time each). */
  readonly #settling = new Map<string, Promise<PaymentRecord>>();
  readonly #deadlines = new Map<string, ScheduledTimer>();
  /** Why a run stopped without deciding its payment (a full disk…): recovery ends it with that. */
  readonly #stopped = new Map<string, PaymentProblem>();
  /**
   * Pending transactions of other agents' sales this engine has seen, by transaction id: when it
   * first saw each (its own clock, so a provider's clock cannot make a live sale look old), and
   * whether the skip was logged. Forgotten once a poll no longer lists them.
   */
  readonly #othersPending = new Map<string, { readonly serial: string; readonly firstSeen: number; logged: boolean }>();
  #undoTimer: ScheduledTimer | undefined;
  #recoveryTimer: ScheduledTimer | undefined;
  /** Recovery attempts scheduled in a row (their backoff): 0 after one that left nothing undecided. */
  #recoveryAttempts = 0;
  #closed = false;

  constructor(options: PaymentEngineOptions) {
    super();
    this.journal = options.journal;
    this.config = { ...DEFAULT_ENGINE_CONFIG, ...options.config };
    this.#payments = options.payments;
    this.#log = options.logger ?? silentEngineLogger;
    this.#now = options.now ?? (() => new Date());
    this.#scheduler = options.scheduler ?? systemScheduler;
    this.#steps = new PaymentSteps({
      journal: this.journal,
      payments: options.payments,
      sellerId: options.sellerId,
      config: this.config,
      logger: this.#log,
      now: this.#now,
      scheduler: this.#scheduler,
      emit: (record, step, text) => this.#emit(record, step, text),
      undoQueued: () => this.#scheduleUndos(),
    });
  }

  // ------------------------------------------------------------------------------------------
  // PINPADs

  /** Makes a PINPAD available for sales under its serial number (the transaction's `terminal`). */
  attachTerminal(serial: string, device: SaleDevice): void {
    const existing = this.#terminals.get(serial);
    if (existing?.busy)
      throw new EngineError('BUSY', `PINPAD ${serial} is running a payment; it cannot be replaced now`);
    existing?.poll?.cancel();
    const terminal: Terminal = { serial, device, busy: undefined, poll: undefined, pollFailing: false };
    this.#terminals.set(serial, terminal);
    this.#schedulePoll(terminal);
  }

  detachTerminal(serial: string): void {
    const terminal = this.#terminals.get(serial);
    terminal?.poll?.cancel();
    terminal?.busy?.abort.abort(new RunStopped('PINPAD_DISCONNECTED', 'PINPAD detached'));
    this.#terminals.delete(serial);
  }

  terminals(): TerminalState[] {
    return [...this.#terminals.values()].map((t) => this.#terminalState(t));
  }

  /** One attached PINPAD's state; undefined when none is attached under `serial`. */
  terminal(serial: string): TerminalState | undefined {
    const terminal = this.#terminals.get(serial);
    return terminal && this.#terminalState(terminal);
  }

  /**
   * Runs an operation that is not a payment on a PINPAD (a message, a key, a CPF for the POS),
   * holding it as a payment would: a payment or another operation meanwhile gets BUSY. The
   * operation gets an AbortSignal, fired by `abortOperation` or when the PINPAD is detached.
   */
  async withTerminal<T>(
    serial: string | undefined,
    operation: (serial: string, signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    this.#assertOpen();
    const terminal = this.#pickTerminal(serial);
    if (terminal.busy) throw busyError(terminal.serial, terminal.busy);
    const reservation = newRun(terminal.serial, false);
    this.#setBusy(terminal, reservation);
    try {
      return await operation(terminal.serial, reservation.signal);
    } finally {
      if (terminal.busy === reservation) this.#setBusy(terminal, undefined);
    }
  }

  /** Aborts the operation `withTerminal` runs on a PINPAD; never a payment (that is `cancel`). */
  abortOperation(serial: string | undefined): boolean {
    const terminal = this.#pickTerminal(serial);
    const run = terminal.busy;
    // A payment (journaled, or only reserved by its start) is cancel's, not this.
    if (run === undefined || run.paymentId !== '' || run.referenceId !== '') return false;
    run.abort.abort(new Error('aborted by the POS'));
    return true;
  }

  /**
   * The text a PINPAD shows during a blocking command, relayed to the POS and the window. A PINPAD
   * may repeat its messages without end (a faulty or hostile one floods them): the same text as
   * the last one relayed is dropped, and past PINPAD_MESSAGES_PER_SECOND a second only the newest
   * text waits for the next second.
   */
  relayPinpadMessage(serial: string, text: string): void {
    const run = this.#terminals.get(serial)?.busy;
    if (run === undefined || run.paymentId === '') return;
    const relay = (run.messages ??= { last: undefined, windowStart: 0, sent: 0, newest: undefined, timer: undefined });
    if (text === relay.last) {
      relay.newest = undefined;
      return;
    }
    const now = this.#scheduler.monotonicMs();
    if (now - relay.windowStart >= 1_000) {
      relay.windowStart = now;
      relay.sent = 0;
    }
    if (relay.sent >= PINPAD_MESSAGES_PER_SECOND) {
      relay.newest = text;
      relay.timer ??= this.#scheduler.after(Math.max(1, 1_000 - (now - relay.windowStart)), () => {
        relay.timer = undefined;
        const newest = relay.newest;
        relay.newest = undefined;
        if (newest !== undefined && this.#terminals.get(serial)?.busy === run) this.relayPinpadMessage(serial, newest);
      });
      return;
    }
    relay.sent++;
    relay.last = text;
    const record = this.journal.get(run.paymentId);
    if (record) this.#emit(record, 'pinpad_message', text);
  }

  // ------------------------------------------------------------------------------------------
  // Operations

  /**
   * Runs a payment to its result. The same reference with the same parameters returns the same
   * payment (the running one, or its stored result); with other parameters it is REFERENCE_CONFLICT.
   */
  async start(input: unknown, options: StartOptions = {}): Promise<PaymentOutcome> {
    this.#assertOpen();
    const violations = startViolations(input, this.config.installments);
    if (violations.length > 0) {
      throw new EngineError('INVALID_PARAMS', violations.map((v) => v.message).join('; '), { violations });
    }
    const params = input as StartParams;
    const hash = paramsHash(params);
    const existing = this.journal.findByReference(params.reference_id);
    if (existing) return this.#repeat(existing, hash);

    const terminal = this.#pickTerminal(params.terminal);
    // Room first: on a full disk the POS is told the lasting reason (DISK_FULL), not that the
    // PINPAD is still finishing the sale the disk interrupted (BUSY, which would soon pass).
    this.#assertRoom();
    if (terminal.busy) throw busyError(terminal.serial, terminal.busy);
    // Reserve the PINPAD before any await, so two starts cannot both get it.
    const reservation = newRun(terminal.serial, params.ask_tax_id === true, params.reference_id);
    this.#setBusy(terminal, reservation);
    let record: PaymentRecord;
    try {
      // Recovery before each new sale: nothing from before is left undecided. Bounded, so a slow
      // API cannot hold the checkout: what is not done by then goes on in the background.
      await this.#recoverWithin(this.config.apiTimeoutMs);
      record = this.journal.createIntent({
        referenceId: params.reference_id,
        source: 'pos',
        terminal: terminal.serial,
        amount: params.amount,
        paymentType: params.payment_type,
        installments: params.payment_type === 'credit' ? (params.installments ?? null) : null,
        description: params.description,
        notification: params.notification ?? null,
        paramsHash: hash,
        confirmation: this.config.confirmation,
        owner: options.owner ?? null,
      });
    } catch (error) {
      this.#setBusy(terminal, undefined);
      // A concurrent start with the same reference won the race: answer like a repeat.
      const raced = this.journal.findByReference(params.reference_id);
      if (raced) return this.#repeat(raced, hash);
      if (error instanceof JournalError && error.code === 'DISK_FULL') throw diskFull(error.message, error);
      throw error;
    }
    return this.#launch(record, terminal, reservation);
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
    const record = this.journal.findByReference(referenceId);
    // In progress until its run answers: the journal holds an approval a moment before it is on
    // the disk (its fsync overlaps the card's removal), and no one may hear of it before that.
    if (record && this.#runs.has(record.id)) return { kind: 'in_progress', state: record.state, paymentId: record.id };
    const answer = statusOf(record);
    if (answer.kind !== 'in_progress' || record === undefined || this.#settling.has(record.id)) return answer;
    return { ...answer, stalled: stalledOutcome(record) };
  }

  /**
   * Cancels: before the card is read (or while the PIN is typed) the PINPAD command is aborted
   * (CAN) and the pending transaction cancelled; once the authorization went out it becomes a
   * void of the approval. A payment already ended without a sale is returned as it is.
   */
  async cancel(referenceId: string, options: VoidOptions = {}): Promise<PaymentOutcome> {
    const record = this.#find(referenceId);
    const run = this.#runs.get(record.id);
    if (run) {
      const current = this.journal.get(record.id) ?? record;
      if (current.state === 'intent' || current.state === 'created' || current.state === 'card_read') {
        run.abort.abort(new RunStopped('CANCELLED_BY_POS', 'cancelled by the POS'));
      } else {
        run.undoRequested = true;
      }
      return run.promise;
    }
    const settled = await this.#settleOutsideRun(record);
    if (settled.state === 'awaiting_confirmation' || settled.state === 'confirmed') {
      return outcomeOf(await this.#undo(settled, problem('CANCELLED_BY_POS'), options.note));
    }
    return outcomeOf(settled);
  }

  /** Confirms an approval (`pos` policy). Confirming a confirmed sale is harmless. */
  async confirm(referenceId: string): Promise<PaymentOutcome> {
    let record = this.#find(referenceId);
    const run = this.#runs.get(record.id);
    if (run) record = this.journal.get((await run.promise).paymentId) ?? record;
    if (record.state === 'confirmed') return outcomeOf(record);
    if (record.state !== 'awaiting_confirmation') {
      throw new EngineError('INVALID_STATE', `Payment ${referenceId} cannot be confirmed: it is ${record.state}`);
    }
    if (record.confirmation === 'pos' && this.#untilDeadline(record) <= 0) {
      // Too late: the published policy voids it, whether or not its timer has fired yet.
      await this.#settleOutsideRun(record);
      throw new EngineError(
        'INVALID_STATE',
        `Payment ${referenceId} cannot be confirmed: its confirmation deadline passed and it was voided`,
      );
    }
    this.#clearDeadline(record.id);
    return outcomeOf(this.#steps.confirm(record, 'confirmed by the POS'));
  }

  /**
   * Undoes an approval: a confirmed sale is voided (VOIDED_BY_POS, "cancelada"), one still waiting
   * for confirmation is undone (UNDONE_BY_POS, "desfeita": TEF's desfazimento). Undoing an undone
   * sale is harmless. `note` goes into the journal entry of the void (who authorized it).
   */
  async undo(referenceId: string, options: VoidOptions = {}): Promise<PaymentOutcome> {
    let record = this.#find(referenceId);
    const run = this.#runs.get(record.id);
    if (run) {
      run.undoRequested = true;
      record = this.journal.get((await run.promise).paymentId) ?? record;
    }
    if (record.state === 'undone' || record.state === 'undoing') return outcomeOf(record);
    if (record.state !== 'awaiting_confirmation' && record.state !== 'confirmed') {
      throw new EngineError('INVALID_STATE', `Payment ${referenceId} cannot be undone: it is ${record.state}`);
    }
    return outcomeOf(
      await this.#undo(record, problem(record.state === 'confirmed' ? 'VOIDED_BY_POS' : 'UNDONE_BY_POS'), options.note),
    );
  }

  /**
   * Adds a line to a payment's journal history without moving it (an attempt that did not go
   * through, e.g. a void refused for a wrong supervisor PIN). NOT_FOUND for an unknown reference.
   */
  note(referenceId: string, text: string): void {
    const record = this.#find(referenceId);
    this.journal.annotate(record.id, text);
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
    const unfinished = this.journal.unfinished().filter((record) => !this.#runs.has(record.id));
    let settled = 0;
    for (const record of unfinished) {
      try {
        const after = await this.#settleOutsideRun(record);
        if (isFinal(after.state) || after.state === 'awaiting_confirmation') settled++;
      } catch (error) {
        // One payment the journal cannot take now (a full disk) does not hold back the others.
        this.#log.error(
          { payment: record.id, error: error instanceof Error ? error.message : String(error) },
          'recovery of a payment failed; will try again',
        );
      }
    }
    this.#scheduleUndos();
    this.#scheduleRecovery();
    return { found: unfinished.length, settled, pending: unfinished.length - settled };
  }

  async #recoverWithin(ms: number): Promise<void> {
    let timer: ScheduledTimer | undefined;
    const recovery = this.recover().catch((error: unknown) => {
      this.#log.error(
        { error: error instanceof Error ? error.message : String(error) },
        'recovery before a sale failed',
      );
    });
    await Promise.race([
      recovery,
      new Promise<void>((resolve) => (timer = this.#scheduler.after(ms, resolve, { keepAlive: true }))),
    ]);
    timer?.cancel();
  }

  /**
   * Pending PINPAD transactions created elsewhere for this PINPAD run here like any other sale,
   * oldest first, while the PINPAD is free. "Created elsewhere" means meant for this PINPAD by
   * someone other than a Pinbridge sale — the POS back end, through the API — and is known by
   * what the transaction carries: a Pinbridge sale creates its transaction with
   * `metadata.pinbridge_payment_id` (steps.ts), so one carrying it is some Pinbridge agent's sale
   * and is never run here as a remote one. Each listed transaction is, in order:
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
  async runPendingFor(serial: string): Promise<PaymentOutcome[]> {
    this.#assertOpen();
    const terminal = this.#pickTerminal(serial);
    if (terminal.busy) return [];
    const pending = await this.#payments.terminal.pendingTransactions(serial, { timeoutMs: this.config.apiTimeoutMs });
    this.#forgetOthersPending(serial, pending);
    const outcomes: PaymentOutcome[] = [];
    for (const transaction of pending) {
      if (terminal.busy || this.#closed) break;
      if (this.journal.findByTransactionId(transaction.id)) continue;
      const referenceId = transaction.reference_id ?? `txn:${transaction.id}`;
      const sale = pinbridgePaymentOf(transaction);
      // A Pinbridge sale is this journal's by its payment id; another transaction by its reference.
      const known = sale === undefined ? this.journal.findByReference(referenceId) : this.journal.get(sale);
      if (known && isFinal(known.state)) {
        await this.#cancelOrphan(transaction, known.terminal, 'left behind by an ended payment', {
          reference: known.referenceId,
          payment: known.id,
        });
        continue;
      }
      if (known) {
        this.#log.debug(
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
      this.#setBusy(terminal, run);
      outcomes.push(await this.#launch(record, terminal, run));
    }
    return outcomes;
  }

  /** Another agent's Pinbridge sale pending on this PINPAD: left to that agent, or cancelled once it cannot be running (runPendingFor). */
  async #otherAgentsSale(transaction: ProviderTransaction, serial: string, sale: string): Promise<void> {
    const now = this.#scheduler.monotonicMs();
    let seen = this.#othersPending.get(transaction.id);
    if (seen === undefined) {
      seen = { serial, firstSeen: now, logged: false };
      this.#othersPending.set(transaction.id, seen);
    }
    if (now - seen.firstSeen >= this.config.orphanAfterMs) {
      await this.#cancelOrphan(transaction, serial, "another agent's sale, pending longer than any sale takes", {
        reference: transaction.reference_id,
        sale,
      });
      return;
    }
    if (!seen.logged) {
      seen.logged = true;
      this.#log.info(
        { transaction: transaction.id, reference: transaction.reference_id, sale, serial },
        "pending transaction is another Pinbridge agent's sale: not run here",
      );
    }
  }

  /** Whether another live transaction at the provider has this remote sale's reference (then it is not run); logged once. */
  async #referenceTaken(transaction: ProviderTransaction, serial: string): Promise<boolean> {
    let others: readonly ProviderTransaction[];
    try {
      others = await this.#steps.liveOthersWithReference(transaction);
    } catch (error) {
      // Not known: not run now; the next poll looks again.
      this.#log.warn(
        { transaction: transaction.id, error: error instanceof Error ? error.message : String(error) },
        'could not look up the reference of a pending transaction; not run now',
      );
      return true;
    }
    if (others.length === 0) return false;
    const seen = this.#othersPending.get(transaction.id);
    if (seen?.logged !== true) {
      this.#othersPending.set(transaction.id, {
        serial,
        firstSeen: seen?.firstSeen ?? this.#scheduler.monotonicMs(),
        logged: true,
      });
      this.#log.warn(
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

  /** Stops timers and aborts live PINPAD steps; the journal stays open (its owner closes it). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#undoTimer?.cancel();
    this.#recoveryTimer?.cancel();
    for (const terminal of this.#terminals.values()) terminal.poll?.cancel();
    for (const timer of this.#deadlines.values()) timer.cancel();
    this.#deadlines.clear();
    const runs = [...this.#runs.values()];
    for (const run of runs) run.abort.abort(new Error('engine closing'));
    await Promise.allSettled(runs.map((run) => run.promise));
    await Promise.allSettled([...this.#settling.values()]);
  }

  // ------------------------------------------------------------------------------------------

  #terminalState(terminal: Terminal): TerminalState {
    const run = terminal.busy;
    return {
      serial: terminal.serial,
      busy: run !== undefined,
      payment: run !== undefined && run.paymentId !== '' ? { id: run.paymentId, referenceId: run.referenceId } : null,
    };
  }

  #setBusy(terminal: Terminal, run: Run | undefined): void {
    terminal.busy = run;
    if (this.#terminals.get(terminal.serial) === terminal) this.emit('terminal', this.#terminalState(terminal));
  }

  #assertOpen(): void {
    if (this.#closed) throw new EngineError('CLOSED', 'The payment engine is closed');
  }

  /** DISK_FULL before anything happens when the journal could not carry a sale to its end. */
  #assertRoom(): void {
    const room = this.journal.room();
    if (room.enough) return;
    const free = `${Math.floor(room.freeBytes / (1024 * 1024))} MiB free`;
    throw diskFull(
      room.reserveHeld
        ? `The journal's disk is nearly full (${free})`
        : `The journal's disk is full (${free}; its reserve cannot be held)`,
    );
  }

  #find(referenceId: string): PaymentRecord {
    const record = this.journal.findByReference(referenceId);
    if (!record) throw new EngineError('NOT_FOUND', `No payment with reference ${referenceId}`);
    return record;
  }

  #pickTerminal(serial: string | undefined): Terminal {
    if (serial === undefined) return this.#terminals.get(onlyTerminal([...this.#terminals.keys()], 'attached'))!;
    const terminal = this.#terminals.get(serial);
    if (!terminal) throw new EngineError('PINPAD_NOT_FOUND', `No PINPAD with serial ${serial} is attached`);
    return terminal;
  }

  async #repeat(existing: PaymentRecord, hash: string): Promise<PaymentOutcome> {
    if (existing.paramsHash !== hash) {
      throw new EngineError(
        'REFERENCE_CONFLICT',
        `Reference ${existing.referenceId} was used for another payment (other parameters)`,
      );
    }
    const run = this.#runs.get(existing.id);
    if (run) return run.promise;
    return outcomeOf(await this.#settleOutsideRun(existing));
  }

  #launch(record: PaymentRecord, terminal: Terminal, reservation: Run): Promise<PaymentOutcome> {
    const run: Run = { ...reservation, paymentId: record.id, referenceId: record.referenceId };
    this.#setBusy(terminal, run);
    this.#runs.set(record.id, run);
    // Whether the run left an undo for the queue (unknown after a failure: assume it did).
    let leftUndo = true;
    run.promise = (async () => {
      try {
        const ended = await runSale(
          {
            steps: this.#steps,
            device: terminal.device,
            installments: this.config.installments,
            emit: (r, step) => this.#emit(r, step),
          },
          record,
          run,
        );
        await this.#applyPolicy(ended);
        const final = this.journal.get(record.id) ?? ended;
        leftUndo = final.pendingUndo !== null;
        // A run always ends decided; should one ever not, recovery's timer takes it over.
        if (this.#needsRecovery(final)) this.#stopped.set(record.id, problem('INTERRUPTED'));
        this.#log.info(
          {
            payment: record.id,
            reference: record.referenceId,
            terminal: record.terminal,
            state: final.state,
            problem: final.problem?.code ?? null,
          },
          'payment ended',
        );
        return this.#stopped.has(record.id) ? stalledOutcome(final) : outcomeOf(final);
      } catch (error) {
        // A full disk or a bug: the record stays as journaled and recovery, on its own timer,
        // decides it. Until then the POS hears `in_progress`, never `failed`: the card may be charged.
        const full = error instanceof JournalError && error.code === 'DISK_FULL';
        this.#log.error(
          { payment: record.id, error: error instanceof Error ? error.message : String(error) },
          'payment run stopped; recovery will decide it',
        );
        const current = this.journal.get(record.id) ?? record;
        if (this.#needsRecovery(current)) this.#stopped.set(record.id, problem(full ? 'DISK_FULL' : 'INTERRUPTED'));
        if (!isDecided(current.state)) {
          await stopDevice(terminal.device);
          this.#emit(current, 'result_pending');
        }
        return stalledOutcome(current);
      } finally {
        this.#runs.delete(record.id);
        if (terminal.busy === run) this.#setBusy(terminal, undefined);
        // An undo this run could not send is now the queue's (its timer skipped live runs).
        if (leftUndo) this.#scheduleUndos();
        if (this.#stopped.has(record.id)) this.#scheduleRecovery();
      }
    })();
    return run.promise;
  }

  /** Recovery or a queued undo for one payment, never two at once for the same payment. */
  #settleOutsideRun(record: PaymentRecord): Promise<PaymentRecord> {
    const inFlight = this.#settling.get(record.id);
    if (inFlight) return inFlight;
    const work = (async () => {
      try {
        const current = this.journal.get(record.id) ?? record;
        const after = await this.#steps.recover(current, this.#stopped.get(record.id));
        await this.#applyPolicy(after);
        const settled = this.journal.get(record.id) ?? after;
        if (!this.#needsRecovery(settled)) this.#stopped.delete(record.id);
        // Its POS heard `in_progress` (or nothing): now it hears the result.
        if (!isDecided(current.state) && isDecided(settled.state)) this.emit('result', outcomeOf(settled));
        return settled;
      } finally {
        this.#settling.delete(record.id);
      }
    })();
    this.#settling.set(record.id, work);
    return work;
  }

  async #undo(record: PaymentRecord, why: ReturnType<typeof problem>, note?: string): Promise<PaymentRecord> {
    this.#clearDeadline(record.id);
    return this.#steps.undo(record, why, note);
  }

  /**
   * `awaiting_confirmation`: auto confirms; pos arms the deadline, or — when it has already passed
   * (a restart after it) — voids the approval before anyone can read it as standing.
   */
  async #applyPolicy(record: PaymentRecord): Promise<void> {
    if (record.state !== 'awaiting_confirmation') return;
    if (record.confirmation === 'auto') {
      this.#steps.confirm(record, 'confirmed by the auto policy');
      return;
    }
    const wait = this.#untilDeadline(record);
    this.#clearDeadline(record.id);
    if (wait <= 0) {
      await this.#undo(record, problem('NOT_CONFIRMED'));
      return;
    }
    const timer = this.#scheduler.after(wait, () => {
      this.#deadlines.delete(record.id);
      const current = this.journal.get(record.id);
      if (current?.state !== 'awaiting_confirmation' || this.#closed) return;
      // Through the per-payment lane, so a confirm racing the deadline cannot undo it twice.
      void this.#settleOutsideRun(current).catch((error: unknown) =>
        this.#log.error({ payment: record.id, error: String(error) }, 'undo after the confirmation deadline failed'),
      );
    });
    this.#deadlines.set(record.id, timer);
  }

  /** Milliseconds left for the POS to confirm (≤ 0: the deadline has passed). */
  #untilDeadline(record: PaymentRecord): number {
    const deadline = record.confirmDeadline === null ? 0 : Date.parse(record.confirmDeadline);
    return deadline - this.#now().getTime();
  }

  #clearDeadline(id: string): void {
    this.#deadlines.get(id)?.cancel();
    this.#deadlines.delete(id);
  }

  /** One timer for the earliest queued undo. */
  #scheduleUndos(): void {
    if (this.#closed) return;
    this.#undoTimer?.cancel();
    this.#undoTimer = undefined;
    const queued = this.journal.pendingUndos().filter((record) => !this.#runs.has(record.id));
    const next = queued
      .map((record) => (record.pendingUndo ? Date.parse(record.pendingUndo.nextAttemptAt) : 0))
      .reduce((earliest, at) => Math.min(earliest, at), Number.POSITIVE_INFINITY);
    if (!Number.isFinite(next)) return;
    const wait = Math.max(0, next - this.#now().getTime());
    this.#undoTimer = this.#scheduler.after(wait, () => {
      this.#undoTimer = undefined;
      void this.#flushUndos();
    });
  }

  async #flushUndos(): Promise<void> {
    const now = this.#now().getTime();
    for (const record of this.journal.pendingUndos()) {
      if (this.#closed) return;
      if (this.#runs.has(record.id)) continue;
      if (record.pendingUndo && Date.parse(record.pendingUndo.nextAttemptAt) > now) continue;
      await this.#settleOutsideRun(record).catch((error: unknown) =>
        this.#log.error({ payment: record.id, error: String(error) }, 'queued undo failed'),
      );
    }
    this.#scheduleUndos();
  }

  /**
   * The recovery timer: while any payment no run drives is still undecided, recovery tries again
   * with a backoff (base, doubling to the cap); once none is, the timer stops and the backoff
   * resets. So a payment left undecided by a full disk or an unreachable API ends by itself,
   * within the cap of both coming back, with no next sale or restart needed.
   */
  #scheduleRecovery(): void {
    if (this.#closed || this.#recoveryTimer !== undefined) return;
    let undecided: boolean;
    try {
      undecided = this.journal.unfinished().some((record) => !this.#runs.has(record.id) && this.#needsRecovery(record));
    } catch (error) {
      // The journal cannot be read: the next recovery (a sale, a restart) tries again.
      this.#log.error(
        { error: error instanceof Error ? error.message : String(error) },
        'recovery not scheduled: the journal cannot be read',
      );
      return;
    }
    if (!undecided) {
      this.#recoveryAttempts = 0;
      return;
    }
    const { baseMs, maxMs } = this.config.recoveryRetry;
    this.#recoveryAttempts += 1;
    const delayMs = backoffDelay(this.#recoveryAttempts, { baseMs, capMs: maxMs });
    this.#recoveryTimer = this.#scheduler.after(delayMs, () => {
      this.#recoveryTimer = undefined;
      void this.recover().catch((error: unknown) => {
        this.#log.error(
          { error: error instanceof Error ? error.message : String(error) },
          'recovery failed; will try again',
        );
      });
    });
  }

  /**
   * Undecided, or an approval the `auto` policy could not confirm (the disk filled at that very
   * write): recovery's, not the undo queue's or a deadline's.
   */
  #needsRecovery(record: PaymentRecord): boolean {
    if (record.state === 'awaiting_confirmation') return record.confirmation === 'auto';
    return !isDecided(record.state);
  }

  /** One timer per PINPAD; a tick while it is busy (or still polling) just waits for the next. */
  #schedulePoll(terminal: Terminal): void {
    const every = this.config.pendingPollMs;
    if (every <= 0 || this.#closed) return;
    terminal.poll = this.#scheduler.after(every, () => {
      terminal.poll = undefined;
      void this.#pollOnce(terminal).finally(() => {
        if (this.#terminals.get(terminal.serial) === terminal) this.#schedulePoll(terminal);
      });
    });
  }

  async #pollOnce(terminal: Terminal): Promise<void> {
    if (terminal.busy || this.#closed) return;
    try {
      await this.runPendingFor(terminal.serial);
      if (terminal.pollFailing) this.#log.info({ terminal: terminal.serial }, 'pending transactions can be read again');
      terminal.pollFailing = false;
    } catch (error) {
      if (!terminal.pollFailing) {
        this.#log.warn(
          { terminal: terminal.serial, error: error instanceof Error ? error.message : String(error) },
          'cannot read pending transactions; will keep trying',
        );
      }
      terminal.pollFailing = true;
    }
  }

  /**
   * Cancels a pending transaction no sale will authorize any more (runPendingFor says which):
   * one left behind by a payment that ended without it (its creation reached the API after a
   * crash and after recovery looked for it, or a gateway created it twice), or another agent's
   * sale pending longer than any sale takes. Nothing was charged; it is cancelled so it cannot be
   * paid later by mistake.
   */
  async #cancelOrphan(
    transaction: ProviderTransaction,
    serial: string,
    why: string,
    fields: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.#payments.terminal.reverse(
        transaction.id,
        { terminal: serial, reason: 'other' },
        { timeoutMs: this.config.apiTimeoutMs },
      );
      this.#othersPending.delete(transaction.id);
      this.#log.warn({ transaction: transaction.id, ...fields }, `cancelled an orphan pending transaction: ${why}`);
    } catch (error) {
      this.#log.warn(
        { transaction: transaction.id, error: error instanceof Error ? error.message : String(error) },
        'could not cancel a left-behind pending transaction; will try at the next poll',
      );
    }
  }

  /** Journals a pending transaction created elsewhere, under a reference no payment has yet. */
  #remoteIntent(transaction: ProviderTransaction, referenceId: string, serial: string): PaymentRecord {
    const paymentType = transaction.payment_type === 'debit' ? 'debit' : 'credit';
    const installments = transaction.installment_plan ? Number(transaction.installment_plan.number_installments) : null;
    return this.journal.createIntent({
      referenceId,
      source: 'remote',
      terminal: serial,
      amount: transaction.amount,
      paymentType,
      installments: paymentType === 'credit' ? (installments ?? 1) : null,
      description: transaction.description ?? '',
      notification: transaction.notification,
      paramsHash: createHash('sha256')
        .update(canonicalJson({ transaction: transaction.id }))
        .digest('hex'),
      confirmation: this.config.confirmation,
      transactionId: transaction.id,
    });
  }

  /**
   * `text`: the cashier's sentence instead of the step's (a PINPAD's own text), or both sentences.
   * An approval undone before its confirmation reads "desfeita", not "cancelada" (events.ts).
   */
  #emit(record: PaymentRecord, step: ProgressStep, text?: string | StepText): void {
    const [stepMessage, byStep] = PROGRESS_STEPS[step];
    const unconfirmed =
      record.problem !== null && UNDONE_BEFORE_CONFIRMATION_CODES.has(record.problem.code)
        ? UNCONFIRMED_UNDO_TEXTS[step]
        : undefined;
    const [message, cashier] = typeof text === 'object' ? text : [stepMessage, text ?? unconfirmed ?? byStep];
    const event: PaymentProgress = {
      paymentId: record.id,
      referenceId: record.referenceId,
      terminal: record.terminal,
      step,
      state: record.state,
      message,
      cashierMessage: cashier,
      at: this.#now().toISOString(),
    };
    // Debug: the journal already keeps every step; an info line per step costs a tenth of a payment.
    this.#log.debug(
      { payment: record.id, reference: record.referenceId, step, state: record.state },
      'payment progress',
    );
    this.emit('progress', event);
  }
}

function diskFull(message: string, cause?: unknown): EngineError {
  return new EngineError(
    'DISK_FULL',
    `${message}: no sale starts until there is room; nothing was done`,
    cause === undefined ? {} : { cause },
  );
}

/** PINPAD texts when a run stopped before its result (≤ 16 characters a line). */
const STOPPED_TEXT = 'VERIFICANDO\nRESULTADO';

/** Takes the card back and tells the customer to wait: the cashier's window says the rest. */
async function stopDevice(device: SaleDevice): Promise<void> {
  await device.removeCard('RETIRE O CARTAO').catch(() => undefined);
  await device.showResult(STOPPED_TEXT).catch(() => undefined);
}
