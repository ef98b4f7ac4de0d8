/**
 * The supervisor's PIN, which a store may require before an approved sale is voided or an
 * approval waiting for confirmation is undone (settings `supervisor`, supervisor-settings.ts).
 *
 * The PIN (4–8 digits) is never kept: only a salted scrypt hash (node:crypto) in a private file
 * beside the API token (~/.pinbridge/supervisor-pin, 0600), written by the window
 * (operator.setSupervisorPin) and never sent back — the settings only say whether one is set.
 * A PIN typed is checked against the hash in constant time. Eight digits at most is a small
 * space: the lock, not the hash, is what stops guessing.
 *
 * **Two lock-outs.** After MAX_FAILURES wrong PINs in a row the check refuses every PIN (the
 * right one too) for LOCK_MS — counted apart for the window's voids and for the voids POS systems
 * ask for (typed on the PINPAD), so a POS (or whoever stands at the PINPAD for it) cannot lock the
 * store's own window out, while all guesses together stay bounded: 2 × MAX_FAILURES per LOCK_MS.
 *
 * **Sealed.** The hash, both counts and both locks are kept in the same file under one seal
 * (main/integrity.ts, the agent's key), so a restart does not buy more guesses, and neither does an
 * edit: a file whose seal fails — the lock taken out, the hash of a known PIN written in — is not
 * taken. It is reported (the log, the audit trail, the window) and every PIN is refused until the
 * supervisor sets the PIN again in the window (operator.setSupervisorPin, which needs the
 * operator key). While the agent runs, an earlier copy of the file put back (its seal is good) is
 * caught too: each write has a generation, and going back is tampering. What this does not stop
 * is in docs/security.md.
 *
 * Training mode (nothing is charged) also takes TRAINING_SUPERVISOR_PIN, the PIN the training
 * PINPAD's simulated person types (main/agent/pinpad-keeper.ts), so a cashier can practise the
 * supervisor's step in the window and on the PINPAD without knowing the store's PIN. With no PIN
 * stored its counts and locks are kept in the same file, sealed, so they survive a crash too.
 */
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { CodedError } from '../../lib/errors.js';
import type { AuditLog } from '../audit-log.js';
import { canonicalJson } from '../contract/canonical-json.js';
import type { IntegrityKey } from '../integrity.js';
import type { Logger } from '../log.js';
import type { SupervisorChannel, SupervisorGuard, SupervisorLock, SupervisorPolicy } from '../pos/server/supervisor.js';

export type { SupervisorChannel, SupervisorLock };

/** Wrong PINs in a row (on one channel) before it locks. */
export const MAX_FAILURES = 5;
/** How long a channel stays locked after MAX_FAILURES wrong PINs. */
export const LOCK_MS = 5 * 60_000;
/** What the training PINPAD types, and what training mode also takes. */
export const TRAINING_SUPERVISOR_PIN = '1234';
/** 4 to 8 digits: what a PINPAD keypad and a cashier's memory both manage. */
export const SUPERVISOR_PIN_PATTERN = /^\d{4,8}$/;
/** The lock-outs kept apart: the window's voids, and the voids POS systems ask for. */
export const SUPERVISOR_CHANNELS: readonly SupervisorChannel[] = ['window', 'pos'];

/** scrypt's cost (N = 2^14, r 8, p 1: ~16 MiB, tens of ms): cheap enough per void, dear per guess offline. */
const SCRYPT = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** The seal's purpose (main/integrity.ts). */
const PURPOSE = 'supervisor-pin';

export type SupervisorPinErrorCode = 'INVALID_PIN' | 'UNREADABLE';

export class SupervisorPinError extends CodedError<SupervisorPinErrorCode> {
  constructor(code: SupervisorPinErrorCode, message: string) {
    super(code, message);
  }
}

interface PinHash {
  readonly scheme: 'scrypt';
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: string;
  readonly hash: string;
}

interface Lockout {
  readonly failures: number;
  readonly locked_until: string | null;
}

