import { describe, expect, it } from 'vitest';
import { tleCommand } from '../../../../drivers/abecs/commands/tle.js';
import {
  decodeCommandPacket,
  decodeResponsePacket,
  encodeCommandPacket,
  encodeResponsePacket,
} from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { garbageProperties } from './codec-properties.js';

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('TLE codec', () => {
  it('is not blocking', () => {
    expect(tleCommand.blocking).toBe(false);
  });

  it('sends the spec example as a bare TLE and reads TLE000', () => {
    expect(encodeCommandPacket(tleCommand.encodeRequest({}))).toEqual(latin1('TLE'));
    expect(tleCommand.decodeResponse(decodeResponsePacket(latin1('TLE000')))).toEqual({});
    expect(encodeResponsePacket(tleCommand.encodeResponse({}))).toEqual(latin1('TLE000'));
  });

  it('accepts TLE and TLE000 from the SPE and refuses data', () => {
    expect(tleCommand.decodeRequest(decodeCommandPacket(latin1('TLE')))).toEqual({});
    expect(tleCommand.decodeRequest(decodeCommandPacket(latin1('TLE000')))).toEqual({});
    expect(() => tleCommand.decodeRequest(decodeCommandPacket(latin1('TLE0011')))).toThrow(AbecsFormatError);
  });

  describe('properties', () => {
    garbageProperties(tleCommand);
  });
});
