import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { goxCommand, type GoxRequest, type GoxResult } from '../../../../drivers/abecs/commands/gox.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { encodeFrame } from '../../../../drivers/abecs/frame.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import { decodeEmvTlv } from '../../../../drivers/abecs/emv.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import {
  bytesOf,
  emvTag,
  garbageProperties,
  latin1Text,
  requestRoundTrip,
  responseRoundTrip,
  upperHex,
  expectFormatError,
} from './codec-properties.js';
import { TRACE_EMV_HEX, TRACE_TAGLIST_HEX, TRACE_TAGS } from './trace-emv.js';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const tlv = (id: number, value: string | Buffer): Buffer =>
  encodeTlv(id, typeof value === 'string' ? Buffer.from(value, 'latin1') : value);
const packet = (head: string, ...params: Buffer[]): Buffer => Buffer.concat([Buffer.from(head, 'latin1'), ...params]);

const TRACE_PROMPT = `R$ 0,01${' '.repeat(9)}\rSENHA CREDIT:  `;

/** TRACE GOX168: acquirer 02, R$ 0,01, no PIN bypass, DUKPT slot 02, 23 tags, purchase. */
const traceRequest: GoxRequest = {
  acquirer: 2,
  amount: 1,
  cashback: 0,
  options: { exceptionList: false, forceOnline: false, noPinBypass: true },
  pinMethod: 'dukpt',
  keyIndex: 2,
  workingKey: Buffer.alloc(8),
  pinPrompt: TRACE_PROMPT,
  riskParameters: { floorLimit: 0, targetPercent: 0, thresholdValue: 0, maxTargetPercent: 0 },
  tagList: TRACE_TAGS,
  transactionType: 0,
};

const TRACE_REQUEST = packet(
  'GOX168',
  tlv(0x10, '02'),
  tlv(0x13, '000000000001'),
  tlv(0x14, '000000000000'),
  tlv(0x18, '00100'),
  tlv(0x02, '3'),
  tlv(0x09, '02'),
  tlv(0x0a, Buffer.alloc(8)),
  tlv(0x1b, TRACE_PROMPT),
  tlv(0x1a, Buffer.alloc(10)),
  tlv(0x04, hex(TRACE_TAGLIST_HEX)),
  tlv(0x21, hex('00')),
);

