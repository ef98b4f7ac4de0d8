/**
 * Who started a payment, on a real POS clients file in a temp directory: the first client to
 * start a reference owns it until it released it, the record survives reopening and a file from
 * the first version, one nobody came back for is forgotten after 30 days; while a payment runs its
 * owner routes its events, and after that the journal says who started it.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClientStore, type PairedClient } from '../../../../main/pos/clients/client-store.js';
import { OwnershipStore, type OwnershipStoreOptions } from '../../../../main/pos/server/ownership-store.js';

const POS = 'https://pos.example.com';

let dir: string;
let opened: ClientStore[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-owners-'));
  opened = [];
});

afterEach(() => {
  for (const store of opened) {
    try {
      store.close();
    } catch {
      // already closed by the test
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** A clock that moves only when told. */
function clock(start = '2026-03-10T12:00:00.000Z'): { now: () => Date; advance: (ms: number) => void } {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
  };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

interface Opened {
  readonly clients: ClientStore;
  readonly owners: OwnershipStore;
  readonly close: () => void;
}

/** The clients file opened as the agent does: the client store, and the owners kept in the same file. */
function open(
  options: { now?: () => Date } & Omit<OwnershipStoreOptions, 'file' | 'now'> = {},
  file = 'clients.db',
): Opened {
  const clients = ClientStore.open(join(dir, file), options.now === undefined ? {} : { now: options.now });
  opened.push(clients);
  const owners = new OwnershipStore({ ...options, file: clients.file });
  return { clients, owners, close: () => clients.close() };
}

function pair(store: ClientStore, name = 'Caixa 1'): PairedClient {
  const { pairing, code } = store.requestPairing({ name, origin: POS });
  return store.completePairing({ pairingId: pairing.id, code, origin: POS }).client;
}

describe('payment owners', () => {
  it('gives a payment to the first client that starts it, and keeps it until that client released it', () => {
    const { clients, owners: store } = open();
    const first = pair(clients, 'Caixa 1');
    const second = pair(clients, 'Caixa 2');
    expect(store.claim('ref-1', first.id)).toBe(first.id);
    expect(store.claim('ref-1', second.id)).toBe(first.id);
    expect(store.claim('ref-2', second.id)).toBe(second.id);
    expect(store.owned(first.id)).toEqual(['ref-1']);
    // Another client cannot release what it does not own.
    store.release(second.id, ['ref-1']);
    expect(store.owned(first.id)).toEqual(['ref-1']);
    store.release(first.id, ['ref-1', 'never-started']);
    expect(store.owned(first.id)).toEqual([]);
    expect(store.owned(second.id)).toEqual(['ref-2']);
  });

  it('lists them oldest first, survives reopening, and forgets one nobody came back for in 30 days', () => {
    const time = clock();
    const { clients, owners: store, close } = open({ now: time.now });
    const client = pair(clients);
    store.claim('b-first', client.id);
    time.advance(1_000);
    store.claim('a-second', client.id);
    close();
    expect(open({ now: time.now }).owners.owned(client.id)).toEqual(['b-first', 'a-second']);
    time.advance(30 * 24 * 60 * 60 * 1000 - 500);
    expect(open({ now: time.now }).owners.owned(client.id)).toEqual(['a-second']);
  });

  it('are added to a file made by the first version, whose clients keep their tokens', () => {
    const path = join(dir, 'v1.db');
    const v1 = new Database(path);
    v1.exec(`CREATE TABLE clients (id TEXT PRIMARY KEY, name TEXT NOT NULL, origin TEXT, token_hash TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL, last_seen_at TEXT, revoked_at TEXT);
      CREATE INDEX clients_by_origin ON clients (origin) WHERE revoked_at IS NULL;
      CREATE TABLE pairings (id TEXT PRIMARY KEY, name TEXT NOT NULL, origin TEXT, code_hash TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, state TEXT NOT NULL, client_id TEXT REFERENCES clients (id));
      CREATE TABLE blocked_origins (origin TEXT PRIMARY KEY, blocked_at TEXT NOT NULL) WITHOUT ROWID;`);
    v1.prepare(`INSERT INTO clients (id, name, origin, token_hash, created_at) VALUES (?, ?, ?, ?, ?)`).run(
      'cli_old',
      'Caixa antigo',
      POS,
      sha256(`pbt_${'A'.repeat(43)}`),
      '2026-01-01T00:00:00.000Z',
    );
    v1.pragma('user_version = 1');
    v1.close();
    const { clients, owners: store } = open({}, 'v1.db');
    expect(clients.get('cli_old')?.name).toBe('Caixa antigo');
    expect(store.claim('ref-old', 'cli_old')).toBe('cli_old');
    expect(store.owned('cli_old')).toEqual(['ref-old']);
  });
});

describe('the payments running here', () => {
  it('route to the first client that started them, then to whom the journal names', () => {
    const journal = new Map<string, string | null>([['ref-done', 'cli_journal']]);
    const { clients, owners } = open({ journalOwner: (reference) => journal.get(reference) });
    const first = pair(clients, 'Caixa 1');
    const second = pair(clients, 'Caixa 2');
    owners.own('ref-1', first.id);
    owners.own('ref-1', second.id);
    expect(owners.ownerOf('ref-1')).toBe(first.id);
    expect(owners.isRunning('ref-1')).toBe(true);
    expect(owners.ownerOf('ref-done')).toBe('cli_journal');
    expect(owners.ownerOf('ref-unknown')).toBeNull();

    expect(owners.ended('ref-1')).toBe(first.id);
    expect(owners.isRunning('ref-1')).toBe(false);
    // Not heard yet: kept for the owner's next hello.
    expect(owners.owned(first.id)).toEqual(['ref-1']);
    owners.forget(first.id, ['ref-1']);
    expect(owners.owned(first.id)).toEqual([]);
  });

  it('are forgotten by disown (a start refused before anything was journaled), but only by their owner', () => {
    const { clients, owners } = open();
    const first = pair(clients, 'Caixa 1');
    const second = pair(clients, 'Caixa 2');
    owners.own('ref-1', first.id);
    owners.disown('ref-1', second.id);
    expect(owners.runningOwner('ref-1')).toBe(first.id);
    owners.disown('ref-1', first.id);
    expect(owners.runningOwner('ref-1')).toBeUndefined();
    expect(owners.owned(first.id)).toEqual([]);
  });

  it('still route a sale whose owner the file cannot record, and say why', () => {
    const failures: unknown[] = [];
    const { owners, close } = open({ onStoreFailed: (error) => failures.push(error) });
    close();
    owners.own('ref-1', 'cli_gone');
    expect(owners.ownerOf('ref-1')).toBe('cli_gone');
    expect(failures).toHaveLength(1);
  });
});

describe('tap-to-pay charges', () => {
  it('belong to the client that created them until they end, once', () => {
    const { owners } = open();
    owners.ownTapToPay('txn-1', 'cli_1');
    expect(owners.releaseTapToPay('txn-1')).toBe('cli_1');
    expect(owners.releaseTapToPay('txn-1')).toBeUndefined();
  });
});
