import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gocCommand, type GocRequest, type GocResult } from '../../../../drivers/abecs/commands/goc.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
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

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

/** S220 §3.6.3 example: amount R$ 12,00, DUKPT slot 01, risk management parameters, 7 tags. */
const SPEC_REQUEST =
  'GOC086' +
  '000000001200' +
  '000000000200' +
  '0' +
  '0' +
  '1' +
  '3' +
  '01' +
  '0'.repeat(32) +
  '1' +
  '00001388' +
  '20' +
  '000003E8' +
  '80' +
  '000' +
  '025' +
  '011' +
  '829F279F269F36958F9F37' +
  '003' +
  '000';

const specRequest: GocRequest = {
  amount: 1200,
  cashback: 200,
  exceptionList: false,
  forceOnline: false,
  reserved: 1,
  pinMethod: 'dukpt',
  keyIndex: 1,
  workingKey: '0'.repeat(32),
  floorLimit: 5000,
  targetPercent: 20,
  thresholdValue: 1000,
  maxTargetPercent: 80,
  tags: ['82', '9F27', '9F26', '9F36', '95', '8F', '9F37'],
};

const EMV = '820258009F2701809F2608765DC13807D1E4C89F36020006950500100000008F01059F37045A77ACF0';
/** The spec's answer: go online, PIN verified offline, no online PIN. */
const SPEC_RESPONSE = 'GOC000130' + '201000' + '0'.repeat(16) + '0'.repeat(20) + '041' + EMV + '000';

const specResult: GocResult = {
  decision: 'goOnline',
  signatureRequired: false,
  offlinePinVerified: true,
  offlinePinErrors: 0,
  pinBlocked: false,
  onlinePinCaptured: false,
  pinBlock: '0'.repeat(16),
  ksn: '0'.repeat(20),
  emvData: Buffer.from(EMV, 'hex'),
};

describe('GOC codec', () => {
  it('is blocking', () => {
    expect(gocCommand.blocking).toBe(true);
  });

  it('encodes the spec example byte for byte, in three blocks', () => {
    const cmd = gocCommand.encodeRequest(specRequest);
    expect(cmd.blocks).toHaveLength(3);
    expect(encodeCommandPacket(cmd)).toEqual(latin1(SPEC_REQUEST));
  });

  it('decodes the spec example', () => {
    expect(gocCommand.decodeRequest(decodeCommandPacket(latin1(SPEC_REQUEST)))).toEqual(specRequest);
  });

  it('writes the acquirer parameters with their N3 length', () => {
    const cmd = gocCommand.encodeRequest({ ...specRequest, acquirerParams: '001' });
    expect(cmd.blocks[0]?.toString('latin1').slice(-6)).toBe('003001');
  });

  it('decodes the spec answer and its EMV objects', () => {
    const result = gocCommand.decodeResponse(decodeResponsePacket(latin1(SPEC_RESPONSE)));
    expect(result).toEqual(specResult);
    expect(decodeEmvTlv(result.emvData).map((item) => item.tag)).toEqual([
      '82',
      '9F27',
      '9F26',
      '9F36',
      '95',
      '8F',
      '9F37',
    ]);
  });

  it('encodes the spec answer byte for byte', () => {
    expect(encodeResponsePacket(gocCommand.encodeResponse(specResult))).toEqual(latin1(SPEC_RESPONSE));
  });

  it('answers ST_MANDAT (019) when a block is missing', () => {
    const blocks = gocCommand.encodeRequest(specRequest).blocks.slice(0, 1);
    expectFormatError(() => gocCommand.decodeRequest({ id: 'GOC', blocks }), { status: 19 });
  });

  it('rejects an unknown PIN method or decision', () => {
    const badMethod = latin1(SPEC_REQUEST.replace('0013010', '0012010'));
    expect(() => gocCommand.decodeRequest(decodeCommandPacket(badMethod))).toThrow(AbecsFormatError);
    const badDecision = latin1(SPEC_RESPONSE.replace('GOC000130201', 'GOC000130701'));
    expect(() => gocCommand.decodeResponse(decodeResponsePacket(badDecision))).toThrow(AbecsFormatError);
  });

  it('refuses a working key that is not 32 hex digits', () => {
    expect(() => gocCommand.encodeRequest({ ...specRequest, workingKey: 'ABC' })).toThrow(InvalidArgumentError);
  });

  describe('properties', () => {
    const request: fc.Arbitrary<GocRequest> = fc.record(
      {
        amount: fc.integer({ min: 0, max: 999_999_999_999 }),
        cashback: fc.integer({ min: 0, max: 999_999_999_999 }),
        exceptionList: fc.boolean(),
        forceOnline: fc.boolean(),
        reserved: fc.integer({ min: 1, max: 9 }),
        pinMethod: fc.constantFrom('mkwk' as const, 'dukpt' as const),
        keyIndex: fc.integer({ min: 0, max: 99 }),
        workingKey: upperHex(16),
        floorLimit: fc.integer({ min: 0, max: 0xffffffff }),
        targetPercent: fc.integer({ min: 0, max: 99 }),
        thresholdValue: fc.integer({ min: 0, max: 0xffffffff }),
        maxTargetPercent: fc.integer({ min: 0, max: 99 }),
        acquirerParams: latin1Text(32, 1),
        tags: fc.array(emvTag, { maxLength: 40 }),
        tags2: fc.array(emvTag, { minLength: 1, maxLength: 40 }),
      },
      {
        requiredKeys: [
          'amount',
          'cashback',
          'exceptionList',
          'forceOnline',
          'pinMethod',
          'keyIndex',
          'workingKey',
          'floorLimit',
          'targetPercent',
          'thresholdValue',
          'maxTargetPercent',
          'tags',
        ],
      },
    );
    const result: fc.Arbitrary<GocResult> = fc.record({
      decision: fc.constantFrom('approvedOffline' as const, 'declined' as const, 'goOnline' as const),
      signatureRequired: fc.boolean(),
      offlinePinVerified: fc.boolean(),
      offlinePinErrors: fc.integer({ min: 0, max: 9 }),
      pinBlocked: fc.boolean(),
      onlinePinCaptured: fc.boolean(),
      pinBlock: upperHex(8),
      ksn: upperHex(10),
      emvData: bytesOf(256),
    });

    it('decodeRequest(encodeRequest(x)) is x', () => requestRoundTrip(gocCommand, request));
    it('decodeResponse(encodeResponse(y)) is y', () => responseRoundTrip(gocCommand, result));
    garbageProperties(gocCommand);
  });
});
