import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
  nonEmptyBlocks,
} from '../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../drivers/abecs/format-error.js';
import { InvalidArgumentError } from '../../../drivers/errors.js';

const ascii = (s: string): Buffer => Buffer.from(s, 'latin1');

describe('command envelopes', () => {
  it('writes the id and each block behind its N3 length', () => {
    expect(encodeCommandPacket({ id: 'GIN', blocks: [ascii('00')] })).toEqual(ascii('GIN00200'));
    expect(encodeCommandPacket({ id: 'OPN', blocks: [] })).toEqual(ascii('OPN'));
    expect(encodeCommandPacket({ id: 'GIX', blocks: [Buffer.alloc(0)] })).toEqual(ascii('GIX000'));
  });

  it('accepts both the bare form and the empty-block form when decoding', () => {
    expect(nonEmptyBlocks(decodeCommandPacket(ascii('OPN')).blocks)).toEqual([]);
    expect(nonEmptyBlocks(decodeCommandPacket(ascii('OPN000')).blocks)).toEqual([]);
  });

  it('refuses blocks over 999 bytes and ids that are not three capital letters', () => {
    expect(() => encodeCommandPacket({ id: 'DSP', blocks: [Buffer.alloc(1000)] })).toThrow(InvalidArgumentError);
    expect(() => encodeCommandPacket({ id: 'dsp', blocks: [] })).toThrow(InvalidArgumentError);
  });

  it('reports malformed commands with ST_INVPARM as the status to answer', () => {
    for (const bad of ['DS', 'DSP0', 'DSP01', 'DSPx10abc', 'DSP005ab']) {
      const error = (() => {
        try {
          decodeCommandPacket(ascii(bad));
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error, bad).toBeInstanceOf(AbecsFormatError);
      expect((error as AbecsFormatError).code).toBe('MALFORMED_COMMAND');
      expect((error as AbecsFormatError).status).toBe(11);
    }
  });

  it('round-trips any blocks', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 999 }), { maxLength: 3 }), (blocks) => {
        const env = { id: 'ABC', blocks: blocks.map((b) => Buffer.from(b)) };
        expect(decodeCommandPacket(encodeCommandPacket(env))).toEqual(env);
      }),
      { numRuns: 100 },
    );
  });
});

describe('response envelopes', () => {
  it('reads the status and the data blocks', () => {
    expect(decodeResponsePacket(ascii('GCD013'))).toEqual({ id: 'GCD', status: 13, blocks: [] });
    expect(decodeResponsePacket(ascii('GIN00000512345'))).toEqual({ id: 'GIN', status: 0, blocks: [ascii('12345')] });
    expect(nonEmptyBlocks(decodeResponsePacket(ascii('CLO000000')).blocks)).toEqual([]);
  });

  it('never writes data behind an error status', () => {
    expect(encodeResponsePacket({ id: 'GCR', status: 20, blocks: [ascii('x')] })).toEqual(ascii('GCR020'));
  });

  it('answers an unknown command as ERR010', () => {
    expect(encodeResponsePacket({ id: 'ERR', status: 10, blocks: [] })).toEqual(ascii('ERR010'));
  });

  it('raises MALFORMED_RESPONSE for anything that is not an envelope, and nothing else', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 50 }), (garbage) => {
        try {
          decodeResponsePacket(Buffer.from(garbage));
        } catch (error) {
          expect(error).toBeInstanceOf(AbecsFormatError);
          expect((error as AbecsFormatError).code).toBe('MALFORMED_RESPONSE');
        }
      }),
      { numRuns: 300 },
    );
  });
});
