/**
 * One PINPAD payment, live: the steps of architecture §5 in order, each journaled before its side
 * effect. What ends the payment early (a cancel, a timeout, a decline, a card that refuses after
 * the approval) ends it in a defined state through PaymentSteps.
 */
import type { JournalMove } from './journal/journal.js';
import type { PaymentRecord, PaymentProblem } from './journal/record.js';
import { maxInstallmentsFor, type InstallmentRules } from './params.js';
import { SaleStepError } from './sale-failure.js';
import type { CardRead } from './ports.js';
import type { SaleDevice } from './ports.js';
import { declineReasonOf } from './declines.js';
import { declinedProblem, problem, type ProblemCode } from './problems.js';
import { isDefinitiveRefusal, paymentsFailureOf, refusalProblem } from './payments-failure.js';
import { receiptFieldsOf, type PaymentSteps } from './steps.js';
import type { ProgressStep } from './events.js';

/** PINPAD texts after the sale (≤ 16 characters a line). */
const RESULT_TEXT = {
  approved: 'APROVADA',
  declined: 'NAO AUTORIZADA',
  cancelled: 'CANCELADA',
  failed: 'OPERACAO\nNAO REALIZADA',
} as const;
const REMOVE_CARD_TEXT = 'RETIRE O CARTAO';

export interface LiveRun {
  readonly signal: AbortSignal;
  /** Set when the POS asked to cancel after the authorization went out: the approval is voided. */
  undoRequested: boolean;
  readonly askTaxId: boolean;
}

export interface SaleContext {
  readonly steps: PaymentSteps;
  readonly device: SaleDevice;
  readonly installments: InstallmentRules;
  readonly emit: (record: PaymentRecord, step: ProgressStep) => void;
}

/**
 * Why the engine aborted a run: the POS cancelled it, or its PINPAD went away (a pulled cable is
 * not a cancel). The abort reason of the run's signal; any other reason reads as a cancel.
 */
export class RunStopped extends Error {
  override readonly name = 'RunStopped';
  constructor(
    readonly why: 'CANCELLED_BY_POS' | 'PINPAD_DISCONNECTED',
    message: string,
  ) {
    super(message);
  }
}

/** The problem a PINPAD step's failure stands for, and how the payment ends. */
function stepProblem(error: unknown, run: LiveRun): { why: PaymentProblem; abortAs: 'cancelled' | 'failed' } {
  if (run.signal.aborted) {
    const reason: unknown = run.signal.reason;
    const why = reason instanceof RunStopped ? reason.why : 'CANCELLED_BY_POS';
    return { why: problem(why), abortAs: why === 'CANCELLED_BY_POS' ? 'cancelled' : 'failed' };
  }
  const why = pinpadProblem(error);
  const cancelled = why.code === 'CANCELLED_BY_POS' || why.code === 'CANCELLED_BY_CUSTOMER';
  return { why, abortAs: cancelled ? 'cancelled' : 'failed' };
}

/** What a PINPAD step's error says went wrong: the cable, the card, the customer, the clock. */
export function pinpadProblem(error: unknown): PaymentProblem {
  if (!(error instanceof SaleStepError)) {
    return problem('PINPAD_ERROR', error instanceof Error ? error.message : String(error));
  }
  const byCode: Record<SaleStepError['code'], ProblemCode> = {
    CANCELLED: 'CANCELLED_BY_POS',
    CUSTOMER_CANCELLED: 'CANCELLED_BY_CUSTOMER',
    TIMEOUT: error.step === 'chip' ? 'PIN_TIMEOUT' : error.step === 'read_card' ? 'CARD_TIMEOUT' : 'PINPAD_TIMEOUT',
    CARD_REMOVED: 'CARD_REMOVED',
    CARD_ERROR: 'CARD_ERROR',
    PINPAD_DISCONNECTED: 'PINPAD_DISCONNECTED',
    PINPAD_BUSY: 'PINPAD_ERROR',
    PINPAD_ERROR: 'PINPAD_ERROR',
    PIN_BLOCKED: 'PIN_BLOCKED',
    PIN_ENTRY_BUSY: 'PINPAD_PIN_BUSY',
    UNSUPPORTED_CARD: 'UNSUPPORTED_CARD',
    KEYS_MISSING: 'PINPAD_KEYS_MISSING',
    PINPAD_UNSUPPORTED: 'PINPAD_UNSUPPORTED',
    TABLES_UNAVAILABLE: 'PINPAD_TABLES',
  };
  const why = problem(byCode[error.code], error.message);
  // "Erro no PINPAD" and "Não foi possível ler o cartão" say little: the cause's own pt-BR
  // sentence (the driver's code, the PINPAD's status) tells the cashier what to do.
  return error.specific && (why.code === 'PINPAD_ERROR' || why.code === 'CARD_ERROR')
    ? { ...why, cashierMessage: error.cashierMessage }
    : why;
}

