import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tlrCommand, type TableRecord } from '../../../../drivers/abecs/commands/tlr.js';
import { decodeCommandPacket, encodeCommandPacket } from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import {
  decodeTableEntry,
  encodeTableEntry,
  normalizeTableEntry,
  TABLE_RECORD_LENGTHS,
  type AidRecord,
  type CapkRecord,
  type EmvTableEntry,
  type RevokedCertificateRecord,
} from '../../../../drivers/abecs/tables/records.js';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import { asciiText, latin1Text, recordIndex, upperHex } from '../commands/codec-properties.js';

/** A TLR record as text: TAB_LEN, TAB_ID, TAB_ACQ, TAB_RECIDX and the body. */
function wire(record: TableRecord): string {
  const id = { aid: 1, capk: 2, revokedCertificate: 3 }[record.table];
  const length = 8 + record.body.length;
  return `${String(length).padStart(3, '0')}${id}${String(record.acquirer).padStart(2, '0')}${record.record}${record.body}`;
}

/** A wire record (as printed in S220) as the TLR codec's TableRecord. */
function parse(text: string): TableRecord {
  const id = Number(text[3]);
  const table = (['aid', 'capk', 'revokedCertificate'] as const)[id - 1]!;
  return { table, acquirer: Number(text.slice(4, 6)), record: text.slice(6, 8), body: text.slice(8) };
}

/*
 * The S220 §4.1 examples, as printed, with the spaces the PDF extraction collapsed put back where
 * the field widths require them ("02 MC" is TAB_ACQ "02" + TAB_RECIDX "MC"; the S16 label is
 * space-padded); each then has exactly the length its TAB_LEN declares.
 */
const SPEC_AID_340 =
  '340102MC07A000000004101000000000000000000001CTLESS CREDITO  03000100020001' +
  '0769862020503000000004000000000000E0F8E87000F0F00122205004A000D800E8000020' +
  '5004F80000000000R0400001387000009C3000005DB123409F02065F2A029A039C0195059F' +
  '370400000000009F37040000000000000000000000000000000000Y1Z1Y3Z3F00000000000' +
  '00000000F000000000E0484817000F0F001000013870';
const SPEC_AID_314 =
  '3141170107A000000004101000000000000000000001CTLESS CREDITO  03000100020001' +
  '0769862020503000000004000000000000E0F8E87000F0F00122205004A000D800E8000020' +
  '5004F80000000000R0400001387000009C3000005DB123409F02065F2A029A039C0195059F' +
  '370400000000009F37040000000000000000000000000000000000Y1Z1Y3Z3F00000000000' +
  '00000000F000000000';
const SPEC_AID_284 =
  '2841231207A000000003201000000000000000000002Electron        03008400830082' +
  '0769862MERCHID9182672X1234TID01877E0F0C07000F0F001220000000000480000000000' +
  '0004F800000007D010000001F499000007D010000001F4999F02069F030600000000000000' +
  '000000000000000000000000000000000000000000000000000000Y1Z1Y3Z3';
const SPEC_CAPK =
  '61120103A0000000250E001030000144AA94A8C6DAD24F9BA56A27C09B01020819568B81A0' +
  '26BE9FD0A3416CA9A71166ED5084ED91CED47DD457DB7E6CBCD53E560BC5DF48ABC380993B' +
  '6D549F5196CFA77DFB20A0296188E969A2772E8C4141665F8BB2516BA2C7B5FC91F8DA04E8' +
  'D512EB0F6411516FB86FC021CE7E969DA94D33937909A53A57F907C40C22009DA7532CB3BE' +
  '509AE173B39AD6A01BA5BB85' +
  '0'.repeat(496 - 288) +
  '1A7266ABAE64B42A3668851191D49856E17F8FBCD' +
  '0'.repeat(42);
/*
 * §4.1.3 prints "02620223A000000004FE333333": TAB_ID "2", where §4.1.3 says "fixo 3" and the
 * §3.5.3 TLR example's revoked certificates carry 3. Taken as a typo: TAB_ID 3 here.
 */
const SPEC_REVOKED = '02630223A000000004FE333333';

