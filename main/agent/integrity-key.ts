/**
 * The key that seals the agent's payment-relevant files (main/integrity.ts): 32 random bytes made
 * at first use and kept across starts.
 *
 * - The desktop app keeps it encrypted by the OS (Electron safeStorage: Keychain, DPAPI, the Linux
 *   keyring) in `~/.pinbridge/integrity-key.enc`, as it keeps the API token (token-store.ts).
 *   Where the OS offers no real key (no keyring, or Chromium's public `basic_text` fallback) it
 *   uses the headless key file instead, and says so.
 * - Headless, a key file only its user may read (`~/.pinbridge/integrity.key`, 0600).
 *
 * Never an exit: a key that cannot be kept (a full or read-only disk) is made in memory for this
 * start, and what the agent seals with it is refused at the next start — the tables are fetched
 * again, the supervisor PIN is set again — which is said when it happens.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { INTEGRITY_KEY_BYTES, IntegrityKey } from '../integrity.js';
import type { SafeStorageLike } from './token-store.js';

/** Told when the key is not what it should be (made in memory, replaced, a weaker store): for the log. */
export type KeyProblem = (message: string) => void;

const KEY_TEXT = /^[A-Za-z0-9_-]{43}$/;

function keyOf(text: string): Buffer | undefined {
  const trimmed = text.trim();
  return KEY_TEXT.test(trimmed) ? Buffer.from(trimmed, 'base64url') : undefined;
}

/** Whole or not at all, readable by its user only. */
function writePrivate(path: string, data: string | Buffer, exclusive: boolean): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  if (exclusive) {
    // Two agents starting at once must not each make a key: the second one reads the first's.
    writeFileSync(path, data, { mode: 0o600, flag: 'wx' });
    return;
  }
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, data, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}

function readOptional(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A key for this start only: what it seals is refused at the next one. */
function memoryKey(problem: KeyProblem, why: string): IntegrityKey {
  problem(
    `${why}; sealing with a key kept in memory for this start only: at the next start the EMV tables are fetched again and the supervisor PIN must be set again`,
  );
  return new IntegrityKey(randomBytes(INTEGRITY_KEY_BYTES), { source: 'memory' });
}

/** Headless: the key in `path`, made (0600) at first use. */
export function fileIntegrityKey(path: string, problem: KeyProblem = () => {}): IntegrityKey {
  for (let attempt = 0; attempt < 2; attempt++) {
    let stored: Buffer | undefined;
    try {
      stored = readOptional(path);
    } catch (error) {
      return memoryKey(problem, `the integrity key file ${path} cannot be read (${reason(error)})`);
    }
    if (stored !== undefined) {
      const key = keyOf(stored.toString('utf8'));
      if (key !== undefined) {
        // Someone loosened the file's mode: take it back (on systems with Unix modes).
        if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
        return new IntegrityKey(key, { source: 'file' });
      }
      // A damaged key cannot check anything sealed with it: a new one, and every sealed file is refused.
      const replacement = randomBytes(INTEGRITY_KEY_BYTES);
      try {
        writePrivate(path, `${replacement.toString('base64url')}\n`, false);
      } catch (error) {
        return memoryKey(
          problem,
          `the integrity key file ${path} is damaged and cannot be replaced (${reason(error)})`,
        );
      }
      problem(`the integrity key file ${path} was damaged and is replaced: files sealed with the old key are refused`);
      return new IntegrityKey(replacement, { source: 'file' });
    }
    const made = randomBytes(INTEGRITY_KEY_BYTES);
    try {
      writePrivate(path, `${made.toString('base64url')}\n`, true);
      return new IntegrityKey(made, { source: 'file', fresh: true });
    } catch (error) {
      // Another agent made it between the read and the write: read theirs.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
      return memoryKey(problem, `the integrity key file ${path} cannot be written (${reason(error)})`);
    }
  }
  return memoryKey(problem, `the integrity key file ${path} keeps changing`);
}

/** Whether safeStorage has a real OS key (not the Linux desktop's public `basic_text` fallback). */
function osKeyAvailable(safeStorage: SafeStorageLike): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  try {
    return safeStorage.getSelectedStorageBackend?.() !== 'basic_text';
  } catch {
    return true;
  }
}

/**
 * The desktop app: the key encrypted by safeStorage in `sealedPath`, made at first use; the
 * headless key file (`fallback`) where the OS offers no real key.
 */
export function osIntegrityKey(
  safeStorage: SafeStorageLike,
  sealedPath: string,
  fallback: () => IntegrityKey,
  problem: KeyProblem = () => {},
): IntegrityKey {
  if (!osKeyAvailable(safeStorage)) {
    problem(
      'this system offers no key to encrypt the integrity key (on Linux: no unlocked keyring); using the private key file instead',
    );
    return fallback();
  }
  let sealed: Buffer | undefined;
  try {
    sealed = readOptional(sealedPath);
  } catch (error) {
    return memoryKey(problem, `the integrity key file ${sealedPath} cannot be read (${reason(error)})`);
  }
  let fresh = true;
  if (sealed !== undefined) {
    try {
      const key = keyOf(safeStorage.decryptString(sealed));
      if (key !== undefined) return new IntegrityKey(key, { source: 'os' });
    } catch {
      // Said below: a key the OS no longer opens (another user profile, a reset keychain).
    }
    problem(
      `the integrity key in ${sealedPath} cannot be opened with this system's key and is replaced: files sealed with the old key are refused`,
    );
    fresh = false;
  }
  const made = randomBytes(INTEGRITY_KEY_BYTES);
  try {
    writePrivate(sealedPath, safeStorage.encryptString(made.toString('base64url')), false);
  } catch (error) {
    return memoryKey(problem, `the integrity key cannot be kept in ${sealedPath} (${reason(error)})`);
  }
  return new IntegrityKey(made, { source: 'os', fresh });
}
