import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tlrCommand, type TableRecord, type TlrRequest } from '../../../../drivers/abecs/commands/tlr.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import { garbageProperties, latin1Text, recordIndex, requestRoundTrip } from './codec-properties.js';

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

/** S220 §3.5.3 second example, as printed: one CAPK record (611 bytes) and three revoked certificates. */
const SPEC_EXAMPLE = [
  'TLR6910461120313',
  'A000000004EF0010',
  '30000248A191CB87',
  '473F29349B5D60A8',
  '8B3EAEE0973AA6F1',
  'A082F358D849FDDF',
  'F9C091F899EDA979',
  '2CAF09EF28F5D224',
  '04B88A2293EEBBC1',
  '949C43BEA4D60CFD',
  '879A1539544E09E0',
  'F09F60F065B2BF2A',
  '13ECC705F3D468B9',
  'D33AE77AD9D3F19C',
  'A40F23DCF5EB7C04',
  'DC8F69EBA565B1EB',
  'CB4686CD27478553',
  '0FF6F6E9EE43AA43',
  'FDB02CE00DAEC15C',
  '7B8FD6A9B394BABA',
  '419D3F6DC85E1656',
  '9BE8E76989688EFE',
  'A2DF22FF7D35C043',
  '338DEAA982A02B86',
  '6DE5328519EBBCD6',
  'F03CDD686673847F',
  '84DB651AB86C28CF',
  '1462562C577B8535',
  '64A290C8556D8185',
  '31268D25CC98A4CC',
  '6A0BDFFFDA2DCCA3',
  'A94C998559E307FD',
  'DF915006D9A987B0',
  '7DDAEB3B121766EB',
  'B0EE122AFB65D784',
  '5B73DB46BAB65427',
  'A000000000000000',
  '0000000000000000',
  '0000000000002630',
  '301A000000003014',
  '4444402630302A00',
  '0000003975555550',
  '2630303A00000000',
  '394666666',
].join('');

describe('TLR codec', () => {
  it('is not blocking', () => {
    expect(tlrCommand.blocking).toBe(false);
  });

  it('splits the spec example into records by TAB_LEN and rebuilds it byte for byte', () => {
    const req = tlrCommand.decodeRequest(decodeCommandPacket(latin1(SPEC_EXAMPLE)));
    expect(req.records.map((r) => [r.table, r.acquirer, r.record, r.body.length + 8])).toEqual([
      ['capk', 3, '13', 611],
      ['revokedCertificate', 3, '01', 26],
      ['revokedCertificate', 3, '02', 26],
      ['revokedCertificate', 3, '03', 26],
    ]);
    expect(req.records[1]?.body).toBe('A00000000301444444');
    expect(encodeCommandPacket(tlrCommand.encodeRequest(req))).toEqual(latin1(SPEC_EXAMPLE));
  });

  it('writes TAB_LEN counting the whole record including itself', () => {
    const record: TableRecord = { table: 'aid', acquirer: 3, record: '01', body: 'X'.repeat(306) };
    const text = encodeCommandPacket(tlrCommand.encodeRequest({ records: [record] })).toString('latin1');
    // CMD_LEN 316 = TLR_NREC (2) + TAB_LEN 314 = 3 + 1 + 2 + 2 + 306 (the AID record size of 2.0x).
    expect(text.slice(0, 16)).toBe('TLR316' + '01' + '314' + '1' + '03' + '01');
  });

  it('reads TLR000', () => {
    expect(tlrCommand.decodeResponse(decodeResponsePacket(latin1('TLR000')))).toEqual({});
    expect(encodeResponsePacket(tlrCommand.encodeResponse({}))).toEqual(latin1('TLR000'));
  });

  it('rejects a record longer than the data, an unknown TAB_ID, a wrong count or trailing bytes', () => {
    const decode = (data: string) => () => tlrCommand.decodeRequest({ id: 'TLR', blocks: [latin1(data)] });
    expect(decode('01' + '030' + '20301' + 'ABC')).toThrow(AbecsFormatError);
    expect(decode('01' + '011' + '40301' + 'ABC')).toThrow(AbecsFormatError);
    expect(decode('02' + '011' + '20301' + 'ABC')).toThrow(AbecsFormatError);
    expect(decode('01' + '011' + '20301' + 'ABCD')).toThrow(AbecsFormatError);
    expect(decode('01' + '005' + '20301')).toThrow(AbecsFormatError);
    expect(decode('01' + '011' + '20301' + 'ABC')()).toEqual({
      records: [{ table: 'capk', acquirer: 3, record: '01', body: 'ABC' }],
    });
  });

  it('refuses records that do not fit one 999-byte block', () => {
    const record: TableRecord = { table: 'aid', acquirer: 3, record: '01', body: 'X'.repeat(332) };
    expect(() => tlrCommand.encodeRequest({ records: [record, record, record] })).toThrow(InvalidArgumentError);
  });

  describe('properties', () => {
    const record: fc.Arbitrary<TableRecord> = fc.record({
      table: fc.constantFrom('aid' as const, 'capk' as const, 'revokedCertificate' as const),
      acquirer: fc.integer({ min: 0, max: 99 }),
      record: recordIndex,
      body: latin1Text(120),
    });
    const request: fc.Arbitrary<TlrRequest> = fc.record({ records: fc.array(record, { minLength: 1, maxLength: 7 }) });

    it('decodeRequest(encodeRequest(x)) is x', () => requestRoundTrip(tlrCommand, request));
    garbageProperties(tlrCommand);
  });
});
