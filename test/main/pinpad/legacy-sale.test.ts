/**
 * A sale on a legacy (BibComp 1.08) PINPAD (legacy-sale.ts, abecs.md §3.13–§3.16, §6.1): GCR,
 * GOC or GPN, FNC, RMC, installments with DSP + GKY, the CPF refused — against the simulated
 * PINPAD's `legacy` profile (ERR010 to every Abecs 2.x command) over an in-memory link, the
 * customer acting through its slot, stripe reader and keypad. What is asserted is what the
 * customer sees, what the sale returns and the commands on the wire.
 */
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tleCommand } from '../../../drivers/abecs/commands/tle.js';
import { tliCommand } from '../../../drivers/abecs/commands/tli.js';
import { tlrCommand } from '../../../drivers/abecs/commands/tlr.js';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';
import { SaleStepError } from '../../../main/core/sale-failure.js';
import { readEmvTables, type EmvTables } from '../../../main/pinpad/emv-tables.js';
import { PinpadSale, type PinpadSaleOptions } from '../../../main/pinpad/sale-session.js';
import { tlrBatches } from '../../../main/pinpad/table-loader.js';
import { displayed } from '../../helpers/pinpad-display.js';
import { centavos } from '../../../main/core/money.js';

const SAMPLE_TABLES = resolve(import.meta.dirname, '../../../docs/emv-tables.sample.json');
const HOST_TIMINGS = { ackTimeoutMs: 1500, silenceMs: 40, eotTimeoutMs: 1000, interByteTimeoutMs: 1500 };
const DEVICE_LINK = { timings: { silenceMs: 40, interByteTimeoutMs: 1500 } };
/** Abecs 2.x commands a legacy sale must never send. */
const ABECS_SALE_COMMANDS = ['GCX', 'GED', 'GOX', 'FCX', 'GTK', 'MNU', 'GCD', 'CEX', 'DEX', 'GIX'];

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

interface Wire {
  readonly id: string;
  /** PKTDATA bytes: a bare GCR is 3 ("GCR"). */
  readonly length: number;
}

interface Rig {
  readonly sim: PinpadSimulator;
  readonly pinpad: Pinpad;
  readonly sale: PinpadSale;
  /** Commands the PINPAD received from now on. */
  readonly sent: Wire[];
  /** Every screen from now on, lines joined by "\n". */
  readonly shown: string[];
  readonly messages: string[];
  readonly tables: EmvTables;
}

async function rig(options: PinpadSimulatorOptions = {}, saleOptions: Partial<PinpadSaleOptions> = {}): Promise<Rig> {
  const sim = new PinpadSimulator({ timeScale: 0.05, link: DEVICE_LINK, profile: 'legacy', ...options });
  const served = await startMemorySimulator(sim);
  const pinpad = new Pinpad(served.link.host, { timings: HOST_TIMINGS });
  await pinpad.open();
  cleanups.push(async () => {
    await pinpad.close(null).catch(() => {});
    await served.close();
  });
  expect((await pinpad.info()).protocol).toBe('legacy');
  const sent: Wire[] = [];
  served.session.link.on('trace', (trace) => {
    if (trace.direction === 'in' && trace.kind === 'packet' && trace.command !== undefined)
      sent.push({ id: trace.command, length: trace.length ?? 0 });
  });
  const tables = readEmvTables(SAMPLE_TABLES);
  const messages: string[] = [];
  // A legacy PINPAD sells only for a provider on terminal channel v1 (it cannot seal card data).
  const sale = new PinpadSale(pinpad, {
    tables,
    legacyNoticeMs: 100,
    requireSealedCardData: false,
    onMessage: (text) => messages.push(text),
    ...saleOptions,
  });
  const shown: string[] = [];
  sim.on('display', ({ lines }) => shown.push(lines.join('\n')));
  return { sim, pinpad, sale, sent, shown, messages, tables };
}

function typePin(sim: PinpadSimulator): void {
  sim.keypad.type('1234');
  sim.keypad.press('enter');
}

const ids = (sent: readonly Wire[]): string[] => sent.map((wire) => wire.id);

