/**
 * EMV tables as data: the tables file (emv-tables.ts) and its loading into a PINPAD
 * (table-loader.ts) — against the simulated PINPAD over an in-memory link, asserting the
 * commands on the wire and what the PINPAD then holds.
 */
import { readFileSync } from 'node:fs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TableRecord } from '../../../drivers/abecs/commands/tlr.js';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  type MemorySimulator,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';
import { parseEmvTables, readEmvTables, TablesFileError } from '../../../main/pinpad/emv-tables.js';
import { PinpadSale, type TablesStatus } from '../../../main/pinpad/sale-session.js';
import { syncTables, tlrBatches } from '../../../main/pinpad/table-loader.js';
import { centavos } from '../../../main/core/money.js';

const SAMPLE = resolve(import.meta.dirname, '../../../docs/emv-tables.sample.json');
const sampleJson = (): Record<string, unknown> => JSON.parse(readFileSync(SAMPLE, 'utf8')) as Record<string, unknown>;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function open(
  options: PinpadSimulatorOptions = {},
): Promise<{ sim: PinpadSimulator; pinpad: Pinpad; sent: string[]; served: MemorySimulator }> {
  const sim = new PinpadSimulator({ timeScale: 0.05, profile: 'strict', ...options });
  const served = await startMemorySimulator(sim);
  const sent: string[] = [];
  served.session.link.on('trace', (trace) => {
    if (trace.direction === 'in' && trace.kind === 'packet' && trace.command !== undefined) sent.push(trace.command);
  });
  const pinpad = new Pinpad(served.link.host);
  await pinpad.open();
  cleanups.push(async () => {
    await pinpad.close(null).catch(() => {});
    await served.close();
  });
  return { sim, pinpad, sent, served };
}

