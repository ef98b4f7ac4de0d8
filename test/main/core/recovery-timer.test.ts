/**
 * Recovery does not wait for the next sale (issue 18, item 2). A payment left undecided by a crash
 * whose start-up recovery could not reach the payments API is tried again on the engine's own
 * backoff timer, and decided as soon as the API answers — with the result announced to whoever
 * waits for it, and no next sale or restart needed.
 */
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { centavos } from '../../../main/core/money.js';
import type { PaymentOutcome } from '../../../main/core/outcome.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { PAYMENT_CALLS, SELLER_LIST, startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';
import { engineRig, saleParams, type EngineRig } from './engine-rig.js';

const SERIAL = 'PB-RECOVERY-1';
/** A guard against hangs, not a speed claim: the backoff below is capped at 1 s. */
const GUARD_MS = 15_000;

let rig: EngineRig | undefined;
let proxy: FaultProxy | undefined;
let sandbox: RunningSandbox | undefined;

afterEach(async () => {
  await rig?.close();
  await proxy?.close();
  await sandbox?.close();
  rig = undefined;
  proxy = undefined;
  sandbox = undefined;
});

/** A crash right after the API created the transaction: the journal holds only the intent. */
async function crashedAfterCreation(): Promise<{ referenceId: string; transactionId: string }> {
  const params = saleParams('stuck');
  rig!.journal.createIntent({
    referenceId: params.referenceId,
    source: 'pos',
    terminal: SERIAL,
    amount: centavos(1990),
    paymentType: 'credit',
    installments: 1,
    description: 'Venda de teste',
    notification: null,
    paramsHash: 'a'.repeat(64),
    confirmation: 'auto',
  });
  const created = await rig!.client.transactions.create({
    payment_locale: 'pinpad',
    payment_type: 'credit',
    on_behalf_of: sandbox!.sellerId,
    description: 'Venda de teste',
    amount: 1990,
    terminal: SERIAL,
    reference_id: params.referenceId,
    installment_plan: { number_installments: 1 },
  });
  return { referenceId: params.referenceId, transactionId: created.id };
}

describe('recovery on its own timer', () => {
  it('decides a payment whose start-up lookup failed as soon as the API answers, with no next sale', async () => {
    sandbox = await startSandbox();
    proxy = await startFaultProxy(sandbox.url);
    const target = proxy;
    rig = await engineRig({
      sandbox,
      apiBaseUrl: () => target.url,
      config: { recoveryRetry: { baseMs: 100, maxMs: 1_000 } },
    });
    const { referenceId, transactionId } = await crashedAfterCreation();

    // The restart: the payments API answers nothing — the reference lookup fails whichever list it reads.
    const lookups = (): number => proxy!.count(PAYMENT_CALLS.lookup) + proxy!.count(SELLER_LIST);
    const down = [PAYMENT_CALLS.lookup, SELLER_LIST].map((call) =>
      proxy!.add({ ...call, action: 'status', status: 503, times: Infinity }),
    );
    const engine = await rig.restart({ recoveryRetry: { baseMs: 100, maxMs: 1_000 } });
    expect(await engine.recover()).toMatchObject({ found: 1, settled: 0, pending: 1 });
    const waiting = engine.status(referenceId);
    expect(waiting).toMatchObject({
      kind: 'in_progress',
      state: 'intent',
      stalled: {
        status: 'in_progress',
        problem: { code: 'RESULT_PENDING', cashierMessage: 'Não cobre de novo: o resultado está sendo confirmado.' },
      },
    });

    // Nobody starts a sale; the engine keeps asking, with a backoff.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const asked = down.reduce((hits, rule) => hits + rule.hits, 0);
    expect(asked).toBeGreaterThanOrEqual(3);
    expect(engine.status(referenceId)).toMatchObject({ kind: 'in_progress', state: 'intent' });

    const announced = once(engine, 'result', { signal: AbortSignal.timeout(GUARD_MS) }) as Promise<[PaymentOutcome]>;
    for (const rule of down) rule.remove();
    const [outcome] = await announced;
    expect(outcome).toMatchObject({
      referenceId: referenceId,
      status: 'failed',
      state: 'failed',
      problem: { code: 'INTERRUPTED' },
    });
    expect(engine.status(referenceId)).toEqual({ kind: 'processed', outcome });
    // Nothing charged, and nothing left pending at the API.
    expect((await rig.client.transactions.retrieve(transactionId)).status).toBe('canceled');
    // The timer stops once nothing is undecided: no more lookups.
    const looked = lookups();
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(lookups()).toBe(looked);
  });
});
