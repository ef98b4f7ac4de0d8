/**
 * The supervisor's PIN at rest and at the counter: kept as a salted scrypt hash in a private file
 * (never the digits), checked in constant time, locked for some minutes after five wrong PINs in
 * a row — counted apart for the window's voids and the POS systems', a lock kept in the file, so
 * a restart does not reset it — and, in training, the training PIN taken too. The file is sealed
 * under the agent's key: an edit (the lock taken out, the hash of a known PIN written in, an
 * earlier copy put back) is detected, recorded, and locks every PIN until the window sets it again.
 */
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../../main/audit-log.js';
import {
  LOCK_MS,
  MAX_FAILURES,
  SupervisorPin,
  SupervisorPinError,
  TRAINING_SUPERVISOR_PIN,
  type SupervisorPinOptions,
} from '../../../main/agent/supervisor-pin.js';
import { INTEGRITY_KEY_BYTES, IntegrityKey } from '../../../main/integrity.js';
import { testIntegrityKey } from '../../helpers/integrity-key.js';
import { thrown } from '../../helpers/thrown.js';

const file = (): string => join(mkdtempSync(join(tmpdir(), 'pinbridge-supervisor-')), '.pinbridge', 'supervisor-pin');

/** A clock the spec moves by hand. */
function clock(start = Date.parse('2026-11-27T12:00:00Z')): { now: () => number; advance: (ms: number) => void } {
  let at = start;
  return { now: () => at, advance: (ms) => (at += ms) };
}

/** The agent's key for this spec's file (one per "machine"), and the audit lines recorded. */
function agentOf(): {
  key: IntegrityKey;
  audit: AuditEvent[];
  open: (path: string, options?: Partial<SupervisorPinOptions>) => SupervisorPin;
} {
  const key = testIntegrityKey();
  const audit: AuditEvent[] = [];
  return {
    key,
    audit,
    open: (path, options = {}) =>
      new SupervisorPin(path, { integrity: key, audit: { record: (event) => void audit.push(event) }, ...options }),
  };
}

type Json = Record<string, unknown>;
const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8')) as Json;
const writeJson = (path: string, json: unknown): void => writeFileSync(path, JSON.stringify(json));

/** Locks the window's channel of a PIN set to `right`. */
function lockOut(pin: SupervisorPin, right = '482193'): void {
  pin.set(right);
  for (let attempt = 0; attempt < MAX_FAILURES; attempt++) pin.check('111111');
  expect(pin.lock('window')).toMatchObject({ reason: 'WRONG_PINS' });
}

