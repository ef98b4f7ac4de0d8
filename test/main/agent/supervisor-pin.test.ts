/**
 * The supervisor's PIN at rest and at the counter: kept as a salted scrypt hash in a private file
 * (never the digits), checked in constant time, locked for some minutes after five wrong PINs in
 * a row — a lock kept in the file, so a restart does not reset it — and, in training, the
 * training PIN taken too.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOCK_MS,
  MAX_FAILURES,
  SupervisorPin,
  SupervisorPinError,
  TRAINING_SUPERVISOR_PIN,
} from '../../../main/agent/supervisor-pin.js';
import { thrown } from '../../helpers/thrown.js';

const file = (): string => join(mkdtempSync(join(tmpdir(), 'pinbridge-supervisor-')), '.pinbridge', 'supervisor-pin');

/** A clock the spec moves by hand. */
function clock(start = Date.parse('2026-11-27T12:00:00Z')): { now: () => number; advance: (ms: number) => void } {
  let at = start;
  return { now: () => at, advance: (ms) => (at += ms) };
}

describe('keeping the supervisor PIN', () => {
  it('is not set until the window sets one; then only its salted hash is in a private file', () => {
    const path = file();
    const pin = new SupervisorPin(path);
    expect(pin.isSet()).toBe(false);
    expect(pin.check('4821')).toEqual({ ok: false, reason: 'NOT_SET' });
    pin.set('482193');
    expect(pin.isSet()).toBe(true);
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('482193');
    expect(JSON.parse(text)).toMatchObject({ scheme: 'scrypt', failures: 0, locked_until: null });
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('salts every PIN: the same PIN set twice is two different hashes', () => {
    const path = file();
    const pin = new SupervisorPin(path);
    pin.set('4821');
    const first = JSON.parse(readFileSync(path, 'utf8')) as { salt: string; hash: string };
    pin.set('4821');
    const second = JSON.parse(readFileSync(path, 'utf8')) as { salt: string; hash: string };
    expect(second.salt).not.toBe(first.salt);
    expect(second.hash).not.toBe(first.hash);
  });

  it('refuses a PIN that is not 4 to 8 digits', () => {
    const pin = new SupervisorPin(file());
    for (const bad of ['123', '123456789', '12a4', ' 1234', '']) {
      const error = thrown(() => pin.set(bad));
      expect(error, bad).toBeInstanceOf(SupervisorPinError);
      expect(error).toMatchObject({ code: 'INVALID_PIN' });
    }
    expect(pin.isSet()).toBe(false);
  });

  it('says a damaged file is damaged instead of taking any PIN', () => {
    const path = file();
    new SupervisorPin(path).set('4821');
    writeFileSync(path, '{"scheme":"plain","pin":"4821"}');
    expect(thrown(() => new SupervisorPin(path).check('4821'))).toMatchObject({ code: 'UNREADABLE' });
  });
});

describe('checking a PIN typed', () => {
  it('takes the right PIN and refuses a wrong one, counting down the attempts left', () => {
    const pin = new SupervisorPin(file());
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
    const pin = new SupervisorPin(file(), { now: time.now });
    pin.set('482193');
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++)
      expect(pin.check('111111')).toMatchObject({ reason: 'WRONG' });
    expect(pin.check('111111')).toEqual({ ok: false, reason: 'LOCKED', retryAfterMs: LOCK_MS });
    expect(pin.lockedUntil()).toBe(new Date(time.now() + LOCK_MS).toISOString());
    time.advance(LOCK_MS - 1_000);
    expect(pin.check('482193')).toEqual({ ok: false, reason: 'LOCKED', retryAfterMs: 1_000 });
    time.advance(1_000);
    expect(pin.lockedUntil()).toBeNull();
    expect(pin.check('482193')).toEqual({ ok: true, training: false });
  });

  it('keeps the count and the lock across a restart (a new instance over the same file)', () => {
    const time = clock();
    const path = file();
    const before = new SupervisorPin(path, { now: time.now });
    before.set('4821');
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++) before.check('9999');
    const after = new SupervisorPin(path, { now: time.now });
    expect(after.check('9999')).toMatchObject({ ok: false, reason: 'LOCKED' });
    expect(new SupervisorPin(path, { now: time.now }).check('4821')).toMatchObject({ ok: false, reason: 'LOCKED' });
  });

  it('a new PIN set from the window clears the lock', () => {
    const time = clock();
    const pin = new SupervisorPin(file(), { now: time.now });
    pin.set('4821');
    for (let attempt = 0; attempt < MAX_FAILURES; attempt++) pin.check('9999');
    expect(pin.lockedUntil()).not.toBeNull();
    pin.set('5555');
    expect(pin.lockedUntil()).toBeNull();
    expect(pin.check('5555')).toEqual({ ok: true, training: false });
  });
});

describe('in training', () => {
  it(`takes the training PIN ${TRAINING_SUPERVISOR_PIN} with no PIN stored, and the stored one too`, () => {
    const pin = new SupervisorPin(file(), { training: true });
    expect(pin.isSet()).toBe(true);
    expect(pin.isStored()).toBe(false);
    expect(pin.check(TRAINING_SUPERVISOR_PIN)).toEqual({ ok: true, training: true });
    pin.set('482193');
    expect(pin.check('482193')).toEqual({ ok: true, training: false });
    expect(pin.check(TRAINING_SUPERVISOR_PIN)).toEqual({ ok: true, training: true });
    expect(pin.check('0000')).toMatchObject({ ok: false, reason: 'WRONG' });
  });

  it('locks after wrong PINs as the store would, with nothing stored', () => {
    const pin = new SupervisorPin(file(), { training: true });
    for (let attempt = 1; attempt < MAX_FAILURES; attempt++)
      expect(pin.check('0000')).toMatchObject({ reason: 'WRONG' });
    expect(pin.check('0000')).toMatchObject({ reason: 'LOCKED' });
    expect(pin.check(TRAINING_SUPERVISOR_PIN)).toMatchObject({ reason: 'LOCKED' });
  });

  it('is not what a store outside training takes', () => {
    const pin = new SupervisorPin(file());
    pin.set('482193');
    expect(pin.check(TRAINING_SUPERVISOR_PIN)).toMatchObject({ ok: false, reason: 'WRONG' });
  });
});
