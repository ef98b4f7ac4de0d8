/**
 * Paces bytes like a real asynchronous serial line: at `baud` bits per second with 8N1 framing
 * each byte takes 10 bit times. Used by the in-memory link and by the simulator so tests and
 * benchmarks can see the timing a 19200-baud PINPAD cable imposes.
 */
const BITS_PER_BYTE = 10; // start bit + 8 data bits + stop bit
/** Bytes handed over at once; small enough to keep the timing smooth at 19200 baud (~8 ms). */
const SLICE = 16;

export class LinePacer {
  #busyUntil = 0;
  readonly #msPerByte: number;

  constructor(readonly baud: number) {
    if (!Number.isFinite(baud) || baud <= 0) throw new RangeError(`baud must be positive, got ${baud}`);
    this.#msPerByte = (BITS_PER_BYTE * 1000) / baud;
  }

  /** Time the line needs for `bytes` bytes, in milliseconds. */
  wireTimeMs(bytes: number): number {
    return bytes * this.#msPerByte;
  }

  /**
   * Delivers `data` in slices, each when its last byte would have left the wire; successive
   * calls queue behind each other as on a real line. Resolves after the last slice.
   */
  send(data: Uint8Array, deliver: (slice: Buffer) => void): Promise<void> {
    const buffer = Buffer.from(data);
    const start = Math.max(performance.now(), this.#busyUntil);
    this.#busyUntil = start + this.wireTimeMs(buffer.length);
    const deliveries: Promise<void>[] = [];
    for (let offset = 0; offset < buffer.length; offset += SLICE) {
      const slice = buffer.subarray(offset, Math.min(offset + SLICE, buffer.length));
      const due = start + this.wireTimeMs(offset + slice.length);
      deliveries.push(
        new Promise((resolve) => {
          setTimeout(
            () => {
              deliver(slice);
              resolve();
            },
            Math.max(0, due - performance.now()),
          );
        }),
      );
    }
    return Promise.all(deliveries).then(() => undefined);
  }

  /** Forget queued time (the line was dropped). */
  reset(): void {
    this.#busyUntil = 0;
  }
}