describe('keeping the supervisor PIN', () => {
  it('is not set until the window sets one; then only its salted hash is in a private, sealed file', () => {
    const path = file();
    const { open } = agentOf();
    const pin = open(path);
    expect(pin.isSet()).toBe(false);
    expect(pin.check('4821')).toEqual({ ok: false, reason: 'NOT_SET' });
    pin.set('482193');
    expect(pin.isSet()).toBe(true);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('482193');
    expect(JSON.parse(text)).toMatchObject({
      version: 2,
      pin: { scheme: 'scrypt' },
      lockouts: { window: { failures: 0, locked_until: null }, pos: { failures: 0, locked_until: null } },
      sealed_by: 'file',
      seal: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as unknown,
    });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('salts every PIN: the same PIN set twice is two different hashes', () => {
    const path = file();
    const pin = agentOf().open(path);
    pin.set('4821');
    const first = readJson(path).pin as { salt: string; hash: string };
    pin.set('4821');
    const second = readJson(path).pin as { salt: string; hash: string };
    expect(second.salt).not.toBe(first.salt);
    expect(second.hash).not.toBe(first.hash);
  });

  it('refuses a PIN that is not 4 to 8 digits', () => {
    const pin = agentOf().open(file());
    for (const bad of ['123', '123456789', '12a4', ' 1234', '']) {
      const error = thrown(() => pin.set(bad));
      expect(error, bad).toBeInstanceOf(SupervisorPinError);
      expect(error).toMatchObject({ code: 'INVALID_PIN' });
    }
    expect(pin.isSet()).toBe(false);
  });

  it('records each PIN set in the audit trail, never the PIN', () => {
    const { open, audit } = agentOf();
    open(file()).set('482193');
    expect(audit).toEqual([{ kind: 'supervisor.pin_set', by: 'window' }]);
  });
});

describe('checking a PIN typed', () => {
  it('takes the right PIN and refuses a wrong one, counting down the attempts left', () => {
    const pin = agentOf().open(file());
    pin.set('482193');
    expect(pin.check('482193')).toEqual({ ok: true, training: false });
    expect(pin.check('482194')).toEqual({ ok: false, reason: 'WRONG', attemptsLeft: MAX_FAILURES - 1 });
    expect(pin.check('4821')).toEqual({ ok: false, reason: 'WRONG', attemptsLeft: MAX_FAILURES - 2 });
    // The right PIN clears the count.
    expect(pin.check('482193')).toEqual({ ok: true, training: false });
    expect(pin.check('000000')).toEqual({ ok: false, reason: 'WRONG', attemptsLeft: MAX_FAILURES - 1 });
  });

  it(`locks for ${LOCK_MS / 60_000} minutes after ${MAX_FAILURES} wrong PINs in a row, refusing even the right one, then takes it again`, () => {
    const time = clock();
    const { open, audit } = agentOf();
    const pin = open(file(), { now: time.now });
    pin.set('482193');
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++)
      expect(pin.check('111111')).toMatchObject({ reason: 'WRONG' });
    const until = new Date(time.now() + LOCK_MS).toISOString();
    expect(pin.check('111111')).toEqual({ ok: false, reason: 'LOCKED', until, retryAfterMs: LOCK_MS });
    expect(pin.lockedUntil()).toBe(until);
    expect(pin.lock('window')).toEqual({ reason: 'WRONG_PINS', until, retryAfterMs: LOCK_MS });
    time.advance(LOCK_MS - 1_000);
    // The same end as the lock's, whenever it is asked: what the window counts down to.
    expect(pin.check('482193')).toEqual({ ok: false, reason: 'LOCKED', until, retryAfterMs: 1_000 });
    time.advance(1_000);
    expect(pin.lockedUntil()).toBeNull();
    expect(pin.check('482193')).toEqual({ ok: true, training: false });
    // Every wrong PIN and the lock are in the audit trail, with the channel and never a digit.
    expect(audit.filter((event) => event.kind === 'supervisor.wrong_pin')).toHaveLength(MAX_FAILURES);
    expect(audit).toContainEqual({ kind: 'supervisor.wrong_pin', channel: 'window', attempts_left: 1 });
    expect(audit).toContainEqual({ kind: 'supervisor.locked', channel: 'window', until });
    expect(JSON.stringify(audit)).not.toMatch(/111111|482193/);
  });

  it('keeps the count and the lock across a restart (a new instance over the same file)', () => {
    const time = clock();
    const path = file();
    const { open } = agentOf();
    const before = open(path, { now: time.now });
    before.set('4821');
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++) before.check('9999');
    const after = open(path, { now: time.now });
    expect(after.check('9999')).toMatchObject({ ok: false, reason: 'LOCKED' });
    expect(open(path, { now: time.now }).check('4821')).toMatchObject({ ok: false, reason: 'LOCKED' });
  });

  it('a new PIN set from the window clears the lock, and says so in the audit trail', () => {
    const time = clock();
    const { open, audit } = agentOf();
    const pin = open(file(), { now: time.now });
    lockOut(pin, '4821');
    pin.set('5555');
    expect(pin.lockedUntil()).toBeNull();
    expect(pin.check('5555')).toEqual({ ok: true, training: false });
    expect(audit.slice(-2)).toEqual([
      { kind: 'supervisor.pin_set', by: 'window' },
      { kind: 'supervisor.unlocked', by: 'window', was: 'locked' },
    ]);
  });

  it('keeps a count it cannot write (a full disk) in memory: the lock holds all the same', () => {
    const time = clock();
    const path = file();
    const pin = agentOf().open(path, { now: time.now });
    pin.set('482193');
    // The temporary file's name taken by a folder: every write of the file fails from here on.
    mkdirSync(`${path}.${process.pid}.tmp`);
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++)
      expect(pin.check('111111')).toMatchObject({ reason: 'WRONG' });
    expect(pin.check('111111')).toMatchObject({ reason: 'LOCKED' });
    expect(pin.check('482193')).toMatchObject({ reason: 'LOCKED' });
    expect((readJson(path).lockouts as Json).window).toEqual({ failures: 0, locked_until: null });
    // Room again: written with the next look, sealed.
    rmSync(`${path}.${process.pid}.tmp`, { recursive: true });
    expect(pin.lock('window')).toMatchObject({ reason: 'WRONG_PINS' });
    expect((readJson(path).lockouts as Json).window).toMatchObject({ locked_until: expect.any(String) as unknown });
  });
});

