/**
 * The simulated PINPAD's media memory (S220 §6.6): the files MLE stored (non-volatile on a real
 * PINPAD: they outlive CLO and OPN) and the load in progress. MLI starts a load in a temporary
 * area, dropping any unfinished one (§6.6.1); MLR appends to it (§6.6.2); MLE checks the bytes
 * against SPE_MFINFO's size and CRC and stores the file, or refuses it with ST_MFERR — the
 * temporary area is freed either way (§6.6.3). The memory has a capacity: the temporary area and
 * the stored files share it, and what does not fit is ST_INTERR ("falta de memória").
 */
import { ST } from './wire/statuses.js';
import { crc16 } from './wire/crc.js';
import type { MediaFormat, MliRequest } from './wire/commands/media.js';

export interface StoredMedia {
  readonly name: string;
  /** SPE_MFINFO B1 as the host sent it. */
  readonly typeCode: number;
  readonly format: MediaFormat | undefined;
  readonly bytes: Buffer;
}

interface PendingLoad {
  readonly info: MliRequest;
  readonly chunks: Buffer[];
  received: number;
}

/** What a store operation answers: ST_OK or the status the command returns. */
export type MediaStatus = typeof ST.OK | typeof ST.INVCALL | typeof ST.INTERR | typeof ST.MFERR;

export class MediaStore {
  readonly #files = new Map<string, StoredMedia>();
  #pending: PendingLoad | undefined;

  constructor(readonly capacity: number) {}

  /** Bytes held: stored files and the load in progress. */
  get used(): number {
    let used = this.#pending?.received ?? 0;
    for (const file of this.#files.values()) used += file.bytes.length;
    return used;
  }

  get loading(): boolean {
    return this.#pending !== undefined;
  }

  /** MLI: a new load replaces any unfinished one. */
  begin(info: MliRequest): void {
    this.#pending = { info, chunks: [], received: 0 };
  }

  /** MLR: ST_INVCALL without a load, ST_INTERR when the bytes do not fit (nothing is kept then). */
  append(data: readonly Buffer[]): MediaStatus {
    const pending = this.#pending;
    if (!pending) return ST.INVCALL;
    const size = data.reduce((sum, chunk) => sum + chunk.length, 0);
    if (this.used + size > this.capacity) return ST.INTERR;
    pending.chunks.push(...data.map((chunk) => Buffer.from(chunk)));
    pending.received += size;
    return ST.OK;
  }

  /** MLE: checks size and CRC, stores (replacing a file of the same name); the load ends either way. */
  finish(): MediaStatus {
    const pending = this.#pending;
    if (!pending) return ST.INVCALL;
    this.#pending = undefined;
    const bytes = Buffer.concat(pending.chunks);
    if (bytes.length !== pending.info.size || crc16(bytes) !== pending.info.crc) return ST.MFERR;
    const others = this.used - (this.#files.get(pending.info.name)?.bytes.length ?? 0);
    if (others + bytes.length > this.capacity) return ST.INTERR;
    this.#files.set(pending.info.name, {
      name: pending.info.name,
      typeCode: pending.info.typeCode,
      format: pending.info.format,
      bytes,
    });
    return ST.OK;
  }

  names(): string[] {
    return [...this.#files.keys()];
  }

  get(name: string): StoredMedia | undefined {
    return this.#files.get(name.toUpperCase());
  }

  /** DMF: names not held are no error. */
  delete(names: readonly string[]): void {
    for (const name of names) this.#files.delete(name.toUpperCase());
  }
}
