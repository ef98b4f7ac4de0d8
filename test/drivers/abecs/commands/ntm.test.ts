import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeNotification,
  encodeNotification,
  isNotificationPacket,
} from '../../../../drivers/abecs/commands/ntm.js';
import { encodeFrame } from '../../../../drivers/abecs/frame.js';
import { AbecsFormatError } from '../../../../drivers/abecs/format-error.js';
import { formatDisplay2x16 } from '../../../../drivers/abecs/text.js';
import { displayText, hex } from './basic-arbitraries.js';

describe('NTM notifications', () => {
  it('reproduces the worked frame NTM000032SELECIONADO:    CREDITO', () => {
    expect(hex(encodeFrame(encodeNotification('SELECIONADO:    CREDITO')))).toBe(
      '16 4E 54 4D 30 30 30 30 33 32 53 45 4C 45 43 49 4F 4E 41 44 4F 3A 20 20 20 20 43 52 45 44 49 54 4F ' +
        '20 20 20 20 20 20 20 20 20 17 FE DC',
    );
  });

  it('decodes the text and its two lines', () => {
    const pkt = Buffer.from('NTM000032SELECIONADO:    CREDITO         ', 'latin1');
    expect(isNotificationPacket(pkt)).toBe(true);
    expect(decodeNotification(pkt)).toEqual({
      text: 'SELECIONADO:    CREDITO         ',
      lines: ['SELECIONADO:', 'CREDITO'],
    });
  });

  it('accepts shorter notifications as the length field allows', () => {
    expect(decodeNotification(Buffer.from('NTM000016SOLICITE A SENHA'))).toEqual({
      text: 'SOLICITE A SENHA',
      lines: ['SOLICITE A SENHA', ''],
    });
    expect(decodeNotification(Buffer.from('NTM000000'))).toEqual({ text: '', lines: ['', ''] });
  });

  it('tells notifications from responses', () => {
    expect(isNotificationPacket(Buffer.from('GCX000104'))).toBe(false);
    expect(isNotificationPacket(Buffer.from('NT'))).toBe(false);
  });

  it('rejects malformed notifications with AbecsFormatError', () => {
    for (const bad of ['NTM013', 'NTM000033' + 'X'.repeat(33), 'NTM000010ABC', 'NTM00003X', 'DSP000']) {
      expect(() => decodeNotification(Buffer.from(bad, 'latin1'))).toThrow(AbecsFormatError);
    }
  });

  it('round-trips any displayable text', () => {
    fc.assert(
      fc.property(displayText(32), (text) => {
        const decoded = decodeNotification(encodeNotification(text));
        expect(decoded.text).toBe(formatDisplay2x16(text));
      }),
    );
  });

  it('never throws anything but AbecsFormatError on garbage', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), fc.boolean(), (bytes, prefixed) => {
        const pkt = prefixed ? Buffer.concat([Buffer.from('NTM'), bytes]) : Buffer.from(bytes);
        try {
          decodeNotification(pkt);
        } catch (error) {
          expect(error).toBeInstanceOf(AbecsFormatError);
        }
      }),
    );
  });
});
