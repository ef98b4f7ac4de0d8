/**
 * One PINPAD payment, live: the steps of architecture §5 in order, each journaled before its side
 * effect. `runSale` is their table of contents; the steps follow it in the order they run. Each
 * takes what the step before left and returns what the next one needs, or `{ ended }`: what ends
 * the payment early (a cancel, a timeout, a decline, a card that refuses after the approval) ends
 * it in a defined state, and that record is the sale's result.
 */
import { declineReasonOf } from './declines.js';
import type { ProgressStep } from './events.js';
import type { JournalMove } from './journal/journal.js';
import type { PaymentRecord } from './journal/record.js';
import { maxInstallmentsFor, type InstallmentRules } from './sale-request.js';
import { isDefinitiveRefusal, paymentsFailureOf, refusalProblem } from './payments-failure.js';
import type { AuthorizationAnswer, CardRead, SaleDevice } from './ports.js';
import { declinedProblem, problem } from './problems.js';
import { pinpadProblem, stepProblem } from './sale-problems.js';
import { authorizationOf, authorize, resolveUnknown } from './steps/authorization.js';
import { awaitConfirmation, reportCompletion } from './steps/completion.js';
import type { StepsDeps } from './steps/context.js';
import { createTransaction } from './steps/create-transaction.js';
import { abort, reverse, undo } from './steps/undo.js';

export { pinpadProblem, RunStopped } from './sale-problems.js';

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
  /** The API side of each step (steps/), with the journal, the clock and the progress events. */
  readonly steps: StepsDeps;
  readonly device: SaleDevice;
  readonly installments: InstallmentRules;
  readonly emit: (record: PaymentRecord, step: ProgressStep) => void;
}

/** A step ended the payment: `ended` is the sale's result. */
interface Ended {
  readonly ended: PaymentRecord;
}

/** The card read, its payment journaled up to its transaction. */
interface CardInHand {
  readonly record: PaymentRecord;
  readonly card: CardRead;
}

/**
 * An approval. `pending`: the issuer's approval, not journaled yet — it is, with the chip's
 * answer, in one commit; until then recovery finds `authorizing`, reads the approval from the API
 * and reverses it, as it would from `approved`. Undefined when the approval is in the journal
 * (read from the API after a lost answer).
 */
interface Approval extends CardInHand {
  readonly pending: JournalMove | undefined;
  readonly issuerEmvData: string | null;
}

/** The chip's final word was "accepted" (or none was needed): what completion sends. */
interface ChipAccepted {
  readonly record: PaymentRecord;
  readonly pending: JournalMove | undefined;
  readonly completionEmvData: string | null;
}

/** The sale, step by step (architecture §5): each step is defined below, in the order it runs. */
export async function runSale(ctx: SaleContext, start: PaymentRecord, run: LiveRun): Promise<PaymentRecord> {
  ctx.emit(start, 'started');
  const prepared = await preparePinpad(ctx, run, start);
  if ('ended' in prepared) return prepared.ended;
  let record = prepared.record;
  // A pending transaction created elsewhere starts `created`: nothing to ask, nothing to create.
  if (record.state === 'intent') {
    const asked = await askBeforeTransaction(ctx, run, record);
    if ('ended' in asked) return asked.ended;
    const created = await openTransaction(ctx, asked.record);
    if ('ended' in created) return created.ended;
    record = created.record;
  }
  const read = await readCard(ctx, run, record);
  if ('ended' in read) return read.ended;
  if (read.card.chipDecision === 'offlineDeclined') return declineOffline(ctx, read);
  const approval = await authorizeOnline(ctx, run, read);
  if ('ended' in approval) return approval.ended;
  const accepted = await finishChip(ctx, approval);
  if ('ended' in accepted) return accepted.ended;
  const completed = await complete(ctx, accepted);
  return handOver(ctx, run, completed);
}

/**
 * 0. A PINPAD that cannot run the sale (no keys, an unsupported model) says so before the
 * customer is asked anything and before any transaction exists.
 */
async function preparePinpad(
  ctx: SaleContext,
  run: LiveRun,
  record: PaymentRecord,
): Promise<Ended | { record: PaymentRecord }> {
  try {
    await ctx.device.prepare({ paymentType: record.paymentType, signal: run.signal });
  } catch (error) {
    return endEarly(ctx, run, record, error);
  }
  return { record };
}

/** 1. Before any transaction: installments and the CPF, when the PINPAD is to ask for them. */
async function askBeforeTransaction(
  ctx: SaleContext,
  run: LiveRun,
  start: PaymentRecord,
): Promise<Ended | { record: PaymentRecord }> {
  const { steps, device, emit } = ctx;
  let record = start;
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
    return endEarly(ctx, run, record, error);
  }
  return { record };
}

