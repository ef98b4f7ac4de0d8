/**
 * Issue 38: "a card sale requested while a QR is shown takes the PINPAD back cleanly; loading
 * never blocks a card sale longer than the load itself" — at the POS API, on a PPC-930 slow to
 * answer, with the sale asked for while the QR image is going onto the PINPAD (the moment the
 * PINPAD receives the load's MLI). What the customer, the cashier and the PINPAD see: the sale
 * goes through, the QR never appears, nothing half-loaded is left in the PINPAD's memory, and
 * the POS still hears when the bolepix is paid. And a show cancelled at once, its first read of the
 * bolepix under way, leaves nothing that holds Pinbridge's or the sandbox's close.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceLinkTrace } from '../../../../drivers/simulator/device-link.js';
import { createBolepix, newBuyer, payByPix } from '../bolepix-rig.js';
import {
  AUTO_CUSTOMER,
  checkedCall as call,
  checkedEvent,
  posRig,
  type PosPinpad,
  type PosRig,
  type RpcClient,
} from '../pos-rig.js';

/**
 * How long the PINPAD takes to answer each command (a PPC-930 writing its flash, a busy USB hub):
 * slow enough that stopping the load — the MLI in flight answered, then MLE and DMF — takes
 * longer than the 3 s a sale waits for a message on the display.
 */
const SLOW_ANSWER_MS = 1_250;

/** Where, among the commands the PINPAD received, the POS asked for the sale. */
const SALE_ASKED = '(payment.start)';

let counter = 0;
const reference = (prefix: string): string => `${prefix}-${++counter}-${Date.now()}`;

describe('a card sale asked for while the Pix QR loads onto a slow PPC-930', () => {
  let pos: PosRig;
  let client: RpcClient;
  let pinpad: PosPinpad;
  let buyerId: string;

  beforeAll(async () => {
    pos = await posRig({ simulator: { profile: 'ppc930', ...AUTO_CUSTOMER } });
    pinpad = pos.pinpads[0]!;
    client = await pos.paired('Caixa Pix lento');
    buyerId = await newBuyer(pos);
  });
  afterAll(async () => pos.close());

  it('stops the load at once, the sale is approved, no QR or partial file is left, and pix.paid still comes', async () => {
    const bolepix = await createBolepix(client, buyerId);
    const bolepixId = bolepix.id;

    // What the PINPAD receives, in order, with the moment the POS asked for the sale among it.
    const received: string[] = [];
    // What the PINPAD's screen showed, each time it changed: its image, and whether the sale was asked for.
    const screens: { readonly image: string | undefined; readonly saleAsked: boolean }[] = [];
    let sale: Promise<Record<string, unknown>> | undefined;
    const onTrace = (trace: DeviceLinkTrace): void => {
      if (trace.direction !== 'in') return;
      if (trace.kind === 'can') received.push('CAN');
      if (trace.kind !== 'packet') return;
      received.push(trace.command ?? '?');
      // The image starts going over: the cashier swipes a card for another order right now.
      if (trace.command === 'MLI' && sale === undefined) {
        received.push(SALE_ASKED);
        sale = call(client, 'payment.start', {
          reference_id: reference('card'),
          amount: 1234,
          payment_type: 'credit',
          installments: 1,
          description: 'Pedido 43',
        });
        // Awaited below; a refusal must fail the spec there, not as an unhandled rejection first.
        sale.catch(() => undefined);
      }
    };
    const onDisplay = (display: { readonly image?: { readonly name: string } }): void => {
      screens.push({ image: display.image?.name, saleAsked: sale !== undefined });
    };
    pinpad.session.link.on('trace', onTrace);
    pinpad.sim.on('display', onDisplay);
    pinpad.session.link.faults.responseDelayMs = SLOW_ANSWER_MS;
    try {
      const shown = await call(client, 'pix.show', { transaction_id: bolepixId });
      expect(sale).toBeDefined();
      // The QR never made it: the POS is told the sale took the PINPAD, and shows the QR on its screen.
      expect(shown).toMatchObject({ transaction_id: bolepixId, pinpad: 'taken', br_code: bolepix.pix.qr_code });
      expect(await checkedEvent(client, 'pix.ended', (p) => p.transaction_id === bolepixId)).toMatchObject({
        reason: 'pinpad_taken',
        watching: true,
      });
      expect(await sale).toMatchObject({ status: 'approved', amount: 1234 });
    } finally {
      pinpad.session.link.faults.responseDelayMs = 0;
      pinpad.session.link.off('trace', onTrace);
      pinpad.sim.off('display', onDisplay);
    }

    // The load stopped where it was: the MLI in flight was answered, its temporary area freed
    // (MLE) and its name deleted (DMF); then the sale's own commands, and never another MLR or a DSI.
    const asked = received.indexOf(SALE_ASKED);
    expect(received.slice(asked - 1, asked + 3)).toEqual(['MLI', SALE_ASKED, 'MLE', 'DMF']);
    const saleCommands = received.slice(asked + 3);
    expect(saleCommands.length).toBeGreaterThan(0);
    expect(saleCommands.filter((id) => ['MLI', 'MLR', 'MLE', 'DSI', 'LMF', 'DMF'].includes(id))).toEqual([]);
    expect(received).not.toContain('MLR');
    // The customer never saw the QR: not before (it was not loaded yet), not after.
    expect(screens.filter((screen) => screen.image !== undefined)).toEqual([]);
    expect(pinpad.sim.display.image).toBeUndefined();
    // Nothing half-loaded is kept: no file of the agent's, no memory held by the stopped load.
    expect(pinpad.sim.mediaFiles().filter((file) => file.name.trim().startsWith('PBQR'))).toEqual([]);
    expect(pinpad.sim.mediaMemoryUsed).toBe(0);

    // The customer pays the bolepix from the POS's screen: the POS still hears of it.
    await payByPix(pos, bolepixId);
    expect(await checkedEvent(client, 'pix.paid', (p) => p.transaction_id === bolepixId)).toMatchObject({
      amount: 15_000,
      via: 'pix',
    });
    // …and that is the show's last event.
    expect(
      await checkedEvent(client, 'pix.ended', (p) => p.transaction_id === bolepixId && p.watching === false),
    ).toMatchObject({ reason: 'paid' });
  }, 45_000);
});

describe('a show cancelled at once, its first read of the bolepix under way', () => {
  it('leaves nothing open: Pinbridge and its sandbox close at once', async () => {
    const pos = await posRig({ simulator: { profile: 'ppc930', ...AUTO_CUSTOMER } });
    let closing: Promise<void> | undefined;
    try {
      const client = await pos.paired('Caixa Pix');
      const transaction = await createBolepix(client, await newBuyer(pos));
      expect(await call(client, 'pix.show', { transaction_id: transaction.id })).toMatchObject({ pinpad: 'image' });
      // The cashier changes their mind at once: the watch's first read is on its way.
      expect(await call(client, 'pix.cancel', { transaction_id: transaction.id })).toEqual({ cancelled: true });
      expect(await checkedEvent(client, 'pix.ended', (p) => p.transaction_id === transaction.id)).toMatchObject({
        reason: 'cancelled',
        watching: false,
      });
    } finally {
      closing = pos.close();
    }
    // A close takes milliseconds; one held by a connection waits for Node's 60 s headers timeout.
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      closing.then(() => 'closed'),
      new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still closing after 2 s'), 2_000))),
    ]).finally(() => clearTimeout(timer));
    expect(outcome).toBe('closed');
  }, 20_000);
});
