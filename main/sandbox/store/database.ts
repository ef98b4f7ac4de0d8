/**
 * Opens the sandbox's SQLite database: a file in the data directory (records survive a
 * restart) or, without one, an in-memory database. WAL and synchronous=NORMAL: the sandbox is a
 * test double, durable across process restarts but not promising power-loss durability.
 *
 * The stores read and write through `db.statement(sql).get(…)`: the storage module's statement
 * cache, one compiled statement per SQL text, so a request compiles nothing.
 */
import { join } from 'node:path';
import { openDatabase, type Connection, type Statement } from '../../storage/sqlite.js';
import { SANDBOX_MIGRATIONS } from './schema.js';

/** The sandbox's database as its stores use it. */
export interface SandboxDatabase {
  /** The compiled statement for `sql` (compiled once, then shared: never change its mode). */
  statement(sql: string): Statement;
  /** better-sqlite3's transaction wrapper: `work` runs all or nothing. */
  readonly transaction: Connection['transaction'];
  close(): void;
}

export const DATABASE_FILE = 'sandbox.sqlite';

export function openSandboxDatabase(dataDir?: string): SandboxDatabase {
  const onDisk = dataDir !== undefined;
  const database = openDatabase(onDisk ? join(dataDir, DATABASE_FILE) : ':memory:', {
    pragmas: {
      busy_timeout: 5000,
      ...(onDisk ? { journal_mode: 'WAL', synchronous: 'NORMAL' } : {}),
      foreign_keys: true,
    },
    migrations: SANDBOX_MIGRATIONS,
  });
  return {
    statement: (sql) => database.statement(sql),
    transaction: database.connection.transaction.bind(database.connection),
    close: () => database.close(),
  };
}

/** meta table: small named values (the seed's ids, the printed token). */
export function readMeta(db: SandboxDatabase, key: string): string | undefined {
  const row = db.statement('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function writeMeta(db: SandboxDatabase, key: string, value: string): void {
  db.statement('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  );
}