describe('GOX codec', () => {
  it('is blocking', () => {
    expect(goxCommand.blocking).toBe(true);
  });

  it('reproduces the TRACE GOX168 packet byte for byte, CRC 32 E7', () => {
    const pkt = encodeCommandPacket(goxCommand.encodeRequest(traceRequest));
    expect(pkt).toEqual(TRACE_REQUEST);
    expect(encodeFrame(pkt).subarray(-3)).toEqual(hex('17 32 E7'));
  });

  it('decodes the TRACE packet', () => {
    expect(goxCommand.decodeRequest(decodeCommandPacket(TRACE_REQUEST))).toEqual(traceRequest);
  });

  it('decodes the TRACE answer: go online, no PIN, the EMV objects the card has', () => {
    const rsp = packet('GOX000163', tlv(0x8056, '200000'), tlv(0x8054, hex(TRACE_EMV_HEX)));
    const result = goxCommand.decodeResponse(decodeResponsePacket(rsp));
    expect(result).toEqual({
      decision: 'goOnline',
      signatureRequired: false,
      offlinePinVerified: false,
      onlinePinCaptured: false,
      deviceCvm: false,
      emvData: hex(TRACE_EMV_HEX),
    });
    // The PINPAD leaves out 5A/57 (PAN and track data are never returned) and 9F0B (absent).
    const returned = TRACE_TAGS.filter((tag) => !['9F0B', '5A', '57'].includes(tag));
    expect(decodeEmvTlv(result.emvData!).map((item) => item.tag)).toEqual(returned);
    expect(encodeResponsePacket(goxCommand.encodeResponse(result))).toEqual(rsp);
  });

  it('decodes the spec example (acquirer 08, DUKPT slot 07, risk parameters)', () => {
    const cmd = packet(
      'GOX116',
      tlv(0x13, '000000023450'),
      tlv(0x14, '000000010000'),
      tlv(0x02, '3'),
      tlv(0x09, '07'),
      tlv(0x1b, 'CRÉDITO\rR$ 234,50\rDIGITE SUA SENHA'),
      tlv(0x1a, hex('0000271014000000 1950')),
      tlv(0x04, hex('959F269F279F109F349F36')),
      tlv(0x10, '08'),
    );
    expect(cmd.subarray(3, 6).toString()).toBe('116');
    expect(goxCommand.decodeRequest(decodeCommandPacket(cmd))).toEqual({
      acquirer: 8,
      amount: 23450,
      cashback: 10000,
      pinMethod: 'dukpt',
      keyIndex: 7,
      pinPrompt: 'CRÉDITO\rR$ 234,50\rDIGITE SUA SENHA',
      riskParameters: { floorLimit: 10000, targetPercent: 20, thresholdValue: 25, maxTargetPercent: 80 },
      tagList: ['95', '9F26', '9F27', '9F10', '9F34', '9F36'],
    });
  });

  it('decodes the spec answer with an online PIN block and KSN', () => {
    const emv = hex('950500800000009F2608E0DB51A3742FEA839F2701809F100C2C514D270FC3CD876CA400009F34034203029F3602004C');
    const rsp = packet(
      'GOX000088',
      tlv(0x8056, '202000'),
      tlv(0x8054, emv),
      tlv(0x8057, hex('B9DF0A996EA6CCB7')),
      tlv(0x804c, hex('FFFFF798410034400008')),
    );
    expect(goxCommand.decodeResponse(decodeResponsePacket(rsp))).toEqual({
      decision: 'goOnline',
      signatureRequired: false,
      offlinePinVerified: false,
      onlinePinCaptured: true,
      deviceCvm: false,
      pinBlock: 'B9DF0A996EA6CCB7',
      ksn: 'FFFFF798410034400008',
      emvData: emv,
    });
  });

  it('answers ST_MANDAT (019) without SPE_ACQREF, SPE_MTHDPIN or SPE_KEYIDX', () => {
    const full = [tlv(0x10, '02'), tlv(0x02, '3'), tlv(0x09, '02')];
    for (let skip = 0; skip < full.length; skip++) {
      const blocks = [Buffer.concat(full.filter((_, i) => i !== skip))];
      expectFormatError(() => goxCommand.decodeRequest({ id: 'GOX', blocks }), { status: 19 });
    }
  });

  it('rejects malformed results and keeps PIN data out of messages', () => {
    expect(() => goxCommand.decodeResponse({ id: 'GOX', status: 0, blocks: [tlv(0x8056, '300000')] })).toThrow(
      AbecsFormatError,
    );
    try {
      goxCommand.decodeResponse({
        id: 'GOX',
        status: 0,
        blocks: [Buffer.concat([tlv(0x8056, '202000'), tlv(0x8057, hex('B9DF0A996EA6CC'))])],
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AbecsFormatError);
      expect((error as Error).message).not.toMatch(/B9DF|b9df/);
    }
  });

  it('refuses a PIN both verified offline and captured online', () => {
    expect(() =>
      goxCommand.encodeResponse({
        decision: 'goOnline',
        signatureRequired: false,
        offlinePinVerified: true,
        onlinePinCaptured: true,
        deviceCvm: false,
      }),
    ).toThrow(InvalidArgumentError);
  });

  describe('properties', () => {
    const request: fc.Arbitrary<GoxRequest> = fc.record(
      {
        acquirer: fc.integer({ min: 0, max: 99 }),
        transactionType: fc.integer({ min: 0, max: 255 }),
        amount: fc.integer({ min: 0, max: 999_999_999_999 }),
        cashback: fc.integer({ min: 0, max: 999_999_999_999 }),
        currency: fc.integer({ min: 0, max: 999 }),
        options: fc.record({ exceptionList: fc.boolean(), forceOnline: fc.boolean(), noPinBypass: fc.boolean() }),
        pinMethod: fc.constantFrom('mkwk' as const, 'dukpt' as const),
        keyIndex: fc.integer({ min: 0, max: 99 }),
        workingKey: bytesOf(16, 8),
        pinPrompt: latin1Text(128, 1),
        riskParameters: fc.record({
          floorLimit: fc.integer({ min: 0, max: 0xffffffff }),
          targetPercent: fc.integer({ min: 0, max: 255 }),
          thresholdValue: fc.integer({ min: 0, max: 0xffffffff }),
          maxTargetPercent: fc.integer({ min: 0, max: 255 }),
        }),
        emvData: bytesOf(512),
        tagList: fc.array(emvTag, { maxLength: 40 }),
        timeout: fc.integer({ min: 0, max: 255 }),
      },
      { requiredKeys: ['acquirer', 'pinMethod', 'keyIndex'] },
    );
    const result: fc.Arbitrary<GoxResult> = fc
      .record(
        {
          decision: fc.constantFrom('approvedOffline' as const, 'declined' as const, 'goOnline' as const),
          signatureRequired: fc.boolean(),
          cvm: fc.constantFrom(0, 1, 2),
          deviceCvm: fc.boolean(),
          pinBlock: upperHex(8),
          ksn: upperHex(10),
          emvData: bytesOf(512),
        },
        { requiredKeys: ['decision', 'signatureRequired', 'cvm', 'deviceCvm'] },
      )
      .map(({ cvm, ...rest }) => ({ ...rest, offlinePinVerified: cvm === 1, onlinePinCaptured: cvm === 2 }));

    it('decodeRequest(encodeRequest(x)) is x', () => requestRoundTrip(goxCommand, request));
    it('decodeResponse(encodeResponse(y)) is y', () => responseRoundTrip(goxCommand, result));
    garbageProperties(goxCommand);
  });
});