describe('a chip sale on a legacy PINPAD', () => {
  it('reads the card with GCR, runs the chip and PIN with GOC, finishes it with FNC and asks it out with RMC', async () => {
    const { sim, sale, sent, shown } = await rig();
    await sale.prepare({ paymentType: 'credit' });
    sent.length = 0;
    const reading = sale.readCard({
      amount: centavos(1990),
      paymentType: 'credit',
      notification: 'Pedido 4521 - Loja do Centro SP',
    });
    await displayed(sim, /^VALOR: 19,90\nINSIRA OU PASSE$/);
    sim.insertCard('visaCredit');
    await displayed(sim, /SENHA/);
    typePin(sim);
    const read = await reading;
    expect(read.card).toMatchObject({
      brand: 'visa',
      maskedPan: '411111******1111',
      entryMode: 'chip',
      verification: 'online_pin',
    });
    expect(read).toMatchObject({ chipDecision: 'online', needsChipCompletion: true });
    expect(read.authorization.pin_block?.block).toMatch(/^[0-9A-F]{16}$/);
    expect(read.authorization.pin_block).toMatchObject({
      method: 'dukpt',
      ksn: expect.stringMatching(/^[0-9A-F]{20}$/) as unknown,
    });
    expect(read.authorization.emv_data).toMatch(/9F26/);
    // The clear PAN GCR returned went no further than first 6 / last 4.
    expect(JSON.stringify(read)).not.toContain('4111111111111111');
    expect(read.authorization.encrypted_card_data).toBeUndefined();

    const finish = await sale.finishChip({ approved: true, responseCode: '00', issuerEmvData: '9108E64A2FE21FD88672' });
    expect(finish.decision).toBe('accepted');
    expect(finish.emvData).toMatch(/9F27/);
    const removing = sale.removeCard('APROVADA\nRETIRE O CARTAO');
    await displayed(sim, /RETIRE/);
    sim.removeCard();
    await removing;
    await sale.showResult('OPERACAO APROVADA');

    expect(ids(sent)).toEqual(['DSP', 'GCR', 'GOC', 'FNC', 'RMC', 'DSP']);
    // The notification, whole, before the card prompt (GCR has no custom prompt).
    const notice = shown.indexOf('Pedido 4521 - Lo\nja do Centro SP');
    expect(notice).toBeGreaterThanOrEqual(0);
    expect(shown.findIndex((screen) => screen.startsWith('VALOR: 19,90'))).toBeGreaterThan(notice);
  });

  it('loads the tables when GCR answers 020 (ST_TABVERDIF) and resumes with the bare GCR, the card still inserted', async () => {
    // No prepare: the PINPAD still holds no tables when the card is read.
    const { sim, sale, sent, tables } = await rig();
    const reading = sale.readCard({ amount: centavos(5000), paymentType: 'credit' });
    await displayed(sim, /INSIRA OU PASSE/);
    sim.insertCard('visaCredit');
    await displayed(sim, /SENHA/);
    typePin(sim);
    expect((await reading).card).toMatchObject({ entryMode: 'chip', maskedPan: '411111******1111' });
    const wire = ids(sent);
    const tlr = wire.filter((id) => id === 'TLR').length;
    expect(tlr).toBeGreaterThan(0);
    expect(wire).toEqual(['GCR', 'GTS', 'TLI', ...Array<string>(tlr).fill('TLR'), 'TLE', 'GCR', 'GOC']);
    const gcrs = sent.filter((packet) => packet.id === 'GCR');
    expect(gcrs[0]!.length).toBeGreaterThan(3);
    expect(gcrs[1]!.length).toBe(3);
    expect(sim.tableVersion([...tables.records.keys()][0]!)).toBe(tables.version);
  });

  it('reads a chip card with the tables another TEF loaded when there is no tables file: GCR names the PINPAD’s own global version (GTS 00)', async () => {
    const { sim, pinpad, sale, sent, tables } = await rig({}, { tables: undefined });
    // Another TEF's unified load (TLI "00"): the global version is its own.
    await pinpad.execute(tliCommand, { acquirer: 0, tableVersion: 'OTHERTEF01' });
    for (const batch of tlrBatches([...tables.records.values()].flat()))
      await pinpad.execute(tlrCommand, { records: batch });
    await pinpad.execute(tleCommand, {});
    await sale.prepare({ paymentType: 'credit' });
    sent.length = 0;
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit' });
    await displayed(sim, /INSIRA OU PASSE/);
    sim.insertCard('visaCredit');
    await displayed(sim, /SENHA/);
    typePin(sim);
    expect((await reading).card).toMatchObject({ entryMode: 'chip' });
    expect(ids(sent)).toEqual(['GTS', 'GCR', 'GOC']);
  });

  it('ends with TABLES_UNAVAILABLE when GCR answers 020 and there is no tables file', async () => {
    const { sim, pinpad, sale } = await rig({}, { tables: undefined });
    // GTS and GCR disagree (the PINPAD holds nothing, GTS is made to say otherwise): GCR answers 020.
    vi.spyOn(pinpad, 'tableVersions').mockResolvedValue({ 0: 'OTHERTEF01' });
    const reading = sale.readCard({ amount: centavos(5000), paymentType: 'credit' }).catch((error: unknown) => error);
    await displayed(sim, /INSIRA OU PASSE/);
    sim.insertCard('visaCredit');
    expect(await reading).toMatchObject({ code: 'TABLES_UNAVAILABLE', step: 'read_card' });
  });

  it('tells the card there was no host answer (FNC_COMMST 1): the card declines', async () => {
    const { sim, sale, sent } = await rig();
    await sale.prepare({ paymentType: 'credit' });
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit' });
    await displayed(sim, /INSIRA OU PASSE/);
    sim.insertCard('visaCredit');
    await displayed(sim, /SENHA/);
    typePin(sim);
    await reading;
    sent.length = 0;
    const finish = await sale.finishChip(null);
    expect(finish.decision).toBe('refused');
    expect(finish.emvData).toMatch(/9F27/);
    expect(ids(sent)).toEqual(['FNC']);
  });
});

