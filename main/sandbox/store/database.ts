/**
 * Opens the sandbox's SQLite database: a file in the data directory (records survive a
 * restart) or, without one, an in-memory database. WAL and synchronous=NORMAL: the sandbox is a
 * test double, durable across process restarts but not promising power-loss durability.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SCHEMA_SQL, SCHEMA_VERSION } from './schema.js';

export type SandboxDatabase = Database.Database;

export const DATABASE_FILE = 'sandbox.sqlite';

export function openSandboxDatabase(dataDir?: string): SandboxDatabase {
  let db: SandboxDatabase;
  if (dataDir === undefined) {
    db = new Database(':memory:');
  } else {
    mkdirSync(dataDir, { recursive: true });
    db = new Database(join(dataDir, DATABASE_FILE));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.exec(SCHEMA_SQL);
  cachePreparedStatements(db);
  db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?) ON CONFLICT(key) DO NOTHING").run(
    String(SCHEMA_VERSION),
  );
  return db;
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

/**
 * Makes `db.prepare(sql)` return one compiled statement per SQL text. The stores prepare their
 * statements where they use them, which reads well; compiling them again on every request
 * would cost more than running them. Statements are only run synchronously (get/all/run, never
 * left half-iterated), so sharing one is safe.
 */
function cachePreparedStatements(db: SandboxDatabase): void {
  const prepare = db.prepare.bind(db);
  const cache = new Map<string, ReturnType<SandboxDatabase['prepare']>>();
  const cached = (sql: string): ReturnType<SandboxDatabase['prepare']> => {
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
  db.prepare = cached as SandboxDatabase['prepare'];
}
