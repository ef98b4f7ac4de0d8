/**
 * Whole sales on PINPADs that behave as real ones do, over a real serial line (socat pty): the
 * simulator's device profiles (a strict ABECS 2.20 reading, a PPC-930 built from the real trace,
 * a BibComp 1.08 PINPAD) against the payment engine, the driver and the sandbox over HTTP.
 *
 * What is asserted is what the customer and the API see: the PINPAD's display over time while
 * the card is asked for, and whether a transaction exists on the API at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import {
  PinpadSimulator,
  startPtySimulator,
  type PinpadSimulatorOptions,
  type PtySimulator,
} from '../../../drivers/simulator/index.js';
import { SerialTransport } from '../../../drivers/transports/serial.js';
import { resolve } from 'node:path';
import { attachPinpad, type AttachOptions } from '../../../main/pinpad/attach.js';
import { readEmvTables, TablesFileError } from '../../../main/pinpad/emv-tables.js';
import { centavos } from '../../../main/core/money.js';
import type { SaleRequest } from '../../../main/core/sale-request.js';
import { displayed, engineRig, progressed, type EngineRig, type RigOptions } from './engine-rig.js';

const SAMPLE_TABLES = resolve(import.meta.dirname, '../../../docs/emv-tables.sample.json');

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

/** The stack with one PINPAD of `options.profile` on a pty. */
async function openOnPty(
  options: PinpadSimulatorOptions,
  attach: AttachOptions = {},
  rigOptions: RigOptions = {},
): Promise<{ rig: EngineRig; sim: PinpadSimulator; serial: string }> {
  rig = await engineRig(rigOptions);
  const sim = new PinpadSimulator({ timeScale: 0.05, ...options });
  pty = await startPtySimulator(sim);
  pinpad = new Pinpad(new SerialTransport(pty.path), { logger: rig.logger });
  await pinpad.open();
  const serial = await attachPinpad(rig.engine, pinpad, { logger: rig.logger, ...attach });
  return { rig, sim, serial };
}

/** Every screen the display shows from now on, each as its lines joined by "\n". */
function screens(sim: PinpadSimulator): string[] {
  const seen: string[] = [sim.display.lines.join('\n')];
  sim.on('display', ({ lines }) => seen.push(lines.join('\n')));
  return seen;
}

let counter = 0;
const sale = (notification: string | undefined, amount = 1990): SaleRequest => ({
  referenceId: `profile-${++counter}-${Date.now()}`,
  amount: centavos(amount),
  paymentType: 'credit',
  installments: 1,
  description: 'Venda no PINPAD real',
  ...(notification === undefined ? {} : { notification }),
});

/** The customer inserts a chip card, types the PIN and takes the card out. */
async function customerPaysByChip(sim: PinpadSimulator): Promise<void> {
  sim.insertCard('visaCredit');
  await displayed(sim, /SENHA|VALOR/);
  sim.keypad.type('1234');
  sim.keypad.press('enter');
  await displayed(sim, /RETIRE/);
  sim.removeCard();
}

describe('a sale on a PINPAD that reads ABECS 2.20 literally (profile strict, 4 × 16)', () => {
  it('identifies it (a bare GIX would be ST_MANDAT) and keeps the whole notification on the display, with the amount, while the card is asked for', async () => {
    const { rig, sim, serial } = await openOnPty({ profile: 'strict', serialNumber: 'STRICT-0001' });
    expect(serial).toBe('STRICT-0001');
    const params = sale('Pedido 4521 - Loja do Centro SP', 123456);
    const shown = screens(sim);
    const running = rig.engine.start(params);
    await progressed(rig.engine, params.referenceId, 'waiting_card');
    await displayed(sim, /Pedido 4521/);
    // The prompt stays while the customer looks for the card.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sim.display.lines).toEqual(['R$ 1.234,56', 'Pedido 4521 - Lo', 'ja do Centro SP', 'APRESENTE CARTAO']);
    await customerPaysByChip(sim);
    expect(await running).toMatchObject({ status: 'approved', card: { entryMode: 'chip' } });
    // The notification was never shown cut, and from the first screen that had it until the
    // card came no other screen replaced it.
    const whole = 'R$ 1.234,56\nPedido 4521 - Lo\nja do Centro SP\nAPRESENTE CARTAO';
    const first = shown.findIndex((screen) => screen.includes('Pedido 4521'));
    expect(shown[first]).toBe(whole);
    const next = shown.findIndex((screen, index) => index > first && screen !== whole);
    expect(shown[next]).toMatch(/^(PROCESSANDO|SELECIONADO)/);
  });

  it('refuses the sale before anything is created on the API when the PIN key slot is empty', async () => {
    const { rig } = await openOnPty({
      profile: 'strict',
      serialNumber: 'STRICT-0002',
      keySlots: { dukptPin: [2], dukptData: [1] },
    });
    const outcome = await rig.engine.start(sale('Mesa 7'));
    expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'PINPAD_KEYS_MISSING' } });
    expect(outcome.problem?.message).toContain('PIN slot 01');
    expect(outcome.transactionId ?? null).toBeNull();
  });

  it('sells with the slots the settings name, where the acquirer loaded its keys', async () => {
    const { rig, sim } = await openOnPty(
      { profile: 'strict', serialNumber: 'STRICT-0003', keySlots: { dukptPin: [2], dukptData: [2] } },
      { keySlots: { pin: 2, data: 2 } },
    );
    const running = rig.engine.start(sale('Mesa 7'));
    await displayed(sim, /Mesa 7/);
    await customerPaysByChip(sim);
    expect(await running).toMatchObject({ status: 'approved' });
  });
});

