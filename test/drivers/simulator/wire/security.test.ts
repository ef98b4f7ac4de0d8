/**
 * GPN and GTK (S220 §3.3.11, §3.3.12, §5.4.2, §6.5.11, §6.5.12) with the spec's examples.
 */
import { describe, expect, it } from 'vitest';
import { STRICT } from '../../../../drivers/simulator/wire/command.js';
import { GPN, GTK, packDigits } from '../../../../drivers/simulator/wire/commands/security.js';
import { ST } from '../../../../drivers/simulator/wire/statuses.js';
import { answer, cat, decode, hex, latin1, refusal } from './bytes.js';

/** The GPN093 of §3.3.11: MK/WK TDES, key 08, the PAN 4444333322221111, 4 to 12 digits. */
const GPN093 = hex(`47 50 4E 30 39 33 31 30 38 34 31 33 35 45 41 35 38 42 41 31 33 45 32 36 32 46 34 34 43 35 39 45
  44 37 38 39 39 41 41 33 43 31 36 34 34 34 34 33 33 33 33 32 32 32 32 31 31 31 31 20 20 20 31 30
  34 31 32 52 24 20 20 20 20 20 20 20 20 20 33 34 2C 35 36 44 49 47 49 54 45 20 53 55 41 20 53 45
  4E 48 41`);

const gpn = (fields: {
  method?: string;
  pan?: string;
  panLength?: string;
  entries?: string;
  min?: string;
  max?: string;
}): string =>
  'GPN093' +
  (fields.method ?? '3') +
  '01' +
  '0'.repeat(32) +
  (fields.panLength ?? '16') +
  (fields.pan ?? '4111111111111111').padEnd(19) +
  (fields.entries ?? '1') +
  (fields.min ?? '04') +
  (fields.max ?? '12') +
  'DIGITE A SENHA'.padEnd(32);

describe('GPN (§3.3.11, §6.5.11)', () => {
  it('reads the §3.3.11 example', () => {
    expect(decode(GPN, GPN093)).toEqual({
      method: 'mkwk',
      keyIndex: 8,
      workingKey: hex('4135EA58BA13E262F44C59ED7899AA3C'),
      pan: '4444333322221111',
      minDigits: 4,
      maxDigits: 12,
      message: 'R$         34,56DIGITE SUA SENHA',
    });
  });

  it('writes the §3.3.11 answer: GPN_PINBLK H16 and GPN_KSN H20 (zeros under MK/WK)', () => {
    expect(answer(GPN, { pinBlock: hex('BB6BE28FDF3522E9'), ksn: Buffer.alloc(10) })).toEqual(
      latin1('GPN000036BB6BE28FDF3522E900000000000000000000'),
    );
  });

  it('reads GPN_PANLEN "00" as "the card read by CEX/GCX" (§6.5.11)', () => {
    expect(decode(GPN, gpn({ panLength: '00', pan: '' }))).not.toHaveProperty('pan');
  });

  it('answers ST_INVPARM as §6.5.11 lists: a PAN with non-digits, GPN_MIN1 below 04, GPN_ENTRIES not 1', () => {
    expect(refusal(GPN, gpn({ pan: '4111 1111 1111 11', panLength: '17' }))).toBe(ST.INVPARM);
    expect(refusal(GPN, gpn({ min: '03' }))).toBe(ST.INVPARM);
    expect(refusal(GPN, gpn({ entries: '3' }))).toBe(ST.INVPARM); // "fixo em 1" (the 3-entry example of §3.3.11 included)
    expect(refusal(GPN, gpn({ min: '06', max: '05' }))).toBe(ST.INVPARM);
    expect(refusal(GPN, gpn({ panLength: '01', pan: '4' }))).toBe(ST.INVPARM);
    expect(refusal(GPN, gpn({ method: '7' }))).toBe(ST.INVPARM);
    expect(refusal(GPN, 'GPN')).toBe(ST.MANDAT);
  });

  it('reads the obsolete DES methods (the handler has no key for them)', () => {
    expect(decode(GPN, gpn({ method: '2' })).method).toBe('dukptDes');
    expect(decode(GPN, gpn({ method: '0' })).method).toBe('mkwkDes');
  });

  it('lets characters after GPN_PANLEN pass only when lenient', () => {
    const sloppy = gpn({ panLength: '13', pan: '4111111111111111' });
    expect(decode(GPN, sloppy).pan).toBe('4111111111111');
    expect(refusal(GPN, sloppy, STRICT)).toBe(ST.INVPARM);
  });
});

