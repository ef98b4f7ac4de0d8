/**
 * The sandbox's data directory across versions: one written when its version was a row of `meta`
 * (user_version 0) opens with its records and is marked user_version 1; a fresh one starts at 1;
 * statements are compiled once per SQL text.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DATABASE_FILE,
  openSandboxDatabase,
  readMeta,
  type SandboxDatabase,
} from '../../../../main/sandbox/store/database.js';
import { SCHEMA_VERSION } from '../../../../main/sandbox/store/schema.js';

/** A pragma's value, read through the sandbox's statements (their mode left as it is). */
const pragma = (db: SandboxDatabase, name: string): unknown =>
  Object.values(db.statement(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-sandbox-db-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('a data directory written before user_version', () => {
  it('opens with its records, and is marked version 1', () => {
    mkdirSync(join(dir, 'data'));
    const old = new Database(join(dir, 'data', DATABASE_FILE));
    old.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE marketplaces (id TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL);`);
    old.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', '1')").run();
    old.prepare("INSERT INTO marketplaces (id, name, created_at) VALUES ('mkt-1', 'Loja antiga', '2026-01-01')").run();
    old.close();

    const db = openSandboxDatabase(join(dir, 'data'));
    try {
      expect(db.statement('SELECT name FROM marketplaces WHERE id = ?').get('mkt-1')).toEqual({ name: 'Loja antiga' });
      expect(pragma(db, 'user_version')).toBe(SCHEMA_VERSION);
      expect(readMeta(db, 'schema_version')).toBe('1');
      // The tables that came later than the old file are there too.
      expect(db.statement('SELECT COUNT(*) AS n FROM transactions').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });

  it('is refused when its own version is one this sandbox does not know', () => {
    const old = new Database(join(dir, DATABASE_FILE));
    old.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`);
    old.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', '7')").run();
    old.close();
    expect(() => openSandboxDatabase(dir)).toThrow(/schema version 7/);
  });
});

describe('a new data directory', () => {
  it('starts at the current version, in WAL', () => {
    const db = openSandboxDatabase(join(dir, 'new'));
    try {
      expect(pragma(db, 'user_version')).toBe(SCHEMA_VERSION);
      expect(pragma(db, 'journal_mode')).toBe('wal');
      expect(pragma(db, 'synchronous')).toBe(1); // NORMAL
      expect(pragma(db, 'foreign_keys')).toBe(1);
    } finally {
      db.close();
    }
  });

  it('compiles each statement once', () => {
    const db = openSandboxDatabase();
    try {
      expect(db.statement('SELECT 1')).toBe(db.statement('SELECT 1'));
    } finally {
      db.close();
    }
  });
});
