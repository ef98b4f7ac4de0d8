import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import { opnCommand } from '../../../../drivers/abecs/commands/opn.js';
import { decodeCommandPacket, decodeResponsePacket, encodeResponsePacket } from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { checkGarbage, checkRequestRoundTrip, checkResponseRoundTrip, upperHex, wireHex } from './basic-arbitraries.js';

const MODULUS = 'C1'.repeat(256);

describe('OPN codec', () => {
  it('encodes the classic OPN as the bare id (the spec worked frame 16 4F 50 4E 17 A8 A9)', () => {
    expect(wireHex(opnCommand.encodeRequest({}))).toBe('16 4F 50 4E 17 A8 A9');
  });

  it('accepts both OPN and OPN000 on the PINPAD side', () => {
    expect(opnCommand.decodeRequest(decodeCommandPacket(Buffer.from('OPN')))).toEqual({});
    expect(opnCommand.decodeRequest(decodeCommandPacket(Buffer.from('OPN000')))).toEqual({});
  });

  it('encodes a secure OPN like the TRACE (OPN523, exponent 010001)', () => {
    const cmd = opnCommand.encodeRequest({ publicKey: { modulus: MODULUS, exponent: '010001' } });
    const block = cmd.blocks[0]!.toString('latin1');
    expect(cmd.blocks).toHaveLength(1);
    expect(block).toHaveLength(523);
    expect(block.startsWith('0256C1C1')).toBe(true);
    expect(block.endsWith('C1C13010001')).toBe(true);
  });

  it('refuses a modulus that is not 2048 bits and a too long exponent', () => {
    expect(() => opnCommand.encodeRequest({ publicKey: { modulus: 'AB', exponent: '03' } })).toThrow(
      InvalidArgumentError,
    );
    expect(() => opnCommand.encodeRequest({ publicKey: { modulus: MODULUS, exponent: '01000100' } })).toThrow(
      /1 to 3 bytes/,
    );
  });

  it('reads the CRKSEC of a secure answer (OPN000515256…) and nothing from a plain OPN000', () => {
    const crksec = 'AB'.repeat(256);
    const rsp = decodeResponsePacket(Buffer.from(`OPN000515256${crksec}`, 'latin1'));
    expect(opnCommand.decodeResponse(rsp)).toEqual({ crksec });
    expect(opnCommand.decodeResponse(decodeResponsePacket(Buffer.from('OPN000')))).toEqual({});
    expect(encodeResponsePacket(opnCommand.encodeResponse({ crksec })).toString('latin1')).toBe(
      `OPN000515256${crksec}`,
    );
  });

  it('refuses a secure OPN in another mode with ST_INVPARM', () => {
    const bad = { id: 'OPN', blocks: [Buffer.from(`1256${MODULUS}103`, 'latin1')] };
    expect(() => opnCommand.decodeRequest(bad)).toThrow(AbecsFormatError);
    try {
      opnCommand.decodeRequest(bad);
    } catch (error) {
      expect((error as AbecsFormatError).code).toBe('MALFORMED_COMMAND');
      expect((error as AbecsFormatError).status).toBe(11);
    }
  });

  it('round-trips requests and results', () => {
    const keys = fc.record({
      modulus: upperHex(512),
      exponent: fc.integer({ min: 1, max: 3 }).chain((bytes) => upperHex(bytes * 2)),
    });
    checkRequestRoundTrip(
      opnCommand,
      fc.oneof(
        fc.constant({}),
        keys.map((publicKey) => ({ publicKey })),
      ),
    );
    checkResponseRoundTrip(
      opnCommand,
      fc.oneof(
        fc.constant({}),
        upperHex(512).map((crksec) => ({ crksec })),
      ),
    );
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(opnCommand);
  });
});
