/**
 * The Pix part of a slip, shared by the boleto slip (a bolepix's "pay at once" block) and the Pix
 * slip a cashier prints on demand (pix.print): the heading, what to do, the QR of the BR Code and
 * until when the code is valid, on the store's clock. One builder, so both papers tell the
 * customer the same thing in the same words.
 */
import type { PrintBlock } from '../../drivers/printers/document.js';
import { formatBrl, formatDateTimeBr } from '../locale/br-format.js';
import { ReceiptError } from './errors.js';

export interface PixQrInput {
  /** The Pix "copia e cola" payload (the bolepix's pix.qr_code). */
  readonly brCode: string;
  /** ISO 8601 with offset: when the Pix code stops being payable. */
  readonly expiresAt: string;
  /** The store's IANA time zone (storeTimeZone). */
  readonly timeZone: string;
  /** Centavos: printed large under the heading, when the slip has no amount of its own above. */
  readonly amount?: number;
}

/** "2026-12-10T23:59:59-03:00" → "10/12/2026 23:59" on the store's clock; INVALID_INPUT when it is no time. */
export function pixExpiry(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) throw new ReceiptError('INVALID_INPUT', `The Pix expiry "${iso}" is not a time.`);
  return formatDateTimeBr(at, timeZone);
}

/**
 * "PAGUE COM PIX", (the amount), "Aponte a câmera…", the QR, "Pix válido até dd/mm/aaaa hh:mm".
 * The instruction comes before the QR: the customer reads it on the way down to the code.
 */
export function pixQrBlocks(input: PixQrInput): PrintBlock[] {
  const expiry = pixExpiry(input.expiresAt, input.timeZone);
  return [
    { kind: 'text', text: 'PAGUE COM PIX', align: 'center', bold: true },
    ...(input.amount === undefined
      ? []
      : [{ kind: 'text' as const, text: formatBrl(input.amount), align: 'center' as const, bold: true, large: true }]),
    { kind: 'text', text: 'Aponte a câmera do app do seu banco', align: 'center' },
    { kind: 'qrcode', data: input.brCode },
    { kind: 'text', text: `Pix válido até ${expiry}`, align: 'center' },
  ];
}
