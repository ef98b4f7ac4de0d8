import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decodeEmvTlv, decodeTagList, encodeEmvTlv, encodeTagList } from '../../../drivers/abecs/emv.js';
import { AbecsFormatError } from '../../../drivers/abecs/format-error.js';
import { InvalidArgumentError } from '../../../drivers/errors.js';
import { bytesOf, emvTag } from './commands/codec-properties.js';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

describe('EMV BER-TLV', () => {
  it('decodes the GOC_EMVDAT of the spec example (one- and two-byte tags)', () => {
    const items = decodeEmvTlv(
      hex('820258009F2701809F2608765DC13807D1E4C89F36020006950500100000008F01059F37045A77ACF0'),
    );
    expect(items.map((item) => [item.tag, item.value.toString('hex').toUpperCase()])).toEqual([
      ['82', '5800'],
      ['9F27', '80'],
      ['9F26', '765DC13807D1E4C8'],
      ['9F36', '0006'],
      ['95', '0010000000'],
      ['8F', '05'],
      ['9F37', '5A77ACF0'],
    ]);
  });

  it('reads three-byte tags (1Fh then a byte with bit 8 set)', () => {
    expect(decodeEmvTlv(hex('DF810A0101'))).toEqual([{ tag: 'DF810A', value: hex('01') }]);
  });

  it('reads and writes the 81h and 82h long length forms', () => {
    const v200 = Buffer.alloc(200, 0xaa);
    const v300 = Buffer.alloc(300, 0xbb);
    const encoded = encodeEmvTlv([
      { tag: '71', value: v200 },
      { tag: '72', value: v300 },
    ]);
    expect(encoded.subarray(0, 3)).toEqual(hex('7181C8'));
    expect(encoded.subarray(203, 207)).toEqual(hex('7282012C'));
    expect(decodeEmvTlv(encoded)).toEqual([
      { tag: '71', value: v200 },
      { tag: '72', value: v300 },
    ]);
  });

  it('uses the short form below 128 bytes', () => {
    expect(encodeEmvTlv([{ tag: '9F27', value: hex('80') }])).toEqual(hex('9F270180'));
    expect(encodeEmvTlv([{ tag: '5A', value: Buffer.alloc(127) }]).subarray(0, 2)).toEqual(hex('5A7F'));
  });

  it.each([
    ['a tag cut short', '9F'],
    ['a missing length', '9F27'],
    ['a value longer than the data', '9F270580'],
    ['a long length cut short', '5A82 01'],
    ['the indefinite length form', '5A80'],
    ['a three-byte length form', '5A83000001'],
    ['a tag of more than four bytes', '1F8181818101'],
  ])('rejects %s with AbecsFormatError', (_name, data) => {
    expect(() => decodeEmvTlv(hex(data))).toThrow(AbecsFormatError);
  });

  it('reports malformed commands with the command code when asked to', () => {
    try {
      decodeEmvTlv(hex('9F'), 'MALFORMED_COMMAND');
      expect.unreachable();
    } catch (error) {
      expect((error as AbecsFormatError).code).toBe('MALFORMED_COMMAND');
    }
  });

  it('never puts values into error messages', () => {
    const secret = '5413330089010434';
    try {
      decodeEmvTlv(hex(`5A10${secret}`));
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).not.toContain(secret);
    }
  });

  it('refuses malformed tags when encoding', () => {
    expect(() => encodeEmvTlv([{ tag: '9F', value: Buffer.alloc(0) }])).toThrow(InvalidArgumentError);
    expect(() => encodeEmvTlv([{ tag: '5A5A', value: Buffer.alloc(0) }])).toThrow(InvalidArgumentError);
    expect(() => encodeEmvTlv([{ tag: 'XYZ', value: Buffer.alloc(0) }])).toThrow(InvalidArgumentError);
    expect(() => encodeEmvTlv([{ tag: '5A', value: Buffer.alloc(0x10000) }])).toThrow(InvalidArgumentError);
  });

  it('round-trips any list of well-formed objects', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ tag: emvTag, value: bytesOf(300) }), { maxLength: 8 }), (items) => {
        expect(decodeEmvTlv(encodeEmvTlv(items))).toEqual(items);
      }),
    );
  });

  it('decodes garbage or rejects it with AbecsFormatError', () => {
    fc.assert(
      fc.property(bytesOf(200), (data) => {
        try {
          decodeEmvTlv(data);
          decodeTagList(data);
        } catch (error) {
          expect(error).toBeInstanceOf(AbecsFormatError);
        }
      }),
    );
  });
});

describe('EMV tag lists', () => {
  it('concatenates tags without lengths', () => {
    expect(encodeTagList(['9F26', '95'])).toEqual(hex('9F2695'));
    expect(decodeTagList(hex('829F279F269F36958F9F37'))).toEqual(['82', '9F27', '9F26', '9F36', '95', '8F', '9F37']);
  });

  it('upper-cases tags', () => {
    expect(decodeTagList(encodeTagList(['9f26', 'df55']))).toEqual(['9F26', 'DF55']);
  });

  it('rejects a list ending inside a tag', () => {
    expect(() => decodeTagList(hex('959F'))).toThrow(AbecsFormatError);
  });

  it('round-trips any list of well-formed tags', () => {
    fc.assert(
      fc.property(fc.array(emvTag, { maxLength: 30 }), (tags) => {
        expect(decodeTagList(encodeTagList(tags))).toEqual(tags);
      }),
    );
  });
});
