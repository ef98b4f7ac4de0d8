/**
 * The supervisor's PIN, which a store may require before an approved sale is voided or an
 * approval waiting for confirmation is undone (settings `supervisor`, supervisor-settings.ts).
 *
 * The PIN (4–8 digits) is never kept: only a salted scrypt hash (node:crypto) in a private file
 * beside the API token (~/.pinbridge/supervisor-pin, 0600), written by the window
 * (operator.setSupervisorPin) and never sent back — the settings only say whether one is set.
 * A PIN typed is checked against the hash in constant time. After MAX_FAILURES wrong PINs in a
 * row the check refuses every PIN (the right one too) for LOCK_MS; the count and the lock are
 * kept in the same file, so restarting the agent from the window does not buy more guesses.
 * Eight digits at most is a small space: the lock, not the hash, is what stops guessing.
 *
 * Training mode (nothing is charged) also takes TRAINING_SUPERVISOR_PIN, the PIN the training
 * PINPAD's simulated person types (main/agent/pinpad-keeper.ts), so a cashier can practise the
 * supervisor's step in the window and on the PINPAD without knowing the store's PIN.
 */
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { CodedError } from '../../lib/errors.js';
import type { SupervisorGuard, SupervisorPolicy } from '../pos/server/supervisor.js';

/** Wrong PINs in a row before the check locks. */
export const MAX_FAILURES = 5;
/** How long the check stays locked after MAX_FAILURES wrong PINs. */
export const LOCK_MS = 5 * 60_000;
/** What the training PINPAD types, and what training mode also takes. */
export const TRAINING_SUPERVISOR_PIN = '1234';
/** 4 to 8 digits: what a PINPAD keypad and a cashier's memory both manage. */
export const SUPERVISOR_PIN_PATTERN = /^\d{4,8}$/;

/** scrypt's cost (N = 2^14, r 8, p 1: ~16 MiB, tens of ms): cheap enough per void, dear per guess offline. */
const SCRYPT = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export type SupervisorPinErrorCode = 'INVALID_PIN' | 'UNREADABLE';

export class SupervisorPinError extends CodedError<SupervisorPinErrorCode> {
  constructor(code: SupervisorPinErrorCode, message: string) {
    super(code, message);
  }
}

/** What the file holds: the hash and its parameters, and the wrong PINs in a row so far. */
interface PinFile {
  readonly version: 1;
  readonly scheme: 'scrypt';
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: string;
  readonly hash: string;
  readonly failures: number;
  readonly locked_until: string | null;
}

/** The answer to a PIN typed. */
export type PinCheck =
  | { readonly ok: true; readonly training: boolean }
  | { readonly ok: false; readonly reason: 'NOT_SET' }
  | { readonly ok: false; readonly reason: 'WRONG'; readonly attemptsLeft: number }
  | { readonly ok: false; readonly reason: 'LOCKED'; readonly retryAfterMs: number };

export interface SupervisorPinOptions {
  /** Training mode: TRAINING_SUPERVISOR_PIN is taken too. */
  readonly training?: boolean;
  readonly now?: () => number;
  readonly maxFailures?: number;
  readonly lockMs?: number;
}

function hashOf(pin: string, salt: Buffer, cost: { N: number; r: number; p: number }): Buffer {
  return scryptSync(pin, salt, KEY_LENGTH, { ...cost, maxmem: 64 * 1024 * 1024 });
}

/** Constant-time equality of two short texts (their digests have one length whatever theirs). */
function sameText(a: string, b: string): boolean {
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(a), digest(b));
}

function isPinFile(value: unknown): value is PinFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Record<string, unknown>;
  return (
    file.version === 1 &&
    file.scheme === 'scrypt' &&
    [file.N, file.r, file.p, file.failures].every((n) => Number.isInteger(n)) &&
    typeof file.salt === 'string' &&
    typeof file.hash === 'string' &&
    (file.locked_until === null || typeof file.locked_until === 'string')
  );
}

/** The supervisor PIN's hash file and the lock on wrong guesses. */
export class SupervisorPin {
  readonly #path: string;
  readonly #training: boolean;
  readonly #now: () => number;
  readonly #maxFailures: number;
  readonly #lockMs: number;
  /** Training without a stored PIN keeps its count here (there is no file to keep it in). */
  #trainingFailures = 0;
  #trainingLockedUntil: number | null = null;

  constructor(path: string, options: SupervisorPinOptions = {}) {
    this.#path = path;
    this.#training = options.training === true;
    this.#now = options.now ?? Date.now;
    this.#maxFailures = options.maxFailures ?? MAX_FAILURES;
    this.#lockMs = options.lockMs ?? LOCK_MS;
  }