/** The 340-byte example, field by field. */
const MC_CREDIT: EmvTableEntry = {
  table: 'aid',
  acquirer: 2,
  record: 'MC',
  aid: 'A0000000041010',
  applicationType: 1,
  label: 'CTLESS CREDITO',
  iccStandard: 3,
  applicationVersion1: '0001',
  applicationVersion2: '0002',
  applicationVersion3: '0001',
  terminalCountryCode: 76,
  transactionCurrencyCode: 986,
  transactionCurrencyExponent: 2,
  merchantIdentifier: '020503000000004',
  merchantCategoryCode: 0,
  terminalIdentification: '00000000',
  terminalCapabilities: 'E0F8E8',
  additionalTerminalCapabilities: '7000F0F001',
  terminalType: 22,
  tacDefault: '205004A000',
  tacDenial: 'D800E80000',
  tacOnline: '205004F800',
  floorLimit: 0,
  transactionCategoryCode: 'R',
  contactlessZeroAmount: '0',
  contactlessMode: '4',
  contactlessTransactionLimit: 0x1387,
  contactlessFloorLimit: 0x9c3,
  contactlessCvmLimit: 0x5db,
  contactlessApplicationVersion: '1234',
  tdol: '9F02065F2A029A039C0195059F3704',
  ddol: '9F3704',
  offlineResponseCodes: 'Y1Z1Y3Z3',
  contactlessTacDefault: 'F000000000',
  contactlessTacDenial: '0000000000',
  contactlessTacOnline: 'F000000000',
  contactlessTerminalCapabilities: 'E04848',
  mobileCvm: 1,
  contactlessAdditionalTerminalCapabilities: '7000F0F001',
  contactlessMobileTransactionLimit: 0x1387,
  contactlessIssuerScripts: 0,
};

const MINIMAL_AID: EmvTableEntry = {
  table: 'aid',
  acquirer: 2,
  record: '01',
  aid: 'A0000000031010',
  applicationType: 1,
  applicationVersion1: '008C',
  terminalCountryCode: 76,
  transactionCurrencyCode: 986,
  transactionCurrencyExponent: 2,
  merchantCategoryCode: 5999,
  terminalCapabilities: 'E0F0C8',
  additionalTerminalCapabilities: '7000F0A001',
  terminalType: 22,
  tacDefault: 'DC4000A800',
  tacDenial: '0010000000',
  tacOnline: 'DC4004F800',
  floorLimit: 0,
};

const hexOf = (min: number, max: number): fc.Arbitrary<string> =>
  fc.integer({ min, max }).chain((bytes) => upperHex(bytes));
const a1 = fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c));
const amount = fc.integer({ min: 0, max: 0xffffffff });
/** A DOL whose last byte is not 00 (trailing 00 bytes are the field's padding). */
const dol = hexOf(0, 20).filter((hex) => !hex.endsWith('00'));

const aidRecord: fc.Arbitrary<EmvTableEntry> = fc.record({
  table: fc.constant('aid' as const),
  acquirer: fc.integer({ min: 1, max: 99 }),
  record: recordIndex,
  aid: hexOf(5, 16),
  applicationType: fc.integer({ min: 1, max: 98 }),
  label: latin1Text(16)
    .map((text) => text.replace(/ +$/, ''))
    .filter((text) => !/[\x7f-\x9f]/.test(text)),
  iccStandard: fc.integer({ min: 0, max: 99 }),
  applicationVersion1: upperHex(2),
  applicationVersion2: upperHex(2),
  applicationVersion3: upperHex(2),
  terminalCountryCode: fc.integer({ min: 0, max: 999 }),
  transactionCurrencyCode: fc.integer({ min: 0, max: 999 }),
  transactionCurrencyExponent: fc.integer({ min: 0, max: 9 }),
  merchantIdentifier: asciiText(15),
  merchantCategoryCode: fc.integer({ min: 0, max: 9999 }),
  terminalIdentification: asciiText(8),
  terminalCapabilities: upperHex(3),
  additionalTerminalCapabilities: upperHex(5),
  terminalType: fc.integer({ min: 0, max: 99 }),
  tacDefault: upperHex(5),
  tacDenial: upperHex(5),
  tacOnline: upperHex(5),
  floorLimit: amount,
  transactionCategoryCode: a1,
  contactlessZeroAmount: a1,
  contactlessMode: a1,
  contactlessTransactionLimit: amount,
  contactlessFloorLimit: amount,
  contactlessCvmLimit: amount,
  contactlessApplicationVersion: upperHex(2),
  tdol: dol,
  ddol: dol,
  offlineResponseCodes: asciiText(8),
  contactlessTacDefault: upperHex(5),
  contactlessTacDenial: upperHex(5),
  contactlessTacOnline: upperHex(5),
  contactlessTerminalCapabilities: upperHex(3),
  mobileCvm: fc.integer({ min: 0, max: 1 }),
  contactlessAdditionalTerminalCapabilities: upperHex(5),
  contactlessMobileTransactionLimit: amount,
  contactlessIssuerScripts: fc.integer({ min: 0, max: 1 }),
} satisfies Record<keyof AidRecord | 'table', fc.Arbitrary<unknown>>);

