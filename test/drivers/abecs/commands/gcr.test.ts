import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gcrCommand, type GcrRequest, type GcrResult } from '../../../../drivers/abecs/commands/gcr.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import type { CardType } from '../../../../drivers/abecs/card-params.js';
import {
  asciiText,
  digitText,
  garbageProperties,
  recordIndex,
  requestRoundTrip,
  responseRoundTrip,
  expectFormatError,
} from './codec-properties.js';

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');
const pad = (text: string, size: number): string => text.padEnd(size, ' ');

/** S220 §3.6.1 example: acquirer "02" records 14, 22 and 17, R$ 10,00, CTLS left at its default. */
const SPEC_REQUEST =
  'GCR052' + '00' + '00' + '000000001000' + '131207' + '102355' + '8765234568' + '03' + '0214' + '0222' + '0217';

/** CAPPTA PinPadEmulator's expected GCR answer: an EMV chip card of acquirer 02 (AUC 9F0702FF00). */
const CAPPTA_RESPONSE =
  'GCR00035203001022200                                                                            375464999910769990=19122062812366907700000                                                                                                        165464999910769990   00CREDITO         000LEE WEINRIB / GEDDY       19123100                   000000000760109F0702FF00';

/** The same answer assembled field by field from the offsets table of abecs.md §3.14. */
function buildChipBody(ruf1: string, acquirerData: string): string {
  return [
    '03', // 0   GCR_CARDTYPE
    '0', // 2   GCR_STATCHIP
    '01', // 3   GCR_APPTYPE
    '02', // 5   GCR_ACQIDX
    '22', // 7   GCR_RECIDX
    '00' + pad('', 76), // 9  GCR_TRK1LEN + GCR_TRK1
    '37' + '5464999910769990=19122062812366907700', // 87
    '000' + pad('', 104), // 126
    '16' + pad('5464999910769990', 19), // 233
    '00', // 254 GCR_PANSEQNO
    pad('CREDITO', 16), // 256
    '000', // 272 GCR_SRVCODE
    pad('LEE WEINRIB / GEDDY', 26), // 275
    '191231', // 301 GCR_CARDEXP
    ruf1, // 307 GCR_RUF1
    '076', // 336 GCR_ISSCNTRY
    String(acquirerData.length).padStart(3, '0') + acquirerData, // 339
  ].join('');
}

const chipResult: GcrResult = {
  cardType: 'chip',
  cardTypeCode: '03',
  chipStatus: 0,
  appType: 1,
  acquirer: 2,
  record: '22',
  track1: '',
  track2: '5464999910769990=19122062812366907700',
  track3: '',
  pan: '5464999910769990',
  panSequence: '00',
  applicationLabel: 'CREDITO',
  serviceCode: '000',
  cardholderName: 'LEE WEINRIB / GEDDY',
  expiry: '191231',
  issuerCountry: '076',
  acquirerData: '9F0702FF00',
};

