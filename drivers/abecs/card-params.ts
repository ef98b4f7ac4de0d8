/**
 * Shared pieces of the card-processing and table commands (GCR, GOC, FNC, GCX, GED, GOX, FCX,
 * GTS, TLI, TLR, TLE): typed codes used by several of them, and small readers/writers for the
 * Abecs TLV parameters with the field formats of abecs.md §2.1 applied to each value.
 *
 * Decoding never raises anything but AbecsFormatError, so the simulator can answer ST_INVPARM
 * (011) or ST_MANDAT (019); encoding raises InvalidArgumentError. Values may be card data
 * (PAN, tracks, PIN blocks), so messages name parameters, never their contents.
 */
import { InvalidArgumentError } from '../errors.js';
import { AbecsFormatError } from './format-error.js';
import { TlvList, tlvsToBlocks, type Tlv } from './tlv.js';
import { FieldReader, FieldWriter } from './fields.js';
import { decodeTagList, encodeTagList } from './emv.js';

export type FormatCode = 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND';

/** GCR_CARDTYPE / PP_CARDTYPE. */
export type CardType = 'magstripe' | 'chip' | 'contactlessMagstripe' | 'contactlessChip';

const CARD_TYPES: Readonly<Record<string, CardType>> = {
  '00': 'magstripe',
  '03': 'chip',
  '05': 'contactlessMagstripe',
  '06': 'contactlessChip',
};

/** The card type of a two-digit code; 'other' for codes outside 2.x (BibComp's 01/02/04). */
export function cardTypeOf(code: string): CardType | 'other' {
  return CARD_TYPES[code] ?? 'other';
}

/** Checks that a result's `cardType` agrees with its raw `cardTypeCode` before encoding it. */
export function checkCardType(cardType: CardType | 'other', code: string): void {
  if (!/^[0-9]{2}$/.test(code)) throw new InvalidArgumentError('cardTypeCode must be two digits.');
  if (cardTypeOf(code) !== cardType) {
    throw new InvalidArgumentError(`cardType "${cardType}" does not match cardTypeCode "${code}".`);
  }
}

/** GOC_DECISION / PP_GOXRES digit 1. */
export type ChipDecision = 'approvedOffline' | 'declined' | 'goOnline';
export const CHIP_DECISIONS: readonly ChipDecision[] = ['approvedOffline', 'declined', 'goOnline'];

/** GOC_METHOD / SPE_MTHDPIN: "1" MK/WK TDES, "3" DUKPT TDES. */
export type PinMethod = 'mkwk' | 'dukpt';
export const PIN_METHOD_CODES: Readonly<Record<PinMethod, string>> = { mkwk: '1', dukpt: '3' };

export function pinMethodOf(code: string): PinMethod | undefined {
  return code === '1' ? 'mkwk' : code === '3' ? 'dukpt' : undefined;
}

/** A row of the AID tables: TAB_ACQ (N2) + TAB_RECIDX (A2), written "AARR" in lists. */
export interface AidRef {
  readonly acquirer: number;
  readonly record: string;
}

export function encodeAidRef(ref: AidRef, name: string): string {
  checkRecordIndex(ref.record, `${name} record`);
  return new FieldWriter()
    .n(`${name} acquirer`, ref.acquirer, 2)
    .a(`${name} record`, ref.record, 2)
    .toBuffer()
    .toString('latin1');
}

/** Parses one "AARR" entry (already cut to four characters). */
export function decodeAidRef(text: string, what: string, code: FormatCode): AidRef {
  if (!/^[0-9]{2}[\x21-\x7e]{2}$/.test(text)) {
    throw formatError(code, `Malformed ${what}: an AID table reference must be two digits and a record index.`);
  }
  return { acquirer: Number(text.slice(0, 2)), record: text.slice(2) };
}

/** Checks a record index given by a caller: exactly two printable ASCII characters. */
export function checkRecordIndex(record: string, name: string): void {
  if (!/^[\x21-\x7e]{2}$/.test(record)) {
    throw new InvalidArgumentError(`${name} must be two printable ASCII characters (TAB_RECIDX).`);
  }
}

