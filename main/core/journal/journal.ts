/**
 * The payment journal: one SQLite file that every step of a payment is written to *before* the
 * side effect it announces, so that after a kill -9 or a power cut the next start knows what was
 * in flight (architecture §6: nothing lost, exactly once).
 *
 * - Durability: WAL; every commit survives a kill -9 the moment the call returns. New intents
 *   and moves into SYNCED_STATES (states.ts: the answers to the POS, a void the POS asked for)
 *   commit with synchronous=FULL (and F_FULLFSYNC on macOS): on the disk itself before the call
 *   returns — or, through `transitionsSyncedLater`, with an fsync of the write-ahead log on a
 *   libuv thread while the caller waits on the PINPAD, and a promise the caller awaits before it
 *   answers anyone. The other moves commit with synchronous=NORMAL and reach the disk with the
 *   next synced commit; after a power cut recovery repairs them from the API. An fsync per step
 *   would cost more than the PINPAD and the API together.
 * - Every change is one IMMEDIATE transaction that re-reads the row, checks the move against
 *   TRANSITIONS, writes the row and appends its event; two processes on one file serialize on
 *   the write lock (busy timeout) instead of failing half-way.
 * - Recovery reads only unfinished rows, through a partial index (`finished_at IS NULL`): start-up
 *   costs the same with ten payments or a million finished ones.
 * - No card data at rest: every string is searched for a full card number before writing.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, fsync, openSync } from 'node:fs';
import {
  isMemoryPath,
  openDatabase,
  sqliteErrorOf,
  StorageError,
  type SqliteDatabase,
  type Statement,
} from '../../storage/sqlite.js';
import { startOfDay } from '../../locale/store-time.js';
import { canMove, isFinal, SYNCED_STATES, UNDO_STATES, type PaymentState } from '../states.js';
import { DEFAULT_MIN_FREE_BYTES, DEFAULT_RESERVE_BYTES, DiskReserve, type DiskRoom } from './disk-reserve.js';
import { JournalError } from './errors.js';
import { checkNewPayment, checkPatch, maskDiagnostics, refuseCardData } from './guard.js';
import type { JournalEvent, ListQuery, NewPayment, PaymentPatch, PaymentRecord } from './record.js';
import { PAYMENT_COLUMNS, toEvent, toRecord, toRow, type EventRow, type PaymentRow } from './rows.js';
import { MIGRATIONS } from './schema.js';

export { JournalError, type JournalErrorCode } from './errors.js';
export type { DiskRoom } from './disk-reserve.js';

/** One move of `transitions`. */
export interface JournalMove {
  readonly to: PaymentState;
  readonly patch?: PaymentPatch;
  readonly note?: string;
}

export interface JournalOptions {
  /** The clock for createdAt/updatedAt/finishedAt and event times (tests pass their own). */
  readonly now?: () => Date;
  /**
   * Told about each damaged row a list skips (unfinished, pendingUndos, list, today, records…),
   * so the journal stays usable and the damage is still seen. Default: a process warning.
   */
  readonly onCorrupt?: (error: JournalError) => void;
  /** Refuse to create a missing file (NOT_FOUND): support tools read a journal, never make one. */
  readonly mustExist?: boolean;
  /** How long a write waits for another process's write lock before LOCKED. Default 5000 ms. */
  readonly busyTimeoutMs?: number;
  /** The reserve given back to the disk when it fills (disk-reserve.ts); 0: none. Default 8 MiB. */
  readonly reserveBytes?: number;
  /** Free space (beyond the reserve) below which `room()` says no new sale fits. Default 32 MiB. */
  readonly minFreeBytes?: number;
  /** Told when the disk filled and the reserve was given back. Default: a process warning. */
  readonly onDiskFull?: (message: string) => void;
}

/** What `transitionsSyncedLater` returns: the records now, their fsync later. */
export interface StagedMoves {
  /** The record after each move: committed (safe from kill -9) already. */
  readonly records: PaymentRecord[];
  /** Settles when the commit is on the disk itself; rejects (IO) when the fsync failed. */
  readonly onDisk: Promise<void>;
}

/** A range of createdAt for `records` (ISO; from inclusive, to exclusive). */
export interface RecordRange {
  readonly from?: string;
  readonly to?: string;
}

