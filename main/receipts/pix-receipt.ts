/**
 * The receipt printed by itself when a bolepix shown at the counter is paid (pix.paid): the
 * customer's proof that the store received it. Brazilian receipts of a payment received are
 * titled "COMPROVANTE DE PAGAMENTO" (a Pix one "COMPROVANTE DE PAGAMENTO PIX"); the bank app's
 * own "comprovante de Pix" is the payer's, this one is the store's word that it arrived.
 *
 * Honest about the time: the provider's payment time when it gives one ("PAGO EM"); otherwise
 * when Pinbridge learned of it ("CONFIRMADO EM"), which can be seconds to minutes later.
 */
import type { PrintBlock, PrintDocument } from '../../drivers/printers/document.js';
import { formatBrl, formatTaxId } from '../locale/br-format.js';
import { storeTimeZone } from '../locale/store-time.js';
import { receiptClock } from './receipt-clock.js';
import { TRAINING_TEXT } from './card-receipt.js';
import { ReceiptError } from './errors.js';
import type { ReceiptSettings } from './settings.js';

/** How the bolepix was paid, as the provider tells it (main/pix's PaidVia). */
export type PixPaidVia = 'pix' | 'boleto' | 'unknown';

export interface PixPaidReceipt {
  readonly transactionId: string;
  /** The PINPAD it was shown on (its serial). */
  readonly terminal: string;
  /** Centavos. */
  readonly amount: number;
  readonly via: PixPaidVia;
  /** The provider's time of payment (pix.paid_at, else boleto.paid_at); null when it gave none. */
  readonly paidAt: string | null;
  readonly endToEndId: string | null;
}

export interface PixReceiptOptions {
  readonly settings: ReceiptSettings;
  /** When Pinbridge learned of the payment: printed when the provider gave no time. */
  readonly learnedAt: Date;
  readonly training?: boolean;
}

const HOW: Record<PixPaidVia, { readonly title: string; readonly status: string; readonly how: string }> = {
  pix: { title: 'COMPROVANTE DE PAGAMENTO PIX', status: 'PIX RECEBIDO', how: 'PIX' },
  boleto: { title: 'COMPROVANTE DE PAGAMENTO', status: 'PAGAMENTO RECEBIDO', how: 'BOLETO' },
  unknown: { title: 'COMPROVANTE DE PAGAMENTO', status: 'PAGAMENTO RECEBIDO', how: 'PIX OU BOLETO' },
};

/** "29/11/2026 14:03:27" on the store's clock; INVALID_INPUT when it is no time. */
function dateTime(at: Date, timeZone: string): string {
  if (Number.isNaN(at.getTime())) throw new ReceiptError('INVALID_INPUT', 'The time of the payment is not a time.');
  const { date, time } = receiptClock(at, timeZone);
  return `${date} ${time}`;
}

/** The customer's copy (the only one: see docs/pix.md "The receipt"). */
export function pixReceiptDocument(paid: PixPaidReceipt, options: PixReceiptOptions): PrintDocument {
  const { settings } = options;
  const timeZone = storeTimeZone(settings.time_zone);
  const how = HOW[paid.via];
  const training = options.training === true;
  const blocks: PrintBlock[] = [];
  if (training) blocks.push({ kind: 'text', text: TRAINING_TEXT, align: 'center', bold: true });
  blocks.push({ kind: 'text', text: settings.merchant.name, align: 'center', bold: true });
  blocks.push({ kind: 'text', text: `CNPJ ${formatTaxId(settings.merchant.cnpj)}`, align: 'center' });
  for (const line of settings.merchant.address ?? []) blocks.push({ kind: 'text', text: line, align: 'center' });
  blocks.push({ kind: 'rule' });
  blocks.push({ kind: 'text', text: how.title, align: 'center', bold: true });
  blocks.push({ kind: 'text', text: 'VIA DO CLIENTE', align: 'center' });
  blocks.push({ kind: 'rule' });
  blocks.push({ kind: 'pair', label: 'FORMA', value: how.how, bold: true });
  if (paid.paidAt !== null)
    blocks.push({ kind: 'pair', label: 'PAGO EM', value: dateTime(new Date(paid.paidAt), timeZone) });
  else blocks.push({ kind: 'pair', label: 'CONFIRMADO EM', value: dateTime(options.learnedAt, timeZone) });
  blocks.push({ kind: 'pair', label: 'TERMINAL', value: paid.terminal });
  // Ids of 32 characters: each on a line of its own, whole even on 58 mm paper.
  if (paid.endToEndId !== null) {
    blocks.push({ kind: 'text', text: 'ID PIX (END TO END)' });
    blocks.push({ kind: 'text', text: paid.endToEndId });
  }
  blocks.push({ kind: 'text', text: 'ID DA TRANSAÇÃO' });
  blocks.push({ kind: 'text', text: paid.transactionId });
  blocks.push({ kind: 'rule' });
  blocks.push({ kind: 'pair', label: 'VALOR', value: formatBrl(paid.amount), bold: true });
  blocks.push({ kind: 'text', text: how.status, align: 'center', bold: true, large: true });
  blocks.push({ kind: 'rule' });
  if (settings.footer !== undefined && settings.footer !== '')
    blocks.push({ kind: 'text', text: settings.footer, align: 'center' });
  if (training) blocks.push({ kind: 'text', text: TRAINING_TEXT, align: 'center', bold: true });
  const title = `${paid.via === 'pix' ? 'Comprovante de pagamento Pix' : 'Comprovante de pagamento'} de ${formatBrl(paid.amount)} — via do cliente`;
  return { title, blocks, cut: true };
}
