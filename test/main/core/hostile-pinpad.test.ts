/**
 * A faulty or hostile PINPAD cannot flood the POS (issue 18, item 7), nor pass its babble off as
 * a customer who never presented a card (item 8). NTM notifications sent
 * without end while the card is asked for reach the POS and the window as progress events with
 * identical texts collapsed and at most PINPAD_MESSAGES_PER_SECOND a second per payment — and
 * the newest text always gets through. (A test found 592,700 progress events in 75 s before.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PINPAD_MESSAGES_PER_SECOND } from '../../../main/core/engine.js';
import { engineRig, progressed, saleParams, type EngineRig } from './engine-rig.js';

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('a PINPAD flooding notifications', () => {
  it('reaches the POS coalesced: identical texts collapsed, a ceiling a second, the newest text kept', async () => {
    rig = await engineRig();
    const pinpad = await rig.addPinpad('PB-FLOOD-1');
    const params = saleParams('flood');
    const running = rig.engine.start(params);
    await progressed(rig.engine, params.referenceId, 'waiting_card');
    // The PINPAD's messages as the driver hands them over (engine.test.ts proves real NTMs arrive
    // this way), as fast as a flooding device could: 1,201 in a burst, then more for a second.
    const startedAt = performance.now();
    for (let i = 0; i < 600; i++) rig.engine.relayPinpadMessage(pinpad.serial, 'INSIRA OU PASSE');
    for (let i = 0; i < 600; i++) rig.engine.relayPinpadMessage(pinpad.serial, i % 2 === 0 ? 'APROXIME' : 'O CARTAO');
    while (performance.now() - startedAt < 1_000) {
      rig.engine.relayPinpadMessage(pinpad.serial, 'INSIRA OU PASSE');
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    rig.engine.relayPinpadMessage(pinpad.serial, 'ULTIMA MENSAGEM');
    const floodSeconds = (performance.now() - startedAt) / 1_000;
    // The held-back newest text goes out when its second is over.
    await new Promise((resolve) => setTimeout(resolve, 1_200));

    const relayed = rig.events
      .filter((e) => e.referenceId === params.referenceId && e.step === 'pinpad_message')
      .map((e) => e.cashierMessage);
    expect(relayed.length).toBeGreaterThan(0);
    expect(relayed.length).toBeLessThanOrEqual(PINPAD_MESSAGES_PER_SECOND * (Math.ceil(floodSeconds) + 2));
    for (let i = 1; i < relayed.length; i++) expect(relayed[i]).not.toBe(relayed[i - 1]);
    // The newest text of the flood is not lost to the ceiling (the PINPAD's own may follow it).
    expect(relayed).toContain('ULTIMA MENSAGEM');

    await rig.engine.cancel(params.referenceId);
    expect(await running).toMatchObject({ status: 'cancelled' });
  });
});

describe('a PINPAD that babbles', () => {
  it('ends the sale as a PINPAD error, not as a card the customer never presented', async () => {
    rig = await engineRig({ pinpadTimings: { maxNoiseBytes: 1_024 }, timeouts: { cardMs: 30_000 } });
    const pinpad = await rig.addPinpad('PB-BABBLE-1');
    const params = saleParams('babble');
    const running = rig.engine.start(params);
    await progressed(rig.engine, params.referenceId, 'waiting_card');
    // The card is asked for (the notification on the display, a card command running).
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The device (or its cable) starts sending bytes that are not the protocol, without end.
    const babble = setInterval(() => void pinpad.link.device.write(Buffer.alloc(128, 0x41)).catch(() => undefined), 5);
    try {
      const outcome = await running;
      expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'PINPAD_ERROR' } });
      expect(outcome.problem?.code).not.toBe('CARD_TIMEOUT');
    } finally {
      clearInterval(babble);
    }
  });
});
