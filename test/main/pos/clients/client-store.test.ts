/**
 * The store of paired POS clients on real SQLite files in a temp directory: pairing with a code
 * shown to the cashier, the token that comes out of it (kept only as a hash), wrong codes,
 * replays, expiry, origins bound to pairings and tokens, revocation seen by another store on the
 * same file, blocked origins, the pending limit, and the shape of codes and origins.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeMarker } from '../../../../main/pos/clients/change-marker.js';
import {
  ClientStore,
  ClientStoreError,
  MARKER_TRUST_MS,
  normalizeOrigin,
  type ClientStoreErrorCode,
  type ClientStoreOptions,
  type PairedClient,
  type PairingSource,
} from '../../../../main/pos/clients/client-store.js';
import { CLIENTS_FILE_MIGRATIONS } from '../../../../main/pos/clients/clients-file.js';
import { generatePairingCode, normalizePairingCode } from '../../../../main/pos/clients/pairing-code.js';
import { thrown } from '../../../helpers/thrown.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const POS = 'https://pos.example.com';
const OTHER = 'https://evil.example.net';

let dir: string;
let opened: ClientStore[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-clients-'));
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

function open(options: ClientStoreOptions = {}, file = 'clients.db'): ClientStore {
  const store = ClientStore.open(join(dir, file), options);
  opened.push(store);
  return store;
}

/** The ClientStoreError `fn` throws, checked to carry `code`. */
function failure(fn: () => unknown, code: ClientStoreErrorCode): ClientStoreError {
  const error = thrown(fn);
  expect(error).toBeInstanceOf(ClientStoreError);
  expect((error as ClientStoreError).code).toBe(code);
  return error as ClientStoreError;
}

/** A six-digit code other than `code`. */
const wrong = (code: string): string => (code === '000000' ? '000001' : '000000');

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Pairs a POS end to end and returns its client and token. */
function pair(
  store: ClientStore,
  origin: string | null = POS,
  name = 'Caixa 1',
): { client: PairedClient; token: string } {
  const { pairing, code } = store.requestPairing({ name, origin });
  return store.completePairing({ pairingId: pairing.id, code, origin });
}

/** Every byte the store left on disk (main file, write-ahead log, shared memory). */
function diskBytes(): Buffer {
  return Buffer.concat(readdirSync(dir).map((file) => readFileSync(join(dir, file))));
}

