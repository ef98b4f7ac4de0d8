import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import { dspCommand } from '../../../../drivers/abecs/commands/dsp.js';
import { decodeCommandPacket, encodeResponsePacket } from '../../../../drivers/abecs/envelope.js';
import { encodeFrame } from '../../../../drivers/abecs/frame.js';
import {
  checkGarbage,
  checkRequestRoundTrip,
  checkResponseRoundTrip,
  display2x16,
  hex,
  wireHex,
} from './basic-arbitraries.js';

describe('DSP codec', () => {
  it('reproduces the spec worked frame DSP032 "    OPERAÇÃO       FINALIZADA   " byte for byte', () => {
    expect(wireHex(dspCommand.encodeRequest({ message: '    OPERAÇÃO       FINALIZADA   ' }))).toBe(
      '16 44 53 50 30 33 32 20 20 20 20 4F 50 45 52 41 C7 C3 4F 20 20 20 20 20 20 20 46 49 4E 41 4C 49 5A 41 44 41 20 20 20 17 52 13',
    );
  });

  it('answers DSP000 (worked frame 16 44 53 50 30 30 30 17 39 63)', () => {
    expect(hex(encodeFrame(encodeResponsePacket(dspCommand.encodeResponse({}))))).toBe('16 44 53 50 30 30 30 17 39 63');
  });

  it('lays out free text as the TRACE shows it', () => {
    expect(dspCommand.encodeRequest({ message: 'Cartao Credito\nAguarde...' }).blocks[0]!.toString('latin1')).toBe(
      'Cartao Credito  Aguarde...      ',
    );
  });

  it('refuses text that does not fit the display', () => {
    expect(() => dspCommand.encodeRequest({ message: 'X'.repeat(33) })).toThrow(InvalidArgumentError);
  });

  it('decodes short or control-laden messages the way a PINPAD shows them', () => {
    expect(dspCommand.decodeRequest(decodeCommandPacket(Buffer.from('DSP003A\x02B')))).toEqual({
      message: 'A B'.padEnd(32, ' '),
    });
    expect(dspCommand.decodeRequest(decodeCommandPacket(Buffer.from('DSP')))).toEqual({ message: ' '.repeat(32) });
  });

  it('round-trips requests and results', () => {
    checkRequestRoundTrip(
      dspCommand,
      display2x16.map((message) => ({ message })),
    );
    checkResponseRoundTrip(dspCommand, fc.constant({}));
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(dspCommand);
  });
});
