/**
 * One way to open a SQLite file, for every store of Pinbridge (the payment journal, the POS
 * clients file, the print journal, the sandbox): named pragmas, schema migrations counted by
 * PRAGMA user_version, one compiled statement per SQL text, SQLite's failures as StorageErrors
 * with a stable code, and read and write transactions.
 *
 * It sits below everything else: node built-ins and better-sqlite3 only. What a store promises
 * (how durable a commit is, what a busy file means to its callers) stays the store's: it says so
 * through the pragmas it asks for and the sentences it builds from a StorageError.
 */
import { existsSync, mkdirSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { ioFaultOf } from '../../lib/io-faults.js';
import { StorageError, translateSqliteError } from './errors.js';

export { StorageError, sqliteErrorOf, storageCodeOf, translateSqliteError, type StorageErrorCode } from './errors.js';

/** The better-sqlite3 connection, for code written against it directly (migrations, transactions). */
export type Connection = Database.Database;
export type Statement = Database.Statement;

/**
 * The pragmas a store may ask for, by SQLite's names. They are applied in this order, busy_timeout
 * first: switching journal_mode to WAL needs a lock another process may hold for a moment.
 */
export interface Pragmas {
  /** How long a statement waits for another connection's lock before LOCKED, in ms. Default 5000. */
  readonly busy_timeout?: number;
  /** WAL: readers and one writer at once, and a commit is one append to the log. */
  readonly journal_mode?: 'WAL' | 'DELETE' | 'TRUNCATE' | 'PERSIST' | 'MEMORY' | 'OFF';
  /** FULL: a commit is on the disk when it returns; NORMAL (in WAL): it survives a kill -9, maybe not a power cut. */
  readonly synchronous?: 'OFF' | 'NORMAL' | 'FULL' | 'EXTRA';
  /** macOS: F_FULLFSYNC instead of fsync, which would leave the data in the drive's cache. */
  readonly fullfsync?: boolean;
  readonly foreign_keys?: boolean;
  /** Deleted rows are overwritten with zeros instead of left readable in free pages. */
  readonly secure_delete?: boolean;
}

const PRAGMA_ORDER = [
  'busy_timeout',
  'journal_mode',
  'synchronous',
  'fullfsync',
  'foreign_keys',
  'secure_delete',
] as const satisfies readonly (keyof Pragmas)[];

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Where one connection stands against its file (SqliteDatabase.changeStamp). Equal stamps: no other connection
 * committed to the file since, and this one changed no row (schema changes are not counted), so the rows read
 * then are still the file's. A stamp may also change when nothing did (another connection's checkpoint): a cache
 * keyed by it reads again for nothing, never keeps what is gone.
 */
export interface ChangeStamp {
  /** The connection counted (a held file that reopens has a new one, whose counts start again). */
  readonly connection: Connection;
  /** PRAGMA data_version: changes when another connection, in this process or another, committed to the file. */
  readonly dataVersion: number;
  /** total_changes(): the rows this connection inserted, updated or deleted since it opened, rolled back or not. */
  readonly ownChanges: number;
}

/** Whether two stamps say the file is as it was (see ChangeStamp). */
export const sameStamp = (a: ChangeStamp, b: ChangeStamp): boolean =>
  a.connection === b.connection && a.dataVersion === b.dataVersion && a.ownChanges === b.ownChanges;

/**
 * One step of a schema: SQL to run, or a function for what SQL alone cannot say. Step i takes the
 * file from user_version i to i + 1.
 */
export type Migration = string | ((connection: Connection) => void);

