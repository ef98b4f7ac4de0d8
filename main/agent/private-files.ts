/**
 * The agent's folder is private to its user: the journal (with customers' CPFs for receipts), the
 * paired clients, the logs, the secrets. On Linux and macOS the agent creates everything with a
 * umask of 077 — files 0600, folders 0700, SQLite's WAL and shared-memory files included (SQLite
 * gives them the database file's mode) — and at start it repairs what an older version or another
 * tool left readable by others. On Windows the user's profile folder's ACL already keeps other
 * users out; nothing is changed there.
 */
import { CodedError } from '../../lib/errors.js';
import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export class PrivateFilesError extends CodedError<'NOT_PRIVATE'> {
  constructor(message: string, options?: { cause?: unknown }) {
    super('NOT_PRIVATE', message, options);
  }
}

/** From now on this process creates files only its user can read (umask 077); no-op on Windows. */
export function createPrivateFiles(platform: NodeJS.Platform = process.platform): void {
  if (platform === 'win32') return;
  process.umask(0o077);
}

/**
 * Takes every permission of other users away from `dir` and everything under it (0644 becomes
 * 0600, 0755 becomes 0700), returning the paths it had to change. Throws PrivateFilesError, with the command that fixes it, when one cannot be changed
 * (another user's file). Nothing happens when `dir` does not exist yet, or on Windows.
 */
export function makePrivate(dir: string, platform: NodeJS.Platform = process.platform): string[] {
  if (platform === 'win32' || !existsSync(dir)) return [];
  const repaired: string[] = [];
  const visit = (path: string): void => {
    // lstat: a link is not followed (its target, a serial port say, is not the agent's to change).
    const info = lstatSync(path);
    if (!info.isDirectory() && !info.isFile()) return;
    if ((info.mode & 0o077) !== 0) {
      try {
        // The owner keeps what it had (a folder stays enterable, a script executable); others lose all.
        chmodSync(path, info.mode & 0o700);
      } catch (error) {
        throw new PrivateFilesError(
          `${path} can be read by other users and cannot be made private (${(error as Error).message}); fix it with: chmod -R go-rwx '${dir}'`,
          {
            cause: error,
          },
        );
      }
      repaired.push(path);
    }
    if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return repaired;
}