describe('normalizeOrigin', () => {
  it.each([
    ['http://localhost', 'http://localhost'],
    ['http://LOCALHOST:80', 'http://localhost'],
    ['HTTPS://Pos.Example.COM:443', 'https://pos.example.com'],
    ['https://pos.example.com:8443', 'https://pos.example.com:8443'],
    ['http://localhost:443', 'http://localhost:443'],
    ['https://localhost:80', 'https://localhost:80'],
    ['http://127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
    ['http://[0:0:0:0:0:0:0:1]', 'http://[::1]'],
    ['http://bücher.de', 'http://xn--bcher-kva.de'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeOrigin(input)).toBe(expected);
  });

  it.each([
    'null',
    '',
    'localhost',
    'localhost:3000',
    'file:///home/caixa/pos.html',
    'file://',
    'ftp://pos.example.com',
    'chrome-extension://abcdefghijklmnop',
    'http://',
    'http://pos.example.com/',
    'http://pos.example.com/path',
    'http://pos.example.com?x=1',
    'http://pos.example.com#x',
    'http://user:pass@pos.example.com',
    'http://pos.example.com:',
    'http://pos.example.com:0',
    'http://pos.example.com:65536',
    'http://pos.example.com:123456',
    'http://%6cocalhost',
    'http://pos example.com',
    'http://pos.example.com\n',
    ' http://pos.example.com',
    'http://999.1.1.1',
    `http://${'a'.repeat(600)}.com`,
  ])('refuses %j', (input) => {
    expect(normalizeOrigin(input)).toBeUndefined();
  });
});

describe('pairing codes', () => {
  it('are six decimal digits, spread over the whole range, leading zeros kept', () => {
    const codes = Array.from({ length: 2000 }, () => generatePairingCode());
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    // 2000 draws from a million collide about twice on average; a weak generator collides far more.
    expect(new Set(codes).size).toBeGreaterThanOrEqual(1985);
    // One code in ten starts with 0: missing them all would take odds of 0.9^2000.
    expect(codes.some((code) => code.startsWith('0'))).toBe(true);
    const mean = codes.reduce((sum, code) => sum + Number(code), 0) / codes.length;
    expect(mean).toBeGreaterThan(450_000);
    expect(mean).toBeLessThan(550_000);
  });

  it('throw away the draws that would bias the modulo, and refuse a source that is not random', () => {
    const draws = [0xffffffff, 4_294_000_000, 4_293_999_999, 7];
    const source = (bytes: number): Buffer => {
      const buffer = Buffer.alloc(bytes);
      buffer.writeUInt32BE(draws.shift()!);
      return buffer;
    };
    // The first two are at or above the last multiple of a million below 2^32: redrawn.
    expect(generatePairingCode(source)).toBe('999999');
    expect(generatePairingCode(source)).toBe('000007');
    expect(() => generatePairingCode(() => Buffer.alloc(4, 0xff))).toThrow(/not random/);
    expect(() => generatePairingCode(() => Buffer.alloc(2))).toThrow(/2 bytes instead of 4/);
  });

  it('are read back as the cashier meant them: without the spaces, hyphens or dots a person adds, full-width and other digits as ASCII', () => {
    expect(normalizePairingCode('123 456')).toBe('123456');
    expect(normalizePairingCode(' 012-345 ')).toBe('012345');
    expect(normalizePairingCode('123\u00a0456')).toBe('123456'); // a no-break space, as copied from a page
    expect(normalizePairingCode('123.456')).toBe('123456');
    expect(normalizePairingCode('123 – 456')).toBe('123456');
    expect(normalizePairingCode('１２３４５６')).toBe('123456');
    expect(normalizePairingCode('１２３\u3000４５６')).toBe('123456'); // an ideographic space between
    expect(normalizePairingCode('١٢٣٤٥٦')).toBe('123456'); // Arabic-Indic digits
    expect(normalizePairingCode('123\u200b456')).toBe('123456'); // a zero-width space
    expect(normalizePairingCode('12345')).toBeUndefined();
    expect(normalizePairingCode('1234567')).toBeUndefined();
    expect(normalizePairingCode('12345a')).toBeUndefined();
    expect(normalizePairingCode('123+456')).toBeUndefined(); // a sign is no separator
    expect(normalizePairingCode(`123456${' '.repeat(64)}`)).toBeUndefined();
  });

  it('come from the injected random source through the store', () => {
    const store = open({ random: (bytes) => Buffer.alloc(bytes, 0) });
    expect(store.requestPairing({ name: 'Caixa 1', origin: POS }).code).toBe('000000');
  });
});

describe('pairing', () => {
  it('gives a token for the code shown to the cashier, and the token authenticates the POS', () => {
    const time = clock();
    const store = open({ now: time.now });
    const { pairing, code } = store.requestPairing({ name: '  Caixa 1  ', origin: 'https://POS.example.com:443' });
    expect(pairing).toEqual({
      id: expect.stringMatching(/^pair_[0-9a-f]{32}$/) as unknown,
      name: 'Caixa 1',
      origin: POS,
      createdAt: '2026-03-10T12:00:00.000Z',
      expiresAt: '2026-03-10T12:02:00.000Z',
      state: 'pending',
      program: null,
    });
    expect(code).toMatch(/^\d{6}$/);
    // The window lists the request, never its code.
    expect(store.pendingPairings()).toEqual([pairing]);

    time.advance(30_000);
    const { client, token } = store.completePairing({ pairingId: pairing.id, code, origin: POS });
    expect(token).toMatch(/^pbt_[A-Za-z0-9_-]{43}$/);
    expect(client).toEqual({
      id: expect.stringMatching(/^cli_[0-9a-f]{16}$/) as unknown,
      name: 'Caixa 1',
      origin: POS,
      createdAt: '2026-03-10T12:00:30.000Z',
      lastSeenAt: null,
      revokedAt: null,
    });
    expect(store.pendingPairings()).toEqual([]);
    expect(store.list()).toEqual([client]);
    expect(store.get(client.id)).toEqual(client);
    expect(store.isActive(client.id)).toBe(true);
    expect(store.isPairedOrigin('https://pos.example.com:443')).toBe(true);
    expect(store.isPairedOrigin(OTHER)).toBe(false);

    time.advance(5_000);
    const seen = store.authenticate(token, POS);
    expect(seen).toEqual({ ...client, lastSeenAt: '2026-03-10T12:00:35.000Z' });
    expect(store.get(client.id)?.lastSeenAt).toBe('2026-03-10T12:00:35.000Z');
  });

  it('pairs a non-browser client (no origin) and binds its token to having no origin', () => {
    const store = open();
    const { client, token } = pair(store, null, 'PDV desktop');
    expect(client.origin).toBeNull();
    expect(store.authenticate(token, null).id).toBe(client.id);
  });

  it('keeps the token only as its SHA-256 and the code only as a salted hash', () => {
    const store = open();
    const { pairing, code } = store.requestPairing({ name: 'Caixa 1', origin: POS });
    const { client, token } = store.completePairing({ pairingId: pairing.id, code, origin: POS });
    store.close();

    const bytes = diskBytes();
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.includes(Buffer.from(token))).toBe(false);
    expect(bytes.includes(Buffer.from(token.slice(4)))).toBe(false);

    const db = new Database(join(dir, 'clients.db'), { readonly: true });
    try {
      const row = db.prepare('SELECT * FROM clients WHERE id = ?').get(client.id) as Record<string, unknown>;
      expect(row.token_hash).toBe(sha256(token));
      expect(Object.values(row)).not.toContain(token);
      const request = db.prepare('SELECT * FROM pairings WHERE id = ?').get(pairing.id) as Record<string, unknown>;
      expect(request.code_hash).toBe(sha256(`${pairing.id}:${code}`));
      expect(Object.values(request)).not.toContain(code);
      expect(request.state).toBe('completed');
      expect(request.client_id).toBe(client.id);
    } finally {
      db.close();
    }
  });

  it('counts wrong codes down, then refuses even the right code', () => {
    const store = open();
    const { pairing, code } = store.requestPairing({ name: 'Caixa 1', origin: POS });
    for (const attemptsLeft of [2, 1, 0]) {
      const error = failure(
        () => store.completePairing({ pairingId: pairing.id, code: wrong(code), origin: POS }),
        'WRONG_CODE',
      );
      expect(error.attemptsLeft).toBe(attemptsLeft);
    }
    failure(() => store.completePairing({ pairingId: pairing.id, code, origin: POS }), 'PAIRING_FAILED');
    expect(store.pendingPairings()).toEqual([]);
    expect(store.list()).toEqual([]);
  });

  it('honours maxCodeAttempts and accepts the right code before they run out', () => {
    const store = open({ maxCodeAttempts: 2 });
    const { pairing, code } = store.requestPairing({ name: 'Caixa 1', origin: POS });
    expect(
      failure(() => store.completePairing({ pairingId: pairing.id, code: wrong(code), origin: POS }), 'WRONG_CODE')
        .attemptsLeft,
    ).toBe(1);
    expect(
      store.completePairing({ pairingId: pairing.id, code: `${code.slice(0, 3)} ${code.slice(3)}`, origin: POS }).token,
    ).toMatch(/^pbt_/);
  });

  it('recognises a replayed code, from this store or another one on the same file', () => {
    const store = open();
    const { pairing, code } = store.requestPairing({ name: 'Caixa 1', origin: POS });
    store.completePairing({ pairingId: pairing.id, code, origin: POS });
    failure(() => store.completePairing({ pairingId: pairing.id, code, origin: POS }), 'PAIRING_USED');
    const other = open();
    failure(() => other.completePairing({ pairingId: pairing.id, code, origin: POS }), 'PAIRING_USED');
    expect(store.list()).toHaveLength(1);
  });

  it('lets exactly one of several processes racing with the right code win', async () => {
    const path = join(dir, 'clients.db');
    const store = open();
    const { pairing, code } = store.requestPairing({ name: 'Caixa 1', origin: POS });
    const start = Date.now() + 1500;
    const script = `
      import { ClientStore } from './main/pos/clients/client-store.js';
      const [path, pairingId, code, origin, start] = process.argv.slice(1);
      const store = ClientStore.open(path);
      while (Date.now() < Number(start)) {}
      try {
        const { client } = store.completePairing({ pairingId, code, origin });
        console.log(JSON.stringify({ won: client.id }));
      } catch (error) {
        console.log(JSON.stringify({ lost: error.code }));
      }
      store.close();`;
    const run = (): Promise<Record<string, string>> =>
      new Promise((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', '--input-type=module', '-e', script, path, pairing.id, code, POS, String(start)],
          { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        let err = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
        child.on('error', reject);
        child.on('close', (status) => {
          if (status !== 0) reject(new Error(`racer exited with ${String(status)}: ${err}`));
          else resolve(JSON.parse(out) as Record<string, string>);
        });
      });
    const results = await Promise.all([run(), run(), run(), run()]);
    const winners = results.filter((result) => result.won !== undefined);
    expect(winners).toHaveLength(1);
    expect(results.filter((result) => result.lost === 'PAIRING_USED')).toHaveLength(3);
    expect(store.list().map((client) => client.id)).toEqual([winners[0]!.won]);
  });

  it('expires codes on the injected clock', () => {
    const time = clock();
    const store = open({ now: time.now });
    const early = store.requestPairing({ name: 'Caixa 1', origin: POS });
    time.advance(119_999);
    expect(store.completePairing({ pairingId: early.pairing.id, code: early.code, origin: POS }).client.name).toBe(
      'Caixa 1',
    );

    const late = store.requestPairing({ name: 'Caixa 2', origin: POS });
    time.advance(120_000);
    expect(store.pendingPairings()).toEqual([]);
    failure(
      () => store.completePairing({ pairingId: late.pairing.id, code: late.code, origin: POS }),
      'PAIRING_EXPIRED',
    );
    // The expiry is stored: moving the clock back does not bring the code to life.
    const reopened = open({ now: clock().now });
    failure(
      () => reopened.completePairing({ pairingId: late.pairing.id, code: late.code, origin: POS }),
      'PAIRING_EXPIRED',
    );
  });

  it('honours codeTtlMs', () => {
    const time = clock();
    const store = open({ now: time.now, codeTtlMs: 10_000 });
    const { pairing, code } = store.requestPairing({ name: 'Caixa 1', origin: POS });
    expect(pairing.expiresAt).toBe('2026-03-10T12:00:10.000Z');
    time.advance(10_000);
    failure(() => store.completePairing({ pairingId: pairing.id, code, origin: POS }), 'PAIRING_EXPIRED');
  });

  it('refuses completion from another origin than the one that asked, counting it as an attempt', () => {
    const store = open();
    const { pairing, code } = store.requestPairing({ name: 'Caixa 1', origin: POS });
    expect(
      failure(() => store.completePairing({ pairingId: pairing.id, code, origin: OTHER }), 'ORIGIN_MISMATCH')
        .attemptsLeft,
    ).toBe(2);
    expect(
      failure(() => store.completePairing({ pairingId: pairing.id, code, origin: null }), 'ORIGIN_MISMATCH')
        .attemptsLeft,
    ).toBe(1);
    // The same origin written differently is the same origin.
    expect(
      store.completePairing({ pairingId: pairing.id, code, origin: 'HTTPS://pos.example.com:443' }).client.origin,
    ).toBe(POS);
  });

  it('refuses a browser origin completing a non-browser request', () => {
    const store = open();
    const { pairing, code } = store.requestPairing({ name: 'PDV desktop', origin: null });
    failure(() => store.completePairing({ pairingId: pairing.id, code, origin: POS }), 'ORIGIN_MISMATCH');
    expect(store.completePairing({ pairingId: pairing.id, code, origin: null }).client.origin).toBeNull();
  });

  it('answers PAIRING_NOT_FOUND for an unknown request', () => {
    const store = open();
    failure(() => store.completePairing({ pairingId: 'pair_0000', code: '123456', origin: POS }), 'PAIRING_NOT_FOUND');
    failure(() => store.rejectPairing('pair_0000'), 'PAIRING_NOT_FOUND');
  });

  it('lets the cashier reject a request', () => {
    const store = open();
    const { pairing, code } = store.requestPairing({ name: 'Caixa 1', origin: POS });
    store.rejectPairing(pairing.id);
    expect(store.pendingPairings()).toEqual([]);
    failure(() => store.completePairing({ pairingId: pairing.id, code, origin: POS }), 'PAIRING_REJECTED');
    store.rejectPairing(pairing.id);

    const done = store.requestPairing({ name: 'Caixa 2', origin: POS });
    store.completePairing({ pairingId: done.pairing.id, code: done.code, origin: POS });
    failure(() => store.rejectPairing(done.pairing.id), 'PAIRING_USED');
  });

  it('limits the requests waiting per web origin, and from everyone together', () => {
    const time = clock();
    const store = open({ now: time.now });
    const first = store.requestPairing({ name: 'Caixa 1', origin: POS });
    store.requestPairing({ name: 'Caixa 2', origin: 'https://POS.example.com' });
    store.requestPairing({ name: 'Caixa 3', origin: POS });
    failure(() => store.requestPairing({ name: 'Caixa 4', origin: POS }), 'TOO_MANY_PENDING');
    // Other origins have their own count; programs without an origin share none (one program
    // cannot use it up to lock the others out): only the total of 10 bounds them.
    store.requestPairing({ name: 'Outro', origin: OTHER });
    for (let n = 0; n < 5; n++) store.requestPairing({ name: `PDV ${n}`, origin: null });
    expect(store.pendingPairings()).toHaveLength(9);
    store.requestPairing({ name: 'PDV 5', origin: null });
    failure(() => store.requestPairing({ name: 'PDV 6', origin: null }), 'TOO_MANY_PENDING');
    failure(() => store.requestPairing({ name: 'Mais um', origin: 'https://third.example.org' }), 'TOO_MANY_PENDING');
    expect(store.pendingPairings()).toHaveLength(10);

    // An ended request frees its place; so does an expired one.
    store.rejectPairing(first.pairing.id);
    store.requestPairing({ name: 'Caixa 4', origin: POS });
    failure(() => store.requestPairing({ name: 'Caixa 5', origin: POS }), 'TOO_MANY_PENDING');
    time.advance(120_000);
    store.requestPairing({ name: 'Caixa 5', origin: POS });
  });

  it('honours pendingPerOrigin', () => {
    const store = open({ pendingPerOrigin: 1 });
    store.requestPairing({ name: 'Caixa 1', origin: POS });
    failure(() => store.requestPairing({ name: 'Caixa 2', origin: POS }), 'TOO_MANY_PENDING');
  });

  it('forgets requests older than a day when opened, and only those', () => {
    const time = clock();
    const store = open({ now: time.now });
    const old = store.requestPairing({ name: 'Caixa 1', origin: POS });
    store.completePairing({ pairingId: old.pairing.id, code: old.code, origin: POS });
    time.advance(23 * 60 * 60 * 1000);
    const recent = store.requestPairing({ name: 'Caixa 2', origin: POS });
    store.completePairing({ pairingId: recent.pairing.id, code: recent.code, origin: POS });
    store.close();

    time.advance(2 * 60 * 60 * 1000);
    const reopened = open({ now: time.now });
    failure(
      () => reopened.completePairing({ pairingId: old.pairing.id, code: old.code, origin: POS }),
      'PAIRING_NOT_FOUND',
    );
    failure(
      () => reopened.completePairing({ pairingId: recent.pairing.id, code: recent.code, origin: POS }),
      'PAIRING_USED',
    );
    // The clients themselves stay.
    expect(reopened.list()).toHaveLength(2);
  });
});

describe('authentication', () => {
  it('binds the token to exactly the origin it was paired from', () => {
    const store = open();
    const browser = pair(store, POS);
    const desktop = pair(store, null, 'PDV desktop');
    expect(store.authenticate(browser.token, 'https://pos.example.com:443').id).toBe(browser.client.id);
    failure(() => store.authenticate(browser.token, OTHER), 'ORIGIN_MISMATCH');
    failure(() => store.authenticate(browser.token, 'http://pos.example.com'), 'ORIGIN_MISMATCH');
    failure(() => store.authenticate(browser.token, null), 'ORIGIN_MISMATCH');
    failure(() => store.authenticate(browser.token, 'null'), 'ORIGIN_MISMATCH');
    failure(() => store.authenticate(desktop.token, POS), 'ORIGIN_MISMATCH');
    // A refused attempt is not a sighting.
    expect(store.get(desktop.client.id)?.lastSeenAt).toBeNull();
  });

  it('refuses malformed and unknown tokens', () => {
    const store = open();
    const { token } = pair(store);
    failure(() => store.authenticate('', POS), 'TOKEN_INVALID');
    failure(() => store.authenticate(token.slice(0, -1), POS), 'TOKEN_INVALID');
    failure(() => store.authenticate(`${token}x`, POS), 'TOKEN_INVALID');
    failure(() => store.authenticate(token.replace('pbt_', 'pbx_'), POS), 'TOKEN_INVALID');
    const last = token.at(-1) === 'A' ? 'B' : 'A';
    failure(() => store.authenticate(`${token.slice(0, -1)}${last}`, POS), 'TOKEN_INVALID');
    failure(() => store.authenticate(sha256(token), POS), 'TOKEN_INVALID');
  });

  it('refuses a revoked token, in this store and in another one on the same file at once', () => {
    const time = clock();
    const agent = open({ now: time.now });
    const window = open({ now: time.now });
    const { client, token } = pair(agent);
    // Asked before, and answered from what it read: the revocation below must still be seen at once.
    expect(agent.isActive(client.id)).toBe(true);
    expect(agent.isActive(client.id)).toBe(true);
    expect(window.isActive(client.id)).toBe(true);

    time.advance(1000);
    const revoked = window.revoke(client.id);
    expect(revoked).toEqual({ ...client, revokedAt: '2026-03-10T12:00:01.000Z' });
    expect(agent.isActive(client.id)).toBe(false);
    failure(() => agent.authenticate(token, POS), 'TOKEN_REVOKED');
    failure(() => window.authenticate(token, POS), 'TOKEN_REVOKED');
    expect(agent.isPairedOrigin(POS)).toBe(false);

    // Revoking again is harmless and keeps the first time.
    time.advance(1000);
    expect(agent.revoke(client.id).revokedAt).toBe('2026-03-10T12:00:01.000Z');
    expect(agent.list()).toEqual([revoked]);
    failure(() => agent.revoke('cli_0000000000000000'), 'NOT_FOUND');
    expect(agent.isActive('cli_0000000000000000')).toBe(false);
  });

  it('sees its own writes at the next isActive: a revocation, a new client', () => {
    const store = open();
    const first = pair(store, POS, 'Caixa 1');
    expect(store.isActive(first.client.id)).toBe(true);
    const second = pair(store, POS, 'Caixa 2');
    expect(store.isActive(second.client.id)).toBe(true);
    store.revoke(first.client.id);
    expect(store.isActive(first.client.id)).toBe(false);
    expect(store.isActive(second.client.id)).toBe(true);
  });

  it('sees a revocation by a store in another process at the next isActive', async () => {
    const agent = open();
    const { client } = pair(agent);
    const bystander = pair(agent, POS, 'Caixa 2');
    expect(agent.isActive(client.id)).toBe(true);
    expect(agent.isActive(client.id)).toBe(true);
    const script = `
      import { ClientStore } from './main/pos/clients/client-store.js';
      const [path, id] = process.argv.slice(1);
      const store = ClientStore.open(path);
      store.revoke(id);
      store.close();`;
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script, join(dir, 'clients.db'), client.id],
        { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('close', (status) =>
        status === 0 ? resolve() : reject(new Error(`revoker exited ${String(status)}: ${err}`)),
      );
    });
    expect(agent.isActive(client.id)).toBe(false);
    expect(agent.isActive(bystander.client.id)).toBe(true);
  });

  it(`sees a revocation written without a store (another program, or its own file bypassing it) within ${MARKER_TRUST_MS} ms`, () => {
    const time = clock();
    const agent = open({ now: time.now });
    const { client } = pair(agent);
    const bystander = pair(agent, POS, 'Caixa 2');
    expect(agent.isActive(client.id)).toBe(true);
    // As an older Pinbridge or someone with the sqlite3 shell would write: the change marker does not move.
    const shell = new Database(join(dir, 'clients.db'));
    shell.prepare('UPDATE clients SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), client.id);
    shell.close();
    time.advance(MARKER_TRUST_MS);
    expect(agent.isActive(client.id)).toBe(false);
    expect(agent.isActive(bystander.client.id)).toBe(true);
    // Nor through the store's own connection, bypassing the store (SQLite's data version does not count those).
    agent.file
      .statement(`UPDATE clients SET revoked_at = ? WHERE id = ?`)
      .run(new Date().toISOString(), bystander.client.id);
    time.advance(MARKER_TRUST_MS);
    expect(agent.isActive(bystander.client.id)).toBe(false);
  });

  it('asks SQLite at every call while a write is under way, or its writer died mid-way: what it committed counts at once', () => {
    const agent = open();
    const { client } = pair(agent);
    expect(agent.isActive(client.id)).toBe(true);
    // A store in another process begins its write (the marker moves), is asked meanwhile, commits, and dies
    // before its write ends.
    const marker = ChangeMarker.open(join(dir, 'clients.db'))!;
    marker.begin();
    expect(agent.isActive(client.id)).toBe(true);
    const dying = new Database(join(dir, 'clients.db'));
    dying.prepare('UPDATE clients SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), client.id);
    dying.close();
    marker.close();
    expect(agent.isActive(client.id)).toBe(false);
  });

  it('asks SQLite at every call when the change marker cannot be made', () => {
    mkdirSync(join(dir, 'clients.db-changes'));
    const agent = open();
    const window = open();
    const { client } = pair(agent);
    expect(agent.isActive(client.id)).toBe(true);
    window.revoke(client.id);
    expect(agent.isActive(client.id)).toBe(false);
  });

  it('keeps other clients of the same origin working when one is revoked', () => {
    const store = open();
    const first = pair(store, POS, 'Caixa 1');
    const second = pair(store, POS, 'Caixa 2');
    store.revoke(first.client.id);
    expect(store.isPairedOrigin(POS)).toBe(true);
    expect(store.authenticate(second.token, POS).name).toBe('Caixa 2');
  });
});

describe('listing', () => {
  it('never shows a token or its hash', () => {
    const store = open();
    const tokens = [pair(store, POS, 'Caixa 1').token, pair(store, null, 'PDV desktop').token];
    const listed = store.list();
    expect(listed.map((client) => client.name)).toEqual(['Caixa 1', 'PDV desktop']);
    for (const client of listed) {
      expect(Object.keys(client).sort()).toEqual(['createdAt', 'id', 'lastSeenAt', 'name', 'origin', 'revokedAt']);
    }
    const text = JSON.stringify([listed, store.get(listed[0]!.id), store.pendingPairings()]);
    for (const token of tokens) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(sha256(token));
    }
  });
});

