/**
 * The agent's Prometheus metrics, fed by the real parts: a payment engine running sales on
 * simulated PINPADs attached through the PINPAD registry, against the payments API sandbox on
 * loopback (real HTTP, its attempts reported to the health monitor and the metrics), a real
 * print queue over a print journal file. Each test reads the exposition text as Prometheus
 * would and checks samples and labels — and that no card data or id ever becomes a label.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import type { PrintDocument } from '../../../drivers/printers/document.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  TEST_CARDS,
  type PinpadSimulatorOptions,
} from '../../../drivers/simulator/index.js';
import { ApiHealthMonitor } from '../../../main/api/health.js';
import { PaymentsClient, type AttemptReport } from '../../../main/api/index.js';
import type { EngineConfig } from '../../../main/core/engine.js';
import type { PaymentOutcome } from '../../../main/core/outcome.js';
import { PinpadRegistry } from '../../../main/pinpad/registry.js';
import { AgentMetrics, apiAttemptOutcome, type AgentMetricsSources } from '../../../main/metrics/metrics.js';
import { PrintJournal, type PrintJob } from '../../../main/receipts/print-jobs.js';
import { PrintQueue, type DocumentPrinter } from '../../../main/receipts/print-queue.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { scanText } from '../../helpers/card-data-scan.js';
import { engineRig, progressed, saleParams, type EngineRig } from '../core/engine-rig.js';
import { parseExposition, type Exposition } from './exposition.js';
import { centavos } from '../../../main/core/money.js';
import { DECLINE_CATEGORIES } from '../../../main/core/declines.js';
import { heldCertificates } from '../../../main/agent/held-certificates.js';
import { createTestPki } from '../../helpers/test-pki.js';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

let sandbox: RunningSandbox;
beforeAll(async () => {
  // Every test plugs in a new simulated PINPAD of the same serial, whose DUKPT counters start again
  // where a real PINPAD's would go on: the replay check would refuse its sales.
  sandbox = await startSandbox({ settings: { slowAuthorizationDelayMs: 1_500 } });
});
afterAll(async () => {
  await sandbox.close();
});

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A customer who inserts the card 5 ms after each prompt, on a simulator running 20× faster. */
const QUICK_CUSTOMER: PinpadSimulatorOptions = { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit' } };

interface Checkout {
  readonly rig: EngineRig;
  readonly registry: PinpadRegistry;
  readonly apiHealth: ApiHealthMonitor;
  readonly metrics: AgentMetrics;
  readonly warnings: string[];
  /** A simulated PINPAD attached through the registry; `unplug` pulls its cable. */
  addPinpad(serial: string, options?: PinpadSimulatorOptions): Promise<{ sim: PinpadSimulator; unplug(): void }>;
  scrape(): Promise<Exposition & { text: string }>;
}

interface CheckoutOptions {
  readonly config?: Partial<EngineConfig>;
  /** The marketplace the engine's client names (an unknown one: the API refuses every transaction). */
  readonly marketplaceId?: string;
  readonly sources?: Partial<
    Pick<AgentMetricsSources, 'printQueue' | 'posSessions' | 'mode' | 'version' | 'disk' | 'certificates' | 'now'>
  >;
}

async function checkout(options: CheckoutOptions = {}): Promise<Checkout> {
  const apiHealth = new ApiHealthMonitor();
  // The client exists before the engine, the metrics after it: the callback finds them when they are there.
  const late: { metrics?: AgentMetrics } = {};
  // As `pinbridge start` wires it: every attempt goes to the health monitor and to the metrics.
  const onAttempt = (attempt: AttemptReport): void => {
    apiHealth.record(attempt);
    late.metrics?.recordApiAttempt(attempt);
  };
  const rig = await engineRig({
    sandbox,
    ...(options.config ? { config: options.config } : {}),
    payments: () =>
      new PaymentsClient({
        baseUrl: sandbox.url,
        token: sandbox.token,
        marketplaceId: options.marketplaceId ?? sandbox.marketplaceId,
        maxRetries: 0,
        timeoutMs: 2_000,
        onAttempt,
      }),
  });
  closers.push(() => rig.close());
  const registry = new PinpadRegistry(rig.engine);
  const warnings: string[] = [];
  const metrics = new AgentMetrics({
    engine: rig.engine,
    pinpads: registry,
    apiHealth,
    mode: 'training',
    version: '1.2.3-test',
    logger: { warn: (_fields, message) => warnings.push(message) },
    ...options.sources,
  });
  late.metrics = metrics;
  closers.push(() => metrics.close());
  return {
    rig,
    registry,
    apiHealth,
    metrics,
    warnings,
    async addPinpad(serial, simOptions = QUICK_CUSTOMER) {
      const sim = new PinpadSimulator({ serialNumber: serial, ...simOptions });
      const served = await startMemorySimulator(sim, { name: serial });
      const pinpad = new Pinpad(served.link.host, { logger: rig.logger });
      await pinpad.open();
      // Before the rig closes the engine (closers run in reverse).
      closers.push(async () => {
        await pinpad.close(null).catch(() => {});
        await served.close();
      });
      await registry.attach(pinpad, `sim:${serial}`, { logger: rig.logger });
      return {
        sim,
        unplug: () => {
          served.link.unplug();
          registry.detach(serial);
        },
      };
    },
    async scrape() {
      const text = await metrics.text();
      return { ...parseExposition(text), text };
    },
  };
}

/** Nothing that identifies a payment or a card may be in the exposition, as a label or anywhere. */
function expectNoPaymentData(text: string, outcomes: readonly PaymentOutcome[]): void {
  for (const outcome of outcomes) {
    expect(text).not.toContain(outcome.referenceId);
    expect(text).not.toContain(outcome.paymentId);
    if (outcome.transactionId !== null) expect(text).not.toContain(outcome.transactionId);
    if (outcome.card !== null) {
      expect(text).not.toContain(outcome.card.maskedPan);
      expect(text).not.toContain(outcome.card.maskedPan.slice(0, 6));
    }
    if (outcome.authorizationCode !== null) expect(text).not.toMatch(new RegExp(`"${outcome.authorizationCode}"`));
  }
  for (const card of Object.values(TEST_CARDS)) expect(text).not.toContain(card.pan);
  // Sample values are floats whose fraction can look like a card number (0.5380401234567891):
  // a card number is never a fraction, so the fractions are left out of the scan.
  expect(scanText(text.replace(/\d*\.\d+(e[-+]?\d+)?/gi, '0.0'), [])).toEqual([]);
  // API paths hold ids: never a label.
  expect(text).not.toContain('/v1/');
}

const SERIAL = 'PB-METRICS-0001';

describe('payments', () => {
  it('counts an approved and a declined sale once each, with the approved centavos and both durations', async () => {
    const shop = await checkout();
    await shop.addPinpad(SERIAL);
    const before = await shop.scrape();
    // Every outcome series exists at 0 from the start, so rate() works from the first scrape.
    expect(before.value('pinbridge_payments_total', { outcome: 'approved', payment_type: 'credit' })).toBe(0);
    expect(before.value('pinbridge_payments_total', { outcome: 'declined', payment_type: 'debit' })).toBe(0);
    expect(before.value('pinbridge_payment_duration_seconds_count')).toBe(0);

    const approved = await shop.rig.engine.start(saleParams('metrics-ok'));
    // The sandbox declines amounts ending in 51 (insufficient funds).
    const declined = await shop.rig.engine.start(saleParams('metrics-declined', { amount: centavos(1951) }));
    expect(approved.status).toBe('approved');
    expect(declined.status).toBe('declined');

    const after = await shop.scrape();
    expect(after.types.get('pinbridge_payments_total')).toBe('counter');
    expect(after.help.get('pinbridge_payments_total')).toMatch(/final outcome/);
    const payments = after.all('pinbridge_payments_total').filter((sample) => sample.value > 0);
    expect(payments).toEqual([
      { name: 'pinbridge_payments_total', labels: { outcome: 'approved', payment_type: 'credit' }, value: 1 },
      { name: 'pinbridge_payments_total', labels: { outcome: 'declined', payment_type: 'credit' }, value: 1 },
    ]);
    expect(after.value('pinbridge_payment_amount_centavos_total', { payment_type: 'credit' })).toBe(1990);
    expect(after.value('pinbridge_payment_amount_centavos_total', { payment_type: 'debit' })).toBe(0);
    expect(after.value('pinbridge_payment_voids_total', { payment_type: 'credit' })).toBe(0);
    expect(after.value('pinbridge_payment_duration_seconds_count')).toBe(2);
    expect(after.value('pinbridge_payment_duration_seconds_sum')).toBeGreaterThan(0);
    expect(after.value('pinbridge_payment_duration_seconds_bucket', { le: '+Inf' })).toBe(2);
    expect(after.value('pinbridge_payment_undos_pending')).toBe(0);
    // The decline by its category (the sandbox's 51: insufficient funds), every other category at 0.
    expect(after.types.get('pinbridge_payment_declines_total')).toBe('counter');
    expect(after.all('pinbridge_payment_declines_total').filter((sample) => sample.value > 0)).toEqual([
      { name: 'pinbridge_payment_declines_total', labels: { category: 'insufficient_funds' }, value: 1 },
    ]);
    expect(after.all('pinbridge_payment_declines_total').map((sample) => sample.labels.category)).toEqual([
      ...DECLINE_CATEGORIES,
    ]);
    // Each step of both sales timed; only the approved one was confirmed.
    const steps = 'pinbridge_payment_step_duration_seconds';
    expect(after.types.get(steps)).toBe('histogram');
    expect(Object.fromEntries(after.all(`${steps}_count`).map((sample) => [sample.labels.step, sample.value]))).toEqual(
      { create_transaction: 2, read_card: 2, authorize: 2, confirm: 1 },
    );
    for (const step of ['create_transaction', 'read_card', 'authorize', 'confirm'])
      expect(after.value(`${steps}_sum`, { step })).toBeGreaterThan(0);
    // The steps happen within the sales, so they take no longer than the sales themselves.
    const stepSeconds = after.all(`${steps}_sum`).reduce((sum, sample) => sum + sample.value, 0);
    expect(stepSeconds).toBeLessThanOrEqual(after.value('pinbridge_payment_duration_seconds_sum')! + 0.002);
    // Both sales are decided: nothing undecided is left.
    expect(after.value('pinbridge_payments_undecided')).toBe(0);
    expect(after.value('pinbridge_payment_undecided_oldest_age_seconds')).toBe(0);
    // Every label of every payment metric is from a closed set.
    for (const sample of after.samples.filter((s) => s.name.startsWith('pinbridge_payment'))) {
      for (const [key, value] of Object.entries(sample.labels)) {
        expect(['outcome', 'payment_type', 'le', 'category', 'step']).toContain(key);
        if (key === 'payment_type') expect(['credit', 'debit']).toContain(value);
        if (key === 'category') expect(DECLINE_CATEGORIES).toContain(value);
        if (key === 'step') expect(['create_transaction', 'read_card', 'authorize', 'confirm']).toContain(value);
      }
    }

    // The sales' API calls, timed by method and outcome; the API is up.
    expect(
      after.value('pinbridge_api_request_duration_seconds_count', { method: 'POST', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(4);
    expect(after.value('pinbridge_api_up')).toBe(1);
    for (const sample of after.all('pinbridge_api_request_duration_seconds_count')) {
      expect(Object.keys(sample.labels).sort()).toEqual(['method', 'outcome']);
    }
    expectNoPaymentData(after.text, [approved, declined]);
  });

  it('counts a sale the API refused, which ends with no final progress event, once', async () => {
    // An unknown marketplace: the sandbox answers 404 to the transaction's creation, a refusal
    // the engine ends as `failed` straight from `creating_transaction`.
    const shop = await checkout({ marketplaceId: 'mkt-does-not-exist' });
    await shop.addPinpad(SERIAL);
    const outcome = await shop.rig.engine.start(saleParams('metrics-refused'));
    expect(outcome).toMatchObject({ status: 'failed', state: 'failed', problem: { code: 'API_REJECTED' } });

    const scrape = await shop.scrape();
    const counted = scrape.all('pinbridge_payments_total').filter((sample) => sample.value > 0);
    expect(counted).toEqual([
      { name: 'pinbridge_payments_total', labels: { outcome: 'failed', payment_type: 'credit' }, value: 1 },
    ]);
    expect(scrape.value('pinbridge_payment_duration_seconds_count')).toBe(1);
    expect(scrape.value('pinbridge_api_request_duration_seconds_count', { method: 'POST', outcome: '4xx' })).toBe(1);
    // A 404 is an answer: the API is there.
    expect(scrape.value('pinbridge_api_up')).toBe(1);
    expectNoPaymentData(scrape.text, [outcome]);
  });

  it('counts a sale cancelled while the PINPAD waits for the card, and shows the PINPAD busy meanwhile', async () => {
    const shop = await checkout();
    // Nobody at the keypad: the PINPAD waits for a card until the sale is cancelled.
    await shop.addPinpad(SERIAL, { timeScale: 0.05 });
    const params = saleParams('metrics-cancel');
    const waiting = progressed(shop.rig.engine, params.referenceId, 'waiting_card');
    const running = shop.rig.engine.start(params);
    await waiting;
    expect((await shop.scrape()).value('pinbridge_pinpad_busy', { serial: SERIAL })).toBe(1);

    await shop.rig.engine.cancel(params.referenceId);
    const outcome = await running;
    expect(outcome.status).toBe('cancelled');
    const scrape = await shop.scrape();
    expect(scrape.value('pinbridge_pinpad_busy', { serial: SERIAL })).toBe(0);
    expect(scrape.all('pinbridge_payments_total').filter((sample) => sample.value > 0)).toEqual([
      { name: 'pinbridge_payments_total', labels: { outcome: 'cancelled', payment_type: 'credit' }, value: 1 },
    ]);
    // The transaction was created; the card never came: that step timed nothing to its end.
    expect(scrape.value('pinbridge_payment_step_duration_seconds_count', { step: 'create_transaction' })).toBe(1);
    expect(scrape.value('pinbridge_payment_step_duration_seconds_count', { step: 'read_card' })).toBe(0);
    expect(scrape.all('pinbridge_payment_declines_total').every((sample) => sample.value === 0)).toBe(true);
    expectNoPaymentData(scrape.text, [outcome]);
  });

  it('under the "pos" policy counts an approval when the POS confirms it, an unconfirmed undo as voided, and a later void apart', async () => {
    const shop = await checkout({ config: { confirmation: 'pos' } });
    await shop.addPinpad(SERIAL, { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaDebit' } });
    const { engine } = shop.rig;
    const { installments: _credit, ...debitSale } = saleParams('metrics-pos', {
      paymentType: 'debit',
      amount: centavos(2500),
    });
    const kept = await engine.start(debitSale);
    expect(kept).toMatchObject({ status: 'approved', confirmation: 'pending' });
    // Approved, but nothing stands until the POS confirms: not counted yet.
    let scrape = await shop.scrape();
    expect(scrape.value('pinbridge_payments_total', { outcome: 'approved', payment_type: 'debit' })).toBe(0);
    expect(scrape.value('pinbridge_payment_confirmations_pending')).toBe(1);
    // Approved and waiting for the POS: decided, so not undecided; its confirm step still open.
    expect(scrape.value('pinbridge_payments_undecided')).toBe(0);
    expect(scrape.value('pinbridge_payment_step_duration_seconds_count', { step: 'confirm' })).toBe(0);
    expect(scrape.value('pinbridge_payment_step_duration_seconds_count', { step: 'authorize' })).toBe(1);

    await engine.confirm(kept.referenceId);
    const { installments: _again, ...undoneSale } = saleParams('metrics-pos', {
      paymentType: 'debit',
      amount: centavos(1200),
    });
    const undone = await engine.start(undoneSale);
    await engine.undo(undone.referenceId);
    scrape = await shop.scrape();
    expect(scrape.value('pinbridge_payments_total', { outcome: 'approved', payment_type: 'debit' })).toBe(1);
    expect(scrape.value('pinbridge_payments_total', { outcome: 'voided', payment_type: 'debit' })).toBe(1);
    expect(scrape.value('pinbridge_payment_amount_centavos_total', { payment_type: 'debit' })).toBe(2500);
    expect(scrape.value('pinbridge_payment_voids_total', { payment_type: 'debit' })).toBe(0);
    expect(scrape.value('pinbridge_payment_confirmations_pending')).toBe(0);
    // The confirmed sale's confirm step, ended by the POS's confirmation; the undone one's never ended.
    expect(scrape.value('pinbridge_payment_step_duration_seconds_count', { step: 'confirm' })).toBe(1);
    expect(scrape.value('pinbridge_payment_step_duration_seconds_count', { step: 'authorize' })).toBe(2);

    // The confirmed sale voided later (the cashier's cancel): a void, not a second outcome.
    const voided = await engine.undo(kept.referenceId);
    expect(voided.state).toBe('undone');
    scrape = await shop.scrape();
    expect(scrape.value('pinbridge_payments_total', { outcome: 'approved', payment_type: 'debit' })).toBe(1);
    expect(scrape.value('pinbridge_payments_total', { outcome: 'voided', payment_type: 'debit' })).toBe(1);
    expect(scrape.value('pinbridge_payment_voids_total', { payment_type: 'debit' })).toBe(1);
    expect(scrape.value('pinbridge_payment_voided_amount_centavos_total', { payment_type: 'debit' })).toBe(2500);
    expect(scrape.value('pinbridge_payment_duration_seconds_count')).toBe(2);
    expect(scrape.all('pinbridge_payments_total').reduce((sum, sample) => sum + sample.value, 0)).toBe(2);
    expectNoPaymentData(scrape.text, [kept, undone, voided]);
  });
});

describe('undecided payments', () => {
  it('counts a journaled payment whose result is not decided, with the age of the oldest, until it is decided', async () => {
    let now = 0;
    const shop = await checkout({ sources: { now: () => now } });
    const { journal } = shop.rig;
    const base = {
      source: 'pos',
      terminal: SERIAL,
      amount: centavos(1990),
      paymentType: 'credit',
      installments: 1,
      description: 'x',
      notification: null,
      paramsHash: 'h',
      confirmation: 'auto',
    } as const;
    let scrape = await shop.scrape();
    expect(scrape.types.get('pinbridge_payments_undecided')).toBe('gauge');
    expect(scrape.value('pinbridge_payments_undecided')).toBe(0);
    expect(scrape.value('pinbridge_payment_undecided_oldest_age_seconds')).toBe(0);

    // A payment left as a crash leaves it: its intent journaled, its card read, the issuer asked.
    const first = journal.createIntent({ ...base, referenceId: 'metrics-undecided-1' });
    const second = journal.createIntent({ ...base, referenceId: 'metrics-undecided-2' });
    journal.transition(second.id, 'created', { transactionId: 'txn-metrics-undecided' });
    now = Date.parse(first.createdAt) + 330_000;
    scrape = await shop.scrape();
    expect(scrape.value('pinbridge_payments_undecided')).toBe(2);
    expect(scrape.value('pinbridge_payment_undecided_oldest_age_seconds')).toBeCloseTo(330, 3);

    // Decided: one failed (final), the other cancelling its transaction (decided, an undo queued).
    journal.transition(first.id, 'failed', {}, 'spec: failed');
    journal.transition(second.id, 'aborting', {}, 'spec: cancelling');
    scrape = await shop.scrape();
    expect(scrape.value('pinbridge_payments_undecided')).toBe(0);
    expect(scrape.value('pinbridge_payment_undecided_oldest_age_seconds')).toBe(0);
    expect(scrape.text).not.toContain('metrics-undecided');
    expect(scrape.text).not.toContain('txn-metrics-undecided');
  });
});

describe('disk and certificates', () => {
  it("reads the journal's free disk and its reserve at each scrape", async () => {
    let room = (): ReturnType<EngineRig['journal']['room']> => shop.rig.journal.room();
    const shop = await checkout({ sources: { disk: () => room() } });
    let scrape = await shop.scrape();
    // The rig's journal is a file with a reserve beside it (a small one: 64 KiB).
    expect(scrape.value('pinbridge_journal_reserve_bytes')).toBe(64 * 1024);
    expect(scrape.value('pinbridge_disk_free_bytes')).toBeGreaterThan(0);
    expect(scrape.value('pinbridge_disk_free_bytes')).toBeLessThan(Number.MAX_SAFE_INTEGER);

    room = () => ({ freeBytes: 5 * 1024 * 1024, reserveHeld: false, reserveBytes: 8 * 1024 * 1024, enough: false });
    scrape = await shop.scrape();
    expect(scrape.value('pinbridge_disk_free_bytes')).toBe(5 * 1024 * 1024);
    expect(scrape.value('pinbridge_journal_reserve_bytes')).toBe(8 * 1024 * 1024);

    // A file system that cannot say its free space: unknown, no sample (never a huge number).
    room = () => ({ freeBytes: Number.MAX_SAFE_INTEGER, reserveHeld: true, reserveBytes: 0, enough: true });
    scrape = await shop.scrape();
    expect(scrape.all('pinbridge_disk_free_bytes')).toEqual([]);
    expect(scrape.value('pinbridge_journal_reserve_bytes')).toBe(0);

    room = () => {
      throw new Error('the journal is closed');
    };
    scrape = await shop.scrape();
    expect(scrape.all('pinbridge_disk_free_bytes')).toEqual([]);
    expect(scrape.all('pinbridge_journal_reserve_bytes')).toEqual([]);
    expect(shop.warnings).toContain('metrics: could not read a source');
  });

  it('exposes the notAfter of each certificate the agent holds, and none it does not', async () => {
    const pki = createTestPki();
    closers.push(() => pki.remove());
    const serverPem = readFileSync(pki.server.cert);
    const client = pki.client('api', '0A1B2C');
    const apiClient = { validTo: new Date(new X509Certificate(readFileSync(client.cert)).validTo) };
    const warnings: string[] = [];
    const logger = { warn: (_fields: Record<string, unknown>, message: string) => warnings.push(message) };

    // The POS's certificate alone: no api_client series.
    let shop = await checkout({ sources: { certificates: heldCertificates(undefined, serverPem, logger) } });
    let scrape = await shop.scrape();
    const expected = Math.floor(Date.parse(new X509Certificate(serverPem).validTo) / 1000);
    expect(scrape.all('pinbridge_certificate_expiry_timestamp_seconds')).toEqual([
      { name: 'pinbridge_certificate_expiry_timestamp_seconds', labels: { certificate: 'pos_tls' }, value: expected },
    ]);
    // openssl made it valid for 2 days.
    expect(expected * 1000 - Date.now()).toBeGreaterThan(1.9 * 86_400_000);
    expect(expected * 1000 - Date.now()).toBeLessThanOrEqual(2 * 86_400_000);

    shop = await checkout({ sources: { certificates: heldCertificates(apiClient, serverPem, logger) } });
    scrape = await shop.scrape();
    expect(scrape.value('pinbridge_certificate_expiry_timestamp_seconds', { certificate: 'api_client' })).toBe(
      Math.floor(apiClient.validTo.getTime() / 1000),
    );
    expect(scrape.value('pinbridge_certificate_expiry_timestamp_seconds', { certificate: 'pos_tls' })).toBe(expected);
    // Nothing of the certificates but their names: no subject, serial or fingerprint.
    expect(scrape.text).not.toMatch(/0A1B2C|127\.0\.0\.1|CN=/i);

    // A file that holds no certificate: logged, left out; none at all: no series.
    shop = await checkout({ sources: { certificates: heldCertificates(undefined, 'not a certificate', logger) } });
    scrape = await shop.scrape();
    expect(scrape.types.get('pinbridge_certificate_expiry_timestamp_seconds')).toBe('gauge');
    expect(scrape.all('pinbridge_certificate_expiry_timestamp_seconds')).toEqual([]);
    expect(warnings).toEqual(['metrics: the POS TLS certificate could not be read for its expiry']);
  });
});

describe('PINPADs', () => {
  it('shows each PINPAD up with its model while attached, down once it is unplugged, and counts the disconnect', async () => {
    const shop = await checkout();
    const first = await shop.addPinpad('PB-METRICS-A', { ...QUICK_CUSTOMER, model: 'PPC930' });
    await shop.addPinpad('PB-METRICS-B', { ...QUICK_CUSTOMER, model: 'GPOS700' });
    // The model as the PINPAD reports it (GIN), the registry's entry.
    const modelOf = (serial: string): string => shop.registry.get(serial).model;
    expect(modelOf('PB-METRICS-A')).toMatch(/^PPC930/);
    let scrape = await shop.scrape();
    expect(scrape.all('pinbridge_pinpad_up')).toEqual([
      { name: 'pinbridge_pinpad_up', labels: { serial: 'PB-METRICS-A', model: modelOf('PB-METRICS-A') }, value: 1 },
      { name: 'pinbridge_pinpad_up', labels: { serial: 'PB-METRICS-B', model: modelOf('PB-METRICS-B') }, value: 1 },
    ]);
    expect(scrape.value('pinbridge_pinpad_busy', { serial: 'PB-METRICS-A' })).toBe(0);
    expect(scrape.all('pinbridge_pinpad_disconnects_total')).toEqual([]);

    first.unplug();
    scrape = await shop.scrape();
    expect(scrape.value('pinbridge_pinpad_up', { serial: 'PB-METRICS-A' })).toBe(0);
    expect(scrape.value('pinbridge_pinpad_up', { serial: 'PB-METRICS-B' })).toBe(1);
    expect(scrape.value('pinbridge_pinpad_busy', { serial: 'PB-METRICS-A' })).toBe(0);
    expect(scrape.all('pinbridge_pinpad_disconnects_total')).toEqual([
      { name: 'pinbridge_pinpad_disconnects_total', labels: { serial: 'PB-METRICS-A' }, value: 1 },
    ]);
  });
});

describe('payments API', () => {
  const attempt = (overrides: Partial<AttemptReport>): AttemptReport => ({
    method: 'GET',
    path: '/v1/marketplaces/mkt-1/transactions/txn-abc123secret',
    ok: true,
    status: 200,
    code: null,
    message: null,
    durationMs: 120,
    timeoutMs: 20_000,
    ...overrides,
  });

  it('names an attempt by ok, the status class of a refusal, or the error code when no answer came', () => {
    expect(apiAttemptOutcome(attempt({}))).toBe('ok');
    expect(apiAttemptOutcome(attempt({ ok: false, status: 404, code: 'not_found' }))).toBe('4xx');
    expect(apiAttemptOutcome(attempt({ ok: false, status: 503, code: 'server_error' }))).toBe('5xx');
    expect(apiAttemptOutcome(attempt({ ok: false, status: null, code: 'timeout' }))).toBe('timeout');
    expect(apiAttemptOutcome(attempt({ ok: false, status: null, code: 'connection_error' }))).toBe('connection_error');
    // A 200 whose body could not be read is not "2xx ok".
    expect(apiAttemptOutcome(attempt({ ok: false, status: 200, code: 'invalid_response' }))).toBe('invalid_response');
    // Whatever is not one of the client's snake_case codes does not become a label value.
    expect(apiAttemptOutcome(attempt({ ok: false, status: null, code: 'ECONNRESET at 10.0.0.7' }))).toBe('error');
    expect(apiAttemptOutcome(attempt({ ok: false, status: null, code: null }))).toBe('error');
  });

  it('times every attempt into its bucket by method and outcome, never by path', async () => {
    const shop = await checkout();
    shop.metrics.recordApiAttempt(attempt({ durationMs: 120 }));
    shop.metrics.recordApiAttempt(
      attempt({ method: 'POST', ok: false, status: 503, code: 'server_error', message: 'down', durationMs: 40 }),
    );
    shop.metrics.recordApiAttempt(
      attempt({ method: 'POST', ok: false, status: null, code: 'timeout', message: 'slow', durationMs: 20_000 }),
    );
    const scrape = await shop.scrape();
    const histogram = 'pinbridge_api_request_duration_seconds';
    expect(scrape.value(`${histogram}_bucket`, { method: 'GET', outcome: 'ok', le: '0.1' })).toBe(0);
    expect(scrape.value(`${histogram}_bucket`, { method: 'GET', outcome: 'ok', le: '0.25' })).toBe(1);
    expect(scrape.value(`${histogram}_sum`, { method: 'GET', outcome: 'ok' })).toBeCloseTo(0.12);
    expect(scrape.value(`${histogram}_count`, { method: 'POST', outcome: '5xx' })).toBe(1);
    expect(scrape.value(`${histogram}_bucket`, { method: 'POST', outcome: 'timeout', le: '10' })).toBe(0);
    expect(scrape.value(`${histogram}_bucket`, { method: 'POST', outcome: 'timeout', le: '20' })).toBe(1);
    expect(scrape.text).not.toContain('txn-abc123secret');
    expect(scrape.text).not.toContain('path=');
  });

  it('exposes no api_up sample while the health is unknown, 0 when down (counting the outage) and 1 when up', async () => {
    const shop = await checkout();
    let scrape = await shop.scrape();
    expect(scrape.types.get('pinbridge_api_up')).toBe('gauge');
    expect(scrape.all('pinbridge_api_up')).toEqual([]);
    expect(scrape.value('pinbridge_api_outages_total')).toBe(0);

    shop.apiHealth.record(
      attempt({ ok: false, status: null, code: 'connection_error', message: 'refused', durationMs: 3 }),
    );
    scrape = await shop.scrape();
    expect(scrape.value('pinbridge_api_up')).toBe(0);
    expect(scrape.value('pinbridge_api_outages_total')).toBe(1);

    shop.apiHealth.record(attempt({}));
    // Down again: a second outage, even if no scrape saw it.
    shop.apiHealth.record(attempt({ ok: false, status: 502, code: 'server_error', message: 'bad gateway' }));
    shop.apiHealth.record(attempt({}));
    scrape = await shop.scrape();
    expect(scrape.value('pinbridge_api_up')).toBe(1);
    expect(scrape.value('pinbridge_api_outages_total')).toBe(2);
  });
});

describe('print jobs, POS sessions, the agent', () => {
  /** A printer that refuses its first job (paper out), then prints. */
  class FlakyPrinter implements DocumentPrinter {
    refusals = 1;
    async print(_document: PrintDocument): Promise<void> {
      await Promise.resolve();
      if (this.refusals-- > 0) throw Object.assign(new Error('paper out'), { code: 'PAPER_OUT' });
    }
  }

  it('counts print job state changes by the state entered', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-metrics-print-'));
    const journal = PrintJournal.open(join(dir, 'print-jobs.db'));
    const printer = new FlakyPrinter();
    const queue = new PrintQueue({ journal, printer: () => printer, retryBaseMs: 5, retryMaxMs: 20 });
    closers.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => journal.close(),
      () => queue.close(),
    );
    const shop = await checkout({ sources: { printQueue: queue } });
    const printed = new Promise<PrintJob>((resolve) =>
      queue.on('job', (job) => job.state === 'printed' && resolve(job)),
    );
    queue.submit('default', 'payment:whatever:customer', {
      title: 'Comprovante',
      blocks: [{ kind: 'text', text: 'VIA DO CLIENTE' }],
    });
    await printed;
    const scrape = await shop.scrape();
    // queued (new) → printing → queued (waiting after PAPER_OUT) → printing → printed.
    expect(
      Object.fromEntries(scrape.all('pinbridge_print_jobs_total').map((sample) => [sample.labels.state, sample.value])),
    ).toEqual({
      queued: 2,
      printing: 2,
      printed: 1,
      failed: 0,
      cancelled: 0,
    });
    expect(scrape.text).not.toContain('whatever');
  });

  it('reads the POS sessions at each scrape, and says the version and mode', async () => {
    let sessions = 2;
    const shop = await checkout({ sources: { posSessions: () => sessions, mode: 'live', version: '9.8.7' } });
    expect((await shop.scrape()).value('pinbridge_pos_sessions')).toBe(2);
    sessions = 3;
    const scrape = await shop.scrape();
    expect(scrape.value('pinbridge_pos_sessions')).toBe(3);
    expect(scrape.all('pinbridge_info')).toEqual([
      { name: 'pinbridge_info', labels: { version: '9.8.7', mode: 'live' }, value: 1 },
    ]);
    expect(shop.metrics.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
  });

  it('exposes the process metrics under the pinbridge_ prefix, and no family of a source it was not given', async () => {
    const shop = await checkout();
    // The counter is CPU time since the registry was made: spend some first, or
    // a quick machine scrapes 0 (it did, now and then).
    spendCpu(2_000);
    const scrape = await shop.scrape();
    expect(scrape.value('pinbridge_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(scrape.value('pinbridge_nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(scrape.types.has('pinbridge_print_jobs_total')).toBe(false);
    expect(scrape.types.has('pinbridge_pos_sessions')).toBe(false);
    expect(scrape.types.has('pinbridge_disk_free_bytes')).toBe(false);
    expect(scrape.types.has('pinbridge_journal_reserve_bytes')).toBe(false);
    expect(scrape.types.has('pinbridge_certificate_expiry_timestamp_seconds')).toBe(false);
    // Every family is the agent's, and documented.
    for (const [name, help] of scrape.help) {
      expect(name).toMatch(/^pinbridge_/);
      expect(help.length).toBeGreaterThan(10);
    }
  });

  it('logs a source that fails and still answers the scrape', async () => {
    const shop = await checkout({
      sources: {
        posSessions: () => {
          throw new Error('the POS server is gone');
        },
      },
    });
    const scrape = await shop.scrape();
    expect(scrape.types.get('pinbridge_pos_sessions')).toBe('gauge');
    expect(scrape.all('pinbridge_pos_sessions')).toEqual([]);
    expect(scrape.value('pinbridge_info', { mode: 'training' })).toBe(1);
    expect(shop.warnings).toContain('metrics: could not read a source');
  });
});

describe('close', () => {
  it('unsubscribes from every source: later sales, disconnects, outages and print jobs are not counted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-metrics-close-'));
    const journal = PrintJournal.open(join(dir, 'print-jobs.db'));
    const queue = new PrintQueue({ journal, printer: () => ({ print: () => Promise.resolve() }) });
    closers.push(
      () => rmSync(dir, { recursive: true, force: true }),
      () => journal.close(),
      () => queue.close(),
    );
    const listeners = (): number[] => [
      shop.rig.engine.listenerCount('progress'),
      shop.rig.engine.listenerCount('terminal'),
      shop.registry.listenerCount('disconnected'),
      shop.apiHealth.listenerCount('change'),
      queue.listenerCount('job'),
    ];
    const shop = await checkout({ sources: { printQueue: queue } });
    const pinpad = await shop.addPinpad(SERIAL);
    const subscribed = listeners();

    shop.metrics.close();
    // The rig's own listeners and the registry's stay; the metrics' five are gone.
    expect(listeners().map((count, i) => subscribed[i]! - count)).toEqual([1, 1, 1, 1, 1]);
    const sale = await shop.rig.engine.start(saleParams('metrics-after-close'));
    expect(sale.status).toBe('approved');
    shop.metrics.recordApiAttempt({
      method: 'GET',
      path: '/v1/x',
      ok: true,
      status: 200,
      code: null,
      message: null,
      durationMs: 5,
      timeoutMs: 20_000,
    });
    queue.submit('default', 'payment:after-close:customer', { title: 'x', blocks: [] });
    await queue.idle();
    pinpad.unplug();

    const scrape = await shop.scrape();
    expect(scrape.all('pinbridge_payments_total').every((sample) => sample.value === 0)).toBe(true);
    expect(scrape.all('pinbridge_api_request_duration_seconds_count')).toEqual([]);
    expect(scrape.all('pinbridge_print_jobs_total').every((sample) => sample.value === 0)).toBe(true);
    expect(scrape.all('pinbridge_pinpad_disconnects_total')).toEqual([]);
    expect(scrape.value('pinbridge_api_outages_total')).toBe(0);
  });
});

/** Busy-waits until this process has spent `micros` more microseconds of user CPU. */
function spendCpu(micros: number): void {
  const start = process.cpuUsage().user;
  let sink = 0;
  while (process.cpuUsage().user - start < micros) sink = Math.sqrt(sink + 1);
}
