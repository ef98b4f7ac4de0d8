import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { blocksToTlvs, decodeTlvBlock, encodeTlv, TlvList, tlvsToBlocks } from '../../../drivers/abecs/tlv.js';
import { AbecsFormatError } from '../../../drivers/abecs/format-error.js';
import { InvalidArgumentError } from '../../../drivers/errors.js';

const hex = (s: string): Buffer => Buffer.from(s.replace(/\s+/g, ''), 'hex');

describe('TLV parameters', () => {
  it('encode the id and the length as binary big-endian X2', () => {
    expect(encodeTlv(0x000c, hex('3C'))).toEqual(hex('00 0C 00 01 3C'));
    expect(encodeTlv(0x804d, Buffer.from('169937823'))).toEqual(
      Buffer.concat([hex('80 4D 00 09'), Buffer.from('169937823')]),
    );
  });

  it('refuse values over 995 bytes', () => {
    expect(() => encodeTlv(1, Buffer.alloc(996))).toThrow(InvalidArgumentError);
  });

  it('decode the GCD example parameters in order', () => {
    expect(decodeTlvBlock(hex('00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09'))).toEqual([
      { id: 0x0c, value: hex('3C') },
      { id: 0x0e, value: hex('0A') },
      { id: 0x0b, value: hex('00 09') },
    ]);
  });

  it('report a broken structure as ST_INVPARM', () => {
    for (const bad of ['00', '00 0C 00', '00 0C 00 02 3C']) {
      expect(() => decodeTlvBlock(hex(bad), 'MALFORMED_COMMAND')).toThrow(AbecsFormatError);
    }
  });

  it('keep every parameter whole when splitting into ≤ 999-byte blocks', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ id: fc.integer({ min: 0, max: 0xffff }), value: fc.uint8Array({ maxLength: 995 }) }), {
          maxLength: 8,
        }),
        (items) => {
          const tlvs = items.map((t) => ({ id: t.id, value: Buffer.from(t.value) }));
          const blocks = tlvsToBlocks(tlvs);
          for (const block of blocks) expect(block.length).toBeLessThanOrEqual(999);
          expect(blocksToTlvs(blocks)).toEqual(tlvs);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('let the first of repeated ids win, while keeping all of them reachable', () => {
    const list = new TlvList([
      { id: 0x20, value: Buffer.from('A') },
      { id: 0x20, value: Buffer.from('B') },
    ]);
    expect(list.text(0x20)).toBe('A');
    expect(list.all(0x20).map((b) => b.toString())).toEqual(['A', 'B']);
    expect(list.has(0x21)).toBe(false);
  });
});