  /** Whether a PIN can be checked: one is stored (training: always, it takes its own). */
  isSet(): boolean {
    return this.#training || this.#read() !== undefined;
  }

  /** Whether a PIN is stored in the file (training's own PIN does not count). */
  isStored(): boolean {
    return this.#read() !== undefined;
  }

  /** When the lock ends (ISO time), or null when it is not locked. */
  lockedUntil(): string | null {
    const until = this.#lockEnd();
    return until === null ? null : new Date(until).toISOString();
  }

  /** The lock in force: when it ends and how long that is from now; null when not locked. */
  lock(): { until: string; retryAfterMs: number } | null {
    const until = this.#lockEnd();
    return until === null ? null : { until: new Date(until).toISOString(), retryAfterMs: until - this.#now() };
  }

  /** Keeps a new PIN (its hash); the wrong guesses so far stop counting. */
  set(pin: string): void {
    if (!SUPERVISOR_PIN_PATTERN.test(pin))
      throw new SupervisorPinError('INVALID_PIN', 'The supervisor PIN must be 4 to 8 digits.');
    const salt = randomBytes(SALT_LENGTH);
    this.#write({
      version: 1,
      scheme: 'scrypt',
      ...SCRYPT,
      salt: salt.toString('base64'),
      hash: hashOf(pin, salt, SCRYPT).toString('base64'),
      failures: 0,
      locked_until: null,
    });
    this.#trainingFailures = 0;
    this.#trainingLockedUntil = null;
  }

  /** Checks a PIN typed; a wrong one counts towards the lock, a right one clears the count. */
  check(pin: string): PinCheck {
    const stored = this.#read();
    if (stored === undefined && !this.#training) return { ok: false, reason: 'NOT_SET' };
    const lockEnd = this.#lockEnd(stored);
    if (lockEnd !== null) return { ok: false, reason: 'LOCKED', retryAfterMs: lockEnd - this.#now() };
    // Hashed whatever its shape, so a malformed PIN takes as long as a wrong one.
    const storedOk = stored !== undefined && this.#matches(pin, stored);
    const trainingOk = this.#training && sameText(pin, TRAINING_SUPERVISOR_PIN);
    if (storedOk || trainingOk) {
      this.#recordFailures(stored, 0, null);
      return { ok: true, training: !storedOk };
    }
    const failures = (stored?.failures ?? this.#trainingFailures) + 1;
    if (failures >= this.#maxFailures) {
      this.#recordFailures(stored, 0, this.#now() + this.#lockMs);
      return { ok: false, reason: 'LOCKED', retryAfterMs: this.#lockMs };
    }
    this.#recordFailures(stored, failures, null);
    return { ok: false, reason: 'WRONG', attemptsLeft: this.#maxFailures - failures };
  }

  #matches(pin: string, stored: PinFile): boolean {
    const expected = Buffer.from(stored.hash, 'base64');
    const given = hashOf(pin, Buffer.from(stored.salt, 'base64'), stored);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The lock's end (ms), or null when there is none or it has passed. */
  #lockEnd(stored: PinFile | undefined = this.#read()): number | null {
    const until =
      stored === undefined
        ? this.#trainingLockedUntil
        : stored.locked_until === null
          ? null
          : Date.parse(stored.locked_until);
    return until !== null && Number.isFinite(until) && until > this.#now() ? until : null;
  }

  #recordFailures(stored: PinFile | undefined, failures: number, lockedUntil: number | null): void {
    if (stored === undefined) {
      this.#trainingFailures = failures;
      this.#trainingLockedUntil = lockedUntil;
      return;
    }
    const locked = lockedUntil === null ? null : new Date(lockedUntil).toISOString();
    if (stored.failures === failures && stored.locked_until === locked) return;
    this.#write({ ...stored, failures, locked_until: locked });
  }

  #read(): PinFile | undefined {
    let text: string;
    try {
      text = readFileSync(this.#path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new SupervisorPinError(
        'UNREADABLE',
        `The supervisor PIN file ${this.#path} cannot be read: ${(error as Error).message}`,
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!isPinFile(parsed)) {
      throw new SupervisorPinError(
        'UNREADABLE',
        `The supervisor PIN file ${this.#path} is damaged; set the PIN again in the window (Configurações).`,
      );
    }
    return parsed;
  }

  /** Atomically and privately: a crash mid-write leaves the old file, never half a new one. */
  #write(file: PinFile): void {
    mkdirSync(dirname(this.#path), { recursive: true, mode: 0o700 });
    const temporary = `${this.#path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(file)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.#path);
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
    lock: () => pin.lock(),
    check: (typed) => pin.check(typed),
    set: (typed) => pin.set(typed),
  };
}