describe('blocked origins', () => {
  it('cannot ask to pair, and blocking rejects what they had pending', () => {
    const time = clock();
    const store = open({ now: time.now });
    const pending = store.requestPairing({ name: 'Caixa 1', origin: POS });
    const unrelated = store.requestPairing({ name: 'Outro', origin: OTHER });
    store.blockOrigin('https://POS.example.com:443');
    time.advance(1000);
    store.blockOrigin(POS);

    expect(store.blockedOrigins()).toEqual([{ origin: POS, blockedAt: '2026-03-10T12:00:00.000Z' }]);
    expect(store.isBlocked(POS)).toBe(true);
    expect(store.isBlocked('https://pos.example.com:443')).toBe(true);
    expect(store.isBlocked(OTHER)).toBe(false);
    expect(store.isBlocked(null)).toBe(false);
    failure(() => store.requestPairing({ name: 'Caixa 2', origin: POS }), 'ORIGIN_BLOCKED');
    failure(
      () => store.completePairing({ pairingId: pending.pairing.id, code: pending.code, origin: POS }),
      'PAIRING_REJECTED',
    );
    expect(store.pendingPairings().map((pairing) => pairing.id)).toEqual([unrelated.pairing.id]);

    store.unblockOrigin('https://pos.example.com');
    expect(store.blockedOrigins()).toEqual([]);
    expect(store.requestPairing({ name: 'Caixa 2', origin: POS }).pairing.state).toBe('pending');
  });

  it('does not revoke the tokens already given, but refuses them while blocked', () => {
    const store = open();
    const { client, token } = pair(store);
    store.blockOrigin(POS);
    expect(store.isActive(client.id)).toBe(true);
    expect(store.get(client.id)?.revokedAt).toBeNull();
    failure(() => store.authenticate(token, POS), 'ORIGIN_BLOCKED');
    store.unblockOrigin(POS);
    expect(store.authenticate(token, POS).id).toBe(client.id);
  });

  it('seen by another store on the same file', () => {
    const window = open();
    const agent = open();
    window.blockOrigin(POS);
    expect(agent.isBlocked(POS)).toBe(true);
    failure(() => agent.requestPairing({ name: 'Caixa 1', origin: POS }), 'ORIGIN_BLOCKED');
  });
});

