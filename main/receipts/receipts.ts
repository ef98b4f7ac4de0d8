/**
 * Receipts from the payment journal: find a payment by the POS's reference, the API's
 * transaction id or the journal's id; build its receipt; draw a copy as a document; render it in
 * the format asked (text, ESC/POS, HTML, PDF). What the CLI, the POS API and the window share.
 */
import type { PaperColumns, PrintDocument } from '../../drivers/printers/document.js';
import { encodeEscPos, type EscPosOptions } from '../../drivers/printers/escpos.js';
import { renderHtml } from '../../drivers/printers/html.js';
import { renderText } from '../../drivers/printers/layout.js';
import type { Journal } from '../core/journal/journal.js';
import type { PaymentRecord } from '../core/journal/record.js';
import { buildCardReceipt, type CardReceipt } from './card-receipt.js';
import { ReceiptError } from './errors.js';
import type { ReceiptSettings } from './settings.js';

export const RECEIPT_FORMATS = ['text', 'escpos', 'html', 'pdf'] as const;
export type ReceiptFormat = (typeof RECEIPT_FORMATS)[number];

/** The payment a reference, a transaction id or a journal id names, or NOT_FOUND. */
export function findPayment(journal: Journal, key: string): PaymentRecord {
  const record = journal.findByReference(key) ?? journal.findByTransactionId(key) ?? journal.get(key);
  if (record === undefined)
    throw new ReceiptError('NOT_FOUND', `No payment in the journal has the reference, transaction id or id "${key}".`);
  return record;
}

export interface ReceiptContext {
  readonly journal: Journal;
  readonly settings: ReceiptSettings;
  readonly training: boolean;
}

/** The receipt of the payment `key` names (a ReceiptError when it has none yet, or none at all). */
export function receiptFor(context: ReceiptContext, key: string, options: { reprint?: boolean } = {}): CardReceipt {
  const record = findPayment(context.journal, key);
  return buildCardReceipt(record, {
    settings: context.settings,
    events: context.journal.events(record.id),
    training: context.training,
    reprint: options.reprint === true,
  });
}

export interface RenderOptions {
  readonly columns: PaperColumns;
  /** ESC/POS only: the printer model and code page (escpos.ts). */
  readonly escpos?: Omit<EscPosOptions, 'columns'>;
}

/** A document in a format: text and HTML as strings, ESC/POS and PDF as bytes. */
export async function renderDocument(
  document: PrintDocument,
  format: ReceiptFormat,
  options: RenderOptions,
): Promise<string | Uint8Array> {
  switch (format) {
    case 'text':
      return `${renderText(document, options.columns)}\n`;
    case 'html':
      return renderHtml(document, options.columns, { title: document.title });
    case 'escpos':
      return encodeEscPos(document, { ...options.escpos, columns: options.columns });
    case 'pdf':
      // Loaded on the first PDF (pdfkit is the heaviest thing to load, and rarely needed).
      return (await import('../../drivers/printers/pdf.js')).renderPdf(document, options.columns);
  }
}
