/**
 * The slip a cashier hands over for a boleto or a bolepix issued at the checkout (relayed from
 * the payments API): the amount, the due date, the digitable line to type, the boleto's 44-digit
 * barcode as ITF to scan at a bank or lottery outlet and, for a bolepix, the Pix QR code to pay
 * at once from a banking app.
 */
import type { PaperColumns, PrintBlock, PrintDocument } from '../../drivers/printers/document.js';
import type { Transaction } from '../api/index.js';
import { formatBrl, formatDateBr, formatTaxId } from '../locale/br-format.js';
import { ReceiptError } from './errors.js';
import { TRAINING_TEXT } from './card-receipt.js';
import { pixQrBlocks } from './pix-blocks.js';
import type { ReceiptSettings } from './settings.js';
import { storeTimeZone } from '../locale/store-time.js';

export interface BoletoSlipOptions {
  readonly settings: ReceiptSettings;
  /**
   * The paper it is for: the 44 digits of a boleto need more width than 58 mm paper has (even
   * at one-dot bars, 425 dots of 384), so on 32 columns the slip says to pay by the digitable
   * line (or the Pix) instead of printing a barcode no scanner could read. Default 48.
   */
  readonly columns?: PaperColumns;
  readonly training?: boolean;
  readonly reprint?: boolean;
}

export function boletoSlipDocument(transaction: Transaction, options: BoletoSlipOptions): PrintDocument {
  const { settings } = options;
  const kind = transaction.payment_type;
  if (kind !== 'boleto' && kind !== 'bolepix') {
    throw new ReceiptError(
      'INVALID_INPUT',
      `Transaction ${transaction.id} is a ${kind} payment, not a boleto: there is no boleto slip.`,
    );
  }
  const boleto = transaction.boleto;
  if (boleto === undefined || !/^[0-9]{44}$/.test(boleto.barcode)) {
    throw new ReceiptError('INVALID_INPUT', `Transaction ${transaction.id} carries no 44-digit boleto barcode.`);
  }
  if (kind === 'bolepix' && transaction.pix === undefined) {
    throw new ReceiptError('INVALID_INPUT', `Bolepix ${transaction.id} carries no Pix QR code.`);
  }
  const blocks: PrintBlock[] = [];
  const training = options.training === true;
  if (training) blocks.push({ kind: 'text', text: TRAINING_TEXT, align: 'center', bold: true });
  blocks.push({ kind: 'text', text: settings.merchant.name, align: 'center', bold: true });
  blocks.push({ kind: 'text', text: `CNPJ ${formatTaxId(settings.merchant.cnpj)}`, align: 'center' });
  blocks.push({ kind: 'rule' });
  blocks.push({
    kind: 'text',
    text: kind === 'bolepix' ? 'BOLETO COM PIX' : 'BOLETO BANCÁRIO',
    align: 'center',
    bold: true,
  });
  if (options.reprint === true) blocks.push({ kind: 'text', text: '*** REIMPRESSÃO ***', align: 'center', bold: true });
  if (boleto.status === 'canceled')
    blocks.push({ kind: 'text', text: 'CANCELADO - NÃO PAGUE', align: 'center', bold: true, large: true });
  blocks.push({ kind: 'rule' });
  blocks.push({ kind: 'pair', label: 'VALOR', value: formatBrl(transaction.amount), bold: true });
  blocks.push({ kind: 'pair', label: 'VENCIMENTO', value: formatDateBr(boleto.expiration_date), bold: true });
  if (boleto.payment_limit_date !== boleto.expiration_date) {
    blocks.push({ kind: 'pair', label: 'PAGÁVEL ATÉ', value: formatDateBr(boleto.payment_limit_date) });
  }
  if (transaction.description !== null && transaction.description !== '')
    blocks.push({ kind: 'text', text: transaction.description });
  blocks.push({ kind: 'pair', label: 'ID', value: transaction.id });
  blocks.push({ kind: 'rule' });
  blocks.push({ kind: 'text', text: 'LINHA DIGITÁVEL', align: 'center', bold: true });
  blocks.push({ kind: 'text', text: boleto.digitable_line, align: 'center' });
  blocks.push({ kind: 'feed', lines: 1 });
  if ((options.columns ?? 48) > 32) blocks.push({ kind: 'barcode', symbology: 'itf', data: boleto.barcode });
  else blocks.push({ kind: 'text', text: 'Pague digitando a linha acima no app do seu banco.', align: 'center' });
  if (kind === 'bolepix' && transaction.pix !== undefined) {
    blocks.push({ kind: 'rule' });
    blocks.push(
      ...pixQrBlocks({
        brCode: transaction.pix.qr_code,
        expiresAt: transaction.pix.expiration_date_time,
        timeZone: storeTimeZone(settings.time_zone),
      }),
    );
  }
  if (training) blocks.push({ kind: 'text', text: TRAINING_TEXT, align: 'center', bold: true });
  const title = `${kind === 'bolepix' ? 'Boleto com Pix' : 'Boleto'} de ${formatBrl(transaction.amount)}`;
  return { title: options.reprint === true ? `${title} (reimpressão)` : title, blocks, cut: true };
}
