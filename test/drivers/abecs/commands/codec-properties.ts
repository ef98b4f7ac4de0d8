/**
 * Property checks shared by the command codec tests: round trips through real packets, and
 * garbage that must either decode or raise AbecsFormatError (never a TypeError, a RangeError or
 * an InvalidArgumentError leaking out of a decoder).
 */
import { expect, it } from 'vitest';
import fc from 'fast-check';
import type { CommandCodec } from '../../../../drivers/abecs/codec.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import { PP, SPE } from '../../../../drivers/abecs/ids.js';

/** Decoders leave absent optional fields out instead of setting them to undefined. */
function expectNoUndefinedKeys(value: unknown): void {
  expect(Object.values(value as object)).not.toContain(undefined);
}

export function requestRoundTrip<Req>(codec: CommandCodec<Req, unknown>, arb: fc.Arbitrary<Req>): void {
  fc.assert(
    fc.property(arb, (req) => {
      const packet = encodeCommandPacket(codec.encodeRequest(req));
      const decoded = codec.decodeRequest(decodeCommandPacket(packet));
      // toEqual, not toStrictEqual: fast-check builds records without a prototype.
      expect(decoded).toEqual(req);
      expectNoUndefinedKeys(decoded);
    }),
    { numRuns: 300 },
  );
}

export function responseRoundTrip<Res>(codec: CommandCodec<unknown, Res>, arb: fc.Arbitrary<Res>): void {
  fc.assert(
    fc.property(arb, (res) => {
      const packet = encodeResponsePacket(codec.encodeResponse(res));
      const decoded = codec.decodeResponse(decodeResponsePacket(packet));
      expect(decoded).toEqual(res);
      expectNoUndefinedKeys(decoded);
    }),
    { numRuns: 300 },
  );
}

/** Digits, spaces and random bytes: fixed-field garbage that gets past the first checks. */
const fieldGarbage = fc.oneof(
  fc.uint8Array({ maxLength: 400 }).map((bytes) => Buffer.from(bytes)),
  fc
    .string({ unit: fc.constantFrom('0', '1', '2', '9', ' ', 'A', 'F'), maxLength: 400 })
    .map((text) => Buffer.from(text, 'latin1')),
);

const knownIds = [...Object.values(SPE), ...Object.values(PP)];

/** Well-formed TLV blocks with known ids and junk values, so value checks get exercised. */
const tlvGarbage = fc
  .array(
    fc.record({
      id: fc.constantFrom(...knownIds),
      value: fc.oneof(
        fc.uint8Array({ maxLength: 40 }),
        fc
          .string({ unit: fc.constantFrom('0', '1', '2', '3', '9', 'M'), maxLength: 12 })
          .map((text) => Buffer.from(text, 'latin1')),
      ),
    }),
    { maxLength: 12 },
  )
  .map((items) => Buffer.concat(items.map((item) => encodeTlv(item.id, item.value))));

const blocks = fc.array(fc.oneof(fieldGarbage, tlvGarbage), { maxLength: 4 });

function onlyFormatErrors(decode: () => unknown): void {
  try {
    decode();
  } catch (error) {
    expect(error).toBeInstanceOf(AbecsFormatError);
  }
}

/** Registers the two garbage properties for a codec. */
export function garbageProperties(codec: CommandCodec<unknown, unknown>): void {
  it('decodes garbage commands or rejects them with AbecsFormatError', () => {
    fc.assert(
      fc.property(blocks, (list) => onlyFormatErrors(() => codec.decodeRequest({ id: codec.id, blocks: list }))),
      { numRuns: 500 },
    );
  });

  it('decodes garbage responses or rejects them with AbecsFormatError', () => {
    const statuses = [0, ...(codec.resultStatuses ?? [])];
    fc.assert(
      fc.property(blocks, fc.constantFrom(...statuses), (list, status) =>
        onlyFormatErrors(() => codec.decodeResponse({ id: codec.id, status, blocks: list })),
      ),
      { numRuns: 500 },
    );
  });
}

/** Printable ASCII without trailing spaces (fixed fields drop their padding when decoded). */
export function asciiText(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  return fc
    .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength, maxLength })
    .map((text) => text.replace(/ +$/, ''))
    .filter((text) => text.length >= minLength);
}

/** Printable ASCII kept exactly (variable-length fields). */
export function rawAscii(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  return fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    minLength,
    maxLength,
  });
}

export function latin1Text(maxLength: number, minLength = 0): fc.Arbitrary<string> {
  return fc.string({
    unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)),
    minLength,
    maxLength,
  });
}

export function digitText(length: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
}

export function upperHex(bytes: number): fc.Arbitrary<string> {
  return fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex').toUpperCase());
}

export function bytesOf(maxLength: number, minLength = 0): fc.Arbitrary<Buffer> {
  return fc.uint8Array({ minLength, maxLength }).map((b) => Buffer.from(b));
}

export const recordIndex: fc.Arbitrary<string> = fc.string({
  unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
  minLength: 2,
  maxLength: 2,
});

/** Well-formed EMV tags: one byte, or 1Fh-style multi-byte. */
export const emvTag: fc.Arbitrary<string> = fc.oneof(
  fc
    .integer({ min: 0, max: 0xff })
    .filter((b) => (b & 0x1f) !== 0x1f)
    .map((b) => b.toString(16).toUpperCase().padStart(2, '0')),
  fc
    .tuple(
      fc.integer({ min: 0, max: 7 }),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 2 }),
      fc.integer({ min: 0, max: 0x7f }),
    )
    .map(([top, middle, last]) =>
      Buffer.from([(top << 5) | 0x1f, ...middle, last])
        .toString('hex')
        .toUpperCase(),
    ),
);

/** Runs `fn` and checks it throws an AbecsFormatError with the given status and code. */
export function expectFormatError(fn: () => unknown, expected: { status?: 11 | 19; code?: string }): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(AbecsFormatError);
  const error = caught as AbecsFormatError;
  if (expected.status !== undefined) expect(error.status).toBe(expected.status);
  if (expected.code !== undefined) expect(error.code).toBe(expected.code);
}