export const LIST_DEFAULT_LIMIT = 100;
export const LIST_MAX_LIMIT = 1000;
const RECORDS_PAGE = 500;
const DEFAULT_BUSY_TIMEOUT_MS = 5000;

const COLUMNS = PAYMENT_COLUMNS.join(', ');
const INSERT_PAYMENT = `INSERT INTO payments (${COLUMNS}) VALUES (${PAYMENT_COLUMNS.map((c) => `@${c}`).join(', ')})`;
/**
 * The UPDATE of just the columns a move changed: SQLite rewrites an index only when its columns
 * are assigned, and a move rarely touches the reference, the transaction id or finished_at — so
 * most commits write the row and its event, not four indexes besides.
 */
function updateSql(columns: readonly string[]): string {
  return `UPDATE payments SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`;
}
const INSERT_EVENT = `INSERT INTO events (payment_id, seq, at, from_state, to_state, note)
  VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE payment_id = ?), ?, ?, ?, ?)`;
/** Every query of unfinished rows says `finished_at IS NULL` so SQLite picks the partial index. */
export const UNFINISHED_SQL = `SELECT ${COLUMNS} FROM payments WHERE finished_at IS NULL ORDER BY created_at, rowid`;
const UNDO_STATE_LIST = [...UNDO_STATES].map((s) => `'${s}'`).join(', ');

/** The fields of PaymentPatch, the only ones a transition or an update may change. */
const PATCH_FIELDS = [
  'installments',
  'transactionId',
  'card',
  'authorization',
  'problem',
  'customerTaxId',
  'confirmDeadline',
  'pendingUndo',
] as const satisfies readonly (keyof PaymentPatch)[];

/**
 * A field inside a JSON column, NULL when the column is not valid JSON: json_extract throws on a
 * damaged row ("malformed JSON"), which would fail the whole query; this way the damaged row just
 * does not match, and the lists that read it still report it (onCorrupt). CASE evaluates lazily,
 * so json_extract never sees the damaged text.
 */
function jsonField(column: 'card_json' | 'authorization_json', path: string): string {
  return `(CASE WHEN json_valid(${column}) THEN json_extract(${column}, '${path}') END)`;
}

const isMemory = isMemoryPath;

/**
 * Busy, damaged, foreign or newer files and a full disk become JournalErrors; anything else is a
 * bug and stays as SQLite threw it.
 */
