/**
 * The payment engine's moves that talk to the payments API: create the transaction, learn a
 * lost authorization's outcome, cancel / reverse / void until the API takes it (the undo queue),
 * and bring an interrupted payment to a defined state after a restart. Every move writes the
 * journal before the call it announces, and reads the API's record rather than trusting a
 * missing answer.
 */
import { backoffDelay } from '../../lib/backoff.js';
import { createdAtMs } from '../contract/index.js';
import type { ProgressStep, StepText } from './events.js';
import type { Journal, JournalMove } from './journal/journal.js';
import type { AuthorizationData, PaymentPatch, PaymentProblem, PaymentRecord, PendingUndo } from './journal/record.js';
import type {
  AuthorizationAnswer,
  CardRead,
  EngineLogger,
  PaymentsPort,
  ProviderTransaction,
  ReferenceLookup,
  TransactionStatus,
} from './ports.js';
import { declineReasonOf } from './declines.js';
import { isDefinitiveRefusal, paymentsFailureOf, refusalProblem, type PaymentsFailure } from './payments-failure.js';
import { declinedProblem, problem, type ProblemCode } from './problems.js';
import type { PaymentState } from './states.js';
import type { Scheduler } from './scheduler.js';

export interface StepsConfig {
  readonly apiTimeoutMs: number;
  readonly unknownResolution: { readonly attempts: number; readonly delayMs: number };
  readonly undoRetry: { readonly baseMs: number; readonly maxMs: number };
  readonly confirmationDeadlineMs: number;
}

export interface StepsDeps {
  readonly journal: Journal;
  readonly payments: PaymentsPort;
  readonly sellerId: string;
  readonly config: StepsConfig;
  readonly logger: EngineLogger;
  readonly now: () => Date;
  /** Where its waits between attempts are set (the engine's). */
  readonly scheduler: Scheduler;
  /** `text`: the cashier's sentence instead of the step's (a string), or both sentences, English first. */
  readonly emit: (record: PaymentRecord, step: ProgressStep, text?: string | StepText) => void;
  /** Called when an undo could not be sent and must be retried at `pendingUndo.nextAttemptAt`. */
  readonly undoQueued: (record: PaymentRecord) => void;
}

type AbortAs = NonNullable<PendingUndo['abortAs']>;
type ReversalReason = NonNullable<PendingUndo['reason']>;

/** The `awaiting_confirmation` step of a payment the `auto` policy confirms in the same commit. */
const AUTO_CONFIRMED_TEXT: StepText = ['Approved; confirmed automatically', 'Aprovada'];

const errorText = (error: unknown): string => paymentsFailureOf(error).text;

/**
 * The metadata key a Pinbridge sale's transaction is created with, holding the payment's journal
 * id: it finds the transaction again where reference_id cannot, and tells any agent that the
 * transaction is some Pinbridge agent's sale, never one to run as created elsewhere (engine.ts).
 */
const PAYMENT_ID_METADATA = 'pinbridge_payment_id';

const paymentMetadata = (record: PaymentRecord): Record<string, string> => ({ [PAYMENT_ID_METADATA]: record.id });