export interface OpenOptions {
  readonly pragmas?: Pragmas;
  /**
   * The schema's history, oldest first. Each step missing from the file is applied in its own
   * IMMEDIATE transaction together with its user_version, so a crash mid-way leaves the file at
   * the previous version and two processes opening a fresh file never both apply a step. A file
   * ahead of the list is refused (TOO_NEW). Absent: user_version is neither read nor written.
   */
  readonly migrations?: readonly Migration[];
  /** Refuse a missing file (NOT_FOUND) instead of creating it (and its folders). */
  readonly mustExist?: boolean;
  /**
   * `hold`: a file that cannot be opened for want of room (a full disk: SQLITE_FULL, or the
   * write-ahead log's shared-memory index that cannot grow) is opened anyway, `held`: in exclusive
   * locking mode, whose index lives in memory, so it can be read; a file with nothing in it yet,
   * in memory with its schema (empty). Every write of a held file is refused (DISK_FULL) until
   * `reopen` opens it as asked — tried again by each write. Exclusive: no
   * other process can open the file meanwhile.
   */
  readonly whenFull?: 'hold';
}

/** How often a held file tries to open as asked while its disk shows no room, on writes and `reopen()`. */
export const HELD_RETRY_MS = 1_000;

/** Free space that lets a held file try to open at once (its -shm index and a few pages of log). */
const HELD_ROOM_BYTES = 256 * 1024;

function freeBytes(path: string): number {
  try {
    const fs = statfsSync(dirname(path));
    return fs.bavail * fs.bsize;
  } catch {
    return 0;
  }
}

/** SQLITE_FULL, a -shm index that cannot grow, ENOSPC from making the folder: no room on the disk. */
const isNoRoom = (error: unknown): boolean => ioFaultOf(error)?.kind === 'full';

export const isMemoryPath = (path: string): boolean => path === ':memory:' || path === '';

/**
 * Opens (creating its folders and the file unless `mustExist`) the database at `path`, applies
 * the pragmas and brings the schema up to date. Failures are StorageErrors (LOCKED, CORRUPT,
 * TOO_NEW, READ_ONLY, DISK_FULL, NOT_FOUND) or SQLite's own for anything else; nothing stays open.
 */
export function openDatabase(path: string, options: OpenOptions = {}): SqliteDatabase {
  try {
    return new SqliteDatabase(path, connect(path, options), options);
  } catch (error) {
    if (options.whenFull !== 'hold' || isMemoryPath(path) || !isNoRoom(error)) throw error;
    return new SqliteDatabase(path, connectHeld(path, options), options, true);
  }
}

/** A connection as `options` ask: pragmas applied, schema up to date. */
function connect(path: string, options: OpenOptions): Connection {
  const memory = isMemoryPath(path);
  if (!memory) {
    if (options.mustExist === true && !existsSync(path))
      throw new StorageError('NOT_FOUND', path, `there is no file at ${path}`);
    mkdirSync(dirname(path), { recursive: true });
  }
  let connection: Connection | undefined;
  try {
    connection = new Database(path, { fileMustExist: options.mustExist === true && !memory });
    applyPragmas(connection, options.pragmas ?? {});
    if (options.migrations !== undefined) migrate(connection, path, options.migrations);
    return connection;
  } catch (error) {
    connection?.close();
    throw translateSqliteError(error, path);
  }
}

/**
 * The file read-only-ish on a full disk: exclusive locking (the write-ahead log's index in this
 * process's memory, so no -shm file to grow) when it holds a schema already; otherwise an empty
 * database in memory with the schema, standing in until the file can be made.
 */
function connectHeld(path: string, options: OpenOptions): Connection {
  let connection: Connection | undefined;
  try {
    connection = new Database(path, { fileMustExist: true });
    // Before anything reads the file: exclusive mode must be set before the first WAL access.
    connection.pragma('locking_mode = EXCLUSIVE');
    connection.pragma(
      `busy_timeout = ${Math.max(0, Math.floor(options.pragmas?.busy_timeout ?? DEFAULT_BUSY_TIMEOUT_MS))}`,
    );
    const version = userVersion(connection);
    const target = options.migrations?.length;
    if (target !== undefined && version > target) {
      throw new StorageError(
        'TOO_NEW',
        path,
        `the schema is at version ${version}, newer than this code understands (${target})`,
        {
          version: { found: version, supported: target },
        },
      );
    }
    // A schema that needs a migration needs a write: not on a full disk.
    if (target === undefined || (version === target && version > 0)) return connection;
    connection.close();
  } catch (error) {
    connection?.close();
    if (error instanceof StorageError) throw error;
    if (!(error instanceof Database.SqliteError) || error.code !== 'SQLITE_CANTOPEN') {
      const translated = translateSqliteError(error, path);
      if (!isNoRoom(translated)) throw translated;
    }
  }
  const memory = new Database(':memory:');
  if (options.migrations !== undefined) migrate(memory, ':memory:', options.migrations);
  return memory;
}

