/**
 * The storage module, on real SQLite files in a temp directory: a store names its pragmas and
 * gets them; its schema steps run in order, once each, each with its version; a file from newer
 * code is refused with TOO_NEW; SQLite's busy, damaged, read-only and full conditions arrive as
 * StorageErrors with a stable code; a transaction that throws leaves nothing behind. On a real full
 * disk (a small tmpfs), a store that asks for it still opens its file, read-only, until there is room.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openDatabase,
  StorageError,
  translateSqliteError,
  type Migration,
  sameStamp,
  type OpenOptions,
  type SqliteDatabase,
} from '../../../main/storage/sqlite.js';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk.js';
import { thrown } from '../../helpers/thrown.js';

let dir: string;
let opened: (SqliteDatabase | Database.Database)[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-storage-'));
  opened = [];
});
afterEach(() => {
  for (const db of opened) {
    try {
      db.close();
    } catch {
      // already closed by the test
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

function open(options: OpenOptions = {}, file = 'store.db'): SqliteDatabase {
  const db = openDatabase(join(dir, file), options);
  opened.push(db);
  return db;
}

/** A second, plain connection to the same file: another process, as far as SQLite can tell. */
function other(file = 'store.db', options: Database.Options = {}): Database.Database {
  const db = new Database(join(dir, file), options);
  opened.push(db);
  return db;
}

/** The StorageError `fn` throws, checked to carry `code`. */
function failure(fn: () => unknown, code: StorageError['code']): StorageError {
  const error = thrown(fn);
  expect(error).toBeInstanceOf(StorageError);
  expect((error as StorageError).code).toBe(code);
  return error as StorageError;
}

const pragma = (db: SqliteDatabase, name: string): unknown => db.connection.pragma(name, { simple: true });

const NOTES: Migration = 'CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)';

describe('opening a file', () => {
  it('applies the pragmas the store names', () => {
    const db = open({
      pragmas: {
        busy_timeout: 1234,
        journal_mode: 'WAL',
        synchronous: 'FULL',
        foreign_keys: true,
        secure_delete: true,
      },
    });
    expect(pragma(db, 'busy_timeout')).toBe(1234);
    expect(pragma(db, 'journal_mode')).toBe('wal');
    expect(pragma(db, 'synchronous')).toBe(2); // FULL
    expect(pragma(db, 'foreign_keys')).toBe(1);
    expect(pragma(db, 'secure_delete')).toBe(1);
  });

  it('waits 5 seconds for a lock unless told otherwise, and can change a pragma while open', () => {
    const db = open({ pragmas: { journal_mode: 'WAL', synchronous: 'FULL' } });
    expect(pragma(db, 'busy_timeout')).toBe(5000);
    db.setPragma('synchronous', 'NORMAL');
    expect(pragma(db, 'synchronous')).toBe(1);
  });

  it('creates the file and its folders, or refuses a missing file with NOT_FOUND when it must exist', () => {
    const path = join(dir, 'a', 'b', 'store.db');
    opened.push(openDatabase(path));
    expect(existsSync(path)).toBe(true);

    const missing = join(dir, 'missing', 'store.db');
    failure(() => openDatabase(missing, { mustExist: true }), 'NOT_FOUND');
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });

  it('works in memory the same', () => {
    const db = openDatabase(':memory:', { migrations: [NOTES] });
    opened.push(db);
    expect(db.inMemory).toBe(true);
    db.write(() => db.statement('INSERT INTO notes (text) VALUES (?)').run('olá'));
    expect(db.statement('SELECT text FROM notes').all()).toEqual([{ text: 'olá' }]);
    expect(db.truncateLog()).toBe(true);
  });
});

