/**
 * GKY, CEX, GCD and MNU (S220 §3.3.1, §3.3.8, §3.3.10, §3.3.13, §6.5) with the spec's examples and
 * the TRACE's CEX.
 */
import { describe, expect, it } from 'vitest';
import type { Reading } from '../../../../drivers/simulator/wire/command.js';
import { CEX, GCD, GKY, MNU } from '../../../../drivers/simulator/wire/commands/input.js';
import { ST } from '../../../../drivers/simulator/wire/statuses.js';
import { answer, cat, decode, hex, latin1, refusal } from './bytes.js';

const SPEC_212: Reading = { strict: false, specVersion: '2.12' };

describe('GKY (§3.3.10)', () => {
  it('takes no parameter and answers the key in RSP_STAT (the §3.3.10 example: CANCEL → GKY013)', () => {
    expect(decode(GKY, 'GKY')).toEqual({});
    expect(GKY.blocking).toBe(true);
    expect(answer(GKY, { key: 'cancel' })).toEqual(latin1('GKY013'));
    expect(answer(GKY, { key: 'enter' })).toEqual(latin1('GKY000'));
    expect(answer(GKY, { key: 'f1' })).toEqual(latin1('GKY004'));
    expect(answer(GKY, { key: 'f4' })).toEqual(latin1('GKY007'));
    expect(answer(GKY, { key: 'clear' })).toEqual(latin1('GKY008'));
  });
});

describe('CEX (§3.3.1, §6.5.1)', () => {
  it('reads SPE_CEXOPT of the §3.3.1 example: the magnetic stripe only', () => {
    expect(decode(CEX, cat('CEX010', hex('00 06 00 06'), '010000'))).toEqual({
      key: false,
      magstripe: true,
      icc: 'ignore',
      contactless: false,
    });
  });

  it('reads the TRACE\'s CEX010 "111100": keys, stripe, ICC insertion, contactless', () => {
    expect(decode(CEX, hex('43 45 58 30 31 30 00 06 00 06 31 31 31 31 30 30'))).toEqual({
      key: true,
      magstripe: true,
      icc: 'insertion',
      contactless: true,
    });
  });

  it('accepts SPE_CEXOPT of any length, anything out of range read as "0" (§6.5.1)', () => {
    expect(decode(CEX, cat('CEX005', hex('00 06 00 01'), '1'))).toEqual({
      key: true,
      magstripe: false,
      icc: 'ignore',
      contactless: false,
    });
    expect(decode(CEX, cat('CEX012', hex('00 06 00 08'), 'X1X1XXXX'))).toEqual({
      key: false,
      magstripe: true,
      icc: 'ignore',
      contactless: true,
    });
    expect(decode(CEX, cat('CEX010', hex('00 06 00 06'), '2' + '3' + '9' + '7' + '00'))).toEqual({
      key: false,
      magstripe: false,
      icc: 'ignore',
      contactless: false,
    });
    expect(decode(CEX, cat('CEX010', hex('00 06 00 06'), '002000')).icc).toBe('removal');
  });

  it('reads SPE_TIMEOUT (X1) and SPE_PANMASK ("eedd")', () => {
    const cex = cat('CEX023', hex('00 06 00 06'), '010000', hex('00 0C 00 01 1E 00 23 00 04'), '0604');
    expect(decode(CEX, cex)).toMatchObject({ timeoutSeconds: 30, panMask: { left: 6, right: 4 } });
  });

  it('answers ST_MANDAT without SPE_CEXOPT (§6.5.1)', () => {
    expect(refusal(CEX, 'CEX')).toBe(ST.MANDAT);
    expect(refusal(CEX, cat('CEX005', hex('00 0C 00 01 1E')))).toBe(ST.MANDAT);
  });

  it("writes the §3.3.1 answer (a swipe with track 2 only) and the TRACE's contactless event byte for byte", () => {
    expect(answer(CEX, { event: 'cardSwiped', tracks: { track2: '4313032929830011=1508601' } })).toEqual(
      hex(`43 45 58 30 30 30 30 33 34 80 40 00 02 39 30 80 42 00 18 34 33 31 33 30 33 32 39 32 39 38 33 30 30 31 31
        3D 31 35 30 38 36 30 31`),
    );
    expect(answer(CEX, { event: 'contactlessDetected' })).toEqual(cat('CEX000006', hex('80 40 00 02'), '94'));
  });

  it('writes every PP_EVENT code of §3.3.1', () => {
    const events = {
      enter: '00',
      up: '02',
      down: '03',
      f1: '04',
      f2: '05',
      f3: '06',
      f4: '07',
      clear: '08',
      cancel: '13',
      cardSwiped: '90',
      iccRemoved: '91',
      iccInserted: '92',
      contactlessTimeout: '93',
      contactlessDetected: '94',
    } as const;
    for (const [event, code] of Object.entries(events)) {
      expect(
        answer(CEX, { event: event as keyof typeof events })
          .subarray(13)
          .toString('latin1'),
      ).toBe(code);
    }
  });
});

