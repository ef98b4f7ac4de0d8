/**
 * DSP, DEX and RMC (S220 §3.3.4, §3.3.5, §3.3.14, §6.5.4, §6.5.5, §6.5.14) with the spec's examples.
 */
import { describe, expect, it } from 'vitest';
import type { Reading } from '../../../../drivers/simulator/wire/command.js';
import { DEX, DSP, RMC } from '../../../../drivers/simulator/wire/commands/display.js';
import { ST } from '../../../../drivers/simulator/wire/statuses.js';
import { answer, decode, hex, latin1, refusal } from './bytes.js';

const SPEC_212: Reading = { strict: false, specVersion: '2.12' };

describe('DSP (§3.3.5, §6.5.5)', () => {
  it('reads the 2×16 message of the §3.3.5 example and answers DSP000', () => {
    const dsp = hex(`44 53 50 30 33 32 45 52 52 4F 20 44 45 20 4F 50 45 52 41 C7 C3 4F 43 D3 44 49 47 4F 3A 20 20 32
      31 31 32 2F 37 36`);
    expect(decode(DSP, dsp)).toEqual({ message: 'ERRO DE OPERAÇÃOCÓDIGO:  2112/76' });
    expect(answer(DSP, {})).toEqual(latin1('DSP000'));
  });

  it('never refuses: controls shown as spaces, short messages padded, extra characters ignored (§6.5.5)', () => {
    expect(decode(DSP, 'DSP011Cartao\nCred')).toEqual({ message: 'Cartao Cred' + ' '.repeat(21) });
    expect(decode(DSP, `DSP040${'X'.repeat(40)}`)).toEqual({ message: 'X'.repeat(32) });
    expect(decode(DSP, 'DSP')).toEqual({ message: ' '.repeat(32) });
  });
});

describe('RMC (§3.3.14, §6.5.14)', () => {
  it("reads RMC_MSG of the §3.3.14 example with DSP's rules and answers RMC000", () => {
    expect(decode(RMC, 'RMC032    OPERAÇÃO       FINALIZADA   ')).toEqual({
      message: '    OPERAÇÃO       FINALIZADA   ',
    });
    expect(RMC.blocking).toBe(true);
    expect(answer(RMC, {})).toEqual(latin1('RMC000'));
  });
});

describe('DEX (§3.3.4, §6.5.4)', () => {
  it('reads the four-line message of the §3.3.4 example', () => {
    const dex = hex(`44 45 58 30 33 38 30 33 35 46 65 6C 69 7A 20 4E 61 74 61 6C 0D 65 20 75 6D 0D 50 72 F3 73 70 65
      72 6F 0D 41 6E 6F 20 4E 6F 76 6F 21`);
    expect(decode(DEX, dex)).toEqual({ message: 'Feliz Natal\re um\rPróspero\rAno Novo!' });
    expect(answer(DEX, {})).toEqual(latin1('DEX000'));
  });

  it("reads the TRACE's DEX070067", () => {
    const message = 'VALOR:         1\r                \rAPROXIME, INSIRA\rOU PASSE  CARTAO';
    expect(decode(DEX, `DEX070067${message}`)).toEqual({ message });
  });

  it('answers ST_INVPARM when DEX_MSGLEN does not match DEX_MSG or is over 160 (§6.5.4)', () => {
    expect(refusal(DEX, 'DEX007005ABCD')).toBe(ST.INVPARM);
    expect(refusal(DEX, 'DEX010005ABCDEFG')).toBe(ST.INVPARM);
    expect(refusal(DEX, `DEX164161${'A'.repeat(161)}`)).toBe(ST.INVPARM);
    expect(refusal(DEX, `DEX163160${'A'.repeat(160)}`)).toBeUndefined();
    expect(refusal(DEX, 'DEX0020A')).toBe(ST.INVPARM);
    expect(refusal(DEX, 'DEX')).toBe(ST.MANDAT);
  });

  it('reads DEX_OPTIONS (N6, 2.20): horizontal, vertical, type — and on a 2.12 PINPAD the extra bytes are a length mismatch', () => {
    expect(decode(DEX, 'DEX014005HELLO221000')).toEqual({
      message: 'HELLO',
      options: { horizontal: 'center', vertical: 'center', type: 'success' },
    });
    expect(decode(DEX, 'DEX014005HELLO100000')).toEqual({
      message: 'HELLO',
      options: { horizontal: 'right', vertical: 'top', type: 'generic' },
    });
    expect(refusal(DEX, 'DEX014005HELLO221000', SPEC_212)).toBe(ST.INVPARM);
    expect(refusal(DEX, 'DEX014005HELLO350000')).toBe(ST.INVPARM);
  });
});
