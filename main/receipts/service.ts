/**
 * Receipts as the agent serves them: built from the payment journal, printed through the print
 * queue (journaled, in the background: printing never blocks or fails a payment), and printed by
 * themselves when a payment ends — both copies of an approval, the cancellation receipt of a
 * voided sale. A copy printed before is marked as a reprint.
 */
import type { PaperColumns, PrintDocument } from '../../drivers/printers/document.js';
import { renderText } from '../../drivers/printers/layout.js';
import type { Transaction } from '../api/index.js';
import { boletoSlipDocument } from './boleto-slip.js';
import { pixReceiptDocument, type PixPaidReceipt } from './pix-receipt.js';
import { pixSlipDocument } from './pix-slip.js';
import { testPageDocument } from './test-page.js';
import type { PaymentProgress } from '../core/events.js';
import type { Journal } from '../core/journal/journal.js';
import { cardReceiptDocument, RECEIPT_COPIES, type CardReceipt, type ReceiptCopy } from './card-receipt.js';
import { ReceiptError } from './errors.js';
import type { PrintJob } from './print-jobs.js';
import type { PrintQueue } from './print-queue.js';
import { DEFAULT_PRINTER } from './printers.js';
import { findPayment, receiptFor } from './receipts.js';
import type { ReceiptSettings } from './settings.js';

export interface ReceiptServiceOptions {
  readonly journal: Journal;
  readonly settings: ReceiptSettings;
  readonly training: boolean;
  /** Absent: receipts can be shown, not printed (PRINTING_OFF). */
  readonly queue?: PrintQueue;
  /** The copies printed when a sale is approved or voided (default both; [] prints nothing by itself). */
  readonly autoPrint?: readonly ReceiptCopy[];
  /** Whether a copy (by its subject) was printed before: it then comes out as a reprint. Default: the queue's journal. */
  readonly printedBefore?: (subject: string) => boolean;
  /** The paper width of a printer by name (slips lay out for it); default 48 columns. */
  readonly columnsOf?: (printer: string) => PaperColumns | undefined;
  /** The clock of "CONFIRMADO EM" on a Pix receipt whose provider gave no payment time. */
  readonly now?: () => Date;
}

/** The print queue's subject of a payment's copy: how reprints are recognised. */
export const receiptSubject = (referenceId: string, kind: CardReceipt['kind'], copy: ReceiptCopy): string =>
  `payment:${referenceId}:${kind}:${copy}`;

/** The print queue's subject of a bolepix's Pix slip (pix.print) and of its receipt once paid. */
export const pixSlipSubject = (transactionId: string): string => `pix:${transactionId}:qr`;
export const pixPaidSubject = (transactionId: string): string => `pix:${transactionId}:paid`;

/** The bolepix a Pix print is of (its slip or its receipt), from the print's subject; undefined for other prints. */
export function pixSubjectTransaction(subject: string): string | undefined {
  return /^pix:([0-9a-f]{32}):(?:qr|paid)$/.exec(subject)?.[1];
}

export class ReceiptService {
  readonly #options: ReceiptServiceOptions;
  /** Pix receipts queued this run: a job held in memory on a full disk is not in the journal yet. */
  readonly #pixPaidQueued = new Set<string>();

  constructor(options: ReceiptServiceOptions) {
    this.#options = options;
  }

  /** The receipt of a payment (by reference, transaction id or journal id). */
  receipt(key: string, options: { reprint?: boolean } = {}): CardReceipt {
    const { journal, settings, training } = this.#options;
    return receiptFor({ journal, settings, training }, key, options);
  }

  /** One copy as a document; `reprint` unset: marked as a reprint when that copy was printed before. */
  document(key: string, copy: ReceiptCopy, options: { reprint?: boolean } = {}): PrintDocument {
    const receipt = this.receipt(key);
    const reprint = options.reprint ?? this.#printedBefore(receiptSubject(receipt.referenceId, receipt.kind, copy));
    return cardReceiptDocument({ ...receipt, reprint }, copy);
  }

  /** One copy as plain text `columns` wide (what a POS shows on its screen), marked as `document` marks it. */
  text(key: string, copy: ReceiptCopy, columns: PaperColumns, options: { reprint?: boolean } = {}): string {
    return renderText(this.document(key, copy, options), columns);
  }

  /** Queues the copies on a printer; returns the journaled jobs at once. */
  print(
    key: string,
    options: { copies?: readonly ReceiptCopy[]; printer?: string; reprint?: boolean } = {},
  ): PrintJob[] {
    const queue = this.#queue();
    const receipt = this.receipt(key);
    return (options.copies ?? RECEIPT_COPIES).map((copy) => {
      const subject = receiptSubject(receipt.referenceId, receipt.kind, copy);
      const reprint = options.reprint ?? this.#printedBefore(subject);
      return queue.submit(
        options.printer ?? DEFAULT_PRINTER,
        subject,
        cardReceiptDocument({ ...receipt, reprint }, copy),
      );
    });
  }

