/**
 * EMV data objects in BER-TLV (S220 §7.1, ISO/IEC 8825), as they travel in SPE_EMVDATA,
 * PP_EMVDATA, GOC_EMVDAT, FNC_ISSDAT…, and tag lists (SPE_TAGLIST, GOC_TAGS1/2, FNC_TAGS): tags
 * simply concatenated.
 *
 * - Tag: one byte, or more when bits b5–b1 of the first are 11111; then each further byte has
 *   b8 = 1 while another follows.
 * - Length: b8 = 0 → one byte, 0–127; b8 = 1 → b7–b1 count the length bytes that follow.
 * - 00h bytes may stand before, between or after objects, meaning nothing.
 *
 * A structure that breaks these rules is ST_INVPARM (S220 §6.8.3).
 */
import { invalid } from './fields.js';

export interface EmvObject {
  /** The tag's bytes as uppercase hex, e.g. "9F26". */
  readonly tag: string;
  readonly value: Buffer;
}

function readTag(data: Buffer, at: number): number {
  let end = at + 1;
  if ((data[at]! & 0x1f) === 0x1f) {
    while (end < data.length && data[end]! & 0x80) end++;
    end++;
  }
  if (end > data.length) throw invalid(`An EMV tag at byte ${at} is cut short.`);
  return end;
}

/** The objects of a BER-TLV buffer, in order. */
export function decodeEmvObjects(data: Uint8Array): EmvObject[] {
  const buffer = Buffer.from(data);
  const objects: EmvObject[] = [];
  let at = 0;
  while (at < buffer.length) {
    if (buffer[at] === 0x00) {
      at++;
      continue;
    }
    const tagEnd = readTag(buffer, at);
    const tag = buffer.subarray(at, tagEnd).toString('hex').toUpperCase();
    if (tagEnd >= buffer.length) throw invalid(`EMV object ${tag} has no length.`);
    let length = buffer[tagEnd]!;
    let valueStart = tagEnd + 1;
    if (length & 0x80) {
      const count = length & 0x7f;
      if (count === 0 || count > 3 || valueStart + count > buffer.length)
        throw invalid(`EMV object ${tag} has a malformed length.`);
      length = buffer.readUIntBE(valueStart, count);
      valueStart += count;
    }
    if (valueStart + length > buffer.length) throw invalid(`EMV object ${tag} runs past the end of the data.`);
    objects.push({ tag, value: Buffer.from(buffer.subarray(valueStart, valueStart + length)) });
    at = valueStart + length;
  }
  return objects;
}

/** The tags of a concatenated tag list, in order. */
export function decodeTagList(data: Uint8Array): string[] {
  const buffer = Buffer.from(data);
  const tags: string[] = [];
  let at = 0;
  while (at < buffer.length) {
    if (buffer[at] === 0x00) {
      at++;
      continue;
    }
    const end = readTag(buffer, at);
    tags.push(buffer.subarray(at, end).toString('hex').toUpperCase());
    at = end;
  }
  return tags;
}

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.of(length);
  if (length <= 0xff) return Buffer.of(0x81, length);
  if (length <= 0xffff) return Buffer.of(0x82, length >> 8, length & 0xff);
  throw new RangeError(`An EMV value of ${length} bytes is too long.`);
}

/** BER-TLV of the objects, in order (lengths in the shortest form). */
export function encodeEmvObjects(objects: readonly EmvObject[]): Buffer {
  return Buffer.concat(
    objects.flatMap(({ tag, value }) => {
      if (!/^(?:[0-9A-Fa-f]{2})+$/.test(tag)) throw new RangeError(`"${tag}" is not an EMV tag.`);
      return [Buffer.from(tag, 'hex'), encodeLength(value.length), value];
    }),
  );
}
