/**
 * The agent's own PINPAD traces (`~/.pinbridge/traces/`), for the support bundle to carry the
 * last one without anyone having run `pinbridge pinpad trace`: the running agent records every
 * ABECS exchange with its PINPAD through the driver's RecordingTransport — each packet masked as
 * it is seen (drivers/abecs/trace/mask.ts), the raw bytes never kept — one file per connection of
 * the PINPAD, in the trace format `pinbridge simulator --replay` reads.
 *
 * Bounded and cheap: a file keeps the newest events only (TRACE_LIMIT; the header counts the
 * dropped ones), the folder the newest TRACE_FILES_KEPT files, and a file is written at most once
 * every TRACE_WRITE_DELAY_MS while packets flow (whole, to a temporary file renamed over it, so a
 * reader never sees half a trace), off the PINPAD's path: the packet goes on at once, the write
 * comes later on a timer. Attempts that never reach the PINPAD (it does not answer, again and
 * again) share one file, so a run of failed attempts does not push the last good session out.
 *
 * Every write may fail (a full disk, a read-only one): the trace stays in memory, the failure is
 * told once (`problem`) and the next write tries again; nothing of it reaches the PINPAD or a
 * payment.
 */
import { statSync, readdirSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { PinpadInfo } from '../../drivers/abecs/pinpad.js';
import { serializeTrace, type TracePinpad } from '../../drivers/abecs/trace/format.js';
import { RecordingTransport, TraceRecorder, type TraceLimit } from '../../drivers/abecs/trace/recorder.js';
import type { ByteTransport } from '../../drivers/transports/transport.js';

/** How many trace files the folder keeps (the newest). */
export const TRACE_FILES_KEPT = 5;
/** What one file keeps at most: a day of sales at a checkout is a few hundred KB. */
export const TRACE_LIMIT: TraceLimit = { events: 5_000, bytes: 512 * 1024 };
/** The longest a recorded packet waits before it is on disk. */
export const TRACE_WRITE_DELAY_MS = 2_000;
export const TRACE_SUFFIX = '.trace.jsonl';

export interface TraceFolderOptions {
  readonly keep?: number;
  readonly limit?: TraceLimit;
  readonly writeDelayMs?: number;
  /**
   * A write failed (the error), or writes work again after failing (null). Told once per failure
   * code in a row, not at every write.
   */
  readonly problem?: (error: NodeJS.ErrnoException | null) => void;
  /** False while the disk is short for the payment journal: nothing is written, the trace waits in memory. */
  readonly writable?: () => boolean;
  readonly now?: () => Date;
}

/** What a trace's header says of the PINPAD: its identification, no card data. */
export function tracePinpadOf(info: PinpadInfo): TracePinpad {
  return {
    manufacturer: info.manufacturer,
    model: info.model,
    serial_number: info.serialNumber,
    firmware: info.firmware,
    spec_version: info.specVersion,
    protocol: info.protocol,
  };
}

function fileName(started: Date): string {
  return `pinpad-${started.toISOString().replace(/[:.]/g, '-')}${TRACE_SUFFIX}`;
}

export class TraceFolder {
  readonly dir: string;
  readonly #keep: number;
  readonly #limit: TraceLimit;
  readonly #delayMs: number;
  readonly #problem: (error: NodeJS.ErrnoException | null) => void;
  readonly #writable: () => boolean;
  readonly #now: () => Date;
  readonly #open = new Set<TraceSession>();
  /** The file of the last session that never reached the PINPAD: the next one writes over it. */
  #reusable: string | undefined;
  /** The code of the failure told last; undefined while writes work. */
  #failing: string | undefined;

  constructor(dir: string, options: TraceFolderOptions = {}) {
    this.dir = dir;
    this.#keep = Math.max(1, options.keep ?? TRACE_FILES_KEPT);
    this.#limit = options.limit ?? TRACE_LIMIT;
    this.#delayMs = options.writeDelayMs ?? TRACE_WRITE_DELAY_MS;
    this.#problem = options.problem ?? (() => {});
    this.#writable = options.writable ?? (() => true);
    this.#now = options.now ?? (() => new Date());
  }

  /** A recording of one connection to the PINPAD at `address`. */
  open(address: string): TraceSession {
    const path = this.#reusable ?? join(this.dir, fileName(this.#now()));
    this.#reusable = undefined;
    const session = new TraceSession(this, address, path, this.#limit, this.#delayMs);
    this.#open.add(session);
    return session;
  }

  /**
   * The connection recorded last that is still open, as its file would hold it — from memory, so a
   * support bundle has it even when the disk took none of it; undefined when none is open.
   */
  current(): { readonly name: string; readonly text: string } | undefined {
    const open = [...this.#open].filter((session) => session.recorder.eventCount > 0);
    const last = open.at(-1);
    return last === undefined ? undefined : { name: basename(last.path), text: serializeTrace(last.recorder.trace()) };
  }

  /** Writes what the open sessions recorded so far (the support bundle asks before it reads the folder). */
  async flush(): Promise<void> {
    await Promise.all([...this.#open].map((session) => session.write()));
  }

  /** @internal A session ended; one that never reached the PINPAD leaves its file to the next. */
  ended(session: TraceSession, reachedPinpad: boolean): void {
    this.#open.delete(session);
    if (!reachedPinpad) this.#reusable = session.path;
  }

  /** @internal Whether a write may go now. */
  get writable(): boolean {
    return this.#writable();
  }

  /** @internal The outcome of a write: told once per failure in a row, and once when they work again. */
  wrote(error: NodeJS.ErrnoException | undefined): void {
    if (error === undefined) {
      if (this.#failing !== undefined) {
        this.#failing = undefined;
        this.#problem(null);
      }
      return;
    }
    const code = error.code ?? 'EIO';
    if (this.#failing === code) return;
    this.#failing = code;
    this.#problem(error);
  }

  /** @internal Keeps the newest files; an older one that cannot be removed is left (tried at the next file). */
  async prune(): Promise<void> {
    const names = (await readdir(this.dir)).filter((name) => name.endsWith(TRACE_SUFFIX)).sort();
    const current = new Set([...this.#open].map((session) => session.path));
    const old = names.slice(0, Math.max(0, names.length - this.#keep));
    await Promise.all(
      old.filter((name) => !current.has(join(this.dir, name))).map((name) => rm(join(this.dir, name), { force: true })),
    );
  }
}

export class TraceSession {
  readonly path: string;
  readonly recorder: TraceRecorder;
  readonly #folder: TraceFolder;
  readonly #delayMs: number;
  #timer: NodeJS.Timeout | undefined;
  /** Events recorded since the last write that worked. */
  #dirty = false;
  #writing: Promise<void> | undefined;
  #created = false;
  #reachedPinpad = false;
  #closed = false;

  constructor(folder: TraceFolder, address: string, path: string, limit: TraceLimit, delayMs: number) {
    this.#folder = folder;
    this.path = path;
    this.#delayMs = delayMs;
    this.recorder = new TraceRecorder(address, { limit, onEvent: () => this.#recorded() });
  }

  /** The transport the PINPAD is opened on: every byte passes unchanged, each packet is recorded masked. */
  wrap(transport: ByteTransport): ByteTransport {
    return new RecordingTransport(transport, this.recorder);
  }

  /** The PINPAD answered its identification: in the header, and this session's file is kept. */
  identified(pinpad: TracePinpad): void {
    this.recorder.pinpad = pinpad;
    this.#reachedPinpad = true;
    this.#dirty = true;
    this.#schedule();
  }

  /** The connection ended: what is left is written, and the file is the folder's. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.write();
    this.#folder.ended(this, this.#reachedPinpad);
  }

  /** Writes the trace now, unless nothing changed since the last write; never throws. */
  async write(): Promise<void> {
    // One write at a time: a write asked during one follows it.
    while (this.#writing !== undefined) await this.#writing;
    if (!this.#dirty || this.recorder.eventCount === 0 || !this.#folder.writable) return;
    this.#dirty = false;
    this.#writing = this.#writeFile().finally(() => {
      this.#writing = undefined;
    });
    await this.#writing;
  }

  async #writeFile(): Promise<void> {
    const text = serializeTrace(this.recorder.trace());
    const temporary = `${this.path}.tmp`;
    try {
      await mkdir(this.#folder.dir, { recursive: true, mode: 0o700 });
      await writeFile(temporary, text, { mode: 0o600 });
      await rename(temporary, this.path);
      this.#folder.wrote(undefined);
    } catch (error) {
      this.#dirty = true;
      await rm(temporary, { force: true }).catch(() => {});
      this.#folder.wrote(error as NodeJS.ErrnoException);
      return;
    }
    if (!this.#created) {
      this.#created = true;
      await this.#folder.prune().catch(() => {});
    }
  }

  #recorded(): void {
    this.#dirty = true;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      void this.write();
    }, this.#delayMs);
    this.#timer.unref();
  }
}

/** The most recently written trace of the folder, or undefined (none, or no folder). */
export function newestTrace(dir: string): string | undefined {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith(TRACE_SUFFIX))
      .map((name) => ({ path: join(dir, name), name, mtime: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime || b.name.localeCompare(a.name))[0]?.path;
  } catch {
    return undefined;
  }
}
