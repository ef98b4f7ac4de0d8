/**
 * Opens the sandbox's SQLite database: a file in the data directory (records survive a
 * restart) or, without one, an in-memory database. WAL and synchronous=NORMAL: the sandbox is a
 * test double, durable across process restarts but not promising power-loss durability.
 *
 * The stores are written against better-sqlite3 (`db.prepare(sql).get(…)` where they use it,
 * which reads well): they get the connection itself, whose `prepare` is the storage module's
 * statement cache, so compiling again on every request costs nothing.
 */
import { join } from 'node:path';
import { openDatabase, type Connection } from '../../storage/sqlite.js';
import { SANDBOX_MIGRATIONS } from './schema.js';

export type SandboxDatabase = Connection;

export const DATABASE_FILE = 'sandbox.sqlite';

export function openSandboxDatabase(dataDir?: string): SandboxDatabase {
  const onDisk = dataDir !== undefined;
  return openDatabase(onDisk ? join(dataDir, DATABASE_FILE) : ':memory:', {
    pragmas: {
      busy_timeout: 5000,
      ...(onDisk ? { journal_mode: 'WAL', synchronous: 'NORMAL' } : {}),
      foreign_keys: true,
    },
    migrations: SANDBOX_MIGRATIONS,
  }).connection;
}

/** meta table: small named values (the seed's ids, the printed token). */
export function readMeta(db: SandboxDatabase, key: string): string | undefined {
  const row = db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value;
}

export function writeMeta(db: SandboxDatabase, key: string, value: string): void {
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
    key,
    value,
  );
}
