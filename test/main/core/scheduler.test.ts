/**
 * The engine's timers run on the scheduler it is given (main/core/scheduler.ts, issue 36): a spec
 * moves its clock instead of waiting, so the POS's confirmation deadline is tested at its real
 * ten minutes, and closing the engine leaves no timer set. The sale itself runs for real (driver,
 * simulator, sandbox); only the engine's waits are on the spec's clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../main/core/engine.js';
import { FakeScheduler } from '../../helpers/fake-scheduler.js';
import { engineRig, saleParams, type EngineRig } from './engine-rig.js';

let rig: EngineRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function open(scheduler: FakeScheduler): Promise<EngineRig> {
  rig = await engineRig({
    simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit' } },
    config: { confirmation: 'pos', confirmationDeadlineMs: DEFAULT_ENGINE_CONFIG.confirmationDeadlineMs },
    scheduler,
    now: scheduler.date,
  });
  await rig.addPinpad('PB-SCHEDULER-1');
  return rig;
}

describe("the engine's timers, on the scheduler it is given", () => {
  it("void an approval the POS did not confirm once its ten minutes have passed on the engine's clock, not a second before", async () => {
    const scheduler = new FakeScheduler();
    const { engine, client } = await open(scheduler);
    expect(DEFAULT_ENGINE_CONFIG.confirmationDeadlineMs).toBe(10 * 60_000);
    const outcome = await engine.start(saleParams('prazo'));
    expect(outcome).toMatchObject({ state: 'awaiting_confirmation', confirmation: 'pending' });
    expect(scheduler.pending()).toContain(10 * 60_000);

    await scheduler.advance(10 * 60_000 - 1_000);
    expect(engine.status(outcome.referenceId)).toMatchObject({
      kind: 'processed',
      outcome: { state: 'awaiting_confirmation' },
    });
    expect((await client.transactions.retrieve(outcome.transactionId!)).status).toBe('succeeded');

    await scheduler.advance(1_000);
    await expect
      .poll(() => engine.status(outcome.referenceId))
      .toMatchObject({ kind: 'processed', outcome: { state: 'undone', problem: { code: 'NOT_CONFIRMED' } } });
    expect((await client.transactions.retrieve(outcome.transactionId!)).status).toBe('canceled');
  });

  it('keep no deadline of a sale the POS confirmed, and none at all once the engine is closed', async () => {
    const scheduler = new FakeScheduler();
    const { engine } = await open(scheduler);
    const kept = await engine.start(saleParams('confirmada'));
    expect(scheduler.pending()).toContain(10 * 60_000);
    await engine.confirm(kept.referenceId);
    expect(scheduler.pending()).not.toContain(10 * 60_000);

    await engine.start(saleParams('aberta'));
    expect(scheduler.pending().length).toBeGreaterThan(0);
    await engine.close();
    expect(scheduler.pending()).toEqual([]);
  });
});
