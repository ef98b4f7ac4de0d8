/**
 * fast-check arbitraries and checks shared by the basic command codec tests.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../../../../drivers/abecs/codec.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { encodeFrame } from '../../../../drivers/abecs/frame.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import { formatDisplay2x16 } from '../../../../drivers/abecs/text.js';

/** Wire bytes of a command, as hex "16 4F 50 4E …". */
export function wireHex(cmd: CommandEnvelope): string {
  return hex(encodeFrame(encodeCommandPacket(cmd)));
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase().match(/../g)!.join(' ');
}

export function fromHex(text: string): Buffer {
  return Buffer.from(text.replace(/\s+/g, ''), 'hex');
}

/** Printable Latin-1 characters that toLatin1Display keeps unchanged. */
const displayCodes = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }),
  fc.integer({ min: 0xa1, max: 0xff }).filter((code) => code !== 0xad),
);
export const displayChar = displayCodes.map((code) => String.fromCharCode(code));
export const asciiChar = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));

export function displayText(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  return fc.string({ unit: displayChar, minLength, maxLength });
}

export function asciiText(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  return fc.string({ unit: asciiChar, minLength, maxLength });
}

/** Text without trailing spaces (fields whose padding is trimmed on decode). */
export function trimmedText(maxLength: number, unit = displayChar): fc.Arbitrary<string> {
  return fc.string({ unit, maxLength }).map((s) => s.replace(/ +$/, ''));
}

/** A canonical 2×16 message: what formatDisplay2x16 produces. */
export const display2x16 = fc
  .tuple(displayText(16), displayText(16))
  .map(([line1, line2]) => formatDisplay2x16(`${line1}\n${line2}`));

/** Free text with "\n" line breaks whose wire form (CR breaks) fits `maxLength`. */
export function freeText(maxLength: number): fc.Arbitrary<string> {
  return fc
    .array(displayText(40), { minLength: 1, maxLength: 4 })
    .map((lines) => lines.join('\n'))
    .filter((text) => text.length > 0 && text.length <= maxLength);
}

export const upperHex = (chars: number): fc.Arbitrary<string> =>
  fc
    .uint8Array({ minLength: chars / 2, maxLength: chars / 2 })
    .map((b) => Buffer.from(b).toString('hex').toUpperCase());

/** Random blocks: raw bytes, or well-formed TLVs with the given ids and random values. */
export function garbageBlocks(ids: readonly number[]): fc.Arbitrary<Buffer[]> {
  const raw = fc.uint8Array({ maxLength: 120 }).map((b) => Buffer.from(b));
  const tlvBlock = fc
    .array(
      fc.record({
        id:
          ids.length > 0
            ? fc.oneof(fc.constantFrom(...ids), fc.integer({ min: 0, max: 0xffff }))
            : fc.integer({ min: 0, max: 0xffff }),
        value: fc.uint8Array({ maxLength: 40 }),
      }),
      { maxLength: 6 },
    )
    .map((tlvs) => Buffer.concat(tlvs.map((t) => encodeTlv(t.id, t.value))));
  const digits = fc
    .string({ unit: fc.constantFrom(...'0123456789 ABC'.split('')), maxLength: 120 })
    .map((s) => Buffer.from(s, 'latin1'));
  return fc.array(fc.oneof(raw, tlvBlock, digits), { maxLength: 3 });
}

/** Decoders given garbage either return or throw AbecsFormatError — nothing else. */
export function checkGarbage<Req, Res>(codec: CommandCodec<Req, Res>, ids: readonly number[] = []): void {
  fc.assert(
    fc.property(garbageBlocks(ids), (blocks) => {
      const cmd: CommandEnvelope = { id: codec.id, blocks };
      const rsp: ResponseEnvelope = { id: codec.id, status: 0, blocks };
      for (const decode of [() => codec.decodeRequest(cmd), () => codec.decodeResponse(rsp)]) {
        try {
          decode();
        } catch (error) {
          expect(error).toBeInstanceOf(AbecsFormatError);
        }
      }
    }),
    { numRuns: 300 },
  );
}

/** decodeRequest ∘ encodeRequest = identity for generated requests, through the packet bytes. */
export function checkRequestRoundTrip<Req, Res>(codec: CommandCodec<Req, Res>, requests: fc.Arbitrary<Req>): void {
  fc.assert(
    fc.property(requests, (req) => {
      expect(codec.decodeRequest(decodeCommandPacket(encodeCommandPacket(codec.encodeRequest(req))))).toEqual(req);
    }),
  );
}

/** decodeResponse ∘ encodeResponse = identity for generated results, through the packet bytes. */
export function checkResponseRoundTrip<Req, Res>(codec: CommandCodec<Req, Res>, results: fc.Arbitrary<Res>): void {
  fc.assert(
    fc.property(results, (res) => {
      expect(codec.decodeResponse(decodeResponsePacket(encodeResponsePacket(codec.encodeResponse(res))))).toEqual(res);
    }),
  );
}

/** The AbecsFormatError `fn` throws (fails the test when it throws nothing or something else). */
export function formatErrorOf(fn: () => unknown): AbecsFormatError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(AbecsFormatError);
    return error as AbecsFormatError;
  }
  throw new Error('expected an AbecsFormatError, nothing was thrown');
}