/** The journal id of the Pinbridge sale a transaction was created for; undefined: not a Pinbridge sale's. */
export function pinbridgePaymentOf(transaction: ProviderTransaction): string | undefined {
  const id = transaction.metadata[PAYMENT_ID_METADATA];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * Whether a transaction found by the payment's reference is the payment's own: created with its
 * journal id, or — at a provider that does not echo metadata — with its reference and no other
 * Pinbridge payment's id. One carrying another payment's id (another journal's sale under the
 * same reference) is that payment's, never adopted or cancelled here.
 */
function isOwnTransaction(transaction: ProviderTransaction, record: PaymentRecord): boolean {
  const owner = pinbridgePaymentOf(transaction);
  return owner === undefined ? transaction.reference_id === record.referenceId : owner === record.id;
}

/** Oldest first; the id breaks a tie, so every reader keeps the same one. */
const oldestFirst = (a: ProviderTransaction, b: ProviderTransaction): number =>
  createdAtMs(a) - createdAtMs(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Still waiting for its card: a cancel (a reversal of a pending transaction) leaves nothing to charge. */
const isPendingStatus = (status: TransactionStatus): boolean => status === 'pending' || status === 'new';

/**
 * The problem a call whose outcome was unknown ends a payment with, once Pinbridge made sure
 * nothing is charged: what the provider said (a 409, a 5xx), or that it could not be reached.
 */
function unknownOutcomeProblem(failure: PaymentsFailure): ProblemCode {
  if (failure.kind === 'conflict') return 'API_CONFLICT';
  if (failure.kind === 'server_error') return 'API_ERROR';
  return 'API_UNAVAILABLE';
}

/** Problems whose cause may have left a transaction at the provider: never ended without looking. */
const MAY_HAVE_CREATED: ReadonlySet<string> = new Set<ProblemCode>([
  'API_UNAVAILABLE',
  'API_ERROR',
  'API_CONFLICT',
  'INTERRUPTED',
]);

export function authorizationFromTransaction(transaction: ProviderTransaction): AuthorizationData {
  const last = [...transaction.history].reverse().find((entry) => entry.operation_type === 'authorization');
  return {
    authorizationCode: transaction.payment_authorization?.authorization_code ?? last?.authorization_code ?? null,
    nsu: transaction.payment_authorization?.authorization_nsu ?? last?.authorization_nsu ?? null,
    responseCode: last?.response_code ?? '00',
    responseMessage: last?.response_message ?? 'Approved',
    ...receiptFieldsOf(transaction),
  };
}

/** What a receipt prints of the API's transaction beside the authorization: its number and the acquirer. */
export function receiptFieldsOf(
  transaction: ProviderTransaction,
): Pick<AuthorizationData, 'transactionNumber' | 'acquirer'> {
  return {
    transactionNumber: transaction.transaction_number,
    acquirer: transaction.gateway_authorizer ?? transaction.payment_authorization?.authorizer_id ?? null,
  };
}

export class PaymentSteps {
  readonly #deps: StepsDeps;

  constructor(deps: StepsDeps) {
    this.#deps = deps;
  }

  get journal(): Journal {
    return this.#deps.journal;
  }

  move(record: PaymentRecord, to: PaymentState, patch: PaymentPatch = {}, note = ''): PaymentRecord {
    return this.#deps.journal.transition(record.id, to, patch, note);
  }

  /**
   * Ends a payment with no API call left to make, and says so: the POS, the window and the
   * metrics hear of every end through its final progress step.
   */
  #end(record: PaymentRecord, to: 'failed' | 'cancelled', patch: PaymentPatch, note: string): PaymentRecord {
    const ended = this.move(record, to, patch, note);
    this.#deps.emit(ended, to);
    return ended;
  }

  /** Moves with no side effect between them, in one journal commit; the record after each. */
  moveThrough(record: PaymentRecord, moves: readonly JournalMove[]): PaymentRecord[] {
    return this.#deps.journal.transitions(record.id, moves);
  }

  #call(): { timeoutMs: number } {
    return { timeoutMs: this.#deps.config.apiTimeoutMs };
  }

  /**
   * How to find the payment's transaction by its reference: with what a provider that cannot
   * filter by reference_id needs to find it in the seller's list (the metadata the creation
   * carried, and when it cannot have been created before).
   */
  #lookup(record: PaymentRecord): { timeoutMs: number } & ReferenceLookup {
    return {
      ...this.#call(),
      sellerId: this.#deps.sellerId,
      metadata: paymentMetadata(record),
      createdAfter: record.createdAt,
    };
  }

  /**
   * The payment's own transaction at the provider, found by its reference (after a lost creation,
   * at recovery, before cancelling one whose id the journal never heard), or undefined.
   *
   * Normally there is one. A gateway that sent the creation on twice (it retried upstream after
   * its own timeout) leaves two: the oldest is kept — the creation that reached the provider
   * first, the one an answer that did arrive would have named, and the same one whichever agent
   * or restart looks — and every other pending one is cancelled at once (a reversal of a pending
   * transaction), so nothing can ever charge it. Such a cancel that does not land is logged; the
   * pending poll cancels the transaction once this payment has ended (engine.ts, runPendingFor).
   */
  async #findOwn(record: PaymentRecord): Promise<ProviderTransaction | undefined> {
    const found = await this.#deps.payments.transactions.listByReference(record.referenceId, this.#lookup(record));
    const [kept, ...extras] = found.filter((transaction) => isOwnTransaction(transaction, record)).sort(oldestFirst);
    if (kept === undefined) return undefined;
    for (const extra of extras) await this.#cancelExtra(record, extra, kept);
    return kept;
  }

  /** Cancels a second transaction of one payment (see #findOwn), and says so in the journal and the log. */
  async #cancelExtra(record: PaymentRecord, extra: ProviderTransaction, kept: ProviderTransaction): Promise<void> {
    const fields = { payment: record.id, reference: record.referenceId, kept: kept.id, extra: extra.id };
    if (!isPendingStatus(extra.status)) {
      // Decided already: cancelled (nothing to do), or charged by something other than this
      // payment's run — not undone behind anyone's back; a person looks at it.
      if (extra.status === 'canceled' || extra.status === 'failed' || extra.status === 'reversed') return;
      this.#deps.logger.error(
        { ...fields, status: extra.status },
        'a second transaction for this payment is not pending; left as it is',
      );
      this.#deps.journal.annotate(
        record.id,
        `second transaction ${extra.id} for this reference is ${extra.status}; left as it is (kept ${kept.id})`,
      );
      return;
    }
    try {
      await this.#reverseOrConfirmGone(extra.id, record.terminal, 'other');
      this.#deps.logger.warn(fields, 'a second transaction for this payment was cancelled');
      this.#deps.journal.annotate(
        record.id,
        `second transaction ${extra.id} for this reference cancelled (kept ${kept.id})`,
      );
    } catch (error) {
      this.#deps.logger.warn(
        { ...fields, error: errorText(error) },
        'a second transaction for this payment could not be cancelled; the pending poll cancels it once the payment ends',
      );
    }
  }

  /**
   * The other transactions at the provider under a transaction's reference_id that may still be
   * charged or hold a charge (all but failed, canceled, reversed, refunded and charged back):
   * what stops a pending transaction created elsewhere from being run (engine.ts). A declined or
   * cancelled earlier attempt under the same reference does not: a POS back end may try again.
   */
  async liveOthersWithReference(transaction: ProviderTransaction): Promise<readonly ProviderTransaction[]> {
    if (transaction.reference_id === null) return [];
    const found = await this.#deps.payments.transactions.listByReference(transaction.reference_id, {
      ...this.#call(),
      sellerId: this.#deps.sellerId,
      metadata: {},
    });
    return found.filter((other) => other.id !== transaction.id && !ENDED_WITHOUT_CHARGE.has(other.status));
  }

  /** A fresh undo entry: due now. */
  newUndo(extra: Pick<PendingUndo, 'abortAs' | 'reason'>): PendingUndo {
    return { attempts: 0, nextAttemptAt: this.#deps.now().toISOString(), lastError: null, ...extra };
  }

  /**
   * POST …/transactions for the intent (idempotent by reference_id). Returns the record moved to
   * `created`, or already ended (refused, or queued for a cancel when the answer was lost and the
   * lookup failed too).
   */
  async createTransaction(record: PaymentRecord): Promise<PaymentRecord> {
    const { payments, sellerId } = this.#deps;
    try {
      const transaction = await payments.transactions.create(
        {
          payment_locale: 'pinpad',
          payment_type: record.paymentType,
          on_behalf_of: sellerId,
          description: record.description,
          amount: record.amount,
          terminal: record.terminal,
          reference_id: record.referenceId,
          metadata: paymentMetadata(record),
          ...(record.notification === null ? {} : { notification: record.notification }),
          ...(record.paymentType === 'credit' && record.installments !== null
            ? { installment_plan: { number_installments: record.installments } }
            : {}),
        },
        this.#call(),
      );
      return this.move(record, 'created', { transactionId: transaction.id }, 'transaction created');
    } catch (error) {
      const failure = paymentsFailureOf(error);
      if (isDefinitiveRefusal(failure)) {
        return this.#end(record, 'failed', { problem: refusalProblem(failure) }, 'transaction refused by the API');
      }
      // The outcome is unknown (no answer, a 5xx, a 409): the transaction may exist. The creation
      // is never sent again; the provider's listing (by reference_id and this payment's metadata)
      // tells whether it exists.
      this.#deps.logger.warn(
        { reference: record.referenceId, kind: failure.kind, error: failure.text },
        'transaction creation outcome unknown; looking it up',
      );
      const code = unknownOutcomeProblem(failure);
      let found: ProviderTransaction | undefined;
      try {
        found = await this.#findOwn(record);
      } catch (lookupError) {
        // Neither the creation nor the listing answered: recorded as possibly created, and the
        // undo queue looks again until it can cancel what exists (or sees nothing does).
        return this.abort(
          record,
          problem(code, `${failure.text}; the lookup failed too: ${errorText(lookupError)}`),
          'failed',
        );
      }
      if (found)
        return this.move(
          record,
          'created',
          { transactionId: found.id },
          `transaction found by reference after an unknown outcome (${failure.kind})`,
        );
      return this.#end(
        record,
        'failed',
        { problem: problem(code, `${failure.text}; no transaction was created`) },
        'transaction not created',
      );
    }
  }

  /**
   * Ends a payment that has no approval: straight to the final state when no API transaction can
   * exist, otherwise through `aborting` (the pending transaction is cancelled, retried until it lands).
   */
  async abort(record: PaymentRecord, why: PaymentProblem, abortAs: AbortAs): Promise<PaymentRecord> {
    if (record.state === 'intent' && record.transactionId === null && !MAY_HAVE_CREATED.has(why.code)) {
      // Nothing was sent to the API yet (cancelled while choosing installments, say).
      return this.#end(
        record,
        abortAs === 'declined' ? 'failed' : abortAs,
        { problem: why },
        'ended before any transaction',
      );
    }
    const aborting = this.move(
      record,
      'aborting',
      { problem: why, pendingUndo: this.newUndo({ abortAs }) },
      `ending: ${why.code}`,
    );
    this.#deps.emit(aborting, 'cancelling');
    return this.settle(aborting);
  }

  /**
   * Sends the API call an undo state stands for (cancel a pending transaction, reverse, void) and
   * moves to the final state once it lands. On failure the record stays in its state with the
   * next attempt planned (the undo queue); an API that already shows the transaction undone
   * counts as landed.
   */
  async settle(record: PaymentRecord): Promise<PaymentRecord> {
    const { payments, sellerId, journal } = this.#deps;
    const undo = record.pendingUndo ?? this.newUndo({});
    try {
      switch (record.state) {
        case 'aborting': {
          const abortAs = undo.abortAs ?? 'failed';
          let transactionId = record.transactionId;
          if (transactionId === null) {
            const found = await this.#findOwn(record);
            if (!found) return this.#land(record, abortAs, 'no transaction existed at the API');
            transactionId = found.id;
            record = journal.update(record.id, { transactionId }, 'transaction found by reference');
          }
          await this.#reverseOrConfirmGone(transactionId, record.terminal, reasonFor(abortAs));
          return this.#land(record, abortAs, 'pending transaction cancelled at the API');
        }
        case 'reversing': {
          if (record.transactionId === null) return this.#land(record, 'reversed', 'nothing to reverse');
          await this.#reverseOrConfirmGone(record.transactionId, record.terminal, undo.reason ?? 'other');
          return this.#land(record, 'reversed', 'approval reversed at the API');
        }
        case 'undoing': {
          if (record.transactionId === null) return this.#land(record, 'undone', 'nothing to void');
          try {
            await payments.terminal.void(record.transactionId, { on_behalf_of: sellerId }, this.#call());
          } catch (error) {
            if (!(await this.#isGone(record.transactionId))) throw error;
          }
          return this.#land(record, 'undone', 'sale voided at the API');
        }
        default:
          return record;
      }
    } catch (error) {
      const attempts = undo.attempts + 1;
      const { baseMs, maxMs } = this.#deps.config.undoRetry;
      const delay = backoffDelay(attempts, { baseMs, capMs: maxMs });
      const next: PendingUndo = {
        ...undo,
        attempts,
        nextAttemptAt: new Date(this.#deps.now().getTime() + delay).toISOString(),
        lastError: errorText(error),
      };
      const queued = journal.update(
        record.id,
        { pendingUndo: next },
        `undo not sent (attempt ${attempts}): ${errorText(error)}`,
      );
      this.#deps.logger.warn(
        {
          payment: record.id,
          reference: record.referenceId,
          state: record.state,
          attempts,
          retryInMs: delay,
          error: errorText(error),
        },
        'undo could not be sent; queued',
      );
      this.#deps.emit(queued, 'undo_pending');
      this.#deps.undoQueued(queued);
      return queued;
    }
  }

  #land(record: PaymentRecord, to: PaymentState, note: string): PaymentRecord {
    const landed = this.move(record, to, { pendingUndo: null }, note);
    this.#deps.emit(landed, LANDED_STEPS[to] ?? 'failed');
    return landed;
  }

  async #reverseOrConfirmGone(transactionId: string, terminal: string, reason: ReversalReason): Promise<void> {
    try {
      await this.#deps.payments.terminal.reverse(transactionId, { terminal, reason }, this.#call());
    } catch (error) {
      if (!(await this.#isGone(transactionId))) throw error;
    }
  }

  /** True when the API shows the transaction with nothing charged (or does not know it at all). */
  async #isGone(transactionId: string): Promise<boolean> {
    try {
      const transaction = await this.#deps.payments.transactions.retrieve(transactionId, this.#call());
      return transaction.status === 'canceled' || transaction.status === 'reversed' || transaction.status === 'failed';
    } catch (error) {
      return paymentsFailureOf(error).kind === 'not_found';
    }
  }

  /**
   * The authorization's answer was lost: read the transaction (a few times) and follow it. Never
   * authorizes again. With the card still in the PINPAD (`live`), an approval continues to the
   * chip; after a restart it is reversed (nobody saw the chip's final word). When the API cannot
   * be read either, the payment is reversed: a reversal of a pending transaction cancels it, of
   * an approved one undoes it, so nothing is charged either way.
   */
  async resolveUnknown(
    record: PaymentRecord,
    live: boolean,
    interrupted: PaymentProblem = problem('INTERRUPTED'),
    cause?: PaymentsFailure,
  ): Promise<PaymentRecord> {
    const { attempts, delayMs } = this.#deps.config.unknownResolution;
    this.#deps.emit(record, 'resolving_unknown');
    const transactionId = record.transactionId;
    if (transactionId !== null) {
      for (let attempt = 1; attempt <= attempts; attempt++) {
        let transaction: ProviderTransaction;
        try {
          transaction = await this.#deps.payments.transactions.retrieve(transactionId, this.#call());
        } catch (error) {
          this.#deps.logger.warn(
            { payment: record.id, attempt, error: errorText(error) },
            'could not read the transaction of a lost authorization',
          );
          if (attempt < attempts)
            await new Promise<void>((resolve) => this.#deps.scheduler.after(delayMs, resolve, { keepAlive: true }));
          continue;
        }
        switch (transaction.status) {
          case 'succeeded': {
            const approved = this.move(
              record,
              'approved',
              { authorization: authorizationFromTransaction(transaction) },
              'approved (read from the API after a lost answer)',
            );
            if (live) return approved;
            const why =
              interrupted.code === 'INTERRUPTED'
                ? problem('INTERRUPTED', 'the chip never gave its final word')
                : interrupted;
            return this.reverse(approved, why, 'unknown_outcome');
          }
          case 'failed': {
            const declined = this.move(
              record,
              'declined',
              {
                problem: declinedProblem(
                  declineReasonOf(transaction.error?.response_code, transaction.error?.code),
                  transaction.error?.message,
                ),
              },
              'declined (read from the API after a lost answer)',
            );
            this.#deps.emit(declined, 'declined');
            return declined;
          }
          default: {
            // Not decided by an issuer: pending, canceled, reversed. Nothing is charged; the
            // pending transaction is cancelled. Why is what the provider answered: a 409 it
            // explained, a 5xx of its own — or, with no answer at all, that the authorization
            // never reached it.
            const why = notAuthorizedProblem(cause, transaction.status);
            const aborting = this.move(
              record,
              'aborting',
              { problem: why, pendingUndo: this.newUndo({ abortAs: 'failed' }) },
              `authorization not at the API (status ${transaction.status})`,
            );
            return this.settle(aborting);
          }
        }
      }
    }
    return this.reverse(record, problem('AUTHORIZATION_UNKNOWN'), 'unknown_outcome');
  }

  async reverse(record: PaymentRecord, why: PaymentProblem, reason: ReversalReason): Promise<PaymentRecord> {
    const reversing = this.move(
      record,
      'reversing',
      { problem: why, pendingUndo: this.newUndo({ reason }) },
      `reversing: ${why.code}`,
    );
    this.#deps.emit(reversing, 'reversing');
    return this.settle(reversing);
  }

  /** `note`: said in the journal entry beside the reason (who authorized the void). */
  async undo(record: PaymentRecord, why: PaymentProblem, note?: string): Promise<PaymentRecord> {
    const undoing = this.move(
      record,
      'undoing',
      { problem: why, pendingUndo: this.newUndo({}) },
      note === undefined ? `undoing: ${why.code}` : `undoing: ${why.code}; ${note}`,
    );
    this.#deps.emit(undoing, 'undoing');
    return this.settle(undoing);
  }

  /**
   * The online authorization (terminal channel). Sent with the client's own retries only for
   * answers that are safe to repeat (the call carries an idempotency key per transaction), so a
   * lost answer is never a second authorization.
   */
  async authorize(record: PaymentRecord, card: CardRead): Promise<AuthorizationAnswer> {
    if (record.transactionId === null) throw new Error('authorize: the payment has no transaction');
    const { authorization } = card;
    return this.#deps.payments.terminal.authorize(
      record.transactionId,
      { ...authorization, terminal: { serial_number: record.terminal, ...authorization.terminal } },
      this.#call(),
    );
  }

  /** The completion report after the chip accepted (informational: the API already approved). */
  async reportCompletion(record: PaymentRecord, emvData?: string): Promise<void> {
    if (record.transactionId === null) return;
    try {
      await this.#deps.payments.terminal.complete(
        record.transactionId,
        { terminal: record.terminal, chip_result: 'accepted', ...(emvData ? { emv_data: emvData } : {}) },
        this.#call(),
      );
    } catch (error) {
      this.#deps.logger.warn(
        { payment: record.id, error: errorText(error) },
        'completion report not sent; the approval stands',
      );
    }
  }

  /**
   * `completing` → `awaiting_confirmation`: with the `pos` deadline, or — under `auto` — straight
   * on to `confirmed` in the same commit (nothing happens between the two). The commit's fsync
   * runs off the event loop while `meanwhile` (the customer taking the card out) goes on; the
   * progress events, the first thing anyone outside hears of it, wait for both.
   */
  async awaitConfirmation(
    record: PaymentRecord,
    meanwhile: () => Promise<void> = () => Promise.resolve(),
  ): Promise<PaymentRecord> {
    const ready = 'approved; receipts ready';
    const moves: JournalMove[] =
      record.confirmation === 'auto'
        ? [
            { to: 'awaiting_confirmation', patch: { confirmDeadline: null }, note: ready },
            { to: 'confirmed', note: 'confirmed by the auto policy' },
          ]
        : [
            {
              to: 'awaiting_confirmation',
              patch: {
                confirmDeadline: new Date(
                  this.#deps.now().getTime() + this.#deps.config.confirmationDeadlineMs,
                ).toISOString(),
              },
              note: ready,
            },
          ];
    const { records, onDisk } = this.#deps.journal.transitionsSyncedLater(record.id, moves);
    // Both settle before either can throw: a failed fsync must not leave the PINPAD mid-command.
    const [synced, done] = await Promise.allSettled([onDisk, meanwhile()]);
    if (synced.status === 'rejected') throw synced.reason;
    if (done.status === 'rejected') throw done.reason;
    // Under `auto` nobody is waited for: "aguardando confirmação" would be untrue the moment it shows.
    this.#deps.emit(records[0]!, 'awaiting_confirmation', records[1] ? AUTO_CONFIRMED_TEXT : undefined);
    if (records[1]) this.#deps.emit(records[1], 'confirmed');
    return records.at(-1)!;
  }

  confirm(record: PaymentRecord, note: string): PaymentRecord {
    const confirmed = this.move(record, 'confirmed', {}, note);
    this.#deps.emit(confirmed, 'confirmed');
    return confirmed;
  }

  /**
   * Brings a payment no run is driving (found at start-up, or before a new sale) to a defined
   * state. The PINPAD part cannot resume: whatever had not reached an approval is cancelled.
   */
  async recover(record: PaymentRecord, interrupted: PaymentProblem = problem('INTERRUPTED')): Promise<PaymentRecord> {
    switch (record.state) {
      case 'intent': {
        let found: ProviderTransaction | undefined;
        try {
          found = await this.#findOwn(record);
        } catch (error) {
          this.#deps.logger.warn(
            { payment: record.id, error: errorText(error) },
            'recovery: could not look the reference up; will retry',
          );
          return record;
        }
        if (!found)
          return this.#land(
            this.#deps.journal.update(record.id, { problem: interrupted }, 'no transaction at the API'),
            'failed',
            'interrupted before any transaction',
          );
        const adopted = this.#deps.journal.update(
          record.id,
          { transactionId: found.id },
          'transaction found by reference at recovery',
        );
        return this.abort(adopted, interrupted, 'failed');
      }
      case 'created':
      case 'card_read':
        return this.abort(record, interrupted, 'failed');
      case 'authorizing': {
        const unknown = this.move(record, 'unknown', {}, 'interrupted while authorizing');
        return this.resolveUnknown(unknown, false, interrupted);
      }
      case 'unknown':
        return this.resolveUnknown(record, false, interrupted);
      case 'approved':
        return this.reverse(
          record,
          interrupted.code === 'INTERRUPTED'
            ? problem('INTERRUPTED', 'the chip never gave its final word')
            : interrupted,
          'unknown_outcome',
        );
      case 'completing':
        await this.reportCompletion(record);
        return await this.awaitConfirmation(record);
      case 'aborting':
      case 'reversing':
      case 'undoing':
        return this.settle(record);
      default:
        return record;
    }
  }
}

/** The progress step announcing each state an undo can land in. */
const LANDED_STEPS: Partial<Record<PaymentState, ProgressStep>> = {
  undone: 'undone',
  reversed: 'reversed',
  cancelled: 'cancelled',
  declined: 'declined',
  failed: 'failed',
};

/** Transactions that hold no charge and never will: what does not stop another from being run. */
const ENDED_WITHOUT_CHARGE: ReadonlySet<TransactionStatus> = new Set([
  'failed',
  'canceled',
  'reversed',
  'refunded',
  'charged_back',
]);

/** Why an authorization left its transaction undecided (see resolveUnknown). */
function notAuthorizedProblem(cause: PaymentsFailure | undefined, status: TransactionStatus): PaymentProblem {
  const detail = cause === undefined ? undefined : `${cause.text} (the transaction is ${status})`;
  if (cause?.kind === 'conflict') return problem('API_CONFLICT', detail);
  if (cause?.kind === 'server_error') return problem('API_ERROR', detail);
  return problem('AUTHORIZATION_NOT_RECEIVED');
}

function reasonFor(abortAs: AbortAs): ReversalReason {
  return abortAs === 'cancelled' ? 'cancelled' : 'other';
}
