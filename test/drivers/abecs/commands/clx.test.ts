import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../../drivers/errors.js';
import { clxCommand } from '../../../../drivers/abecs/commands/clx.js';
import { encodeCommandPacket } from '../../../../drivers/abecs/envelope.js';
import { SPE } from '../../../../drivers/abecs/ids.js';
import { encodeTlv } from '../../../../drivers/abecs/tlv.js';
import { checkGarbage, checkRequestRoundTrip, checkResponseRoundTrip, freeText } from './basic-arbitraries.js';

describe('CLX codec', () => {
  it('sends a bare CLX (blank display) without parameters', () => {
    expect(encodeCommandPacket(clxCommand.encodeRequest({})).toString('latin1')).toBe('CLX');
  });

  it('sends free text as SPE_DSPMSG with CR line breaks', () => {
    const cmd = clxCommand.encodeRequest({ message: 'CAIXA LIVRE\nPROXIMO CLIENTE' });
    expect(cmd.blocks).toEqual([encodeTlv(SPE.DSPMSG, Buffer.from('CAIXA LIVRE\rPROXIMO CLIENTE', 'latin1'))]);
  });

  it('sends an image name as SPE_MFNAME (A8, space padded)', () => {
    const cmd = clxCommand.encodeRequest({ mediaFile: 'LOGO1' });
    expect(cmd.blocks).toEqual([encodeTlv(SPE.MFNAME, Buffer.from('LOGO1   '))]);
    expect(() => clxCommand.encodeRequest({ mediaFile: 'logo.png' })).toThrow(InvalidArgumentError);
  });

  it('refuses free text longer than 128 characters', () => {
    expect(() => clxCommand.encodeRequest({ message: 'X'.repeat(129) })).toThrow(/at most 128/);
  });

  it('round-trips requests and results', () => {
    const mediaFile = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
    checkRequestRoundTrip(clxCommand, fc.record({ message: freeText(128), mediaFile }, { requiredKeys: [] }));
    checkResponseRoundTrip(clxCommand, fc.constant({}));
  });

  it('only ever throws AbecsFormatError on garbage', () => {
    checkGarbage(clxCommand, [SPE.DSPMSG, SPE.MFNAME]);
  });
});
