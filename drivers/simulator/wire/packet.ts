/**
 * The application-layer envelope inside PKTDATA (S220 §2.3; abecs.md §2.2):
 *
 *   command  : CMD_ID (A3) { CMD_LENn (N3, "000"–"999") CMD_BLKn (≤ 999 bytes) }
 *   response : RSP_ID (A3) RSP_STAT (N3) { RSP_LENn (N3) RSP_BLKn }   — blocks only with "000"
 *   error    : RSP_ID RSP_STAT ≠ "000", exactly six bytes, never data (S220 §2.3.2)
 *   unknown  : "ERR" + ST_INVCALL "010" (S220 §2.3.4, §6.2.2)
 *   notification : "NTM" "000" RSP_LEN1 ("000"–"032") NTM_MSG (S220 §2.3.3)
 *
 * A command without parameters may come as bare `XXX` or as `XXX000` (S220 §6.4.1 for OPN);
 * both decode here, the second as one empty block.
 */
import { WireStatusError } from './errors.js';
import { ST } from './statuses.js';

/** Largest block (N3 length). */
export const MAX_BLOCK = 999;
/** Largest NTM_MSG: two lines of 16 columns (S220 §2.3.3). */
export const MAX_NOTIFICATION = 32;
/** RSP_ID of the answer to an unknown command (S220 §2.3.4). */
export const ERR_ID = 'ERR';
export const NOTIFICATION_ID = 'NTM';

export interface CommandPacket {
  /** CMD_ID, three characters. */
  readonly id: string;
  /** CMD_BLK1…CMD_BLKn, without their lengths. */
  readonly blocks: readonly Buffer[];
}

export interface ResponsePacket {
  readonly id: string;
  /** RSP_STAT, 0–999. */
  readonly status: number;
  /** RSP_BLK1…RSP_BLKn; empty whenever `status` is not 0. */
  readonly blocks: readonly Buffer[];
}

/** A PKTDATA whose envelope does not parse (block lengths, truncated blocks, unreadable id). */
export class EnvelopeError extends Error {
  constructor(
    /** CMD_ID when the first three bytes are readable (A3), else undefined. */
    readonly id: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'EnvelopeError';
  }
}

const isAlpha = (byte: number): boolean => byte >= 0x20 && byte <= 0x7e;
const isDigit = (byte: number): boolean => byte >= 0x30 && byte <= 0x39;

/** CMD_ID of a PKTDATA if its first three bytes are an A3 field (20h–7Eh). */
export function readCommandId(pktdata: Uint8Array): string | undefined {
  if (pktdata.length < 3) return undefined;
  for (let i = 0; i < 3; i++) if (!isAlpha(pktdata[i]!)) return undefined;
  return Buffer.from(pktdata.subarray(0, 3)).toString('latin1');
}

function readN3(data: Buffer, offset: number): number | undefined {
  if (offset + 3 > data.length) return undefined;
  for (let i = offset; i < offset + 3; i++) if (!isDigit(data[i]!)) return undefined;
  return Number(data.subarray(offset, offset + 3).toString('latin1'));
}

function readBlocks(data: Buffer, offset: number, id: string | undefined, what: string): Buffer[] {
  const blocks: Buffer[] = [];
  let at = offset;
  while (at < data.length) {
    const length = readN3(data, at);
    if (length === undefined)
      throw new EnvelopeError(id, `${what}: the block length at byte ${at} is not three digits.`);
    at += 3;
    if (at + length > data.length) {
      throw new EnvelopeError(id, `${what}: a block declares ${length} bytes but only ${data.length - at} follow.`);
    }
    blocks.push(Buffer.from(data.subarray(at, at + length)));
    at += length;
  }
  return blocks;
}

/** Splits a command's PKTDATA into CMD_ID and its blocks; throws EnvelopeError. */
export function decodeCommandPacket(pktdata: Uint8Array): CommandPacket {
  const data = Buffer.from(pktdata);
  const id = readCommandId(data);
  if (id === undefined) throw new EnvelopeError(undefined, 'The packet does not start with a three-character CMD_ID.');
  return { id, blocks: readBlocks(data, 3, id, `Command ${id}`) };
}

function n3(value: number): string {
  if (!Number.isInteger(value) || value < 0 || value > 999) throw new RangeError(`${value} does not fit an N3 field.`);
  return String(value).padStart(3, '0');
}

/** The PKTDATA of a response; a non-zero status carries no data (S220 §2.3.2). */
export function encodeResponsePacket(response: ResponsePacket): Buffer {
  const idBytes = Buffer.from(response.id, 'latin1');
  if (idBytes.length !== 3 || !idBytes.every(isAlpha))
    throw new RangeError(`"${response.id}" is not a three-character RSP_ID.`);
  if (response.status !== 0 && response.blocks.length > 0) {
    throw new RangeError(`A response with RSP_STAT ${n3(response.status)} never carries data.`);
  }
  const parts: Buffer[] = [idBytes, Buffer.from(n3(response.status), 'latin1')];
  for (const block of response.blocks) {
    if (block.length > MAX_BLOCK)
      throw new RangeError(`A block holds at most ${MAX_BLOCK} bytes; this one has ${block.length}.`);
    parts.push(Buffer.from(n3(block.length), 'latin1'), block);
  }
  return Buffer.concat(parts);
}

/** Reads a response PKTDATA (a recorded one, for the replay); throws EnvelopeError. */
export function decodeResponsePacket(pktdata: Uint8Array): ResponsePacket {
  const data = Buffer.from(pktdata);
  const id = readCommandId(data);
  if (id === undefined)
    throw new EnvelopeError(undefined, 'The response does not start with a three-character RSP_ID.');
  const status = readN3(data, 3);
  if (status === undefined) throw new EnvelopeError(id, `Response ${id}: RSP_STAT is not three digits.`);
  return { id, status, blocks: readBlocks(data, 6, id, `Response ${id}`) };
}

/** The PKTDATA of an NTM notification (latin1 text, at most 32 characters). */
export function encodeNotification(text: string): Buffer {
  const body = Buffer.from(text, 'latin1');
  if (body.length > MAX_NOTIFICATION) {
    throw new RangeError(`An NTM_MSG holds at most ${MAX_NOTIFICATION} characters; this one has ${body.length}.`);
  }
  return Buffer.concat([Buffer.from(`${NOTIFICATION_ID}000${n3(body.length)}`, 'latin1'), body]);
}

/** The text of a received NTM (for the replay): "NTM" "000" N3 + text, tolerant of a length that disagrees. */
export function notificationText(pktdata: Uint8Array): string {
  const data = Buffer.from(pktdata);
  const declared = readN3(data, 6);
  const body = data.subarray(9);
  const length = declared === undefined ? body.length : Math.min(declared, body.length);
  return body.subarray(0, Math.min(length, MAX_NOTIFICATION)).toString('latin1');
}

/** A command with no parameter: bare `XXX` or `XXX000`. Anything else is ST_INVPARM when `strict`. */
export function expectNoParameters(packet: CommandPacket, strict: boolean): void {
  if (strict && packet.blocks.some((block) => block.length > 0)) {
    throw new WireStatusError(ST.INVPARM, `${packet.id} takes no parameters.`);
  }
}
