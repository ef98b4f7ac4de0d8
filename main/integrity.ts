/**
 * Seals for the payment-relevant files the agent keeps on disk (the EMV tables cache, the
 * supervisor PIN and its lock): an HMAC-SHA256 under a 32-byte key the agent alone holds (the
 * desktop app's is encrypted by the OS, safeStorage; headless, a private key file — see
 * main/agent/integrity-key.ts and docs/security.md for what that does and does not stop).
 *
 * A seal names its purpose ("emv-tables:<serial>", "supervisor-pin"), so a seal taken from one
 * file does not fit another. Callers seal a canonical text of what they keep (canonicalJson of
 * main/contract), so the same value gives the same seal whatever its key order on disk.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where the key comes from: the OS's secret store (desktop app), a private file (headless), or memory only. */
export type IntegrityKeySource = 'os' | 'file' | 'memory';

export const INTEGRITY_KEY_BYTES = 32;

export interface IntegrityKeyOptions {
  readonly source: IntegrityKeySource;
  /**
   * The key was made during this start (there was none before): files written by a Pinbridge from
   * before seals existed may be taken once, and sealed (see SupervisorPin).
   */
  readonly fresh?: boolean;
}

export class IntegrityKey {
  readonly source: IntegrityKeySource;
  readonly fresh: boolean;
  readonly #key: Buffer;

  constructor(key: Buffer, options: IntegrityKeyOptions) {
    if (key.length !== INTEGRITY_KEY_BYTES) throw new RangeError(`an integrity key is ${INTEGRITY_KEY_BYTES} bytes`);
    this.#key = Buffer.from(key);
    this.source = options.source;
    this.fresh = options.fresh === true;
  }

  /** The seal of `text` for `purpose` (base64url). */
  seal(purpose: string, text: string): string {
    return createHmac('sha256', this.#key).update(purpose).update('\0').update(text).digest('base64url');
  }

  /** Whether `seal` is this key's seal of `text` for `purpose` (constant time; anything else is false). */
  verify(purpose: string, text: string, seal: unknown): boolean {
    if (typeof seal !== 'string') return false;
    const expected = Buffer.from(this.seal(purpose, text), 'base64url');
    const given = Buffer.from(seal, 'base64url');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
