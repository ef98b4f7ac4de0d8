/**
 * The simulated PINPAD's GTK (S220 §5.4.2, §6.3.4.2, §6.5.12): the tracks of the card just read,
 * once, encrypted under the DUKPT data key of a loaded slot — checked as the acquirer's host sees
 * them, by opening them with the test BDK.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { gcxCommand } from '../../../drivers/abecs/commands/gcx.js';
import { gpnCommand } from '../../../drivers/abecs/commands/gpn.js';
import { gtkCommand, unpackDigits, type GtkRequest } from '../../../drivers/abecs/commands/gtk.js';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import {
  dataKey,
  initialKey,
  tdesCbcDecrypt,
  tdesDecrypt,
  TEST_BDK,
  withCounter,
} from '../../../drivers/crypto/dukpt.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  TEST_CARDS,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';
import { track2Of } from '../../../drivers/simulator/cards.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function open(options: PinpadSimulatorOptions = {}): Promise<{ sim: PinpadSimulator; pinpad: Pinpad }> {
  const sim = new PinpadSimulator({ timeScale: 0.05, ...options });
  const served = await startMemorySimulator(sim);
  const pinpad = new Pinpad(served.link.host);
  await pinpad.open();
  cleanups.push(async () => {
    await pinpad.close(null).catch(() => {});
    await served.close();
  });
  return { sim, pinpad };
}

async function swiped(pinpad: Pinpad, sim: PinpadSimulator): Promise<void> {
  sim.swipeCard('visaMagstripe');
  await pinpad.execute(gcxCommand, {
    date: '261126',
    time: '120000',
    amount: 1990,
    options: { contactless: false, hideAmount: false },
  });
}

const DUKPT_ECB: GtkRequest = { tracks: { pan: true, track2: true }, encryption: { method: 'dukptEcb', keyIndex: 1 } };

/** The acquirer's host: the data key of `ksn` from the test BDK. */
const keyOf = (ksn: Buffer): Buffer => dataKey(initialKey(TEST_BDK, withCounter(ksn, 0)), ksn);

describe('GTK on the simulated PINPAD', () => {
  it('gives the PAN and track 2 of the swiped card once, encrypted under one data key and KSN (ECB)', async () => {
    const { sim, pinpad } = await open({ profile: 'strict' });
    await swiped(pinpad, sim);
    const result = await pinpad.execute(gtkCommand, DUKPT_ECB);
    expect(result.ksns?.pan).toEqual(result.ksns?.track2);
    const key = keyOf(result.ksns!.track2!);
    expect(unpackDigits(tdesDecrypt(key, result.pan!))).toBe(TEST_CARDS.visaMagstripe.pan);
    expect(unpackDigits(tdesDecrypt(key, result.track2!))).toBe(track2Of(TEST_CARDS.visaMagstripe));
    // Gone from the PINPAD's memory: neither GTK nor a PIN on "the card read" can use it again.
    await expect(pinpad.execute(gtkCommand, DUKPT_ECB)).rejects.toMatchObject({ code: 'ST_INVCALL' });
    await expect(
      pinpad.execute(gpnCommand, { method: 'dukpt', keyIndex: 1, minDigits: 4, maxDigits: 12, message: 'SENHA:' }),
    ).rejects.toMatchObject({ code: 'ST_INVCALL' });
  });

  it('uses a fresh KSN per field in CBC mode', async () => {
    const { sim, pinpad } = await open({ profile: 'strict' });
    await swiped(pinpad, sim);
    const result = await pinpad.execute(gtkCommand, { ...DUKPT_ECB, encryption: { method: 'dukptCbc', keyIndex: 1 } });
    expect(result.ksns?.pan).not.toEqual(result.ksns?.track2);
    expect(unpackDigits(tdesCbcDecrypt(keyOf(result.ksns!.track2!), result.track2!))).toBe(
      track2Of(TEST_CARDS.visaMagstripe),
    );
  });

  it('answers ST_ERRKEY for a data slot with no key, and ST_INVCALL before any card was read', async () => {
    const { sim, pinpad } = await open({ profile: 'strict', keySlots: { dukptPin: [1], dukptData: [2] } });
    await expect(pinpad.execute(gtkCommand, DUKPT_ECB)).rejects.toMatchObject({ code: 'ST_INVCALL' });
    await swiped(pinpad, sim);
    await expect(pinpad.execute(gtkCommand, DUKPT_ECB)).rejects.toMatchObject({ code: 'ST_ERRKEY' });
  });
});
