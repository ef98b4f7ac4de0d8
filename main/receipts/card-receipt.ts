/**
 * The card receipt: one model built from the journal's record of a payment (and its history),
 * from which both copies are drawn — on paper (ESC/POS), on screen (HTML/SVG), as PDF — and the
 * fiscal fields a POS needs for the NFC-e are returned as data. The journal keeps everything it
 * needs, so a receipt can be reprinted after a crash, a day later, or from the support CLI.
 *
 * Card data: the record holds only the masked PAN (first 6 / last 4), the brand and the entry
 * mode; the model checks the mask again, so no receipt can ever print more.
 */
import type { PrintBlock, PrintDocument } from '../../drivers/printers/document.js';
import type { JournalEvent, PaymentRecord } from '../core/journal/record.js';
import { formatBrl, formatTaxId } from '../locale/br-format.js';
import { nfceBrandCode, printedBrand } from './card-brands.js';
import { ReceiptError } from './errors.js';
import { nfcePaymentGroup, type NfcePaymentGroup } from './fiscal.js';
import type { ReceiptSettings } from './settings.js';
import { storeTimeZone } from '../locale/store-time.js';
import { receiptClock, type ReceiptClock } from './receipt-clock.js';

export type ReceiptCopy = 'customer' | 'merchant';
export const RECEIPT_COPIES: readonly ReceiptCopy[] = ['customer', 'merchant'];

/** What the receipt says happened. */
export type ReceiptStatus = 'APROVADA' | 'NEGADA' | 'CANCELADA';

/** A sale receipt, or the receipt of the cancellation (void, reversal) of an approved sale. */
export type ReceiptKind = 'sale' | 'cancellation';

export interface CardReceipt {
  readonly kind: ReceiptKind;
  readonly status: ReceiptStatus;
  readonly training: boolean;
  readonly reprint: boolean;
  readonly merchant: { readonly name: string; readonly cnpj: string; readonly address: readonly string[] };
  /** "21/11/2026" and "14:03:27" on the store's clock: the approval's (or the decline's) time. */
  readonly date: string;
  readonly time: string;
  /** For a cancellation: when it was cancelled. */
  readonly cancelledAt: { readonly date: string; readonly time: string } | null;
  readonly referenceId: string;
  readonly paymentId: string;
  readonly terminal: string;
  readonly transactionId: string | null;
  readonly transactionNumber: string | null;
  readonly nsu: string | null;
  readonly authorizationCode: string | null;
  readonly acquirer: string | null;
  readonly brand: string;
  readonly maskedPan: string;
  /** "CHIP", "APROXIMAÇÃO", "TARJA"… */
  readonly entryMode: string;
  readonly paymentType: 'credit' | 'debit';
  /** "CRÉDITO À VISTA", "CRÉDITO PARCELADO", "DÉBITO". */
  readonly paymentLabel: string;
  readonly installments: number;
  /** "3x R$ 150,00"; with odd centavos, the first (larger) installment: "3x R$ 33,34" for R$ 100,00. */
  readonly installmentsText: string | null;
  readonly amount: number;
  readonly amountText: string;
  /** Formatted CPF/CNPJ the customer typed on the PINPAD, when they did. */
  readonly customerTaxId: string | null;
  /** Nothing verified the cardholder (no PIN): the merchant copy carries a signature line. */
  readonly signatureRequired: boolean;
  /** The cardholder typed a PIN (online or checked by the chip). */
  readonly pinVerified: boolean;
  /** Why it was declined or cancelled, in the cashier's words. */
  readonly reason: string | null;
  /**
   * A declined sale's issuer response code ("51"): TEF declined receipts print it, and it is what
   * the customer's bank asks for when they call about the decline.
   */
  readonly responseCode: string | null;
  readonly footer: string | null;
  /** The NFC-e payment group (YA), for the POS's fiscal document. */
  readonly fiscal: NfcePaymentGroup;
}

export interface CardReceiptOptions {
  readonly settings: ReceiptSettings;
  /** The payment's history (journal.events): times of the approval and of a cancellation. */
  readonly events?: readonly JournalEvent[];
  readonly training?: boolean;
  readonly reprint?: boolean;
}

const ENTRY_MODE_TEXT: Readonly<Record<string, string>> = {
  chip: 'CHIP',
  contactless_chip: 'APROXIMAÇÃO',
  contactless_magstripe: 'APROXIMAÇÃO',
  magstripe: 'TARJA',
  magstripe_fallback: 'TARJA (FALLBACK)',
  manually_keyed: 'DIGITADO',
};

/** Entry modes with nothing but the card itself: no PIN was asked, so the cardholder signs. */
const UNVERIFIED_ENTRY = new Set(['magstripe', 'magstripe_fallback', 'manually_keyed']);

const MASKED_PAN = /^\d{6}\*{3,9}\d{4}$/;

