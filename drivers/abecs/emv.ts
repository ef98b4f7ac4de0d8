/**
 * EMV BER-TLV (EMV Book 3 Annex B), the format of PP_EMVDATA, SPE_EMVDATA and the legacy
 * GOC_EMVDAT / FNC_ISSDAT fields, plus tag lists (SPE_TAGLIST, GOC_TAGS1…): tags concatenated
 * without lengths.
 *
 * - Tag: if the low five bits of the first byte are all set (1Fh), more tag bytes follow, each
 *   with bit 8 set except the last.
 * - Length: 00h–7Fh is the length itself; 81h xx and 82h xx xx carry it in 1 or 2 bytes. Longer
 *   forms and the indefinite form (80h) do not occur in EMV and are rejected.
 *
 * Values often hold card data (tracks, cryptograms), so error messages name tags and offsets,
 * never values.
 */
import { InvalidArgumentError } from '../errors.js';
import { AbecsFormatError } from './format-error.js';

export interface EmvTlv {
  /** Upper-case hex of the whole tag, e.g. "9F27". */
  readonly tag: string;
  readonly value: Buffer;
}

type FormatCode = 'MALFORMED_RESPONSE' | 'MALFORMED_COMMAND';

/** EMV tags are 1–3 bytes in practice; four leaves room for proprietary ones. */
const MAX_TAG_BYTES = 4;
const MAX_VALUE = 0xffff;

/** Length of the tag starting at `at`; -1 when the data ends inside it, 0 when it is too long. */
function tagLength(buf: Buffer, at: number): number {
  const first = buf[at];
  if (first === undefined) return -1;
  if ((first & 0x1f) !== 0x1f) return 1;
  for (let length = 2; length <= MAX_TAG_BYTES; length++) {
    const next = buf[at + length - 1];
    if (next === undefined) return -1;
    if ((next & 0x80) === 0) return length;
  }
  return 0;
}

function readTag(buf: Buffer, at: number, what: string, code: FormatCode): string {
  const length = tagLength(buf, at);
  if (length === -1) throw new AbecsFormatError(code, `Malformed ${what}: a tag is cut short at offset ${at}.`);
  if (length === 0) {
    throw new AbecsFormatError(
      code,
      `Malformed ${what}: the tag at offset ${at} is longer than ${MAX_TAG_BYTES} bytes.`,
    );
  }
  return buf
    .subarray(at, at + length)
    .toString('hex')
    .toUpperCase();
}

/** Parses concatenated BER-TLV objects (no nesting: constructed values stay raw). */
export function decodeEmvTlv(buf: Buffer, code: FormatCode = 'MALFORMED_RESPONSE'): EmvTlv[] {
  const items: EmvTlv[] = [];
  let at = 0;
  while (at < buf.length) {
    const tag = readTag(buf, at, 'EMV data', code);
    at += tag.length / 2;
    const first = buf[at];
    if (first === undefined) {
      throw new AbecsFormatError(code, `Malformed EMV data: tag ${tag} has no length.`);
    }
    let length: number;
    if (first < 0x80) {
      length = first;
      at += 1;
    } else if (first === 0x81 || first === 0x82) {
      const size = first - 0x80;
      if (at + 1 + size > buf.length) {
        throw new AbecsFormatError(code, `Malformed EMV data: the length of tag ${tag} is cut short.`);
      }
      length = buf.readUIntBE(at + 1, size);
      at += 1 + size;
    } else {
      throw new AbecsFormatError(code, `Malformed EMV data: tag ${tag} has an unsupported length form.`);
    }
    if (at + length > buf.length) {
      throw new AbecsFormatError(
        code,
        `Malformed EMV data: tag ${tag} declares ${length} bytes, only ${buf.length - at} left.`,
      );
    }
    items.push({ tag, value: buf.subarray(at, at + length) });
    at += length;
  }
  return items;
}

/** Checks a tag given by a caller and returns its bytes. */
function tagBytes(tag: string): Buffer {
  if (!/^(?:[0-9A-Fa-f]{2})+$/.test(tag)) {
    throw new InvalidArgumentError(`EMV tag "${tag}" must be an even number of hex digits.`);
  }
  const bytes = Buffer.from(tag, 'hex');
  if (tagLength(bytes, 0) !== bytes.length) {
    throw new InvalidArgumentError(`"${tag}" is not a well-formed EMV tag.`);
  }
  return bytes;
}

function encodeLength(length: number, tag: string): Buffer {
  if (length < 0x80) return Buffer.of(length);
  if (length <= 0xff) return Buffer.of(0x81, length);
  if (length <= MAX_VALUE) return Buffer.of(0x82, length >> 8, length & 0xff);
  throw new InvalidArgumentError(`EMV tag ${tag} value has ${length} bytes; at most ${MAX_VALUE}.`);
}

export function encodeEmvTlv(items: readonly EmvTlv[]): Buffer {
  const parts: Buffer[] = [];
  for (const item of items) {
    parts.push(tagBytes(item.tag), encodeLength(item.value.length, item.tag), Buffer.from(item.value));
  }
  return Buffer.concat(parts);
}

/** A tag list as the PINPAD expects it: tags concatenated, no lengths. */
export function encodeTagList(tags: readonly string[]): Buffer {
  return Buffer.concat(tags.map(tagBytes));
}

export function decodeTagList(buf: Buffer, code: FormatCode = 'MALFORMED_RESPONSE'): string[] {
  const tags: string[] = [];
  let at = 0;
  while (at < buf.length) {
    const tag = readTag(buf, at, 'EMV tag list', code);
    tags.push(tag);
    at += tag.length / 2;
  }
  return tags;
}

/**
 * EMV objects that hold the PAN, track data or the cardholder's name: whatever leaves the PINPAD
 * for a log, a trace or a journal must not carry them (the sale drops them, the trace removes them).
 */
export const CARD_DATA_TAGS: ReadonlySet<string> = new Set([
  '56', // track 1 equivalent data
  '57', // track 2 equivalent data
  '5A', // PAN
  '5F20', // cardholder name
  '9F0B', // cardholder name extended
  '9F1F', // track 1 discretionary data
  '9F20', // track 2 discretionary data
  '9F6B', // track 2 data (contactless magnetic stripe)
]);