/** 2. The transaction (idempotent by reference_id). */
async function openTransaction(ctx: SaleContext, intent: PaymentRecord): Promise<Ended | { record: PaymentRecord }> {
  ctx.emit(intent, 'creating_transaction');
  const record = await createTransaction(ctx.steps, intent);
  if (record.state !== 'created') {
    await ctx.device.showResult(RESULT_TEXT.failed);
    return { ended: record };
  }
  return { record };
}

/** 3. Amount and notification on the PINPAD; the card; PIN and the chip's first decision. */
async function readCard(ctx: SaleContext, run: LiveRun, record: PaymentRecord): Promise<Ended | CardInHand> {
  const { device, emit } = ctx;
  try {
    run.signal.throwIfAborted();
    emit(record, 'waiting_card');
    await device.showAmount(record.amount, record.notification);
    const card = await device.readCard({
      amount: record.amount,
      paymentType: record.paymentType,
      notification: record.notification,
      signal: run.signal,
    });
    run.signal.throwIfAborted();
    return { record, card };
  } catch (error) {
    return endEarly(ctx, run, record, error);
  }
}

/** The move that journals the card read (with the authorization's announcement, or the offline decline). */
function cardReadMove({ card }: CardInHand): JournalMove {
  return { to: 'card_read', patch: { card: card.card }, note: `card read: ${card.card.brand} ${card.card.entryMode}` };
}

/** 3b. The chip declined offline: no authorization is sent, the pending transaction is cancelled. */
async function declineOffline(ctx: SaleContext, read: CardInHand): Promise<PaymentRecord> {
  const move = cardReadMove(read);
  const record = ctx.steps.journal.transition(read.record.id, move.to, move.patch, move.note);
  ctx.emit(record, 'card_read');
  const ended = await abort(ctx.steps, record, problem('CARD_DECLINED_OFFLINE'), 'declined');
  await finishWithCard(ctx, RESULT_TEXT.declined);
  return ended;
}

/**
 * 4. Online authorization through the terminal channel. From here on, a cancel is a void. The
 * card read and the authorization's announcement share one commit: nothing happens between.
 */
async function authorizeOnline(ctx: SaleContext, run: LiveRun, read: CardInHand): Promise<Ended | Approval> {
  const { steps, emit } = ctx;
  const [cardRead, authorizing] = steps.journal.transitions(read.record.id, [
    cardReadMove(read),
    { to: 'authorizing', note: 'authorization sent' },
  ]);
  emit(cardRead!, 'card_read');
  const record = authorizing!;
  emit(record, 'authorizing');
  try {
    const answer = await authorize(steps, record, read.card);
    // Inside the try: a failure while ending a declined payment is handled as the authorization's.
    return await answered(ctx, run, { record, card: read.card }, answer);
  } catch (error) {
    return authorizationFailed(ctx, run, { record, card: read.card }, error);
  }
}

/** The issuer answered: a decline ends the payment; an approval goes on to the chip, `pending`. */
async function answered(
  ctx: SaleContext,
  run: LiveRun,
  { record, card }: CardInHand,
  answer: AuthorizationAnswer,
): Promise<Ended | Approval> {
  const authorization = authorizationOf(answer);
  if (answer.decision === 'declined') {
    const reason = declineReasonOf(answer.response_code, answer.decline_code);
    const declined = ctx.steps.journal.transition(
      record.id,
      'declined',
      { authorization, problem: declinedProblem(reason, answer.response_message) },
      `declined by the issuer (${answer.response_code}, ${reason.category})`,
    );
    ctx.emit(declined, 'declined');
    if (card.needsChipCompletion) {
      await ctx.device
        .finishChip(
          { approved: false, responseCode: answer.response_code, issuerEmvData: answer.issuer_emv_data },
          run.signal,
        )
        .catch(() => undefined);
    }
    await finishWithCard(ctx, reason.pinpadText);
    return { ended: declined };
  }
  const pending: JournalMove = {
    to: 'approved',
    patch: { authorization },
    note: `approved (${answer.authorization_code ?? 'no code'})`,
  };
  return { record, card, pending, issuerEmvData: answer.issuer_emv_data };
}

