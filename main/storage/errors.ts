/**
 * What can go wrong with a SQLite file, in words a store can act on: SQLite's result codes
 * (extended ones included, e.g. SQLITE_BUSY_SNAPSHOT) sorted into a few stable `code`s. Each store
 * turns these into its own error class and sentences; anything else (a constraint a store relies
 * on, a bug in its SQL) is not a storage condition and is left as SQLite threw it.
 */
import Database from 'better-sqlite3';
import { CodedError } from '../../lib/errors.js';

export type StorageErrorCode =
  /** Another connection held the lock longer than the busy timeout (SQLITE_BUSY, SQLITE_LOCKED). */
  | 'LOCKED'
  /** The file is damaged or is not a SQLite database (SQLITE_CORRUPT, SQLITE_NOTADB). */
  | 'CORRUPT'
  /** The file's schema version (PRAGMA user_version) is ahead of the migrations this code knows. */
  | 'TOO_NEW'
  /** The file or its folder cannot be written (SQLITE_READONLY). */
  | 'READ_ONLY'
  /** The disk is full (SQLITE_FULL: a write, a growing write-ahead log or a checkpoint). */
  | 'DISK_FULL'
  /** `mustExist` and there is no file. */
  | 'NOT_FOUND';

export class StorageError extends CodedError<StorageErrorCode> {
  /** The file (':memory:' for a database in memory). */
  readonly path: string;
  /** SQLite's own message, for the store's sentence ("… is locked by another process: <detail>"). */
  readonly detail: string;
  /** TOO_NEW: the version found in the file and the newest this code understands. */
  readonly version: { readonly found: number; readonly supported: number } | undefined;

  constructor(
    code: StorageErrorCode,
    path: string,
    detail: string,
    options: { cause?: unknown; version?: { found: number; supported: number } } = {},
  ) {
    super(code, `${path}: ${describe(code)}: ${detail}`, options);
    this.path = path;
    this.detail = detail;
    this.version = options.version;
  }
}

function describe(code: StorageErrorCode): string {
  switch (code) {
    case 'LOCKED':
      return 'locked by another process';
    case 'CORRUPT':
      return 'damaged or not a database';
    case 'TOO_NEW':
      return 'written by a newer version';
    case 'READ_ONLY':
      return 'read-only';
    case 'DISK_FULL':
      return 'the disk is full';
    case 'NOT_FOUND':
      return 'no such file';
  }
}

/** SQLite's result code (primary or extended, e.g. SQLITE_CORRUPT_INDEX) as a StorageErrorCode. */
export function storageCodeOf(sqliteCode: string): StorageErrorCode | undefined {
  if (sqliteCode.startsWith('SQLITE_BUSY') || sqliteCode.startsWith('SQLITE_LOCKED')) return 'LOCKED';
  if (sqliteCode.startsWith('SQLITE_CORRUPT') || sqliteCode === 'SQLITE_NOTADB') return 'CORRUPT';
  if (sqliteCode.startsWith('SQLITE_READONLY')) return 'READ_ONLY';
  if (sqliteCode === 'SQLITE_FULL') return 'DISK_FULL';
  return undefined;
}

/** A SQLite error with a storage meaning becomes a StorageError (SQLite's error as its cause); anything else stays as it is. */
export function translateSqliteError(error: unknown, path: string): unknown {
  if (!(error instanceof Database.SqliteError)) return error;
  const code = storageCodeOf(error.code);
  return code === undefined ? error : new StorageError(code, path, error.message, { cause: error });
}

/** The error SQLite threw, under a StorageError: for a store that never exposed that condition. */
export function sqliteErrorOf(error: StorageError): unknown {
  return error.cause ?? error;
}
