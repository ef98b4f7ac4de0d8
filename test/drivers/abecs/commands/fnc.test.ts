import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fncCommand, type FncRequest, type FncResult } from '../../../../drivers/abecs/commands/fnc.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import {
  bytesOf,
  emvTag,
  garbageProperties,
  rawAscii,
  requestRoundTrip,
  responseRoundTrip,
  expectFormatError,
} from './codec-properties.js';

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

/** S220 §3.6.4 example: the host approved ("00") and sent Issuer Authentication Data (tag 91). */
const SPEC_REQUEST =
  'FNC030' + '0' + '0' + '00' + '010' + '9108E64A2FE21FD88672' + '000' + '025' + '011' + '829F279F269F36958F9F37';

const specRequest: FncRequest = {
  communication: 'ok',
  arc: '00',
  issuerData: Buffer.from('9108E64A2FE21FD88672', 'hex'),
  tags: ['82', '9F27', '9F26', '9F36', '95', '8F', '9F37'],
};

const EMV = '820258009F2701009F260869EBA3BE1CC8B38D9F36020006950500100000008F01059F37045A77ACF0';
/** The spec's answer: the card declines after the host approved (the SPE must reverse). */
const SPEC_RESPONSE = 'FNC000091' + '1' + '041' + EMV + '00' + '000';

describe('FNC codec', () => {
  it('is not blocking', () => {
    expect(fncCommand.blocking).toBe(false);
  });

  it('encodes the spec example byte for byte, in two blocks', () => {
    const cmd = fncCommand.encodeRequest(specRequest);
    expect(cmd.blocks.map((block) => block.length)).toEqual([30, 25]);
    expect(encodeCommandPacket(cmd)).toEqual(latin1(SPEC_REQUEST));
  });

  it('decodes the spec example', () => {
    expect(fncCommand.decodeRequest(decodeCommandPacket(latin1(SPEC_REQUEST)))).toEqual(specRequest);
  });

  it('decodes and re-encodes the spec answer', () => {
    const expected: FncResult = {
      decision: 'declinedByCard',
      emvData: Buffer.from(EMV, 'hex'),
      issuerScriptResults: Buffer.alloc(0),
    };
    expect(fncCommand.decodeResponse(decodeResponsePacket(latin1(SPEC_RESPONSE)))).toEqual(expected);
    expect(encodeResponsePacket(fncCommand.encodeResponse(expected))).toEqual(latin1(SPEC_RESPONSE));
  });

  it('reads the CAPPTA request with two issuer-data objects and four tags', () => {
    const packet = latin1('FNC0340000012910A1A1B1C1D1E1F2A2B0000000021009959F379F279F269F10');
    expect(fncCommand.decodeRequest(decodeCommandPacket(packet))).toEqual({
      communication: 'ok',
      arc: '00',
      issuerData: Buffer.from('910A1A1B1C1D1E1F2A2B0000', 'hex'),
      tags: ['95', '9F37', '9F27', '9F26', '9F10'],
    });
  });

  it('rejects unknown communication statuses and decisions', () => {
    expect(() =>
      fncCommand.decodeRequest(decodeCommandPacket(latin1(SPEC_REQUEST.replace('FNC0300', 'FNC0305')))),
    ).toThrow(AbecsFormatError);
    expect(() =>
      fncCommand.decodeResponse(decodeResponsePacket(latin1(SPEC_RESPONSE.replace('FNC0000911', 'FNC0000913')))),
    ).toThrow(AbecsFormatError);
  });

  it('answers ST_MANDAT (019) when the tag block is missing', () => {
    const [block1] = fncCommand.encodeRequest(specRequest).blocks;
    expectFormatError(() => fncCommand.decodeRequest({ id: 'FNC', blocks: [block1!] }), { status: 19 });
  });

  describe('properties', () => {
    const request: fc.Arbitrary<FncRequest> = fc.record(
      {
        communication: fc.constantFrom('ok' as const, 'failed' as const, 'approvedWithArc' as const),
        arc: rawAscii(2, 2),
        issuerData: bytesOf(256),
        acquirerParams: rawAscii(40, 1),
        tags: fc.array(emvTag, { maxLength: 40 }),
      },
      { requiredKeys: ['communication', 'arc', 'issuerData', 'tags'] },
    );
    const result: fc.Arbitrary<FncResult> = fc.record(
      {
        decision: fc.constantFrom('approved' as const, 'declinedByCard' as const, 'declinedByHost' as const),
        emvData: bytesOf(256),
        issuerScriptResults: bytesOf(50),
        acquirerData: rawAscii(40, 1),
      },
      { requiredKeys: ['decision', 'emvData', 'issuerScriptResults'] },
    );

    it('decodeRequest(encodeRequest(x)) is x', () => requestRoundTrip(fncCommand, request));
    it('decodeResponse(encodeResponse(y)) is y', () => responseRoundTrip(fncCommand, result));
    garbageProperties(fncCommand);
  });
});
