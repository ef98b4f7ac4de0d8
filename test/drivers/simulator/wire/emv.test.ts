/**
 * EMV objects in BER-TLV (S220 §7.1) and tag lists, with the GED example of §3.7.2 and the issuer
 * data of the FNC and FCX examples (§3.6.4, §3.7.4).
 */
import { describe, expect, it } from 'vitest';
import { decodeEmvObjects, decodeTagList, encodeEmvObjects } from '../../../../drivers/simulator/wire/emv.js';
import { WireStatusError } from '../../../../drivers/simulator/wire/errors.js';
import { hex } from './bytes.js';

/** GED000029's PP_EMVDATA: 9F07 (AUC), 4F (AID) and the proprietary DF55. */
const GED_EMVDATA = hex('9F 07 02 FF 00 4F 07 A0 00 00 00 03 10 10 DF 55 08 11 22 33 44 55 66 77 88');

describe('EMV objects (§7.1)', () => {
  it('reads one- and two-byte tags with their values (the GED answer of §3.7.2)', () => {
    expect(decodeEmvObjects(GED_EMVDATA)).toEqual([
      { tag: '9F07', value: hex('FF 00') },
      { tag: '4F', value: hex('A0 00 00 00 03 10 10') },
      { tag: 'DF55', value: hex('11 22 33 44 55 66 77 88') },
    ]);
  });

  it('writes them back in the shortest length form', () => {
    expect(encodeEmvObjects(decodeEmvObjects(GED_EMVDATA))).toEqual(GED_EMVDATA);
    expect(encodeEmvObjects([{ tag: '71', value: Buffer.alloc(130) }]).subarray(0, 3)).toEqual(hex('71 81 82'));
  });

  it('reads the issuer data of the FCX example (§3.7.4): 91 and a script 72', () => {
    const data = hex('91 08 A1 02 DB 6D 41 C6 79 63 72 12 9F 18 00 86 0D 84 24 00 00 08 A0 71 54 4A 23 76 1A A1');
    expect(decodeEmvObjects(data).map((object) => [object.tag, object.value.length])).toEqual([
      ['91', 8],
      ['72', 18],
    ]);
  });

  it('skips 00h bytes before, between and after objects', () => {
    expect(decodeEmvObjects(hex('00 00 9A 03 25 03 01 00 9C 01 00 00'))).toEqual([
      { tag: '9A', value: hex('25 03 01') },
      { tag: '9C', value: hex('00') },
    ]);
  });

  it('reads the long length form (81h, 82h)', () => {
    expect(decodeEmvObjects(Buffer.concat([hex('72 81 80'), Buffer.alloc(128, 1)]))[0]?.value.length).toBe(128);
    expect(decodeEmvObjects(Buffer.concat([hex('72 82 01 00'), Buffer.alloc(256, 1)]))[0]?.value.length).toBe(256);
  });

  it('answers ST_INVPARM to a broken structure', () => {
    for (const bad of ['9F', '9F 26', '9F 26 08 01 02', '72 80 01', '72 81'])
      expect(() => decodeEmvObjects(hex(bad))).toThrow(WireStatusError);
  });
});

describe('tag lists', () => {
  it('reads concatenated tags (the GED011 of §3.7.2, the FNC_TAGS of §3.6.4)', () => {
    expect(decodeTagList(hex('9F 07 9F 08 4F DF 55'))).toEqual(['9F07', '9F08', '4F', 'DF55']);
    expect(decodeTagList(hex('82 9F 27 9F 26 9F 36 95 8F 9F 37'))).toEqual([
      '82',
      '9F27',
      '9F26',
      '9F36',
      '95',
      '8F',
      '9F37',
    ]);
  });

  it('reads three-byte tags and refuses a tag cut short', () => {
    expect(decodeTagList(hex('DF 81 24 9F 6E'))).toEqual(['DF8124', '9F6E']);
    expect(() => decodeTagList(hex('9F'))).toThrow(WireStatusError);
  });
});
