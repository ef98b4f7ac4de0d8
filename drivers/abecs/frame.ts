/**
 * ABECS packet framing (abecs.md §1.3): `SYN | escape(PKTDATA) | ETB | CRC_HI | CRC_LO`.
 *
 * - Inside PKTDATA the bytes 13h, 16h and 17h travel as DC3 followed by byte + 20h.
 * - The CRC (CRC-16/XMODEM) covers the *unescaped* PKTDATA plus the ETB byte, is sent big-endian,
 *   and its two bytes are never escaped: a receiver reads exactly two raw bytes after ETB.
 *
 * The decoder is a byte-wise state machine with no notion of time: the link layers own the
 * timers (inter-byte timeout, 500 ms of silence before a NAK) and call `reset()`.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { DriverError } from '../errors.js';
import { crc16Xmodem } from './crc.js';

export const EOT = 0x04;
export const ACK = 0x06;
export const DC2 = 0x12;
export const DC3 = 0x13;
export const NAK = 0x15;
export const SYN = 0x16;
export const ETB = 0x17;
export const CAN = 0x18;

/** Largest unescaped PKTDATA a packet may carry (S220 §2.2.1). */
export const MAX_PKTDATA = 2049;

export class FrameError extends DriverError {}

const ETB_BYTE = Uint8Array.of(ETB);

function needsEscape(byte: number): boolean {
  return byte === DC3 || byte === SYN || byte === ETB;
}

/** The wire bytes of one packet carrying `pktdata`. */
export function encodeFrame(pktdata: Uint8Array): Buffer {
  if (pktdata.length === 0) {
    throw new FrameError('PACKET_EMPTY', 'An ABECS packet must carry at least one byte.');
  }
  if (pktdata.length > MAX_PKTDATA) {
    throw new FrameError(
      'PACKET_TOO_LARGE',
      `An ABECS packet carries at most ${MAX_PKTDATA} bytes; this one has ${pktdata.length}.`,
    );
  }
  let escapes = 0;
  for (const byte of pktdata) if (needsEscape(byte)) escapes++;
  const out = Buffer.allocUnsafe(pktdata.length + escapes + 4);
  let at = 0;
  out[at++] = SYN;
  for (const byte of pktdata) {
    if (needsEscape(byte)) {
      out[at++] = DC3;
      out[at++] = byte + 0x20;
    } else {
      out[at++] = byte;
    }
  }
  out[at++] = ETB;
  const crc = crc16Xmodem(ETB_BYTE, crc16Xmodem(pktdata));
  out[at++] = crc >> 8;
  out[at] = crc & 0xff;
  return out;
}

export type FrameErrorReason = 'crc' | 'overflow' | 'escape' | 'syntax';

/** What the decoder recognises in the byte stream. */
export type DecodedItem =
  /** A complete packet whose CRC matched: its unescaped PKTDATA. */
  | { readonly kind: 'packet'; readonly data: Buffer }
  /** A byte outside any packet: ACK, NAK, EOT, CAN, or line noise. */
  | { readonly kind: 'byte'; readonly byte: number }
  /** A packet that started but was not valid; the decoder is back to waiting for SYN. */
  | { readonly kind: 'error'; readonly reason: FrameErrorReason };

const enum State {
  Idle,
  Data,
  Escape,
  CrcHigh,
  CrcLow,
}

export class FrameDecoder {
  #state = State.Idle;
  readonly #buffer = Buffer.allocUnsafe(MAX_PKTDATA);
  #length = 0;
  #crcHigh = 0;

  /** True while inside a packet (between SYN and the last CRC byte). */
  get receiving(): boolean {
    return this.#state !== State.Idle;
  }

  /** Drop any partial packet and wait for the next SYN. */
  reset(): void {
    this.#state = State.Idle;
    this.#length = 0;
  }

  /** Feed bytes; returns what they completed, in order. */
  push(chunk: Uint8Array): DecodedItem[] {
    const items: DecodedItem[] = [];
    for (let i = 0; i < chunk.length; i++) {
      const item = this.#step(chunk[i]!);
      if (item) items.push(item);
    }
    return items;
  }

  #fail(reason: FrameErrorReason): DecodedItem {
    this.reset();
    return { kind: 'error', reason };
  }

  #step(byte: number): DecodedItem | undefined {
    switch (this.#state) {
      case State.Idle:
        if (byte === SYN) {
          this.#state = State.Data;
          this.#length = 0;
          return undefined;
        }
        return { kind: 'byte', byte };
      case State.Data:
        if (byte === ETB) {
          this.#state = State.CrcHigh;
          return undefined;
        }
        if (byte === DC3) {
          this.#state = State.Escape;
          return undefined;
        }
        if (byte === SYN) return this.#fail('syntax');
        return this.#append(byte);
      case State.Escape:
        if (byte !== 0x33 && byte !== 0x36 && byte !== 0x37) return this.#fail('escape');
        this.#state = State.Data;
        return this.#append(byte - 0x20);
      case State.CrcHigh:
        this.#crcHigh = byte;
        this.#state = State.CrcLow;
        return undefined;
      case State.CrcLow: {
        const data = this.#buffer.subarray(0, this.#length);
        const expected = crc16Xmodem(ETB_BYTE, crc16Xmodem(data));
        const received = (this.#crcHigh << 8) | byte;
        if (expected !== received || this.#length === 0) return this.#fail('crc');
        const packet = Buffer.from(data);
        this.reset();
        return { kind: 'packet', data: packet };
      }
    }
  }

  #append(byte: number): DecodedItem | undefined {
    if (this.#length >= MAX_PKTDATA) return this.#fail('overflow');
    this.#buffer[this.#length++] = byte;
    return undefined;
  }
}

/**
 * The decoder as a tiny stream, in the manner of node-serialport's parsers: bytes in, one
 * `DecodedItem` object out per packet, out-of-packet byte, or framing error.
 */
export class AbecsFrameParser extends Transform {
  readonly #decoder = new FrameDecoder();

  constructor() {
    super({ readableObjectMode: true });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    for (const item of this.#decoder.push(chunk)) this.push(item);
    callback();
  }
}
