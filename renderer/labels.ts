/**
 * How a payment reads on screen, the same on every page: its type, card, result and journal
 * state in the cashier's words, and which group of the day's list it falls in.
 */
import type { PaymentOutcome } from '../main/pos/protocol/index.js';
import { formatTime, isMessageKey, t, type MessageKey } from './i18n.js';
import { formatCentavos } from './money.js';

type PaymentState = PaymentOutcome['state'];

/** The groups of the day's list (the status filter). */
export const SALE_CATEGORIES = ['approved', 'declined', 'failed', 'cancelled', 'in_progress'] as const;
export type SaleCategory = (typeof SALE_CATEGORIES)[number];

/**
 * Still at the PINPAD or waiting for the authorization: only `payment.cancel` applies. The agent
 * says so in `phase` (from the engine's own states), so the window keeps no list of its own.
 */
export function isRunning(payment: Pick<PaymentOutcome, 'phase'>): boolean {
  return payment.phase === 'in_progress';
}

export function saleCategory(outcome: PaymentOutcome): SaleCategory {
  return isRunning(outcome) ? 'in_progress' : outcome.status;
}

const STATE_LABELS: Partial<Record<PaymentState, MessageKey>> = {
  awaiting_confirmation: 'state.awaitingConfirmation',
  confirmed: 'state.confirmed',
  declined: 'state.declined',
  failed: 'state.failed',
  cancelled: 'state.cancelled',
  undone: 'state.undone',
  undoing: 'state.undoing',
  reversed: 'state.reversed',
  reversing: 'state.reversing',
  aborting: 'state.aborting',
};

/**
 * Why an approval was undone before it was confirmed — TEF's *desfazimento*, "Desfeita": the POS
 * undid it (UNDONE_BY_POS) or left it unconfirmed past the deadline (NOT_CONFIRMED). Any other
 * undo is a void of a confirmed sale — a *cancelamento*, "Cancelada" (VOIDED_BY_POS, CANCELLED_BY_POS).
 */
const UNDONE_BEFORE_CONFIRMATION: ReadonlySet<string> = new Set(['UNDONE_BY_POS', 'NOT_CONFIRMED']);

/** An undone approval that had not been confirmed ("Desfeita"), as opposed to a voided sale ("Cancelada"). */
export function undoneBeforeConfirmation(outcome: Pick<PaymentOutcome, 'state' | 'problem'>): boolean {
  return (
    (outcome.state === 'undone' || outcome.state === 'undoing') &&
    outcome.problem !== null &&
    UNDONE_BEFORE_CONFIRMATION.has(outcome.problem.code)
  );
}

/**
 * "Aprovada", "Cancelada", "Desfeita", "Em andamento"…: finer than `status`, which calls every
 * void "cancelled". One word for one thing: "Cancelada" is a confirmed sale voided (its receipt
 * reads CANCELAMENTO), "Desfeita" an approval undone before it was confirmed (nothing charged).
 */
export function stateLabel(outcome: PaymentOutcome): string {
  if (undoneBeforeConfirmation(outcome))
    return t(outcome.state === 'undone' ? 'state.undoneUnconfirmed' : 'state.undoingUnconfirmed');
  return t(STATE_LABELS[outcome.state] ?? 'state.inProgress');
}

/** The word for the big result line: APROVADA, NEGADA, NÃO REALIZADA, CANCELADA. */
export function resultLabel(status: PaymentOutcome['status']): string {
  return t(`result.${status}`);
}

/** "Débito", "Crédito à vista" (1x, as a TEF screen says it), "Crédito em 3x"; "Crédito" while the installments are not known yet. */
export function typeLabel(paymentType: PaymentOutcome['payment_type'], installments: number | null): string {
  if (paymentType === 'debit') return t('type.debit');
  if (installments === null) return t('type.credit');
  return installments > 1 ? t('type.creditInstallments', { n: installments }) : t('type.creditSingle');
}

/** "VISA 411111******1111" — the brand and the masked number, never more. */
export function cardLabel(card: PaymentOutcome['card']): string {
  return card === null ? '—' : `${card.brand.toUpperCase()} ${card.masked_pan}`;
}

/**
 * A sale as the cashier knows it from the counter and the receipt — "R$ 45,60 das 14:32:10 · VISA
 * final 1111 · NSU 123456" — never its reference id (the POS's key, meaningless at the counter).
 */
export function saleWords(sale: Pick<PaymentOutcome, 'amount' | 'created_at' | 'card' | 'nsu'>): string {
  const words = [t('sale.which', { amount: formatCentavos(sale.amount), time: formatTime(sale.created_at) })];
  if (sale.card !== null)
    words.push(t('sale.whichCard', { brand: sale.card.brand.toUpperCase(), last4: sale.card.masked_pan.slice(-4) }));
  if (sale.nsu !== null) words.push(`${t('payment.nsu')} ${sale.nsu}`);
  return words.join(' · ');
}

export function confirmationLabel(confirmation: PaymentOutcome['confirmation']): string {
  return confirmation === null ? '—' : t(`confirmation.${confirmation}`);
}

/**
 * A printer's trouble in the cashier's words, by its code (a print job's error code, or the
 * printer's fault from its status): never the driver's English sentence, which stays in the log.
 */
export function printErrorText(code: string): string {
  const key = `printError.${code}`;
  return isMessageKey(key) ? t(key) : t('printError.other', { code });
}

/** The payments service's trouble in the cashier's words, by the client's error code. */
export function apiErrorText(code: string): string {
  const key = `apiError.${code}`;
  return isMessageKey(key) ? t(key) : t('apiError.other', { code });
}

/** A printer as the cashier knows it: the settings' "default" is the receipt printer. */
export function printerName(name: string): string {
  return name === 'default' ? t('printer.defaultName') : name;
}

/** An approval that can still be voided from the window (confirmed, or waiting for the POS). */
export function canVoid(outcome: PaymentOutcome): boolean {
  return outcome.state === 'confirmed' || outcome.state === 'awaiting_confirmation';
}

/**
 * What a printer is, in words, from its address (tcp://, serial:, file:///dev/…, a folder, lp://):
 * what the cashier reads instead of the address, which only Suporte and Configurações show.
 */
export function printerKind(address: string, training: boolean): string {
  const scheme = /^([a-z]+):/i.exec(address)?.[1]?.toLowerCase();
  if (scheme === 'tcp') return t('printer.kind.network');
  if (scheme === 'serial') return t('printer.kind.serial');
  if (scheme === 'lp') {
    const name = address.slice('lp://'.length).replace(/\/$/, '');
    return name === '' ? t('printer.kind.systemDefault') : t('printer.kind.system', { name });
  }
  if (isFolderPrinter(address)) return t(training ? 'printer.kind.trainingFolder' : 'printer.kind.folder');
  return t('printer.kind.usb');
}

/** A folder "printer" (training's, or a headless store's): each receipt a file, no paper. */
export function isFolderPrinter(address: string): boolean {
  return address.startsWith('file://') && address.endsWith('/');
}

/** A system printer (lp://): its spooler takes the jobs, so the agent has no state of its own to show. */
export function isSystemPrinter(address: string): boolean {
  return /^lp:/i.test(address);
}

/** How a PINPAD is connected, in words, from its address (sim, ble:…, tcp://…, a serial port). */
export function pinpadKind(address: string): string {
  if (address === 'sim' || address.startsWith('sim:')) return t('pinpad.kind.simulated');
  if (address.startsWith('ble:')) return t('pinpad.kind.bluetooth');
  if (address.startsWith('tcp://')) return t('pinpad.kind.network');
  return t('pinpad.kind.serial');
}