describe('the window and the POS systems, counted apart', () => {
  it("wrong PINs typed on the PINPAD for a POS's voids lock the POS's voids only: the window's still take the right PIN", () => {
    const { open, audit } = agentOf();
    const pin = open(file());
    pin.set('482193');
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++)
      expect(pin.check('000000', 'pos')).toMatchObject({ reason: 'WRONG' });
    expect(pin.check('000000', 'pos')).toMatchObject({ reason: 'LOCKED' });
    expect(pin.check('482193', 'pos')).toMatchObject({ reason: 'LOCKED' });
    expect(pin.lock('pos')).toMatchObject({ reason: 'WRONG_PINS' });
    expect(pin.lock('window')).toBeNull();
    expect(pin.check('482193', 'window')).toEqual({ ok: true, training: false });
    expect(audit).toContainEqual(expect.objectContaining({ kind: 'supervisor.locked', channel: 'pos' }));
  });

  it("and the window's wrong PINs do not lock the POS systems' voids; all guesses together stay bounded", () => {
    const pin = agentOf().open(file());
    lockOut(pin);
    expect(pin.lock('pos')).toBeNull();
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++)
      expect(pin.check('222222', 'pos')).toMatchObject({ reason: 'WRONG' });
    expect(pin.check('222222', 'pos')).toMatchObject({ reason: 'LOCKED' });
    // Both locked: nowhere is another PIN checked until a lock ends (2 × MAX_FAILURES guesses per LOCK_MS at most).
    expect(pin.check('482193', 'window')).toMatchObject({ reason: 'LOCKED' });
    expect(pin.check('482193', 'pos')).toMatchObject({ reason: 'LOCKED' });
  });

  it('a right PIN clears its own channel’s count only', () => {
    const pin = agentOf().open(file());
    pin.set('482193');
    pin.check('000000', 'pos');
    pin.check('000000', 'pos');
    expect(pin.check('482193', 'window')).toMatchObject({ ok: true });
    expect(pin.check('000000', 'pos')).toEqual({ ok: false, reason: 'WRONG', attemptsLeft: MAX_FAILURES - 3 });
  });
});

describe('a file changed outside Pinbridge', () => {
  it('taking the lock out of the file does not clear it: detected, recorded, and every PIN refused until the PIN is set again', () => {
    const path = file();
    const { open, audit } = agentOf();
    lockOut(open(path));
    const edited = readJson(path);
    writeJson(path, {
      ...edited,
      lockouts: { window: { failures: 0, locked_until: null }, pos: { failures: 0, locked_until: null } },
    });
    // The next start (a new instance over the edited file).
    const pin = open(path);
    expect(pin.check('482193')).toEqual({ ok: false, reason: 'TAMPERED' });
    expect(pin.check('482193', 'pos')).toEqual({ ok: false, reason: 'TAMPERED' });
    expect(pin.lock('window')).toEqual({ reason: 'TAMPERED' });
    expect(pin.tampered()).toBe(true);
    // A void still finds a PIN to ask for (and is refused as locked), but the window is not told one is stored.
    expect(pin.isSet()).toBe(true);
    expect(pin.isStored()).toBe(false);
    expect(audit).toContainEqual(
      expect.objectContaining({ kind: 'tamper.detected', what: 'supervisor_pin', file: 'supervisor-pin' }),
    );
    expect(audit.filter((event) => event.kind === 'tamper.detected')).toHaveLength(1);
  });

  it('writing in the hash of a known PIN (made by another Pinbridge, with its own seal) is refused too', () => {
    const path = file();
    const { open } = agentOf();
    lockOut(open(path));
    // An attacker's own Pinbridge sets a PIN they know; its file is copied over the store's.
    const theirs = file();
    agentOf().open(theirs).set('1111');
    const known = readJson(theirs);
    writeJson(path, { ...readJson(path), pin: known.pin });
    expect(open(path).check('1111')).toEqual({ ok: false, reason: 'TAMPERED' });
    // Their whole file, their seal and all.
    cpSync(theirs, path);
    expect(open(path).check('1111')).toEqual({ ok: false, reason: 'TAMPERED' });
  });

  it('putting back an earlier copy of the file (its seal good) while the agent runs is caught, and so is deleting it', () => {
    const path = file();
    const { open } = agentOf();
    const pin = open(path);
    pin.set('482193');
    const beforeTheLock = readFileSync(path);
    for (let attempt = 0; attempt < MAX_FAILURES; attempt++) pin.check('111111');
    writeFileSync(path, beforeTheLock);
    expect(pin.check('482193')).toEqual({ ok: false, reason: 'TAMPERED' });

    const other = file();
    const running = open(other);
    lockOut(running);
    rmSync(other);
    expect(running.check('482193')).toEqual({ ok: false, reason: 'TAMPERED' });
  });

  it('a file that is not a supervisor PIN file at all is refused the same way', () => {
    const path = file();
    const { open } = agentOf();
    open(path).set('4821');
    writeFileSync(path, '{"scheme":"plain","pin":"4821"}');
    expect(open(path).check('4821')).toEqual({ ok: false, reason: 'TAMPERED' });
    writeFileSync(path, 'not json');
    expect(open(path).check('4821')).toEqual({ ok: false, reason: 'TAMPERED' });
  });

  it('the store gets back by setting the PIN again in the window: sealed anew, the tampering said in the audit trail', () => {
    const path = file();
    const { open, audit } = agentOf();
    lockOut(open(path));
    writeJson(path, {
      ...readJson(path),
      lockouts: { window: { failures: 0, locked_until: null }, pos: { failures: 0, locked_until: null } },
    });
    const pin = open(path);
    expect(pin.tampered()).toBe(true);
    pin.set('735196');
    expect(pin.tampered()).toBe(false);
    expect(pin.check('735196')).toEqual({ ok: true, training: false });
    expect(open(path).check('735196')).toEqual({ ok: true, training: false });
    expect(audit.slice(-2)).toEqual([
      { kind: 'supervisor.pin_set', by: 'window' },
      { kind: 'supervisor.unlocked', by: 'window', was: 'tampered' },
    ]);
  });
});

