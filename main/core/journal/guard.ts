/**
 * What the journal checks before it writes: no card data, and a record that keeps its own rules.
 * Both run before the write transaction opens, so a refused payment or patch leaves nothing on
 * disk — not even an event.
 */
import { CNPJ_PATTERN, isValidCnpj, isValidCpf } from '../../validation/taxpayer-id.js';
import { cardDataAcross, cardDataIn, findCardNumber, looksLikeCardNumber, maskForJournal } from './card-data.js';
import { JournalError } from './errors.js';
import type { MaskedCard, NewPayment, PaymentPatch, PendingUndo } from './record.js';

/**
 * Identifiers skipped by the wide search below: a PINPAD serial (read from the PINPAD itself) or the
 * API's transaction number may be long runs of digits by nature, and refusing one would block every
 * sale with it. Hex ids (the owner's `cli_` + 16 hex digits holds a Luhn-valid run now and then) and the
 * CPF/CNPJ are handled by `refuseCardData`, which still searches them when they are not what
 * they claim to be: a CNPJ, numeric or alphanumeric (a letter and 13 digits, "B4111111431277", holds a
 * 13-digit run that may pass the Luhn check), is kept only when its check digits match. What a POS
 * typed (POS_TEXT) gets the POS API's search instead.
 */
const NOT_SEARCHED = new Set([
  'referenceId',
  'description',
  'notification',
  'terminal',
  'paramsHash',
  'transactionId',
  'customerTaxId',
  'authorization.transactionNumber',
  'owner',
]);

/**
 * The fields a POS (or, for a remote payment, whoever created it at the API) typed: searched as
 * the POS API searches what a POS sends (drivers/card-number.ts, `paymentCardsOnly`: normalised,
 * numbers starting like a payment card, their printed groups, decoded tokens), one by one and
 * together — a number split between the reference and the description is found. The wider
 * search the rest gets would refuse a numeric order number the POS API accepted ("1234567890123452",
 * a Luhn-valid 16 digits starting with 1) and leave the sale without a journal.
 */
const POS_TEXT = ['referenceId', 'description', 'notification'] as const;

const cardData = (field: string, paymentId?: string): JournalError =>
  new JournalError(
    'CARD_DATA',
    `refused to journal "${field}": it holds what looks like a full card number, and card data never reaches disk`,
    paymentId === undefined ? {} : { paymentId },
  );

const invalid = (message: string, paymentId?: string): JournalError =>
  new JournalError('INVALID_RECORD', message, paymentId === undefined ? {} : { paymentId });

/**
 * The patch and note with their diagnostics masked (maskForJournal): the note, the problem's
 * English message and the undo's last error are what Pinbridge writes about a payment, quoting
 * error messages it did not compose — a hex id in an API path may hold a Luhn-valid run. They are
 * written masked rather than refused, so the move they explain still reaches the disk. Everything
 * else (the card, the authorization, what the POS typed, the cashier's sentence) is the payment
 * itself, and `refuseCardData` still refuses it.
 */
export function maskDiagnostics(patch: PaymentPatch, note: string): { patch: PaymentPatch; note: string } {
  let masked = patch;
  if (patch.problem !== undefined && patch.problem !== null && typeof patch.problem.message === 'string') {
    const message = maskForJournal(patch.problem.message);
    if (message !== patch.problem.message) masked = { ...masked, problem: { ...patch.problem, message } };
  }
  const undo = patch.pendingUndo;
  if (undo !== undefined && undo !== null && typeof undo.lastError === 'string') {
    const lastError = maskForJournal(undo.lastError);
    if (lastError !== undo.lastError) masked = { ...masked, pendingUndo: { ...undo, lastError } };
  }
  return { patch: masked, note: maskForJournal(note) };
}

