/**
 * Pix at the counter through the POS API (issue 38): a bolepix the POS created is shown with
 * pix.show — as a QR image on a PPC-930's graphic display, as two lines on a text-only PINPAD —
 * and watched until it is paid (pix.paid, "PIX RECEBIDO"), cancelled (pix.cancel) or replaced;
 * a card sale takes the PINPAD back at once and the POS still hears of the payment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPinpadQr } from '../../../../main/pix/index.js';
import { PIX_MEDIA_BUDGET_BYTES } from '../../../../main/pinpad/pix-display.js';
import { decodeQrPng } from '../../../helpers/qr-decode.js';
import { displayed } from '../../core/engine-rig.js';
import {
  AUTO_CUSTOMER,
  checkedCall as call,
  checkedEvent,
  checkedFailure as refused,
  posRig,
  type PosPinpad,
  type PosRig,
  type RpcClient,
} from '../pos-rig.js';
import { createBolepix, newBuyer, payByPix } from '../bolepix-rig.js';

let counter = 0;
const reference = (prefix: string): string => `${prefix}-${++counter}-${Date.now()}`;

describe('pix.show on a PPC-930 (graphic display, PNG)', () => {
  let pos: PosRig;
  let client: RpcClient;
  let pinpad: PosPinpad;
  let buyerId: string;

  beforeAll(async () => {
    pos = await posRig({ simulator: { profile: 'ppc930', ...AUTO_CUSTOMER } });
    pinpad = pos.pinpads[0]!;
    client = await pos.paired('Caixa Pix');
    buyerId = await newBuyer(pos);
  });
  afterAll(async () => pos.close());

  it('shows the bolepix QR (with its amount) on the PINPAD, and once paid says PIX RECEBIDO and tells the POS', async () => {
    const bolepix = await createBolepix(client, buyerId);
    const shown = await call(client, 'pix.show', { transaction_id: bolepix.id });
    expect(shown).toMatchObject({
      transaction_id: bolepix.id,
      terminal: pinpad.serial,
      amount: 15_000,
      br_code: bolepix.pix.qr_code,
      pinpad: 'image',
    });
    const image = pinpad.sim.display.image!;
    expect(image).toMatchObject({ format: 'png', width: 240, height: 320 });
    expect(image.name).toMatch(/^PBQR[0-9]{4}$/);
    // What the customer's phone reads off the PINPAD is exactly the bolepix's BR Code.
    expect(decodeQrPng(image.bytes)).toBe(bolepix.pix.qr_code);
    // The window's mirror gets the very file the PINPAD shows (pix.shown, and pix.list for a window opened later).
    const event = await checkedEvent(client, 'pix.shown', (p) => p.transaction_id === bolepix.id);
    expect(event).toMatchObject({ terminal: pinpad.serial, amount: 15_000, pinpad: 'image' });
    expect(event.pinpad_screen).toMatchObject({ kind: 'image', format: 'png', width: 240, height: 320 });
    const mirrored = String((event.pinpad_screen as { data_url?: unknown }).data_url);
    expect(Buffer.from(mirrored.replace(/^data:image\/png;base64,/, ''), 'base64')).toEqual(Buffer.from(image.bytes));
    expect((await call(client, 'pix.list', {})).shows).toEqual([event]);
    // The QR is on the PINPAD: the cashier's window is not pushed in front of the POS.
    expect(pos.pixOnScreen).toEqual([]);

    await payByPix(pos, bolepix.id);
    const paid = await checkedEvent(client, 'pix.paid', (p) => p.transaction_id === bolepix.id);
    expect(paid).toMatchObject({ terminal: pinpad.serial, amount: 15_000, via: 'pix' });
    expect(paid.pinpad_lines).toEqual(['PIX RECEBIDO', 'R$ 150,00']);
    await displayed(pinpad.sim, /PIX RECEBIDO/);
    expect(pinpad.sim.display.lines.join('\n')).toMatch(/R\$ 150,00/);
    expect(pinpad.sim.display.image).toBeUndefined();
    expect(await checkedEvent(client, 'pix.ended', (p) => p.transaction_id === bolepix.id)).toMatchObject({
      reason: 'paid',
      watching: false,
    });
    // A few seconds later the PINPAD is free again, and the agent's file is gone.
    await displayed(pinpad.sim, /CAIXA LIVRE/);
    await expect.poll(() => pinpad.sim.mediaFiles().map((f) => f.name)).toEqual([]);
    expect((await call(client, 'pix.list', {})).shows).toEqual([]);
  }, 20_000);

  it("pix.list tells a POS only of the shows it started; the window's shows reach no POS", async () => {
    const bolepix = await createBolepix(client, buyerId);
    await call(client, 'pix.show', { transaction_id: bolepix.id });
    const other = await pos.paired('Outro caixa');
    expect((await call(other, 'pix.list', {})).shows).toEqual([]);
    expect((await call(client, 'pix.list', {})).shows.map((s) => s.transaction_id)).toEqual([bolepix.id]);
    await call(client, 'pix.cancel', { transaction_id: bolepix.id });
    // The show is over once the PINPAD is idle and the agent's file deleted (after the idle text).
    await displayed(pinpad.sim, /CAIXA LIVRE/);
    await expect.poll(() => pinpad.sim.mediaFiles().map((f) => f.name)).toEqual([]);
    await other.close();
  });

  it("deletes the agent's stale PBQR files before loading, and leaves the PINPAD's other files", async () => {
    const bolepix = await createBolepix(client, buyerId);
    const png = renderPinpadQr(bolepix.pix.qr_code, {
      width: 240,
      height: 320,
      formats: ['png'],
      maxBytes: PIX_MEDIA_BUDGET_BYTES,
    }).bytes;
    await pinpad.pinpad.loadMedia('PBQR0999', 'png', png);
    await pinpad.pinpad.loadMedia('LOGO', 'png', png);
    const shown = await call(client, 'pix.show', { transaction_id: bolepix.id });
    expect(shown.pinpad).toBe('image');
    const names = pinpad.sim.mediaFiles().map((f) => f.name.trim());
    expect(names).toContain('LOGO');
    expect(names).not.toContain('PBQR0999');
    expect(names.filter((n) => n.startsWith('PBQR'))).toEqual([pinpad.sim.display.image!.name.trim()]);
    expect(await call(client, 'pix.cancel', { transaction_id: bolepix.id })).toEqual({ cancelled: true });
    await displayed(pinpad.sim, /CAIXA LIVRE/);
    await expect.poll(() => pinpad.sim.mediaFiles().map((f) => f.name.trim())).toEqual(['LOGO']);
    await pinpad.pinpad.deleteMedia('LOGO');
  });

  it('pix.cancel ends the show: the PINPAD goes back to idle and the POS hears pix.ended cancelled', async () => {
    const bolepix = await createBolepix(client, buyerId);
    await call(client, 'pix.show', { transaction_id: bolepix.id });
    expect(pinpad.sim.display.image).toBeDefined();
    expect(await call(client, 'pix.cancel', { transaction_id: bolepix.id })).toEqual({ cancelled: true });
    expect(await checkedEvent(client, 'pix.ended', (p) => p.transaction_id === bolepix.id)).toMatchObject({
      reason: 'cancelled',
      watching: false,
    });
    await displayed(pinpad.sim, /CAIXA LIVRE/);
    expect(pinpad.sim.display.image).toBeUndefined();
    expect(await call(client, 'pix.cancel', { transaction_id: bolepix.id })).toEqual({ cancelled: false });
  });

  it('a second pix.show on the same PINPAD replaces the first', async () => {
    const first = await createBolepix(client, buyerId);
    const second = await createBolepix(client, buyerId);
    await call(client, 'pix.show', { transaction_id: first.id });
    await call(client, 'pix.show', { transaction_id: second.id });
    expect(await checkedEvent(client, 'pix.ended', (p) => p.transaction_id === first.id)).toMatchObject({
      reason: 'replaced',
    });
    expect(decodeQrPng(pinpad.sim.display.image!.bytes)).toBe(second.pix.qr_code);
    await call(client, 'pix.cancel', { transaction_id: second.id });
  });

  it('a card sale takes the PINPAD from the QR, and the POS still hears when the bolepix is paid', async () => {
    const bolepix = await createBolepix(client, buyerId);
    await call(client, 'pix.show', { transaction_id: bolepix.id });
    const outcome = await call(client, 'payment.start', {
      reference_id: reference('card'),
      amount: 1234,
      payment_type: 'credit',
      installments: 1,
      description: 'Pedido',
    });
    expect(outcome).toMatchObject({ status: 'approved' });
    expect(await checkedEvent(client, 'pix.ended', (p) => p.transaction_id === bolepix.id)).toMatchObject({
      reason: 'pinpad_taken',
      watching: true,
    });
    await payByPix(pos, bolepix.id);
    expect(await checkedEvent(client, 'pix.paid', (p) => p.transaction_id === bolepix.id)).toMatchObject({
      amount: 15_000,
    });
  }, 30_000);

  it('refuses a transaction that is not a pending bolepix', async () => {
    const bolepix = await createBolepix(client, buyerId);
    await payByPix(pos, bolepix.id);
    expect(await refused(client, 'pix.show', { transaction_id: bolepix.id })).toMatchObject({
      code: 'INVALID_STATE',
      reason: 'NOT_PENDING',
    });
  });
});

describe('pix.show on a text-only PINPAD (training profile)', () => {
  let pos: PosRig;
  let client: RpcClient;

  beforeAll(async () => {
    pos = await posRig();
    client = await pos.paired('Caixa texto');
  });
  afterAll(async () => pos.close());

  it('tells the customer to pay on the screen, gives the POS the QR to show, and says PIX RECEBIDO once paid', async () => {
    const bolepix = await createBolepix(client, await newBuyer(pos));
    const shown = await call(client, 'pix.show', { transaction_id: bolepix.id });
    expect(shown.pinpad).toBe('text');
    expect(shown.qr_svg).toMatch(/^<svg|<\?xml/);
    expect(shown.qr_data_url).toMatch(/^data:image\/svg\+xml/);
    const sim = pos.pinpads[0]!.sim;
    expect(sim.display.lines.slice(0, 2)).toEqual(['PAGUE COM PIX', 'QR NA TELA']);
    // The window hears it too: the QR to show the customer, and the PINPAD's two lines for its mirror.
    const event = await checkedEvent(client, 'pix.shown', (p) => p.transaction_id === bolepix.id);
    expect(event).toMatchObject({ pinpad: 'text', qr_svg: shown.qr_svg, br_code: bolepix.pix.qr_code });
    expect(event.pinpad_screen).toEqual({ kind: 'text', lines: sim.display.lines.slice(0, 2) });
    // The customer scans it from the window: the desktop app is asked to bring it forward.
    expect(pos.pixOnScreen).toEqual([{ terminal: pos.pinpads[0]!.serial, transactionId: bolepix.id }]);
    // Paid from the POS's screen: the PINPAD says so all the same.
    await payByPix(pos, bolepix.id);
    expect(await checkedEvent(client, 'pix.paid', (p) => p.transaction_id === bolepix.id)).toMatchObject({
      amount: 15_000,
    });
    await displayed(sim, /PIX RECEBIDO/);
    expect(sim.display.lines.slice(0, 2)).toEqual(['PIX RECEBIDO', 'R$ 150,00']);
  });
});

describe('pix.show on a PPC-930 whose media memory is full', () => {
  let pos: PosRig;

  beforeAll(async () => {
    pos = await posRig({ simulator: { profile: 'ppc930', mediaMemoryBytes: 64, ...AUTO_CUSTOMER } });
  });
  afterAll(async () => pos.close());

  it('falls back to the text: the customer pays from the screen', async () => {
    const client = await pos.paired('Caixa cheio');
    const bolepix = await createBolepix(client, await newBuyer(pos));
    const shown = await call(client, 'pix.show', { transaction_id: bolepix.id });
    expect(shown.pinpad).toBe('text');
    const sim = pos.pinpads[0]!.sim;
    expect(sim.display.image).toBeUndefined();
    expect(sim.display.lines.slice(0, 2)).toEqual(['PAGUE COM PIX', 'QR NA TELA']);
    expect(sim.mediaFiles()).toEqual([]);
    await payByPix(pos, bolepix.id);
    await displayed(sim, /PIX RECEBIDO/);
  });
});
