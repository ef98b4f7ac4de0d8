/**
 * What the multimedia commands (abecs.md §3.18, S220 §3.4) share: the media file name
 * (SPE_MFNAME / PP_MFNAME, A8: letters and digits, left aligned, space padded; not case
 * sensitive, so Pinbridge always sends upper case — LMF answers upper case anyway, §6.6.4), the
 * file types of SPE_MFINFO and its B10 layout, and how a file is cut into MLR packets.
 */
import { InvalidArgumentError } from '../../errors.js';
import { MAX_TLV_VALUE } from '../tlv.js';
import { malformedCommand } from './basic-support.js';

export const MEDIA_NAME_LENGTH = 8;

/** The image formats ABECS names (SPE_MFINFO type byte; PP_MFSUP digits in this order). */
export type MediaType = 'png' | 'jpg' | 'gif';
export const MEDIA_TYPES: readonly MediaType[] = ['png', 'jpg', 'gif'];

/** SPE_MFINFO B1: 01h PNG, 02h JPG, 03h GIF; other values are RUF. */
const TYPE_CODES: Readonly<Record<MediaType, number>> = { png: 0x01, jpg: 0x02, gif: 0x03 };

export function mediaTypeCode(type: MediaType): number {
  return TYPE_CODES[type];
}

/** The type of a SPE_MFINFO type byte; undefined for a RUF value. */
export function mediaTypeOf(code: number): MediaType | undefined {
  return MEDIA_TYPES.find((type) => TYPE_CODES[type] === code);
}

/** SPE_MFINFO X4: the largest file size the field can say. */
export const MEDIA_MAX_SIZE = 0xffffffff;

/** SPE_MFINFO: X4 size, B2 CRC, B1 type, B3 RUF (000000h) — 10 bytes. */
export const MFINFO_LENGTH = 10;

/**
 * The wire form of a media file name: 1–8 letters or digits, upper-cased and space padded to 8.
 * Anything else (a path, a dot, an accent, a 9th character) is refused before it is sent.
 */
export function mediaFileName(name: string): string {
  if (typeof name !== 'string' || !/^[A-Za-z0-9]{1,8}$/.test(name)) {
    throw new InvalidArgumentError(
      `A PINPAD media file name has 1 to 8 letters or digits (A8, S220 §3.1.3.1); got ${JSON.stringify(name)}.`,
    );
  }
  return name.toUpperCase().padEnd(MEDIA_NAME_LENGTH, ' ');
}

/** A name read back from SPE_MFNAME / PP_MFNAME: its padding trimmed; undefined when it is no A8 name. */
export function readMediaFileName(value: Buffer): string | undefined {
  const text = value.toString('latin1');
  if (value.length !== MEDIA_NAME_LENGTH || !/^[A-Za-z0-9]{1,8} *$/.test(text)) return undefined;
  return text.trimEnd();
}

export interface MediaFileInfo {
  /** Bytes in the file. */
  readonly size: number;
  /** CRC-16 of the file (the link layer's CRC, S220 §7.2: abecs.md §1.4). */
  readonly crc: number;
  readonly type: MediaType;
}

export function encodeMediaFileInfo(info: MediaFileInfo): Buffer {
  if (!Number.isInteger(info.size) || info.size < 0 || info.size > MEDIA_MAX_SIZE) {
    throw new InvalidArgumentError(`A media file's size is 0 to ${MEDIA_MAX_SIZE} bytes; got ${info.size}.`);
  }
  if (!Number.isInteger(info.crc) || info.crc < 0 || info.crc > 0xffff) {
    throw new InvalidArgumentError(`A media file's CRC is 16 bits; got ${info.crc}.`);
  }
  if (!MEDIA_TYPES.includes(info.type)) {
    throw new InvalidArgumentError(`A media file is ${MEDIA_TYPES.join(', ')}; got ${JSON.stringify(info.type)}.`);
  }
  const value = Buffer.alloc(MFINFO_LENGTH);
  value.writeUInt32BE(info.size, 0);
  value.writeUInt16BE(info.crc, 4);
  value[6] = mediaTypeCode(info.type);
  return value;
}

/** SPE_MFINFO as a PINPAD reads it: any length ≥ 7 (S220 §6.6.1 robustness), a known type. */
export function decodeMediaFileInfo(value: Buffer): MediaFileInfo {
  if (value.length < 7) throw malformedCommand('MLI', `SPE_MFINFO has ${value.length} bytes, fewer than 7`);
  const type = mediaTypeOf(value[6]!);
  if (type === undefined) throw malformedCommand('MLI', `SPE_MFINFO names the RUF file type ${value[6]}`);
  return { size: value.readUInt32BE(0), crc: value.readUInt16BE(4), type };
}

/**
 * SPE_DATAIN values per MLR packet: 995 bytes each (its B..995 maximum), two per packet — one
 * per 999-byte block, "MLR" + 2 × (N3 + 999) = 2007 bytes, within the 2044 an Abecs command may
 * carry (S220 §3.1.3). The spec's own example (§3.4.2) sends two SPE_DATAIN per MLR too.
 */
export const MLR_CHUNK = MAX_TLV_VALUE;
export const MLR_CHUNKS_PER_PACKET = 2;

/** The file cut into MLR packets, in order; each packet a list of SPE_DATAIN values. */
export function mlrPackets(file: Uint8Array): Buffer[][] {
  const packets: Buffer[][] = [];
  const perPacket = MLR_CHUNK * MLR_CHUNKS_PER_PACKET;
  for (let at = 0; at < file.length; at += perPacket) {
    const chunks: Buffer[] = [];
    for (let from = at; from < Math.min(at + perPacket, file.length); from += MLR_CHUNK) {
      chunks.push(Buffer.from(file.subarray(from, Math.min(from + MLR_CHUNK, file.length))));
    }
    packets.push(chunks);
  }
  return packets;
}

/**
 * Whether `bytes` start as a file of `type` says they must (PNG signature, JPEG SOI, GIF87a/89a):
 * the host refuses to load a file under the wrong type, which the PINPAD would only find out at
 * DSI (ST_MFERRFMT).
 */
export function looksLike(type: MediaType, bytes: Uint8Array): boolean {
  const starts = (...prefix: number[]): boolean => prefix.every((byte, index) => bytes[index] === byte);
  switch (type) {
    case 'png':
      return starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case 'jpg':
      return starts(0xff, 0xd8, 0xff);
    case 'gif':
      return starts(0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61;
  }
}
