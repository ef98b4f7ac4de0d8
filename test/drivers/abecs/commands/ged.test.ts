import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gedCommand } from '../../../../drivers/abecs/commands/ged.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { decodeEmvTlv } from '../../../../drivers/abecs/emv.js';
import {
  bytesOf,
  emvTag,
  garbageProperties,
  requestRoundTrip,
  responseRoundTrip,
  expectFormatError,
} from './codec-properties.js';

const hex = (text: string): Buffer => Buffer.from(text.replace(/\s+/g, ''), 'hex');

/** S220 §3.7.2 example: AUC (9F07), application version (9F08), ADF name (4F) and DF55. */
const SPEC_REQUEST = Buffer.concat([Buffer.from('GED011'), hex('0004 0007 9F07 9F08 4F DF55')]);
const SPEC_RESPONSE = Buffer.concat([
  Buffer.from('GED000029'),
  hex('8054 0019 9F0702FF00 4F07A0000000031010 DF55081122334455667788'),
]);

describe('GED codec', () => {
  it('is not blocking', () => {
    expect(gedCommand.blocking).toBe(false);
  });

  it('encodes the spec example byte for byte', () => {
    expect(encodeCommandPacket(gedCommand.encodeRequest({ tagList: ['9F07', '9F08', '4F', 'DF55'] }))).toEqual(
      SPEC_REQUEST,
    );
  });

  it('decodes the spec example', () => {
    expect(gedCommand.decodeRequest(decodeCommandPacket(SPEC_REQUEST))).toEqual({
      tagList: ['9F07', '9F08', '4F', 'DF55'],
    });
  });

  it('decodes the spec answer, which leaves out the unknown 9F08', () => {
    const result = gedCommand.decodeResponse(decodeResponsePacket(SPEC_RESPONSE));
    expect(decodeEmvTlv(result.emvData).map((item) => item.tag)).toEqual(['9F07', '4F', 'DF55']);
    expect(encodeResponsePacket(gedCommand.encodeResponse(result))).toEqual(SPEC_RESPONSE);
  });

  it('answers ST_MANDAT (019) without a tag list', () => {
    expectFormatError(() => gedCommand.decodeRequest({ id: 'GED', blocks: [] }), { status: 19 });
  });

  it('requires PP_EMVDATA in the answer (possibly empty)', () => {
    expectFormatError(() => gedCommand.decodeResponse({ id: 'GED', status: 0, blocks: [] }), {
      code: 'MALFORMED_RESPONSE',
    });
    expect(gedCommand.decodeResponse({ id: 'GED', status: 0, blocks: [hex('80540000')] })).toEqual({
      emvData: Buffer.alloc(0),
    });
  });

  describe('properties', () => {
    it('decodeRequest(encodeRequest(x)) is x', () =>
      requestRoundTrip(gedCommand, fc.record({ tagList: fc.array(emvTag, { minLength: 1, maxLength: 40 }) })));
    it('decodeResponse(encodeResponse(y)) is y', () =>
      responseRoundTrip(gedCommand, fc.record({ emvData: bytesOf(512) })));
    garbageProperties(gedCommand);
  });
});
