/**
 * The payment journal on real SQLite files in a temp directory: every move of TRANSITIONS, the
 * refusals, the queues recovery reads, reopening, card data kept off disk, damaged rows.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Journal, JournalError, UNFINISHED_SQL, type JournalOptions } from '../../../../main/core/journal/journal.js';
import type { NewPayment, PaymentPatch, PaymentRecord } from '../../../../main/core/journal/record.js';
import { centavos, isCentavos } from '../../../../main/core/money.js';
import { SCHEMA_VERSION } from '../../../../main/core/journal/schema.js';
import {
  FINAL_STATES,
  PAYMENT_STATES,
  TRANSITIONS,
  UNDO_STATES,
  type PaymentState,
} from '../../../../main/core/states.js';
import { mountSmallDisk, type SmallDisk } from '../../../helpers/small-disk.js';
import { thrown } from '../../../helpers/thrown.js';
import { luhnValid } from '../../../../drivers/card-number.js';

const PAN = '4111111111111111';

let dir: string;
let opened: Journal[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-journal-'));
  opened = [];
});

afterEach(() => {
  for (const journal of opened) {
    try {
      journal.close();
    } catch {
      // already closed by the test
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A clock that moves only when told (1 ms per tick by default, so every write has its own time). */
function clock(start = '2026-03-10T12:00:00.000Z'): { now: () => Date; set: (iso: string | Date) => void } {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current++),
    set: (at) => {
      current = new Date(at).getTime();
    },
  };
}

function open(options: JournalOptions = {}, file = 'journal.db'): Journal {
  const journal = Journal.open(join(dir, file), { now: clock().now, ...options });
  opened.push(journal);
  return journal;
}

let references = 0;
function payment(overrides: Partial<NewPayment> = {}): NewPayment {
  references += 1;
  return {
    referenceId: `sale-${references}`,
    source: 'pos',
    terminal: 'PP-0001',
    amount: centavos(12_345),
    paymentType: 'credit',
    installments: null,
    description: 'Venda balcão',
    notification: 'Loja Centro',
    paramsHash: 'a'.repeat(64),
    confirmation: 'auto',
    ...overrides,
  };
}

const card = { brand: 'visa', maskedPan: '411111******1111', entryMode: 'chip' } as const;
const authorization = {
  authorizationCode: 'A1B2C3',
  nsu: '000123456',
  responseCode: '00',
  responseMessage: 'approved',
};
const problem = { code: 'CARD_DECLINED', message: 'the issuer declined', cashierMessage: 'Cartão recusado' };

/** What a step of the engine writes along with each state (so paths carry realistic records). */
function patchFor(to: PaymentState): PaymentPatch {
  switch (to) {
    case 'created':
      return { transactionId: 'f'.repeat(32) };
    case 'card_read':
      return { card, installments: 3 };
    case 'approved':
      return { authorization };
    case 'declined':
    case 'failed':
    case 'cancelled':
      return { problem };
    case 'aborting':
    case 'reversing':
    case 'undoing':
      return { pendingUndo: { attempts: 0, nextAttemptAt: '2026-03-10T12:00:05.000Z', lastError: null } };
    default:
      return {};
  }
}

/**
 * Every path of TRANSITIONS from `from` that ends in a final state (the graph has no cycles). A
 * final state with moves of its own (a confirmed sale voided later) ends one path and starts more.
 */
function pathsToEnd(from: PaymentState): PaymentState[][] {
  const onward = TRANSITIONS[from].flatMap((next) => pathsToEnd(next).map((rest) => [from, ...rest]));
  return FINAL_STATES.has(from) ? [[from], ...onward] : onward;
}

/** The shortest way from intent to `target`. */
function shortestPath(target: PaymentState): PaymentState[] {
  const queue: PaymentState[][] = [['intent']];
  while (queue.length > 0) {
    const path = queue.shift()!;
    const last = path.at(-1)!;
    if (last === target) return path;
    for (const next of TRANSITIONS[last]) queue.push([...path, next]);
  }
  throw new Error(`${target} cannot be reached from intent`);
}

function walk(journal: Journal, path: readonly PaymentState[], overrides: Partial<NewPayment> = {}): PaymentRecord {
  let record = journal.createIntent(payment(overrides));
  for (const to of path.slice(1)) record = journal.transition(record.id, to, patchFor(to), `to ${to}`);
  return record;
}

/** Every byte the journal put on disk (database, WAL), as latin1 text to search. */
function bytesOnDisk(): string {
  return readdirSync(dir)
    .map((name) => readFileSync(join(dir, name)).toString('latin1'))
    .join('');
}