describe('the tables file', () => {
  it('reads the sample: its version, and each acquirer’s records encoded for TLR', () => {
    const tables = readEmvTables(SAMPLE);
    expect(tables.version).toBe(sampleJson().version);
    expect(tables.records.size).toBeGreaterThan(0);
    for (const [acquirer, records] of tables.records) {
      expect(records.every((record) => record.acquirer === acquirer && record.body.length > 0)).toBe(true);
    }
    expect(tables.applicationTypes).toEqual({ credit: [1], debit: [2] });
  });

  it('names every mistake, with its place in the file', () => {
    const json = sampleJson();
    const entries = json.entries as Array<Record<string, unknown>>;
    const bad = {
      ...json,
      version: 'MUITO LONGA DEMAIS',
      entries: [{ ...entries[0], aid: 'XYZ' }, entries[0], entries[0]],
    };
    const error = (() => {
      try {
        parseEmvTables(bad, 'tables.json');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(TablesFileError);
    expect((error as TablesFileError).violations.map((v) => v.field)).toContain('version');
    const fixed = (() => {
      try {
        parseEmvTables({ ...bad, version: '2611260001' }, 'tables.json');
      } catch (e) {
        return e as TablesFileError;
      }
      return undefined;
    })();
    expect(fixed?.violations.map((v) => v.field)).toEqual(['entries.0.aid', 'entries.2']);
    expect(fixed?.violations[1]?.message).toMatch(/repeats aid record/);
  });

  it('says why a file cannot be read at all', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-tables-'));
    writeFileSync(join(dir, 'broken.json'), '{ "format": ');
    expect(() => readEmvTables(join(dir, 'broken.json'))).toThrow(/not JSON/);
    expect(() => readEmvTables(join(dir, 'missing.json'))).toThrow(TablesFileError);
  });

  it('packs records into TLR commands of at most 99 records and one 999-byte block', () => {
    const record = (index: number, size: number): TableRecord => ({
      table: 'aid',
      acquirer: 2,
      record: String(index).padStart(2, '0'),
      body: 'x'.repeat(size),
    });
    const big = Array.from({ length: 5 }, (_, i) => record(i, 332));
    expect(tlrBatches(big).map((batch) => batch.length)).toEqual([2, 2, 1]);
    const small = Array.from({ length: 150 }, (_, i) => record(i % 90, 1));
    expect(tlrBatches(small).map((batch) => batch.length)).toEqual([99, 51]);
  });
});

describe('loading the tables into a PINPAD', () => {
  it('loads an acquirer whose version differs with TLI, TLR and TLE, and leaves it alone once it matches', async () => {
    const { sim, pinpad, sent } = await open();
    const tables = readEmvTables(SAMPLE);
    const [acquirer] = [...tables.records.keys()];
    await pinpad.info();
    sent.length = 0;
    const first = await syncTables(pinpad, tables);
    expect(first).toMatchObject({ loaded: [acquirer], current: [] });
    expect(sent).toEqual(['GIX', 'TLI', ...tlrBatches(tables.records.get(acquirer!)!).map(() => 'TLR'), 'TLE']);
    expect(sim.tableVersion(acquirer!)).toBe(tables.version);

    sent.length = 0;
    expect(await syncTables(pinpad, tables)).toMatchObject({ loaded: [], current: [acquirer] });
    expect(sent).toEqual(['GIX']);
  });

  it('loads again when the file has a new version', async () => {
    const { sim, pinpad } = await open();
    await syncTables(pinpad, readEmvTables(SAMPLE));
    const newer = parseEmvTables({ ...sampleJson(), version: 'NEWER00001' });
    expect((await syncTables(pinpad, newer)).loaded.length).toBe(1);
    expect(sim.tableVersion([...newer.records.keys()][0]!)).toBe('NEWER00001');
  });

  it('is part of every sale’s preparation; a bad file refuses the sale with TABLES_UNAVAILABLE before anything else', async () => {
    const { sim, pinpad, sent } = await open();
    const tables = readEmvTables(SAMPLE);
    await new PinpadSale(pinpad, { tables }).prepare();
    expect(sim.tableVersion([...tables.records.keys()][0]!)).toBe(tables.version);
    sent.length = 0;
    const broken = new TablesFileError('tables.json', [{ field: 'version', message: 'is missing' }]);
    await expect(new PinpadSale(pinpad, { tables: broken }).prepare()).rejects.toMatchObject({
      code: 'TABLES_UNAVAILABLE',
      step: 'prepare',
      cashierMessage: 'Não foi possível atualizar as tabelas do PINPAD. Chame o suporte técnico.',
    });
    expect(sent).toEqual([]);
  });
});

describe('the key slots the tables give each acquirer', () => {
  const withSlots = (slots: { pin?: number; data?: number }) =>
    parseEmvTables({ ...sampleJson(), acquirers: { '02': { name: 'TESTE', key_slots: slots } } });

  it('checks the acquirer’s slots instead of the settings’ before a sale', async () => {
    const { pinpad } = await open({ keySlots: { dukptPin: [2], dukptData: [3] } });
    await expect(
      new PinpadSale(pinpad, { tables: withSlots({ pin: 2, data: 3 }), keySlots: { pin: 5, data: 5 } }).prepare(),
    ).resolves.toBeUndefined();
  });

  it('refuses the sale with KEYS_MISSING naming the acquirer whose slot is empty', async () => {
    const { pinpad } = await open({ keySlots: { dukptPin: [1], dukptData: [3] } });
    const error: unknown = await new PinpadSale(pinpad, { tables: withSlots({ pin: 2, data: 3 }) })
      .prepare()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'KEYS_MISSING', step: 'prepare' });
    expect((error as Error).message).toContain('the PIN of acquirer 02: DUKPT PIN slot 02 is empty');
    expect((error as Error).message).not.toContain('data slot');
  });

  it('takes a slot the tables leave out from the settings', async () => {
    const { pinpad } = await open({ keySlots: { dukptPin: [2], dukptData: [4] } });
    await expect(
      new PinpadSale(pinpad, { tables: withSlots({ pin: 2 }), keySlots: { data: 4 } }).prepare(),
    ).resolves.toBeUndefined();
  });

  it('asks for the PIN under the slot of the acquirer whose AID matched the chip', async () => {
    // Keys only in slots 02/03: a PIN asked under 01 would end in ST_ERRKEY.
    const { pinpad } = await open({
      keySlots: { dukptPin: [2], dukptData: [3] },
      requireTables: true,
      autoCustomer: { delayMs: 5, card: 'visaCredit' },
    });
    const sale = new PinpadSale(pinpad, { tables: withSlots({ pin: 2, data: 3 }) });
    await sale.prepare();
    const read = await sale.readCard({ amount: centavos(1990), paymentType: 'credit' });
    expect(read).toMatchObject({
      chipDecision: 'online',
      authorization: { entry_mode: 'chip', cardholder_verification: 'online_pin' },
    });
    expect(read.authorization.pin_block).toMatchObject({
      method: 'dukpt',
      ksn: expect.stringMatching(/^[0-9A-F]{20}$/) as unknown,
    });
  });
});

