import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import { GCD_MESSAGES, gcdCommand, gcdRequestFor } from '../../../../drivers/abecs/commands/gcd.js';
import { decodeCommandPacket, decodeResponsePacket, encodeResponsePacket } from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { SPE } from '../../../../drivers/abecs/ids.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import {
  asciiText,
  checkGarbage,
  checkRequestRoundTrip,
  checkResponseRoundTrip,
  fromHex,
  wireHex,
} from './basic-arbitraries.js';

describe('GCD codec', () => {
  it('is blocking', () => {
    expect(gcdCommand.blocking).toBe(true);
  });

  it('reproduces the spec worked frame (timeout 60 s, max 10 digits, message 0009h)', () => {
    expect(wireHex(gcdCommand.encodeRequest({ message: 0x09, maxDigits: 10, timeoutSeconds: 60 }))).toBe(
      '16 47 43 44 30 31 36 00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09 17 C1 42',
    );
  });

  it('decodes the spec worked frame', () => {
    const cmd = decodeCommandPacket(fromHex('47 43 44 30 31 36 00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09'));
    expect(gcdCommand.decodeRequest(cmd)).toEqual({ message: 9, maxDigits: 10, timeoutSeconds: 60 });
  });

  it('decodes the spec example response GCD000013 + PP_VALUE "169937823"', () => {
    const rsp = decodeResponsePacket(
      Buffer.concat([Buffer.from('GCD000013'), fromHex('80 4D 00 09'), Buffer.from('169937823')]),
    );
    expect(gcdCommand.decodeResponse(rsp)).toEqual({ value: '169937823' });
    expect(encodeResponsePacket(gcdCommand.encodeResponse({ value: '169937823' }))).toEqual(encodeResponsePacket(rsp));
  });

  it('names the fixed prompts with ACBr digit limits', () => {
    expect(GCD_MESSAGES.cpf).toMatchObject({ index: 0x07, minDigits: 11, maxDigits: 11 });
    expect(GCD_MESSAGES.cnpj).toMatchObject({ index: 0x0d, minDigits: 14, maxDigits: 14 });
    expect(GCD_MESSAGES.phone).toMatchObject({ index: 0x03, minDigits: 8, maxDigits: 9 });
    expect(GCD_MESSAGES.areaCodeAndPhone).toMatchObject({ index: 0x05, minDigits: 10, maxDigits: 11 });
    expect(GCD_MESSAGES.rg).toMatchObject({ index: 0x09, minDigits: 5, maxDigits: 11 });
    expect(GCD_MESSAGES.productCode.index).toBe(0x35);
    const indexes = Object.values(GCD_MESSAGES).map((entry) => entry.index);
    expect(indexes).toEqual(Array.from({ length: 0x35 }, (_, i) => i + 1));
    expect(gcdRequestFor('cpf', 60)).toEqual({ message: 7, minDigits: 11, maxDigits: 11, timeoutSeconds: 60 });
  });

  it('sends SPE_GCDOPT last, and only when asked', () => {
    const cmd = gcdCommand.encodeRequest({ message: 0x2a, alphanumeric: true });
    expect(cmd.blocks[0]!.subarray(-8)).toEqual(encodeTlv(SPE.GCDOPT, Buffer.from('1000')));
  });

  it('refuses inconsistent digit limits', () => {
    expect(() => gcdCommand.encodeRequest({ message: 7, minDigits: 12, maxDigits: 11 })).toThrow(InvalidArgumentError);
    expect(() => gcdCommand.encodeRequest({ message: 7, maxDigits: 33 })).toThrow(InvalidArgumentError);
    expect(() => gcdCommand.encodeRequest({ message: 0 })).toThrow(InvalidArgumentError);
  });

  it('answers ST_MANDAT without SPE_MSGIDX and ST_INVPARM for a bad length', () => {
    const statusOf = (blocks: Buffer[]): number | undefined => {
      try {
        gcdCommand.decodeRequest({ id: 'GCD', blocks });
        return undefined;
      } catch (error) {
        expect(error).toBeInstanceOf(AbecsFormatError);
        return (error as AbecsFormatError).status;
      }
    };
    expect(statusOf([encodeTlv(SPE.TIMEOUT, Buffer.of(60))])).toBe(19);
    expect(statusOf([encodeTlv(SPE.MSGIDX, Buffer.of(7))])).toBe(11);
    expect(statusOf([fromHex('00 0B 00 05 00')])).toBe(11);
  });

  it('round-trips requests and results', () => {
    const request = fc
      .record(
        {
          message: fc.integer({ min: 1, max: 0xffff }),
          alphanumeric: fc.boolean(),
          minDigits: fc.integer({ min: 0, max: 32 }),
          maxDigits: fc.integer({ min: 1, max: 32 }),
          timeoutSeconds: fc.integer({ min: 0, max: 255 }),
        },
        { requiredKeys: ['message'] },
      )
      .filter((req) => (req.minDigits ?? 0) <= (req.maxDigits ?? 32));
    checkRequestRoundTrip(gcdCommand, request);
    checkResponseRoundTrip(
      gcdCommand,
      asciiText(32).map((value) => ({ value })),
    );
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(gcdCommand, [SPE.MSGIDX, SPE.TIMEOUT, SPE.MINDIG, SPE.MAXDIG, SPE.GCDOPT, 0x804d]);
  });
});