describe('malformed input', () => {
  it.each([
    ['an empty name', ''],
    ['a blank name', '   \t '],
    ['a name of 65 characters', 'x'.repeat(65)],
    ['a name with a newline', 'Caixa\n1'],
    ['a name with a NUL', 'Caixa\u00001'],
    ['a name with a right-to-left override', 'Caixa \u202E1'],
    ['a name with a line separator', 'Caixa\u20281'],
    ['a name with a lone surrogate', 'Caixa \uD800'],
    ['a name that is not a string', 42],
  ])('refuses %s', (_label, name) => {
    const store = open();
    failure(() => store.requestPairing({ name: name as string, origin: POS }), 'INVALID_INPUT');
    expect(store.pendingPairings()).toEqual([]);
  });

  it('accepts a name of 64 characters, counting an emoji as one, and trims it', () => {
    const store = open();
    const name = `${'ç'.repeat(62)}🧾x`;
    expect(store.requestPairing({ name: `  ${name}  `, origin: POS }).pairing.name).toBe(name);
  });

  it.each([
    'null',
    'file:///home/caixa/pos.html',
    'http://pos.example.com/caixa',
    'ftp://pos.example.com',
    '',
    'pos.example.com',
  ])('refuses the origin %j', (origin) => {
    const store = open();
    failure(() => store.requestPairing({ name: 'Caixa 1', origin }), 'INVALID_INPUT');
    failure(() => store.blockOrigin(origin), 'INVALID_INPUT');
  });

  it('refuses codes that are not six digits without using an attempt', () => {
    const store = open({ maxCodeAttempts: 1 });
    const { pairing, code } = store.requestPairing({ name: 'Caixa 1', origin: POS });
    for (const bad of ['', '12345', '1234567', 'abcdef', code.slice(1)]) {
      failure(() => store.completePairing({ pairingId: pairing.id, code: bad, origin: POS }), 'INVALID_INPUT');
    }
    failure(() => store.completePairing({ pairingId: '', code, origin: POS }), 'INVALID_INPUT');
    expect(store.completePairing({ pairingId: pairing.id, code, origin: POS }).token).toMatch(/^pbt_/);
  });

  it('refuses options that make no sense', () => {
    failure(() => open({ maxCodeAttempts: 0 }), 'INVALID_INPUT');
    failure(() => open({ codeTtlMs: -1 }), 'INVALID_INPUT');
    failure(() => open({ pendingPerOrigin: 1.5 }), 'INVALID_INPUT');
  });
});

