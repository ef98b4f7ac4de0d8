/**
 * Traces and logs by OTLP/HTTP, end to end on this machine: the real engine (sandbox, journal,
 * simulated PINPAD) runs sales, the core's PaymentTraceRecorder hands each to the exporter, the
 * agent's logger tees its warnings into it, and the pushers POST to a receiver on 127.0.0.1 whose
 * bodies are read with the OpenTelemetry project's own definitions (test/helpers/otlp-receiver.ts:
 * no real OTLP receiver installs from Debian or npm here).
 *
 * What a chain's collector gets: one trace per payment — a root `payment` span and one child per
 * step, parent and child ids right, times in order — and the warning/error lines, under the
 * checkout's resource (service, version, chain, store, checkout, PINPAD serial); never card data,
 * a CPF, the POS's reference or the transaction id. And what it does not get while it is away:
 * a 503 with Retry-After or no receiver keeps the queue bounded, drops the oldest batch first,
 * keeps the rest across a restart — and a sale never waits for any of it.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../../drivers/simulator/index.js';
import { PaymentTraceRecorder } from '../../../main/core/payment-traces.js';
import { createLogger, teeLogLines, type Logger } from '../../../main/log.js';
import { maskSupportText } from '../../../main/support/mask.js';
import { startOtlp, type OtlpExport } from '../../../main/telemetry/otlp-exporter.js';
import { resolveTelemetrySettings, type TelemetrySettings } from '../../../main/telemetry/settings.js';
import { artifactsDir, scanText } from '../../helpers/card-data-scan.js';
import {
  attributesOf,
  decodeLogs,
  decodeTraces,
  otlpReceiver,
  type DecodedSpan,
  type OtlpReceiver,
} from '../../helpers/otlp-receiver.js';
import { engineRig, saleParams, type EngineRig } from '../core/engine-rig.js';

const CPF = '52998224725';
const SERIAL = 'PB-OTLP-0001';
const TOKEN = 's3cr3t-otlp-token';
const PLACE = { chain: 'acme', store: 'sp-01', checkout: 'pdv-3' } as const;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Checkout {
  readonly rig: EngineRig;
  readonly dir: string;
  readonly registry: Registry;
  /** The agent's logger: stderr and a file, as `pinbridge start` makes it. */
  readonly logger: Logger;
  readonly logFile: string;
  /** Starts the exporter (again) on the checkout's folders, the recorder and the log tee with it. */
  start(otlp: Partial<NonNullable<TelemetrySettings['otlp']>>, more?: Partial<TelemetrySettings>): OtlpExport;
}

async function checkout(): Promise<Checkout> {
  const rig = await engineRig({
    simulator: { timeScale: 0.05, autoCustomer: { delayMs: 5, card: 'visaCredit', cpf: CPF } },
  });
  cleanups.push(() => rig.close());
  await rig.addPinpad(SERIAL);
  const dir = mkdtempSync(join(artifactsDir(), 'otlp-'));
  const logFile = join(dir, 'agent.log');
  const logger = createLogger({ level: 'info', copyTo: logFile, stderrLevel: 'fatal', name: 'pinbridge' });
  const registry = new Registry();
  return {
    rig,
    dir,
    registry,
    logger,
    logFile,
    start(otlp, more = {}) {
      const settings = resolveTelemetrySettings(
        {
          enabled: true,
          // No round of the pushers' own during a spec: each spec pushes when it says so.
          interval_s: 3600,
          otlp: { endpoint: 'http://127.0.0.1:9', bearer_token: TOKEN, ...otlp },
          ...more,
        },
        PLACE,
      );
      const exporter = startOtlp({
        settings: { ...settings, otlp: settings.otlp! },
        dir: (signal) => join(dir, `telemetry-${signal}`),
        identity: { version: '9.8.7-test', ...PLACE, mode: 'training' },
        logger,
        mask: maskSupportText,
        pinpads: () => rig.engine.terminals().map((terminal) => terminal.serial),
        registry,
        userAgent: 'pinbridge/9.8.7-test',
      });
      const recorder = exporter.traces && new PaymentTraceRecorder(rig.engine, exporter.traces);
      const untee = exporter.logs && teeLogLines(logger, 'warn', exporter.logs);
      if (exporter.logs !== undefined) expect(untee).toBeTypeOf('function');
      const stop = exporter.stop.bind(exporter);
      let stopped = false;
      const stopAll = async (): Promise<void> => {
        if (stopped) return;
        stopped = true;
        recorder?.close();
        untee?.();
        await stop();
      };
      cleanups.push(stopAll);
      return Object.assign(exporter, { stop: stopAll });
    },
  };
}