function applyPragmas(connection: Connection, pragmas: Pragmas): void {
  const busy = pragmas.busy_timeout ?? DEFAULT_BUSY_TIMEOUT_MS;
  connection.pragma(`busy_timeout = ${Math.max(0, Math.floor(busy))}`);
  for (const name of PRAGMA_ORDER) {
    if (name === 'busy_timeout') continue;
    const value = pragmas[name];
    if (value !== undefined) connection.pragma(`${name} = ${pragmaValue(value)}`);
  }
}

const pragmaValue = (value: string | number | boolean): string =>
  typeof value === 'boolean' ? (value ? 'ON' : 'OFF') : String(value);

const userVersion = (connection: Connection): number => connection.pragma('user_version', { simple: true }) as number;

function migrate(connection: Connection, path: string, migrations: readonly Migration[]): void {
  const target = migrations.length;
  const tooNew = (found: number): StorageError =>
    new StorageError(
      'TOO_NEW',
      path,
      `the schema is at version ${found}, newer than this code understands (${target})`,
      { version: { found, supported: target } },
    );
  let version = userVersion(connection);
  if (version > target) throw tooNew(version);
  while (version < target) {
    version = connection
      .transaction((): number => {
        // Read again under the write lock: another process may have migrated meanwhile.
        const from = userVersion(connection);
        if (from > target) throw tooNew(from);
        if (from === target) return from;
        const step = migrations[from]!;
        if (typeof step === 'string') connection.exec(step);
        else step(connection);
        connection.pragma(`user_version = ${from + 1}`);
        return from + 1;
      })
      .immediate();
  }
}

/** An open SQLite file. Every method translates SQLite's failures into StorageErrors. */
export class SqliteDatabase {
  readonly path: string;
  readonly #statements = new Map<string, Statement>();
  readonly #options: OpenOptions;
  #connection: Connection;
  #held: boolean;
  #triedAt = 0;
  /** The two statements of changeStamp, in pluck mode: this module's own, outside the shared cache. */
  #stampStatements:
    { readonly connection: Connection; readonly dataVersion: Statement; readonly ownChanges: Statement } | undefined;

  constructor(path: string, connection: Connection, options: OpenOptions = {}, held = false) {
    this.path = path;
    this.#options = options;
    this.#held = held;
    this.#connection = connection;
  }

  /**
   * The connection itself, better-sqlite3's as it is: its `prepare` compiles anew each time (the
   * cache is `statement`). A held file's connection changes when it reopens: ask for it each time.
   */
  get connection(): Connection {
    return this.#connection;
  }

  /** Opened on a full disk (OpenOptions.whenFull): readable, every write refused until `reopen` succeeds. */
  get held(): boolean {
    return this.#held;
  }

