/**
 * The Pix slip a cashier prints on demand (pix.print): a bolepix's QR on paper for a customer who
 * pays from the slip rather than from the PINPAD or the screen — the store, "PAGUE COM PIX", the
 * amount large, the QR, until when it is valid, the transaction's id. Short on purpose: it is
 * scanned and thrown away; the boleto slip (boleto-slip.ts) is the one with the digitable line.
 *
 * The QR is the printer's own QR command (model 2, level M), sized by the encoder for the paper:
 * a Pix BR Code fits 58 mm paper with modules a phone reads (drivers/printers/escpos.ts).
 */
import type { PaperColumns, PrintBlock, PrintDocument } from '../../drivers/printers/document.js';
import type { Transaction } from '../api/index.js';
import { formatBrl, formatTaxId } from '../locale/br-format.js';
import { storeTimeZone } from '../locale/store-time.js';
import { TRAINING_TEXT } from './card-receipt.js';
import { ReceiptError } from './errors.js';
import { pixQrBlocks } from './pix-blocks.js';
import type { ReceiptSettings } from './settings.js';

export interface PixSlipOptions {
  readonly settings: ReceiptSettings;
  /** The paper's width: the layout wraps to it and the QR is sized for it. Default 48. */
  readonly columns?: PaperColumns;
  readonly training?: boolean;
}

/**
 * The slip of a bolepix's Pix. It checks only what it prints (a bolepix with a QR payload and an
 * expiry): whether the bolepix is still payable is for the caller to know (pendingBolepix).
 */
export function pixSlipDocument(transaction: Transaction, options: PixSlipOptions): PrintDocument {
  const { settings } = options;
  const pix = transaction.pix;
  if (transaction.payment_type !== 'bolepix' || pix === undefined || pix.qr_code === '') {
    throw new ReceiptError('INVALID_INPUT', `Transaction ${transaction.id} is not a bolepix with a Pix QR code.`);
  }
  const training = options.training === true;
  const blocks: PrintBlock[] = [];
  if (training) blocks.push({ kind: 'text', text: TRAINING_TEXT, align: 'center', bold: true });
  blocks.push({ kind: 'text', text: settings.merchant.name, align: 'center', bold: true });
  blocks.push({ kind: 'text', text: `CNPJ ${formatTaxId(settings.merchant.cnpj)}`, align: 'center' });
  blocks.push({ kind: 'rule' });
  blocks.push(
    ...pixQrBlocks({
      brCode: pix.qr_code,
      expiresAt: pix.expiration_date_time,
      timeZone: storeTimeZone(settings.time_zone),
      amount: transaction.amount,
    }),
  );
  blocks.push({ kind: 'rule' });
  // 32 hex digits: on its own line, so it never wraps mid-id on 58 mm paper.
  blocks.push({ kind: 'text', text: 'ID DA TRANSAÇÃO', align: 'center' });
  blocks.push({ kind: 'text', text: transaction.id, align: 'center' });
  if (training) blocks.push({ kind: 'text', text: TRAINING_TEXT, align: 'center', bold: true });
  return { title: `Pix de ${formatBrl(transaction.amount)}`, blocks, cut: true };
}
