/**
 * The parameters of the Abecs commands (S220 §3.1.3): X2 id + X2 length (≤ 995) + value, packed
 * in blocks of at most 999 bytes, never straddling two. Examples: the GCD016 of §2.2.2.3, the
 * GIX014 of §3.2.4 and its GIX000151 answer (also in the clear data of §5.2.2.2).
 */
import { describe, expect, it } from 'vitest';
import { crc16 } from '../../../../drivers/simulator/wire/crc.js';
import { ST } from '../../../../drivers/simulator/wire/statuses.js';
import { decodeTlvBlocks, encodeTlvBlocks, item, Params } from '../../../../drivers/simulator/wire/tlv.js';
import { cat, hex, latin1, statusOf } from './bytes.js';

/**
 * The GIX000151 of §3.2.4, after RSP_ID, RSP_STAT and RSP_LEN1: PP_SERNUM, PP_MNNAME, the
 * reserved PP_DKPTDESP map and PP_KSNTDESP01. §5.2.2.2 gives the CRC of the whole response (DATACRC).
 */
const GIX151 = cat(
  hex('80 01 00 0C'),
  '991274366155',
  hex('80 04 00 0D'),
  'HEMISPHERES  ',
  hex('80 34 00 64'),
  '0111001100000000000000000' + '2'.repeat(75),
  hex('91 01 00 0A FF FF F9 13 25 00 43 20 04 43'),
);

describe('reading parameters (§3.1.3.1)', () => {
  it('reads the GCD016 of §2.2.2.3: timeout 60 s, at most 10 digits, message 0009h', () => {
    const params = Params.decode('GCD', [hex('00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09')]);
    expect(params.uint(0x000c, 'SPE_TIMEOUT', 1)).toBe(60);
    expect(params.uint(0x000e, 'SPE_MAXDIG', 1)).toBe(10);
    expect(params.uint(0x000b, 'SPE_MSGIDX', 2)).toBe(9);
    expect(params.has(0x000d)).toBe(false);
  });

  it('reads the GIX014 of §3.2.4: SPE_IDLIST 8001h 8004h 8034h 9101h 910Eh', () => {
    expect(decodeTlvBlocks([hex('00 01 00 0A 80 01 80 04 80 34 91 01 91 0E')])).toEqual([
      { id: 0x0001, value: hex('80 01 80 04 80 34 91 01 91 0E') },
    ]);
  });

  it('takes parameters from every block, keeps the first of a repeated one, and all of them on request', () => {
    const params = Params.decode('MNU', [
      cat(hex('00 20 00 01'), 'A', hex('00 0C 00 01 1E')),
      cat(hex('00 20 00 01'), 'B', hex('00 0C 00 01 05')),
    ]);
    expect(params.first(0x0020)).toEqual(latin1('A'));
    expect(params.all(0x0020)).toEqual([latin1('A'), latin1('B')]);
    expect(params.uint(0x000c, 'SPE_TIMEOUT', 1)).toBe(30);
  });

  it('answers ST_INVPARM to a broken structure (§6.2.2)', () => {
    expect(statusOf(() => decodeTlvBlocks([hex('00 15 00 06 32 35 30 33')]))).toBe(ST.INVPARM); // value past the block
    expect(statusOf(() => decodeTlvBlocks([hex('00 15 00')]))).toBe(ST.INVPARM); // header cut short
    expect(statusOf(() => decodeTlvBlocks([cat(hex('00 0F 03 E4'), Buffer.alloc(996))]))).toBe(ST.INVPARM); // over 995
    expect(decodeTlvBlocks([cat(hex('00 0F 03 E3'), Buffer.alloc(995))])[0]?.value.length).toBe(995);
    expect(decodeTlvBlocks([Buffer.alloc(0)])).toEqual([]);
  });

  it('answers ST_MANDAT for a missing mandatory parameter and ST_INVPARM for a wrong format', () => {
    const params = Params.decode('GCX', [cat(hex('00 16 00 06'), '120000', hex('00 13 00 0B'), '00000000001')]);
    expect(statusOf(() => params.require(params.digits(0x0015, 'SPE_TRNDATE', { exact: 6 }), 'SPE_TRNDATE'))).toBe(
      ST.MANDAT,
    );
    expect(params.digits(0x0016, 'SPE_TRNTIME', { exact: 6 })).toBe('120000');
    expect(statusOf(() => params.digits(0x0013, 'SPE_AMOUNT', { exact: 12 }))).toBe(ST.INVPARM);
  });

  it('allows CR in free text where the spec does (SPE_DSPMSG), and only there', () => {
    const params = Params.decode('CLX', [cat(hex('00 1B 00 24'), 'PRESTO SHOP\rOBRIGADO E\rVOLTE SEMPRE!')]);
    expect(params.text(0x001b, 'SPE_DSPMSG', { max: 128 }, 'cr')).toBe('PRESTO SHOP\rOBRIGADO E\rVOLTE SEMPRE!');
    expect(statusOf(() => params.text(0x001b, 'SPE_DSPMSG', { max: 128 }))).toBe(ST.INVPARM);
    const lf = Params.decode('CLX', [cat(hex('00 1B 00 03'), 'A\nB')]);
    expect(statusOf(() => lf.text(0x001b, 'SPE_DSPMSG', { max: 128 }, 'cr'))).toBe(ST.INVPARM);
    expect(lf.text(0x001b, 'SPE_DSPMSG', { max: 128 }, 'any')).toBe('A\nB');
  });
});

describe('writing response data (§3.1.3.2)', () => {
  it('writes the GIX000151 answer of §3.2.4 byte for byte', () => {
    const blocks = encodeTlvBlocks([
      item(0x8001, '991274366155'),
      item(0x8004, 'HEMISPHERES  '),
      item(0x8034, '01' + '1100110000000000' + '0000000' + '2'.repeat(75)),
      item(0x9101, hex('FF FF F9 13 25 00 43 20 04 43')),
    ]);
    expect(blocks).toEqual([GIX151]);
    expect(crc16(cat('GIX000151', GIX151))).toBe(0x66eb); // DATACRC of §5.2.2.2
  });

  it('starts a new block rather than pass 999 bytes or split an item', () => {
    const blocks = encodeTlvBlocks([
      item(0x8030, 'A'.repeat(600)),
      item(0x8031, 'B'.repeat(400)),
      item(0x8032, 'C'.repeat(10)),
    ]);
    expect(blocks.map((block) => block.length)).toEqual([604, 418]);
    expect(encodeTlvBlocks([item(0x8001, 'X'.repeat(995))]).map((block) => block.length)).toEqual([999]);
    expect(() => encodeTlvBlocks([item(0x8001, 'X'.repeat(996))])).toThrow(RangeError);
  });
});