/** What is sealed: the hash (null: none stored), each channel's count and lock, and the write's generation. */
interface PinState {
  readonly version: 2;
  readonly pin: PinHash | null;
  readonly lockouts: Readonly<Record<SupervisorChannel, Lockout>>;
  readonly generation: number;
}

/** The file: the state, its seal, and which key sealed it (a hint for support; not trusted). */
interface PinFile extends PinState {
  readonly sealed_by: string;
  readonly seal: string;
}

/** The file of a Pinbridge from before seals and channels. */
interface LegacyPinFile extends PinHash {
  readonly version: 1;
  readonly failures: number;
  readonly locked_until: string | null;
}

/** The answer to a PIN typed. */
export type PinCheck =
  | { readonly ok: true; readonly training: boolean }
  | { readonly ok: false; readonly reason: 'NOT_SET' }
  | { readonly ok: false; readonly reason: 'WRONG'; readonly attemptsLeft: number }
  | { readonly ok: false; readonly reason: 'LOCKED'; readonly until: string; readonly retryAfterMs: number }
  | { readonly ok: false; readonly reason: 'TAMPERED' };

export interface SupervisorPinOptions {
  /** Seals the file (the agent's key, main/agent/integrity-key.ts). */
  readonly integrity: IntegrityKey;
  /** Training mode: TRAINING_SUPERVISOR_PIN is taken too. */
  readonly training?: boolean;
  /** The security audit trail: PIN set, wrong PINs, locks, unlocks, tampering. */
  readonly audit?: Pick<AuditLog, 'record'>;
  readonly logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  readonly now?: () => number;
  readonly maxFailures?: number;
  readonly lockMs?: number;
}

const NO_LOCKOUT: Lockout = { failures: 0, locked_until: null };
const OPEN_LOCKOUTS: Readonly<Record<SupervisorChannel, Lockout>> = { window: NO_LOCKOUT, pos: NO_LOCKOUT };

function hashOf(pin: string, salt: Buffer, cost: { N: number; r: number; p: number }): Buffer {
  return scryptSync(pin, salt, KEY_LENGTH, { ...cost, maxmem: 64 * 1024 * 1024 });
}