describe('the file', () => {
  it('is created with its folders, and an in-memory store works the same', () => {
    const path = join(dir, 'state', 'pos', 'clients.db');
    const store = ClientStore.open(path);
    opened.push(store);
    expect(existsSync(path)).toBe(true);
    expect(pair(store).token).toMatch(/^pbt_/);

    const memory = ClientStore.open(':memory:');
    opened.push(memory);
    const { client, token } = pair(memory);
    expect(memory.authenticate(token, POS).id).toBe(client.id);
  });

  it('keeps clients across reopening', () => {
    const first = open();
    const { client, token } = pair(first);
    first.close();
    const second = open();
    expect(second.authenticate(token, POS).id).toBe(client.id);
  });

  it('refuses a file from a newer Pinbridge, or one that is not a database', () => {
    const newer = new Database(join(dir, 'newer.db'));
    newer.pragma('user_version = 99');
    newer.close();
    failure(() => open({}, 'newer.db'), 'CORRUPT');

    // Not a SQLite header: what a damaged or foreign file looks like.
    writeFileSync(join(dir, 'text.db'), 'this is not a database, just some text. '.repeat(50));
    failure(() => open({}, 'text.db'), 'CORRUPT');
  });
});

describe('personal data that is deleted', () => {
  it('is gone from the file and its write-ahead log once an old pairing request is dropped, or an origin unblocked', () => {
    const time = clock();
    const store = open({ now: time.now });
    store.requestPairing({ name: 'Caixa da Maria Aparecida', origin: 'https://loja-da-maria.example.com' });
    store.blockOrigin('https://site-bloqueado.example.org');
    const bytes = (): string =>
      readdirSync(dir)
        .filter((name) => name.startsWith('clients.db'))
        .map((name) => readFileSync(join(dir, name)).toString('latin1'))
        .join('');
    expect(bytes()).toContain('Caixa da Maria Aparecida');

    store.unblockOrigin('https://site-bloqueado.example.org');
    store.close();
    // A day later the request is past its retention: the next start deletes it.
    time.advance(25 * 60 * 60 * 1000);
    const later = open({ now: time.now });
    expect(later.pendingPairings()).toEqual([]);

    expect(bytes()).not.toContain('Caixa da Maria Aparecida');
    expect(bytes()).not.toContain('loja-da-maria');
    expect(bytes()).not.toContain('site-bloqueado');
  });
});