/** Throws CARD_DATA when a string of `fields` (or `note`) looks like a card number. */
export function refuseCardData(fields: object, note: string | undefined, paymentId?: string): void {
  const typed = fields as Partial<Record<(typeof POS_TEXT)[number], unknown>>;
  const texts = POS_TEXT.filter((key) => typeof typed[key] === 'string');
  for (const key of texts) if (cardDataIn(typed[key] as string) !== undefined) throw cardData(key, paymentId);
  if (texts.length > 1 && cardDataAcross(texts.map((key) => typed[key] as string)) !== undefined) {
    throw cardData(texts.join(' + '), paymentId);
  }
  const found = findCardNumber(fields, NOT_SEARCHED);
  if (found !== undefined) throw cardData(found, paymentId);
  if (note !== undefined && looksLikeCardNumber(note)) throw cardData('note', paymentId);
  const record = fields as { transactionId?: unknown; paramsHash?: unknown; customerTaxId?: unknown; owner?: unknown };
  // Hex ids are skipped unless they are all digits: a hex id (after its prefix) rarely is, a card number always is.
  for (const key of ['transactionId', 'paramsHash', 'owner'] as const) {
    const value = record[key];
    if (typeof value === 'string' && /^\d+$/.test(value) && looksLikeCardNumber(value)) throw cardData(key, paymentId);
  }
  const taxId = record.customerTaxId;
  if (typeof taxId === 'string' && !isValidCpf(taxId) && !isValidCnpj(taxId) && looksLikeCardNumber(taxId)) {
    throw cardData('customerTaxId', paymentId);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const CPF_SHAPE = /^\d{11}$/;
const CNPJ_SHAPE = new RegExp(CNPJ_PATTERN);
const isText = (value: unknown): value is string => typeof value === 'string';
const isNonEmptyText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

function checkInstallments(installments: unknown, paymentType: string | undefined, paymentId?: string): void {
  if (installments === null) return;
  if (!Number.isInteger(installments) || (installments as number) < 1 || (installments as number) > 12) {
    throw invalid('installments must be a whole number from 1 to 12, or null', paymentId);
  }
  if (paymentType === 'debit') throw invalid('installments are for credit payments only', paymentId);
}

export function checkNewPayment(payment: NewPayment): void {
  if (!isNonEmptyText(payment.referenceId)) throw invalid('referenceId must be a non-empty string');
  if (payment.source !== 'pos' && payment.source !== 'remote') throw invalid('source must be "pos" or "remote"');
  if (!isText(payment.terminal)) throw invalid('terminal must be a string');
  // The amount is Centavos, checked where the sale came in (main/core/money.ts): not again here.
  if (payment.paymentType !== 'credit' && payment.paymentType !== 'debit')
    throw invalid('paymentType must be "credit" or "debit"');
  checkInstallments(payment.installments, payment.paymentType);
  if (!isText(payment.description)) throw invalid('description must be a string');
  if (payment.notification !== null && !isText(payment.notification))
    throw invalid('notification must be a string or null');
  if (!isNonEmptyText(payment.paramsHash)) throw invalid('paramsHash must be a non-empty string');
  if (payment.confirmation !== 'auto' && payment.confirmation !== 'pos')
    throw invalid('confirmation must be "auto" or "pos"');
  if (payment.transactionId !== undefined && payment.transactionId !== null) checkTransactionId(payment.transactionId);
}

function checkTransactionId(value: unknown, paymentId?: string): void {
  if (!isText(value) || !/^[A-Za-z0-9_-]{1,128}$/.test(value)) {
    throw invalid('transactionId must be letters, digits, "-" or "_" (at most 128), or null', paymentId);
  }
}

/** "411111******1111": first 6 and last 4 digits, 3 to 9 asterisks between (13–19 digit PANs). */
const MASKED_PAN = /^\d{6}\*{3,9}\d{4}$/;

function checkCard(card: MaskedCard, paymentId: string): void {
  if (!isObject(card) || !isText(card.brand) || !isText(card.entryMode) || !isText(card.maskedPan)) {
    throw invalid('card must be {brand, maskedPan, entryMode}', paymentId);
  }
  if (!MASKED_PAN.test(card.maskedPan)) {
    throw invalid('card.maskedPan must keep only the first 6 and last 4 digits ("411111******1111")', paymentId);
  }
}

function checkPendingUndo(undo: PendingUndo, paymentId: string): void {
  if (
    !isObject(undo) ||
    !Number.isInteger(undo.attempts) ||
    undo.attempts < 0 ||
    !isText(undo.nextAttemptAt) ||
    (undo.lastError !== null && !isText(undo.lastError))
  ) {
    throw invalid('pendingUndo must be {attempts ≥ 0, nextAttemptAt, lastError}', paymentId);
  }
}

/** `paymentType` is the record's, for the credit-only rule on installments. */
export function checkPatch(patch: PaymentPatch, paymentType: string, paymentId: string): void {
  if (patch.installments !== undefined) checkInstallments(patch.installments, paymentType, paymentId);
  if (patch.transactionId !== undefined && patch.transactionId !== null)
    checkTransactionId(patch.transactionId, paymentId);
  if (patch.card !== undefined && patch.card !== null) checkCard(patch.card, paymentId);
  if (patch.authorization !== undefined && patch.authorization !== null) {
    const a = patch.authorization;
    if (!isObject(a) || !isText(a.responseCode) || !isText(a.responseMessage)) {
      throw invalid('authorization must carry responseCode and responseMessage', paymentId);
    }
  }
  if (patch.problem !== undefined && patch.problem !== null) {
    const p = patch.problem;
    if (!isObject(p) || !isNonEmptyText(p.code) || !isText(p.message) || !isText(p.cashierMessage)) {
      throw invalid('problem must carry code, message and cashierMessage', paymentId);
    }
  }
  if (
    patch.customerTaxId !== undefined &&
    patch.customerTaxId !== null &&
    !(CPF_SHAPE.test(patch.customerTaxId) || CNPJ_SHAPE.test(patch.customerTaxId))
  ) {
    throw invalid(
      'customerTaxId must be a CPF (11 digits) or a CNPJ (14 characters: digits, or uppercase letters in the first 12), without punctuation',
      paymentId,
    );
  }
  if (patch.confirmDeadline !== undefined && patch.confirmDeadline !== null && !isText(patch.confirmDeadline)) {
    throw invalid('confirmDeadline must be an ISO time or null', paymentId);
  }
  if (patch.pendingUndo !== undefined && patch.pendingUndo !== null) checkPendingUndo(patch.pendingUndo, paymentId);
}