/** Constant-time equality of two short texts (their digests have one length whatever theirs). */
function sameText(a: string, b: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isPinHash(value: unknown): value is PinHash {
  return (
    isRecord(value) &&
    value.scheme === 'scrypt' &&
    [value.N, value.r, value.p].every((n) => Number.isInteger(n)) &&
    typeof value.salt === 'string' &&
    typeof value.hash === 'string'
  );
}

function isLockout(value: unknown): value is Lockout {
  return (
    isRecord(value) &&
    Number.isInteger(value.failures) &&
    (value.locked_until === null || typeof value.locked_until === 'string')
  );
}

function isPinFile(value: unknown): value is PinFile {
  return (
    isRecord(value) &&
    value.version === 2 &&
    (value.pin === null || isPinHash(value.pin)) &&
    isRecord(value.lockouts) &&
    SUPERVISOR_CHANNELS.every((channel) => isLockout((value.lockouts as Record<string, unknown>)[channel])) &&
    Number.isInteger(value.generation) &&
    typeof value.seal === 'string'
  );
}

function isLegacyPinFile(value: unknown): value is LegacyPinFile {
  return isRecord(value) && value.version === 1 && isPinHash(value) && isLockout(value);
}

/** The sealed part of a state, exactly: what the seal covers, whatever else the file holds. */
function sealedText(state: PinState): string {
  return canonicalJson({
    version: state.version,
    pin: state.pin,
    lockouts: { window: state.lockouts.window, pos: state.lockouts.pos },
    generation: state.generation,
  });
}

/** What reading the file found. */
type Loaded =
  | { readonly kind: 'none' }
  | { readonly kind: 'state'; readonly state: PinState }
  | { readonly kind: 'tampered'; readonly why: string };

/** The supervisor PIN's hash file and the locks on wrong guesses. */
export class SupervisorPin {
  readonly #path: string;
  readonly #integrity: IntegrityKey;
  readonly #training: boolean;
  readonly #audit: Pick<AuditLog, 'record'> | undefined;
  readonly #logger: Pick<Logger, 'info' | 'warn' | 'error'> | undefined;
  readonly #now: () => number;
  readonly #maxFailures: number;
  readonly #lockMs: number;
  /** The newest generation this process read or wrote: a file going back is an earlier copy put back. */
  #generation = 0;
  /** Why the file is not taken (kept until the PIN is set again, so putting a good copy back does not help). */
  #tampered: string | undefined;
  /** A state whose write failed (a full disk): in force from memory until a write succeeds. */
  #unwritten: PinState | undefined;

  constructor(path: string, options: SupervisorPinOptions) {
    this.#path = path;
    this.#integrity = options.integrity;
    this.#training = options.training === true;
    this.#audit = options.audit;
    this.#logger = options.logger;
    this.#now = options.now ?? Date.now;
    this.#maxFailures = options.maxFailures ?? MAX_FAILURES;
    this.#lockMs = options.lockMs ?? LOCK_MS;
  }

  /** Whether a PIN can be checked: one is stored (training: always, it takes its own); a tampered file counts, locked. */
  isSet(): boolean {
    const loaded = this.#load();
    return this.#training || loaded.kind === 'tampered' || (loaded.kind === 'state' && loaded.state.pin !== null);
  }

  /** Whether a PIN is stored in the file and its seal holds (training's own PIN does not count). */
  isStored(): boolean {
    const loaded = this.#load();
    return loaded.kind === 'state' && loaded.state.pin !== null;
  }

  /** Whether the file was changed outside Pinbridge: every PIN is refused until it is set again. */
  tampered(): boolean {
    return this.#load().kind === 'tampered';
  }

  /** When the channel's lock ends (ISO time), or null when it is not locked by wrong PINs. */
  lockedUntil(channel: SupervisorChannel = 'window'): string | null {
    const loaded = this.#load();
    const until = loaded.kind === 'state' ? this.#lockEnd(loaded.state, channel) : null;
    return until === null ? null : new Date(until).toISOString();
  }

  /** The lock in force on a channel: wrong PINs (until when) or a tampered file (until the PIN is set again). */
  lock(channel: SupervisorChannel = 'window'): SupervisorLock | null {
    const loaded = this.#load();
    if (loaded.kind === 'tampered') return { reason: 'TAMPERED' };
    if (loaded.kind === 'none') return null;
    const until = this.#lockEnd(loaded.state, channel);
    return until === null
      ? null
      : { reason: 'WRONG_PINS', until: new Date(until).toISOString(), retryAfterMs: until - this.#now() };
  }

  /**
   * Keeps a new PIN (its hash), sealed; every count and lock is cleared, a tampered file's too —
   * the store's way back, from the window (which holds the operator key).
   */
  set(pin: string): void {
    if (!SUPERVISOR_PIN_PATTERN.test(pin))
      throw new SupervisorPinError('INVALID_PIN', 'The supervisor PIN must be 4 to 8 digits.');
    const before = this.#load();
    const was =
      before.kind === 'tampered'
        ? 'tampered'
        : before.kind === 'state' &&
            SUPERVISOR_CHANNELS.some((channel) => this.#lockEnd(before.state, channel) !== null)
          ? 'locked'
          : undefined;
    const salt = randomBytes(SALT_LENGTH);
    this.#write(
      {
        version: 2,
        pin: {
          scheme: 'scrypt',
          ...SCRYPT,
          salt: salt.toString('base64'),
          hash: hashOf(pin, salt, SCRYPT).toString('base64'),
        },
        lockouts: OPEN_LOCKOUTS,
        generation: this.#generation + 1,
      },
      true,
    );
    this.#tampered = undefined;
    this.#audit?.record({ kind: 'supervisor.pin_set', by: 'window' });
    if (was !== undefined) this.#audit?.record({ kind: 'supervisor.unlocked', by: 'window', was });
  }

  /** Checks a PIN typed for a channel's void; a wrong one counts towards that channel's lock, a right one clears its count. */
  check(pin: string, channel: SupervisorChannel = 'window'): PinCheck {
    const loaded = this.#load();
    if (loaded.kind === 'tampered') return { ok: false, reason: 'TAMPERED' };
    const state = loaded.kind === 'state' ? loaded.state : undefined;
    const stored = state?.pin ?? null;
    if (stored === null && !this.#training) return { ok: false, reason: 'NOT_SET' };
    const lockEnd = state === undefined ? null : this.#lockEnd(state, channel);
    if (lockEnd !== null)
      return {
        ok: false,
        reason: 'LOCKED',
        until: new Date(lockEnd).toISOString(),
        retryAfterMs: lockEnd - this.#now(),
      };
    // Hashed whatever its shape, so a malformed PIN takes as long as a wrong one.
    const storedOk = stored !== null && this.#matches(pin, stored);
    const trainingOk = this.#training && sameText(pin, TRAINING_SUPERVISOR_PIN);
    const lockout = state?.lockouts[channel] ?? NO_LOCKOUT;
    if (storedOk || trainingOk) {
      if (lockout.failures !== 0 || lockout.locked_until !== null) this.#record(state, channel, NO_LOCKOUT);
      return { ok: true, training: !storedOk };
    }
    const failures = lockout.failures + 1;
    if (failures >= this.#maxFailures) {
      const until = new Date(this.#now() + this.#lockMs).toISOString();
      this.#record(state, channel, { failures: 0, locked_until: until });
      this.#audit?.record({ kind: 'supervisor.wrong_pin', channel, attempts_left: 0 });
      this.#audit?.record({ kind: 'supervisor.locked', channel, until });
      return { ok: false, reason: 'LOCKED', until, retryAfterMs: this.#lockMs };
    }
    this.#record(state, channel, { failures, locked_until: null });
    this.#audit?.record({ kind: 'supervisor.wrong_pin', channel, attempts_left: this.#maxFailures - failures });
    return { ok: false, reason: 'WRONG', attemptsLeft: this.#maxFailures - failures };
  }

  #matches(pin: string, stored: PinHash): boolean {
    const expected = Buffer.from(stored.hash, 'base64');
    const given = hashOf(pin, Buffer.from(stored.salt, 'base64'), stored);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The channel's lock end (ms), or null when there is none or it has passed. */
  #lockEnd(state: PinState, channel: SupervisorChannel): number | null {
    const lockedUntil = state.lockouts[channel].locked_until;
    const until = lockedUntil === null ? Number.NaN : Date.parse(lockedUntil);
    return Number.isFinite(until) && until > this.#now() ? until : null;
  }

  /** A channel's new count and lock, kept; a failed write keeps it in memory (a lock is never lost to a full disk). */
  #record(state: PinState | undefined, channel: SupervisorChannel, lockout: Lockout): void {
    const current = state ?? { version: 2 as const, pin: null, lockouts: OPEN_LOCKOUTS, generation: this.#generation };
    this.#write(
      { ...current, lockouts: { ...current.lockouts, [channel]: lockout }, generation: this.#generation + 1 },
      false,
    );
  }

  #load(): Loaded {
    if (this.#tampered !== undefined) return { kind: 'tampered', why: this.#tampered };
    if (this.#unwritten !== undefined) {
      // Written at the next chance; until then, memory holds the newest state.
      this.#write(this.#unwritten, false);
      if (this.#unwritten !== undefined) return { kind: 'state', state: this.#unwritten };
    }
    const loaded = this.#read();
    if (loaded.kind === 'tampered') this.#detected(loaded.why);
    return loaded;
  }

  #read(): Loaded {
    let text: string;
    try {
      text = readFileSync(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        // Gone while this process had written one: deleting the file does not clear a lock either.
        return this.#generation > 0 ? { kind: 'tampered', why: 'the file was deleted' } : { kind: 'none' };
      }
      throw new SupervisorPinError(
        'UNREADABLE',
        `The supervisor PIN file ${this.#path} cannot be read: ${(error as Error).message}`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { kind: 'tampered', why: 'the file is not a supervisor PIN file' };
    }
    if (isLegacyPinFile(parsed)) return this.#legacy(parsed);
    if (!isPinFile(parsed)) return { kind: 'tampered', why: 'the file is not a supervisor PIN file' };
    const state: PinState = {
      version: 2,
      pin: parsed.pin,
      lockouts: { window: parsed.lockouts.window, pos: parsed.lockouts.pos },
      generation: parsed.generation,
    };
    if (!this.#integrity.verify(PURPOSE, sealedText(state), parsed.seal))
      return {
        kind: 'tampered',
        why: `its seal fails (sealed by: ${String(parsed.sealed_by)}, key: ${this.#integrity.source})`,
      };
    if (state.generation < this.#generation)
      return { kind: 'tampered', why: 'an earlier copy of the file was put back' };
    this.#generation = state.generation;
    return { kind: 'state', state };
  }

  /**
   * A file from a Pinbridge before seals: taken, and sealed, only at the start that made the key
   * (the upgrade); later, an unsealed file can only have been written by something else.
   */
  #legacy(file: LegacyPinFile): Loaded {
    if (!this.#integrity.fresh) return { kind: 'tampered', why: 'the file has no seal' };
    const { scheme, N, r, p, salt, hash, failures, locked_until } = file;
    const state: PinState = {
      version: 2,
      pin: { scheme, N, r, p, salt, hash },
      lockouts: { window: { failures, locked_until }, pos: NO_LOCKOUT },
      generation: this.#generation + 1,
    };
    this.#write(state, false);
    this.#logger?.info({ file: this.#path }, 'supervisor PIN file from an earlier Pinbridge: sealed');
    return { kind: 'state', state };
  }

  /** Said once: the log, the audit trail; the window reads `tampered()`. */
  #detected(why: string): void {
    this.#tampered = why;
    this.#logger?.error(
      { file: this.#path, why },
      'the supervisor PIN file was changed outside Pinbridge: every supervisor PIN is refused until the PIN is set again in the window',
    );
    this.#audit?.record({
      kind: 'tamper.detected',
      what: 'supervisor_pin',
      file: basename(this.#path),
      why,
      action: 'locked until the PIN is set again in the window',
    });
  }

  /**
   * Atomically and privately, sealed: a crash mid-write leaves the old file, never half a new one.
   * `strict`: a failure is thrown (setting the PIN); else the state is kept in memory and the
   * failure logged (a count or a lock must hold even on a full disk).
   */
  #write(state: PinState, strict: boolean): void {
    const file: PinFile = {
      ...state,
      sealed_by: this.#integrity.source,
      seal: this.#integrity.seal(PURPOSE, sealedText(state)),
    };
    try {
      mkdirSync(dirname(this.#path), { recursive: true, mode: 0o700 });
      const temporary = `${this.#path}.${process.pid}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(file)}\n`, { mode: 0o600 });
      chmodSync(temporary, 0o600);
      renameSync(temporary, this.#path);
    } catch (error) {
      if (strict) throw error;
      if (this.#unwritten === undefined)
        this.#logger?.warn(
          { file: this.#path, err: (error as Error).message },
          'the supervisor PIN counts cannot be written; kept in memory until they can',
        );
      this.#unwritten = state;
      this.#generation = Math.max(this.#generation, state.generation);
      return;
    }
    this.#unwritten = undefined;
    this.#generation = Math.max(this.#generation, state.generation);
  }
}

/**
 * The POS server's guard over a PIN's keeper and a store's policy; `policy` may be a function, read
 * at each void (a spec changes it between cases).
 */
export function supervisorGuard(
  pin: SupervisorPin,
  policy: SupervisorPolicy | (() => SupervisorPolicy),
): SupervisorGuard {
  return {
    get policy() {
      return typeof policy === 'function' ? policy() : policy;
    },
    isSet: () => pin.isSet(),
    isStored: () => pin.isStored(),
    tampered: () => pin.tampered(),
    lock: (channel) => pin.lock(channel),
    check: (typed, channel) => pin.check(typed, channel),
    set: (typed) => pin.set(typed),
  };
}