describe('the wrong-code budget', () => {
  /** Sends `n` wrong codes, each on a request of its own (as an attacker with many origins would). */
  function guess(store: ClientStore, n: number, origin: string | null = OTHER): void {
    for (let i = 0; i < n; i++) {
      const { pairing, code } = store.requestPairing({ name: `Guess ${i}`, origin });
      failure(() => store.completePairing({ pairingId: pairing.id, code: wrong(code), origin }), 'WRONG_CODE');
      store.rejectPairing(pairing.id);
    }
  }

  it('locks pairing after 50 wrong codes in 24 hours from everyone together: no request taken, no code checked', () => {
    const time = clock();
    const store = open({ now: time.now });
    const { pairing, code } = store.requestPairing({ name: 'Caixa honesto', origin: POS });
    guess(store, 25, OTHER);
    guess(store, 24, 'https://another.example.org');
    expect(store.pairingGuard()).toMatchObject({ wrongCodes: 49, budget: 50, locked: false, unlocksAt: null });
    guess(store, 1, null);
    const guard = store.pairingGuard();
    expect(guard).toMatchObject({ wrongCodes: 50, locked: true });
    expect(guard.origins).toEqual([
      { origin: OTHER, wrongCodes: 25 },
      { origin: 'https://another.example.org', wrongCodes: 24 },
      { origin: null, wrongCodes: 1 },
    ]);

    // Locked: even the right code of a live request is not checked, and no request is taken.
    const locked = failure(() => store.completePairing({ pairingId: pairing.id, code, origin: POS }), 'PAIRING_LOCKED');
    expect(locked.retryAfterMs).toBe(24 * 60 * 60 * 1000);
    failure(() => store.requestPairing({ name: 'Mais um', origin: POS }), 'PAIRING_LOCKED');
    // Nor did the refused attempt count against the request.
    time.advance(60_000);
    store.unlockPairing();
    expect(store.pairingGuard()).toMatchObject({ wrongCodes: 0, locked: false, origins: [] });
    expect(store.completePairing({ pairingId: pairing.id, code, origin: POS }).client.name).toBe('Caixa honesto');
  });

  it('unlocks by itself once the oldest wrong codes are a day old, across restarts', () => {
    const time = clock();
    const store = open({ now: time.now, wrongCodeBudget: 3 });
    guess(store, 3);
    store.close();
    const reopened = open({ now: time.now, wrongCodeBudget: 3 });
    expect(reopened.pairingGuard().locked).toBe(true);
    time.advance(24 * 60 * 60 * 1000 + 1);
    expect(reopened.pairingGuard()).toMatchObject({ wrongCodes: 0, locked: false });
    expect(reopened.requestPairing({ name: 'Caixa 1', origin: POS }).code).toMatch(/^\d{6}$/);
  });
});