describe('GCD (§3.3.8, §6.5.8)', () => {
  it('reads the §3.3.8 example: message 0009h (RG), at most 10 digits, 60 s of inactivity', () => {
    expect(decode(GCD, cat('GCD016', hex('00 0C 00 01 3C 00 0E 00 01 0A 00 0B 00 02 00 09')))).toEqual({
      message: 9,
      maxDigits: 10,
      timeoutSeconds: 60,
    });
  });

  it('writes the §3.3.8 answer: PP_VALUE "169937823"', () => {
    expect(answer(GCD, { value: '169937823' })).toEqual(cat('GCD000013', hex('80 4D 00 09'), '169937823'));
  });

  it('answers ST_MANDAT without SPE_MSGIDX and ST_INVPARM for digits out of range (§3.3.8, §6.5.8)', () => {
    expect(refusal(GCD, cat('GCD005', hex('00 0E 00 01 0A')))).toBe(ST.MANDAT);
    expect(refusal(GCD, cat('GCD011', hex('00 0B 00 02 00 07 00 0D 00 01 21')))).toBe(ST.INVPARM); // SPE_MINDIG 33
    expect(refusal(GCD, cat('GCD011', hex('00 0B 00 02 00 07 00 0E 00 01 00')))).toBe(ST.INVPARM); // SPE_MAXDIG 0
    expect(refusal(GCD, cat('GCD016', hex('00 0B 00 02 00 07 00 0D 00 01 0B 00 0E 00 01 0A')))).toBe(ST.INVPARM); // max < min
    expect(refusal(GCD, cat('GCD007', hex('00 0B 00 03 00 00 07')))).toBe(ST.INVPARM); // SPE_MSGIDX is X2
  });

  it('reads SPE_GCDOPT on a 2.20 PINPAD and ignores it, as unknown, on an older one', () => {
    const gcd = cat('GCD014', hex('00 0B 00 02 00 31 00 26 00 04'), '1000');
    expect(decode(GCD, gcd)).toEqual({ message: 0x31, alphanumeric: true });
    expect(decode(GCD, gcd, SPEC_212)).toEqual({ message: 0x31 });
  });
});

describe('MNU (§3.3.13, §6.5.13)', () => {
  const example = hex(`4D 4E 55 30 38 39 00 0C 00 01 1E 00 20 00 11 35 2E 43 68 61 6D 61 64 6F 20 54 E9 63 6E 69 63 6F
    00 20 00 0B 31 2E 43 6F 6E 73 75 6C 74 61 73 00 20 00 07 33 2E 41 6A 75 64 61 00 20 00 08 56 6F 6C 74 61 72 21 21
    00 1B 00 15 53 65 6C 65 63 69 6F 6E 65 2C 20 70 6F 72 20 66 61 76 6F 72 3A`);

  it('reads the §3.3.13 example: four options in order, the title, 30 s', () => {
    expect(decode(MNU, example)).toEqual({
      options: ['5.Chamado Técnico', '1.Consultas', '3.Ajuda', 'Voltar!!'],
      title: 'Selecione, por favor:',
      timeoutSeconds: 30,
    });
  });

  it('writes the §3.3.13 answer: option "02"', () => {
    expect(answer(MNU, { index: 2 })).toEqual(cat('MNU000006', hex('80 4D 00 02'), '02'));
  });

  it('answers ST_MANDAT without an option, ST_INVPARM for more than 20 or one over 24 characters', () => {
    expect(refusal(MNU, cat('MNU005', hex('00 0C 00 01 1E')))).toBe(ST.MANDAT);
    const option = (text: string): Buffer => cat(hex(`00 20 00 ${text.length.toString(16).padStart(2, '0')}`), text);
    const menu = (options: string[]): Buffer => {
      const block = Buffer.concat(options.map(option));
      return cat(`MNU${String(block.length).padStart(3, '0')}`, block);
    };
    expect(refusal(MNU, menu(Array.from({ length: 21 }, (_, i) => `OPCAO ${i + 1}`)))).toBe(ST.INVPARM);
    expect(refusal(MNU, menu(Array.from({ length: 20 }, (_, i) => `OPCAO ${i + 1}`)))).toBeUndefined();
    expect(refusal(MNU, menu(['X'.repeat(25)]))).toBe(ST.INVPARM);
    expect(refusal(MNU, menu(['X'.repeat(24)]))).toBeUndefined();
  });
});
