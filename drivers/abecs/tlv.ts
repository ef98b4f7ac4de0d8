/**
 * TLV parameters of the Abecs 2.x commands (abecs.md §2.3): each is an X2 binary id, an X2
 * binary length (≤ 995) and the value. A block is a concatenation of whole parameters, at most
 * 999 bytes; parameters may come in any order and be split across blocks. When an id repeats,
 * the first one wins unless the command defines repetition (MNU options, for instance).
 */
import { InvalidArgumentError } from '../errors.js';
import { AbecsFormatError } from './format-error.js';

export const MAX_TLV_VALUE = 995;
export const MAX_BLOCK = 999;

export interface Tlv {
  readonly id: number;
  readonly value: Buffer;
}

export function encodeTlv(id: number, value: Uint8Array): Buffer {
  if (!Number.isInteger(id) || id < 0 || id > 0xffff) throw new InvalidArgumentError(`TLV id ${id} is out of range.`);
  if (value.length > MAX_TLV_VALUE) {
    throw new InvalidArgumentError(`TLV ${hexId(id)} value has ${value.length} bytes; at most ${MAX_TLV_VALUE}.`);
  }
  const out = Buffer.allocUnsafe(4 + value.length);
  out.writeUInt16BE(id, 0);
  out.writeUInt16BE(value.length, 2);
  out.set(value, 4);
  return out;
}

/** Packs parameters into as few ≤ 999-byte blocks as keeps every parameter whole. */
export function tlvsToBlocks(tlvs: readonly Tlv[]): Buffer[] {
  const blocks: Buffer[] = [];
  let current: Buffer[] = [];
  let size = 0;
  for (const tlv of tlvs) {
    const encoded = encodeTlv(tlv.id, tlv.value);
    if (size + encoded.length > MAX_BLOCK && current.length > 0) {
      blocks.push(Buffer.concat(current));
      current = [];
      size = 0;
    }
    current.push(encoded);
    size += encoded.length;
  }
  if (current.length > 0) blocks.push(Buffer.concat(current));
  return blocks;
}

/** Parses one block; throws AbecsFormatError (ST_INVPARM) when the structure is broken. */
export function decodeTlvBlock(
  block: Buffer,
  code: 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND' = 'MALFORMED_RESPONSE',
): Tlv[] {
  const tlvs: Tlv[] = [];
  let at = 0;
  while (at < block.length) {
    if (at + 4 > block.length) {
      throw new AbecsFormatError(code, `Malformed TLV block: a parameter header is cut short at offset ${at}.`);
    }
    const id = block.readUInt16BE(at);
    const length = block.readUInt16BE(at + 2);
    if (at + 4 + length > block.length) {
      throw new AbecsFormatError(
        code,
        `Malformed TLV block: parameter ${hexId(id)} declares ${length} bytes, only ${block.length - at - 4} left.`,
      );
    }
    tlvs.push({ id, value: block.subarray(at + 4, at + 4 + length) });
    at += 4 + length;
  }
  return tlvs;
}

export function blocksToTlvs(
  blocks: readonly Buffer[],
  code: 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND' = 'MALFORMED_RESPONSE',
): Tlv[] {
  return blocks.flatMap((block) => decodeTlvBlock(block, code));
}

/** Read access to decoded parameters with the first-wins rule. */
export class TlvList {
  constructor(readonly items: readonly Tlv[]) {}

  static fromBlocks(
    blocks: readonly Buffer[],
    code: 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND' = 'MALFORMED_RESPONSE',
  ): TlvList {
    return new TlvList(blocksToTlvs(blocks, code));
  }

  has(id: number): boolean {
    return this.items.some((tlv) => tlv.id === id);
  }

  /** The first value with this id. */
  get(id: number): Buffer | undefined {
    return this.items.find((tlv) => tlv.id === id)?.value;
  }

  /** Every value with this id, in order (for repeatable parameters). */
  all(id: number): Buffer[] {
    return this.items.filter((tlv) => tlv.id === id).map((tlv) => tlv.value);
  }

  /** The first value as ISO-8859-1 text. */
  text(id: number): string | undefined {
    return this.get(id)?.toString('latin1');
  }
}

export function hexId(id: number): string {
  return `${id.toString(16).toUpperCase().padStart(4, '0')}h`;
}
