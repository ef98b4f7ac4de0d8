/**
 * EMV table records as TLR carries them (S220 §3.5.3, §4.1), with the spec's examples: the
 * TLR630 of §3.5.3 (records "01" and "02" of acquirer 03's AID table, 314 bytes each), the three
 * AID record sizes of §4.1.1 and the revoked certificate of §4.1.3.
 */
import { describe, expect, it } from 'vitest';
import { ST } from '../../../../drivers/simulator/wire/statuses.js';
import { decodeAidRecord, decodeTlrBlock, tableRecordOf } from '../../../../drivers/simulator/wire/tables.js';
import { hex, latin1, statusOf } from './bytes.js';

/** The TLR630 of §3.5.3, as printed. */
const TLR630 = hex(`
  54 4C 52 36 33 30 30 32 33 31 34 31 30 33 30 31
  30 37 41 30 30 30 30 30 30 30 30 34 31 30 31 30
  30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30
  30 30 30 31 43 54 4C 45 53 53 2D 2D 43 52 45 44
  49 54 4F 20 30 33 30 30 30 31 30 30 30 32 30 30
  30 31 30 37 36 38 34 30 32 30 32 30 35 30 33 30
  30 30 30 30 30 30 30 34 30 30 30 30 30 30 30 30
  30 30 30 30 45 30 46 38 45 38 37 30 30 30 46 30
  46 30 30 31 32 32 32 30 35 30 30 34 41 30 30 30
  44 38 30 30 45 38 30 30 30 30 32 30 35 30 30 34
  46 38 30 30 30 30 30 30 30 30 30 30 52 30 34 30
  30 30 30 31 33 38 37 30 30 30 30 30 35 44 42 30
  30 30 30 30 39 43 33 31 32 33 34 30 39 46 30 32
  30 36 35 46 32 41 30 32 39 41 30 33 39 43 30 31
  39 35 30 35 39 46 33 37 30 34 30 30 30 30 30 30
  30 30 30 30 39 46 33 37 30 34 30 30 30 30 30 30
  30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30
  30 30 30 30 30 30 30 30 30 30 30 30 59 31 5A 31
  59 33 5A 33 46 30 30 30 30 34 38 30 30 30 30 30
  30 30 30 30 30 30 30 30 46 30 30 30 30 34 38 30
  30 30 33 31 34 31 30 33 30 32 30 37 41 30 30 30
  30 30 30 30 30 34 33 30 36 30 30 30 30 30 30 30
  30 30 30 30 30 30 30 30 30 30 30 30 30 32 43 54
  4C 45 53 53 2D 2D 44 45 42 49 54 4F 20 20 30 33
  30 30 30 31 30 30 30 32 30 30 30 31 30 37 36 38
  34 30 32 30 32 30 35 30 33 30 30 30 30 30 30 30
  30 34 30 30 30 30 30 30 30 30 30 30 30 30 45 30
  46 38 45 38 37 30 30 30 46 30 46 30 30 31 32 32
  32 30 35 30 30 34 41 30 30 30 44 38 30 30 45 38
  30 30 30 30 32 30 35 30 30 34 46 38 30 30 30 30
  30 30 30 30 30 30 52 30 34 30 30 30 30 31 33 38
  37 30 30 30 30 30 35 44 42 30 30 30 30 30 39 43
  33 31 32 33 34 30 39 46 30 32 30 36 35 46 32 41
  30 32 39 41 30 33 39 43 30 31 39 35 30 35 39 46
  33 37 30 34 30 30 30 30 30 30 30 30 30 30 39 46
  33 37 30 34 30 30 30 30 30 30 30 30 30 30 30 30
  30 30 30 30 30 30 30 30 30 30 30 30 30 30 30 30
  30 30 30 30 30 30 59 31 5A 31 59 33 5A 33 46 30
  30 30 30 34 38 30 30 30 30 30 30 30 30 30 30 30
  30 30 46 30 30 30 30 34 38 30 30 30
`);

/** §4.1.1: MasterCard credit with contactless, current layout (340 bytes, TAB_RECIDX "MC"). */
const AID_340 = latin1(
  '340102MC07A000000004101000000000000000000001CTLESS CREDITO  03000100020001' +
    '0769862020503000000004000000000000E0F8E87000F0F00122205004A000D800E8000020' +
    '5004F80000000000R0400001387000009C3000005DB123409F02065F2A029A039C0195059F' +
    '370400000000009F37040000000000000000000000000000000000Y1Z1Y3Z3F00000000000' +
    '00000000F000000000E0484817000F0F001000013870',
);

/** §4.1.1: the same, 2.0x layout (314 bytes, acquirer 17, record "01"). */
const AID_314 = latin1(
  '3141170107A000000004101000000000000000000001CTLESS CREDITO  03000100020001' +
    '0769862020503000000004000000000000E0F8E87000F0F00122205004A000D800E8000020' +
    '5004F80000000000R0400001387000009C3000005DB123409F02065F2A029A039C0195059F' +
    '370400000000009F37040000000000000000000000000000000000Y1Z1Y3Z3F00000000000' +
    '00000000F000000000',
);

/** §4.1.1: Visa debit without contactless, BibComp layout (284 bytes, acquirer 23, record "12"). */
const AID_284 = latin1(
  '2841231207A000000003201000000000000000000002Electron        03008400830082' +
    '0769862MERCHID9182672X1234TID01877E0F0C07000F0F001220000000000480000000000' +
    '0004F800000007D010000001F499000007D010000001F4999F02069F030600000000000000' +
    '000000000000000000000000000000000000000000000000000000Y1Z1Y3Z3',
);

