/**
 * Pending transactions "created elsewhere" (PaymentEngine.runPendingFor): which of the pending
 * PINPAD transactions the provider lists for a PINPAD this agent runs as a sale, which it leaves
 * alone and which it cancels. A Pinbridge sale creates its transaction with
 * `metadata.pinbridge_payment_id`; that is how a transaction is known to be some Pinbridge
 * agent's and not one meant for the PINPAD by a POS back end. Over memory ports (memory-ports.ts):
 * what the provider holds afterwards is read from its records.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentEngine, type EngineConfig } from '../../../main/core/engine.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { centavos } from '../../../main/core/money.js';
import type { EngineLogger } from '../../../main/core/ports.js';
import { MemoryPinpad, MemoryProvider } from './memory-ports.js';

const SERIAL = 'PB-ELSEWHERE-1';
/** The journal id another agent's sale carries (another journal: a second PC, a reinstall). */
const OTHER_AGENTS_PAYMENT = '0123456789abcdef0123456789abcdef';

const engines: PaymentEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});

interface Rig {
  readonly engine: PaymentEngine;
  readonly provider: MemoryProvider;
  readonly pinpad: MemoryPinpad;
  readonly logged: string[];
}

function rig(config: Partial<EngineConfig> = {}): Rig {
  const journal = Journal.open(join(mkdtempSync(join(tmpdir(), 'pinbridge-elsewhere-')), 'journal.db'));
  const provider = new MemoryProvider();
  const pinpad = new MemoryPinpad();
  const logged: string[] = [];
  const logger: EngineLogger = {
    debug: () => {},
    info: (_, msg) => logged.push(msg),
    warn: (_, msg) => logged.push(msg),
    error: (_, msg) => logged.push(msg),
  };
  const engine = new PaymentEngine({
    journal,
    payments: provider,
    sellerId: 'seller-1',
    logger,
    config: { unknownResolution: { attempts: 1, delayMs: 0 }, ...config },
  });
  engine.attachTerminal(SERIAL, pinpad);
  engines.push(engine);
  return { engine, provider, pinpad, logged };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('pending transactions created elsewhere', () => {
  it("runs a POS back end's pending transaction for this PINPAD like any sale", async () => {
    const { engine, provider } = rig();
    const remote = provider.add({ terminal: SERIAL, reference_id: 'backend-1' });
    const [outcome] = await engine.runPendingFor(SERIAL);
    expect(outcome).toMatchObject({ status: 'approved', referenceId: 'backend-1', transactionId: remote.id });
    expect(provider.get(remote.id).status).toBe('succeeded');
  });

  it("never runs another Pinbridge agent's sale: the PINPAD is not touched, the transaction left to its agent", async () => {
    const { engine, provider, pinpad, logged } = rig();
    const theirs = provider.add({
      terminal: SERIAL,
      reference_id: 'pdv-7',
      metadata: { pinbridge_payment_id: OTHER_AGENTS_PAYMENT },
    });
    expect(await engine.runPendingFor(SERIAL)).toEqual([]);
    expect(await engine.runPendingFor(SERIAL)).toEqual([]);
    expect(pinpad.shown).toEqual([]);
    expect(provider.calls).not.toContain('authorize');
    expect(provider.calls).not.toContain('reverse');
    expect(provider.get(theirs.id).status).toBe('pending');
    expect(engine.list().total).toBe(0);
    // Said once, not at every poll.
    expect(logged.filter((line) => line.includes("another Pinbridge agent's sale"))).toHaveLength(1);
  });

  it("cancels another agent's sale as an orphan once it has been pending here longer than any sale takes", async () => {
    const { engine, provider, pinpad } = rig({ orphanAfterMs: 40 });
    const theirs = provider.add({
      terminal: SERIAL,
      reference_id: 'pdv-8',
      metadata: { pinbridge_payment_id: OTHER_AGENTS_PAYMENT },
    });
    await engine.runPendingFor(SERIAL);
    expect(provider.get(theirs.id).status).toBe('pending');
    await sleep(60);
    await engine.runPendingFor(SERIAL);
    expect(provider.get(theirs.id).status).toBe('canceled');
    expect(provider.calls).not.toContain('authorize');
    expect(pinpad.shown).toEqual([]);
  });

  it('does not run a remote sale whose reference another live transaction at the provider has', async () => {
    const { engine, provider, pinpad, logged } = rig();
    // The same reference already charged (a Pinbridge sale, or a duplicate of the back end's).
    provider.add({ terminal: SERIAL, reference_id: 'pdv-9', status: 'succeeded' });
    const second = provider.add({ terminal: SERIAL, reference_id: 'pdv-9' });
    expect(await engine.runPendingFor(SERIAL)).toEqual([]);
    expect(await engine.runPendingFor(SERIAL)).toEqual([]);
    expect(provider.get(second.id).status).toBe('pending');
    expect(pinpad.shown).toEqual([]);
    expect(provider.calls).not.toContain('authorize');
    expect(logged.filter((line) => line.includes('another live transaction has its reference'))).toHaveLength(1);
  });

  it('runs a remote sale whose earlier attempt under the same reference was declined or cancelled', async () => {
    const { engine, provider } = rig();
    provider.add({ terminal: SERIAL, reference_id: 'pdv-10', status: 'failed' });
    provider.add({ terminal: SERIAL, reference_id: 'pdv-10', status: 'canceled' });
    const retry = provider.add({ terminal: SERIAL, reference_id: 'pdv-10' });
    const [outcome] = await engine.runPendingFor(SERIAL);
    expect(outcome).toMatchObject({ status: 'approved', transactionId: retry.id });
  });

  it('cancels at the next poll a second transaction of a payment of this journal that has ended', async () => {
    const { engine, provider } = rig();
    const sold = await engine.start({
      referenceId: 'pdv-11',
      amount: centavos(1990),
      paymentType: 'credit',
      installments: 1,
      description: 'Venda',
      terminal: SERIAL,
    });
    expect(sold.status).toBe('approved');
    // A creation that reached the provider after the payment was done with it.
    const late = provider.add({
      terminal: SERIAL,
      reference_id: 'pdv-11',
      metadata: { pinbridge_payment_id: sold.paymentId },
    });
    expect(await engine.runPendingFor(SERIAL)).toEqual([]);
    expect(provider.get(late.id).status).toBe('canceled');
    expect(provider.get(sold.transactionId!).status).toBe('succeeded');
  });

  it("leaves alone a transaction under one of this journal's references that another agent's sale carries", async () => {
    const { engine, provider } = rig();
    const sold = await engine.start({
      referenceId: 'pdv-12',
      amount: centavos(1990),
      paymentType: 'credit',
      installments: 1,
      description: 'Venda',
      terminal: SERIAL,
    });
    expect(sold.status).toBe('approved');
    // Another journal's payment under the same reference: its agent's, not an orphan of ours.
    const theirs = provider.add({
      terminal: SERIAL,
      reference_id: 'pdv-12',
      metadata: { pinbridge_payment_id: OTHER_AGENTS_PAYMENT },
    });
    await engine.runPendingFor(SERIAL);
    expect(provider.get(theirs.id).status).toBe('pending');
  });
});
