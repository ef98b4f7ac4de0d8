import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { tliCommand } from '../../../../drivers/abecs/commands/tli.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { asciiText, garbageProperties, requestRoundTrip, responseRoundTrip } from './codec-properties.js';

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('TLI codec', () => {
  it('is not blocking and takes 020 (ST_TABVERDIF) as a result', () => {
    expect(tliCommand.blocking).toBe(false);
    expect(tliCommand.resultStatuses).toEqual([20]);
  });

  it('encodes and decodes the spec example TLI01200TABVER0008', () => {
    const req = { acquirer: 0, tableVersion: 'TABVER0008' };
    expect(encodeCommandPacket(tliCommand.encodeRequest(req))).toEqual(latin1('TLI01200TABVER0008'));
    expect(tliCommand.decodeRequest(decodeCommandPacket(latin1('TLI01200TABVER0008')))).toEqual(req);
  });

  it('reads the spec answer TLI020 as "load started, version differs"', () => {
    expect(tliCommand.decodeResponse(decodeResponsePacket(latin1('TLI020')))).toEqual({ versionDiffers: true });
    expect(encodeResponsePacket(tliCommand.encodeResponse({ versionDiffers: true }))).toEqual(latin1('TLI020'));
  });

  it('reads TLI000 as "load started, same version"', () => {
    expect(tliCommand.decodeResponse(decodeResponsePacket(latin1('TLI000')))).toEqual({ versionDiffers: false });
    expect(encodeResponsePacket(tliCommand.encodeResponse({ versionDiffers: false }))).toEqual(latin1('TLI000'));
  });

  describe('properties', () => {
    it('decodeRequest(encodeRequest(x)) is x', () =>
      requestRoundTrip(
        tliCommand,
        fc.record({ acquirer: fc.integer({ min: 0, max: 99 }), tableVersion: asciiText(10) }),
      ));
    it('decodeResponse(encodeResponse(y)) is y', () =>
      responseRoundTrip(tliCommand, fc.record({ versionDiffers: fc.boolean() })));
    garbageProperties(tliCommand);
  });
});