/** No answer to use: refused before anything was decided, or its outcome unknown (read from the API). */
async function authorizationFailed(
  ctx: SaleContext,
  run: LiveRun,
  { record, card }: CardInHand,
  error: unknown,
): Promise<Ended | Approval> {
  const { steps, device } = ctx;
  const failure = paymentsFailureOf(error);
  if (isDefinitiveRefusal(failure)) {
    // Refused before anything was decided — a request the provider's channel cannot take (a v1
    // provider's 404, a 400 naming a field), the key refused: nothing to look up, the pending
    // transaction is cancelled and the chip told the host never answered.
    const unknown = steps.journal.transition(record.id, 'unknown', {}, `authorization refused: ${failure.text}`);
    const ended = await abort(steps, unknown, refusalProblem(failure), 'failed');
    if (card.needsChipCompletion) await device.finishChip(null, run.signal).catch(() => undefined);
    await finishWithCard(ctx, RESULT_TEXT.failed);
    return { ended };
  }
  // The outcome is unknown — no answer, a 5xx, or a 409 whose conflict the transaction's state
  // explains: read from the API, never authorized again.
  const why =
    failure.kind === 'answer_unknown'
      ? 'authorization answer lost'
      : `authorization answered ${failure.kind}: ${failure.text}`;
  const unknown = steps.journal.transition(record.id, 'unknown', {}, why);
  const resolved = await resolveUnknown(steps, unknown, true, undefined, failure);
  if (resolved.state !== 'approved') {
    // The chip still waits for its second GENERATE AC: it is told the host never answered.
    if (card.needsChipCompletion) await device.finishChip(null, run.signal).catch(() => undefined);
    await finishWithCard(
      ctx,
      resolved.state === 'declined'
        ? declineReasonOf(resolved.problem?.issuerCode, resolved.problem?.declineCode).pinpadText
        : RESULT_TEXT.failed,
    );
    return { ended: resolved };
  }
  ctx.emit(resolved, 'approved');
  return { record: resolved, card, pending: undefined, issuerEmvData: null };
}

/** 5. The chip's final word. A card that refuses after the approval is reversed at once. */
async function finishChip(ctx: SaleContext, approval: Approval): Promise<Ended | ChipAccepted> {
  const { steps, device, emit } = ctx;
  const { record, card, pending, issuerEmvData } = approval;
  if (!card.needsChipCompletion) return { record, pending, completionEmvData: null };
  emit(record, 'finishing_chip');
  let chip: 'accepted' | 'refused' | 'failed';
  let chipError: unknown;
  let completionEmvData: string | null = null;
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
  if (chip === 'accepted') return { record, pending, completionEmvData };
  // The approval into the journal, when it is not there yet.
  let approved = record;
  if (pending !== undefined) {
    approved = steps.journal.transition(record.id, pending.to, pending.patch, pending.note);
    emit(approved, 'approved');
  }
  // The reason stays the step's own: a pulled cable is not a pulled card.
  const why = chip === 'refused' ? problem('CHIP_REFUSED') : pinpadProblem(chipError);
  const reversed = await reverse(steps, approved, why, chip === 'refused' ? 'chip_refused' : 'other');
  await finishWithCard(ctx, RESULT_TEXT.declined);
  return { ended: reversed };
}

/** 5b. `completing` (with the approval, when it is not journaled yet: one commit), and the completion report. */
async function complete(ctx: SaleContext, accepted: ChipAccepted): Promise<PaymentRecord> {
  const { steps, emit } = ctx;
  const { pending, completionEmvData } = accepted;
  const completing: JournalMove = { to: 'completing', note: 'chip accepted' };
  let record: PaymentRecord;
  if (pending === undefined) {
    record = steps.journal.transition(accepted.record.id, completing.to, {}, completing.note);
  } else {
    const [approved, completed] = steps.journal.transitions(accepted.record.id, [pending, completing]);
    emit(approved!, 'approved');
    record = completed!;
  }
  await reportCompletion(steps, record, completionEmvData ?? undefined);
  return record;
}

/**
 * 6. Receipts ready, journaled while the customer takes the card out (the fsync overlaps the
 * PINPAD's wait); then confirmation by the policy (or the POS).
 */
async function handOver(ctx: SaleContext, run: LiveRun, completed: PaymentRecord): Promise<PaymentRecord> {
  ctx.emit(completed, 'removing_card');
  const record = await awaitConfirmation(ctx.steps, completed, () => finishWithCard(ctx, RESULT_TEXT.approved));
  // The confirmation policy is the engine's (it also arms the `pos` deadline).
  if (run.undoRequested) return undo(ctx.steps, record, problem('CANCELLED_BY_POS'));
  return record;
}

/** A PINPAD step failed or the run was stopped before the authorization: the payment ends without a sale. */
async function endEarly(ctx: SaleContext, run: LiveRun, record: PaymentRecord, error: unknown): Promise<Ended> {
  const { why, abortAs } = stepProblem(error, run.signal);
  const ended = await abort(ctx.steps, record, why, abortAs);
  // A chip card may still be in the slot after a failed read or PIN (RMC answers at once when it is empty).
  await ctx.device.removeCard(REMOVE_CARD_TEXT).catch(() => undefined);
  await ctx.device.showResult(abortAs === 'cancelled' ? RESULT_TEXT.cancelled : RESULT_TEXT.failed);
  return { ended };
}

/**
 * Asks for the card back and shows the result; neither can fail the sale. RMC answers at once
 * when the slot is empty (contactless, swipe), so it is sent whatever the entry mode.
 */
async function finishWithCard(ctx: SaleContext, text: string): Promise<void> {
  await ctx.device.removeCard(REMOVE_CARD_TEXT).catch(() => undefined);
  await ctx.device.showResult(text);
}
