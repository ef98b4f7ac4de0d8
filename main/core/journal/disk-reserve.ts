/**
 * Room on the journal's disk. A full disk must never stop a payment half-way: once a card is
 * charged, the steps after the authorization (approved, completing, the confirmation) have to be
 * written. So the journal keeps a reserve — a plain file of zeros beside it, `<journal>.reserve` —
 * and gives it back to the file system the moment SQLite reports the disk full, then writes
 * again: the payments in flight finish on the freed space. A new sale is refused (DISK_FULL)
 * before anything happens while the reserve cannot be held again or the disk is nearly full.
 */
import { existsSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The reserve's size: hundreds of payment steps, a checkpoint of the write-ahead log included. */
export const DEFAULT_RESERVE_BYTES = 8 * 1024 * 1024;
/** Below this much free space (beyond the reserve) no new sale starts. */
export const DEFAULT_MIN_FREE_BYTES = 32 * 1024 * 1024;

/** What `DiskReserve.room` reports, for the sale check and for diagnostics. */
export interface DiskRoom {
  /** Bytes an unprivileged writer may still use on the journal's file system. */
  readonly freeBytes: number;
  /** Whether the reserve file is in place (always true when reserving is off). */
  readonly reserveHeld: boolean;
  /**
   * The reserve's size, held or given back (0: the journal keeps none): free space below it means
   * a reserve given back cannot be put in place again (the fleet's "disk below the reserve" alert).
   */
  readonly reserveBytes: number;
  /** Enough room for a new sale: the reserve held and at least `minFreeBytes` free besides. */
  readonly enough: boolean;
}

export class DiskReserve {
  readonly path: string;
  readonly #bytes: number;
  readonly #minFreeBytes: number;

  constructor(journalPath: string, options: { readonly reserveBytes: number; readonly minFreeBytes: number }) {
    this.path = `${journalPath}.reserve`;
    this.#bytes = Math.max(0, Math.floor(options.reserveBytes));
    this.#minFreeBytes = Math.max(0, Math.floor(options.minFreeBytes));
  }

  get held(): boolean {
    if (this.#bytes === 0) return true;
    try {
      return statSync(this.path).size >= this.#bytes;
    } catch {
      return false;
    }
  }

  /**
   * Puts the reserve in place when it is missing (at open, and before each sale once the disk has
   * room again). A partial file — the disk filled while writing it — is removed, never kept.
   */
  ensure(): boolean {
    if (this.held) return true;
    // Only out of space beyond the minimum: taking the last bytes for the reserve would be the
    // very failure it exists to prevent.
    if (this.#free() < this.#bytes + this.#minFreeBytes) return false;
    try {
      writeFileSync(this.path, Buffer.alloc(this.#bytes), { mode: 0o600 });
      return true;
    } catch {
      rmSync(this.path, { force: true });
      return false;
    }
  }

  /** Gives the reserve back to the file system; true when there was one to give. */
  release(): boolean {
    if (this.#bytes === 0 || !existsSync(this.path)) return false;
    rmSync(this.path, { force: true });
    return true;
  }

  room(): DiskRoom {
    const reserveHeld = this.ensure();
    const freeBytes = this.#free();
    return {
      freeBytes,
      reserveHeld,
      reserveBytes: this.#bytes,
      enough: reserveHeld && freeBytes >= this.#minFreeBytes,
    };
  }

  #free(): number {
    try {
      const fs = statfsSync(dirname(this.path));
      return fs.bavail * fs.bsize;
    } catch {
      // A file system that cannot say (some network shares): the write itself will tell.
      return Number.MAX_SAFE_INTEGER;
    }
  }
}
