/**
 * Parameters of the Abecs ("TLV") commands (S220 §3.1.3; abecs.md §2.3). Each block of the
 * envelope is a concatenation of
 *
 *   CMD_PARID (X2, binary) | CMD_PARLEN (X2, binary, at most 995 = 03E3h) | CMD_PAR
 *
 * and responses use the same shape with RSP_DATID / RSP_DATLEN. A parameter never straddles two
 * blocks. Parameters come in any order; an unknown one is ignored; a repeated one counts once,
 * the first, unless the command is made of repetitions (MNU's options, S220 §6.2.2). Any break in
 * this structure is ST_INVPARM (S220 §6.2.2); a mandatory parameter that is missing is ST_MANDAT
 * (S220 §3.1.3.1, presence "M"/"MD").
 *
 * Note the lengths: N3 ASCII digits for blocks, X2 binary inside them.
 */
import { WireStatusError } from './errors.js';
import { checkAlpha, checkDigits, checkText, invalid } from './fields.js';
import { MAX_BLOCK } from './packet.js';
import { ST } from './statuses.js';

/** Largest CMD_PAR / RSP_DAT (S220 §3.1.3.1). */
export const MAX_TLV_VALUE = 995;
const HEADER = 4;

export interface TlvItem {
  readonly id: number;
  readonly value: Buffer;
}

const hex4 = (id: number): string => id.toString(16).toUpperCase().padStart(4, '0') + 'h';

/** Every parameter of the command's blocks, in order; throws ST_INVPARM on a broken structure. */
export function decodeTlvBlocks(blocks: readonly Buffer[]): TlvItem[] {
  const items: TlvItem[] = [];
  blocks.forEach((block, index) => {
    let at = 0;
    while (at < block.length) {
      if (block.length - at < HEADER)
        throw invalid(`Block ${index + 1}: ${block.length - at} bytes left, too few for a parameter header.`);
      const id = block.readUInt16BE(at);
      const length = block.readUInt16BE(at + 2);
      if (length > MAX_TLV_VALUE)
        throw invalid(`Parameter ${hex4(id)} declares ${length} bytes; at most ${MAX_TLV_VALUE}.`);
      at += HEADER;
      if (at + length > block.length) throw invalid(`Parameter ${hex4(id)} runs past the end of block ${index + 1}.`);
      items.push({ id, value: Buffer.from(block.subarray(at, at + length)) });
      at += length;
    }
  });
  return items;
}

/** Response data split into blocks of at most 999 bytes, items kept whole and in order. */
export function encodeTlvBlocks(items: readonly TlvItem[]): Buffer[] {
  const blocks: Buffer[] = [];
  let current: Buffer[] = [];
  let size = 0;
  for (const item of items) {
    if (item.value.length > MAX_TLV_VALUE) {
      throw new RangeError(`Response data ${hex4(item.id)} has ${item.value.length} bytes; at most ${MAX_TLV_VALUE}.`);
    }
    const header = Buffer.alloc(HEADER);
    header.writeUInt16BE(item.id, 0);
    header.writeUInt16BE(item.value.length, 2);
    const length = HEADER + item.value.length;
    if (size + length > MAX_BLOCK) {
      blocks.push(Buffer.concat(current));
      current = [];
      size = 0;
    }
    current.push(header, item.value);
    size += length;
  }
  if (current.length > 0) blocks.push(Buffer.concat(current));
  return blocks;
}

/** The parameters of one Abecs command, with format-checked accessors. */
export class Params {
  readonly #items: readonly TlvItem[];

  private constructor(
    readonly command: string,
    items: readonly TlvItem[],
  ) {
    this.#items = items;
  }

  static decode(command: string, blocks: readonly Buffer[]): Params {
    return new Params(command, decodeTlvBlocks(blocks));
  }

  has(id: number): boolean {
    return this.#items.some((item) => item.id === id);
  }

  /** The first occurrence (later ones are ignored, S220 §6.2.2). */
  first(id: number): Buffer | undefined {
    return this.#items.find((item) => item.id === id)?.value;
  }

  /** Every occurrence, in order (for parameters a command repeats). */
  all(id: number): Buffer[] {
    return this.#items.filter((item) => item.id === id).map((item) => item.value);
  }

  /** ST_MANDAT when the parameter is absent. */
  require<T>(value: T | undefined, name: string): T {
    if (value === undefined) throw new WireStatusError(ST.MANDAT, `${this.command}: ${name} is mandatory.`);
    return value;
  }

  #sized(id: number, name: string, size: Size): Buffer | undefined {
    const value = this.first(id);
    if (value === undefined) return undefined;
    if (size.exact !== undefined && value.length !== size.exact) {
      throw invalid(`${this.command}: ${name} must have ${size.exact} bytes, not ${value.length}.`);
    }
    if (size.max !== undefined && value.length > size.max) {
      throw invalid(`${this.command}: ${name} holds at most ${size.max} bytes, not ${value.length}.`);
    }
    if (size.min !== undefined && value.length < size.min) {
      throw invalid(`${this.command}: ${name} needs at least ${size.min} bytes, not ${value.length}.`);
    }
    return value;
  }

  /** N field (digits). */
  digits(id: number, name: string, size: Size): string | undefined {
    const value = this.#sized(id, name, size);
    return value === undefined ? undefined : checkDigits(value, `${this.command}: ${name}`);
  }

  /** A field (ASCII 20h–7Eh). */
  alpha(id: number, name: string, size: Size): string | undefined {
    const value = this.#sized(id, name, size);
    return value === undefined ? undefined : checkAlpha(value, `${this.command}: ${name}`);
  }

  /**
   * S field (ISO-8859-1 text 20h–FFh). `breaks` lists the control characters allowed as line
   * breaks: SPE_DSPMSG is free text "com caracteres de quebras de linha (0Dh)".
   */
  text(id: number, name: string, size: Size, breaks: 'none' | 'cr' | 'any' = 'none'): string | undefined {
    const value = this.#sized(id, name, size);
    if (value === undefined) return undefined;
    const allowed = (byte: number): boolean => (breaks === 'any' ? byte < 0x20 : breaks === 'cr' && byte === 0x0d);
    checkText(Buffer.from(value.map((byte) => (allowed(byte) ? 0x20 : byte))), `${this.command}: ${name}`);
    return value.toString('latin1');
  }

  /** B field (any bytes). */
  bytes(id: number, name: string, size: Size): Buffer | undefined {
    return this.#sized(id, name, size);
  }

  /** X field: a binary big-endian unsigned integer of exactly `width` bytes. */
  uint(id: number, name: string, width: number): number | undefined {
    const value = this.#sized(id, name, { exact: width });
    return value === undefined ? undefined : value.readUIntBE(0, width);
  }
}

export interface Size {
  readonly exact?: number;
  readonly max?: number;
  readonly min?: number;
}

/** One response datum: text (latin1) or bytes. */
export function item(id: number, value: string | Uint8Array): TlvItem {
  return { id, value: typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from(value) };
}
