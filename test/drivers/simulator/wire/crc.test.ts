/**
 * The link layer's CRC as S220 §7.2 defines it (abecs.md §1.4): CRC-16-CCITT 1021h, initial 0000h,
 * most significant bit first, no final XOR. Checked against the catalogue's check value and the
 * spec's own packets, whose CRC covers PKTDATA + ETB.
 */
import { describe, expect, it } from 'vitest';
import { crc16 } from '../../../../drivers/simulator/wire/crc.js';
import { cat, GCX062, hex, latin1 } from './bytes.js';

const ETB = Buffer.of(0x17);
const packetCrc = (pktdata: Buffer): number => crc16(cat(pktdata, ETB));

describe('CRC-16 (S220 §7.2)', () => {
  it('has the CRC-16/XMODEM check value: "123456789" → 31C3h', () => {
    expect(crc16(latin1('123456789'))).toBe(0x31c3);
    expect(crc16(Buffer.alloc(0))).toBe(0);
  });

  it('continues from a previous value, as over PKTDATA then ETB', () => {
    expect(crc16(ETB, crc16(latin1('OPN')))).toBe(crc16(latin1('OPN\x17')));
  });

  it.each([
    ['OPN (§2.2.2.1)', latin1('OPN'), 0xa8a9],
    ['DSP000 (§2.2.2.2)', latin1('DSP000'), 0x3963],
    ['OPN000', latin1('OPN000'), 0x775e],
    ['GIX000 (TRACE)', latin1('GIX000'), 0x7f4a],
    ['GIN00200', latin1('GIN00200'), 0xeeca],
    ['CLO000', latin1('CLO000'), 0x9e03],
    ['DSP032 "    OPERAÇÃO       FINALIZADA   " (§2.2.2.2)', latin1('DSP032    OPERAÇÃO       FINALIZADA   '), 0x5213],
    ['GCD016 (§2.2.2.3)', cat('GCD016', hex('00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09')), 0xc142],
    ['NTM "SELECIONADO:    CREDITO" (TRACE)', latin1('NTM000032SELECIONADO:    CREDITO         '), 0xfedc],
  ])('gives the worked frame its CRC: %s', (_name, pktdata, crc) => {
    expect(packetCrc(pktdata)).toBe(crc);
  });

  it('gives the TRACE GCX062 the CRC AF70h over its unescaped bytes', () => {
    expect(packetCrc(GCX062)).toBe(0xaf70);
  });

  it('is the same CRC as "Comunicação Segura" puts in DATACRC (§5.2.2.1: GIX014 → 8DF2h)', () => {
    expect(crc16(cat('GIX014', hex('00 01 00 0A 80 01 80 04 80 34 91 01 91 0E')))).toBe(0x8df2);
  });
});
