/**
 * Fixed-field formats of the ABECS application layer (abecs.md §2.1):
 * A = ASCII 20h–7Eh left-aligned space-padded; S = ISO-8859-1 left-aligned space-padded;
 * N = decimal digits right-aligned zero-padded; H = hex digits; X = binary big-endian.
 *
 * `FieldWriter` builds a block from fields; `FieldReader` takes a block apart and throws an
 * AbecsFormatError naming the field when something does not fit.
 */
import { InvalidArgumentError } from '../errors.js';
import { AbecsFormatError } from './format-error.js';

const HEX = /^[0-9A-Fa-f]*$/;
const DIGITS = /^[0-9]*$/;

export class FieldWriter {
  readonly #parts: Buffer[] = [];

  /** N field: a non-negative integer or digit string, zero-padded to `length`. */
  n(name: string, value: number | string, length: number): this {
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof value === 'number' && (!Number.isSafeInteger(value) || value < 0)) {
      throw new InvalidArgumentError(`${name} must be a non-negative integer, got ${value}.`);
    }
    if (!DIGITS.test(text)) throw new InvalidArgumentError(`${name} must contain digits only.`);
    if (text.length > length) {
      throw new InvalidArgumentError(`${name} takes at most ${length} digits, got ${text.length}.`);
    }
    this.#parts.push(Buffer.from(text.padStart(length, '0'), 'latin1'));
    return this;
  }

  /** A field: printable ASCII, space-padded to `length`. */
  a(name: string, value: string, length: number): this {
    for (const ch of value) {
      const code = ch.charCodeAt(0);
      if (ch.length !== 1 || code < 0x20 || code > 0x7e) {
        throw new InvalidArgumentError(`${name} must be printable ASCII.`);
      }
    }
    return this.#padded(name, value, length);
  }

  /** S field: ISO-8859-1 text, space-padded to `length`. */
  s(name: string, value: string, length: number): this {
    for (const ch of value) {
      const code = ch.codePointAt(0)!;
      if (code > 0xff) throw new InvalidArgumentError(`${name} has a character outside ISO-8859-1: "${ch}".`);
    }
    return this.#padded(name, value, length);
  }

  /** H field: hex digits written as given (upper case); `length` in hex characters when fixed. */
  h(name: string, value: string, length?: number): this {
    if (!HEX.test(value) || value.length % 2 !== 0) {
      throw new InvalidArgumentError(`${name} must be an even number of hex digits.`);
    }
    if (length !== undefined && value.length !== length) {
      throw new InvalidArgumentError(`${name} must be ${length} hex digits, got ${value.length}.`);
    }
    this.#parts.push(Buffer.from(value.toUpperCase(), 'latin1'));
    return this;
  }

  /** Bytes as they are. */
  raw(value: Uint8Array): this {
    this.#parts.push(Buffer.from(value));
    return this;
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.#parts);
  }

  #padded(name: string, value: string, length: number): this {
    if (value.length > length) {
      throw new InvalidArgumentError(`${name} takes at most ${length} characters, got ${value.length}.`);
    }
    this.#parts.push(Buffer.from(value.padEnd(length, ' '), 'latin1'));
    return this;
  }
}

export class FieldReader {
  #offset = 0;
  readonly #data: Buffer;
  readonly #what: string;
  readonly #code: 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND';

  /**
   * @param what names the block in error messages, e.g. "GIN response".
   * @param code which error code malformed input raises.
   */
  constructor(data: Buffer, what: string, code: 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND' = 'MALFORMED_RESPONSE') {
    this.#data = data;
    this.#what = what;
    this.#code = code;
  }

  get remaining(): number {
    return this.#data.length - this.#offset;
  }

  get position(): number {
    return this.#offset;
  }

  /** The next `length` bytes, raw. */
  bytes(name: string, length: number): Buffer {
    if (length < 0 || this.#offset + length > this.#data.length) {
      throw this.error(`${name} needs ${length} bytes at offset ${this.#offset}, only ${this.remaining} left`);
    }
    const out = this.#data.subarray(this.#offset, this.#offset + length);
    this.#offset += length;
    return out;
  }

  /** N field as a number. */
  n(name: string, length: number): number {
    const text = this.digits(name, length);
    return Number(text);
  }

  /** N field as a digit string (kept as text where leading zeros matter: dates, codes). */
  digits(name: string, length: number): string {
    const text = this.bytes(name, length).toString('latin1');
    if (!DIGITS.test(text)) throw this.error(`${name} must be ${length} digits`);
    return text;
  }

  /** A or S field with trailing padding removed. */
  text(name: string, length: number): string {
    return this.bytes(name, length).toString('latin1').replace(/ +$/, '');
  }

  /** A or S field exactly as sent (padding kept). */
  textRaw(name: string, length: number): string {
    return this.bytes(name, length).toString('latin1');
  }

  /** H field of `length` hex characters, upper-cased. */
  hex(name: string, length: number): string {
    const text = this.bytes(name, length).toString('latin1');
    if (!HEX.test(text)) throw this.error(`${name} must be hex digits`);
    return text.toUpperCase();
  }

  /** Everything not read yet. */
  rest(): Buffer {
    return this.bytes('rest', this.remaining);
  }

  /** Throws when bytes are left over. */
  end(): void {
    if (this.remaining !== 0) throw this.error(`${this.remaining} unexpected bytes after the last field`);
  }

  error(detail: string): AbecsFormatError {
    return new AbecsFormatError(this.#code, `Malformed ${this.#what}: ${detail}.`);
  }
}