/** A source as the POS server gives it: a connection of a known process (or of an unknown group). */
function from(
  connection: string,
  pid: number | null,
  program = `/usr/bin/node /srv/pos-${pid ?? 'x'}.js`,
): PairingSource {
  return {
    connection,
    peer:
      pid === null
        ? { key: 'unknown', exact: false, process: null }
        : { key: `pid:${pid}`, exact: true, process: { pid, name: program.split(' ')[0]!.split('/').pop()!, program } },
  };
}

describe('who asks to pair: no connection and no program takes every place', () => {
  it('keeps one request per connection: a newer one withdraws the older, whose code stops working', () => {
    const store = open();
    const first = store.requestPairing({ name: 'Caixa 1', origin: null, from: from('c1', 100) });
    expect(first.withdrawn).toEqual([]);
    expect(first.pairing.program).toEqual({ pid: 100, name: 'node', program: '/usr/bin/node /srv/pos-100.js' });
    const second = store.requestPairing({ name: 'Caixa 1', origin: null, from: from('c1', 100) });
    expect(second.withdrawn).toEqual([first.pairing.id]);
    expect(store.pendingPairings().map((pairing) => pairing.id)).toEqual([second.pairing.id]);
    expect(store.pairing(first.pairing.id)?.state).toBe('withdrawn');
    failure(
      () => store.completePairing({ pairingId: first.pairing.id, code: first.code, origin: null }),
      'PAIRING_WITHDRAWN',
    );
    expect(store.completePairing({ pairingId: second.pairing.id, code: second.code, origin: null }).client.name).toBe(
      'Caixa 1',
    );
  });

  it('keeps one request per program and origin across its connections', () => {
    const store = open();
    const squatter = Array.from({ length: 20 }, (_, n) =>
      store.requestPairing({ name: `Squat ${n}`, origin: null, from: from(`s${n}`, 666) }),
    );
    expect(squatter.slice(1).every((request, n) => request.withdrawn[0] === squatter[n]!.pairing.id)).toBe(true);
    // The honest programs each still get their place.
    const honest = Array.from({ length: 9 }, (_, n) =>
      store.requestPairing({ name: `PDV ${n}`, origin: null, from: from(`h${n}`, 200 + n) }),
    );
    expect(store.pendingPairings()).toHaveLength(10);
    expect(honest.every((request) => request.withdrawn.length === 0)).toBe(true);
  });

  it('lets a browser hold a request per origin, up to pendingPerProgram', () => {
    const store = open();
    const browser = (connection: string): PairingSource => from(connection, 300, '/usr/lib/chromium/chromium');
    store.requestPairing({ name: 'PDV web', origin: POS, from: browser('b1') });
    store.requestPairing({ name: 'Outro', origin: 'https://one.example', from: browser('b2') });
    store.requestPairing({ name: 'Outro', origin: 'https://two.example', from: browser('b3') });
    const refused = failure(
      () => store.requestPairing({ name: 'Outro', origin: 'https://three.example', from: browser('b4') }),
      'TOO_MANY_PENDING',
    );
    expect(refused.message).toContain('chromium');
    // The same origin again replaces its own request: a page that reloads is never refused.
    const again = store.requestPairing({ name: 'PDV web', origin: POS, from: browser('b5') });
    expect(again.withdrawn).toHaveLength(1);
    // Another program is not affected.
    store.requestPairing({ name: 'PDV', origin: null, from: from('p1', 400) });
  });

  it('when everyone together has maxPending, takes the place of the oldest request of the program holding the most', () => {
    const store = open({ maxPending: 4, pendingPerProgram: 3 });
    const browser = (connection: string): PairingSource => from(connection, 300, 'chromium');
    const pages = ['https://a.example', 'https://b.example', 'https://c.example'].map((origin, n) =>
      store.requestPairing({ name: `Página ${n}`, origin, from: browser(`b${n}`) }),
    );
    store.requestPairing({ name: 'PDV 1', origin: null, from: from('p1', 401) });
    // Full: a program with none takes the browser's oldest place (it holds 3, at least two more).
    const second = store.requestPairing({ name: 'PDV 2', origin: null, from: from('p2', 402) });
    expect(second.withdrawn).toEqual([pages[0]!.pairing.id]);
    // The browser now holds 2, the newcomer 0: still two more.
    const third = store.requestPairing({ name: 'PDV 3', origin: null, from: from('p3', 403) });
    expect(third.withdrawn).toEqual([pages[1]!.pairing.id]);
    // Now every program holds one: nobody loses its only request; the newcomer waits.
    failure(() => store.requestPairing({ name: 'PDV 4', origin: null, from: from('p4', 404) }), 'TOO_MANY_PENDING');
    expect(store.pendingPairings()).toHaveLength(4);
  });

  it('groups connections whose process is unknown, without letting them replace each other', () => {
    const store = open({ pendingPerProgram: 2 });
    store.requestPairing({ name: 'A', origin: null, from: from('u1', null) });
    store.requestPairing({ name: 'B', origin: null, from: from('u2', null) });
    failure(() => store.requestPairing({ name: 'C', origin: null, from: from('u3', null) }), 'TOO_MANY_PENDING');
    expect(store.pendingPairings().map((pairing) => pairing.name)).toEqual(['A', 'B']);
    // A known program still pairs.
    store.requestPairing({ name: 'D', origin: null, from: from('k1', 500) });
  });

  it('undoes the withdrawals of a request it then refuses', () => {
    const store = open({ pendingPerOrigin: 1 });
    const kept = store.requestPairing({ name: 'Caixa', origin: POS, from: from('c1', 100) });
    store.requestPairing({ name: 'Outro', origin: OTHER, from: from('c2', 101) });
    // Connection c1 asks for OTHER, which already has its one: refused, and its request for POS stays.
    failure(() => store.requestPairing({ name: 'Caixa', origin: OTHER, from: from('c1', 100) }), 'TOO_MANY_PENDING');
    expect(store.pairing(kept.pairing.id)?.state).toBe('pending');
  });
});