describe('migrations', () => {
  it('run in order, once each, and leave user_version at their count', () => {
    const ran: number[] = [];
    const steps: Migration[] = [
      (c) => {
        ran.push(1);
        c.exec(String(NOTES));
      },
      (c) => {
        ran.push(2);
        c.exec('ALTER TABLE notes ADD COLUMN author TEXT');
      },
    ];
    const first = open({ migrations: steps });
    expect(first.userVersion).toBe(2);
    first.close();
    const again = open({ migrations: steps });
    expect(again.userVersion).toBe(2);
    expect(ran).toEqual([1, 2]);
  });

  it('bring an older file forward from where it is, running only the steps it lacks', () => {
    open({ migrations: [NOTES] }).close();
    const ran: string[] = [];
    const db = open({
      migrations: [
        () => ran.push('v1 again'),
        (c) => {
          ran.push('v2');
          c.exec('ALTER TABLE notes ADD COLUMN author TEXT');
        },
      ],
    });
    expect(ran).toEqual(['v2']);
    expect(db.userVersion).toBe(2);
  });

  it('commit each step with its version: a failing step leaves the file at the step before, and is tried again', () => {
    const broken: Migration[] = [
      NOTES,
      () => {
        throw new Error('step 2 is broken');
      },
    ];
    expect(() => open({ migrations: broken })).toThrow('step 2 is broken');
    const check = other();
    expect(check.pragma('user_version', { simple: true })).toBe(1);
    expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'notes'").get()).toEqual({ name: 'notes' });
    check.close();

    const fixed = open({ migrations: [NOTES, 'ALTER TABLE notes ADD COLUMN author TEXT'] });
    expect(fixed.userVersion).toBe(2);
  });

  it('refuse a file from newer code with TOO_NEW, saying both versions, and touch nothing', () => {
    const newer = other();
    newer.pragma('user_version = 5');
    newer.close();
    const error = failure(() => open({ migrations: [NOTES, NOTES] }), 'TOO_NEW');
    expect(error.version).toEqual({ found: 5, supported: 2 });
    const check = other();
    expect(check.pragma('user_version', { simple: true })).toBe(5);
    expect(check.prepare("SELECT name FROM sqlite_master WHERE name = 'notes'").get()).toBeUndefined();
  });

  it('leave user_version alone when a store gives none', () => {
    const db = open();
    expect(db.userVersion).toBe(0);
  });
});