function translate(error: unknown, path: string): unknown {
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
function isDiskFull(error: unknown): boolean {
  return error instanceof StorageError && error.code === 'DISK_FULL';
}

export class Journal {
  readonly path: string;
  readonly #db: SqliteDatabase;
  readonly #now: () => Date;
  readonly #onCorrupt: (error: JournalError) => void;
  /** The connection's current synchronous level: FULL (true) or NORMAL. */
  #synced = true;
  /** Our own descriptor of the write-ahead log, for fsyncs off the event loop (opened on first use). */
  #walFd: number | undefined;
  /** The fsync in flight, and the one queued behind it for commits made meanwhile (group commit). */
  #flushing: Promise<void> | undefined;
  #flushQueued: Promise<void> | undefined;
  /** Room kept on the disk for the steps of payments in flight; none for a journal in memory. */
  readonly #reserve: DiskReserve | undefined;
  readonly #onDiskFull: (message: string) => void;

  private constructor(path: string, db: SqliteDatabase, options: JournalOptions) {
    this.path = path;
    this.#db = db;
    this.#now = options.now ?? (() => new Date());
    this.#onCorrupt =
      options.onCorrupt ?? ((error) => process.emitWarning(error.message, { code: 'PINBRIDGE_JOURNAL_CORRUPT' }));
    this.#onDiskFull =
      options.onDiskFull ?? ((message) => process.emitWarning(message, { code: 'PINBRIDGE_DISK_FULL' }));
    if (!isMemory(path) && !options.mustExist) {
      this.#reserve = new DiskReserve(path, {
        reserveBytes: options.reserveBytes ?? DEFAULT_RESERVE_BYTES,
        minFreeBytes: options.minFreeBytes ?? DEFAULT_MIN_FREE_BYTES,
      });
      this.#reserve.ensure();
    }
  }

  /**
   * Whether a new sale fits on the journal's disk: the reserve in place (put back first when the
   * disk has room again) and enough free space besides. Always enough for a journal in memory.
   */
  room(): DiskRoom {
    // Opened on a full disk: read-only until it opens as it should (tried again here, before each sale).
    const held = this.#db.held && !this.#reopen();
    const room = this.#reserve?.room() ?? { freeBytes: Number.MAX_SAFE_INTEGER, reserveHeld: true, enough: true };
    return held ? { ...room, enough: false } : room;
  }

  /**
   * Opened on a full disk (Journal.open): readable — recovery and payment.status tell the truth —
   * but every write is refused (DISK_FULL) until there is room; `room()` and each write try again.
   */
  get held(): boolean {
    return this.#db.held;
  }

  #reopen(force = false): boolean {
    try {
      return this.#db.reopen(force);
    } catch (error) {
      throw translate(error, this.path);
    }
  }

  /** Opens (creating directories, file and schema unless `mustExist`) the journal at `path`; ':memory:' works. */
  static open(path: string, options: JournalOptions = {}): Journal {
    let db: SqliteDatabase | undefined;
    try {
      db = openDatabase(path, {
        mustExist: options.mustExist === true,
        pragmas: {
          busy_timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
          journal_mode: 'WAL',
          // Opened FULL (#synced); `#write` lowers it to NORMAL for the moves that may wait.
          synchronous: 'FULL',
          // macOS: a plain fsync leaves the data in the drive's cache; F_FULLFSYNC survives a power cut.
          fullfsync: true,
          foreign_keys: true,
        },
        migrations: MIGRATIONS,
        // The agent must start on a full disk (issue 33): the journal is then read, not written.
        ...(options.mustExist === true ? {} : { whenFull: 'hold' as const }),
      });
      const journal = new Journal(path, db, options);
      // The reserve is there for this: given back, the journal opens as it should and recovery can write.
      if (db.held && journal.#reserve?.release() === true) {
        journal.#onDiskFull(
          `the disk of the journal ${path} is full; its reserve was given back so that the journal opens and recovery can write`,
        );
        journal.#reopen(true);
      }
      return journal;
    } catch (error) {
      db?.close();
      throw translate(error, path);
    }
  }

  /** Journals a new payment: state `intent`, or `created` when the API transaction already exists. */
  createIntent(payment: NewPayment): PaymentRecord {
    refuseCardData(payment, undefined);
    checkNewPayment(payment);
    return this.#write(true, () => {
      const existing = this.#statement('SELECT id FROM payments WHERE reference_id = ?').get(payment.referenceId) as
        { id: string } | undefined;
      if (existing) {
        throw new JournalError(
          'REFERENCE_EXISTS',
          `reference ${payment.referenceId} is already journaled as payment ${existing.id}`,
          {
            paymentId: existing.id,
          },
        );
      }
      const at = this.#timestamp();
      const transactionId = payment.transactionId ?? null;
      const record: PaymentRecord = {
        id: randomBytes(16).toString('hex'),
        referenceId: payment.referenceId,
        source: payment.source,
        terminal: payment.terminal,
        amount: payment.amount,
        paymentType: payment.paymentType,
        installments: payment.installments,
        description: payment.description,
        notification: payment.notification,
        paramsHash: payment.paramsHash,
        confirmation: payment.confirmation,
        state: transactionId === null ? 'intent' : 'created',
        transactionId,
        card: null,
        authorization: null,
        problem: null,
        customerTaxId: null,
        confirmDeadline: null,
        pendingUndo: null,
        createdAt: at,
        updatedAt: at,
        finishedAt: null,
        owner: payment.owner ?? null,
      };
      this.#statement(INSERT_PAYMENT).run(toRow(record));
      this.#appendEvent(
        record.id,
        at,
        null,
        record.state,
        transactionId === null ? 'payment intent' : 'pending transaction picked up',
      );
      return record;
    });
  }

  /** Moves a payment to `to` (refused unless TRANSITIONS allows it), applying `patch`, with its event. */
  transition(id: string, to: PaymentState, patch: PaymentPatch = {}, note = ''): PaymentRecord {
    return this.#moves(id, [{ to, patch, note }])[0]!;
  }

  /**
   * Several moves in one commit, each checked and with its own event (the history is the same as
   * move by move): for steps with no side effect between them, so they cost one commit. Returns
   * the record after each move.
   */
  transitions(id: string, moves: readonly JournalMove[]): PaymentRecord[] {
    return this.#moves(id, moves);
  }

  /**
   * `transitions` whose fsync does not block the event loop: the moves are committed (safe from
   * kill -9) when this returns, and on the disk itself when `onDisk` resolves — the fsync runs on
   * a libuv thread meanwhile, shared with any other commit waiting for one. For a move into a
   * SYNCED_STATE that has PINPAD work to overlap (the customer taking the card out): tell no one
   * outside the process about the records before `onDisk` resolves.
   */
  transitionsSyncedLater(id: string, moves: readonly JournalMove[]): StagedMoves {
    const records = this.#moves(id, moves, false);
    return { records, onDisk: this.flush() };
  }

  /**
   * Resolves once every commit made before the call is on the disk itself: an fsync of the
   * write-ahead log (F_FULLFSYNC on macOS, through libuv) on a libuv thread. Callers that come
   * while one is in flight share the next one. At once for a journal in memory.
   */
  flush(): Promise<void> {
    if (isMemory(this.path)) return Promise.resolve();
    if (this.#flushQueued) return this.#flushQueued;
    if (!this.#flushing) {
      this.#flushing = this.#fsyncWal().finally(() => {
        this.#flushing = undefined;
      });
      return this.#flushing;
    }
    // The fsync in flight may have started before this caller's commit: one more after it.
    this.#flushQueued = this.#flushing
      .catch(() => undefined)
      .then(() => {
        this.#flushQueued = undefined;
        return this.flush();
      });
    return this.#flushQueued;
  }

  #fsyncWal(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let fd: number;
      try {
        // The -wal file exists from the first commit on; fsync through any descriptor flushes the file.
        fd = this.#walFd ??= openSync(`${this.path}-wal`, 'r+');
      } catch (error) {
        reject(
          new JournalError('IO', `the journal's write-ahead log ${this.path}-wal cannot be opened: ${String(error)}`, {
            cause: error,
          }),
        );
        return;
      }
      fsync(fd, (error) => {
        if (error?.code === 'ENOSPC')
          reject(
            new JournalError('DISK_FULL', `the disk of the journal ${this.path} is full: ${error.message}`, {
              cause: error,
            }),
          );
        else if (error)
          reject(
            new JournalError('IO', `the journal ${this.path} could not be written to the disk: ${error.message}`, {
              cause: error,
            }),
          );
        else resolve();
      });
    });
  }

  #moves(id: string, given: readonly JournalMove[], syncNow = true): PaymentRecord[] {
    const moves = given.map((move) => ({ to: move.to, ...maskDiagnostics(move.patch ?? {}, move.note ?? '') }));
    for (const move of moves) refuseCardData(move.patch, move.note, id);
    return this.#write(syncNow && moves.some((move) => SYNCED_STATES.has(move.to)), () => {
      let current = this.#readForWrite(id);
      return moves.map(({ to, patch, note }) => {
        if (!canMove(current.state, to)) {
          throw new JournalError(
            'INVALID_TRANSITION',
            `payment ${id} cannot move from ${current.state} to ${String(to)}`,
            {
              paymentId: id,
            },
          );
        }
        current = this.#save(current, to, patch, note);
        return current;
      });
    });
  }

  /** Changes a payment's fields without moving it (installments chosen, an undo attempt…), with an event. */
  update(id: string, given: PaymentPatch, givenNote = ''): PaymentRecord {
    const { patch, note } = maskDiagnostics(given, givenNote);
    refuseCardData(patch, note, id);
    return this.#write(false, () => {
      const current = this.#readForWrite(id);
      if (isFinal(current.state)) {
        throw new JournalError(
          'INVALID_TRANSITION',
          `payment ${id} is ${current.state} (final); its record no longer changes`,
          {
            paymentId: id,
          },
        );
      }
      return this.#save(current, current.state, patch, note);
    });
  }

  /**
   * Adds a line to a payment's history without changing the payment — allowed on a final one too
   * (its record stays as it is): an attempt on it that did not go through, e.g. a void refused
   * for a wrong supervisor PIN. The event goes from its state to the same state.
   */
  annotate(id: string, givenNote: string): void {
    const { note } = maskDiagnostics({}, givenNote);
    this.#write(false, () => {
      const current = this.#readForWrite(id);
      this.#appendEvent(current.id, this.#timestamp(), current.state, current.state, note);
    });
  }

  /** The payment with this journal id; CORRUPT (naming the id) when its row cannot be read. */
  get(id: string): PaymentRecord | undefined {
    return this.#one(`SELECT ${COLUMNS} FROM payments WHERE id = ?`, id);
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
    return this.#many(
      `SELECT ${COLUMNS} FROM payments WHERE finished_at IS NULL AND state = 'awaiting_confirmation' ORDER BY created_at, rowid`,
    );
  }

  /** The undo queue (aborting, reversing, undoing): by pendingUndo.nextAttemptAt, never-tried first, then oldest. */
  pendingUndos(): PaymentRecord[] {
    const records = this.#many(
      `SELECT ${COLUMNS} FROM payments WHERE finished_at IS NULL AND state IN (${UNDO_STATE_LIST}) ORDER BY created_at, rowid`,
    );
    // Sorted here rather than by json_extract in SQL: a damaged JSON column must not fail the query.
    const due = (record: PaymentRecord): string => record.pendingUndo?.nextAttemptAt ?? '';
    return records.sort((a, b) => (due(a) < due(b) ? -1 : due(a) > due(b) ? 1 : 0));
  }

  /** A page of payments, newest first, and how many match in all. */
  list(query: ListQuery = {}): { items: PaymentRecord[]; total: number } {
    const { where, params } = this.#filter(query);
    const limit = Math.min(LIST_MAX_LIMIT, Math.max(1, Math.floor(query.limit ?? LIST_DEFAULT_LIMIT)));
    const offset = Math.max(0, Math.floor(query.offset ?? 0));
    return this.#read(() => {
      const { total } = this.#statement(`SELECT COUNT(*) AS total FROM payments ${where}`).get(params) as {
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
    const { where, params } = this.#filter(range);
    const after =
      where === ''
        ? 'WHERE (created_at, rowid) > (@afterAt, @afterRow)'
        : `${where} AND (created_at, rowid) > (@afterAt, @afterRow)`;
    const sql = `SELECT rowid AS row_key, ${COLUMNS} FROM payments ${after} ORDER BY created_at, rowid LIMIT ${RECORDS_PAGE}`;
    let afterAt = '';
    let afterRow = 0;
    for (;;) {
      const rows = this.#read(
        () => this.#statement(sql).all({ ...params, afterAt, afterRow }) as (PaymentRow & { row_key: number })[],
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
        this.#statement(
          'SELECT payment_id, seq, at, from_state, to_state, note FROM events WHERE payment_id = ? ORDER BY seq',
        ).all(id) as EventRow[],
    );
    return rows.map(toEvent);
  }

  close(): void {
    const fd = this.#walFd;
    this.#walFd = undefined;
    if (fd !== undefined) {
      // An fsync in flight keeps its descriptor until it is done.
      const pending = this.#flushQueued ?? this.#flushing;
      if (pending) void pending.catch(() => undefined).finally(() => closeSync(fd));
      else closeSync(fd);
    }
    this.#db.close();
  }

  // --- internals -------------------------------------------------------------------------------

  #timestamp(): string {
    return this.#now().toISOString();
  }

  /** One compiled statement per SQL text (the storage module's cache): compiling costs more than running these. */
  #statement(sql: string): Statement {
    return this.#db.statement(sql);
  }

  /**
   * Runs `work` in one IMMEDIATE transaction (the write lock is taken before the row is re-read),
   * committed with an fsync when `synced`.
   */
  #write<T>(synced: boolean, work: () => T): T {
    try {
      if (synced !== this.#synced) {
        this.#db.setPragma('synchronous', synced ? 'FULL' : 'NORMAL');
        this.#synced = synced;
      }
      return this.#db.write(work);
    } catch (error) {
      // The disk filled: the transaction was rolled back. Give the reserve back and write again,
      // so a payment in flight still reaches its next state.
      if (isDiskFull(error) && this.#reserve?.release() === true) {
        this.#onDiskFull(
          `the disk of the journal ${this.path} is full; its reserve was given back to finish the payments in flight`,
        );
        try {
          this.#reopen(true);
          return this.#db.write(work);
        } catch (again) {
          throw translate(again, this.path);
        }
      }
      throw translate(error, this.path);
    }
  }

  #read<T>(work: () => T): T {
    try {
      return this.#db.autocommit(work);
    } catch (error) {
      throw translate(error, this.path);
    }
  }

  #readForWrite(id: string): PaymentRecord {
    const row = this.#statement(`SELECT ${COLUMNS} FROM payments WHERE id = ?`).get(id) as PaymentRow | undefined;
    if (!row) throw new JournalError('NOT_FOUND', `there is no payment ${id} in the journal`, { paymentId: id });
    return toRecord(row);
  }

  #save(current: PaymentRecord, to: PaymentState, patch: PaymentPatch, note: string): PaymentRecord {
    checkPatch(patch, current.paymentType, current.id);
    const at = this.#timestamp();
    const changes: Partial<Record<(typeof PATCH_FIELDS)[number], unknown>> = {};
    for (const field of PATCH_FIELDS) if (patch[field] !== undefined) changes[field] = patch[field];
    const next: PaymentRecord = {
      ...current,
      ...(changes as PaymentPatch),
      state: to,
      updatedAt: at,
      finishedAt: isFinal(to) ? at : null,
    };
    const before = toRow(current);
    const after = toRow(next);
    const changed = PAYMENT_COLUMNS.filter((column) => column !== 'id' && before[column] !== after[column]);
    if (changed.length > 0) {
      const values: Record<string, unknown> = { id: next.id };
      for (const column of changed) values[column] = after[column];
      this.#statement(updateSql(changed)).run(values);
    }
    this.#appendEvent(current.id, at, current.state, to, note);
    return next;
  }

  #appendEvent(id: string, at: string, from: PaymentState | null, to: PaymentState, note: string): void {
    this.#statement(INSERT_EVENT).run(id, id, at, from, to, note);
  }

  #one(sql: string, key: string): PaymentRecord | undefined {
    const row = this.#read(() => this.#statement(sql).get(key) as PaymentRow | undefined);
    return row === undefined ? undefined : toRecord(row);
  }

  /** The rows of `sql` as records; a damaged row is reported to onCorrupt and left out. */
  #many(sql: string, params: unknown = []): PaymentRecord[] {
    const rows = this.#read(() => this.#statement(sql).all(params) as PaymentRow[]);
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

  #filter(query: ListQuery): { where: string; params: Record<string, unknown> } {
    const conditions: string[] = [];
    const params: Record<string, unknown> = {};
    if (query.from !== undefined) {
      conditions.push('created_at >= @from');
      params.from = query.from;
    }
    if (query.to !== undefined) {
      conditions.push('created_at < @to');
      params.to = query.to;
    }
    if (query.terminal !== undefined) {
      conditions.push('terminal = @terminal');
      params.terminal = query.terminal;
    }
    if (query.owner !== undefined) {
      conditions.push('owner = @owner');
      params.owner = query.owner;
    }
    if (query.amount !== undefined) {
      conditions.push('amount = @amount');
      params.amount = query.amount;
    }
    if (query.nsu !== undefined) {
      conditions.push(`${jsonField('authorization_json', '$.nsu')} = @nsu`);
      params.nsu = query.nsu;
    }
    if (query.authorizationCode !== undefined) {
      conditions.push(`upper(${jsonField('authorization_json', '$.authorizationCode')}) = upper(@authorizationCode)`);
      params.authorizationCode = query.authorizationCode;
    }
    if (query.cardLast4 !== undefined) {
      conditions.push(`substr(${jsonField('card_json', '$.maskedPan')}, -4) = @cardLast4`);
      params.cardLast4 = query.cardLast4;
    }
    if (query.states !== undefined) {
      if (query.states.length === 0) conditions.push('0');
      else {
        const names = query.states.map((state, index) => {
          params[`state${index}`] = state;
          return `@state${index}`;
        });
        conditions.push(`state IN (${names.join(', ')})`);
      }
    }
    return { where: conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`, params };
  }
}