const capkRecord: fc.Arbitrary<EmvTableEntry> = fc.record({
  table: fc.constant('capk' as const),
  acquirer: fc.integer({ min: 0, max: 99 }),
  record: recordIndex,
  rid: upperHex(5),
  capkIndex: upperHex(1),
  exponent: fc.constantFrom('03', '010001'),
  modulus: hexOf(1, 248),
  checksumStatus: fc.integer({ min: 0, max: 1 }),
  checksum: upperHex(20),
} satisfies Record<keyof CapkRecord | 'table', fc.Arbitrary<unknown>>);

const revokedRecord: fc.Arbitrary<EmvTableEntry> = fc.record({
  table: fc.constant('revokedCertificate' as const),
  acquirer: fc.integer({ min: 1, max: 99 }),
  record: recordIndex,
  rid: upperHex(5),
  capkIndex: upperHex(1),
  serialNumber: upperHex(3),
} satisfies Record<keyof RevokedCertificateRecord | 'table', fc.Arbitrary<unknown>>);

const anyEntry = fc.oneof(aidRecord, capkRecord, revokedRecord);

function invalid(entry: Record<string, unknown>): InvalidArgumentError {
  try {
    encodeTableEntry(entry as unknown as EmvTableEntry);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidArgumentError);
    return error as InvalidArgumentError;
  }
  throw new Error('expected an InvalidArgumentError');
}

function malformed(record: TableRecord): AbecsFormatError {
  try {
    decodeTableEntry(record);
  } catch (error) {
    expect(error).toBeInstanceOf(AbecsFormatError);
    expect((error as AbecsFormatError).code).toBe('MALFORMED_COMMAND');
    return error as AbecsFormatError;
  }
  throw new Error('expected an AbecsFormatError');
}

