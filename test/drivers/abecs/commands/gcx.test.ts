import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gcxCommand, type GcxRequest, type GcxResult } from '../../../../drivers/abecs/commands/gcx.js';
import { decodeCommandPacket, decodeResponsePacket, encodeCommandPacket } from '../../../../drivers/abecs/envelope.js';
import { encodeFrame } from '../../../../drivers/abecs/frame.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import type { CardType } from '../../../../drivers/abecs/card-params.js';
import {
  bytesOf,
  digitText,
  emvTag,
  garbageProperties,
  latin1Text,
  rawAscii,
  recordIndex,
  requestRoundTrip,
  responseRoundTrip,
  expectFormatError,
} from './codec-properties.js';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const tlv = (id: number, value: string | Buffer): Buffer =>
  encodeTlv(id, typeof value === 'string' ? Buffer.from(value, 'latin1') : value);
const packet = (head: string, ...params: Buffer[]): Buffer => Buffer.concat([Buffer.from(head, 'latin1'), ...params]);

/** TRACE (abecs.md §1.5): contactless allowed, AID records 02/01 and 02/04, R$ 0,01, purchase. */
const traceRequest: GcxRequest = {
  aids: [
    { acquirer: 2, record: '01' },
    { acquirer: 2, record: '04' },
  ],
  amount: 1,
  date: '251111',
  time: '173647',
  options: { contactless: true, hideAmount: false },
  transactionType: 0,
};

const TRACE_LOGICAL = hex(`
  47 43 58 30 36 32 00 12 00 08 30 32 30 31 30 32 30 34 00 13 00 0C 30 30 30 30 30 30 30 30 30 30 30 31
  00 15 00 06 32 35 31 31 31 31 00 16 00 06 31 37 33 36 34 37 00 17 00 05 31 30 30 30 30 00 21 00 01 00`);

const TRACE_WIRE = hex(`
  16 47 43 58 30 36 32 00 12 00 08 30 32 30 31 30 32 30 34 00 13 33 00 0C 30 30 30 30 30 30 30 30 30 30 30 31
  00 15 00 06 32 35 31 31 31 31 00 13 36 00 06 31 37 33 36 34 37 00 13 37 00 05 31 30 30 30 30 00 21 00 01 00
  17 AF 70`);

