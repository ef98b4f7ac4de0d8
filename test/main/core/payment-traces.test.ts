/**
 * One trace per payment, from the real engine's progress events (a sandbox, a journal, a
 * simulated PINPAD): the payment from its intent to its outcome and its steps — create_transaction,
 * read_card, authorize, confirm — in order, each within the payment; a declined sale ends on
 * authorize with its decline category; a sale cancelled at the card leaves read_card
 * uncompleted. What the port receives names the PINPAD and the outcome, never the customer.
 * A sink that throws never reaches the sale.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { PaymentsClient } from '../../../main/api/index.js';
import { startSandbox } from '../../../main/sandbox/server.js';
import { centavos } from '../../../main/core/money.js';
import type { PaymentOutcome } from '../../../main/core/outcome.js';
import type { PaymentRecord } from '../../../main/core/journal/record.js';
import { PaymentTraceRecorder, type PaymentTrace, type TracedEngine } from '../../../main/core/payment-traces.js';
import { displayed, engineRig, progressed, saleParams, type EngineRig } from './engine-rig.js';

let rig: EngineRig | undefined;
let recorder: PaymentTraceRecorder | undefined;
afterEach(async () => {
  recorder?.close();
  recorder = undefined;
  await rig?.close();
  rig = undefined;
});

const CPF = '52998224725';
const SERIAL = 'PB-TRACE-0001';

async function tracedCheckout(simulator: Parameters<typeof engineRig>[0] = {}): Promise<{
  rig: EngineRig;
  traces: PaymentTrace[];
  recorder: PaymentTraceRecorder;
}> {
  rig = await engineRig(simulator);
  const traces: PaymentTrace[] = [];
  recorder = new PaymentTraceRecorder(rig.engine, { paymentTraced: (trace) => traces.push(trace) });
  return { rig, traces, recorder };
}

/** The trace holds nothing of the customer or of the sale at the provider. */
function expectNothingOfTheCustomer(trace: PaymentTrace, outcome: PaymentOutcome): void {
  const { paymentId: _journalId, ...exported } = trace;
  const text = JSON.stringify(exported);
  expect(text).not.toContain(CPF);
  expect(text).not.toContain(outcome.referenceId);
  if (outcome.transactionId !== null) expect(text).not.toContain(outcome.transactionId);
  if (outcome.card !== null) expect(text).not.toContain(outcome.card.maskedPan.slice(-4));
  expect(text).not.toContain(String(outcome.amount));
}

function expectStepsInside(trace: PaymentTrace): void {
  let previousEnd = trace.startedAt;
  for (const step of trace.steps) {
    expect(step.startedAt).toBeGreaterThanOrEqual(previousEnd);
    expect(step.endedAt).toBeGreaterThanOrEqual(step.startedAt);
    previousEnd = step.endedAt;
  }
  expect(trace.endedAt).toBeGreaterThanOrEqual(previousEnd);
}

