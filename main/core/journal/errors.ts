/** The journal's one error type: a stable `code` for the engine, an English sentence for logs. */
import { CodedError } from '../../../lib/errors.js';
import { sqliteErrorOf, StorageError } from '../../storage/sqlite.js';

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

/**
 * The storage module's error as a JournalError: busy, damaged, foreign or newer files and a full
 * disk become JournalErrors; anything else is a bug and stays as SQLite threw it.
 */
export function journalErrorOf(error: unknown, path: string): unknown {
  if (!(error instanceof StorageError)) return error;
  const cause = { cause: error.cause ?? error };
  switch (error.code) {
    case 'LOCKED':
      return new JournalError('LOCKED', `the journal ${path} is locked by another process: ${error.detail}`, cause);
    case 'CORRUPT':
      return new JournalError('CORRUPT', `the journal ${path} is damaged or not a journal: ${error.detail}`, cause);
    case 'TOO_NEW':
      return new JournalError(
        'CORRUPT',
        `the journal is at schema version ${error.version?.found ?? '?'}, newer than this Pinbridge understands (${error.version?.supported ?? '?'}); update Pinbridge`,
      );
    case 'DISK_FULL':
      return new JournalError('DISK_FULL', `the disk of the journal ${path} is full: ${error.detail}`, cause);
    case 'NOT_FOUND':
      return new JournalError('NOT_FOUND', `there is no journal at ${path}`);
    case 'READ_ONLY':
      // Never a JournalError of its own: callers see what SQLite said, as before.
      return sqliteErrorOf(error);
  }
}

/** SQLite reports ENOSPC as SQLITE_FULL (a write, a growing write-ahead log or checkpoint). */
export function isDiskFull(error: unknown): boolean {
  return error instanceof StorageError && error.code === 'DISK_FULL';
}
