import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import { ginAcquirerInfo, ginCommand, type GinResult } from '../../../../drivers/abecs/commands/gin.js';
import { decodeResponsePacket } from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import {
  asciiChar,
  checkGarbage,
  checkRequestRoundTrip,
  checkResponseRoundTrip,
  trimmedText,
  wireHex,
} from './basic-arbitraries.js';

const SPEC_EXAMPLE =
  'CYGNUS'.padEnd(20) +
  'PP X-1;10MB'.padEnd(19) +
  'C' +
  '8065XA077X0060X'.padEnd(20) +
  '2.00' +
  '001.03 130715'.padEnd(16) +
  '001101010300000'.padEnd(20);

describe('GIN codec', () => {
  it('reproduces the worked frame GIN00200 (16 47 49 4E 30 30 32 30 30 17 EE CA)', () => {
    expect(wireHex(ginCommand.encodeRequest({ acquirer: 0 }))).toBe('16 47 49 4E 30 30 32 30 30 17 EE CA');
  });

  it('refuses acquirer indexes outside 00–99', () => {
    expect(() => ginCommand.encodeRequest({ acquirer: 100 })).toThrow(InvalidArgumentError);
  });

  it('decodes the spec example of the general answer', () => {
    expect(SPEC_EXAMPLE).toHaveLength(100);
    const rsp = decodeResponsePacket(Buffer.from(`GIN000100${SPEC_EXAMPLE}`, 'latin1'));
    expect(ginCommand.decodeResponse(rsp)).toEqual({
      kind: 'general',
      manufacturer: 'CYGNUS',
      model: 'PP X-1;10MB',
      contactless: true,
      firmware: '8065XA077X0060X',
      specVersion: '2.00',
      managerVersion: '001.03 130715',
      serialNumber: '001101010300000',
    });
  });

  it('keeps an acquirer answer raw and reads the application and spec versions', () => {
    const raw = 'Abecs   ' + 'EMV 4.3 K1  ' + '1.02 20190101' + '2.12' + '   ' + '00';
    expect(raw).toHaveLength(42);
    const result = ginCommand.decodeResponse({ id: 'GIN', status: 0, blocks: [Buffer.from(raw, 'latin1')] });
    expect(result).toEqual({
      kind: 'acquirer',
      raw,
      name: 'Abecs   EMV 4.3 K1',
      appVersion: '1.02 20190101',
      specVersion: '2.12',
    });
  });

  it('answers ST_MANDAT when GIN_ACQIDX is missing', () => {
    try {
      ginCommand.decodeRequest({ id: 'GIN', blocks: [] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AbecsFormatError);
      expect((error as AbecsFormatError).status).toBe(19);
    }
  });

  it('round-trips requests and results', () => {
    checkRequestRoundTrip(
      ginCommand,
      fc.integer({ min: 0, max: 99 }).map((acquirer) => ({ acquirer })),
    );
    const general: fc.Arbitrary<GinResult> = fc.record({
      kind: fc.constant('general' as const),
      manufacturer: trimmedText(20),
      model: trimmedText(19),
      contactless: fc.boolean(),
      firmware: trimmedText(20),
      specVersion: trimmedText(4),
      managerVersion: trimmedText(16),
      serialNumber: trimmedText(20),
    });
    const acquirer: fc.Arbitrary<GinResult> = fc
      .tuple(trimmedText(20, asciiChar), trimmedText(13, asciiChar), trimmedText(4, asciiChar))
      .map(([name, appVersion, specVersion]) => ginAcquirerInfo(name, appVersion, specVersion));
    checkResponseRoundTrip(ginCommand, fc.oneof(general, acquirer));
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(ginCommand);
  });
});
