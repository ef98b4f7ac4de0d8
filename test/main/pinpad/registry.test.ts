/**
 * The PinpadRegistry keeps no set of its own of which PINPADs are attached: "connected" is the
 * engine's set of terminals, read from it; a PINPAD left unnamed is picked by the engine's one
 * rule, over the connected ones, or over all known when none is (a lone unplugged PINPAD answers
 * "unplugged", not "unknown").
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { PinpadSimulator, startMemorySimulator } from '../../../drivers/simulator/index.js';
import { PaymentEngine } from '../../../main/core/engine.js';
import { EngineError } from '../../../main/core/errors.js';
import { Journal } from '../../../main/core/journal/journal.js';
import type { PaymentsPort } from '../../../main/core/ports.js';
import { PinpadRegistry } from '../../../main/pinpad/registry.js';

/** No sale runs in this spec: the API is never reached. */
const unreachable = (): Promise<never> => Promise.reject(new Error('unreachable in this spec'));
const payments: PaymentsPort = {
  transactions: { create: unreachable, retrieve: unreachable, listByReference: unreachable },
  terminal: {
    pendingTransactions: () => Promise.resolve([]),
    authorize: unreachable,
    complete: unreachable,
    reverse: unreachable,
    void: unreachable,
  },
};

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function shop(): { engine: PaymentEngine; registry: PinpadRegistry; plug: (serial: string) => Promise<void> } {
  const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'pinbridge-registry-')), 'journal.db'));
  const engine = new PaymentEngine({ journal, payments, sellerId: 'seller-1' });
  closers.push(async () => {
    await engine.close();
    journal.close();
  });
  const registry = new PinpadRegistry(engine);
  return {
    engine,
    registry,
    plug: async (serial) => {
      const served = await startMemorySimulator(new PinpadSimulator({ serialNumber: serial }), { name: serial });
      const pinpad = new Pinpad(served.link.host);
      await pinpad.open();
      closers.push(async () => {
        await pinpad.close(null).catch(() => {});
        await served.close();
      });
      await registry.attach(pinpad, `sim:${serial}`);
    },
  };
}

/** The code of the EngineError `pick` throws. */
function refusal(pick: () => unknown): string {
  try {
    pick();
  } catch (error) {
    if (error instanceof EngineError) return error.code;
    throw error;
  }
  throw new Error('a PINPAD was picked');
}

describe('PinpadRegistry', () => {
  it('lists as connected exactly the PINPADs the engine has attached', async () => {
    const { engine, registry, plug } = shop();
    await plug('PB-REG-1');
    await plug('PB-REG-2');
    expect(engine.terminals().map((t) => t.serial)).toEqual(['PB-REG-1', 'PB-REG-2']);
    expect(registry.list().map((e) => [e.serialNumber, e.connected])).toEqual([
      ['PB-REG-1', true],
      ['PB-REG-2', true],
    ]);

    registry.detach('PB-REG-2');
    expect(engine.terminals().map((t) => t.serial)).toEqual(['PB-REG-1']);
    expect(registry.get('PB-REG-2')).toMatchObject({ connected: false, busy: false });
  });

  it('picks a PINPAD left unnamed by the engine’s rule: PINPAD_REQUIRED among several connected, the only connected one, else the only one known', async () => {
    const { registry, plug } = shop();
    expect(refusal(() => registry.get(undefined))).toBe('PINPAD_NOT_FOUND');
    await plug('PB-REG-1');
    await plug('PB-REG-2');
    expect(refusal(() => registry.get(undefined))).toBe('PINPAD_REQUIRED');

    registry.detach('PB-REG-2');
    expect(registry.get(undefined)).toMatchObject({ serialNumber: 'PB-REG-1', connected: true });

    registry.detach('PB-REG-1');
    expect(refusal(() => registry.get(undefined))).toBe('PINPAD_REQUIRED');
  });

  it('answers for a lone unplugged PINPAD, and refuses to operate it (PINPAD_NOT_FOUND)', async () => {
    const { registry, plug } = shop();
    await plug('PB-REG-1');
    registry.detach('PB-REG-1');
    expect(registry.get(undefined)).toMatchObject({ serialNumber: 'PB-REG-1', connected: false });
    await expect(registry.display(undefined, 'OI')).rejects.toMatchObject({ code: 'PINPAD_NOT_FOUND' });
  });
});