describe('the store’s EMV tables', () => {
  it('are loaded into a PINPAD that selects applications only from its tables, at attach, and the sale runs on them', async () => {
    const tables = readEmvTables(SAMPLE_TABLES);
    const acquirer = [...tables.records.keys()][0]!;
    const { rig, sim } = await openOnPty(
      { profile: 'strict', serialNumber: 'STRICT-TABLES', requireTables: true },
      { tables },
    );
    expect(sim.tableVersion(acquirer)).toBe(tables.version);
    const running = rig.engine.start(sale('Mesa 7'));
    await displayed(sim, /Mesa 7/);
    await customerPaysByChip(sim);
    expect(await running).toMatchObject({ status: 'approved', card: { entryMode: 'chip' } });
  });

  it('refuse the sale with PINPAD_TABLES, before anything is created on the API, when their file is unusable', async () => {
    const broken = new TablesFileError('tables.json', [{ field: 'version', message: 'is missing' }]);
    const { rig } = await openOnPty({ profile: 'strict', serialNumber: 'STRICT-NOTABLES' }, { tables: broken });
    const outcome = await rig.engine.start(sale('Mesa 7'));
    expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'PINPAD_TABLES' } });
    expect(outcome.transactionId ?? null).toBeNull();
  });
});

describe('a sale on a PPC-930 (profile ppc930, 8 × 16, spec 2.12)', () => {
  it('lays the notification out on its 8 lines while the card is asked for, and approves', async () => {
    // The Scope TEF of the trace asks for PINs in DUKPT slot 02; the PPC-930's data key is in 01.
    const { rig, sim } = await openOnPty({ profile: 'ppc930' }, { keySlots: { pin: 2, data: 1 } });
    const params = sale('Obrigado pela preferência!');
    const running = rig.engine.start(params);
    await displayed(sim, /preferência/);
    expect(sim.display.lines.slice(0, 7)).toEqual([
      'R$ 19,90',
      '',
      'Obrigado pela',
      'preferência!',
      '',
      'APROXIME, INSIRA',
      'OU PASSE CARTAO',
    ]);
    await customerPaysByChip(sim);
    expect(await running).toMatchObject({ status: 'approved' });
  });
});

describe('a legacy (BibComp 1.08) PINPAD (profile legacy, 2 × 16)', () => {
  /** A provider still on terminal channel v1: the only one a legacy PINPAD, which cannot seal card data, can sell for. */
  const V1_PROVIDER: RigOptions = { clientOptions: { capabilities: { terminalChannel: 1 } } };

  it('is attached through GIN and sells with GCR, GOC and FNC for a v1 provider: the transaction is approved on the API', async () => {
    const tables = readEmvTables(SAMPLE_TABLES);
    const { rig, sim } = await openOnPty(
      { profile: 'legacy', serialNumber: 'LEGACY-0001' },
      { tables, requireSealedCardData: false },
      V1_PROVIDER,
    );
    expect(rig.engine.terminals().map((terminal) => terminal.serial)).toEqual(['LEGACY-0001']);
    // The tables were loaded at attach with GTS/TLI/TLR/TLE.
    expect(sim.tableVersion([...tables.records.keys()][0]!)).toBe(tables.version);
    const shown = screens(sim);
    const running = rig.engine.start(sale('Mesa 7'));
    // The notification comes before the card prompt: GCR has no custom prompt.
    await displayed(sim, /INSIRA OU PASSE/);
    expect(shown).toContain('R$ 19,90\nMesa 7');
    await customerPaysByChip(sim);
    const outcome = await running;
    expect(outcome).toMatchObject({ status: 'approved', card: { entryMode: 'chip' } });
    expect(outcome.transactionId).toEqual(expect.any(String));
  });

  it('refuses every sale for a v2 provider before anything is created: it cannot seal the card data (no GTK)', async () => {
    const { rig, sim } = await openOnPty(
      { profile: 'legacy', serialNumber: 'LEGACY-0003' },
      { tables: readEmvTables(SAMPLE_TABLES) },
    );
    const outcome = await rig.engine.start(sale('Mesa 7'));
    expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'PINPAD_UNSUPPORTED' } });
    expect(outcome.problem?.message).toContain('cannot encrypt the card data');
    expect(outcome.problem?.cashierMessage).toMatch(/PINPAD não é compatível; nada foi cobrado/);
    expect(outcome.transactionId ?? null).toBeNull();
    await displayed(sim, /NAO REALIZADA/);
  });

  it('ends a sale that asks for the CPF (GCD is 2.x) before anything is created on the API', async () => {
    const { rig, sim } = await openOnPty(
      { profile: 'legacy', serialNumber: 'LEGACY-0002' },
      { tables: readEmvTables(SAMPLE_TABLES), requireSealedCardData: false },
      V1_PROVIDER,
    );
    const outcome = await rig.engine.start({ ...sale('Mesa 7'), askTaxId: true });
    expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'PINPAD_UNSUPPORTED' } });
    expect(outcome.problem?.message).toContain('CPF');
    expect(outcome.transactionId ?? null).toBeNull();
    await displayed(sim, /NAO REALIZADA/);
  });
});
