/**
 * OPN, CLO and DSP as the spec has the PINPAD process them (S220 §3.2.1, §3.2.6, §3.3.5, §6.4.1,
 * §6.4.5, §6.5.5, §7.3.1), profile by profile: what the host must send is strict (CMD_LEN1 "032"),
 * what the PINPAD must accept is robust, and a command without an OPN before it is processed as if
 * one had come.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PinpadSimulatorOptions } from '../../../drivers/simulator/index.js';
import { abecs, fixed, head, hex, latin1, rawSetup, tlv, type RawHost } from './raw-host.js';
import type { PinpadSimulator } from '../../../drivers/simulator/index.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function open(options: PinpadSimulatorOptions): Promise<{ sim: PinpadSimulator; host: RawHost }> {
  const { sim, host, close } = await rawSetup(options);
  cleanups.push(close);
  return { sim, host };
}

const GIX_SERIAL = abecs('GIX', tlv(0x0001, hex('8001')));

describe('DSP and CLO of any length (S220 §6.5.5, §6.4.5: "Situações de exceção: não há")', () => {
  for (const profile of ['strict', 'training', 'ppc930'] as const) {
    it(`${profile}: shows a short, a long and an empty DSP message instead of refusing it`, async () => {
      const { sim, host } = await open({ profile });
      expect(head(await host.exchange(fixed('DSP', 'CURTA')))).toBe('DSP000');
      expect(sim.display.lines.slice(0, 2)).toEqual(['CURTA', '']);
      expect(head(await host.exchange(fixed('DSP', 'LINHA UM LONGA..LINHA DOIS LONGA-EXCESSO')))).toBe('DSP000');
      expect(sim.display.lines.slice(0, 2)).toEqual(['LINHA UM LONGA..', 'LINHA DOIS LONGA']);
      expect(head(await host.exchange('DSP'))).toBe('DSP000');
      expect(sim.display.lines.every((line) => line === '')).toBe(true);
    });

    it(`${profile}: closes on a bare CLO and on a short CLO_MSG, leaving what came on the display`, async () => {
      const { sim, host } = await open({ profile });
      expect((await host.exchange(fixed('CLO', 'ATE LOGO'))).toString('latin1')).toBe('CLO000');
      expect(sim.display.lines[0]).toBe('ATE LOGO');
      expect((await host.exchange('CLO')).toString('latin1')).toBe('CLO000');
      expect(sim.display.lines.every((line) => line === '')).toBe(true);
    });
  }
});

describe('commands without an OPN before them (S220 §6.4.1)', () => {
  it('strict: a command after CLO gets a classic OPN first — display cleared — and is then processed', async () => {
    const { sim, host } = await open({ profile: 'strict' });
    expect(head(await host.exchange('OPN'))).toBe('OPN000');
    await host.exchange(fixed('CLO', 'CAIXA FECHADO'.padEnd(32)));
    expect(sim.display.lines[0]).toBe('CAIXA FECHADO');
    expect(head(await host.exchange(GIX_SERIAL))).toBe('GIX000');
    expect(sim.display.lines.every((line) => line === '')).toBe(true);
    // Once open, commands leave the display to themselves again.
    await host.exchange(fixed('DSP', 'AGUARDE'.padEnd(32)));
    expect(head(await host.exchange(GIX_SERIAL))).toBe('GIX000');
    expect(sim.display.lines[0]).toBe('AGUARDE');
  });

  it('strict: the first command after power-on is processed without any OPN', async () => {
    const { host } = await open({ profile: 'strict' });
    expect(head(await host.exchange(GIX_SERIAL))).toBe('GIX000');
    expect(head(await host.exchange(latin1('GIN00200')))).toBe('GIN000');
  });

  it('training: keeps the CLO message on the display when a command follows without OPN', async () => {
    const { sim, host } = await open({ profile: 'training' });
    await host.exchange(fixed('CLO', 'CAIXA FECHADO'.padEnd(32)));
    expect(head(await host.exchange(GIX_SERIAL))).toBe('GIX000');
    expect(sim.display.lines[0]).toBe('CAIXA FECHADO');
  });
});
