/** The journal's one error type: a stable `code` for the engine, an English sentence for logs. */
import { CodedError } from '../../../lib/errors.js';

export type JournalErrorCode =
  /** createIntent: another payment already holds this reference. */
  | 'REFERENCE_EXISTS'
  /** No payment with this id (or no journal file where one was required). */
  | 'NOT_FOUND'
  /** The move is not in TRANSITIONS, or the payment is already final. */
  | 'INVALID_TRANSITION'
  /** A row (or the file) cannot be read back: damaged column, unknown state, not a journal. */
  | 'CORRUPT'
  /** Another process held the write lock longer than the busy timeout. */
  | 'LOCKED'
  /** A string about to be written looks like a full card number: refused, nothing written. */
  | 'CARD_DATA'
  /** A new payment or a patch breaks the record's own rules (amount, installments…). */
  | 'INVALID_RECORD'
  /** The disk refused a write or an fsync: what was committed may not survive a power cut. */
  | 'IO'
  /** The journal's disk is full (its reserve already given back): nothing of the write was kept. */
  | 'DISK_FULL';

export class JournalError extends CodedError<JournalErrorCode> {
  /** The payment the error is about, when there is one (a CORRUPT row names its id). */
  readonly paymentId: string | undefined;

  constructor(code: JournalErrorCode, message: string, options: { paymentId?: string; cause?: unknown } = {}) {
    super(code, message, options);
    this.paymentId = options.paymentId;
  }
}