  /** Queues the slip of a boleto or bolepix (digitable line, barcode, Pix QR code) laid out for the printer's paper. */
  printBoletoSlip(transaction: Transaction, options: { printer?: string } = {}): PrintJob {
    return this.#submitSlip(options.printer, `boleto:${transaction.id}`, (layout) =>
      boletoSlipDocument(transaction, layout),
    );
  }

  /**
   * Queues the Pix slip of a bolepix (pix.print): its QR on paper, laid out for the printer's
   * paper. The caller checks the bolepix is still payable (pendingBolepix).
   */
  printPixSlip(transaction: Transaction, options: { printer?: string } = {}): PrintJob {
    return this.#submitSlip(options.printer, pixSlipSubject(transaction.id), (layout) =>
      pixSlipDocument(transaction, layout),
    );
  }

  /** Queues a slip laid out for its printer's paper (default printer, 48 columns unless the printer says). */
  #submitSlip(
    name: string | undefined,
    subject: string,
    slip: (layout: {
      readonly settings: ReceiptSettings;
      readonly printer: string;
      readonly columns: PaperColumns;
      readonly training: boolean;
    }) => PrintDocument,
  ): PrintJob {
    const queue = this.#queue();
    const printer = name ?? DEFAULT_PRINTER;
    const columns = this.#options.columnsOf?.(printer) ?? 48;
    return queue.submit(
      printer,
      subject,
      slip({ settings: this.#options.settings, printer, columns, training: this.#options.training }),
    );
  }

  /**
   * Prints by itself the customer's receipt of a bolepix paid at the counter (PixCounter's
   * `paid`), once per transaction: not again for a second `paid`, nor after a restart (the print
   * journal keeps the subject). It follows the card receipts' auto-print setting as far as the
   * customer's copy goes: without 'customer' in it nothing prints (the merchant's proof of a Pix
   * is the provider's record, not paper). Never throws: what cannot be built or queued goes to
   * `onError` and the Pix goes on. Returns the job queued now, or null.
   */
  printPixPaid(paid: PixPaidReceipt, onError: (error: unknown) => void = () => undefined): PrintJob | null {
    const queue = this.#options.queue;
    const copies = this.#options.autoPrint ?? RECEIPT_COPIES;
    if (queue === undefined || !copies.includes('customer')) return null;
    const subject = pixPaidSubject(paid.transactionId);
    try {
      if (this.#pixPaidQueued.has(subject) || queue.journal.list({ subject, limit: 1 }).length > 0) return null;
      const document = pixReceiptDocument(paid, {
        settings: this.#options.settings,
        training: this.#options.training,
        learnedAt: (this.#options.now ?? (() => new Date()))(),
      });
      const job = queue.submit(DEFAULT_PRINTER, subject, document);
      this.#pixPaidQueued.add(subject);
      return job;
    } catch (error) {
      onError(error);
      return null;
    }
  }

  /** Queues the printer's test slip (the window's "Imprimir teste"). */
  printTestPage(options: { printer?: string } = {}): PrintJob {
    const now = new Date();
    return this.#submitSlip(options.printer, `test:${now.toISOString()}`, (layout) =>
      testPageDocument({ ...layout, now }),
    );
  }

  #queue(): PrintQueue {
    const queue = this.#options.queue;
    if (queue === undefined)
      throw new ReceiptError('INVALID_SETTINGS', 'No receipt printer is configured (settings: printers.default).');
    return queue;
  }

  /**
   * Prints by itself what a payment's end calls for. Wire it to the engine's `progress`: an
   * approval ready for the POS (`awaiting_confirmation`) and a voided sale (`undone`). Never
   * throws: a receipt that cannot be built or queued is reported to `onError` and the payment
   * goes on.
   */
  onProgress(event: PaymentProgress, onError: (error: unknown) => void = () => undefined): void {
    const copies = this.#options.autoPrint ?? RECEIPT_COPIES;
    if (this.#options.queue === undefined || copies.length === 0) return;
    if (event.step !== 'awaiting_confirmation' && event.step !== 'undone') return;
    try {
      const record = findPayment(this.#options.journal, event.paymentId);
      // An undo of a sale that was never approved (a cancel before the card) has no receipt.
      if (event.step === 'undone' && record.authorization === null) return;
      // By reference: the key a lookup finds first.
      this.print(record.referenceId, { copies, reprint: false });
    } catch (error) {
      onError(error);
    }
  }

  #printedBefore(subject: string): boolean {
    if (this.#options.printedBefore !== undefined) return this.#options.printedBefore(subject);
    const queue = this.#options.queue;
    return queue !== undefined && queue.journal.list({ subject, states: ['printed'], limit: 1 }).length > 0;
  }
}