describe('the key methods the tables give each acquirer (keys)', () => {
  const withKeys = (acquirer: Record<string, unknown>) =>
    parseEmvTables({ ...sampleJson(), acquirers: { '02': { name: 'TESTE', ...acquirer } } });
  const violations = (acquirer: Record<string, unknown>): string[] => {
    try {
      withKeys(acquirer);
    } catch (error) {
      if (error instanceof TablesFileError) return error.violations.map((v) => `${v.field}: ${v.message}`);
      throw error;
    }
    return [];
  };
  const RSA = { method: 'random_key', key_id: 'k1', modulus: 'C1'.repeat(255) + '01', exponent: '010001' };

  it('keeps each list in the provider’s order, hex in upper case as the terminal channel carries it', () => {
    const tables = withKeys({
      keys: {
        card_data: [
          { method: 'mkwk', slot: 2, working_key: 'ab'.repeat(16) },
          { ...RSA, modulus: RSA.modulus.toLowerCase() },
          { method: 'dukpt', slot: 1 },
        ],
        pin: [{ method: 'dukpt', slot: 3 }],
      },
    });
    expect(tables.keyMethods.get(2)).toEqual({
      cardData: [{ method: 'mkwk', slot: 2, working_key: 'AB'.repeat(16) }, RSA, { method: 'dukpt', slot: 1 }],
      pin: [{ method: 'dukpt', slot: 3 }],
    });
  });

  it('leaves a use the document does not list to key_slots or the settings', () => {
    const tables = withKeys({ key_slots: { pin: 4 }, keys: { card_data: [RSA] } });
    expect(tables.keyMethods.get(2)).toEqual({ cardData: [RSA] });
    expect(tables.keySlots.get(2)).toEqual({ pin: 4 });
  });

  it('refuses a use given twice, an RSA key a PINPAD cannot use, and a method it does not know, naming each place', () => {
    expect(violations({ key_slots: { data: 1 }, keys: { card_data: [{ method: 'dukpt', slot: 1 }] } })).toEqual([
      'acquirers.02.keys.card_data: gives the card data key twice (key_slots.data and keys.card_data): keep one',
    ]);
    expect(violations({ keys: { card_data: [{ ...RSA, modulus: '41'.repeat(255) + '01' }] } })).toEqual([
      'acquirers.02.keys.card_data.0: modulus is not 2048 bits (its first byte must have the top bit set)',
    ]);
    expect(violations({ keys: { card_data: [{ ...RSA, exponent: '02' }] } })).toEqual([
      'acquirers.02.keys.card_data.0: exponent must be odd and at least 3 (010001 for 65537)',
    ]);
    expect(violations({ keys: { pin: [RSA] } })).not.toEqual([]);
    expect(violations({ keys: { pin: [{ method: 'mkwk', slot: 2 }] } })).not.toEqual([]);
    expect(violations({ keys: { card_data: [] } })).not.toEqual([]);
  });
});

describe('the tables’ state, for the window', () => {
  it('says a load is under way, then which version the PINPAD holds — once, not at every sale', async () => {
    const { pinpad } = await open();
    const states: unknown[] = [];
    const tables = readEmvTables(SAMPLE);
    const sale = new PinpadSale(pinpad, { tables, onTablesStatus: (status) => states.push(status) });
    await sale.prepare();
    await sale.prepare();
    expect(states).toEqual([
      { state: 'loading', version: tables.version, acquirers: [2], error: null },
      { state: 'current', version: tables.version, acquirers: [2], error: null },
    ]);
  });

  it('says why when the tables cannot be used', async () => {
    const { pinpad } = await open();
    const states: TablesStatus[] = [];
    const broken = new TablesFileError('tables.json', [{ field: 'version', message: 'is missing' }]);
    await new PinpadSale(pinpad, { tables: broken, onTablesStatus: (status) => states.push(status) })
      .prepare()
      .catch(() => {});
    expect(states).toEqual([{ state: 'failed', version: null, acquirers: [], error: broken.message }]);
    expect(broken.message).toContain('version: is missing');
  });
});