const STATUS_OF: Partial<Record<PaymentRecord['state'], { kind: ReceiptKind; status: ReceiptStatus; event: string }>> =
  {
    awaiting_confirmation: { kind: 'sale', status: 'APROVADA', event: 'approved' },
    confirmed: { kind: 'sale', status: 'APROVADA', event: 'approved' },
    declined: { kind: 'sale', status: 'NEGADA', event: 'declined' },
    undoing: { kind: 'cancellation', status: 'CANCELADA', event: 'undoing' },
    undone: { kind: 'cancellation', status: 'CANCELADA', event: 'undone' },
    reversing: { kind: 'cancellation', status: 'CANCELADA', event: 'reversing' },
    reversed: { kind: 'cancellation', status: 'CANCELADA', event: 'reversed' },
  };

function clock(iso: string, timeZone: string): ReceiptClock {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) throw new ReceiptError('INVALID_RECORD', `The record's time "${iso}" is not a time.`);
  return receiptClock(at, timeZone);
}

/** "3x R$ 150,00"; with odd centavos, the first (larger) installment, which carries the remainder. */
export function installmentsText(amount: number, installments: number): string {
  const each = Math.floor(amount / installments) + (amount % installments === 0 ? 0 : 1);
  return `${installments}x ${formatBrl(installments === 1 ? amount : each)}`;
}

/** The time of the first event into `state`, or undefined. */
const firstAt = (events: readonly JournalEvent[], state: string): string | undefined =>
  events.find((e) => e.to === state && e.from !== e.to)?.at;

/**
 * The receipt of a payment, or a ReceiptError: NOT_READY while it runs, NO_RECEIPT for a payment
 * that ended before a card was read or with nothing to show (failed, cancelled without a card).
 */
export function buildCardReceipt(record: PaymentRecord, options: CardReceiptOptions): CardReceipt {
  const { settings, events = [] } = options;
  const shape = STATUS_OF[record.state];
  if (shape === undefined) {
    const running =
      record.finishedAt === null && !['awaiting_confirmation', 'undoing', 'reversing'].includes(record.state);
    throw running
      ? new ReceiptError(
          'NOT_READY',
          `Payment ${record.referenceId} is still in progress (${record.state}): its receipt comes when it ends.`,
        )
      : new ReceiptError(
          'NO_RECEIPT',
          `Payment ${record.referenceId} ended ${record.state} without a card sale: there is no receipt to print.`,
        );
  }
  const card = record.card;
  if (card === null) {
    throw new ReceiptError(
      'NO_RECEIPT',
      `Payment ${record.referenceId} has no card read: there is no receipt to print.`,
    );
  }
  if (!MASKED_PAN.test(card.maskedPan)) {
    throw new ReceiptError(
      'INVALID_RECORD',
      `Payment ${record.referenceId}'s card is not masked to first 6 / last 4 digits: refused.`,
    );
  }
  // A cancellation needs the approval it cancels; a reversal of an approval the chip refused has one.
  if (shape.kind === 'cancellation' && record.authorization === null) {
    throw new ReceiptError(
      'NO_RECEIPT',
      `Payment ${record.referenceId} was never approved: there is no sale to show as cancelled.`,
    );
  }
  const timeZone = storeTimeZone(settings.time_zone);
  const saleAt = firstAt(events, 'approved') ?? firstAt(events, 'declined') ?? record.createdAt;
  const cancelAt =
    shape.kind === 'cancellation' ? (firstAt(events, shape.event) ?? record.finishedAt ?? record.updatedAt) : undefined;
  const { date, time } = clock(saleAt, timeZone);
  const installments = record.installments ?? 1;
  const authorization = record.authorization;
  const acquirer = authorization?.acquirer ?? settings.acquirer?.name ?? null;
  const signatureRequired =
    shape.status === 'APROVADA' &&
    (card.verification === 'signature' ||
      ((card.verification === undefined || card.verification === 'none') && UNVERIFIED_ENTRY.has(card.entryMode)));
  const receipt: Omit<CardReceipt, 'fiscal'> = {
    kind: shape.kind,
    status: shape.status,
    training: options.training === true,
    reprint: options.reprint === true,
    merchant: { name: settings.merchant.name, cnpj: settings.merchant.cnpj, address: settings.merchant.address ?? [] },
    date,
    time,
    cancelledAt: cancelAt === undefined ? null : clock(cancelAt, timeZone),
    referenceId: record.referenceId,
    paymentId: record.id,
    terminal: record.terminal,
    transactionId: record.transactionId,
    transactionNumber: authorization?.transactionNumber ?? null,
    nsu: authorization?.nsu ?? null,
    authorizationCode: authorization?.authorizationCode ?? null,
    acquirer,
    brand: printedBrand(card.brand),
    maskedPan: card.maskedPan,
    entryMode: ENTRY_MODE_TEXT[card.entryMode] ?? card.entryMode.toUpperCase(),
    paymentType: record.paymentType,
    paymentLabel:
      record.paymentType === 'debit' ? 'DÉBITO' : installments > 1 ? 'CRÉDITO PARCELADO' : 'CRÉDITO À VISTA',
    installments,
    installmentsText:
      record.paymentType === 'credit' && installments > 1 ? installmentsText(record.amount, installments) : null,
    amount: record.amount,
    amountText: formatBrl(record.amount),
    customerTaxId: record.customerTaxId === null ? null : formatTaxId(record.customerTaxId),
    signatureRequired,
    pinVerified: card.verification === 'online_pin' || card.verification === 'offline_pin',
    reason: shape.status === 'APROVADA' ? null : (record.problem?.cashierMessage ?? null),
    responseCode:
      shape.status === 'NEGADA' ? (record.problem?.issuerCode ?? authorization?.responseCode ?? null) : null,
    footer: settings.footer ?? null,
  };
  return {
    ...receipt,
    fiscal: nfcePaymentGroup({
      paymentType: record.paymentType,
      amount: record.amount,
      brandCode: nfceBrandCode(card.brand),
      authorizationCode: receipt.authorizationCode,
      nsu: receipt.nsu,
      acquirer,
      acquirerCnpj: settings.acquirer?.cnpj ?? null,
      merchantCnpj: settings.merchant.cnpj,
      terminal: record.terminal,
    }),
  };
}