describe('GTK (§3.3.12, §6.5.12)', () => {
  it('reads the second §3.3.12 example: PAN and track 2, MK/WK TDES CBC with an IV, 4 open digits, key 07', () => {
    const gtk = hex(`47 54 4B 30 35 37 00 07 00 04 31 30 31 30 00 03 00 02 31 31 00 1D 00 08 7F 7C 1A FA C0 A8 4F B7
      00 08 00 01 34 00 09 00 02 30 37 00 0A 00 10 C2 BC A2 4F 3E F8 F2 EF 1C 0F 07 A9 7D 38 C3 38`);
    expect(decode(GTK, gtk)).toEqual({
      tracks: { pan: true, track1: false, track2: true, track3: false },
      encryption: {
        method: 'mkwkCbc',
        keyIndex: 7,
        workingKey: hex('C2BCA24F3EF8F2EF1C0F07A97D38C338'),
        iv: hex('7F7C1AFAC0A84FB7'),
        openDigits: 4,
      },
    });
  });

  it('reads the third example (GTK281): PAN, tracks 1 and 2 under a random key, with a 2048-bit RSA key (B256)', () => {
    const gtk = cat(
      'GTK281',
      hex('00 07 00 04'),
      '1110',
      hex('00 03 00 02'),
      '91',
      hex('00 24 01 00'),
      Buffer.alloc(256, 0x80),
      hex('00 25 00 03 01 00 01'),
    );
    expect(decode(GTK, gtk)).toMatchObject({
      tracks: { pan: true, track1: true, track2: true, track3: false },
      encryption: { method: 'randomCbc', iv: Buffer.alloc(8), openDigits: 0, publicKey: { exponent: hex('01 00 01') } },
    });
    const shortKey = cat(
      'GTK153',
      hex('00 07 00 04'),
      '1110',
      hex('00 03 00 02'),
      '91',
      hex('00 24 00 80'),
      Buffer.alloc(128, 0x80),
      hex('00 25 00 03 01 00 01'),
    );
    expect(refusal(GTK, shortKey)).toBe(ST.INVPARM);
  });

  it('reads the TRACE\'s GTK008 "1111" in clear, and everything when SPE_TRACKS is absent or short', () => {
    expect(decode(GTK, cat('GTK008', hex('00 07 00 04'), '1111'))).toEqual({
      tracks: { pan: true, track1: true, track2: true, track3: true },
    });
    expect(decode(GTK, 'GTK')).toEqual({ tracks: { pan: true, track1: true, track2: true, track3: true } });
    expect(decode(GTK, cat('GTK006', hex('00 07 00 02'), '1X')).tracks).toEqual({
      pan: true,
      track1: false,
      track2: false,
      track3: false,
    });
  });

  it('answers ST_MANDAT and ST_INVPARM as §6.5.12 lists', () => {
    expect(refusal(GTK, cat('GTK006', hex('00 03 00 02'), '50'))).toBe(ST.MANDAT); // no SPE_KEYIDX
    expect(refusal(GTK, cat('GTK012', hex('00 03 00 02'), '10', hex('00 09 00 02'), '01'))).toBe(ST.MANDAT); // no SPE_WKENC
    expect(refusal(GTK, cat('GTK006', hex('00 03 00 02'), '90'))).toBe(ST.MANDAT); // no RSA key
    expect(refusal(GTK, cat('GTK006', hex('00 03 00 02'), '42'))).toBe(ST.INVPARM);
    expect(
      refusal(GTK, cat('GTK017', hex('00 03 00 02'), '50', hex('00 09 00 02'), '01', hex('00 08 00 01'), '3')),
    ).toBe(ST.INVPARM);
  });

  it("writes the second example's answer: PP_ENCPAN then PP_TRACK2", () => {
    const pan = hex('41 23 FC 45 2F 36 15 44 A7 32');
    const track2 = hex('41 23 BB 80 F6 58 D4 4F BC 29 4B 8A 63 99 01 26 95 48 B8 8A C9 52 01 E8 4F BF');
    expect(answer(GTK, { pan, track2 })).toEqual(
      hex(`47 54 4B 30 30 30 30 34 34 80 4A 00 0A 41 23 FC 45 2F 36 15 44 A7 32 80 45 00 1A 41 23 BB 80 F6
        58 D4 4F BC 29 4B 8A 63 99 01 26 95 48 B8 8A C9 52 01 E8 4F BF`),
    );
  });

  it('packs digits a nibble each, F-padded (PP_ENCPAN of §3.1.3.2: "9781234789432" → 97 81 23 47 89 43 2F)', () => {
    expect(packDigits('9781234789432')).toEqual(hex('97 81 23 47 89 43 2F'));
    expect(packDigits('66733246732413=1512601')).toEqual(hex('66 73 32 46 73 24 13 D1 51 26 01'));
  });
});
