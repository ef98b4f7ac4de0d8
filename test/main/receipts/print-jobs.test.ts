/**
 * The print journal's file across versions of Pinbridge: one written before its schema was
 * versioned (tables made with IF NOT EXISTS, user_version 0) opens, keeps its jobs and is marked
 * version 1; one from a newer Pinbridge is refused rather than misread.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRINT_JOURNAL_MIGRATIONS, PrintJournal } from '../../../main/receipts/print-jobs.js';
import { StorageError } from '../../../main/storage/sqlite.js';
import { thrown } from '../../helpers/thrown.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-print-jobs-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The schema as Pinbridge wrote it before the file had a version, with one job queued and one printing. */
function writeUnversionedFile(path: string): void {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE IF NOT EXISTS print_jobs (
  id TEXT PRIMARY KEY, printer TEXT NOT NULL, subject TEXT NOT NULL, title TEXT NOT NULL,
  document_json TEXT NOT NULL, state TEXT NOT NULL, attempts INTEGER NOT NULL, last_error_json TEXT,
  next_attempt_at TEXT, reprint_of TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL, printed_at TEXT);
CREATE INDEX IF NOT EXISTS print_jobs_by_subject ON print_jobs (subject, created_at);
CREATE INDEX IF NOT EXISTS print_jobs_waiting ON print_jobs (printer, created_at) WHERE state IN ('queued', 'printing');`);
  const insert = db.prepare(
    `INSERT INTO print_jobs (id, printer, subject, title, document_json, state, attempts, next_attempt_at, created_at, updated_at)
     VALUES (?, 'default', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const at = '2026-03-10T12:00:00.000Z';
  const document = (title: string): string => JSON.stringify({ title, blocks: [{ kind: 'text', text: title }] });
  insert.run(
    'a'.repeat(32),
    'payment:ref-1:customer:card',
    'Via do cliente',
    document('Via do cliente'),
    'queued',
    0,
    at,
    at,
    at,
  );
  insert.run(
    'b'.repeat(32),
    'payment:ref-2:store:card',
    'Via da loja',
    document('Via da loja'),
    'printing',
    1,
    null,
    at,
    at,
  );
  db.close();
}

describe('a print journal written before its schema had a version', () => {
  it('opens with its jobs, gives back the one a crash left printing, and is marked version 1', () => {
    const path = join(dir, 'print-jobs.db');
    writeUnversionedFile(path);
    const journal = PrintJournal.open(path, { now: () => new Date('2026-03-10T12:05:00.000Z') });
    try {
      expect(journal.waiting('default').map((job) => [job.title, job.state])).toEqual([
        ['Via do cliente', 'queued'],
        ['Via da loja', 'queued'],
      ]);
      expect(journal.get('b'.repeat(32))?.lastError?.code).toBe('INTERRUPTED');
    } finally {
      journal.close();
    }
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(PRINT_JOURNAL_MIGRATIONS.length);
    db.close();
  });
});

describe('a print journal from a newer Pinbridge', () => {
  it('is refused with TOO_NEW', () => {
    const path = join(dir, 'print-jobs.db');
    const db = new Database(path);
    db.pragma(`user_version = ${PRINT_JOURNAL_MIGRATIONS.length + 1}`);
    db.close();
    const error = thrown(() => PrintJournal.open(path));
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ code: 'TOO_NEW' });
  });
});