describe('blocked programs', () => {
  it('are kept in the file with their name, and reject their pending requests', () => {
    const store = open();
    const squat = store.requestPairing({
      name: 'Squat',
      origin: null,
      from: from('s1', 666, '/usr/bin/node /tmp/squat.mjs'),
    });
    const honest = store.requestPairing({ name: 'PDV', origin: null, from: from('h1', 200) });
    expect(store.hasBlockedPrograms()).toBe(false);
    const blocked = store.blockProgram({ name: 'node', program: '/usr/bin/node /tmp/squat.mjs' });
    expect(blocked).toMatchObject({ id: expect.stringMatching(/^prg_[0-9a-f]{16}$/) as unknown, name: 'node' });
    expect(store.pairing(squat.pairing.id)?.state).toBe('rejected');
    expect(store.pairing(honest.pairing.id)?.state).toBe('pending');
    // Twice keeps the first.
    expect(store.blockProgram({ name: 'node', program: '/usr/bin/node /tmp/squat.mjs' })).toEqual(blocked);
    store.close();
    const reopened = open();
    expect(reopened.hasBlockedPrograms()).toBe(true);
    expect(reopened.isProgramBlocked('/usr/bin/node /tmp/squat.mjs')).toBe(true);
    expect(reopened.isProgramBlocked('/usr/bin/node /srv/pos-200.js')).toBe(false);
    expect(reopened.blockedPrograms()).toEqual([blocked]);
    expect(reopened.unblockProgram(blocked.id)).toEqual(blocked);
    expect(reopened.hasBlockedPrograms()).toBe(false);
    failure(() => reopened.unblockProgram(blocked.id), 'NOT_FOUND');
    failure(() => reopened.blockProgram({ name: 'x', program: '  ' }), 'INVALID_INPUT');
  });

  it('come with version 4 of the file, which keeps the requests of a version 3 file', () => {
    const path = join(dir, 'v3.db');
    const old = new Database(path);
    for (const step of CLIENTS_FILE_MIGRATIONS.slice(0, 3)) old.exec(step);
    old.pragma('user_version = 3');
    const now = new Date();
    old
      .prepare(
        `INSERT INTO pairings (id, name, origin, code_hash, created_at, expires_at, attempts, state) VALUES (?, ?, ?, ?, ?, ?, 0, 'pending')`,
      )
      .run('pair_old', 'Caixa antigo', POS, 'x', now.toISOString(), new Date(now.getTime() + 60_000).toISOString());
    old.close();
    const store = open({}, 'v3.db');
    expect(store.pendingPairings()).toEqual([
      expect.objectContaining({ id: 'pair_old', name: 'Caixa antigo', program: null }),
    ]);
    store.blockProgram({ name: 'node', program: '/usr/bin/node squat.mjs' });
    expect(store.blockedPrograms()).toHaveLength(1);
  });
});
