/**
 * The payment engine over a real serial line: the simulated PINPAD served on one end of a socat
 * pseudo-terminal pair, the driver on the other through serialport, the sandbox over real HTTP.
 * The in-memory link covers the same paths faster in engine.test.ts; this proves the bytes on a
 * serial port carry a whole sale, its cancel and an unplugged cable.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { PinpadSimulator, startPtySimulator, type PtySimulator } from '../../../drivers/simulator/index.js';
import { SerialTransport } from '../../../drivers/transports/serial.js';
import { centavos } from '../../../main/core/money.js';
import type { SaleRequest } from '../../../main/core/sale-request.js';
import { attachPinpad } from '../../../main/pinpad/attach.js';
import { displayed, engineRig, progressed, type EngineRig } from './engine-rig.js';

let rig: EngineRig | undefined;
let pty: PtySimulator | undefined;
let pinpad: Pinpad | undefined;
afterEach(async () => {
  await rig?.engine.close();
  await pinpad?.close(null).catch(() => {});
  await pty?.close();
  await rig?.close();
  rig = pty = pinpad = undefined;
});

const SERIAL = 'PB-PTY-0001';

/** The stack with one PINPAD on a pty; `card` is what the simulated customer presents. */
async function openOnPty(card?: string): Promise<{ rig: EngineRig; sim: PinpadSimulator }> {
  rig = await engineRig();
  const sim = new PinpadSimulator({
    serialNumber: SERIAL,
    timeScale: 0.05,
    ...(card ? { autoCustomer: { delayMs: 5, card } } : {}),
  });
  pty = await startPtySimulator(sim);
  pinpad = new Pinpad(new SerialTransport(pty.path), { logger: rig.logger });
  await pinpad.open();
  expect(await attachPinpad(rig.engine, pinpad, { logger: rig.logger })).toBe(SERIAL);
  return { rig, sim };
}

let counter = 0;
const sale = (amount = 1990): SaleRequest => ({
  referenceId: `pty-${++counter}-${Date.now()}`,
  amount: centavos(amount),
  paymentType: 'credit',
  installments: 1,
  description: 'Venda pela serial',
  notification: 'Loja Serial',
});

describe('a PINPAD payment over a serial line (socat pty)', () => {
  it('approves a chip sale: the API shows it succeeded for this PINPAD', async () => {
    const { rig } = await openOnPty('visaCredit');
    const outcome = await rig.engine.start(sale());
    expect(outcome).toMatchObject({
      status: 'approved',
      state: 'confirmed',
      card: { maskedPan: '411111******1111', entryMode: 'chip' },
    });
    expect(await rig.client.transactions.retrieve(outcome.transactionId!)).toMatchObject({
      status: 'succeeded',
      terminal: SERIAL,
    });
  });

  it('ends a declined sale declined, with nothing charged', async () => {
    const { rig } = await openOnPty('visaCredit');
    const outcome = await rig.engine.start(sale(10051));
    expect(outcome).toMatchObject({ status: 'declined', problem: { code: 'CARD_DECLINED' } });
    expect((await rig.client.transactions.retrieve(outcome.transactionId!)).status).toBe('failed');
  });

  it('cancels from the POS while the PINPAD waits for the card (CAN on the line)', async () => {
    const { rig, sim } = await openOnPty();
    const params = sale();
    const running = rig.engine.start(params);
    await progressed(rig.engine, params.referenceId, 'waiting_card');
    await displayed(sim, /R\$/);
    const cancelled = await rig.engine.cancel(params.referenceId);
    expect(cancelled).toMatchObject({ status: 'cancelled', problem: { code: 'CANCELLED_BY_POS' } });
    expect(await running).toEqual(cancelled);
    expect((await rig.client.transactions.retrieve(cancelled.transactionId!)).status).toBe('canceled');
    // The PINPAD is still usable after the CAN: the next sale goes through.
    sim.insertCard('visaCredit');
    const next = rig.engine.start(sale());
    await displayed(sim, /SENHA/);
    sim.keypad.type('1234');
    sim.keypad.press('enter');
    await displayed(sim, /RETIRE/);
    sim.removeCard();
    expect(await next).toMatchObject({ status: 'approved' });
  });

  it('ends with PINPAD_DISCONNECTED when the cable is pulled while waiting for the card, with nothing charged', async () => {
    const { rig } = await openOnPty();
    const params = sale();
    const running = rig.engine.start(params);
    await progressed(rig.engine, params.referenceId, 'waiting_card');
    await pty!.close();
    const outcome = await running;
    expect(outcome).toMatchObject({ status: 'failed', state: 'failed', problem: { code: 'PINPAD_DISCONNECTED' } });
    expect((await rig.client.transactions.retrieve(outcome.transactionId!)).status).toBe('canceled');
  });
});
