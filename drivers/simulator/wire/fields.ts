/**
 * Field formats of S220 §1.3 (abecs.md §2.1), read as the PINPAD receives them and written as
 * it answers:
 *
 *   A  ASCII 20h–7Eh, left-aligned, space padded      S  ISO-8859-1 20h–FFh, same padding
 *   N  ASCII digits, right-aligned, zero padded         H  hex digits (upper or lower case),
 *   X  binary, big-endian                                  even count; a length field before an
 *   B  any bytes                                           H field counts bytes (hex digits ÷ 2)
 *
 * A field that breaks its format is ST_INVPARM ("o formato do comando ou o conteúdo dos
 * parâmetros recebidos não estão condizentes com esta especificação").
 */
import { WireStatusError } from './errors.js';
import { ST } from './statuses.js';

export const isDigitByte = (byte: number): boolean => byte >= 0x30 && byte <= 0x39;
export const isAlphaByte = (byte: number): boolean => byte >= 0x20 && byte <= 0x7e;
export const isTextByte = (byte: number): boolean => byte >= 0x20;
export const isHexByte = (byte: number): boolean =>
  isDigitByte(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);

export function invalid(message: string): WireStatusError {
  return new WireStatusError(ST.INVPARM, message);
}

/** Checks an N field's bytes: digits only. */
export function checkDigits(value: Buffer, name: string): string {
  if (!value.every(isDigitByte)) throw invalid(`${name} must be digits (N).`);
  return value.toString('latin1');
}

/** Checks an A field's bytes: 20h–7Eh. */
export function checkAlpha(value: Buffer, name: string): string {
  if (!value.every(isAlphaByte)) throw invalid(`${name} must be ASCII 20h–7Eh (A).`);
  return value.toString('latin1');
}

/** Checks an S field's bytes: 20h–FFh (ISO-8859-1). */
export function checkText(value: Buffer, name: string): string {
  if (!value.every(isTextByte)) throw invalid(`${name} must be ISO-8859-1 text 20h–FFh (S).`);
  return value.toString('latin1');
}

/** Checks an H field's characters and returns the bytes they stand for. */
export function checkHex(value: Buffer, name: string): Buffer {
  if (value.length % 2 !== 0 || !value.every(isHexByte))
    throw invalid(`${name} must be an even number of hex digits (H).`);
  return Buffer.from(value.toString('latin1'), 'hex');
}

/** Reads the positional fields of a fixed-field command block, in order. */
export class FieldReader {
  #offset = 0;
  readonly #data: Buffer;
  /** Names the block in error messages. */
  readonly #where: string;

  constructor(data: Buffer, where: string) {
    this.#data = data;
    this.#where = where;
  }

  get remaining(): number {
    return this.#data.length - this.#offset;
  }

  get atEnd(): boolean {
    return this.#offset >= this.#data.length;
  }

  /** The next `length` bytes as they are (B). */
  bytes(length: number, name: string): Buffer {
    if (this.remaining < length) {
      throw invalid(`${this.#where}: ${name} needs ${length} bytes, ${Math.max(0, this.remaining)} remain.`);
    }
    const value = this.#data.subarray(this.#offset, this.#offset + length);
    this.#offset += length;
    return Buffer.from(value);
  }

  /** N field as its digits. */
  digits(length: number, name: string): string {
    return checkDigits(this.bytes(length, name), `${this.#where}: ${name}`);
  }

  /** N field as a number. */
  number(length: number, name: string): number {
    return Number(this.digits(length, name));
  }

  /** A field, trailing spaces kept. */
  alpha(length: number, name: string): string {
    return checkAlpha(this.bytes(length, name), `${this.#where}: ${name}`);
  }

  /** S field, trailing spaces kept. */
  text(length: number, name: string): string {
    return checkText(this.bytes(length, name), `${this.#where}: ${name}`);
  }

  /** H field of `length` hex characters, as the bytes it encodes. */
  hex(length: number, name: string): Buffer {
    return checkHex(this.bytes(length, name), `${this.#where}: ${name}`);
  }

  /** Everything not read yet. */
  rest(): Buffer {
    return this.bytes(this.remaining, 'the rest');
  }

  /** ST_INVPARM when bytes remain that no field accounts for. */
  end(): void {
    if (!this.atEnd) throw invalid(`${this.#where}: ${this.remaining} bytes follow the last field.`);
  }
}

/** N field: right-aligned, zero padded. A value that does not fit is a programming error. */
export function formatN(value: number | string, width: number): string {
  const text = typeof value === 'number' ? String(value) : value;
  if (
    (typeof value === 'number' && (!Number.isInteger(value) || value < 0)) ||
    !/^[0-9]*$/.test(text) ||
    text.length > width
  ) {
    throw new RangeError(`${String(value)} does not fit an N${width} field.`);
  }
  return text.padStart(width, '0');
}

/** A/S field: left-aligned, space padded, cut to `width`. */
export function formatA(text: string, width: number): string {
  return text.slice(0, width).padEnd(width, ' ');
}

/** H field: the bytes as uppercase hex digits. */
export function formatH(value: Uint8Array): string {
  return Buffer.from(value).toString('hex').toUpperCase();
}