describe('the PIN key on a legacy PINPAD', () => {
  it('is not checked before the sale (no key maps on 1.08); GOC answers ST_ERRKEY at the PIN step when the slot is empty', async () => {
    const { sim, sale } = await rig({ keySlots: { dukptPin: [2], dukptData: [2] } });
    await sale.prepare({ paymentType: 'credit' });
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit' }).catch((error: unknown) => error);
    await displayed(sim, /INSIRA OU PASSE/);
    sim.insertCard('visaCredit');
    const error = await reading;
    expect(error).toBeInstanceOf(SaleStepError);
    expect(error).toMatchObject({ step: 'chip', cause: { code: 'ST_ERRKEY' } });
  });

  it('is the configured PIN slot in GOC where the tables name no key method', async () => {
    const tables = readEmvTables(SAMPLE_TABLES);
    const { sim, sale } = await rig(
      { keySlots: { dukptPin: [2], dukptData: [2] } },
      { keySlots: { pin: 2, data: 2 }, tables: { ...tables, keyMethods: new Map() } },
    );
    await sale.prepare({ paymentType: 'credit' });
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit' });
    await displayed(sim, /INSIRA OU PASSE/);
    sim.insertCard('visaCredit');
    await displayed(sim, /SENHA/);
    typePin(sim);
    expect((await reading).authorization.pin_block).toBeDefined();
  });
});

describe('an offline PIN on a legacy PINPAD', () => {
  it('ends with PIN_BLOCKED when GOC says the chip blocked the PIN (GOC_PBLOCKED, TVR)', async () => {
    const { sim, sale } = await rig();
    await sale.prepare({ paymentType: 'credit' });
    const reading = sale.readCard({ amount: centavos(1990), paymentType: 'credit' }).catch((error: unknown) => error);
    await displayed(sim, /INSIRA OU PASSE/);
    sim.insertCard('eloOfflinePinLastTry');
    await displayed(sim, /SENHA/);
    sim.keypad.type('9999');
    sim.keypad.press('enter');
    expect(await reading).toMatchObject({ code: 'PIN_BLOCKED', step: 'chip' });
  });
});

describe('a swiped card on a legacy PINPAD', () => {
  it('asks for the PIN of a debit sale with GPN, and sends no GTK (no encrypted card data on 1.08)', async () => {
    const { sim, sale, sent } = await rig();
    await sale.prepare({ paymentType: 'debit' });
    sent.length = 0;
    const reading = sale.readCard({ amount: centavos(2500), paymentType: 'debit' });
    await displayed(sim, /INSIRA OU PASSE/);
    sim.swipeCard('visaMagstripe');
    await displayed(sim, /SENHA/);
    typePin(sim);
    const read = await reading;
    expect(read.card).toMatchObject({
      maskedPan: '401288******1881',
      entryMode: 'magstripe',
      verification: 'online_pin',
    });
    expect(read).toMatchObject({ chipDecision: 'online', needsChipCompletion: false });
    expect(read.authorization.pin_block).toBeDefined();
    expect(read.authorization.encrypted_card_data).toBeUndefined();
    expect(read.authorization.emv_data).toBeUndefined();
    expect(ids(sent)).toEqual(['GCR', 'GPN']);
  });

  it('asks for the card again when GCR could not read the stripe (ST_MCDATAERR)', async () => {
    const { sim, sale, sent, messages } = await rig();
    await sale.prepare({ paymentType: 'credit' });
    sent.length = 0;
    const reading = sale.readCard({ amount: centavos(2500), paymentType: 'credit' });
    await displayed(sim, /INSIRA OU PASSE/);
    sim.swipeCard('visaUnreadableStripe');
    await displayed(sim, /^ERRO DE LEITURA\nPASSE NOVAMENTE$/);
    await displayed(sim, /INSIRA OU PASSE/);
    sim.swipeCard('visaMagstripe');
    expect((await reading).card).toMatchObject({ entryMode: 'magstripe' });
    expect(ids(sent)).toEqual(['GCR', 'DSP', 'GCR']);
    expect(messages.some((text) => /Passe o cartão novamente/.test(text))).toBe(true);
  });

  it('refuses a chip card’s stripe outside a fallback and asks for it inserted', async () => {
    const { sim, sale } = await rig();
    await sale.prepare({ paymentType: 'credit' });
    const reading = sale.readCard({ amount: centavos(2500), paymentType: 'credit' });
    await displayed(sim, /INSIRA OU PASSE/);
    sim.swipeCard('visaChipSwiped');
    await displayed(sim, /^CARTAO COM CHIP\nINSIRA O CARTAO$/);
    await displayed(sim, /INSIRA OU PASSE/);
    sim.insertCard('visaCredit');
    await displayed(sim, /SENHA/);
    typePin(sim);
    expect((await reading).card).toMatchObject({ entryMode: 'chip' });
  });
});

