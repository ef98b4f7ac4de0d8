/**
 * Every read of the journal: one payment, the lists recovery and the window read, pages for
 * exports, a payment's history. A damaged row in a list is reported (onCorrupt) and left out, so
 * the journal stays usable and the damage is still seen; one payment asked for by its key is
 * CORRUPT, naming it. The Journal (journal.ts) is this reader with the writes besides.
 */
import type { SqliteDatabase } from '../../storage/sqlite.js';
import { startOfDay } from '../../locale/store-time.js';
import { JournalError, journalErrorOf } from './errors.js';
import type { JournalEvent, ListQuery, PaymentRecord } from './record.js';
import { toEvent, toRecord, type EventRow, type PaymentRow } from './rows.js';
import {
  COLUMNS,
  LIST_DEFAULT_LIMIT,
  LIST_MAX_LIMIT,
  listFilter,
  PAYMENT_BY_ID,
  PENDING_CONFIRMATIONS_SQL,
  PENDING_UNDOS_SQL,
  RECORDS_PAGE,
  UNFINISHED_SQL,
} from './sql.js';

/** A range of createdAt for `records` (ISO; from inclusive, to exclusive). */
export interface RecordRange {
  readonly from?: string;
  readonly to?: string;
}

export class JournalReader {
  readonly path: string;
  readonly #db: SqliteDatabase;
  readonly #now: () => Date;
  readonly #onCorrupt: (error: JournalError) => void;

  protected constructor(path: string, db: SqliteDatabase, now: () => Date, onCorrupt: (error: JournalError) => void) {
    this.path = path;
    this.#db = db;
    this.#now = now;
    this.#onCorrupt = onCorrupt;
  }

  /** The payment with this journal id; CORRUPT (naming the id) when its row cannot be read. */
  get(id: string): PaymentRecord | undefined {
    return this.#one(PAYMENT_BY_ID, id);
  }

  findByReference(referenceId: string): PaymentRecord | undefined {
    return this.#one(`SELECT ${COLUMNS} FROM payments WHERE reference_id = ?`, referenceId);
  }

  /** The oldest payment carrying this API transaction id. */
  findByTransactionId(transactionId: string): PaymentRecord | undefined {
    return this.#one(
      `SELECT ${COLUMNS} FROM payments WHERE transaction_id = ? ORDER BY created_at, rowid LIMIT 1`,
      transactionId,
    );
  }

  /** Every payment not in a final state, oldest first: what recovery reads at start-up. */
  unfinished(): PaymentRecord[] {
    return this.#many(UNFINISHED_SQL);
  }

  /** Approved payments waiting for the POS's confirmation (or the deadline), oldest first. */
  pendingConfirmations(): PaymentRecord[] {
    return this.#many(PENDING_CONFIRMATIONS_SQL);
  }

  /** The undo queue (aborting, reversing, undoing): by pendingUndo.nextAttemptAt, never-tried first, then oldest. */
  pendingUndos(): PaymentRecord[] {
    const records = this.#many(PENDING_UNDOS_SQL);
    // Sorted here rather than by json_extract in SQL: a damaged JSON column must not fail the query.
    const due = (record: PaymentRecord): string => record.pendingUndo?.nextAttemptAt ?? '';
    return records.sort((a, b) => (due(a) < due(b) ? -1 : due(a) > due(b) ? 1 : 0));
  }

  /** A page of payments, newest first, and how many match in all. */
  list(query: ListQuery = {}): { items: PaymentRecord[]; total: number } {
    const { where, params } = listFilter(query);
    const limit = Math.min(LIST_MAX_LIMIT, Math.max(1, Math.floor(query.limit ?? LIST_DEFAULT_LIMIT)));
    const offset = Math.max(0, Math.floor(query.offset ?? 0));
    return this.#read(() => {
      const { total } = this.#db.statement(`SELECT COUNT(*) AS total FROM payments ${where}`).get(params) as {
        total: number;
      };
      const items = this.#many(
        `SELECT ${COLUMNS} FROM payments ${where} ORDER BY created_at DESC, rowid DESC LIMIT @limit OFFSET @offset`,
        {
          ...params,
          limit,
          offset,
        },
      );
      return { items, total };
    });
  }

  /**
   * Every payment created since midnight (of `now`) on the store's clock (`timeZone`, see
   * locale/store-time.ts), newest first: the day the cashier and the receipts mean, whatever
   * zone the computer is set to.
   */
  today(timeZone: string, now: Date = this.#now()): PaymentRecord[] {
    const midnight = startOfDay(now, timeZone);
    return this.#many(
      `SELECT ${COLUMNS} FROM payments WHERE created_at >= ? ORDER BY created_at DESC, rowid DESC`,
      midnight.toISOString(),
    );
  }

  /**
   * Every payment in `range`, oldest first, a page at a time (the connection is free between
   * pages, so the caller may read each payment's events as it goes). For exports.
   */
  *records(range: RecordRange = {}): Generator<PaymentRecord> {
    const { where, params } = listFilter(range);
    const after =
      where === ''
        ? 'WHERE (created_at, rowid) > (@afterAt, @afterRow)'
        : `${where} AND (created_at, rowid) > (@afterAt, @afterRow)`;
    const sql = `SELECT rowid AS row_key, ${COLUMNS} FROM payments ${after} ORDER BY created_at, rowid LIMIT ${RECORDS_PAGE}`;
    let afterAt = '';
    let afterRow = 0;
    for (;;) {
      const rows = this.#read(
        () => this.#db.statement(sql).all({ ...params, afterAt, afterRow }) as (PaymentRow & { row_key: number })[],
      );
      for (const row of rows) {
        const record = this.#parse(row);
        if (record) yield record;
      }
      const last = rows.at(-1);
      if (!last || rows.length < RECORDS_PAGE) return;
      afterAt = last.created_at;
      afterRow = last.row_key;
    }
  }

  /** A payment's history, in order; empty for an unknown id. */
  events(id: string): JournalEvent[] {
    const rows = this.#read(
      () =>
        this.#db
          .statement(
            'SELECT payment_id, seq, at, from_state, to_state, note FROM events WHERE payment_id = ? ORDER BY seq',
          )
          .all(id) as EventRow[],
    );
    return rows.map(toEvent);
  }

  /** Runs `work` outside a transaction (autocommit); storage errors become JournalErrors. */
  #read<T>(work: () => T): T {
    try {
      return this.#db.autocommit(work);
    } catch (error) {
      throw journalErrorOf(error, this.path);
    }
  }

  #one(sql: string, key: string): PaymentRecord | undefined {
    const row = this.#read(() => this.#db.statement(sql).get(key) as PaymentRow | undefined);
    return row === undefined ? undefined : toRecord(row);
  }

  /** The rows of `sql` as records; a damaged row is reported to onCorrupt and left out. */
  #many(sql: string, params: unknown = []): PaymentRecord[] {
    const rows = this.#read(() => this.#db.statement(sql).all(params) as PaymentRow[]);
    const records: PaymentRecord[] = [];
    for (const row of rows) {
      const record = this.#parse(row);
      if (record) records.push(record);
    }
    return records;
  }

  #parse(row: PaymentRow): PaymentRecord | undefined {
    try {
      return toRecord(row);
    } catch (error) {
      if (!(error instanceof JournalError)) throw error;
      this.#onCorrupt(error);
      return undefined;
    }
  }
}