describe("SQLite's failures", () => {
  it('a file that is not a database is CORRUPT, and nothing stays open', () => {
    writeFileSync(join(dir, 'text.db'), 'this is not a database, just some text. '.repeat(50));
    const error = failure(() => open({ pragmas: { journal_mode: 'WAL' } }, 'text.db'), 'CORRUPT');
    expect(error.path).toBe(join(dir, 'text.db'));
    expect(error.cause).toBeInstanceOf(Database.SqliteError);
  });

  it('a write lock held past the busy timeout is LOCKED; the write works once it is released', () => {
    const db = open({ pragmas: { journal_mode: 'WAL', busy_timeout: 0 }, migrations: [NOTES] });
    const holder = other();
    holder.exec('BEGIN IMMEDIATE');
    failure(() => db.write(() => db.statement('INSERT INTO notes (text) VALUES (?)').run('x')), 'LOCKED');
    holder.exec('ROLLBACK');
    db.write(() => db.statement('INSERT INTO notes (text) VALUES (?)').run('x'));
    expect(db.statement('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 1 });
  });

  it('a full disk is DISK_FULL', () => {
    const db = open({ migrations: [NOTES] });
    const pages = db.connection.pragma('page_count', { simple: true }) as number;
    db.connection.pragma(`max_page_count = ${pages}`);
    failure(
      () => db.write(() => db.statement('INSERT INTO notes (text) VALUES (?)').run('x'.repeat(100_000))),
      'DISK_FULL',
    );
  });

  it('a write to a file opened read-only is READ_ONLY', () => {
    open({ migrations: [NOTES] }).close();
    const readOnly = other('store.db', { readonly: true });
    const error = translateSqliteError(
      thrown(() => readOnly.prepare("INSERT INTO notes (text) VALUES ('x')").run()),
      'store.db',
    );
    expect(error).toMatchObject({ code: 'READ_ONLY', path: 'store.db' });
  });

  it("anything else (a store's own constraint, a typo) stays as SQLite threw it", () => {
    const db = open({ migrations: [NOTES] });
    const error = thrown(() => db.write(() => db.statement('INSERT INTO notes (text) VALUES (NULL)').run()));
    expect(error).toBeInstanceOf(Database.SqliteError);
    expect(error).toMatchObject({ code: 'SQLITE_CONSTRAINT_NOTNULL' });
    const own = new Error('the store said no');
    expect(
      thrown(() =>
        db.write(() => {
          throw own;
        }),
      ),
    ).toBe(own);
  });
});

describe('transactions', () => {
  it('a write that throws leaves nothing behind', () => {
    const db = open({ migrations: [NOTES] });
    expect(() =>
      db.write(() => {
        db.statement('INSERT INTO notes (text) VALUES (?)').run('half');
        throw new Error('changed my mind');
      }),
    ).toThrow('changed my mind');
    expect(db.statement('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 0 });
  });

  it('a write inside a write is part of it: both go when the outer one throws', () => {
    const db = open({ migrations: [NOTES] });
    expect(() =>
      db.write(() => {
        db.write(() => db.statement('INSERT INTO notes (text) VALUES (?)').run('inner'));
        throw new Error('outer fails');
      }),
    ).toThrow('outer fails');
    expect(db.statement('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 0 });
  });

  it('a write takes the write lock before it reads: another connection cannot write meanwhile', () => {
    const db = open({ pragmas: { journal_mode: 'WAL' }, migrations: [NOTES] });
    const writer = other('store.db', { timeout: 0 });
    db.write(() => {
      expect(() => writer.prepare("INSERT INTO notes (text) VALUES ('x')").run()).toThrow(/locked|busy/i);
    });
  });

  it('a read sees one snapshot of the file, whatever another connection commits meanwhile', () => {
    const db = open({ pragmas: { journal_mode: 'WAL' }, migrations: [NOTES] });
    const writer = other();
    const counts = db.read(() => {
      const count = (): unknown => db.statement('SELECT COUNT(*) AS n FROM notes').get();
      const before = count();
      writer.prepare("INSERT INTO notes (text) VALUES ('x')").run();
      return [before, count()];
    });
    expect(counts).toEqual([{ n: 0 }, { n: 0 }]);
    expect(db.statement('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 1 });
  });
});

describe('statements', () => {
  it("are compiled once per SQL text through statement(); the connection's own prepare is better-sqlite3's, untouched", () => {
    const db = open({ migrations: [NOTES] });
    const first = db.statement('SELECT text FROM notes');
    expect(db.statement('SELECT text FROM notes')).toBe(first);
    expect(db.connection.prepare('SELECT text FROM notes')).not.toBe(first);
  });
});

describe('change stamps', () => {
  it('stay equal while nothing is committed: reads and failed writes of nothing change nothing', () => {
    const db = open({ pragmas: { journal_mode: 'WAL' }, migrations: [NOTES] });
    const before = db.changeStamp();
    db.statement('SELECT text FROM notes').all();
    db.read(() => db.statement('SELECT COUNT(*) FROM notes').get());
    other().prepare('SELECT text FROM notes').all();
    expect(sameStamp(db.changeStamp(), before)).toBe(true);
  });

  it("change with another connection's commit, whether or not this one read the file since", () => {
    const db = open({ pragmas: { journal_mode: 'WAL' }, migrations: [NOTES] });
    const neighbour = other();
    const before = db.changeStamp();
    neighbour.prepare('INSERT INTO notes (text) VALUES (?)').run('theirs');
    const after = db.changeStamp();
    expect(sameStamp(after, before)).toBe(false);
    expect(after.ownChanges).toBe(before.ownChanges);
    // One commit, one change: asked again, the stamp holds.
    expect(sameStamp(db.changeStamp(), after)).toBe(true);
  });

  it("change with this connection's own writes, which SQLite's data version does not count", () => {
    const db = open({ pragmas: { journal_mode: 'WAL' }, migrations: [NOTES] });
    const before = db.changeStamp();
    db.write(() => db.statement('INSERT INTO notes (text) VALUES (?)').run('mine'));
    const afterWrite = db.changeStamp();
    expect(afterWrite.dataVersion).toBe(before.dataVersion);
    expect(sameStamp(afterWrite, before)).toBe(false);
    expect(afterWrite.ownChanges).toBe(before.ownChanges + 1);
    db.autocommit(() => db.statement('UPDATE notes SET text = ?').run('mine, again'));
    expect(sameStamp(db.changeStamp(), afterWrite)).toBe(false);
  });

  it('are asked with statements of their own: the shared statement of the same text keeps its mode', () => {
    const db = open({ migrations: [NOTES] });
    db.changeStamp();
    expect(db.statement('PRAGMA data_version').get()).toEqual({ data_version: expect.any(Number) as unknown });
    expect(db.statement('SELECT total_changes()').get()).toEqual({ 'total_changes()': 0 });
  });
});

describe('a file opened on a full disk (whenFull: hold)', () => {
  const WAL: OpenOptions = { pragmas: { journal_mode: 'WAL' }, migrations: [NOTES], whenFull: 'hold' };
  let disk: SmallDisk | undefined;
  afterEach(() => {
    disk?.unmount();
    disk = undefined;
  });

  it('is read (its write-ahead index in memory), refuses every write with DISK_FULL, and opens as asked once there is room', () => {
    disk = mountSmallDisk(2 * 1024 * 1024);
    const path = join(disk.dir, 'store.db');
    const first = openDatabase(path, WAL);
    first.write(() => first.statement('INSERT INTO notes (text) VALUES (?)').run('before'));
    first.close();
    disk.fill();
    // As asked it cannot open: the -shm index cannot grow on a full disk.
    expect(thrown(() => openDatabase(path, { ...WAL, whenFull: undefined }))).toMatchObject({
      code: 'SQLITE_IOERR_SHMSIZE',
    });
    const held = openDatabase(path, WAL);
    opened.push(held);
    expect(held.held).toBe(true);
    expect(held.statement('SELECT text FROM notes').all()).toEqual([{ text: 'before' }]);
    failure(() => held.write(() => held.statement('INSERT INTO notes (text) VALUES (?)').run('lost')), 'DISK_FULL');
    expect(held.reopen(true)).toBe(false);
    const whileHeld = held.changeStamp();
    disk.free();
    // The next write opens it as asked (at most once a second unless forced) and goes through.
    expect(held.reopen(true)).toBe(true);
    expect(held.held).toBe(false);
    // Another connection, whose counts start again: its stamp never passes for the held one's.
    expect(sameStamp(held.changeStamp(), whileHeld)).toBe(false);
    held.write(() => held.statement('INSERT INTO notes (text) VALUES (?)').run('after'));
    expect(held.statement('SELECT text FROM notes ORDER BY id').all()).toEqual([{ text: 'before' }, { text: 'after' }]);
    expect(pragma(held, 'journal_mode')).toBe('wal');
  });

  it('stands in empty, in memory with its schema, for a file that could not be made, and makes it once there is room', () => {
    disk = mountSmallDisk(1024 * 1024);
    disk.fill();
    const path = join(disk.dir, 'fresh', 'store.db');
    const held = openDatabase(path, WAL);
    opened.push(held);
    expect(held.held).toBe(true);
    expect(held.statement('SELECT COUNT(*) AS n FROM notes').get()).toEqual({ n: 0 });
    failure(() => held.write(() => held.statement('INSERT INTO notes (text) VALUES (?)').run('x')), 'DISK_FULL');
    disk.free();
    expect(held.reopen(true)).toBe(true);
    held.write(() => held.statement('INSERT INTO notes (text) VALUES (?)').run('x'));
    const reader = new Database(path, { readonly: true });
    opened.push(reader);
    expect(reader.prepare('SELECT text FROM notes').all()).toEqual([{ text: 'x' }]);
  });

  it('is refused as before without whenFull, and a damaged file stays CORRUPT with it', () => {
    writeFileSync(join(dir, 'junk.db'), 'not a database at all, but long enough to have a header '.repeat(20));
    failure(() => open({ ...WAL }, 'junk.db'), 'CORRUPT');
  });
});