  /**
   * A held file tries to open as asked (at once when its disk shows room, else at most once every
   * HELD_RETRY_MS unless `force`); true when it is no longer held. Statements compiled before are dropped with the old connection.
   */
  reopen(force = false): boolean {
    if (!this.#held) return true;
    const now = Date.now();
    // statfs is cheap, an open is not: tried at once when the disk shows room, else once a second.
    if (!force && now - this.#triedAt < HELD_RETRY_MS && freeBytes(this.path) < HELD_ROOM_BYTES) return false;
    this.#triedAt = now;
    // The exclusive lock of the held connection would keep the new one out: let go first.
    this.#statements.clear();
    this.#stampStatements = undefined;
    this.#connection.close();
    try {
      this.#connection = connect(this.path, this.#options);
      this.#held = false;
      return true;
    } catch (error) {
      this.#connection = connectHeld(this.path, this.#options);
      if (!isNoRoom(error)) throw error;
      return false;
    }
  }

  get inMemory(): boolean {
    return isMemoryPath(this.path);
  }

  /**
   * The compiled statement for `sql`, compiled on first use and the same one after (compiling
   * costs more than running most of them). Shared by everyone who asks for that text: never change
   * its mode (pluck, raw, expand) or leave it half-iterated.
   */
  statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#connection.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * Runs `work` in one IMMEDIATE transaction: the write lock is taken (waiting up to busy_timeout)
   * before anything is read, so what `work` reads is still true when it writes. A throw rolls it
   * all back. Inside another transaction it is a savepoint of it.
   */
  write<T>(work: () => T): T {
    if (this.#held && !this.reopen())
      throw new StorageError('DISK_FULL', this.path, 'the disk has no room: the file is read-only until it has');
    return this.#translated(() => this.connection.transaction(work).immediate());
  }

  /** Runs `work` in one DEFERRED transaction: every read sees the same snapshot of the file. */
  read<T>(work: () => T): T {
    return this.#translated(() => this.connection.transaction(work).deferred());
  }

  /** Runs `work` with no transaction of its own (each statement commits alone), failures translated. */
  autocommit<T>(work: () => T): T {
    return this.#translated(work);
  }

  /** Changes a pragma on the open connection (e.g. the journal's synchronous level per commit). */
  setPragma<K extends keyof Pragmas>(name: K, value: NonNullable<Pragmas[K]>): void {
    this.#translated(() => this.connection.pragma(`${name} = ${pragmaValue(value)}`));
  }

  get userVersion(): number {
    return this.#translated(() => userVersion(this.connection));
  }

  /**
   * Where this connection stands against the file, for a cache of what it read: take the stamp before the read,
   * and the cache holds while `sameStamp` says so. PRAGMA data_version
   * (https://sqlite.org/pragma.html#pragma_data_version) tells another connection's commits, from any process,
   * but not this connection's own: total_changes() tells those. The data version is asked of the file, under the
   * read lock every read takes (two fcntl calls in WAL mode): it costs a one-row read, less the row.
   */
  changeStamp(): ChangeStamp {
    const { connection, dataVersion, ownChanges } = this.#stampStatementsNow();
    return this.#translated(() => ({
      connection,
      dataVersion: dataVersion.get() as number,
      ownChanges: ownChanges.get() as number,
    }));
  }

  #stampStatementsNow(): {
    readonly connection: Connection;
    readonly dataVersion: Statement;
    readonly ownChanges: Statement;
  } {
    const connection = this.#connection;
    const statements = this.#stampStatements;
    if (statements?.connection === connection) return statements;
    // Not through the shared cache: pluck mode would change the statement for everyone who asks for its text.
    const prepare = (sql: string): Statement => Database.prototype.prepare.call(connection, sql).pluck();
    const prepared = this.#translated(() => ({
      connection,
      dataVersion: prepare('PRAGMA data_version'),
      ownChanges: prepare('SELECT total_changes()'),
    }));
    this.#stampStatements = prepared;
    return prepared;
  }

  /**
   * Copies the write-ahead log into the file and truncates it: after a delete of personal data,
   * whose old pages the log still holds. False when it could not (a reader holds the log); a
   * database in memory has no log.
   */
  truncateLog(): boolean {
    if (this.inMemory) return true;
    try {
      this.connection.pragma('wal_checkpoint(TRUNCATE)');
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    this.#statements.clear();
    this.#stampStatements = undefined;
    this.connection.close();
  }

  #translated<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      throw translateSqliteError(error, this.path);
    }
  }
}