async function receiver(): Promise<OtlpReceiver> {
  const started = await otlpReceiver();
  cleanups.push(() => started.close());
  return started;
}

/** Nothing of a customer or a card in what was sent. */
function expectNoCustomerData(body: Buffer, forbidden: readonly string[]): void {
  const text = body.toString('latin1');
  expect(scanText(text)).toEqual([]);
  for (const card of Object.values(TEST_CARDS)) expect(text).not.toContain(card.pan);
  expect(text).not.toContain(CPF);
  for (const value of forbidden) expect(text).not.toContain(value);
}

describe('OTLP export', () => {
  it("sends a payment's trace and the log's warnings under the checkout's resource, read with OpenTelemetry's definitions", async () => {
    const shop = await checkout();
    const collector = await receiver();
    const otlp = shop.start({ endpoint: collector.url });
    const outcome = await shop.rig.engine.start(saleParams('otlp-sale', { askTaxId: true }));
    expect(outcome).toMatchObject({ status: 'approved', customerTaxId: CPF });
    const pan = TEST_CARDS.visaCredit.pan;
    shop.logger.warn(
      { reference: outcome.referenceId, customer: `CPF ${CPF}`, attempt: 2 },
      `receipt not printed for card ${pan}`,
    );
    shop.logger.info({}, 'an info line stays on the checkout');
    shop.logger.error({ err: 'ENOSPC' }, 'the journal disk is full');

    await otlp.pushNow();
    const paths = collector.received.map((request) => request.path).toSorted();
    expect(paths).toEqual(['/v1/logs', '/v1/traces']);
    for (const request of collector.received) {
      expect(request.headers['content-type']).toBe('application/x-protobuf');
      expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(request.headers['user-agent']).toBe('pinbridge/9.8.7-test');
      expectNoCustomerData(request.body, [outcome.referenceId, outcome.transactionId!, outcome.paymentId, TOKEN]);
    }
    const resource = {
      'service.name': 'pinbridge',
      'service.version': '9.8.7-test',
      'service.namespace': 'acme',
      'service.instance.id': 'acme/sp-01/pdv-3',
      'deployment.environment.name': 'training',
      'pinbridge.chain': 'acme',
      'pinbridge.store': 'sp-01',
      'pinbridge.checkout': 'pdv-3',
      'pinbridge.pinpad.serial': SERIAL,
    };

    // The trace: one root span and one per step, in one trace, the steps inside the payment.
    const traceBody = collector.received.find((request) => request.path === '/v1/traces')!.body;
    // Not even the masked card: the log keeps what it logged (masked), the trace has no card at all.
    expect(traceBody.toString('latin1')).not.toContain(outcome.card!.maskedPan.slice(-4));
    const traces = decodeTraces(traceBody);
    expect(traces.resourceSpans).toHaveLength(1);
    const [group] = traces.resourceSpans!;
    expect(attributesOf(group!.resource?.attributes)).toEqual(resource);
    expect(group!.scopeSpans?.[0]?.scope).toEqual({ name: 'pinbridge', version: '9.8.7-test' });
    const spans = group!.scopeSpans![0]!.spans!;
    const [root, ...steps] = spans as [DecodedSpan, ...DecodedSpan[]];
    expect(root.name).toBe('payment');
    expect(root.parentSpanId).toBeUndefined();
    expect(root.traceId).toHaveLength(16);
    expect(root.spanId).toHaveLength(8);
    expect(attributesOf(root.attributes)).toEqual({
      'pinbridge.payment.type': 'credit',
      'pinbridge.payment.source': 'pos',
      'pinbridge.payment.state': 'confirmed',
    });
    expect(root.status?.code ?? 0).toBe(0);
    expect(steps.map((span) => span.name)).toEqual(['create_transaction', 'read_card', 'authorize', 'confirm']);
    const nanos = (value: string): bigint => BigInt(value);
    let previousEnd = nanos(root.startTimeUnixNano);
    for (const step of steps) {
      expect(step.traceId).toEqual(root.traceId);
      expect(step.parentSpanId).toEqual(root.spanId);
      expect(step.spanId).not.toEqual(root.spanId);
      expect(attributesOf(step.attributes)).toMatchObject({ 'pinbridge.step.completed': true });
      expect(nanos(step.startTimeUnixNano)).toBeGreaterThanOrEqual(previousEnd);
      expect(nanos(step.endTimeUnixNano)).toBeGreaterThanOrEqual(nanos(step.startTimeUnixNano));
      previousEnd = nanos(step.endTimeUnixNano);
    }
    expect(nanos(root.endTimeUnixNano)).toBeGreaterThanOrEqual(previousEnd);
    expect(new Set(spans.map((span) => span.spanId.toString('hex'))).size).toBe(5);
    // The agent's own log says which payment got which trace (and only there: the trace names no sale).
    const local = readFileSync(shop.logFile, 'utf8')
      .split('\n')
      .filter((line) => line.includes('payment traced'))
      .map((line) => JSON.parse(line) as { payment: string; trace_id: string });
    expect(local).toEqual([
      expect.objectContaining({ payment: outcome.paymentId, trace_id: root.traceId.toString('hex') }),
    ]);

    // The logs: the warning and the error, masked, without the sale's reference; not the info line.
    const logs = decodeLogs(collector.received.find((request) => request.path === '/v1/logs')!.body);
    const [logGroup] = logs.resourceLogs!;
    expect(attributesOf(logGroup!.resource?.attributes)).toEqual(resource);
    const records = logGroup!.scopeLogs![0]!.logRecords!;
    expect(records.map((record) => [record.severityText, record.severityNumber, record.body?.stringValue])).toEqual([
      ['WARN', 13, `receipt not printed for card ${pan.slice(0, 6)}******${pan.slice(-4)}`],
      ['ERROR', 17, 'the journal disk is full'],
    ]);
    expect(attributesOf(records[0]!.attributes)).toEqual({
      'pinbridge.logger': 'pinbridge',
      customer: `CPF ${CPF.slice(0, 3)}********`,
      attempt: 2,
    });
    expect(attributesOf(records[1]!.attributes)).toEqual({ 'pinbridge.logger': 'pinbridge', err: 'ENOSPC' });
    expect(BigInt(records[0]!.timeUnixNano)).toBeLessThanOrEqual(BigInt(records[1]!.timeUnixNano));
    // Sent: nothing waits any more.
    expect([...otlp.queues.values()].map((queue) => queue.batches)).toEqual([0, 0]);
  });

  it('sends only what `send` asks for, and logs from `log_level` up', async () => {
    const shop = await checkout();
    const collector = await receiver();
    const otlp = shop.start({ endpoint: `${collector.url}/`, send: { traces: false }, log_level: 'error' });
    expect(otlp.traces).toBeUndefined();
    expect((await shop.rig.engine.start(saleParams('otlp-logs-only'))).status).toBe('approved');
    shop.logger.warn({}, 'a warning stays on the checkout');
    shop.logger.error({}, 'an error goes');
    await otlp.pushNow();
    expect(collector.received.map((request) => request.path)).toEqual(['/v1/logs']);
    const records = decodeLogs(collector.received[0]!.body).resourceLogs![0]!.scopeLogs![0]!.logRecords!;
    expect(records.map((record) => record.body?.stringValue)).toEqual(['an error goes']);
  });

  it('keeps at most max_batches while the receiver answers 503, drops the oldest first, and sends the rest after a restart', async () => {
    const shop = await checkout();
    const collector = await receiver();
    collector.answer = () => ({ status: 503, headers: { 'Retry-After': '3600' } });
    const settings = { endpoint: collector.url, send: { traces: false } };
    const first = shop.start(settings, { queue: { max_batches: 2 } });
    await startedRound();
    for (const round of [1, 2, 3]) {
      shop.logger.warn({ round }, `warning of round ${round}`);
      await first.pushNow();
    }
    // The first batch was tried once; Retry-After holds the others back (no request meanwhile).
    expect(collector.received).toHaveLength(1);
    const failure = readFileSync(shop.logFile, 'utf8')
      .split('\n')
      .find((line) => line.includes('telemetry push failed (OTLP logs)'));
    expect(failure).toContain('"reason":"HTTP 503"');
    // Three batches, two kept: the first was dropped. (The push's own warning is not among them.)
    const queue = first.queues.get('logs')!;
    expect(queue.batches).toBe(2);
    const metrics = await shop.registry.getMetricsAsJSON();
    const dropped = metrics.find((metric) => metric.name === 'pinbridge_telemetry_dropped_total')!.values;
    expect(dropped.find((value) => value.labels.signal === 'logs' && value.labels.reason === 'queue_full')?.value).toBe(
      1,
    );
    const queued = metrics.find((metric) => metric.name === 'pinbridge_telemetry_queue_batches')!.values;
    expect(queued).toEqual([expect.objectContaining({ labels: { signal: 'logs' }, value: 2 })]);
    shop.logger.warn({ round: 4 }, 'warning held in memory at stop');
    await first.stop();
    // On disk, for the next start: the stop queued what memory held, which dropped the oldest again.
    expect(readdirSync(join(shop.dir, 'telemetry-logs')).filter((name) => name.endsWith('.batch'))).toHaveLength(2);

    // The receiver is back; a new start sends what the last one left, oldest first.
    collector.received.length = 0;
    collector.answer = () => ({ status: 200 });
    const arrived = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (collector.received.length >= 2) {
          clearInterval(check);
          resolve();
        }
      }, 20);
    });
    const second = shop.start(settings, { queue: { max_batches: 5 } });
    await arrived;
    const rounds = collector.received.map((request) =>
      decodeLogs(request.body).resourceLogs![0]!.scopeLogs![0]!.logRecords!.map((record) => record.body?.stringValue),
    );
    expect(rounds).toEqual([['warning of round 3'], ['warning held in memory at stop']]);
    await second.pushNow();
    expect(second.queues.get('logs')!.batches).toBe(0);
  });

  it('never makes a sale wait: a receiver that does not answer and a queue folder that cannot be written cost telemetry only', async () => {
    const shop = await checkout();
    const collector = await receiver();
    collector.answer = () => 'hang';
    // A "disk" that refuses the queue's files: their folder would be inside a regular file.
    const blocker = join(shop.dir, 'not-a-folder');
    writeFileSync(blocker, '');
    const otlp = startBlocked(shop, collector.url, blocker);

    expect((await shop.rig.engine.start(saleParams('otlp-first'))).status).toBe('approved');
    const order: string[] = [];
    let pushSettled = false;
    const pushing = otlp.pushNow().then(() => {
      pushSettled = true;
    });
    await collector.next();
    order.push('the push is under way and unanswered');
    const second = await shop.rig.engine.start(saleParams('otlp-second'));
    order.push(`the next sale ended ${second.status}`);
    expect(order).toEqual(['the push is under way and unanswered', 'the next sale ended approved']);
    expect(pushSettled).toBe(false);
    // The first trace's batch waits in memory (its folder refused it); the second trace waits for the next round.
    expect(otlp.queues.get('traces')!.batches).toBe(1);
    expect(otlp.traces!.pending).toBe(1);
    expect(existsSync(join(blocker, 'traces'))).toBe(false);
    expect(readFileSync(shop.logFile, 'utf8')).toContain('the telemetry queue cannot write to its folder');
    await otlp.stop();
    await pushing;
  });
});

/**
 * Lets the pushers' first round (each starts with one, on a timer of 0) pass, so a spec's own
 * rounds are the only ones.
 */
const startedRound = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 20));

/** The exporter with its queue folders under a regular file (every write fails with ENOTDIR). */
function startBlocked(shop: Checkout, endpoint: string, blocker: string): OtlpExport {
  const settings = resolveTelemetrySettings(
    {
      enabled: true,
      interval_s: 3600,
      timeout_s: 60,
      otlp: { endpoint, send: { logs: false } },
    },
    PLACE,
  );
  const exporter = startOtlp({
    settings: { ...settings, otlp: settings.otlp! },
    dir: (signal) => join(blocker, signal),
    identity: { version: '9.8.7-test', ...PLACE, mode: 'training' },
    logger: shop.logger,
    mask: maskSupportText,
  });
  const recorder = new PaymentTraceRecorder(shop.rig.engine, exporter.traces!);
  cleanups.push(async () => {
    recorder.close();
    await exporter.stop();
  });
  return exporter;
}
