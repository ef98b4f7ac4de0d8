import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gtsCommand } from '../../../../drivers/abecs/commands/gts.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import {
  asciiText,
  garbageProperties,
  requestRoundTrip,
  responseRoundTrip,
  expectFormatError,
} from './codec-properties.js';

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('GTS codec', () => {
  it('is not blocking', () => {
    expect(gtsCommand.blocking).toBe(false);
  });

  it("asks for one acquirer's table version as GTS002 + N2", () => {
    expect(encodeCommandPacket(gtsCommand.encodeRequest({ acquirer: 4 }))).toEqual(latin1('GTS00204'));
    expect(gtsCommand.decodeRequest(decodeCommandPacket(latin1('GTS00204')))).toEqual({ acquirer: 4 });
  });

  it('reads the 10-character version (the TRACE value) and writes it back', () => {
    const rsp = latin1('GTS0000101807202408');
    expect(gtsCommand.decodeResponse(decodeResponsePacket(rsp))).toEqual({ tableVersion: '1807202408' });
    expect(encodeResponsePacket(gtsCommand.encodeResponse({ tableVersion: '1807202408' }))).toEqual(rsp);
  });

  it('pads short versions with spaces', () => {
    expect(encodeResponsePacket(gtsCommand.encodeResponse({ tableVersion: 'V1' })).toString()).toBe(
      'GTS000010V1        ',
    );
  });

  it('rejects a command without the acquirer or with extra bytes', () => {
    expectFormatError(() => gtsCommand.decodeRequest(decodeCommandPacket(latin1('GTS'))), { status: 19 });
    expect(() => gtsCommand.decodeRequest(decodeCommandPacket(latin1('GTS003041')))).toThrow(AbecsFormatError);
  });

  describe('properties', () => {
    it('decodeRequest(encodeRequest(x)) is x', () =>
      requestRoundTrip(gtsCommand, fc.record({ acquirer: fc.integer({ min: 0, max: 99 }) })));
    it('decodeResponse(encodeResponse(y)) is y', () =>
      responseRoundTrip(gtsCommand, fc.record({ tableVersion: asciiText(10) })));
    garbageProperties(gtsCommand);
  });
});
