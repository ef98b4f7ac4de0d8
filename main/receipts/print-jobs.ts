/**
 * The print journal: every print job in a SQLite file (WAL) before it goes to a printer, with the
 * document it prints, so a receipt that could not be printed — paper out, printer off, the agent
 * killed mid-job — is retried or reprinted later and never lost. A job left `printing` by a crash
 * goes back to the queue at the next open: printing a receipt twice beats not printing it.
 *
 * The documents are built from the payment journal's masked data: no card data here either.
 */
import { randomBytes } from 'node:crypto';
import { isIoFault } from '../../lib/io-faults.js';
import { openDatabase, type Migration, type SqliteDatabase } from '../storage/sqlite.js';
import type { PrintDocument } from '../../drivers/printers/document.js';
import { ReceiptError } from './errors.js';

export type PrintJobState = 'queued' | 'printing' | 'printed' | 'failed' | 'cancelled';

export interface PrintJobError {
  /** The printer's machine code (PAPER_OUT, UNREACHABLE…) or INTERRUPTED after a crash. */
  readonly code: string;
  readonly message: string;
}

export interface PrintJob {
  readonly id: string;
  /** The printer's name in the settings ("default"). */
  readonly printer: string;
  /** What it prints, for lookups: "payment:<reference_id>:customer", "boleto:<transaction id>"… */
  readonly subject: string;
  readonly title: string;
  readonly document: PrintDocument;
  readonly state: PrintJobState;
  readonly attempts: number;
  readonly lastError: PrintJobError | null;
  /** ISO time of the next attempt while queued; null once it ended. */
  readonly nextAttemptAt: string | null;
  /** The job this one reprints, if it is a reprint. */
  readonly reprintOf: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly printedAt: string | null;
}

export interface NewPrintJob {
  /** Its id when it has one already (a job the queue held in memory while the disk was full). */
  readonly id?: string;
  readonly printer: string;
  readonly subject: string;
  readonly document: PrintDocument;
  readonly reprintOf?: string | null;
}

/**
 * Version 1. Files written before the schema was versioned have these tables at user_version 0:
 * the statements say IF NOT EXISTS, so on such a file the step only records the version.
 */
const V1 = `
CREATE TABLE IF NOT EXISTS print_jobs (
  id              TEXT PRIMARY KEY,
  printer         TEXT NOT NULL,
  subject         TEXT NOT NULL,
  title           TEXT NOT NULL,
  document_json   TEXT NOT NULL,
  state           TEXT NOT NULL,
  attempts        INTEGER NOT NULL,
  last_error_json TEXT,
  next_attempt_at TEXT,
  reprint_of      TEXT,
  created_at      TEXT NOT NULL,
  updated_at      TEXT NOT NULL,
  printed_at      TEXT
);
CREATE INDEX IF NOT EXISTS print_jobs_by_subject ON print_jobs (subject, created_at);
CREATE INDEX IF NOT EXISTS print_jobs_waiting ON print_jobs (printer, created_at) WHERE state IN ('queued', 'printing');
`;

/** MIGRATIONS[i] takes the file from version i to version i + 1. */
export const PRINT_JOURNAL_MIGRATIONS: readonly Migration[] = [V1];

interface Row {
  id: string;
  printer: string;
  subject: string;
  title: string;
  document_json: string;
  state: string;
  attempts: number;
  last_error_json: string | null;
  next_attempt_at: string | null;
  reprint_of: string | null;
  created_at: string;
  updated_at: string;
  printed_at: string | null;
}

/** What a printed or cancelled job keeps of its document: nothing. */
const BLANK_DOCUMENT = JSON.stringify({ title: '', blocks: [] });

const STATES: ReadonlySet<string> = new Set<PrintJobState>(['queued', 'printing', 'printed', 'failed', 'cancelled']);

