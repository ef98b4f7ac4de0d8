/**
 * The batches waiting to be pushed: one file each in a folder of their own, so what a restart
 * finds is what was not sent yet — and bounded, in count and in bytes, the oldest dropped first
 * when a new batch would pass either bound (a checkout offline for days keeps its latest hours,
 * and never fills the disk the payment journal needs).
 *
 * Plain files rather than a SQLite store (main/storage): a batch is an opaque blob written once,
 * read once and deleted — no query, no transaction, no schema — and a file per batch makes
 * "drop the oldest" one unlink. Each file is written beside its name and renamed into it, so a
 * crash leaves a whole batch or none (leftover temporaries are removed at open).
 *
 * Every write can fail (a full or read-only disk): the batch is then kept in memory under the same
 * bounds, said once in the log, and the queue keeps working; nothing here throws to its caller.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { messageOf } from '../../lib/errors.js';

/** Why a batch was dropped unsent (the `reason` of `pinbridge_telemetry_dropped_total`). */
export type DropReason =
  /** The queue was full: the oldest batch made room for a new one. */
  | 'queue_full'
  /** The receiver refused it as bad (HTTP 4xx other than 429): sending it again cannot help. */
  | 'rejected'
  /** Its file could no longer be read. */
  | 'unreadable';

export interface QueueLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
}

export interface BatchQueueOptions {
  /** The folder of the batch files (made when missing). */
  readonly dir: string;
  readonly maxBatches: number;
  readonly maxBytes: number;
  readonly logger: QueueLogger;
  /** Told of each batch dropped unsent. */
  readonly onDrop?: ((reason: DropReason) => void) | undefined;
}

export interface Batch {
  /** Its place in the queue: older batches have smaller numbers. */
  readonly seq: number;
  readonly body: Uint8Array;
}

interface Entry {
  readonly seq: number;
  readonly bytes: number;
  /** The batch's file, or undefined when it is kept in memory (the disk refused it). */
  readonly file: string | undefined;
  readonly body: Uint8Array | undefined;
}

const SUFFIX = '.batch';
/** Sixteen digits: names sort as their numbers do. */
const nameOf = (seq: number): string => `${String(seq).padStart(16, '0')}${SUFFIX}`;

export class BatchQueue {
  readonly #options: BatchQueueOptions;
  /** Oldest first. */
  readonly #entries: Entry[] = [];
  readonly #dropped = new Map<DropReason, number>();
  #bytes = 0;
  #next = 1;
  /** The disk refused a write and the log said so; cleared (and said) once a write succeeds again. */
  #degraded = false;

  constructor(options: BatchQueueOptions) {
    this.#options = options;
    this.#load();
  }

  /** How many batches wait. */
  get batches(): number {
    return this.#entries.length;
  }

  /** Their bytes, together. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Whether the disk refuses the queue's writes now (batches are then kept in memory). */
  get degraded(): boolean {
    return this.#degraded;
  }

  /** Batches dropped unsent since the queue opened, by reason. */
  dropped(reason: DropReason): number {
    return this.#dropped.get(reason) ?? 0;
  }

  /** Adds a batch at the end, dropping the oldest while either bound is passed. A batch alone over `maxBytes` is dropped. */
  push(body: Uint8Array): void {
    const seq = this.#next++;
    let file: string | undefined;
    try {
      mkdirSync(this.#options.dir, { recursive: true });
      const path = join(this.#options.dir, nameOf(seq));
      const temporary = `${path}.tmp`;
      try {
        writeFileSync(temporary, body, { mode: 0o600 });
        renameSync(temporary, path);
      } catch (error) {
        rmSync(temporary, { force: true });
        throw error;
      }
      file = path;
      if (this.#degraded) {
        this.#degraded = false;
        this.#options.logger.info({ dir: this.#options.dir }, 'the telemetry queue writes to its folder again');
      }
    } catch (error) {
      if (!this.#degraded) {
        this.#degraded = true;
        this.#options.logger.warn(
          { dir: this.#options.dir, err: messageOf(error) },
          'the telemetry queue cannot write to its folder: batches are kept in memory until it can (lost if the agent stops)',
        );
      }
    }
    this.#entries.push({ seq, bytes: body.byteLength, file, body: file === undefined ? body : undefined });
    this.#bytes += body.byteLength;
    this.#enforceBounds();
  }

  /** The oldest batch, or undefined when none waits; a file that cannot be read is dropped on the way. */
  peek(): Batch | undefined {
    for (;;) {
      const entry = this.#entries[0];
      if (entry === undefined) return undefined;
      if (entry.body !== undefined) return { seq: entry.seq, body: entry.body };
      try {
        return { seq: entry.seq, body: readFileSync(entry.file!) };
      } catch (error) {
        this.#options.logger.warn(
          { file: entry.file, err: messageOf(error) },
          'a telemetry batch cannot be read: dropped',
        );
        this.#drop(entry, 'unreadable');
      }
    }
  }

  /** Takes batch `seq` out: sent. */
  remove(seq: number): void {
    const entry = this.#entries.find((candidate) => candidate.seq === seq);
    if (entry !== undefined) this.#forget(entry);
  }

  /** Takes batch `seq` out unsent, counted as dropped for `reason`. */
  drop(seq: number, reason: DropReason): void {
    const entry = this.#entries.find((candidate) => candidate.seq === seq);
    if (entry !== undefined) this.#drop(entry, reason);
  }

  /** Drops the oldest batches while either bound is passed. */
  #enforceBounds(): void {
    const { maxBatches, maxBytes } = this.#options;
    while (this.#entries.length > 0 && (this.#entries.length > maxBatches || this.#bytes > maxBytes)) {
      this.#drop(this.#entries[0]!, 'queue_full');
    }
  }

  #drop(entry: Entry, reason: DropReason): void {
    this.#forget(entry);
    this.#dropped.set(reason, this.dropped(reason) + 1);
    this.#options.onDrop?.(reason);
  }

  #forget(entry: Entry): void {
    const index = this.#entries.indexOf(entry);
    if (index >= 0) this.#entries.splice(index, 1);
    this.#bytes -= entry.bytes;
    if (entry.file !== undefined) {
      try {
        rmSync(entry.file, { force: true });
      } catch {
        // A read-only folder keeps the file: a restart sends it again, which a receiver takes
        // as a sample it already has (same series, same timestamp): nothing is counted twice.
      }
    }
  }

  /** The batches a previous run left, oldest first (the bounds apply to them too). */
  #load(): void {
    let names: string[];
    try {
      names = readdirSync(this.#options.dir);
    } catch {
      return; // No folder yet (made at the first push), or one that cannot be read: an empty queue.
    }
    for (const name of names.toSorted()) {
      const path = join(this.#options.dir, name);
      if (name.endsWith(`${SUFFIX}.tmp`)) {
        // Half a batch a crash left: never sent. (A read-only folder keeps it; it is skipped again.)
        try {
          rmSync(path, { force: true });
        } catch {
          // Left as it is.
        }
        continue;
      }
      const match = /^(\d{16})\.batch$/.exec(name);
      if (match === null) continue;
      let bytes: number;
      try {
        bytes = statSync(path).size;
      } catch {
        continue;
      }
      const seq = Number(match[1]);
      this.#entries.push({ seq, bytes, file: path, body: undefined });
      this.#bytes += bytes;
      this.#next = Math.max(this.#next, seq + 1);
    }
    this.#enforceBounds();
  }
}