describe('GCX codec', () => {
  it('is blocking', () => {
    expect(gcxCommand.blocking).toBe(true);
  });

  describe('requests', () => {
    it('reproduces the TRACE GCX062 packet byte for byte', () => {
      expect(encodeCommandPacket(gcxCommand.encodeRequest(traceRequest))).toEqual(TRACE_LOGICAL);
    });

    it('reproduces its escaped wire bytes and CRC AF 70', () => {
      expect(encodeFrame(encodeCommandPacket(gcxCommand.encodeRequest(traceRequest)))).toEqual(TRACE_WIRE);
    });

    it('decodes the TRACE packet', () => {
      expect(gcxCommand.decodeRequest(decodeCommandPacket(TRACE_LOGICAL))).toEqual(traceRequest);
    });

    it('decodes the first spec example (acquirer 08, forced 9F33, two tags), in the spec order', () => {
      const cmd = packet(
        'GCX069',
        tlv(0x17, '00000'),
        tlv(0x10, '08'),
        tlv(0x13, '000000048300'),
        tlv(0x15, '130901'),
        tlv(0x16, '201847'),
        tlv(0x05, hex('9F3303E0F8C8')),
        tlv(0x04, hex('5F285F24')),
      );
      expect(gcxCommand.decodeRequest(decodeCommandPacket(cmd))).toEqual({
        options: { contactless: false, hideAmount: false },
        acquirer: 8,
        amount: 48300,
        date: '130901',
        time: '201847',
        emvData: hex('9F3303E0F8C8'),
        tagList: ['5F28', '5F24'],
      });
    });

    it('decodes the second spec example (timeout, Latin-1 prompt, AID list, cashback)', () => {
      const prompt = 'POR FAVOR AMIGO, USE SEU CARTÃO COMO QUISER!';
      const cmd = packet(
        'GCX134',
        tlv(0x0c, hex('2A')),
        tlv(0x1b, prompt),
        tlv(0x12, '0101020503082504'),
        tlv(0x13, '000000112800'),
        tlv(0x14, '000000012800'),
        tlv(0x15, '140725'),
        tlv(0x16, '082559'),
        tlv(0x17, '10000'),
      );
      expect(cmd.subarray(3, 6).toString()).toBe('134');
      expect(gcxCommand.decodeRequest(decodeCommandPacket(cmd))).toEqual({
        timeout: 42,
        prompt,
        aids: [
          { acquirer: 1, record: '01' },
          { acquirer: 2, record: '05' },
          { acquirer: 3, record: '08' },
          { acquirer: 25, record: '04' },
        ],
        amount: 112800,
        cashback: 12800,
        date: '140725',
        time: '082559',
        options: { contactless: true, hideAmount: false },
      });
    });

    it('answers ST_MANDAT (019) without date or time', () => {
      const cmd = packet('GCX010', tlv(0x15, '251111'));
      expectFormatError(() => gcxCommand.decodeRequest(decodeCommandPacket(cmd)), {
        code: 'MALFORMED_COMMAND',
        status: 19,
      });
    });

    it('answers ST_INVPARM (011) for a broken AID list or non-digit amount', () => {
      const base = [tlv(0x15, '251111'), tlv(0x16, '173647')];
      expectFormatError(
        () => gcxCommand.decodeRequest({ id: 'GCX', blocks: [Buffer.concat([...base, tlv(0x12, '020')])] }),
        { status: 11 },
      );
      expectFormatError(
        () => gcxCommand.decodeRequest({ id: 'GCX', blocks: [Buffer.concat([...base, tlv(0x13, '00000000001A')])] }),
        { status: 11 },
      );
    });

    it('writes GCXOPT from typed flags and PANMASK as "eedd"', () => {
      const cmd = gcxCommand.encodeRequest({
        date: '251111',
        time: '173647',
        options: { contactless: false, hideAmount: true },
        panMask: { left: 6, right: 4 },
      });
      const params = cmd.blocks[0]!;
      expect(params.includes(tlv(0x17, '01000'))).toBe(true);
      expect(params.includes(tlv(0x23, '0604'))).toBe(true);
    });
  });

  describe('responses', () => {
    it('decodes the TRACE contactless answer', () => {
      const rsp = packet(
        'GCX000104',
        tlv(0x8051, '020101'),
        tlv(0x805b, 'CREDITO'),
        tlv(0x8060, '00'),
        tlv(0x804f, '06'),
        tlv(0x8042, 'M'.repeat(24)),
        tlv(0x8052, 'M'.repeat(16)),
        tlv(0x8053, '00'),
        tlv(0x805c, '076'),
        tlv(0x805d, '310731'),
      );
      expect(gcxCommand.decodeResponse(decodeResponsePacket(rsp))).toEqual({
        cardType: 'contactlessChip',
        cardTypeCode: '06',
        aidTableInfo: [{ acquirer: 2, record: '01', appType: 1 }],
        applicationLabel: 'CREDITO',
        deviceType: '00',
        track2: 'M'.repeat(24),
        pan: 'M'.repeat(16),
        panSequence: '00',
        issuerCountry: '076',
        expiry: '310731',
      });
    });

    it('decodes the first spec answer (chip, Latin-1 label, four-digit country code)', () => {
      const rsp = packet(
        'GCX000125',
        tlv(0x8055, 'JOHN DOE'),
        tlv(0x8052, '4444333322221111'),
        tlv(0x8042, '4444333322221111=1608201'),
        tlv(0x804f, '03'),
        tlv(0x8051, '080301'),
        tlv(0x8053, '01'),
        tlv(0x8054, hex('5F280200765F2403160831')),
        tlv(0x805b, hex('52C94449544F')),
        tlv(0x805c, '0076'),
        tlv(0x805d, '160831'),
      );
      expect(gcxCommand.decodeResponse(decodeResponsePacket(rsp))).toEqual({
        cardType: 'chip',
        cardTypeCode: '03',
        cardholderName: 'JOHN DOE',
        pan: '4444333322221111',
        track2: '4444333322221111=1608201',
        aidTableInfo: [{ acquirer: 8, record: '03', appType: 1 }],
        panSequence: '01',
        emvData: hex('5F280200765F2403160831'),
        applicationLabel: 'RÉDITO',
        issuerCountry: '076',
        expiry: '160831',
      });
    });

    it('decodes the second spec answer (two acquirers can take the card)', () => {
      const rsp = packet(
        'GCX000096',
        tlv(0x8042, '50098237234238002=1701600'),
        tlv(0x804f, '06'),
        tlv(0x8051, '020503250403'),
        tlv(0x8052, '50098237234238002'),
        tlv(0x8053, '00'),
        tlv(0x805b, 'PAYPASS'),
        tlv(0x805c, '840'),
      );
      const result = gcxCommand.decodeResponse(decodeResponsePacket(rsp));
      expect(result.aidTableInfo).toEqual([
        { acquirer: 2, record: '05', appType: 3 },
        { acquirer: 25, record: '04', appType: 3 },
      ]);
      expect(result.issuerCountry).toBe('840');
    });

    it('requires PP_CARDTYPE', () => {
      expect(() => gcxCommand.decodeResponse({ id: 'GCX', status: 0, blocks: [tlv(0x805b, 'CREDITO')] })).toThrow(
        AbecsFormatError,
      );
    });

    it('keeps the PAN out of error messages', () => {
      const pan = '5413330089010434';
      try {
        gcxCommand.decodeResponse({
          id: 'GCX',
          status: 0,
          blocks: [Buffer.concat([tlv(0x804f, '03'), tlv(0x8052, `${pan}\x01`)])],
        });
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(AbecsFormatError);
        expect((error as Error).message).not.toContain(pan);
      }
    });
  });

  describe('properties', () => {
    const request: fc.Arbitrary<GcxRequest> = fc.record(
      {
        transactionType: fc.integer({ min: 0, max: 255 }),
        acquirer: fc.integer({ min: 0, max: 99 }),
        appTypes: fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 10 }),
        aids: fc.array(fc.record({ acquirer: fc.integer({ min: 0, max: 99 }), record: recordIndex }), {
          minLength: 1,
          maxLength: 128,
        }),
        amount: fc.integer({ min: 0, max: 999_999_999_999 }),
        cashback: fc.integer({ min: 0, max: 999_999_999_999 }),
        currency: fc.integer({ min: 0, max: 999 }),
        date: digitText(6),
        time: digitText(6),
        options: fc.record({ contactless: fc.boolean(), hideAmount: fc.boolean() }),
        panMask: fc.record({ left: fc.integer({ min: 0, max: 99 }), right: fc.integer({ min: 0, max: 99 }) }),
        emvData: bytesOf(512),
        tagList: fc.array(emvTag, { maxLength: 40 }),
        timeout: fc.integer({ min: 0, max: 255 }),
        prompt: latin1Text(128, 1),
      },
      { requiredKeys: ['date', 'time'] },
    );
    const codes: Record<CardType, string> = {
      magstripe: '00',
      chip: '03',
      contactlessMagstripe: '05',
      contactlessChip: '06',
    };
    const result: fc.Arbitrary<GcxResult> = fc
      .record(
        {
          cardType: fc.constantFrom(...(Object.keys(codes) as CardType[])),
          iccStatus: fc.integer({ min: 0, max: 9 }),
          aidTableInfo: fc.array(
            fc.record({
              acquirer: fc.integer({ min: 0, max: 99 }),
              record: recordIndex,
              appType: fc.integer({ min: 0, max: 99 }),
            }),
            { maxLength: 20 },
          ),
          pan: rawAscii(19, 1),
          panSequence: digitText(2),
          track1: rawAscii(60),
          track2: rawAscii(30),
          track3: rawAscii(30),
          cardholderName: rawAscii(26),
          applicationLabel: latin1Text(16),
          issuerCountry: digitText(3),
          expiry: digitText(6),
          emvData: bytesOf(512),
          deviceType: digitText(2),
        },
        { requiredKeys: ['cardType'] },
      )
      .map((r) => ({ ...r, cardTypeCode: codes[r.cardType] }));

    it('decodeRequest(encodeRequest(x)) is x', () => requestRoundTrip(gcxCommand, request));
    it('decodeResponse(encodeResponse(y)) is y', () => responseRoundTrip(gcxCommand, result));
    garbageProperties(gcxCommand);
  });
});