function toJob(row: Row): PrintJob {
  if (!STATES.has(row.state))
    throw new ReceiptError('INVALID_RECORD', `Print job ${row.id} has an unknown state "${row.state}".`);
  let document: PrintDocument;
  let lastError: PrintJobError | null;
  try {
    document = JSON.parse(row.document_json) as PrintDocument;
    lastError = row.last_error_json === null ? null : (JSON.parse(row.last_error_json) as PrintJobError);
  } catch (error) {
    throw new ReceiptError('INVALID_RECORD', `Print job ${row.id} cannot be read back: ${String(error)}`, {
      cause: error,
    });
  }
  return {
    id: row.id,
    printer: row.printer,
    subject: row.subject,
    title: row.title,
    document,
    state: row.state as PrintJobState,
    attempts: row.attempts,
    lastError,
    nextAttemptAt: row.next_attempt_at,
    reprintOf: row.reprint_of,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    printedAt: row.printed_at,
  };
}

export interface PrintJournalOptions {
  readonly now?: () => Date;
}

export class PrintJournal {
  readonly path: string;
  readonly #db: SqliteDatabase;
  readonly #now: () => Date;
  /** Jobs a crash left `printing` are still to go back to the queue: the disk was full at open. */
  #requeuePending = true;

  private constructor(path: string, db: SqliteDatabase, now: () => Date) {
    this.path = path;
    this.#db = db;
    this.#now = now;
  }

  /** Opens (creating it) the print journal; jobs a crash left `printing` go back to the queue. */
  static open(path: string, options: PrintJournalOptions = {}): PrintJournal {
    const db = openDatabase(path, {
      pragmas: {
        journal_mode: 'WAL',
        // A queued job must survive a power cut like the receipt it prints.
        synchronous: 'FULL',
        // A printed receipt's document (the customer's CPF on its copy) is blanked once printed:
        // zeroed in the file too, not left in free pages.
        secure_delete: true,
      },
      migrations: PRINT_JOURNAL_MIGRATIONS,
      // On a full disk it opens read-only (held) and writes again once there is room (issue 33).
      whenFull: 'hold',
    });
    try {
      const journal = new PrintJournal(path, db, options.now ?? (() => new Date()));
      journal.#requeueInterrupted();
      return journal;
    } catch (error) {
      db.close();
      throw error;
    }
  }

