/**
 * Matches the bytes a printer sends back to the request that asked for them. ESC/POS answers carry no
 * framing or request id: the answer to DLE EOT n is simply the next byte. So bytes that arrive while
 * nobody asked (a late answer after a timeout, an ESC/POS sequence inside print data that the printer
 * took for DLE EOT) are dropped before each request, otherwise every later answer would be off by one.
 */
import type { PrinterError } from '../errors.js';

/** Unsolicited bytes kept at most; a chatty printer must not grow memory while nobody asks. */
const MAX_BUFFERED = 256;

interface PendingAnswer {
  readonly length: number;
  readonly resolve: (bytes: Uint8Array) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

export class AnswerReader {
  #buffered: number[] = [];
  #pending: PendingAnswer | undefined;
  readonly #keep: (byte: number) => boolean;

  /** @param keep returns false for bytes that are never part of an answer (e.g. XON/XOFF on serial). */
  constructor(keep: (byte: number) => boolean = () => true) {
    this.#keep = keep;
  }

  /** Bytes received from the printer, in arrival order. */
  feed(chunk: Uint8Array): void {
    for (const byte of chunk) {
      if (!this.#keep(byte)) continue;
      this.#buffered.push(byte);
    }
    if (this.#buffered.length > MAX_BUFFERED && !this.#pending)
      this.#buffered.splice(0, this.#buffered.length - MAX_BUFFERED);
    this.#settle();
  }

  /** Forgets bytes nobody asked for; called right before a request is sent. */
  discard(): void {
    this.#buffered = [];
  }

  /**
   * Resolves with the next `length` bytes, or rejects with `onTimeout()` after `timeoutMs`.
   * One answer at a time: the transport serialises its requests.
   */
  expect(length: number, timeoutMs: number, onTimeout: () => PrinterError): Promise<Uint8Array> {
    if (this.#pending) {
      return Promise.reject(new Error('AnswerReader.expect() called while another answer is awaited.'));
    }
    return new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending = undefined;
        reject(onTimeout());
      }, timeoutMs);
      this.#pending = { length, resolve, reject, timer };
      this.#settle();
    });
  }

  /** Rejects the awaited answer, if any (link lost, transport closed). */
  fail(error: Error): void {
    const pending = this.#pending;
    if (!pending) return;
    this.#pending = undefined;
    clearTimeout(pending.timer);
    pending.reject(error);
  }

  #settle(): void {
    const pending = this.#pending;
    if (!pending || this.#buffered.length < pending.length) return;
    this.#pending = undefined;
    clearTimeout(pending.timer);
    pending.resolve(Uint8Array.from(this.#buffered.splice(0, pending.length)));
  }
}