const TITLES: Record<ReceiptKind, string> = {
  sale: 'COMPROVANTE DE VENDA',
  cancellation: 'COMPROVANTE DE CANCELAMENTO',
};
const COPY_TEXT: Record<ReceiptCopy, string> = { customer: 'VIA DO CLIENTE', merchant: 'VIA DO ESTABELECIMENTO' };
/** What every paper printed in training mode says at its top and bottom: nothing on it is worth money. */
export const TRAINING_TEXT = 'TREINAMENTO - SEM VALOR';

/** One copy of the receipt as a printer document. */
export function cardReceiptDocument(receipt: CardReceipt, copy: ReceiptCopy): PrintDocument {
  const blocks: PrintBlock[] = [];
  const pair = (label: string, value: string | null, bold = false): void => {
    if (value !== null && value !== '') blocks.push({ kind: 'pair', label, value, bold });
  };
  if (receipt.training) blocks.push({ kind: 'text', text: TRAINING_TEXT, align: 'center', bold: true });
  blocks.push({ kind: 'text', text: receipt.merchant.name, align: 'center', bold: true });
  blocks.push({ kind: 'text', text: `CNPJ ${formatTaxId(receipt.merchant.cnpj)}`, align: 'center' });
  for (const line of receipt.merchant.address) blocks.push({ kind: 'text', text: line, align: 'center' });
  blocks.push({ kind: 'rule' });
  blocks.push({ kind: 'text', text: TITLES[receipt.kind], align: 'center', bold: true });
  blocks.push({ kind: 'text', text: COPY_TEXT[copy], align: 'center' });
  if (receipt.reprint) blocks.push({ kind: 'text', text: '*** REIMPRESSÃO ***', align: 'center', bold: true });
  blocks.push({ kind: 'rule' });
  pair(receipt.brand, receipt.paymentLabel, true);
  pair(receipt.maskedPan, receipt.entryMode);
  pair(receipt.date, receipt.time);
  if (receipt.cancelledAt !== null) pair('CANCELADA EM', `${receipt.cancelledAt.date} ${receipt.cancelledAt.time}`);
  pair('TERMINAL', receipt.terminal);
  pair('NSU', receipt.nsu);
  pair('AUT', receipt.authorizationCode);
  pair('TRANSAÇÃO', receipt.transactionNumber);
  pair('ID', receipt.transactionId);
  pair('ADQUIRENTE', receipt.acquirer === null ? null : receipt.acquirer.toUpperCase());
  if (copy === 'customer') pair('CPF/CNPJ', receipt.customerTaxId);
  pair('PARCELAS', receipt.installmentsText);
  blocks.push({ kind: 'rule' });
  pair('VALOR', receipt.amountText, true);
  blocks.push({ kind: 'text', text: receipt.status, align: 'center', bold: true, large: true });
  if (receipt.reason !== null) blocks.push({ kind: 'text', text: receipt.reason, align: 'center' });
  pair('CÓD. RESPOSTA', receipt.responseCode);
  blocks.push({ kind: 'rule' });
  if (copy === 'merchant' && receipt.kind === 'sale' && receipt.status === 'APROVADA') {
    if (receipt.signatureRequired) blocks.push({ kind: 'signature', label: 'ASSINATURA DO CLIENTE' });
    else if (receipt.pinVerified)
      blocks.push({ kind: 'text', text: 'TRANSAÇÃO AUTORIZADA MEDIANTE USO DE SENHA PESSOAL', align: 'center' });
  }
  if (copy === 'customer' && receipt.footer !== null)
    blocks.push({ kind: 'text', text: receipt.footer, align: 'center' });
  if (receipt.training) blocks.push({ kind: 'text', text: TRAINING_TEXT, align: 'center', bold: true });
  const title = `${receipt.kind === 'sale' ? 'Comprovante de venda' : 'Comprovante de cancelamento'} — ${copy === 'customer' ? 'via do cliente' : 'via do estabelecimento'}`;
  return { title: receipt.reprint ? `${title} (reimpressão)` : title, blocks, cut: true };
}