describe('PaymentTraceRecorder', () => {
  it('traces an approved sale with its four steps in order, and nothing of the customer', async () => {
    const shop = await tracedCheckout({
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit', cpf: CPF } },
    });
    await shop.rig.addPinpad(SERIAL);
    const outcome = await shop.rig.engine.start(saleParams('trace-ok', { askTaxId: true }));
    expect(outcome).toMatchObject({ status: 'approved', customerTaxId: CPF });

    expect(shop.traces).toHaveLength(1);
    const [trace] = shop.traces as [PaymentTrace];
    expect(trace).toMatchObject({
      paymentId: outcome.paymentId,
      terminal: SERIAL,
      paymentType: 'credit',
      source: 'pos',
      state: 'confirmed',
      declineCategory: null,
      problemCode: null,
    });
    expect(trace.steps.map((step) => [step.step, step.completed, step.endedBy])).toEqual([
      ['create_transaction', true, 'waiting_card'],
      ['read_card', true, 'card_read'],
      ['authorize', true, expect.stringMatching(/^(approved|finishing_chip)$/)],
      ['confirm', true, 'confirmed'],
    ]);
    expectStepsInside(trace);
    expectNothingOfTheCustomer(trace, outcome);
    expect(shop.recorder.openPayments).toBe(0);
  });

  it('traces a declined sale to its authorization, with the decline category', async () => {
    const shop = await tracedCheckout({
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit' } },
    });
    await shop.rig.addPinpad(SERIAL);
    // The sandbox declines amounts ending in 51: insufficient funds.
    const outcome = await shop.rig.engine.start(saleParams('trace-declined', { amount: centavos(1951) }));
    expect(outcome.status).toBe('declined');

    const [trace] = shop.traces as [PaymentTrace];
    expect(trace).toMatchObject({
      state: 'declined',
      declineCategory: 'insufficient_funds',
      problemCode: 'CARD_DECLINED',
    });
    expect(trace.steps.map((step) => [step.step, step.completed, step.endedBy])).toEqual([
      ['create_transaction', true, 'waiting_card'],
      ['read_card', true, 'card_read'],
      ['authorize', true, 'declined'],
    ]);
    expectStepsInside(trace);
    expectNothingOfTheCustomer(trace, outcome);
  });

  it('leaves read_card uncompleted when the POS cancels while the PINPAD waits for the card', async () => {
    const shop = await tracedCheckout({ simulator: { timeScale: 0.05 } });
    const { sim } = await shop.rig.addPinpad(SERIAL);
    const params = saleParams('trace-cancelled');
    const running = shop.rig.engine.start(params);
    await progressed(shop.rig.engine, params.referenceId, 'waiting_card');
    await displayed(sim, /R\$/);
    await shop.rig.engine.cancel(params.referenceId);
    expect((await running).status).toBe('cancelled');

    const [trace] = shop.traces as [PaymentTrace];
    expect(trace).toMatchObject({ state: 'cancelled', problemCode: 'CANCELLED_BY_POS', declineCategory: null });
    expect(trace.steps.map((step) => [step.step, step.completed, step.endedBy])).toEqual([
      ['create_transaction', true, 'waiting_card'],
      ['read_card', false, 'cancelled'],
    ]);
    expectStepsInside(trace);
  });

  it('traces a sale the API refused as failed, its create_transaction step left uncompleted', async () => {
    // An unknown marketplace: the sandbox answers 404 to the transaction's creation, a refusal
    // the engine ends as `failed` straight from `creating_transaction`.
    const sandbox = await startSandbox();
    onTestFinished(() => sandbox.close());
    const shop = await tracedCheckout({
      sandbox,
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit' } },
      payments: () =>
        new PaymentsClient({
          baseUrl: sandbox.url,
          token: sandbox.token,
          marketplaceId: 'mkt-does-not-exist',
          maxRetries: 0,
          timeoutMs: 2_000,
        }),
    });
    await shop.rig.addPinpad(SERIAL);
    const outcome = await shop.rig.engine.start(saleParams('trace-refused'));
    expect(outcome).toMatchObject({ status: 'failed', problem: { code: 'API_REJECTED' } });

    expect(shop.traces).toHaveLength(1);
    const [trace] = shop.traces as [PaymentTrace];
    expect(trace).toMatchObject({ state: 'failed', problemCode: 'API_REJECTED', terminal: SERIAL });
    expect(trace.steps.map((step) => [step.step, step.completed, step.endedBy])).toEqual([
      ['create_transaction', false, 'failed'],
    ]);
    expect(trace.endedAt).toBeGreaterThanOrEqual(trace.startedAt);
    expect(shop.recorder.openPayments).toBe(0);
  });

  it('keeps a sink that throws away from the sale, and says so', async () => {
    rig = await engineRig({ simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit' } } });
    const errors: unknown[] = [];
    recorder = new PaymentTraceRecorder(
      rig.engine,
      {
        paymentTraced: () => {
          throw new Error('exporter bug');
        },
      },
      { onError: (error) => errors.push(error) },
    );
    await rig.addPinpad(SERIAL);
    expect((await rig.engine.start(saleParams('trace-sink-throws'))).status).toBe('approved');
    expect(errors).toEqual([new Error('exporter bug')]);
  });

  it('traces nothing once closed', async () => {
    const shop = await tracedCheckout({
      simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit' } },
    });
    await shop.rig.addPinpad(SERIAL);
    shop.recorder.close();
    expect((await shop.rig.engine.start(saleParams('trace-closed'))).status).toBe('approved');
    expect(shop.traces).toEqual([]);
  });

  it("traces a payment whose run ends on a final state without a final progress event, from the journal's record", () => {
    const engine = new EventEmitter() as EventEmitter & TracedEngine;
    const records = new Map<string, Partial<PaymentRecord>>();
    Object.assign(engine, { journal: { get: (id: string) => records.get(id) } });
    const traces: PaymentTrace[] = [];
    const errors: unknown[] = [];
    recorder = new PaymentTraceRecorder(
      engine,
      { paymentTraced: (trace) => traces.push(trace) },
      { onError: (error) => errors.push(error) },
    );
    const at = (ms: number): string => new Date(Date.UTC(2026, 10, 29, 10, 0, 0, ms)).toISOString();
    const progress = (step: string, state: string, ms: number): void => {
      engine.emit('progress', { paymentId: 'p1', referenceId: 'r1', terminal: 'PB-1', step, state, at: at(ms) });
    };
    engine.emit('terminal', { serial: 'PB-1', busy: true, payment: { id: 'p1', referenceId: 'r1' } });
    progress('started', 'intent', 0);
    progress('creating_transaction', 'intent', 10);
    records.set('p1', {
      id: 'p1',
      terminal: 'PB-1',
      paymentType: 'debit',
      source: 'pos',
      state: 'cancelled',
      problem: { code: 'CANCELLED_BY_POS', message: 'cancelled', cashierMessage: 'cancelada' },
      authorization: null,
      createdAt: at(0),
      finishedAt: at(50),
    });
    expect(traces).toEqual([]);
    engine.emit('terminal', { serial: 'PB-1', busy: false, payment: null });
    expect(traces).toEqual([
      expect.objectContaining({
        paymentId: 'p1',
        paymentType: 'debit',
        state: 'cancelled',
        problemCode: 'CANCELLED_BY_POS',
        startedAt: Date.parse(at(0)),
        endedAt: Date.parse(at(50)),
        steps: [],
      }),
    ]);
    expect(recorder.openPayments).toBe(0);
    expect(errors).toEqual([]);
  });
});
