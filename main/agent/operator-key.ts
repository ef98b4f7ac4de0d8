/**
 * The key that opens Pinbridge's window on the POS API (session.operator): 32 random bytes,
 * made once and kept in ~/.pinbridge/operator.key, readable by this user only. Whoever can read
 * that file is the operator of this machine's Pinbridge; a web page never can. Kept across
 * restarts so a bookmarked window address keeps working.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The key in `path`, made first when missing or malformed; the file is (made) private to its user.
 * A new key that cannot be saved (a full or read-only disk) is used for this run all the same —
 * the window opens, its address changes at the next start — and `onUnsaved` is told (issue 33).
 */
export function loadOperatorKey(path: string, onUnsaved: (error: Error) => void = () => undefined): string {
  try {
    const key = readFileSync(path, 'utf8').trim();
    if (KEY_SHAPE.test(key)) {
      // Someone loosened the file's mode: take it back (on systems with Unix modes).
      if (process.platform !== 'win32' && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
      return key;
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32).toString('base64url');
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileSync(path, `${key}\n`, { mode: 0o600 });
    chmodSync(path, 0o600);
  } catch (error) {
    // Half a key is no key: the next start makes a new one.
    rmSync(path, { force: true });
    onUnsaved(error instanceof Error ? error : new Error(String(error)));
  }
  return key;
}
