import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fcxCommand, type FcxRequest, type FcxResult } from '../../../../drivers/abecs/commands/fcx.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { encodeFrame } from '../../../../drivers/abecs/frame.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import {
  bytesOf,
  emvTag,
  garbageProperties,
  rawAscii,
  requestRoundTrip,
  responseRoundTrip,
  expectFormatError,
} from './codec-properties.js';
import { TRACE_EMV_HEX, TRACE_TAGLIST_HEX, TRACE_TAGS } from './trace-emv.js';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');
const tlv = (id: number, value: string | Buffer): Buffer =>
  encodeTlv(id, typeof value === 'string' ? Buffer.from(value, 'latin1') : value);
const packet = (head: string, ...params: Buffer[]): Buffer => Buffer.concat([Buffer.from(head, 'latin1'), ...params]);

/** TRACE FCX073: host approved ("00"), ARC 8A "00" and tag 89 "062501" forwarded to the card. */
const traceRequest: FcxRequest = {
  outcome: 'approved',
  arc: '00',
  emvData: hex('8A023030 8906303632353031'),
  tagList: TRACE_TAGS,
};

const TRACE_REQUEST = packet(
  'FCX073',
  tlv(0x19, '0000'),
  tlv(0x1c, '00'),
  tlv(0x05, hex('8A023030 8906303632353031')),
  tlv(0x04, hex(TRACE_TAGLIST_HEX)),
);

describe('FCX codec', () => {
  it('is blocking (it may wait for a contactless card to be presented again)', () => {
    expect(fcxCommand.blocking).toBe(true);
  });

  it('reproduces the TRACE FCX073 packet byte for byte, CRC 0D 93', () => {
    const pkt = encodeCommandPacket(fcxCommand.encodeRequest(traceRequest));
    expect(pkt).toEqual(TRACE_REQUEST);
    expect(encodeFrame(pkt).subarray(-3)).toEqual(hex('17 0D 93'));
  });

  it('decodes the TRACE packet and answer', () => {
    expect(fcxCommand.decodeRequest(decodeCommandPacket(TRACE_REQUEST))).toEqual(traceRequest);
    const rsp = packet('FCX000160', tlv(0x8058, '000'), tlv(0x8054, hex(TRACE_EMV_HEX)));
    const result = fcxCommand.decodeResponse(decodeResponsePacket(rsp));
    expect(result).toEqual({ decision: 'approved', emvData: hex(TRACE_EMV_HEX) });
    expect(encodeResponsePacket(fcxCommand.encodeResponse(result))).toEqual(rsp);
  });

  it('decodes the spec example (ARC "Y3", issuer script 72) and its answer', () => {
    const emv = hex('9108A102DB6D41C67963 72129F180086 0D8424000008A071544A23761AA1');
    const cmd = packet('FCX059', tlv(0x05, emv), tlv(0x04, hex('959F269F279F10')), tlv(0x1c, 'Y3'), tlv(0x19, '0000'));
    expect(fcxCommand.decodeRequest(decodeCommandPacket(cmd))).toEqual({
      outcome: 'approved',
      arc: 'Y3',
      emvData: emv,
      tagList: ['95', '9F26', '9F27', '9F10'],
    });
    // The spec's answer labels the result 8056h instead of PP_FCXRES (8058h).
    const answerEmv = hex('9505008000000 09F26089524B3FC025E51729F2701409F100A7D895FFFF015D772FBC9'.replace(' ', ''));
    const rsp = packet('FCX000055', tlv(0x8056, '000'), tlv(0x8059, hex('2000000000')), tlv(0x8054, answerEmv));
    expect(fcxCommand.decodeResponse(decodeResponsePacket(rsp))).toEqual({
      decision: 'approved',
      emvData: answerEmv,
      issuerScriptResults: hex('2000000000'),
    });
  });

  it('answers ST_MANDAT (019) without SPE_FCXOPT, or without SPE_ARC after a host answer', () => {
    expectFormatError(() => fcxCommand.decodeRequest({ id: 'FCX', blocks: [tlv(0x1c, '00')] }), { status: 19 });
    expectFormatError(() => fcxCommand.decodeRequest({ id: 'FCX', blocks: [tlv(0x19, '1000')] }), { status: 19 });
    expect(fcxCommand.decodeRequest({ id: 'FCX', blocks: [tlv(0x19, '2000')] })).toEqual({ outcome: 'noHostResponse' });
  });

  it('refuses to encode an approval without an ARC', () => {
    expect(() => fcxCommand.encodeRequest({ outcome: 'approved' })).toThrow(InvalidArgumentError);
  });

  it('rejects an unknown FCXOPT outcome or FCXRES decision', () => {
    expect(() => fcxCommand.decodeRequest({ id: 'FCX', blocks: [tlv(0x19, '3000')] })).toThrow(AbecsFormatError);
    expect(() => fcxCommand.decodeResponse({ id: 'FCX', status: 0, blocks: [tlv(0x8058, '200')] })).toThrow(
      AbecsFormatError,
    );
  });

  describe('properties', () => {
    const request: fc.Arbitrary<FcxRequest> = fc
      .record(
        {
          outcome: fc.constantFrom('approved' as const, 'declined' as const, 'noHostResponse' as const),
          arc: rawAscii(2, 2),
          emvData: bytesOf(512),
          tagList: fc.array(emvTag, { maxLength: 40 }),
          timeout: fc.integer({ min: 0, max: 255 }),
        },
        { requiredKeys: ['outcome'] },
      )
      .filter((req) => req.outcome === 'noHostResponse' || req.arc !== undefined);
    const result: fc.Arbitrary<FcxResult> = fc.record(
      {
        decision: fc.constantFrom('approved' as const, 'declined' as const),
        emvData: bytesOf(512),
        issuerScriptResults: bytesOf(50),
      },
      { requiredKeys: ['decision'] },
    );

    it('decodeRequest(encodeRequest(x)) is x', () => requestRoundTrip(fcxCommand, request));
    it('decodeResponse(encodeResponse(y)) is y', () => responseRoundTrip(fcxCommand, result));
    garbageProperties(fcxCommand);
  });
});