describe('Journal.open', () => {
  it('creates the directories, the file and the schema, in WAL mode at the current schema version', () => {
    const path = join(dir, 'nested', 'deeper', 'journal.db');
    const journal = Journal.open(path);
    opened.push(journal);
    expect(journal.path).toBe(path);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    const indexes = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'payments'").all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    expect(indexes).toEqual(
      expect.arrayContaining([
        'payments_by_reference',
        'payments_by_transaction',
        'payments_by_created',
        'payments_unfinished',
      ]),
    );
    db.close();
  });

  it('brings a version 1 file (before payments had an owner) up to date, its payments owned by no POS client', () => {
    const path = join(dir, 'journal.db');
    const first = Journal.open(path);
    const before = first.createIntent(payment());
    first.close();
    // Version 1 had no owner column.
    const v1 = new Database(path);
    v1.exec('DROP INDEX payments_by_owner; ALTER TABLE payments DROP COLUMN owner;');
    v1.pragma('user_version = 1');
    v1.close();

    const journal = Journal.open(path);
    opened.push(journal);
    expect(journal.get(before.id)).toEqual({ ...before, owner: null });
    const owned = journal.createIntent(payment({ owner: 'client-a' }));
    expect(journal.list({ owner: 'client-a' }).items.map((record) => record.id)).toEqual([owned.id]);
    const db = new Database(path, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('works in memory with ":memory:"', () => {
    const journal = Journal.open(':memory:');
    const record = journal.createIntent(payment());
    expect(journal.get(record.id)).toEqual(record);
    journal.close();
  });

  it('with mustExist, refuses a missing file with NOT_FOUND and creates nothing', () => {
    const path = join(dir, 'missing', 'journal.db');
    const error = thrown(() => Journal.open(path, { mustExist: true }));
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toMatchObject({ code: 'NOT_FOUND' });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a file written by a newer Pinbridge (schema version ahead) with CORRUPT', () => {
    const path = join(dir, 'journal.db');
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(thrown(() => Journal.open(path))).toMatchObject({
      code: 'CORRUPT',
      message: expect.stringMatching(/newer/) as unknown,
    });
  });

  it('refuses a file that is not a SQLite database with CORRUPT', () => {
    const path = join(dir, 'journal.db');
    writeFileSync(path, 'this is not a database, just some text that is long enough to have a header'.repeat(20));
    expect(thrown(() => Journal.open(path))).toMatchObject({ code: 'CORRUPT' });
  });
});

describe('Journal.open on a full disk', () => {
  const MiB = 1024 * 1024;
  let disk: SmallDisk | undefined;
  afterEach(() => {
    for (const journal of opened.splice(0)) journal.close();
    disk?.unmount();
    disk = undefined;
  });

  /** A journal on a small disk with one sale left in flight, closed; then the disk filled. */
  function leftOnFullDisk(reserveBytes: number): { path: string; inFlight: PaymentRecord } {
    disk = mountSmallDisk(8 * MiB);
    const path = join(disk.dir, 'journal.db');
    const before = Journal.open(path, { now: clock().now, reserveBytes, minFreeBytes: MiB });
    const inFlight = walk(before, shortestPath('authorizing'));
    before.close();
    disk.fill();
    return { path, inFlight };
  }

  it('gives its reserve back and opens as usual, so recovery can write', () => {
    const { path, inFlight } = leftOnFullDisk(2 * MiB);
    const said: string[] = [];
    const journal = Journal.open(path, { reserveBytes: 2 * MiB, minFreeBytes: MiB, onDiskFull: (m) => said.push(m) });
    opened.push(journal);
    expect(journal.held).toBe(false);
    expect(said).toEqual([expect.stringContaining('its reserve was given back so that the journal opens')]);
    expect(journal.transition(inFlight.id, 'unknown').state).toBe('unknown');
    // No room for a new sale though: the reserve cannot be held again.
    expect(journal.room()).toMatchObject({ reserveHeld: false, enough: false });
  });

  it('with no reserve to give, opens read-only: it tells the truth, refuses every write (DISK_FULL) and opens as usual once there is room', () => {
    const { path, inFlight } = leftOnFullDisk(0);
    const journal = Journal.open(path, { reserveBytes: 0, minFreeBytes: MiB });
    opened.push(journal);
    expect(journal.held).toBe(true);
    expect(journal.unfinished().map((record) => [record.referenceId, record.state])).toEqual([
      [inFlight.referenceId, 'authorizing'],
    ]);
    expect(journal.findByReference(inFlight.referenceId)?.state).toBe('authorizing');
    expect(thrown(() => journal.transition(inFlight.id, 'unknown'))).toMatchObject({ code: 'DISK_FULL' });
    expect(thrown(() => journal.createIntent(payment()))).toMatchObject({ code: 'DISK_FULL' });
    expect(journal.room().enough).toBe(false);

    disk!.free();
    // room() (before each sale) opens it as usual; the write it refused goes through now.
    expect(journal.room().enough).toBe(true);
    expect(journal.held).toBe(false);
    expect(journal.transition(inFlight.id, 'unknown').state).toBe('unknown');
    expect(journal.createIntent(payment()).state).toBe('intent');
  });

  it('with no journal yet, starts empty in memory and makes its file once there is room', () => {
    disk = mountSmallDisk(4 * MiB);
    disk.fill();
    const path = join(disk.dir, 'journal.db');
    const journal = Journal.open(path, { reserveBytes: 0, minFreeBytes: 0 });
    opened.push(journal);
    expect(journal.held).toBe(true);
    expect(journal.unfinished()).toEqual([]);
    expect(thrown(() => journal.createIntent(payment()))).toMatchObject({ code: 'DISK_FULL' });
    disk.free();
    const record = journal.createIntent(payment());
    expect(journal.held).toBe(false);
    const reader = Journal.open(path, { mustExist: true });
    opened.push(reader);
    expect(reader.get(record.id)?.referenceId).toBe(record.referenceId);
  });
});

describe('createIntent', () => {
  it("journals the payment in state intent with a new 32-hex id, the clock's times and a first event", () => {
    const journal = open({ now: () => new Date('2026-03-10T12:00:00.123Z') });
    const record = journal.createIntent(payment({ referenceId: 'pos-42', installments: 2 }));
    expect(record).toMatchObject({
      referenceId: 'pos-42',
      state: 'intent',
      amount: 12_345,
      installments: 2,
      transactionId: null,
      card: null,
      createdAt: '2026-03-10T12:00:00.123Z',
      updatedAt: '2026-03-10T12:00:00.123Z',
      finishedAt: null,
    });
    expect(record.id).toMatch(/^[0-9a-f]{32}$/);
    expect(journal.get(record.id)).toEqual(record);
    expect(journal.events(record.id)).toEqual([
      {
        paymentId: record.id,
        seq: 1,
        at: '2026-03-10T12:00:00.123Z',
        from: null,
        to: 'intent',
        note: 'payment intent',
      },
    ]);
  });

  it('gives every payment its own id', () => {
    const journal = open();
    const ids = Array.from({ length: 200 }, () => journal.createIntent(payment()).id);
    expect(new Set(ids).size).toBe(200);
  });

  it('journals a pending transaction picked up from the API (source remote, transaction id known) as created', () => {
    const journal = open();
    const record = journal.createIntent(payment({ source: 'remote', transactionId: 'c'.repeat(32) }));
    expect(record).toMatchObject({ state: 'created', source: 'remote', transactionId: 'c'.repeat(32) });
    expect(journal.events(record.id).map((e) => [e.from, e.to])).toEqual([[null, 'created']]);
  });

  it('refuses a reference already journaled with REFERENCE_EXISTS naming the first payment, and writes nothing', () => {
    const journal = open();
    const first = journal.createIntent(payment({ referenceId: 'dup' }));
    const error = thrown(() => journal.createIntent(payment({ referenceId: 'dup', amount: centavos(1) })));
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toMatchObject({ code: 'REFERENCE_EXISTS', paymentId: first.id });
    expect(journal.list().total).toBe(1);
    expect(journal.findByReference('dup')).toEqual(first);
  });

  it.each<[string, Partial<NewPayment>]>([
    ['installments on a debit payment', { paymentType: 'debit', installments: 2 }],
    ['13 installments', { installments: 13 }],
    ['an empty reference', { referenceId: '' }],
  ])('refuses %s with INVALID_RECORD and writes nothing', (_, overrides) => {
    const journal = open();
    expect(thrown(() => journal.createIntent(payment(overrides)))).toMatchObject({ code: 'INVALID_RECORD' });
    expect(journal.list().total).toBe(0);
  });

  it('takes the amount only as Centavos: a zero or fractional one does not compile, and centavos() refuses it where it comes in', () => {
    // @ts-expect-error — a bare number is not Centavos: the journal takes only an amount checked where the sale came in
    const zero: NewPayment['amount'] = 0;
    // @ts-expect-error — nor is a fractional one
    const fractional: NewPayment['amount'] = 10.5;
    for (const bad of [zero, fractional]) {
      expect(() => centavos(bad)).toThrow(RangeError);
      expect(isCentavos(bad)).toBe(false);
    }
  });
});

describe('transition', () => {
  it('walks the happy path, applying each patch, with one event per step in order', () => {
    const journal = open();
    const path: PaymentState[] = [
      'intent',
      'created',
      'card_read',
      'authorizing',
      'approved',
      'completing',
      'awaiting_confirmation',
      'confirmed',
    ];
    const record = walk(journal, path);
    expect(record).toMatchObject({
      state: 'confirmed',
      transactionId: 'f'.repeat(32),
      card,
      installments: 3,
      authorization,
      problem: null,
    });
    expect(journal.get(record.id)).toEqual(record);
    const events = journal.events(record.id);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(events.map((e) => [e.from, e.to])).toEqual(path.map((to, i) => [i === 0 ? null : path[i - 1], to]));
    expect(events.slice(1).map((e) => e.note)).toEqual(path.slice(1).map((to) => `to ${to}`));
    const times = events.map((e) => e.at);
    expect([...times].sort()).toEqual(times);
  });

  const allPaths = pathsToEnd('intent');

  it('the paths tried below use every move of TRANSITIONS', () => {
    const used = new Set(allPaths.flatMap((path) => path.slice(1).map((to, i) => `${path[i]}→${to}`)));
    const declared = Object.entries(TRANSITIONS).flatMap(([from, targets]) => targets.map((to) => `${from}→${to}`));
    expect([...used].sort()).toEqual(declared.sort());
  });

  it.each(allPaths.map((path) => [path.join(' → '), path] as const))(
    '%s ends final, finishedAt set exactly while final',
    (_, path) => {
      const journal = open();
      let record = journal.createIntent(payment());
      for (const to of path.slice(1)) {
        record = journal.transition(record.id, to, patchFor(to));
        expect(record.finishedAt).toBe(FINAL_STATES.has(to) ? record.updatedAt : null);
      }
      expect(record.state).toBe(path.at(-1));
      expect(FINAL_STATES.has(record.state)).toBe(true);
      expect(journal.get(record.id)).toEqual(record);
      expect(journal.events(record.id)).toHaveLength(path.length);
      expect(journal.unfinished()).toEqual([]);
    },
  );

  it('puts a confirmed sale voided later back among the unfinished payments and the undo queue until it is undone', () => {
    const journal = open();
    const confirmed = walk(journal, [
      'intent',
      'created',
      'card_read',
      'authorizing',
      'approved',
      'completing',
      'awaiting_confirmation',
      'confirmed',
    ]);
    expect(journal.unfinished()).toEqual([]);
    const undoing = journal.transition(confirmed.id, 'undoing', patchFor('undoing'), 'voided by the cashier');
    expect(undoing.finishedAt).toBeNull();
    expect(journal.unfinished().map((r) => r.id)).toEqual([confirmed.id]);
    expect(journal.pendingUndos().map((r) => r.id)).toEqual([confirmed.id]);
    const undone = journal.transition(confirmed.id, 'undone', { pendingUndo: null });
    expect(undone.finishedAt).toBe(undone.updatedAt);
    expect(journal.unfinished()).toEqual([]);
  });

  it('refuses every move TRANSITIONS does not allow with INVALID_TRANSITION, leaving the row and its events unchanged', () => {
    const journal = open();
    let refused = 0;
    for (const from of PAYMENT_STATES) {
      const record = walk(journal, shortestPath(from));
      const events = journal.events(record.id);
      for (const to of PAYMENT_STATES) {
        if (TRANSITIONS[from].includes(to)) continue;
        const error = thrown(() => journal.transition(record.id, to, { problem }, 'not allowed'));
        expect(error).toBeInstanceOf(JournalError);
        expect(error).toMatchObject({ code: 'INVALID_TRANSITION', paymentId: record.id });
        refused += 1;
      }
      expect(journal.get(record.id)).toEqual(record);
      expect(journal.events(record.id)).toEqual(events);
    }
    expect(refused).toBeGreaterThan(200);
  });

  it('refuses an unknown id with NOT_FOUND', () => {
    const journal = open();
    expect(thrown(() => journal.transition('0'.repeat(32), 'created'))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('changes only the fields the patch gives: undefined keeps a value, null clears it', () => {
    const journal = open();
    const record = walk(journal, ['intent', 'created', 'card_read', 'authorizing', 'unknown']);
    const next = journal.transition(record.id, 'aborting', {
      problem,
      pendingUndo: { attempts: 0, nextAttemptAt: '2026-03-10T12:01:00.000Z', lastError: null },
      card: undefined,
      customerTaxId: null,
    });
    expect(next.card).toEqual(card);
    expect(next.transactionId).toBe('f'.repeat(32));
    expect(next.problem).toEqual(problem);
    const ended = journal.transition(record.id, 'failed', { pendingUndo: null });
    expect(ended.pendingUndo).toBeNull();
    expect(ended.problem).toEqual(problem);
  });

  it('refuses an invalid patch with INVALID_RECORD and writes nothing', () => {
    const journal = open();
    const record = walk(journal, ['intent', 'created']);
    expect(thrown(() => journal.transition(record.id, 'card_read', { installments: 13 }))).toMatchObject({
      code: 'INVALID_RECORD',
    });
    expect(journal.get(record.id)).toEqual(record);
    expect(journal.events(record.id)).toHaveLength(2);
  });

  it('refuses a card whose PAN is not masked to first 6 / last 4 with INVALID_RECORD', () => {
    const journal = open();
    const record = walk(journal, ['intent', 'created']);
    const error = thrown(() =>
      journal.transition(record.id, 'card_read', { card: { ...card, maskedPan: '4111********1111' } }),
    );
    expect(error).toMatchObject({ code: 'INVALID_RECORD' });
  });
});

describe('transitions', () => {
  it('makes several moves in one commit, each with its patch and its own event, and returns the record after each', () => {
    const journal = open();
    const created = walk(journal, ['intent', 'created']);
    const [read, authorizing] = journal.transitions(created.id, [
      { to: 'card_read', patch: patchFor('card_read'), note: 'card read' },
      { to: 'authorizing', note: 'authorization sent' },
    ]);
    expect(read).toMatchObject({ state: 'card_read', card: patchFor('card_read').card });
    expect(authorizing).toMatchObject({ state: 'authorizing', card: patchFor('card_read').card });
    expect(journal.get(created.id)).toEqual(authorizing);
    expect(journal.events(created.id).map((e) => [e.from, e.to, e.note])).toEqual([
      [null, 'intent', 'payment intent'],
      ['intent', 'created', 'to created'],
      ['created', 'card_read', 'card read'],
      ['card_read', 'authorizing', 'authorization sent'],
    ]);
  });

  it('writes none of the moves when one of them is refused', () => {
    const journal = open();
    const created = walk(journal, ['intent', 'created']);
    const events = journal.events(created.id);
    const error = thrown(() =>
      journal.transitions(created.id, [{ to: 'card_read', patch: patchFor('card_read') }, { to: 'confirmed' }]),
    );
    expect(error).toMatchObject({ code: 'INVALID_TRANSITION' });
    expect(journal.get(created.id)).toEqual(created);
    expect(journal.events(created.id)).toEqual(events);
  });
});

describe('transitionsSyncedLater and flush', () => {
  it('commits at once, for every reader of the file, and is on the disk when onDisk resolves', async () => {
    const journal = open();
    const completing = walk(journal, ['intent', 'created', 'card_read', 'authorizing', 'approved', 'completing']);
    const { records, onDisk } = journal.transitionsSyncedLater(completing.id, [
      { to: 'awaiting_confirmation', note: 'ready' },
      { to: 'confirmed', note: 'auto' },
    ]);
    expect(records.map((r) => r.state)).toEqual(['awaiting_confirmation', 'confirmed']);
    // Another connection (the support CLI) sees the commit before the fsync is done: it is in the log.
    const reader = new Database(join(dir, 'journal.db'), { readonly: true });
    try {
      expect(reader.prepare('SELECT state FROM payments WHERE id = ?').get(completing.id)).toEqual({
        state: 'confirmed',
      });
    } finally {
      reader.close();
    }
    await expect(onDisk).resolves.toBeUndefined();
    expect(journal.get(completing.id)).toEqual(records[1]);
  });

  it('refuses a move it may not make, like transitions, and writes nothing', () => {
    const journal = open();
    const created = walk(journal, ['intent', 'created']);
    expect(thrown(() => journal.transitionsSyncedLater(created.id, [{ to: 'confirmed' }]))).toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    expect(journal.get(created.id)).toEqual(created);
  });

  it('shares one fsync among the callers that come while one is in flight (group commit)', async () => {
    const journal = open();
    walk(journal, ['intent']);
    const first = journal.flush();
    const waiting = Array.from({ length: 10 }, () => journal.flush());
    // One in flight; every later caller waits for the single one queued behind it.
    expect(new Set(waiting).size).toBe(1);
    expect(waiting[0]).not.toBe(first);
    await Promise.all([first, ...waiting]);
    // Nothing in flight any more: the next caller starts a fresh one.
    const next = journal.flush();
    expect(next).not.toBe(waiting[0]);
    await next;
  });

  it('has nothing to flush for a journal in memory', async () => {
    const journal = Journal.open(':memory:');
    opened.push(journal);
    const record = journal.createIntent(payment());
    const { onDisk } = journal.transitionsSyncedLater(record.id, [{ to: 'cancelled', patch: { problem } }]);
    await expect(onDisk).resolves.toBeUndefined();
  });

  it('rejects onDisk with IO when the write-ahead log cannot be reached, the commit itself kept', async () => {
    const journal = open();
    const record = walk(journal, ['intent']);
    rmSync(join(dir, 'journal.db-wal'));
    const { records, onDisk } = journal.transitionsSyncedLater(record.id, [{ to: 'cancelled', patch: { problem } }]);
    const error = await onDisk.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(JournalError);
    expect((error as JournalError).code).toBe('IO');
    expect((error as JournalError).message).toContain('journal.db-wal');
    expect(journal.get(record.id)).toEqual(records[0]);
  });

  it('closes while an fsync is in flight without failing it', async () => {
    const journal = open();
    walk(journal, ['intent']);
    const flushing = journal.flush();
    journal.close();
    await expect(flushing).resolves.toBeUndefined();
  });
});

describe('annotate', () => {
  it('adds a line to a final payment’s history (a void refused for a wrong supervisor PIN) and leaves the payment as it was', () => {
    const journal = open();
    const confirmed = walk(journal, [
      'intent',
      'created',
      'card_read',
      'authorizing',
      'approved',
      'completing',
      'awaiting_confirmation',
      'confirmed',
    ]);
    const before = journal.events(confirmed.id).length;
    journal.annotate(confirmed.id, 'void refused: wrong supervisor PIN (PIN typed in the window); 4 attempt(s) left');
    expect(journal.get(confirmed.id)).toEqual(confirmed);
    const events = journal.events(confirmed.id);
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toMatchObject({
      from: 'confirmed',
      to: 'confirmed',
      note: 'void refused: wrong supervisor PIN (PIN typed in the window); 4 attempt(s) left',
    });
  });

  it('writes a note that holds a card number masked: the line is kept, the number is not', () => {
    const journal = open();
    const record = walk(journal, ['intent']);
    const before = journal.events(record.id).length;
    journal.annotate(record.id, `typed ${PAN}`);
    expect(journal.events(record.id)).toHaveLength(before + 1);
    expect(journal.events(record.id).at(-1)?.note).toBe('typed 411111******1111');
    journal.close();
    expect(bytesOnDisk()).not.toContain(PAN);
  });
});

describe('update', () => {
  it('changes fields without moving, with an event from the state to itself', () => {
    const journal = open();
    const record = walk(journal, ['intent', 'created', 'card_read', 'authorizing', 'approved', 'reversing']);
    const retried = journal.update(
      record.id,
      { pendingUndo: { attempts: 1, nextAttemptAt: '2026-03-10T12:05:00.000Z', lastError: 'API_UNAVAILABLE' } },
      'reversal attempt 1 failed',
    );
    expect(retried).toMatchObject({
      state: 'reversing',
      pendingUndo: { attempts: 1, lastError: 'API_UNAVAILABLE' },
      finishedAt: null,
    });
    expect(retried.updatedAt > record.updatedAt).toBe(true);
    expect(journal.get(record.id)).toEqual(retried);
    expect(journal.events(record.id).at(-1)).toMatchObject({
      from: 'reversing',
      to: 'reversing',
      note: 'reversal attempt 1 failed',
    });
  });

  it('refuses to change a final payment (INVALID_TRANSITION)', () => {
    const journal = open();
    const record = walk(journal, ['intent', 'cancelled']);
    expect(thrown(() => journal.update(record.id, { customerTaxId: '52998224725' }))).toMatchObject({
      code: 'INVALID_TRANSITION',
    });
    expect(journal.get(record.id)).toEqual(record);
  });

  it('refuses an unknown id with NOT_FOUND', () => {
    expect(thrown(() => open().update('1'.repeat(32), {}))).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('lookups', () => {
  it('finds a payment by its id, its reference and its transaction id; undefined when there is none', () => {
    const journal = open();
    const a = journal.createIntent(payment({ referenceId: 'ref-a' }));
    const b = journal.transition(journal.createIntent(payment({ referenceId: 'ref-b' })).id, 'created', {
      transactionId: 'b'.repeat(32),
    });
    expect(journal.get(a.id)).toEqual(a);
    expect(journal.findByReference('ref-b')).toEqual(b);
    expect(journal.findByTransactionId('b'.repeat(32))).toEqual(b);
    expect(journal.get('0'.repeat(32))).toBeUndefined();
    expect(journal.findByReference('ref-c')).toBeUndefined();
    expect(journal.findByTransactionId('c'.repeat(32))).toBeUndefined();
  });
});

describe('recovery queues', () => {
  it('unfinished() lists every non-final payment, oldest first', () => {
    const journal = open();
    const intent = walk(journal, ['intent']);
    walk(journal, ['intent', 'cancelled']);
    const unknown = walk(journal, ['intent', 'created', 'card_read', 'authorizing', 'unknown']);
    walk(journal, ['intent', 'created', 'card_read', 'authorizing', 'declined']);
    const awaiting = walk(journal, [
      'intent',
      'created',
      'card_read',
      'authorizing',
      'approved',
      'completing',
      'awaiting_confirmation',
    ]);
    expect(journal.unfinished().map((r) => r.id)).toEqual([intent.id, unknown.id, awaiting.id]);
  });

  it('pendingConfirmations() lists the approvals awaiting confirmation, oldest first', () => {
    const journal = open();
    const toAwaiting: PaymentState[] = [
      'intent',
      'created',
      'card_read',
      'authorizing',
      'approved',
      'completing',
      'awaiting_confirmation',
    ];
    const first = walk(journal, toAwaiting, { confirmation: 'pos' });
    walk(journal, [...toAwaiting, 'confirmed']);
    walk(journal, ['intent', 'created']);
    const second = walk(journal, toAwaiting, { confirmation: 'pos' });
    expect(journal.pendingConfirmations().map((r) => r.id)).toEqual([first.id, second.id]);
  });

  it('pendingUndos() lists aborting, reversing and undoing payments by next attempt, never-tried first', () => {
    const journal = open();
    const later = walk(journal, ['intent', 'aborting']);
    journal.update(later.id, {
      pendingUndo: { attempts: 2, nextAttemptAt: '2026-03-10T13:00:00.000Z', lastError: 'timeout' },
    });
    const sooner = walk(journal, ['intent', 'created', 'card_read', 'authorizing', 'approved', 'reversing']);
    journal.update(sooner.id, {
      pendingUndo: { attempts: 1, nextAttemptAt: '2026-03-10T12:30:00.000Z', lastError: 'timeout' },
    });
    const toUndoing: PaymentState[] = [
      'intent',
      'created',
      'card_read',
      'authorizing',
      'approved',
      'completing',
      'awaiting_confirmation',
      'undoing',
    ];
    const never = journal.createIntent(payment());
    for (const to of toUndoing.slice(1)) journal.transition(never.id, to, to === 'undoing' ? {} : patchFor(to));
    walk(journal, ['intent', 'aborting', 'cancelled']);
    walk(journal, ['intent', 'created']);

    const undos = journal.pendingUndos();
    expect(undos.map((r) => r.id)).toEqual([never.id, sooner.id, later.id]);
    expect(undos.every((r) => UNDO_STATES.has(r.state))).toBe(true);
  });

  it('reads unfinished rows through the partial index, never scanning the finished history', () => {
    const journal = open();
    walk(journal, ['intent']);
    journal.close();
    const db = new Database(join(dir, 'journal.db'), { readonly: true });
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${UNFINISHED_SQL}`).all() as { detail: string }[])
      .map((row) => row.detail)
      .join('\n');
    db.close();
    expect(plan).toMatch(/USING INDEX payments_unfinished/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});

describe('list', () => {
  it('pages newest first with the total of every match', () => {
    const journal = open();
    const records = Array.from({ length: 25 }, () => journal.createIntent(payment()));
    const newestFirst = [...records].reverse().map((r) => r.id);
    const first = journal.list({ limit: 10 });
    expect(first.total).toBe(25);
    expect(first.items.map((r) => r.id)).toEqual(newestFirst.slice(0, 10));
    expect(journal.list({ limit: 10, offset: 20 }).items.map((r) => r.id)).toEqual(newestFirst.slice(20));
  });

  it('returns 100 by default and at most 1000', () => {
    const journal = open();
    for (let i = 0; i < 1005; i++) journal.createIntent(payment());
    expect(journal.list().items).toHaveLength(100);
    expect(journal.list({ limit: 5000 }).items).toHaveLength(1000);
    expect(journal.list({ limit: 5000 }).total).toBe(1005);
  });

  it('filters by states, terminal and a createdAt range (from inclusive, to exclusive)', () => {
    const time = clock('2026-03-10T10:00:00.000Z');
    const journal = open({ now: time.now });
    const early = walk(journal, ['intent', 'cancelled'], { terminal: 'PP-A' });
    time.set('2026-03-10T11:00:00.000Z');
    const atEleven = walk(journal, ['intent', 'created'], { terminal: 'PP-B' });
    time.set('2026-03-10T12:00:00.000Z');
    const noon = walk(journal, ['intent', 'failed'], { terminal: 'PP-A' });

    const ids = (query: Parameters<Journal['list']>[0]): string[] => journal.list(query).items.map((r) => r.id);
    expect(ids({ states: ['cancelled', 'failed'] })).toEqual([noon.id, early.id]);
    expect(ids({ states: [] })).toEqual([]);
    expect(ids({ terminal: 'PP-B' })).toEqual([atEleven.id]);
    expect(ids({ from: '2026-03-10T11:00:00.000Z' })).toEqual([noon.id, atEleven.id]);
    expect(ids({ to: '2026-03-10T11:00:00.000Z' })).toEqual([early.id]);
    expect(ids({ from: '2026-03-10T10:30:00.000Z', to: '2026-03-10T12:30:00.000Z', terminal: 'PP-A' })).toEqual([
      noon.id,
    ]);
    expect(journal.list({ terminal: 'PP-A', states: ['failed', 'created'] }).total).toBe(1);
  });
});

describe('list: finding a past sale', () => {
  /** An approved sale with this amount, card and authorization. */
  function approved(
    journal: Journal,
    options: { amount?: number; pan?: string; nsu?: string | null; code?: string | null } = {},
  ): PaymentRecord {
    const record = journal.createIntent(payment({ amount: centavos(options.amount ?? 12_345) }));
    journal.transition(record.id, 'created', { transactionId: 'f'.repeat(32) });
    journal.transition(record.id, 'card_read', { card: { ...card, maskedPan: options.pan ?? card.maskedPan } });
    journal.transition(record.id, 'authorizing');
    return journal.transition(record.id, 'approved', {
      authorization: {
        ...authorization,
        nsu: options.nsu === undefined ? authorization.nsu : options.nsu,
        authorizationCode: options.code === undefined ? authorization.authorizationCode : options.code,
      },
    });
  }

  it('finds a sale by its exact amount in centavos', () => {
    const journal = open();
    const small = approved(journal, { amount: 1234 });
    const big = approved(journal, { amount: 123_456 });
    approved(journal, { amount: 12_340 });
    const ids = (amount: number): string[] => journal.list({ amount }).items.map((r) => r.id);
    expect(ids(1234)).toEqual([small.id]);
    expect(ids(123_456)).toEqual([big.id]);
    expect(ids(999)).toEqual([]);
    expect(journal.list({ amount: 1234 }).total).toBe(1);
  });

  it('finds a sale by its NSU, exactly as the acquirer gave it', () => {
    const journal = open();
    const first = approved(journal, { nsu: '000123456' });
    approved(journal, { nsu: '000123457' });
    approved(journal, { nsu: null });
    expect(journal.list({ nsu: '000123456' }).items.map((r) => r.id)).toEqual([first.id]);
    // Not a prefix or a number: "123456" is another NSU than "000123456".
    expect(journal.list({ nsu: '123456' }).items).toEqual([]);
    expect(journal.list({ nsu: '00012345' }).items).toEqual([]);
  });

  it('finds a sale by its authorization code, whatever the case the cashier typed it in', () => {
    const journal = open();
    const sale = approved(journal, { code: 'A1B2C3' });
    approved(journal, { code: 'Z9Y8X7' });
    approved(journal, { code: null });
    expect(journal.list({ authorizationCode: 'A1B2C3' }).items.map((r) => r.id)).toEqual([sale.id]);
    expect(journal.list({ authorizationCode: 'a1b2c3' }).items.map((r) => r.id)).toEqual([sale.id]);
    expect(journal.list({ authorizationCode: 'A1B2C' }).items).toEqual([]);
  });

  it('finds the sales of a card by its last 4 digits', () => {
    const journal = open();
    const visa = approved(journal, { pan: '411111******1111' });
    const master = approved(journal, { pan: '555555******4444' });
    const visaAgain = approved(journal, { pan: '422222******1111' });
    journal.createIntent(payment()); // no card read yet
    expect(journal.list({ cardLast4: '1111' }).items.map((r) => r.id)).toEqual([visaAgain.id, visa.id]);
    expect(journal.list({ cardLast4: '4444' }).items.map((r) => r.id)).toEqual([master.id]);
    // The first 6 digits are kept too, but they are not the last 4.
    expect(journal.list({ cardLast4: '5555' }).items).toEqual([]);
  });

  it('combines the filters with the date range, the owner and the states, with the total of every match', () => {
    const time = clock('2026-03-09T15:00:00.000Z');
    const journal = open({ now: time.now });
    const yesterday = approved(journal, { amount: 5000, pan: '411111******1111' });
    time.set('2026-03-10T15:00:00.000Z');
    const today = approved(journal, { amount: 5000, pan: '411111******1111' });
    approved(journal, { amount: 5000, pan: '555555******4444' });
    const declined = journal.createIntent(payment({ amount: centavos(5000) }));
    journal.transition(declined.id, 'cancelled', { problem });

    const found = journal.list({
      amount: 5000,
      cardLast4: '1111',
      from: '2026-03-10T03:00:00.000Z',
      to: '2026-03-11T03:00:00.000Z',
    });
    expect(found).toMatchObject({ total: 1, items: [{ id: today.id }] });
    expect(journal.list({ amount: 5000, to: '2026-03-10T03:00:00.000Z' }).items.map((r) => r.id)).toEqual([
      yesterday.id,
    ]);
    expect(journal.list({ amount: 5000 }).total).toBe(4);
    expect(journal.list({ amount: 5000, states: ['cancelled'] }).items.map((r) => r.id)).toEqual([declined.id]);
    expect(journal.list({ amount: 5000, owner: 'pos-a' }).total).toBe(0);
  });

  it('does not fail on a damaged row: it just does not match, and the other sales are still found', () => {
    const reported: JournalError[] = [];
    const journal = open({ onCorrupt: (error) => reported.push(error) });
    const good = approved(journal, { nsu: '111', code: 'AAA111', pan: '411111******1111' });
    const bad = approved(journal, { nsu: '111', code: 'AAA111', pan: '411111******1111' });
    const db = new Database(join(dir, 'journal.db'));
    db.prepare(`UPDATE payments SET authorization_json = '{"nsu": "111", ', card_json = '[not json' WHERE id = ?`).run(
      bad.id,
    );
    db.close();

    expect(journal.list({ nsu: '111' }).items.map((r) => r.id)).toEqual([good.id]);
    expect(journal.list({ authorizationCode: 'AAA111' }).items.map((r) => r.id)).toEqual([good.id]);
    expect(journal.list({ cardLast4: '1111' })).toEqual({
      items: [expect.objectContaining({ id: good.id })],
      total: 1,
    });
    // The damaged row is still there for the lists that read it, and reported when they do.
    expect(journal.list().total).toBe(2);
    expect(reported.map((e) => e.paymentId)).toEqual([bad.id]);
  });
});

describe('today', () => {
  it("returns the payments created since midnight on the store's clock, newest first, whatever the computer's zone", () => {
    const time = clock();
    const journal = open({ now: time.now });
    // Manaus is UTC−4: its day of 10 March begins at 04:00 UTC.
    time.set('2026-03-10T03:59:59.999Z');
    journal.createIntent(payment());
    time.set('2026-03-10T04:00:00.000Z');
    const midnight = journal.createIntent(payment());
    time.set('2026-03-10T22:30:00.000Z');
    const evening = journal.createIntent(payment());
    expect(journal.today('America/Manaus', new Date('2026-03-10T23:00:00.000Z')).map((r) => r.id)).toEqual([
      evening.id,
      midnight.id,
    ]);
    expect(journal.today('America/Manaus').map((r) => r.id)).toEqual([evening.id, midnight.id]);
    // 02:00 UTC on the 11th is still the 10th in Manaus, and already the 11th in UTC.
    expect(journal.today('America/Manaus', new Date('2026-03-11T02:00:00.000Z')).map((r) => r.id)).toEqual([
      evening.id,
      midnight.id,
    ]);
    expect(journal.today('UTC', new Date('2026-03-11T02:00:00.000Z'))).toEqual([]);
    expect(journal.today('America/Manaus', new Date('2026-03-11T08:00:00.000Z'))).toEqual([]);
  });
});

describe('records', () => {
  it('yields every payment in the range, oldest first, across pages, leaving the journal free between them', () => {
    const journal = open();
    const created = Array.from({ length: 1203 }, () => journal.createIntent(payment()));
    const seen: string[] = [];
    for (const record of journal.records()) {
      seen.push(record.id);
      if (seen.length % 500 === 0) expect(journal.events(record.id)).toHaveLength(1);
    }
    expect(seen).toEqual(created.map((r) => r.id));
    expect(
      [...journal.records({ from: created[1000]!.createdAt, to: created[1002]!.createdAt })].map((r) => r.id),
    ).toEqual([created[1000]!.id, created[1001]!.id]);
  });
});

describe('on disk', () => {
  it('keeps everything after close and reopen', () => {
    const journal = open();
    const done = walk(journal, [
      'intent',
      'created',
      'card_read',
      'authorizing',
      'approved',
      'completing',
      'awaiting_confirmation',
      'confirmed',
    ]);
    const pending = walk(journal, ['intent', 'created', 'card_read', 'authorizing', 'unknown']);
    const events = journal.events(done.id);
    journal.close();

    const again = open();
    expect(again.get(done.id)).toEqual(done);
    expect(again.get(pending.id)).toEqual(pending);
    expect(again.events(done.id)).toEqual(events);
    expect(again.unfinished().map((r) => r.id)).toEqual([pending.id]);
    expect(again.transition(pending.id, 'approved', { authorization }).state).toBe('approved');
  });

  it('lets a second connection (another process) read and write the same file while the first is open', () => {
    const first = open();
    const second = open();
    const a = first.createIntent(payment());
    expect(second.get(a.id)).toEqual(a);
    const moved = second.transition(a.id, 'created', { transactionId: 'd'.repeat(32) });
    expect(first.get(a.id)).toEqual(moved);
    expect(() => first.transition(a.id, 'created')).toThrow(JournalError);
    expect(first.transition(a.id, 'card_read', { card }).state).toBe('card_read');
    expect(second.events(a.id).map((e) => e.to)).toEqual(['intent', 'created', 'card_read']);
  });

  it('fails a write with LOCKED when another process holds the write lock past the busy timeout, and works once it is released', () => {
    const journal = open({ busyTimeoutMs: 20 });
    const other = new Database(join(dir, 'journal.db'));
    other.exec('BEGIN IMMEDIATE');
    expect(thrown(() => journal.createIntent(payment({ referenceId: 'while-locked' })))).toMatchObject({
      code: 'LOCKED',
    });
    other.exec('COMMIT');
    other.close();
    expect(journal.createIntent(payment({ referenceId: 'while-locked' })).state).toBe('intent');
  });
});

describe('card data', () => {
  it("keeps the API's transaction number even when its digit groups pass the Luhn check, and still searches the rest of the authorization", () => {
    // "Z123456-000000NNN": the sandbox's shape; one such number in ten looks like a 15-digit card number.
    const transactionNumber = Array.from({ length: 100 }, (_, n) => `Z123456-000000${String(n).padStart(3, '0')}`).find(
      (text) => luhnValid(text.replace(/\D/g, '')),
    )!;
    const journal = open();
    const authorizing = walk(journal, ['intent', 'created', 'card_read', 'authorizing']);
    const approved = journal.transition(authorizing.id, 'approved', {
      authorization: { ...authorization, transactionNumber },
    });
    expect(approved.authorization?.transactionNumber).toBe(transactionNumber);
    const other = walk(journal, ['intent', 'created', 'card_read', 'authorizing']);
    const error = thrown(() =>
      journal.transition(other.id, 'approved', {
        authorization: { ...authorization, responseMessage: transactionNumber },
      }),
    );
    expect(error).toMatchObject({ code: 'CARD_DATA' });
  });

  it("keeps an owner's generated id whose hex digits happen to form a Luhn-valid run, and refuses an owner that is a card number", () => {
    const journal = open();
    // `cli_` and 16 random hex digits: now and then all digits, and one time in ten Luhn-valid.
    expect(journal.createIntent(payment({ owner: 'cli_4539578763621486' })).owner).toBe('cli_4539578763621486');
    expect(thrown(() => journal.createIntent(payment({ owner: PAN })))).toMatchObject({ code: 'CARD_DATA' });
  });

  it.each<[string, Partial<NewPayment>]>([
    ['a description', { description: `cartao ${PAN}` }],
    ['a notification', { notification: '4111 1111 1111 1111' }],
    ['the reference, shaped like a generated id', { referenceId: `ref_${PAN}` }],
    ['the reference and the description, split between them', { referenceId: '41111111', description: '11111111' }],
    ['a transaction id made of digits', { source: 'remote', transactionId: PAN }],
  ])('refuses a full card number in %s of a new payment with CARD_DATA, and nothing reaches disk', (_, overrides) => {
    const journal = open();
    const error = thrown(() => journal.createIntent(payment(overrides)));
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toMatchObject({ code: 'CARD_DATA' });
    expect((error as Error).message).not.toContain('1111 1111');
    expect((error as Error).message).not.toContain(PAN);
    expect(journal.list().total).toBe(0);
    journal.close();
    expect(bytesOnDisk()).not.toContain(PAN);
    expect(bytesOnDisk()).not.toContain('4111 1111');
  });

  it.each<[string, PaymentPatch, string?]>([
    ['the card', { card: { ...card, maskedPan: PAN } }],
    ['the authorization', { authorization: { ...authorization, responseMessage: `pan=${PAN}` } }],
    ["the cashier's sentence", { problem: { ...problem, cashierMessage: `Cartão 5555-5555-5555-4444 recusado` } }],
  ])(
    'refuses a full card number in %s of a transition with CARD_DATA, leaving the row and events unchanged',
    (_, patch, note) => {
      const journal = open();
      const record = walk(journal, ['intent', 'created']);
      expect(thrown(() => journal.transition(record.id, 'card_read', patch, note))).toMatchObject({
        code: 'CARD_DATA',
        paymentId: record.id,
      });
      expect(thrown(() => journal.update(record.id, patch, note))).toMatchObject({ code: 'CARD_DATA' });
      expect(journal.get(record.id)).toEqual(record);
      expect(journal.events(record.id)).toHaveLength(2);
      journal.close();
      expect(bytesOnDisk()).not.toContain(PAN);
      expect(bytesOnDisk()).not.toContain('5555-5555');
    },
  );

  describe("diagnostics — the note, the problem's English message, the undo's last error — are written masked, never refused", () => {
    // An error message quoting an API path: this marketplace id's digits "4539578763621486" pass the Luhn check.
    const path =
      '/v1/marketplaces/ab4539578763621486cdef0123456789/sellers/e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0/transactions';
    const timedOut = `Payments API did not answer GET ${path} within 15000 ms (attempt 1)`;

    it.each<
      [
        string,
        (journal: Journal, record: PaymentRecord) => PaymentRecord,
        (journal: Journal, record: PaymentRecord) => unknown,
      ]
    >([
      [
        'a problem quoting an API path',
        (journal, record) =>
          journal.transition(record.id, 'aborting', { problem: { ...problem, message: `lookup failed: ${timedOut}` } }),
        (_journal, record) => record.problem?.message,
      ],
      [
        "an undo's last error",
        (journal, record) =>
          journal.update(record.id, {
            pendingUndo: { attempts: 1, nextAttemptAt: '2026-11-28T12:00:00.000Z', lastError: timedOut },
          }),
        (_journal, record) => record.pendingUndo?.lastError,
      ],
      [
        'a note',
        (journal, record) => journal.transition(record.id, 'aborting', {}, `undo not sent (attempt 1): ${timedOut}`),
        (journal, record) => journal.events(record.id).at(-1)?.note,
      ],
    ])('%s: the move is journaled, the run masked (first 6 and last 4 kept)', (_, write, text) => {
      const journal = open();
      const record = walk(journal, ['intent', 'created']);
      const written = write(journal, record);
      expect(journal.get(record.id)).toEqual(written);
      expect(text(journal, written)).toContain('/v1/marketplaces/ab453957******1486cdef0123456789/sellers/');
      journal.close();
      expect(bytesOnDisk()).not.toContain('4539578763621486');
    });

    it('masks a number its own kept digits would join into another, until the search finds nothing', () => {
      const journal = open();
      const record = walk(journal, ['intent', 'created']);
      // Masked once, "4111 111111******1111 4111 11" still joins its kept digits and its neighbours.
      const moved = journal.transition(record.id, 'aborting', {}, `read 4111 ${PAN} 4111 1111 1111 1111 4111`);
      const note = journal.events(moved.id).at(-1)?.note ?? '';
      expect(note).not.toContain(PAN);
      expect(note.startsWith('read ')).toBe(true);
    });
  });

  it('accepts what is digits by nature: masked PAN, CPF, NSU, numeric references that are no card number, serials, long digit runs that fail Luhn', () => {
    const journal = open();
    const record = journal.createIntent(
      payment({
        // Luhn-valid, but no payment card starts with 1: the POS API takes it, and so does the journal.
        referenceId: '1234567890123452',
        terminal: '5555555555554444',
        description: 'pedido 4111111111111112',
      }),
    );
    const read = journal.transition(record.id, 'created', { transactionId: 'e'.repeat(32) });
    const patched = journal.transition(
      read.id,
      'card_read',
      { card, customerTaxId: '52998224725' },
      'NSU 000000123456',
    );
    expect(patched).toMatchObject({ card, customerTaxId: '52998224725' });
  });

  it('keeps an alphanumeric CNPJ as the customer tax id, even one whose 13 digits pass the Luhn check', () => {
    const journal = open();
    const record = walk(journal, ['intent', 'created']);
    expect(journal.update(record.id, { customerTaxId: '12ABC34501DE35' }).customerTaxId).toBe('12ABC34501DE35');
    // "B" and 13 digits that look like a 13-digit card number, but its check digits match: a CNPJ.
    expect(journal.update(record.id, { customerTaxId: 'B4111111431277' }).customerTaxId).toBe('B4111111431277');
  });

  it('still refuses a card number that only looks like an alphanumeric CNPJ (its check digits do not match), and a CNPJ with punctuation', () => {
    const journal = open();
    const record = walk(journal, ['intent', 'created']);
    // "B" and the 13-digit test card 4222222222222.
    expect(thrown(() => journal.update(record.id, { customerTaxId: 'B4222222222222' }))).toMatchObject({
      code: 'CARD_DATA',
      paymentId: record.id,
    });
    expect(thrown(() => journal.update(record.id, { customerTaxId: '12.ABC.345/01DE-35' }))).toMatchObject({
      code: 'INVALID_RECORD',
    });
    expect(thrown(() => journal.update(record.id, { customerTaxId: '12abc34501de35' }))).toMatchObject({
      code: 'INVALID_RECORD',
    });
    expect(journal.get(record.id)).toEqual(record);
    journal.close();
    expect(bytesOnDisk()).not.toContain('4222222222222');
  });
});

describe('damaged rows', () => {
  function damage(id: string, column: string, value: string): void {
    const db = new Database(join(dir, 'journal.db'));
    db.prepare(`UPDATE payments SET ${column} = ? WHERE id = ?`).run(value, id);
    db.close();
  }

  it('get() throws CORRUPT naming the id; lists skip the row and report it to onCorrupt; the journal stays usable', () => {
    const reported: JournalError[] = [];
    const journal = open({ onCorrupt: (error) => reported.push(error) });
    const good = walk(journal, ['intent', 'created']);
    const bad = walk(journal, ['intent', 'created', 'card_read']);
    damage(bad.id, 'card_json', '{"brand": "visa", "maskedPan": ');

    const error = thrown(() => journal.get(bad.id));
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toMatchObject({ code: 'CORRUPT', paymentId: bad.id });
    expect((error as Error).message).toContain(bad.id);

    const listed = journal.list();
    expect(listed.items.map((r) => r.id)).toEqual([good.id]);
    expect(listed.total).toBe(2);
    expect(journal.unfinished().map((r) => r.id)).toEqual([good.id]);
    expect([...journal.records()].map((r) => r.id)).toEqual([good.id]);
    expect(reported.map((e) => e.paymentId)).toEqual([bad.id, bad.id, bad.id]);
    expect(reported.every((e) => e.code === 'CORRUPT')).toBe(true);

    expect(thrown(() => journal.transition(bad.id, 'authorizing'))).toMatchObject({
      code: 'CORRUPT',
      paymentId: bad.id,
    });
    expect(journal.transition(good.id, 'card_read', { card }).state).toBe('card_read');
    expect(journal.createIntent(payment()).state).toBe('intent');
  });

  it('treats an unknown state as damage too', () => {
    const reported: JournalError[] = [];
    const journal = open({ onCorrupt: (error) => reported.push(error) });
    const bad = walk(journal, ['intent', 'aborting']);
    damage(bad.id, 'state', 'exploded');
    expect(journal.unfinished()).toEqual([]);
    expect(reported).toMatchObject([{ code: 'CORRUPT', paymentId: bad.id }]);
    expect(thrown(() => journal.findByReference(bad.referenceId))).toMatchObject({ code: 'CORRUPT' });
  });
});