describe('TLR records (§3.5.3)', () => {
  it('splits the TLR630 of §3.5.3 into its two 314-byte records by TAB_LEN', () => {
    expect(TLR630.subarray(0, 6).toString('latin1')).toBe('TLR630');
    const records = decodeTlrBlock(TLR630.subarray(6));
    expect(records.map((record) => record.length)).toEqual([314, 314]);
    expect(records.map((raw) => tableRecordOf(raw))).toMatchObject([
      { table: 'aid', acquirer: 3, record: '01' },
      { table: 'aid', acquirer: 3, record: '02' },
    ]);
  });

  it('reads the AID records of the TLR630: credit and debit Mastercard, contactless M/Chip', () => {
    const [credit, debit] = decodeTlrBlock(TLR630.subarray(6)).map((raw) => decodeAidRecord(tableRecordOf(raw)!));
    expect(credit).toEqual({
      acquirer: 3,
      record: '01',
      aid: 'A0000000041010',
      applicationType: 1,
      iccStandard: 3,
      defaultLabel: 'CTLESS--CREDITO',
      contactlessZeroAmount: '0',
      contactlessMode: '4',
      contactlessTransactionLimit: 0x1387,
      contactlessMobileTransactionLimit: 0x1387, // a 314-byte record: T1_CTLSTRNLIM stands in (§4.1.1)
    });
    expect(debit).toMatchObject({
      record: '02',
      aid: 'A0000000043060',
      applicationType: 2,
      defaultLabel: 'CTLESS--DEBITO',
    });
  });

  it('answers ST_INVPARM when TLR_NREC and the records do not add up', () => {
    expect(statusOf(() => decodeTlrBlock(latin1('01')))).toBe(ST.INVPARM); // one record announced, none there
    expect(statusOf(() => decodeTlrBlock(Buffer.concat([latin1('01'), TLR630.subarray(8)])))).toBe(ST.INVPARM); // two records, NREC 01
    expect(statusOf(() => decodeTlrBlock(Buffer.concat([latin1('01'), latin1('999'), Buffer.alloc(10)])))).toBe(
      ST.INVPARM,
    );
    expect(statusOf(() => decodeTlrBlock(latin1('X1')))).toBe(ST.INVPARM);
    expect(decodeTlrBlock(latin1('00'))).toEqual([]);
  });
});

describe('AID records (§4.1.1)', () => {
  it("reads the three layouts of the spec's examples", () => {
    expect([AID_340.length, AID_314.length, AID_284.length]).toEqual([340, 314, 284]);
    expect(decodeAidRecord(tableRecordOf(AID_340)!)).toEqual({
      acquirer: 2,
      record: 'MC',
      aid: 'A0000000041010',
      applicationType: 1,
      iccStandard: 3,
      defaultLabel: 'CTLESS CREDITO',
      contactlessZeroAmount: '0',
      contactlessMode: '4',
      contactlessTransactionLimit: 0x1387,
      contactlessMobileTransactionLimit: 0x1387, // T1_CTLSMBTLIM
    });
    expect(decodeAidRecord(tableRecordOf(AID_314)!)).toMatchObject({
      acquirer: 17,
      record: '01',
      aid: 'A0000000041010',
    });
    expect(decodeAidRecord(tableRecordOf(AID_284)!)).toMatchObject({
      acquirer: 23,
      record: '12',
      aid: 'A0000000032010',
      applicationType: 2,
      defaultLabel: 'Electron',
      contactlessMode: '0',
    });
  });

  it('ignores a record that is not a valid AID record (§6.7.3): wrong size, bad field, AID length out of 05–16', () => {
    const withLength = (record: Buffer, text: string): Buffer => Buffer.concat([latin1(text), record.subarray(3)]);
    expect(decodeAidRecord(tableRecordOf(latin1('028101' + '01' + 'X'.repeat(20)))!)).toBeUndefined();
    expect(decodeAidRecord(tableRecordOf(withLength(AID_314.subarray(0, 300), '300'))!)).toBeUndefined();
    const badHex = Buffer.from(AID_340);
    badHex.write('G', 10, 'latin1'); // inside T1_AID (H32)
    expect(decodeAidRecord(tableRecordOf(badHex)!)).toBeUndefined();
    const badLength = Buffer.from(AID_340);
    badLength.write('17', 8, 'latin1'); // T1_AIDLEN
    expect(decodeAidRecord(tableRecordOf(badLength)!)).toBeUndefined();
  });

  it('accepts a longer record from a future version, ignoring the extra fields', () => {
    const longer = Buffer.concat([latin1('350'), AID_340.subarray(3), latin1('0123456789')]);
    expect(decodeAidRecord(tableRecordOf(longer)!)).toMatchObject({ record: 'MC', aid: 'A0000000041010' });
  });
});

describe('other tables (§4.1.2, §4.1.3)', () => {
  it('reads the header of a revoked certificate (TAB_ID "3", §4.1.3) and ignores unknown tables', () => {
    expect(tableRecordOf(latin1('02630223A000000004FE333333'))).toMatchObject({
      table: 'revoked',
      acquirer: 2,
      record: '23',
    });
    // The example of §4.1.3 itself carries TAB_ID "2" (CAPK) although the layout fixes "3": the
    // PINPAD reads the TAB_ID it is given.
    expect(tableRecordOf(latin1('02620223A000000004FE333333'))).toMatchObject({
      table: 'capk',
      acquirer: 2,
      record: '23',
    });
    expect(tableRecordOf(latin1('02640223A000000004FE333333'))).toBeUndefined(); // TAB_ID "4"
    expect(tableRecordOf(latin1('02632X23A000000004FE333333'))).toBeUndefined(); // TAB_ACQ not N2
  });
});
