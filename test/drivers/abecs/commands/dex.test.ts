import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEX_HORIZONTAL, DEX_TYPES, DEX_VERTICAL, dexCommand } from '../../../../drivers/abecs/commands/dex.js';
import { decodeCommandPacket, encodeCommandPacket } from '../../../../drivers/abecs/envelope.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { checkGarbage, checkRequestRoundTrip, checkResponseRoundTrip, freeText } from './basic-arbitraries.js';

describe('DEX codec', () => {
  it('sends DEX + MSGLEN + message with CR line breaks (TRACE DEX070067 layout)', () => {
    const message = 'VALOR: 0,01\nAPROXIME, INSIRA\nOU PASSE  CARTAO';
    const pkt = encodeCommandPacket(dexCommand.encodeRequest({ message })).toString('latin1');
    expect(pkt).toBe('DEX048045VALOR: 0,01\rAPROXIME, INSIRA\rOU PASSE  CARTAO');
  });

  it('appends the 2.20 DEX_OPTIONS when given', () => {
    const pkt = encodeCommandPacket(
      dexCommand.encodeRequest({
        message: 'OK',
        options: { horizontal: 'center', vertical: 'center', type: 'success' },
      }),
    ).toString('latin1');
    expect(pkt).toBe('DEX011002OK221000');
  });

  it('keeps accents as Latin-1 bytes', () => {
    const block = dexCommand.encodeRequest({ message: 'TRANSAÇÃO' }).blocks[0]!;
    expect(block.length).toBe(12);
    expect(block[9]).toBe(0xc7);
  });

  it('refuses more than 160 characters', () => {
    expect(() => dexCommand.encodeRequest({ message: 'X'.repeat(161) })).toThrow(/at most 160/);
  });

  it('answers ST_INVPARM when MSGLEN does not match the message', () => {
    const bad = decodeCommandPacket(Buffer.from('DEX008010ABCDE'));
    expect(() => dexCommand.decodeRequest(bad)).toThrow(AbecsFormatError);
    const tooLong = decodeCommandPacket(Buffer.from(`DEX164161${'X'.repeat(161)}`));
    expect(() => dexCommand.decodeRequest(tooLong)).toThrow(/at most 160/);
  });

  it('round-trips requests and results', () => {
    const options = fc.record({
      horizontal: fc.constantFrom(...DEX_HORIZONTAL),
      vertical: fc.constantFrom(...DEX_VERTICAL),
      type: fc.constantFrom(...DEX_TYPES),
    });
    checkRequestRoundTrip(dexCommand, fc.record({ message: freeText(160), options }, { requiredKeys: ['message'] }));
    checkResponseRoundTrip(dexCommand, fc.constant({}));
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(dexCommand);
  });
});