describe('the customer’s keypad on a legacy PINPAD', () => {
  it('offers the installments one at a time (DSP + GKY): the yellow key shows the next, ENTER chooses', async () => {
    const { sim, sale, sent } = await rig();
    const choosing = sale.chooseInstallments(10000, { max: 3, minInstallmentAmount: 1000 });
    await displayed(sim, /^AMARELA: PROXIMA\nA VISTA$/);
    sim.keypad.press('clear');
    await displayed(sim, /^AMARELA: PROXIMA\n2X R\$ 50,00$/);
    sim.keypad.press('clear');
    await displayed(sim, /^AMARELA: PROXIMA\n3X R\$ 33,33$/);
    sim.keypad.press('clear');
    await displayed(sim, /^AMARELA: PROXIMA\nA VISTA$/);
    sim.keypad.press('clear');
    await displayed(sim, /^AMARELA: PROXIMA\n2X R\$ 50,00$/);
    sim.keypad.press('enter');
    expect(await choosing).toBe(2);
    expect(new Set(ids(sent))).toEqual(new Set(['DSP', 'GKY']));
  });

  it('ends the installments with CUSTOMER_CANCELLED on CANCEL', async () => {
    const { sim, sale } = await rig();
    const choosing = sale
      .chooseInstallments(10000, { max: 3, minInstallmentAmount: 1000 })
      .catch((error: unknown) => error);
    await displayed(sim, /A VISTA/);
    sim.keypad.press('cancel');
    expect(await choosing).toMatchObject({ code: 'CUSTOMER_CANCELLED', step: 'installments' });
  });

  it('refuses to ask for a CPF (GCD is 2.x) with PINPAD_UNSUPPORTED, sending nothing', async () => {
    const { sale, sent } = await rig();
    const error: unknown = await sale.readTaxId().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SaleStepError);
    expect(error).toMatchObject({ code: 'PINPAD_UNSUPPORTED', step: 'tax_id' });
    expect((error as SaleStepError).message).toContain('CPF');
    expect(sent).toEqual([]);
  });
});

describe('no Abecs 2.x command in a legacy sale', () => {
  it('sends none of GCX, GOX, FCX, GTK, MNU, GCD, CEX, DEX or GIX from prepare to the result', async () => {
    const { sim, sale, sent } = await rig();
    await sale.prepare({ paymentType: 'credit' });
    const choosing = sale.chooseInstallments(10000, { max: 2, minInstallmentAmount: 1000 });
    await displayed(sim, /A VISTA/);
    sim.keypad.press('enter');
    expect(await choosing).toBe(1);
    const reading = sale.readCard({ amount: centavos(10000), paymentType: 'credit', notification: 'Mesa 7' });
    await displayed(sim, /INSIRA OU PASSE/);
    sim.insertCard('visaCredit');
    await displayed(sim, /SENHA/);
    typePin(sim);
    await reading;
    await sale.finishChip({ approved: false, responseCode: '51', issuerEmvData: null });
    const removing = sale.removeCard('RETIRE O CARTAO');
    await displayed(sim, /RETIRE/);
    sim.removeCard();
    await removing;
    expect(ids(sent).filter((id) => ABECS_SALE_COMMANDS.includes(id))).toEqual([]);
  });
});
