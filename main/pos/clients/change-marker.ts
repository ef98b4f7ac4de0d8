/**
 * The clients file's change marker: 16 bytes in a file beside it (`clients.db-changes`) that every
 * ClientStore write moves, so that a store can tell with one read of the marker — no SQLite lock, which
 * costs two fcntl calls in WAL mode — that no store in any process wrote the clients since it last
 * looked. The POS server asks at every request whether its client was revoked (client-store.ts isActive).
 *
 * Two counts, each a little-endian double holding an integer: `begun` at offset 0, `ended` at 8.
 * - A writer, holding SQLite's write lock (inside its IMMEDIATE transaction, before it writes), sets
 *   begun to begun + 1: writers are serialized by that lock, so no two get the same count.
 * - After its commit (or rollback) it sets ended to its own count.
 * - A reader that finds begun = ended knows every write that began has ended; the same count as when it
 *   last read the clients: no write since. begun ≠ ended: a write is under way, or its writer died
 *   between the two (its commit may have happened): the reader asks SQLite instead (PRAGMA data_version)
 *   until a later write ends.
 *
 * A writer that does not go through a ClientStore (an older Pinbridge, the sqlite3 shell) does not move
 * the marker: the store also asks SQLite now and then (client-store.ts).
 *
 * Plain reads and writes at an offset, on every system Node runs on; a read that meets a write half done
 * sees a count that matches nothing, and the reader asks SQLite.
 */
import { closeSync, constants, openSync, readSync, writeSync } from 'node:fs';
import { isMemoryPath } from '../../storage/sqlite.js';

const BYTES = 16;
const ENDED_AT = 8;

/** Where the marker of the clients file at `databasePath` lives. */
export const changeMarkerPath = (databasePath: string): string => `${databasePath}-changes`;

export class ChangeMarker {
  readonly #fd: number;
  readonly #read = Buffer.alloc(BYTES);
  readonly #write = Buffer.alloc(8);

  private constructor(fd: number) {
    this.#fd = fd;
  }

  /**
   * The marker of the file at `databasePath`, created (empty: nothing begun, nothing ended) when missing;
   * undefined for a database in memory, or when it cannot be opened (a reader then always asks SQLite).
   */
  static open(databasePath: string): ChangeMarker | undefined {
    if (isMemoryPath(databasePath)) return undefined;
    try {
      // Not O_APPEND ('a+'): with it, a write at an offset goes to the end on Linux.
      return new ChangeMarker(openSync(changeMarkerPath(databasePath), constants.O_RDWR | constants.O_CREAT, 0o600));
    } catch {
      return undefined;
    }
  }

  /** The count of the last write when no write is under way (nor was cut off); else, or unreadable, undefined. */
  read(): number | undefined {
    const buffer = this.#read;
    let bytes: number;
    try {
      bytes = readSync(this.#fd, buffer, 0, BYTES, 0);
    } catch {
      return undefined;
    }
    // A fresh (empty) file counts nothing; bytes of an earlier read must not stand in for it.
    if (bytes < BYTES) buffer.fill(0, bytes);
    const begun = buffer.readDoubleLE(0);
    return begun === buffer.readDoubleLE(ENDED_AT) ? begun : undefined;
  }

  /**
   * A write begins: call holding SQLite's write lock, before anything is written. Its count, for `end`;
   * undefined when the marker could not be moved (readers then see the write when they next ask SQLite).
   */
  begin(): number | undefined {
    try {
      const bytes = readSync(this.#fd, this.#read, 0, BYTES, 0);
      const begun = (bytes >= 8 ? this.#read.readDoubleLE(0) : 0) + 1;
      if (!Number.isSafeInteger(begun)) return undefined;
      this.#put(0, begun);
      return begun;
    } catch {
      return undefined;
    }
  }

  /** The write counted `begun` committed or rolled back. A failure leaves begun ≠ ended: readers ask SQLite. */
  end(begun: number): void {
    try {
      this.#put(ENDED_AT, begun);
    } catch {
      // Readers keep asking SQLite until a later write ends: slower, never wrong.
    }
  }

  close(): void {
    try {
      closeSync(this.#fd);
    } catch {
      // Already closed.
    }
  }

  #put(offset: number, count: number): void {
    this.#write.writeDoubleLE(count, 0);
    writeSync(this.#fd, this.#write, 0, 8, offset);
  }
}