/** Removes properties whose value is undefined, so decoded objects compare equal to inputs. */
export function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = item;
  return out as T;
}

export function formatError(code: FormatCode, message: string, status: 11 | 19 = 11): AbecsFormatError {
  return new AbecsFormatError(code, message, code === 'MALFORMED_COMMAND' ? status : 11);
}

/** The single data block of a fixed-field (legacy) command or response. */
export function singleBlock(blocks: readonly Buffer[], what: string, code: FormatCode): Buffer {
  const [block] = blocks;
  if (blocks.length !== 1 || block === undefined) {
    const status = blocks.length === 0 ? 19 : 11;
    throw formatError(code, `Malformed ${what}: expected one data block, got ${blocks.length}.`, status);
  }
  return block;
}

const HEX = /^(?:[0-9A-Fa-f]{2})*$/;

/** Hex text (H field) to bytes, checked first because Buffer.from silently stops at bad digits. */
export function hexToBytes(text: string, what: string, code: FormatCode): Buffer {
  if (!HEX.test(text)) throw formatError(code, `Malformed ${what}: expected an even number of hex digits.`);
  return Buffer.from(text, 'hex');
}

/** Builds the TLV parameters of an Abecs command or response in a fixed order. */
export class ParamWriter {
  readonly #items: Tlv[] = [];

  /** Fixed-length N field. */
  n(id: number, name: string, value: number | string, length: number): this {
    return this.#push(id, new FieldWriter().n(name, value, length).toBuffer());
  }

  /** Variable-length N field (N..max). */
  digits(id: number, name: string, value: string, min: number, max: number): this {
    if (!/^[0-9]*$/.test(value)) throw new InvalidArgumentError(`${name} must contain digits only.`);
    this.#checkLength(name, value.length, min, max);
    return this.#push(id, Buffer.from(value, 'latin1'));
  }

  /** A field (printable ASCII) of min..max characters, sent as given. */
  ascii(id: number, name: string, value: string, min: number, max: number): this {
    this.#checkLength(name, value.length, min, max);
    return this.#push(id, new FieldWriter().a(name, value, value.length).toBuffer());
  }

  /** S field (ISO-8859-1) of min..max characters, sent as given. */
  latin1(id: number, name: string, value: string, min: number, max: number): this {
    this.#checkLength(name, value.length, min, max);
    return this.#push(id, new FieldWriter().s(name, value, value.length).toBuffer());
  }

  bytes(id: number, name: string, value: Uint8Array, min: number, max: number): this {
    this.#checkLength(name, value.length, min, max, 'bytes');
    return this.#push(id, Buffer.from(value));
  }

  /** X1 field: one binary byte. */
  x1(id: number, name: string, value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xff) {
      throw new InvalidArgumentError(`${name} must be an integer from 0 to 255.`);
    }
    return this.#push(id, Buffer.of(value));
  }

  blocks(): Buffer[] {
    return tlvsToBlocks(this.#items);
  }

  #push(id: number, value: Buffer): this {
    this.#items.push({ id, value });
    return this;
  }

  #checkLength(name: string, length: number, min: number, max: number, unit = 'characters'): void {
    if (length < min || length > max) {
      throw new InvalidArgumentError(
        min === max
          ? `${name} must have exactly ${min} ${unit}, got ${length}.`
          : `${name} must have ${min} to ${max} ${unit}, got ${length}.`,
      );
    }
  }
}

/** Reads the TLV parameters of an Abecs command or response, checking each value's format. */
export class ParamReader {
  readonly #list: TlvList;
  readonly #what: string;
  readonly #code: FormatCode;

  constructor(blocks: readonly Buffer[], what: string, code: FormatCode) {
    this.#what = what;
    this.#code = code;
    this.#list = TlvList.fromBlocks(blocks, code);
  }

  has(id: number): boolean {
    return this.#list.has(id);
  }