describe('EMV table records (S220 §4.1)', () => {
  describe('the spec examples, byte for byte', () => {
    it('decodes the 340-byte AID example (§4.1.1) field by field and encodes it back', () => {
      expect(SPEC_AID_340).toHaveLength(340);
      const record = parse(SPEC_AID_340);
      expect(decodeTableEntry(record)).toEqual(MC_CREDIT);
      expect(wire(encodeTableEntry(MC_CREDIT))).toBe(SPEC_AID_340);
    });

    it('reads the 314-byte (2.0x) example with the CTLS fields a 2.10 PINPAD assumes, and writes it back in that layout', () => {
      expect(SPEC_AID_314).toHaveLength(314);
      const entry = decodeTableEntry(parse(SPEC_AID_314));
      expect(entry).toMatchObject({
        acquirer: 17,
        record: '01',
        aid: 'A0000000041010',
        contactlessTacOnline: 'F000000000',
      });
      // "Se não fornecido, o pinpad assume o valor de T1_TRMCAPAB / T1_ADDTRMCP / T1_CTLSTRNLIM", "0".
      expect(entry).toMatchObject({
        contactlessTerminalCapabilities: 'E0F8E8',
        contactlessAdditionalTerminalCapabilities: '7000F0F001',
        contactlessMobileTransactionLimit: 0x1387,
        mobileCvm: 0,
        contactlessIssuerScripts: 0,
      });
      expect(wire(encodeTableEntry(entry, { aidRecordLength: 314 }))).toBe(SPEC_AID_314);
      expect(encodeTableEntry(entry).body).toHaveLength(340 - 8);
    });

    it('reads the 284-byte (BibComp) example, whose CTLS TACs default to the ICC ones', () => {
      expect(SPEC_AID_284).toHaveLength(284);
      const entry = decodeTableEntry(parse(SPEC_AID_284));
      expect(entry).toMatchObject({
        acquirer: 23,
        record: '12',
        aid: 'A0000000032010',
        applicationType: 2,
        label: 'Electron',
        applicationVersion1: '0084',
        applicationVersion2: '0083',
        applicationVersion3: '0082',
        merchantIdentifier: 'MERCHID9182672X',
        merchantCategoryCode: 1234,
        terminalIdentification: 'TID01877',
        terminalCapabilities: 'E0F0C0',
        tdol: '9F02069F0306',
        ddol: '',
      });
      const aid = entry as AidRecord;
      expect([aid.contactlessTacDefault, aid.contactlessTacDenial, aid.contactlessTacOnline]).toEqual([
        aid.tacDefault,
        aid.tacDenial,
        aid.tacOnline,
      ]);
      // The example carries "9" in T1_RUF1 (offset 195), which §4.1.1 fixes at "0": written as "0".
      const ruf = 195;
      expect(SPEC_AID_284[ruf]).toBe('9');
      const expected = `${SPEC_AID_284.slice(0, ruf)}0${SPEC_AID_284.slice(ruf + 1)}`;
      expect(wire(encodeTableEntry(entry, { aidRecordLength: 284 }))).toBe(expected);
    });

    it('decodes the CAPK example (§4.1.2), whose checksum is SHA-1 of RID, index, modulus and exponent', () => {
      expect(SPEC_CAPK).toHaveLength(611);
      const entry = decodeTableEntry(parse(SPEC_CAPK)) as CapkRecord;
      expect(entry).toMatchObject({
        acquirer: 1,
        record: '03',
        rid: 'A000000025',
        capkIndex: '0E',
        exponent: '03',
        checksumStatus: 1,
      });
      expect(entry.modulus).toHaveLength(144 * 2);
      expect(entry.checksum).toBe('A7266ABAE64B42A3668851191D49856E17F8FBCD');
      // Left out, the checksum is computed to the same value.
      const { checksum: _checksum, ...withoutChecksum } = entry;
      expect(wire(encodeTableEntry({ table: 'capk', ...withoutChecksum }))).toBe(SPEC_CAPK);
    });

    it('decodes the revoked-certificate example (§4.1.3)', () => {
      const entry = decodeTableEntry(parse(SPEC_REVOKED));
      expect(entry).toEqual({
        table: 'revokedCertificate',
        acquirer: 2,
        record: '23',
        rid: 'A000000004',
        capkIndex: 'FE',
        serialNumber: '333333',
      });
      expect(wire(encodeTableEntry(entry))).toBe(SPEC_REVOKED);
    });

    it('decodes the CAPK and revoked-certificate records through a TLR packet', () => {
      const tlr = tlrCommand.encodeRequest({ records: [parse(SPEC_CAPK), parse(SPEC_REVOKED)] });
      const records = tlrCommand.decodeRequest(decodeCommandPacket(encodeCommandPacket(tlr))).records;
      expect(records.map((record) => decodeTableEntry(record).table)).toEqual(['capk', 'revokedCertificate']);
    });
  });

  describe('lengths', () => {
    it('writes 340-byte AID, 611-byte CAPK and 26-byte revoked-certificate records', () => {
      expect(TABLE_RECORD_LENGTHS).toMatchObject({ aid: 340, capk: 611, revokedCertificate: 26 });
      fc.assert(
        fc.property(anyEntry, (entry) => {
          const length = 8 + encodeTableEntry(entry).body.length;
          expect(length).toBe({ aid: 340, capk: 611, revokedCertificate: 26 }[entry.table]);
        }),
        { numRuns: 200 },
      );
    });

    it('writes the older AID layouts on request', () => {
      expect(encodeTableEntry(MINIMAL_AID, { aidRecordLength: 314 }).body).toHaveLength(306);
      expect(encodeTableEntry(MINIMAL_AID, { aidRecordLength: 284 }).body).toHaveLength(276);
    });

    it('ignores the bytes a later spec adds after 340 (§4.1.1: "desprezar eventuais dados extras")', () => {
      const record = encodeTableEntry(MC_CREDIT);
      expect(decodeTableEntry({ ...record, body: `${record.body}FUTURE` })).toEqual(MC_CREDIT);
    });
  });

  describe('round trips', () => {
    it('decode(encode(entry)) is the entry for every complete entry', () => {
      fc.assert(
        fc.property(anyEntry, (entry) => {
          expect(decodeTableEntry(encodeTableEntry(entry))).toEqual(entry);
        }),
        { numRuns: 500 },
      );
    });

    it('fills the documented defaults into a short entry', () => {
      expect(normalizeTableEntry(MINIMAL_AID)).toEqual({
        ...MINIMAL_AID,
        label: '',
        iccStandard: 3,
        applicationVersion2: '008C',
        applicationVersion3: '008C',
        merchantIdentifier: '',
        terminalIdentification: '',
        transactionCategoryCode: 'R',
        contactlessZeroAmount: '0',
        contactlessMode: '0',
        contactlessTransactionLimit: 0,
        contactlessFloorLimit: 0,
        contactlessCvmLimit: 0,
        contactlessApplicationVersion: '0000',
        tdol: '',
        ddol: '',
        offlineResponseCodes: 'Y1Z1Y3Z3',
        contactlessTacDefault: 'DC4000A800',
        contactlessTacDenial: '0010000000',
        contactlessTacOnline: 'DC4004F800',
        contactlessTerminalCapabilities: 'E0F0C8',
        mobileCvm: 0,
        contactlessAdditionalTerminalCapabilities: '7000F0A001',
        contactlessMobileTransactionLimit: 0,
        contactlessIssuerScripts: 0,
      });
      const capk = normalizeTableEntry({
        table: 'capk',
        acquirer: 0,
        record: '01',
        rid: 'a000000003',
        capkIndex: '95',
        exponent: '03',
        modulus: 'C1',
      });
      expect(capk).toMatchObject({ rid: 'A000000003', checksumStatus: 1 });
      const zero = normalizeTableEntry({
        table: 'capk',
        acquirer: 0,
        record: '01',
        rid: 'A000000003',
        capkIndex: '95',
        exponent: '03',
        modulus: 'C1',
        checksumStatus: 0,
      });
      expect(zero).toMatchObject({ checksumStatus: 0, checksum: '0'.repeat(40) });
    });

    it('survives a trip through TLR packets', () => {
      fc.assert(
        fc.property(fc.array(anyEntry, { minLength: 1, maxLength: 1 }), (entries) => {
          const packet = encodeCommandPacket(
            tlrCommand.encodeRequest({ records: entries.map((entry) => encodeTableEntry(entry)) }),
          );
          const records = tlrCommand.decodeRequest(decodeCommandPacket(packet)).records;
          expect(records.map(decodeTableEntry)).toEqual(entries);
        }),
        { numRuns: 100 },
      );
    });
  });

  describe('errors', () => {
    it.each([
      [{ aid: 'A00000000310' + 'G0' }, /aid \(T1_AIDLEN\/T1_AID\) must be a string of hex digit pairs/],
      [{ aid: 'A0000000' }, /aid .* must be 5–16 bytes long, got 4/],
      [{ aid: 'A0'.repeat(17) }, /must be 5–16 bytes long, got 17/],
      [{ applicationType: 99 }, /applicationType \(T1_APPTYPE\) must be from 1 to 98, got 99/],
      [{ applicationType: '01' }, /applicationType \(T1_APPTYPE\) must be an integer/],
      [{ terminalCapabilities: 'E0F0' }, /terminalCapabilities \(T1_TRMCAPAB\) must be 6 hex digits, got 4/],
      [{ label: 'A LABEL LONGER THAN 16' }, /label \(T1_DEFLABEL\) takes at most 16 characters/],
      [{ merchantIdentifier: 'ÇÃO' }, /merchantIdentifier \(T1_MERCHID\) must be printable ASCII/],
      [{ floorLimit: 0x100000000 }, /floorLimit \(T1_FLRLIMIT\) must be from 0 to 4294967295/],
      [{ floorLimit: -1 }, /floorLimit .* must be from 0/],
      [{ contactlessMode: '' }, /contactlessMode \(T1_CTLSMODE\) must be exactly 1 character/],
      [{ tdol: '9F'.repeat(21) }, /tdol \(T1_TDOLDEF\) takes at most 20 bytes, got 21/],
      [{ mobileCvm: 2 }, /mobileCvm \(T1_MOBCVM\) must be from 0 to 1/],
      [{ tacDefault: undefined }, /tacDefault \(T1_TACDEF\) is missing/],
      [{ floorLimt: 0 }, /has no field "floorLimt"/],
      [{ acquirer: 0 }, /acquirer \(TAB_ACQ\) must be an integer from 1 to 99/],
      [{ acquirer: 100 }, /acquirer \(TAB_ACQ\) must be an integer from 1 to 99/],
      [{ record: '1' }, /index \(TAB_RECIDX\) must be two printable ASCII characters/],
      [{ table: 'aids' }, /"table" must be "aid", "capk" or "revokedCertificate"/],
    ])('refuses an AID entry with %o', (change, message) => {
      const entry: Record<string, unknown> = { ...MINIMAL_AID, ...change };
      for (const [key, value] of Object.entries(change)) if (value === undefined) delete entry[key];
      expect(invalid(entry).message).toMatch(message);
    });

    it.each([
      [{ exponent: '0001' }, /exponent \(T2_EXPLEN\/T2_EXP\) must be 1 or 3 bytes long, got 2/],
      [{ modulus: 'AB'.repeat(249) }, /modulus .* must be 1–248 bytes long, got 249/],
      [{ modulus: '' }, /modulus .* must be 1–248 bytes long, got 0/],
      [{ rid: 'A0000000' }, /rid \(T2_RID\) must be 10 hex digits/],
      [{ checksum: 'AB' }, /checksum \(T2_CHECKSUM\) must be 40 hex digits/],
      [{ checksumStatus: 2 }, /checksumStatus \(T2_CHKSTAT\) must be from 0 to 1/],
    ])('refuses a CAPK entry with %o', (change, message) => {
      const entry = {
        table: 'capk',
        acquirer: 0,
        record: '01',
        rid: 'A000000003',
        capkIndex: '95',
        exponent: '03',
        modulus: 'C1',
        ...change,
      };
      expect(invalid(entry).message).toMatch(message);
    });

    it('refuses a revoked certificate with a short serial number or acquirer 00', () => {
      const entry = {
        table: 'revokedCertificate',
        acquirer: 2,
        record: '01',
        rid: 'A000000004',
        capkIndex: 'FE',
        serialNumber: '3333',
      };
      expect(invalid(entry).message).toMatch(/serialNumber \(T3_CERTSN\) must be 6 hex digits/);
      expect(invalid({ ...entry, serialNumber: '333333', acquirer: 0 }).message).toMatch(/from 1 to 99/);
    });

    it('refuses bodies of the wrong length', () => {
      const aid = encodeTableEntry(MINIMAL_AID);
      expect(malformed({ ...aid, body: aid.body.slice(0, 300) }).message).toMatch(
        /TAB_LEN is 308; an AID record has 284, 314 or at least 340 bytes/,
      );
      const capk = encodeTableEntry({
        table: 'capk',
        acquirer: 1,
        record: '01',
        rid: 'A000000003',
        capkIndex: '95',
        exponent: '03',
        modulus: 'C1',
      });
      expect(malformed({ ...capk, body: `${capk.body}0` }).message).toMatch(/TAB_LEN is 612, not 611/);
      expect(
        malformed({ table: 'revokedCertificate', acquirer: 2, record: '23', body: 'A000000004FE3333' }).message,
      ).toMatch(/not 26/);
    });

    it('refuses fields of the wrong format', () => {
      const aid = encodeTableEntry(MINIMAL_AID);
      // T1_AIDLEN "04": below the 5 bytes of a RID.
      expect(malformed({ ...aid, body: `04${aid.body.slice(2)}` }).message).toMatch(
        /T1_AIDLEN\/T1_AID length must be 5–16 bytes/,
      );
      // T1_APPTYPE "00".
      expect(malformed({ ...aid, body: `${aid.body.slice(0, 34)}00${aid.body.slice(36)}` }).message).toMatch(
        /T1_APPTYPE must be from 1 to 98/,
      );
      // T1_TRMCAPAB not hex.
      const at = 2 + 32 + 2 + 16 + 2 + 12 + 3 + 3 + 1 + 15 + 4 + 8;
      expect(malformed({ ...aid, body: `${aid.body.slice(0, at)}XYZ123${aid.body.slice(at + 6)}` }).message).toMatch(
        /T1_TRMCAPAB must be hex digits/,
      );
      const capk = encodeTableEntry({
        table: 'capk',
        acquirer: 1,
        record: '01',
        rid: 'A000000003',
        capkIndex: '95',
        exponent: '03',
        modulus: 'C1',
      });
      expect(malformed({ ...capk, body: `${capk.body.slice(0, 14)}2${capk.body.slice(15)}` }).message).toMatch(
        /T2_EXPLEN\/T2_EXP length must be 1 or 3 bytes/,
      );
      expect(malformed({ ...capk, acquirer: 100 }).message).toMatch(/TAB_ACQ 100/);
      expect(malformed({ ...aid, acquirer: 0 }).message).toMatch(/TAB_ACQ 0/);
    });

    it('raises nothing but AbecsFormatError on garbage bodies', () => {
      const tables = fc.constantFrom('aid' as const, 'capk' as const, 'revokedCertificate' as const);
      fc.assert(
        fc.property(
          tables,
          fc.integer({ min: 0, max: 99 }),
          fc.string({ unit: fc.constantFrom('0', '1', '3', '9', 'A', 'F', ' ', 'Z'), maxLength: 700 }),
          (table, acquirer, body) => {
            try {
              decodeTableEntry({ table, acquirer, record: '01', body });
            } catch (error) {
              expect(error).toBeInstanceOf(AbecsFormatError);
            }
          },
        ),
        { numRuns: 500 },
      );
    });
  });

  describe('docs/emv-tables.sample.json', () => {
    const sample = JSON.parse(
      readFileSync(new URL('../../../../docs/emv-tables.sample.json', import.meta.url), 'utf8'),
    ) as {
      format: string;
      version: string;
      source: string;
      entries: EmvTableEntry[];
    };

    it('is a pinbridge-emv-tables file whose entries all encode and round-trip', () => {
      expect(sample.format).toBe('pinbridge-emv-tables');
      expect(sample.version).toMatch(/^[\x20-\x7e]{1,10}$/);
      expect(sample.entries.length).toBeGreaterThan(0);
      for (const entry of sample.entries) {
        const record = encodeTableEntry(entry);
        expect(decodeTableEntry(record)).toEqual(normalizeTableEntry(entry));
      }
    });

    it('holds the public AIDs of acquirer 02 with credit 01 / debit 02', () => {
      const aids = sample.entries.filter((entry): entry is { table: 'aid' } & AidRecord => entry.table === 'aid');
      expect(aids.every((entry) => entry.acquirer === 2)).toBe(true);
      expect(Object.fromEntries(aids.map((entry) => [entry.aid, entry.applicationType]))).toMatchObject({
        A0000000031010: 1,
        A0000000032010: 2,
        A0000000041010: 1,
        A0000000043060: 2,
      });
    });

    it('carries CAPKs whose checksum matches the key (no transcription error)', () => {
      for (const entry of sample.entries) {
        if (entry.table !== 'capk') continue;
        const { checksum, ...rest } = entry;
        expect(checksum).toBeDefined();
        expect((normalizeTableEntry(rest) as CapkRecord).checksum).toBe(checksum);
      }
    });
  });
});
