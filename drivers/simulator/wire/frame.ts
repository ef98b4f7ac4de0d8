/**
 * The link layer as the PINPAD speaks it (S220 §2.2, §6.2.1; abecs.md §1.2–§1.6):
 *
 *   SYN | PKTDATA with DC3 substitution | ETB | CRC (2 bytes, most significant first)
 *
 * Inside PKTDATA the bytes 13h, 16h and 17h travel as 13h 33h, 13h 36h and 13h 37h (S220
 * §2.2.1). The CRC covers the original PKTDATA plus ETB and is sent raw: the two bytes after ETB
 * are never substituted (the spec's DSP032 example ends with the CRC byte 13h). The original
 * PKTDATA holds at most 2049 bytes.
 *
 * `FrameReceiver` is the receive half of the idle loop of S220 §6.2.1, byte by byte: outside a
 * packet every byte is reported as is (the caller answers CAN and NAK and ignores noise); inside
 * one, an undefined substitution, a raw SYN, an overflow or a wrong CRC end the packet as an
 * error, after which the caller discards input until the line is quiet and answers NAK.
 */
import { crc16 } from './crc.js';

export const EOT = 0x04;
export const ACK = 0x06;
/** First byte of an encrypted PKTDATA ("Comunicação Segura", S220 §5.2.2). */
export const DC2 = 0x12;
export const DC3 = 0x13;
export const NAK = 0x15;
export const SYN = 0x16;
export const ETB = 0x17;
export const CAN = 0x18;

/** Largest original PKTDATA (S220 §2.2.1). */
export const MAX_PKTDATA = 2049;

/** The bytes that never travel raw inside PKTDATA, and the byte that follows DC3 for each. */
const SUBSTITUTED: ReadonlyMap<number, number> = new Map([
  [DC3, 0x33],
  [SYN, 0x36],
  [ETB, 0x37],
]);
const RESTORED: ReadonlyMap<number, number> = new Map([...SUBSTITUTED].map(([raw, sent]) => [sent, raw]));

/** The frame of one packet: SYN, substituted PKTDATA, ETB and the CRC. */
export function encodeFrame(pktdata: Uint8Array): Buffer {
  if (pktdata.length > MAX_PKTDATA) {
    throw new RangeError(`A packet holds at most ${MAX_PKTDATA} bytes of PKTDATA; this one has ${pktdata.length}.`);
  }
  const out: number[] = [SYN];
  for (const byte of pktdata) {
    const sent = SUBSTITUTED.get(byte);
    if (sent === undefined) out.push(byte);
    else out.push(DC3, sent);
  }
  out.push(ETB);
  const crc = crc16(Uint8Array.of(ETB), crc16(pktdata));
  out.push(crc >> 8, crc & 0xff);
  return Buffer.from(out);
}

export type FrameError = 'crc' | 'substitution' | 'syn-in-packet' | 'overflow';

export type ReceivedItem =
  | { readonly kind: 'packet'; readonly data: Buffer }
  | { readonly kind: 'error'; readonly reason: FrameError }
  | { readonly kind: 'byte'; readonly byte: number };

type State = 'idle' | 'data' | 'substitution' | 'crc1' | 'crc2';

export class FrameReceiver {
  #state: State = 'idle';
  #data: number[] = [];
  #crcHigh = 0;

  /** True between a SYN and the packet's second CRC byte. */
  get receiving(): boolean {
    return this.#state !== 'idle';
  }

  /** Forgets a packet in progress (after an error, a timeout, or while the line is purged). */
  reset(): void {
    this.#state = 'idle';
    this.#data = [];
  }

  /**
   * Feeds received bytes. Stops at the first error: the bytes after it in `chunk` belong to the
   * purge that follows (S220 §6.2.1, "despreza todos os bytes ... até obter 500ms de silêncio").
   */
  push(chunk: Uint8Array): ReceivedItem[] {
    const items: ReceivedItem[] = [];
    for (const byte of chunk) {
      const item = this.#feed(byte);
      if (item === undefined) continue;
      items.push(item);
      if (item.kind === 'error') {
        this.reset();
        break;
      }
    }
    return items;
  }

  #feed(byte: number): ReceivedItem | undefined {
    switch (this.#state) {
      case 'idle':
        if (byte !== SYN) return { kind: 'byte', byte };
        this.#state = 'data';
        this.#data = [];
        return undefined;
      case 'data':
        if (byte === ETB) {
          this.#state = 'crc1';
          return undefined;
        }
        if (byte === DC3) {
          this.#state = 'substitution';
          return undefined;
        }
        // A raw SYN never belongs to PKTDATA (S220 §2.2.1): the packet is not intact.
        if (byte === SYN) return { kind: 'error', reason: 'syn-in-packet' };
        return this.#append(byte);
      case 'substitution': {
        const original = RESTORED.get(byte);
        // Only the three substitutions of S220 §2.2.1 exist.
        if (original === undefined) return { kind: 'error', reason: 'substitution' };
        this.#state = 'data';
        return this.#append(original);
      }
      case 'crc1':
        this.#crcHigh = byte;
        this.#state = 'crc2';
        return undefined;
      case 'crc2': {
        const data = Buffer.from(this.#data);
        const expected = crc16(Uint8Array.of(ETB), crc16(data));
        this.reset();
        return expected === ((this.#crcHigh << 8) | byte) ? { kind: 'packet', data } : { kind: 'error', reason: 'crc' };
      }
    }
  }

  #append(byte: number): ReceivedItem | undefined {
    this.#data.push(byte);
    return this.#data.length > MAX_PKTDATA ? { kind: 'error', reason: 'overflow' } : undefined;
  }
}
