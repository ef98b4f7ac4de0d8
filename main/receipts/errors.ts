/** The receipts' one error type: a stable `code` for the POS and the CLI, an English sentence. */
import { CodedError } from '../../lib/errors.js';

export type ReceiptErrorCode =
  /** The payment is still running: its receipt comes when it ends. */
  | 'NOT_READY'
  /** The payment ended without a card sale to show (failed, cancelled before a card was read). */
  | 'NO_RECEIPT'
  /** No payment or document with that reference / id. */
  | 'NOT_FOUND'
  /** The journal's record breaks a receipt's rules (an unmasked PAN, a time that is no time). */
  | 'INVALID_RECORD'
  /** The receipt settings are unusable (an unknown time zone). */
  | 'INVALID_SETTINGS'
  /** A slip's input is not what it must be (a barcode of the wrong length…). */
  | 'INVALID_INPUT';

export class ReceiptError extends CodedError<ReceiptErrorCode> {
  constructor(code: ReceiptErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}