export async function runSale(ctx: SaleContext, start: PaymentRecord, run: LiveRun): Promise<PaymentRecord> {
  const { steps, device, emit } = ctx;
  let record = start;

  const endEarly = async (error: unknown): Promise<PaymentRecord> => {
    const { why, abortAs } = stepProblem(error, run);
    const ended = await steps.abort(record, why, abortAs);
    // A chip card may still be in the slot after a failed read or PIN (RMC answers at once when it is empty).
    await device.removeCard(REMOVE_CARD_TEXT).catch(() => undefined);
    await device.showResult(abortAs === 'cancelled' ? RESULT_TEXT.cancelled : RESULT_TEXT.failed);
    return ended;
  };

  emit(record, 'started');
  // 0. A PINPAD that cannot run the sale (no keys, an unsupported model) says so before the
  // customer is asked anything and before any transaction exists.
  try {
    await device.prepare({ paymentType: record.paymentType, signal: run.signal });
  } catch (error) {
    return endEarly(error);
  }
  // 1. Before any transaction: installments and the CPF, when the PINPAD is to ask for them.
  if (record.state === 'intent') {
    try {
      if (record.paymentType === 'credit' && record.installments === null) {
        const max = maxInstallmentsFor(record.amount, ctx.installments);
        let chosen = 1;
        if (max > 1) {
          emit(record, 'choosing_installments');
          chosen = await device.chooseInstallments(
            record.amount,
            { max, minInstallmentAmount: ctx.installments.minInstallmentAmount },
            run.signal,
          );
        }
        record = steps.journal.update(record.id, { installments: chosen }, `installments: ${chosen}`);
      }
      if (run.askTaxId) {
        emit(record, 'typing_tax_id');
        const taxId = await device.readTaxId(run.signal);
        record = steps.journal.update(record.id, { customerTaxId: taxId }, 'CPF typed on the PINPAD');
      }
    } catch (error) {
      return endEarly(error);
    }
    // 2. The transaction (idempotent by reference_id).
    emit(record, 'creating_transaction');
    record = await steps.createTransaction(record);
    if (record.state !== 'created') {
      await device.showResult(RESULT_TEXT.failed);
      return record;
    }
  }

  // 3. Amount and notification on the PINPAD; the card; PIN and the chip's first decision.
  let card: CardRead;
  try {
    run.signal.throwIfAborted();
    emit(record, 'waiting_card');
    await device.showAmount(record.amount, record.notification);
    card = await device.readCard({
      amount: record.amount,
      paymentType: record.paymentType,
      notification: record.notification,
      signal: run.signal,
    });
    run.signal.throwIfAborted();
  } catch (error) {
    return endEarly(error);
  }
  const cardRead = {
    to: 'card_read',
    patch: { card: card.card },
    note: `card read: ${card.card.brand} ${card.card.entryMode}`,
  } as const;
  if (card.chipDecision === 'offlineDeclined') {
    record = steps.move(record, cardRead.to, cardRead.patch, cardRead.note);
    emit(record, 'card_read');
    const ended = await steps.abort(record, problem('CARD_DECLINED_OFFLINE'), 'declined');
    await finishWithCard(ctx, RESULT_TEXT.declined);
    return ended;
  }

  // 4. Online authorization through the terminal channel. From here on, a cancel is a void.
  // The card read and the authorization's announcement share one commit: nothing happens between.
  const [read, authorizing] = steps.moveThrough(record, [cardRead, { to: 'authorizing', note: 'authorization sent' }]);
  emit(read!, 'card_read');
  record = authorizing!;
  emit(record, 'authorizing');
  let issuerEmvData: string | null = null;
  let approval: JournalMove | undefined;
  try {
    const answer = await steps.authorize(record, card);
    issuerEmvData = answer.issuer_emv_data;
    const authorization = {
      authorizationCode: answer.authorization_code,
      nsu: answer.nsu,
      responseCode: answer.response_code,
      responseMessage: answer.response_message,
      ...receiptFieldsOf(answer.transaction),
    };
    if (answer.decision === 'declined') {
      const reason = declineReasonOf(answer.response_code, answer.decline_code);
      record = steps.move(
        record,
        'declined',
        { authorization, problem: declinedProblem(reason, answer.response_message) },
        `declined by the issuer (${answer.response_code}, ${reason.category})`,
      );
      emit(record, 'declined');
      if (card.needsChipCompletion) {
        await device
          .finishChip(
            { approved: false, responseCode: answer.response_code, issuerEmvData: answer.issuer_emv_data },
            run.signal,
          )
          .catch(() => undefined);
      }
      await finishWithCard(ctx, reason.pinpadText);
      return record;
    }
    // Journaled with the chip's answer below (one commit): until then recovery finds
    // `authorizing`, reads the approval from the API and reverses it — as it would from `approved`.
    approval = {
      to: 'approved',
      patch: { authorization },
      note: `approved (${answer.authorization_code ?? 'no code'})`,
    };
  } catch (error) {
    const failure = paymentsFailureOf(error);
    if (isDefinitiveRefusal(failure)) {
      // Refused before anything was decided — a request the provider's channel cannot take (a v1
      // provider's 404, a 400 naming a field), the key refused: nothing to look up, the pending
      // transaction is cancelled and the chip told the host never answered.
      record = steps.move(record, 'unknown', {}, `authorization refused: ${failure.text}`);
      record = await steps.abort(record, refusalProblem(failure), 'failed');
      if (card.needsChipCompletion) await device.finishChip(null, run.signal).catch(() => undefined);
      await finishWithCard(ctx, RESULT_TEXT.failed);
      return record;
    }
    // The outcome is unknown — no answer, a 5xx, or a 409 whose conflict the transaction's state
    // explains: read from the API, never authorized again.
    const why =
      failure.kind === 'answer_unknown'
        ? 'authorization answer lost'
        : `authorization answered ${failure.kind}: ${failure.text}`;
    record = steps.move(record, 'unknown', {}, why);
    record = await steps.resolveUnknown(record, true, undefined, failure);
    if (record.state !== 'approved') {
      // The chip still waits for its second GENERATE AC: it is told the host never answered.
      if (card.needsChipCompletion) await device.finishChip(null, run.signal).catch(() => undefined);
      await finishWithCard(
        ctx,
        record.state === 'declined'
          ? declineReasonOf(record.problem?.issuerCode, record.problem?.declineCode).pinpadText
          : RESULT_TEXT.failed,
      );
      return record;
    }
  }
  /** The approval into the journal, when it is not there yet. */
  const journalApproval = (): void => {
    if (approval === undefined) return;
    record = steps.move(record, approval.to, approval.patch, approval.note);
    approval = undefined;
    emit(record, 'approved');
  };
  if (approval === undefined) emit(record, 'approved');

  // 5. The chip's final word. A card that refuses after the approval is reversed at once.
  let completionEmvData: string | null = null;
  if (card.needsChipCompletion) {
    emit(record, 'finishing_chip');
    let chip: 'accepted' | 'refused' | 'failed';
    let chipError: unknown;
    try {
      ({ decision: chip, emvData: completionEmvData } = await device.finishChip(
        { approved: true, responseCode: record.authorization?.responseCode ?? '00', issuerEmvData },
        // Not cancellable: the card must hear the answer it was given.
        undefined,
      ));
    } catch (error) {
      chip = 'failed';
      chipError = error;
      steps.journal.update(
        record.id,
        {},
        `chip did not finish: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (chip !== 'accepted') {
      journalApproval();
      // The reason stays the step's own: a pulled cable is not a pulled card.
      const why = chip === 'refused' ? problem('CHIP_REFUSED') : pinpadProblem(chipError);
      record = await steps.reverse(record, why, chip === 'refused' ? 'chip_refused' : 'other');
      await finishWithCard(ctx, RESULT_TEXT.declined);
      return record;
    }
  }
  const completing: JournalMove = { to: 'completing', note: 'chip accepted' };
  if (approval === undefined) {
    record = steps.move(record, completing.to, {}, completing.note);
  } else {
    const [approved, completed] = steps.moveThrough(record, [approval, completing]);
    emit(approved!, 'approved');
    record = completed!;
  }
  await steps.reportCompletion(record, completionEmvData ?? undefined);

  // 6. Receipts ready, journaled while the customer takes the card out (the fsync overlaps the
  // PINPAD's wait); then confirmation by the policy (or the POS).
  emit(record, 'removing_card');
  record = await steps.awaitConfirmation(record, () => finishWithCard(ctx, RESULT_TEXT.approved));
  // The confirmation policy is the engine's (it also arms the `pos` deadline).
  if (run.undoRequested) return steps.undo(record, problem('CANCELLED_BY_POS'));
  return record;
}

/**
 * Asks for the card back and shows the result; neither can fail the sale. RMC answers at once
 * when the slot is empty (contactless, swipe), so it is sent whatever the entry mode.
 */
async function finishWithCard(ctx: SaleContext, text: string): Promise<void> {
  await ctx.device.removeCard(REMOVE_CARD_TEXT).catch(() => undefined);
  await ctx.device.showResult(text);
}