  /** Fails with ST_MANDAT (019) when a mandatory parameter is absent. */
  required<T>(value: T | undefined, name: string): T {
    if (value === undefined) throw formatError(this.#code, `Malformed ${this.#what}: ${name} is missing.`, 19);
    return value;
  }

  bytes(id: number, name: string, min: number, max: number): Buffer | undefined {
    const value = this.#list.get(id);
    if (value === undefined) return undefined;
    if (value.length < min || value.length > max) {
      throw this.error(`${name} has ${value.length} bytes; expected ${min === max ? min : `${min} to ${max}`}`);
    }
    return Buffer.from(value);
  }

  digits(id: number, name: string, min: number, max: number): string | undefined {
    const text = this.bytes(id, name, min, max)?.toString('latin1');
    if (text !== undefined && !/^[0-9]*$/.test(text)) throw this.error(`${name} must be digits`);
    return text;
  }

  /** Fixed-length N field as a number. */
  number(id: number, name: string, length: number): number | undefined {
    const text = this.digits(id, name, length, length);
    return text === undefined ? undefined : Number(text);
  }

  ascii(id: number, name: string, min: number, max: number): string | undefined {
    const text = this.bytes(id, name, min, max)?.toString('latin1');
    if (text !== undefined && !/^[\x20-\x7e]*$/.test(text)) throw this.error(`${name} must be printable ASCII`);
    return text;
  }

  latin1(id: number, name: string, min: number, max: number): string | undefined {
    return this.bytes(id, name, min, max)?.toString('latin1');
  }

  x1(id: number, name: string): number | undefined {
    return this.bytes(id, name, 1, 1)?.[0];
  }

  error(detail: string): AbecsFormatError {
    return formatError(this.#code, `Malformed ${this.#what}: ${detail}.`);
  }
}

/** A digit string that must already have its exact length (dates, codes): no silent padding. */
export function checkDigits(name: string, value: string, length: number): void {
  if (value.length !== length || !/^[0-9]*$/.test(value)) {
    throw new InvalidArgumentError(`${name} must be exactly ${length} digits.`);
  }
}

/** Checks an ASCII text given by a caller against a fixed field size (before padding). */
export function checkAscii(name: string, value: string, max: number): void {
  if (value.length > max || !/^[\x20-\x7e]*$/.test(value)) {
    throw new InvalidArgumentError(`${name} must be printable ASCII of at most ${max} characters.`);
  }
}

/** Legacy tag lists (GOC_TAGS1/2, FNC_TAGS) carry at most 128 bytes (H..256). */
const MAX_LEGACY_TAG_BYTES = 128;

/** A legacy tag-list block: N3 byte count + the tags as hex. */
export function encodeLegacyTagBlock(name: string, tags: readonly string[]): Buffer {
  const list = encodeTagList(tags);
  if (list.length > MAX_LEGACY_TAG_BYTES) {
    throw new InvalidArgumentError(`${name} has ${list.length} bytes of tags; at most ${MAX_LEGACY_TAG_BYTES}.`);
  }
  return new FieldWriter().n(`${name} length`, list.length, 3).h(name, list.toString('hex')).toBuffer();
}

export function decodeLegacyTagBlock(block: Buffer | undefined, what: string, name: string): string[] {
  if (block === undefined)
    throw formatError('MALFORMED_COMMAND', `Malformed ${what}: the ${name} block is missing.`, 19);
  const r = new FieldReader(block, what, 'MALFORMED_COMMAND');
  const length = r.n(`${name}LEN`, 3);
  const tags = decodeTagList(hexToBytes(r.hex(name, length * 2), what, 'MALFORMED_COMMAND'), 'MALFORMED_COMMAND');
  r.end();
  return tags;
}

/** An N1 yes/no flag ("0"/"1"). */
export function readFlag(r: FieldReader, name: string): boolean {
  const digit = r.digits(name, 1);
  if (digit !== '0' && digit !== '1') throw r.error(`${name} must be 0 or 1`);
  return digit === '1';
}
