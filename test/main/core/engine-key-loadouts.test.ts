/**
 * PINPADs keyed the way acquirers and TEFs key them, each selling whole: the real driver reads a
 * simulated PINPAD that holds only the keys of its loadout (drivers/simulator KEY_LOADOUTS, read
 * from the spec: DUKPT under the ANSI test BDK, MK/WK under the published test master keys, the
 * random key KRAND generated per GTK), the sale picks each acquirer's methods from the tables the
 * provider serves and the PINPAD's GIX key maps, and the sandbox — the acquirer's host — opens
 * the track 2 and the PIN block by the method the request names and checks them against the card
 * before it decides. A PIN typed wrong is declined by the host only if it opened the block.
 *
 * Nothing here asserts what the code sent beyond the method names: whether the host could open
 * the data is what the approval and the provider's record say.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  type KeyLoadoutName,
  type SimulatorKeySlots,
} from '../../../drivers/simulator/index.js';
import { attachPinpad } from '../../../main/pinpad/attach.js';
import { parseEmvTables } from '../../../main/pinpad/emv-tables.js';
import type { PaymentsPort } from '../../../main/core/ports.js';
import { paymentsPortOf } from '../../../main/agent/payments-port.js';
import { engineRig, saleParams, type EngineRig } from './engine-rig.js';

/** What an authorization named of its key methods (never the sealed values). */
interface MethodsSeen {
  readonly data: string | undefined;
  readonly pin: string | undefined;
  readonly ksn: string | undefined;
}

let rig: EngineRig | undefined;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
  await rig?.close();
  rig = undefined;
});

/** The port with a window on the authorizations' method fields. */
function watching(seen: MethodsSeen[]): (client: Parameters<typeof paymentsPortOf>[0]) => PaymentsPort {
  return (client) => {
    const port = paymentsPortOf(client);
    return {
      ...port,
      terminal: {
        ...port.terminal,
        authorize: (id, request, options) => {
          const sealed = request.encrypted_card_data;
          seen.push({
            data: sealed?.method,
            pin: request.pin_block === undefined ? undefined : (request.pin_block.method ?? 'dukpt'),
            ksn: sealed !== undefined && 'ksn' in sealed ? sealed.ksn : undefined,
          });
          return port.terminal.authorize(id, request, options);
        },
      },
    };
  };
}

/** A strict ABECS 2.20 PINPAD holding only `keys`, attached with the tables the provider serves it. */
async function stack(
  serial: string,
  keys: KeyLoadoutName | SimulatorKeySlots,
  customer: { card?: string; pin?: string } = {},
): Promise<{ rig: EngineRig; seen: MethodsSeen[] }> {
  const seen: MethodsSeen[] = [];
  const r = (rig = await engineRig({ payments: watching(seen) }));
  const sim = new PinpadSimulator({
    serialNumber: serial,
    profile: 'strict',
    keySlots: keys,
    timeScale: 0.05,
    autoCustomer: { delayMs: 5, card: customer.card ?? 'visaCredit', ...(customer.pin ? { pin: customer.pin } : {}) },
  });
  const served = await startMemorySimulator(sim, { name: serial });
  const pinpad = new Pinpad(served.link.host, { logger: r.logger });
  await pinpad.open();
  closers.push(async () => {
    await pinpad.close(null).catch(() => {});
    await served.close();
  });
  const answer = await r.client.terminal.emvTables(serial, undefined);
  const tables = parseEmvTables(answer?.tables, 'the sandbox');
  await attachPinpad(r.engine, pinpad, { tables, logger: r.logger });
  return { rig: r, seen };
}

async function providerRecord(r: EngineRig, transactionId: string | null | undefined) {
  return r.client.transactions.retrieve(transactionId!);
}

describe('every key loadout ABECS defines sells, the host opening what the PINPAD sealed', () => {
  const loadouts: ReadonlyArray<[KeyLoadoutName, string, string]> = [
    // [loadout, card data method, PIN method]
    ['dukpt', 'dukpt_tdes_ecb', 'dukpt'],
    ['mkwk', 'mkwk_tdes_ecb', 'mkwk'],
    ['pinOnly', 'random_key_tdes_ecb', 'dukpt'],
    ['trace', 'mkwk_tdes_ecb', 'dukpt'],
  ];

  it.each(loadouts)(
    'a PINPAD keyed "%s" sells a chip card with its online PIN: data by %s, PIN by %s',
    async (loadout, dataMethod, pinMethod) => {
      const { rig: r, seen } = await stack(`PBKEYS-${loadout}`, loadout);
      const outcome = await r.engine.start(saleParams(`keys-${loadout}`));
      expect(outcome).toMatchObject({
        status: 'approved',
        card: { entryMode: 'chip', maskedPan: '411111******1111' },
        issuerResponseCode: '00',
      });
      expect(seen).toEqual([{ data: dataMethod, pin: pinMethod, ksn: seen[0]?.ksn }]);
      const record = await providerRecord(r, outcome.transactionId);
      expect(record.status).toBe('succeeded');
      expect(record.point_of_sale?.entry_mode).toBe('chip');
    },
  );

  it('a wrong PIN under MK/WK is declined by the host as a wrong PIN (it opened the block under the working key)', async () => {
    const { rig: r, seen } = await stack('PBKEYS-mkwk-pin', 'mkwk', { pin: '9999' });
    const outcome = await r.engine.start(saleParams('keys-mkwk-wrong-pin'));
    expect(outcome).toMatchObject({ status: 'declined', declineCode: 'incorrect_pin', issuerResponseCode: '55' });
    expect(seen.map(({ pin }) => pin)).toEqual(['mkwk']);
  });

  it('a wrong PIN under DUKPT with the random-key data method is declined as a wrong PIN too', async () => {
    const { rig: r } = await stack('PBKEYS-pinonly-pin', 'pinOnly', { pin: '9999' });
    const outcome = await r.engine.start(saleParams('keys-pinonly-wrong-pin'));
    expect(outcome).toMatchObject({ status: 'declined', declineCode: 'incorrect_pin' });
  });

  it('sale after sale on one DUKPT PINPAD, each KSN above the last (the host refuses one that is not)', async () => {
    const { rig: r, seen } = await stack('PBKEYS-dukpt-many', 'dukpt');
    for (const n of [1, 2, 3]) {
      expect(await r.engine.start(saleParams(`keys-dukpt-${n}`))).toMatchObject({ status: 'approved' });
    }
    const counters = seen.map(({ ksn }) => parseInt(ksn!.slice(-6), 16) & 0x1fffff);
    expect(counters).toHaveLength(3);
    expect(counters[1]!).toBeGreaterThan(counters[0]!);
    expect(counters[2]!).toBeGreaterThan(counters[1]!);
  });

  it('a PINPAD with no usable key is refused before anything is created, and the fix is named', async () => {
    const { rig: r, seen } = await stack('PBKEYS-none', { dukptPin: [], dukptData: [], mkPin: [], mkData: [] });
    const params = saleParams('keys-none');
    const outcome = await r.engine.start(params);
    expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'PINPAD_KEYS_MISSING' } });
    expect(outcome.problem?.message).toMatch(/load a DUKPT/i);
    expect(seen).toEqual([]);
    // Nothing reached the provider: no transaction carries the reference.
    const listed = await r.client.transactions.list({ reference_id: params.referenceId });
    expect(listed.items).toEqual([]);
  });
});
