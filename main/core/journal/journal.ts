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
import { isMemoryPath, openDatabase, type SqliteDatabase } from '../../storage/sqlite.js';
import { SYNCED_STATES, type PaymentState } from '../states.js';
import { DEFAULT_MIN_FREE_BYTES, DEFAULT_RESERVE_BYTES, DiskReserve, type DiskRoom } from './disk-reserve.js';
import { isDiskFull, journalErrorOf, type JournalError } from './errors.js';
import { checkNewPayment, maskDiagnostics, refuseCardData } from './guard.js';
import { JournalReader } from './reader.js';
import type { NewPayment, PaymentPatch, PaymentRecord } from './record.js';
import { MIGRATIONS } from './schema.js';
import { WalFlush } from './wal-flush.js';
import { applyMoves, applyPatch, appendNote, insertIntent } from './writes.js';

export { JournalError, type JournalErrorCode } from './errors.js';
export type { DiskRoom } from './disk-reserve.js';
export type { RecordRange } from './reader.js';
export { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, UNFINISHED_SQL } from './sql.js';

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

const DEFAULT_BUSY_TIMEOUT_MS = 5000;

const isMemory = isMemoryPath;

/** The journal: its reads (reader.ts), and the writes, each one transaction (writes.ts). */
export class Journal extends JournalReader {
  readonly #db: SqliteDatabase;
  readonly #now: () => Date;
  /** The connection's current synchronous level: FULL (true) or NORMAL. */
  #synced = true;
  /** The fsyncs of the write-ahead log off the event loop. */
  readonly #wal: WalFlush;
  /** Room kept on the disk for the steps of payments in flight; none for a journal in memory. */
  readonly #reserve: DiskReserve | undefined;
  readonly #onDiskFull: (message: string) => void;
  readonly #timestamp = (): string => this.#now().toISOString();

  private constructor(path: string, db: SqliteDatabase, options: JournalOptions) {
    const now = options.now ?? (() => new Date());
    super(
      path,
      db,
      now,
      options.onCorrupt ?? ((error) => process.emitWarning(error.message, { code: 'PINBRIDGE_JOURNAL_CORRUPT' })),
    );
    this.#db = db;
    this.#now = now;
    this.#wal = new WalFlush(path);
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
    const room = this.#reserve?.room() ?? {
      freeBytes: Number.MAX_SAFE_INTEGER,
      reserveHeld: true,
      reserveBytes: 0,
      enough: true,
    };
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
      throw journalErrorOf(error, this.path);
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
      throw journalErrorOf(error, path);
    }
  }

  /** Journals a new payment: state `intent`, or `created` when the API transaction already exists. */
  createIntent(payment: NewPayment): PaymentRecord {
    refuseCardData(payment, undefined);
    checkNewPayment(payment);
    return this.#write(true, () => insertIntent(this.#db, payment, this.#timestamp));
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
    return this.#wal.flush();
  }

  #moves(id: string, given: readonly JournalMove[], syncNow = true): PaymentRecord[] {
    const moves = given.map((move) => ({ to: move.to, ...maskDiagnostics(move.patch ?? {}, move.note ?? '') }));
    for (const move of moves) refuseCardData(move.patch, move.note, id);
    return this.#write(syncNow && moves.some((move) => SYNCED_STATES.has(move.to)), () =>
      applyMoves(this.#db, id, moves, this.#timestamp),
    );
  }

  /** Changes a payment's fields without moving it (installments chosen, an undo attempt…), with an event. */
  update(id: string, given: PaymentPatch, givenNote = ''): PaymentRecord {
    const { patch, note } = maskDiagnostics(given, givenNote);
    refuseCardData(patch, note, id);
    return this.#write(false, () => applyPatch(this.#db, id, patch, note, this.#timestamp));
  }

  /**
   * Adds a line to a payment's history without changing the payment — allowed on a final one too
   * (its record stays as it is): an attempt on it that did not go through, e.g. a void refused
   * for a wrong supervisor PIN. The event goes from its state to the same state.
   */
  annotate(id: string, givenNote: string): void {
    const { note } = maskDiagnostics({}, givenNote);
    this.#write(false, () => appendNote(this.#db, id, note, this.#timestamp));
  }

  close(): void {
    this.#wal.close();
    this.#db.close();
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
          throw journalErrorOf(again, this.path);
        }
      }
      throw journalErrorOf(error, this.path);
    }
  }
}
