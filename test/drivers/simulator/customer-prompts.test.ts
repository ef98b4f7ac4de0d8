/**
 * The scripted customer follows the PINPAD (drivers/simulator/interaction.ts): after a chip that
 * failed — or when the display asks for a swipe only — they swipe the card; a magstripe-only
 * contactless card taps and is read as "CTLS simulando tarja" (PP_CARDTYPE 05, S220 §6.9.1).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PinpadSimulator, PinpadSimulatorOptions } from '../../../drivers/simulator/index.js';
import { track2Of } from '../../../drivers/simulator/cards.js';
import { TEST_CARDS } from '../../../drivers/simulator/index.js';
import { abecs, fixed, head, rawSetup, responseItems, tlv, type RawHost } from './raw-host.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function open(options: PinpadSimulatorOptions): Promise<{ sim: PinpadSimulator; host: RawHost }> {
  const { sim, host, close } = await rawSetup(options);
  cleanups.push(close);
  return { sim, host };
}

/** GCX of R$ 19,90 with contactless as asked and, when given, the host's own card prompt. */
const gcx = (contactless: boolean, prompt?: string): Buffer =>
  abecs(
    'GCX',
    tlv(0x0013, '000000001990'),
    tlv(0x0015, '261126'),
    tlv(0x0016, '120000'),
    tlv(0x0017, contactless ? '10000' : '00000'),
    ...(prompt === undefined ? [] : [tlv(0x001b, prompt)]),
  );

const text = (items: Map<number, Buffer>, id: number): string | undefined => items.get(id)?.toString('latin1');

describe('the customer after a chip failure', () => {
  it('swipes the card whose chip failed when the host asks for it again (PP_ICCSTAT "1")', async () => {
    const { sim, host } = await open({ profile: 'strict', autoCustomer: { delayMs: 1, card: 'visaChipFallback' } });
    expect(head(await host.exchange(gcx(true)))).toBe('GCX076');
    expect(head(await host.exchange(fixed('RMC', 'FALHA NO CHIP   RETIRE O CARTAO ')))).toBe('RMC000');
    expect(sim.cardStatus.cardInSlot).toBe(false);
    const read = responseItems(await host.exchange(gcx(false, 'FALHA NO CHIP\rPASSE O CARTAO')));
    expect(text(read, 0x804f)).toBe('00');
    expect(text(read, 0x8050)).toBe('1');
    expect(text(read, 0x8042)).toMatch(/^4444333322221111=3012201/);
  });

  it('swipes whatever card when the display asks for a swipe only', async () => {
    const { host } = await open({ profile: 'strict', autoCustomer: { delayMs: 1, card: 'visaCredit' } });
    const read = responseItems(await host.exchange(gcx(false, 'PASSE O CARTAO')));
    expect(text(read, 0x804f)).toBe('00');
  });

  it('legacy (GCR): swipes after GCR076, and GCR_STATCHIP says "1"', async () => {
    const { host } = await open({ profile: 'legacy', autoCustomer: { delayMs: 1, card: 'mastercardChipError' } });
    const gcr = fixed('GCR', `0099${'1990'.padStart(12, '0')}261126120000${'0'.repeat(10)}00`);
    expect(head(await host.exchange(gcr))).toBe('GCR061');
    await host.exchange(fixed('RMC', 'RETIRE O CARTAO'.padEnd(32)));
    const read = await host.exchange(gcr);
    expect(head(read)).toBe('GCR000');
    // GCR_CARDTYPE "00", GCR_STATCHIP "1".
    expect(read.subarray(9, 12).toString('latin1')).toBe('001');
  });
});

describe('a magstripe-only contactless card', () => {
  it('taps and is read as CTLS simulating the stripe: type 05, tracks, label, no PAN or EMV data', async () => {
    const { host } = await open({
      profile: 'strict',
      autoCustomer: { delayMs: 1, card: 'mastercardContactlessMagstripe' },
    });
    const read = responseItems(await host.exchange(gcx(true)));
    const card = TEST_CARDS.mastercardContactlessMagstripe;
    expect(text(read, 0x804f)).toBe('05');
    expect(text(read, 0x8051)).toMatch(/^01\d{4}$/);
    expect(text(read, 0x8042)).toBe(track2Of(card).slice(0, card.pan.length + 8));
    expect(text(read, 0x805b)).toBe('CREDITO');
    expect(text(read, 0x8060)).toBe('00');
    for (const absent of [0x8052, 0x8053, 0x805c, 0x805d, 0x8054]) expect(read.has(absent)).toBe(false);
    // Processed as a stripe: GTK gives the tracks; there is no EMV step (GOX is ST_INVCALL).
    const tracks = responseItems(await host.exchange(abecs('GTK', tlv(0x0007, '0010'))));
    expect(tracks.get(0x8045)!.toString('hex').toUpperCase()).toMatch(/^2223003122003222D3012201/);
    const gox = abecs('GOX', tlv(0x0010, '01'), tlv(0x0002, '3'), tlv(0x0009, '01'));
    expect(head(await host.exchange(gox))).toBe('GOX010');
  });
});