describe('GCR codec', () => {
  it('is blocking and treats no status but 000 as a result', () => {
    expect(gcrCommand.blocking).toBe(true);
    expect(gcrCommand.resultStatuses ?? []).toEqual([]);
  });

  describe('requests', () => {
    const specRequest: GcrRequest = {
      acquirer: 0,
      appType: 0,
      amount: 1000,
      date: '131207',
      time: '102355',
      tableVersion: '8765234568',
      applications: [
        { acquirer: 2, record: '14' },
        { acquirer: 2, record: '22' },
        { acquirer: 2, record: '17' },
      ],
    };

    it('encodes the spec example byte for byte', () => {
      expect(encodeCommandPacket(gcrCommand.encodeRequest(specRequest))).toEqual(latin1(SPEC_REQUEST));
    });

    it('decodes the spec example', () => {
      expect(gcrCommand.decodeRequest(decodeCommandPacket(latin1(SPEC_REQUEST)))).toStrictEqual(specRequest);
    });

    it('appends GCR_CTLSON only when ctlsEnabled is given', () => {
      const off = encodeCommandPacket(gcrCommand.encodeRequest({ ...specRequest, ctlsEnabled: false }));
      expect(off.toString('latin1')).toBe(SPEC_REQUEST.replace('GCR052', 'GCR053') + '0');
      const on = encodeCommandPacket(gcrCommand.encodeRequest({ ...specRequest, ctlsEnabled: true }));
      expect(on.toString('latin1').endsWith('02171')).toBe(true);
    });

    it('encodes the second spec example (all acquirers, any application, R$ 28,37, no list)', () => {
      const req: GcrRequest = {
        acquirer: 0,
        appType: 99,
        amount: 2837,
        date: '140724',
        time: '113922',
        tableVersion: 'TABVER0918',
        applications: [],
        ctlsEnabled: false,
      };
      expect(encodeCommandPacket(gcrCommand.encodeRequest(req))).toEqual(
        latin1('GCR041009900000000283714072411392' + '2TABVER0918000'),
      );
    });

    it('sends the resume request as a bare GCR and reads GCR and GCR000 as resume', () => {
      expect(encodeCommandPacket(gcrCommand.encodeRequest({ resume: true }))).toEqual(latin1('GCR'));
      expect(gcrCommand.decodeRequest(decodeCommandPacket(latin1('GCR')))).toEqual({ resume: true });
      expect(gcrCommand.decodeRequest(decodeCommandPacket(latin1('GCR000')))).toEqual({ resume: true });
    });

    it('answers ST_MANDAT (019) when fixed fields are missing and ST_INVPARM (011) for bad ones', () => {
      const short = () => gcrCommand.decodeRequest(decodeCommandPacket(latin1('GCR0100000000000')));
      expect(short).toThrow(AbecsFormatError);
      expectFormatError(() => short(), { code: 'MALFORMED_COMMAND', status: 19 });
      const badCtls = latin1(SPEC_REQUEST.replace('GCR052', 'GCR053') + '7');
      expectFormatError(() => gcrCommand.decodeRequest(decodeCommandPacket(badCtls)), {
        code: 'MALFORMED_COMMAND',
        status: 11,
      });
      const missingEntry = latin1(SPEC_REQUEST.replace('GCR052', 'GCR048').slice(0, -4));
      expect(() => gcrCommand.decodeRequest(decodeCommandPacket(missingEntry))).toThrow(AbecsFormatError);
    });

    it('refuses dates that are not six digits', () => {
      expect(() => gcrCommand.encodeRequest({ ...specRequest, date: '1312' })).toThrow(InvalidArgumentError);
    });
  });

  describe('responses', () => {
    it('matches the offsets table against the CAPPTA expectation', () => {
      const body = buildChipBody('00' + pad('', 19) + '00000000', '9F0702FF00');
      expect(body.length).toBe(352);
      expect('GCR000352' + body).toBe(CAPPTA_RESPONSE);
    });

    it('decodes every field of the 352-byte CAPPTA answer', () => {
      expect(gcrCommand.decodeResponse(decodeResponsePacket(latin1(CAPPTA_RESPONSE)))).toStrictEqual(chipResult);
    });

    it('encodes the CAPPTA answer with the RUF field zeroed', () => {
      const expected = 'GCR000352' + buildChipBody('0'.repeat(29), '9F0702FF00');
      expect(encodeResponsePacket(gcrCommand.encodeResponse(chipResult))).toEqual(latin1(expected));
    });

    it('decodes the 342-byte spec answer (no acquirer data)', () => {
      const body = buildChipBody('0'.repeat(29), '');
      expect(body.length).toBe(342);
      const result = gcrCommand.decodeResponse({ id: 'GCR', status: 0, blocks: [latin1(body)] });
      expect(result).toStrictEqual({ ...chipResult, acquirerData: '' });
    });

    it('decodes the spec magstripe answer, padded to 352 bytes after an empty GCR_ACQRD', () => {
      const track1 = 'B4444333322221111^TOM SAWYER^16081018127365476152364517862354876123764576123';
      const track2 = '4444333322221111=16081018127365476154';
      const track3 = '4444333322221111==16081018127365476152364517862354876123764576123=837482747872368400001991';
      const body =
        '00' +
        '1' +
        '00' +
        '00' +
        '00' +
        '76' +
        track1 +
        '37' +
        track2 +
        '090' +
        pad(track3, 104) +
        '00' +
        pad('', 19) +
        '00' +
        pad('', 16) +
        '000' +
        pad('', 26) +
        '000000' +
        '0'.repeat(29) +
        '000' +
        '000' +
        '0'.repeat(10);
      const result = gcrCommand.decodeResponse(decodeResponsePacket(latin1('GCR000352' + body)));
      expect(result).toStrictEqual({
        cardType: 'magstripe',
        cardTypeCode: '00',
        chipStatus: 1,
        appType: 0,
        acquirer: 0,
        record: '00',
        track1,
        track2,
        track3,
        pan: '',
        panSequence: '00',
        applicationLabel: '',
        serviceCode: '000',
        cardholderName: '',
        expiry: '000000',
        issuerCountry: '000',
        acquirerData: '',
      });
    });

    it('takes track 3 from the padded field when GCR_TRK3LEN is spaces (encrypted-PAN mode)', () => {
      const body = buildChipBody('0'.repeat(29), '');
      const encrypted = body.slice(0, 126) + '   ' + pad('ABC=123', 104) + body.slice(233);
      const result = gcrCommand.decodeResponse({ id: 'GCR', status: 0, blocks: [latin1(encrypted)] });
      expect(result.track3).toBe('ABC=123');
    });

    it('keeps BibComp card types as "other" with their raw code', () => {
      const body = '01' + buildChipBody('0'.repeat(29), '').slice(2);
      const result = gcrCommand.decodeResponse({ id: 'GCR', status: 0, blocks: [latin1(body)] });
      expect(result.cardType).toBe('other');
      expect(result.cardTypeCode).toBe('01');
    });

    it('rejects truncated answers and track lengths beyond their field, without leaking card data', () => {
      const body = buildChipBody('0'.repeat(29), '');
      expect(() => gcrCommand.decodeResponse({ id: 'GCR', status: 0, blocks: [latin1(body.slice(0, 300))] })).toThrow(
        AbecsFormatError,
      );
      const badLength = body.slice(0, 87) + '99' + body.slice(89);
      try {
        gcrCommand.decodeResponse({ id: 'GCR', status: 0, blocks: [latin1(badLength)] });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(AbecsFormatError);
        expect((error as Error).message).not.toContain('5464999910769990');
      }
    });

    it('refuses to encode a result whose cardType contradicts its code', () => {
      expect(() => gcrCommand.encodeResponse({ ...chipResult, cardType: 'magstripe' })).toThrow(InvalidArgumentError);
    });
  });

  describe('properties', () => {
    const aidRef = fc.record({ acquirer: fc.integer({ min: 0, max: 99 }), record: recordIndex });
    const start = fc.record(
      {
        acquirer: fc.integer({ min: 0, max: 99 }),
        appType: fc.integer({ min: 0, max: 99 }),
        amount: fc.integer({ min: 0, max: 999_999_999_999 }),
        date: digitText(6),
        time: digitText(6),
        tableVersion: asciiText(10),
        applications: fc.array(aidRef, { maxLength: 30 }),
        ctlsEnabled: fc.boolean(),
      },
      { requiredKeys: ['acquirer', 'appType', 'amount', 'date', 'time', 'tableVersion', 'applications'] },
    );
    const request: fc.Arbitrary<GcrRequest> = fc.oneof(start, fc.constant({ resume: true as const }));

    const codes: Record<CardType, string> = {
      magstripe: '00',
      chip: '03',
      contactlessMagstripe: '05',
      contactlessChip: '06',
    };
    const result: fc.Arbitrary<GcrResult> = fc
      .record({
        cardType: fc.constantFrom(...(Object.keys(codes) as CardType[])),
        chipStatus: fc.integer({ min: 0, max: 9 }),
        appType: fc.integer({ min: 0, max: 99 }),
        acquirer: fc.integer({ min: 0, max: 99 }),
        record: recordIndex,
        track1: asciiText(76),
        track2: asciiText(37),
        track3: asciiText(104),
        pan: asciiText(19),
        panSequence: digitText(2),
        applicationLabel: asciiText(16),
        serviceCode: digitText(3),
        cardholderName: asciiText(26),
        expiry: digitText(6),
        issuerCountry: digitText(3),
        acquirerData: asciiText(66),
      })
      .map((r) => ({ ...r, cardTypeCode: codes[r.cardType] }));

    it('decodeRequest(encodeRequest(x)) is x', () => requestRoundTrip(gcrCommand, request));
    it('decodeResponse(encodeResponse(y)) is y', () => responseRoundTrip(gcrCommand, result));
    garbageProperties(gcrCommand);
  });
});