describe('a file from a Pinbridge before seals', () => {
  const legacy = (path: string, locked_until: string | null): void => {
    // Made as that version made it: its hash fields at the top, one count.
    const sealed = readJson(path);
    mkdirSync(join(path, '..'), { recursive: true });
    writeJson(path, {
      version: 1,
      ...(sealed.pin as Json),
      failures: 0,
      locked_until,
    });
  };

  it('is taken and sealed at the start that made the key (the upgrade), its lock kept', () => {
    const path = file();
    const bytes = randomBytes(INTEGRITY_KEY_BYTES);
    const key = new IntegrityKey(bytes, { source: 'file', fresh: true });
    const until = new Date(Date.now() + LOCK_MS).toISOString();
    agentOf().open(path).set('482193');
    legacy(path, until);
    const pin = new SupervisorPin(path, { integrity: key });
    expect(pin.check('482193')).toMatchObject({ reason: 'LOCKED' });
    expect(readJson(path)).toMatchObject({ version: 2, lockouts: { window: { locked_until: until } } });
    // Sealed: the next start, with the same key no longer new, takes it.
    const next = new SupervisorPin(path, { integrity: new IntegrityKey(bytes, { source: 'file' }) });
    expect(next.lock('window')).toMatchObject({ reason: 'WRONG_PINS', until });
  });

  it('is refused once the key existed before: only something else writes an unsealed file then', () => {
    const path = file();
    const { open } = agentOf();
    open(path).set('482193');
    legacy(path, null);
    expect(open(path).check('482193')).toEqual({ ok: false, reason: 'TAMPERED' });
  });
});

describe('in training', () => {
  it(`takes the training PIN ${TRAINING_SUPERVISOR_PIN} with no PIN stored, and the stored one too`, () => {
    const pin = agentOf().open(file(), { training: true });
    expect(pin.isSet()).toBe(true);
    expect(pin.isStored()).toBe(false);
    expect(pin.check(TRAINING_SUPERVISOR_PIN)).toEqual({ ok: true, training: true });
    pin.set('482193');
    expect(pin.check('482193')).toEqual({ ok: true, training: false });
    expect(pin.check(TRAINING_SUPERVISOR_PIN)).toEqual({ ok: true, training: true });
    expect(pin.check('0000')).toMatchObject({ ok: false, reason: 'WRONG' });
  });

  it('locks after wrong PINs as the store would, with nothing stored — and the lock is in the sealed file, so a restart keeps it', () => {
    const path = file();
    const { open } = agentOf();
    const pin = open(path, { training: true });
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++)
      expect(pin.check('0000')).toMatchObject({ reason: 'WRONG' });
    expect(pin.check('0000')).toMatchObject({ reason: 'LOCKED' });
    expect(pin.check(TRAINING_SUPERVISOR_PIN)).toMatchObject({ reason: 'LOCKED' });
    expect(readJson(path)).toMatchObject({
      pin: null,
      lockouts: { window: { locked_until: expect.any(String) as unknown } },
    });
    const restarted = open(path, { training: true });
    expect(restarted.isStored()).toBe(false);
    expect(restarted.check(TRAINING_SUPERVISOR_PIN)).toMatchObject({ reason: 'LOCKED' });
  });

  it('is not what a store outside training takes', () => {
    const pin = agentOf().open(file());
    pin.set('482193');
    expect(pin.check(TRAINING_SUPERVISOR_PIN)).toMatchObject({ ok: false, reason: 'WRONG' });
  });
});