  #at(): string {
    return this.#now().toISOString();
  }

  /** Opened on a full disk: read-only until there is room (each write tries again). */
  get held(): boolean {
    return this.#db.held;
  }

  /** Jobs a crash left `printing` go back to the queue; on a full disk, at the first read after there is room. */
  #requeueInterrupted(): void {
    if (!this.#requeuePending) return;
    const at = this.#at();
    try {
      this.#db.write(() =>
        this.#db
          .statement(
            `UPDATE print_jobs SET state = 'queued', next_attempt_at = @at, updated_at = @at, last_error_json = @error WHERE state = 'printing'`,
          )
          .run({
            at,
            error: JSON.stringify({ code: 'INTERRUPTED', message: 'the agent stopped while this job was printing' }),
          }),
      );
      this.#requeuePending = false;
    } catch (error) {
      if (!isIoFault(error)) throw error;
    }
  }

  enqueue(job: NewPrintJob): PrintJob {
    const at = this.#at();
    const row: Row = {
      id: job.id ?? randomBytes(16).toString('hex'),
      printer: job.printer,
      subject: job.subject,
      title: job.document.title,
      document_json: JSON.stringify(job.document),
      state: 'queued',
      attempts: 0,
      last_error_json: null,
      next_attempt_at: at,
      reprint_of: job.reprintOf ?? null,
      created_at: at,
      updated_at: at,
      printed_at: null,
    };
    // Through write(): a file held on a full disk tries to open as it should first.
    this.#db.write(() =>
      this.#db
        .statement(
          `INSERT INTO print_jobs (id, printer, subject, title, document_json, state, attempts, last_error_json, next_attempt_at, reprint_of, created_at, updated_at, printed_at)
         VALUES (@id, @printer, @subject, @title, @document_json, @state, @attempts, @last_error_json, @next_attempt_at, @reprint_of, @created_at, @updated_at, @printed_at)`,
        )
        .run(row),
    );
    return toJob(row);
  }

  get(id: string): PrintJob | undefined {
    const row = this.#db.statement('SELECT * FROM print_jobs WHERE id = ?').get(id) as Row | undefined;
    return row === undefined ? undefined : toJob(row);
  }

  /** Jobs of a subject (or all), newest first. */
  list(query: { subject?: string; states?: readonly PrintJobState[]; limit?: number } = {}): PrintJob[] {
    const where: string[] = [];
    const params: Record<string, unknown> = { limit: Math.min(1000, Math.max(1, query.limit ?? 100)) };
    if (query.subject !== undefined) {
      where.push('subject = @subject');
      params.subject = query.subject;
    }
    if (query.states !== undefined) {
      where.push(`state IN (${query.states.map((_, i) => `@s${i}`).join(', ') || "''"})`);
      query.states.forEach((state, i) => (params[`s${i}`] = state));
    }
    const sql = `SELECT * FROM print_jobs ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, rowid DESC LIMIT @limit`;
    return (this.#db.statement(sql).all(params) as Row[]).map(toJob);
  }

  /** The queued jobs of a printer, oldest first: the order they must print in. */
  waiting(printer: string): PrintJob[] {
    this.#requeueInterrupted();
    return (
      this.#db
        .statement(
          `SELECT * FROM print_jobs WHERE printer = ? AND state IN ('queued', 'printing') ORDER BY created_at, rowid`,
        )
        .all(printer) as Row[]
    ).map(toJob);
  }

  /** Printers with jobs waiting. */
  printersWaiting(): string[] {
    this.#requeueInterrupted();
    return (
      this.#db.statement(`SELECT DISTINCT printer FROM print_jobs WHERE state IN ('queued', 'printing')`).all() as {
        printer: string;
      }[]
    ).map((r) => r.printer);
  }

  #update(id: string, sets: string, params: Record<string, unknown>, from: readonly PrintJobState[]): PrintJob {
    const at = this.#at();
    const result = this.#db.write(() =>
      this.#db
        .statement(
          `UPDATE print_jobs SET ${sets}, updated_at = @at WHERE id = @id AND state IN (${from.map((s) => `'${s}'`).join(', ')})`,
        )
        .run({ ...params, id, at }),
    );
    const job = this.get(id);
    if (job === undefined) throw new ReceiptError('NOT_FOUND', `There is no print job ${id}.`);
    if (result.changes === 0)
      throw new ReceiptError('INVALID_INPUT', `Print job ${id} is ${job.state}: it cannot be changed that way.`);
    return job;
  }

  markPrinting(id: string): PrintJob {
    return this.#update(id, `state = 'printing', attempts = attempts + 1, next_attempt_at = NULL`, {}, ['queued']);
  }

  /**
   * Printed: its document is no longer needed (a reprint is laid out again from the payment), so
   * it is blanked — a copy of a receipt (with the customer's CPF) is kept only until it is on paper.
   */
  markPrinted(id: string): PrintJob {
    const job = this.#update(
      id,
      `state = 'printed', printed_at = @at, last_error_json = NULL, document_json = @blank`,
      { blank: BLANK_DOCUMENT },
      ['printing'],
    );
    this.#forgetOldPages();
    return job;
  }

  /** Back to the queue until `nextAttemptAt`, or `failed` (null: no more automatic attempts; reprint on demand). */
  markFailed(id: string, error: PrintJobError, nextAttemptAt: string | null): PrintJob {
    return this.#update(
      id,
      `state = @state, last_error_json = @error, next_attempt_at = @next`,
      { state: nextAttemptAt === null ? 'failed' : 'queued', error: JSON.stringify(error), next: nextAttemptAt },
      ['printing'],
    );
  }

  /** A failed (or waiting) job due again now: the cashier's "try again". */
  retryNow(id: string): PrintJob {
    return this.#update(id, `state = 'queued', next_attempt_at = @at`, {}, ['queued', 'failed']);
  }

  cancel(id: string): PrintJob {
    const job = this.#update(
      id,
      `state = 'cancelled', next_attempt_at = NULL, document_json = @blank`,
      { blank: BLANK_DOCUMENT },
      ['queued', 'failed'],
    );
    this.#forgetOldPages();
    return job;
  }

  /** The write-ahead log still holds the blanked document's old page: copied into the file and truncated. */
  #forgetOldPages(): void {
    // False when a reader holds the log: the next print does it.
    this.#db.truncateLog();
  }

  close(): void {
    this.#db.close();
  }
}
