/**
 * A chain's fleet at scale, simulated (issue 37): N checkouts in this one process, each a
 * FleetEmitter (an agent-shaped registry, fleet-emitter.ts) pushed by the real telemetry code
 * (startTelemetry: its on-disk queue, TelemetryPusher, seriesOf, remoteWriteBody) to the real
 * Prometheus (/usr/bin/prometheus, remote-write receiver, test/helpers/prometheus.ts) on 127.0.0.1.
 *
 * Time is compressed: the agents' real push interval (60 s) becomes `intervalMs`, and each
 * checkout's sales advance by the same factor, so a run of `durationMs` stands for
 * durationMs × (60 s / intervalMs) of a real fleet — at that factor × the real load on
 * Prometheus (what is measured is per sample and per series, then scaled back in docs/fleet.md).
 * The checkouts start staggered over one interval, as a fleet's agents do (they started at
 * different times).
 *
 * Reported:
 * - the fleet: checkouts, series per checkout, pushes, pushes failed (the pusher's "push failed"
 *   warnings) and batches dropped (pinbridge_telemetry_dropped_total of every checkout, summed),
 *   batches still queued at the end;
 * - Prometheus: samples/s appended (prometheus_tsdb_head_samples_appended_total, its own
 *   counter), head series, the series and checkouts a query finds, its CPU (seconds, and % of
 *   one core) and RSS (/proc/<pid>/status) and its storage on disk (WAL and head chunks), per
 *   sample and per series;
 * - the emitter: what one push costs it — collect + seriesOf + remoteWriteBody, median µs and
 *   body bytes, beside a bare JSON.stringify of the same series (µs and bytes) measured in the same
 *   run — and the whole process's CPU per push during the run (HTTP and queue files included).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startTelemetry, type Telemetry } from '../../main/telemetry/index.js';
import { remoteWriteBody } from '../../main/telemetry/remote-write.js';
import { seriesOf } from '../../main/telemetry/series.js';
import { resolveTelemetrySettings } from '../../main/telemetry/settings.js';
import { startPrometheus, type RunningPrometheus } from '../helpers/prometheus.js';
import { FleetEmitter } from './fleet-emitter.js';
import { round, sample } from './harness.js';

/** The agents' real push interval, which `intervalMs` stands for. */
const REAL_INTERVAL_S = 60;

export interface FleetOptions {
  readonly checkouts: number;
  /** The compressed push interval. */
  readonly intervalMs: number;
  /** How long the fleet pushes. */
  readonly durationMs: number;
  /** Repetitions of the encode measurement. */
  readonly encodeSamples: number;
}

const FULL: FleetOptions = { checkouts: 1_000, intervalMs: 10_000, durationMs: 90_000, encodeSamples: 300 };

/** Sum of every line of `name` (with or without labels) in Prometheus's own /metrics. */
async function ownMetric(prometheus: RunningPrometheus, name: string): Promise<number> {
  const text = await (await fetch(`${prometheus.url}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** A number from /proc/<pid>/status (kB lines, as bytes). */
function procStatusBytes(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((candidate) => candidate.startsWith(`${field}:`));
  return line === undefined ? Number.NaN : Number(/(\d+)/.exec(line)?.[1] ?? Number.NaN) * 1024;
}

/** utime + stime of a process, seconds (/proc/<pid>/stat, in clock ticks of 1/100 s). */
function procCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function folderBytes(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    bytes += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return bytes;
}

async function scalar(prometheus: RunningPrometheus, expr: string): Promise<number> {
  const answer = await prometheus.query(expr);
  const first = answer.data?.result[0] as { value?: [number, string] } | undefined;
  return Number(first?.value?.[1] ?? 0);
}

/** One push's in-process cost, beside JSON.stringify of the same series. */
async function encodeCost(samples: number): Promise<Record<string, number>> {
  const emitter = new FleetEmitter(1);
  emitter.advance(3_600);
  const identity = { job: 'pinbridge', chain: 'chain-00', store: 'store-0000', checkout: 'checkout-00000' };
  const metrics = await emitter.registry.getMetricsAsJSON();
  const series = seriesOf(metrics, identity, Date.now());
  const push = await sample(
    async () => remoteWriteBody(seriesOf(await emitter.registry.getMetricsAsJSON(), identity, Date.now())),
    samples,
  );
  const collect = await sample(() => emitter.registry.getMetricsAsJSON(), samples);
  const encode = await sample(() => remoteWriteBody(seriesOf(metrics, identity, Date.now())), samples);
  const json = await sample(() => JSON.stringify(series), samples);
  return {
    seriesPerPush: series.length,
    collectEncodeMedianUs: round(push.medianMs * 1000, 0),
    collectMedianUs: round(collect.medianMs * 1000, 0),
    seriesOfAndRemoteWriteBodyMedianUs: round(encode.medianMs * 1000, 0),
    jsonStringifyMedianUs: round(json.medianMs * 1000, 0),
    encodeVsJsonRatio: round(encode.medianMs / json.medianMs, 2),
    bodyBytes: remoteWriteBody(series).byteLength,
    jsonBytes: Buffer.byteLength(JSON.stringify(series)),
  };
}

export async function benchFleet(options: FleetOptions = FULL): Promise<Record<string, unknown>> {
  const { checkouts, intervalMs, durationMs } = options;
  const compression = (REAL_INTERVAL_S * 1000) / intervalMs;
  const perPush = await encodeCost(options.encodeSamples);

  const prometheus = await startPrometheus({ remoteWrite: true });
  const queues = mkdtempSync(join(tmpdir(), 'pinbridge-fleet-'));
  const emitters: FleetEmitter[] = [];
  const fleet: Telemetry[] = [];
  const starts: NodeJS.Timeout[] = [];
  const bodyBytes: number[] = [];
  let collects = 0;
  let failures = 0;
  const logger = {
    warn: (_fields: Record<string, unknown>, message: string): void => {
      if (message.startsWith('telemetry push failed')) failures += 1;
    },
    info: (): void => {},
  };
  try {
    const samplesBefore = await ownMetric(prometheus, 'prometheus_tsdb_head_samples_appended_total');
    const prometheusCpuBefore = procCpuSeconds(prometheus.pid);
    const rssIdle = procStatusBytes(prometheus.pid, 'VmRSS');
    const cpuBefore = process.cpuUsage();
    const started = performance.now();

    for (let i = 0; i < checkouts; i++) {
      const emitter = new FleetEmitter(i + 1);
      emitters.push(emitter);
      // Counted here, where the pusher reads the registry (one collect per push).
      const getMetricsAsJSON = emitter.registry.getMetricsAsJSON.bind(emitter.registry);
      emitter.registry.getMetricsAsJSON = () => {
        collects += 1;
        return getMetricsAsJSON();
      };
      const settings = resolveTelemetrySettings(
        {
          enabled: true,
          endpoint: prometheus.writeUrl,
          interval_s: intervalMs / 1000,
          timeout_s: 10,
        },
        {
          chain: `chain-${String(i % 10).padStart(2, '0')}`,
          store: `store-${String(Math.floor(i / 10)).padStart(4, '0')}`,
          checkout: `checkout-${String(i).padStart(5, '0')}`,
        },
      );
      starts.push(
        setTimeout(
          () => {
            const telemetry = startTelemetry({
              registry: emitter.registry,
              settings,
              dir: join(queues, String(i)),
              logger,
            });
            const push = telemetry.queue.push.bind(telemetry.queue);
            telemetry.queue.push = (body) => {
              bodyBytes.push(body.byteLength);
              push(body);
            };
            fleet.push(telemetry);
          },
          (i * intervalMs) / checkouts,
        ),
      );
    }
    // The sales of one simulated second-step for every checkout, at the compressed pace.
    const stepMs = 1_000;
    const sales = setInterval(() => {
      for (const emitter of emitters) emitter.advance((stepMs / 1000) * compression);
    }, stepMs);
    await sleep(durationMs);
    clearInterval(sales);
    for (const start of starts) clearTimeout(start);
    await Promise.all(fleet.map((telemetry) => telemetry.stop()));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    // The last pushes are in: Prometheus's counters now.
    const samplesAppended =
      (await ownMetric(prometheus, 'prometheus_tsdb_head_samples_appended_total')) - samplesBefore;
    const prometheusCpu = procCpuSeconds(prometheus.pid) - prometheusCpuBefore;
    const headSeries = await ownMetric(prometheus, 'prometheus_tsdb_head_series');
    const rss = procStatusBytes(prometheus.pid, 'VmRSS');
    const rssPeak = procStatusBytes(prometheus.pid, 'VmHWM');
    const storage = folderBytes(prometheus.dataDir);
    const seriesFound = await scalar(prometheus, 'count({job="pinbridge"})');
    const checkoutsFound = await scalar(prometheus, 'count(count by (chain, store, checkout) ({job="pinbridge"}))');

    let dropped = 0;
    let queued = 0;
    for (const [index, telemetry] of fleet.entries()) {
      queued += telemetry.queue.batches;
      const metrics = await emitters[index]!.registry.getMetricsAsJSON();
      const droppedMetric = metrics.find((metric) => metric.name === 'pinbridge_telemetry_dropped_total');
      for (const value of droppedMetric?.values ?? []) dropped += value.value;
    }
    const sortedBytes = bodyBytes.toSorted((a, b) => a - b);
    const pushes = collects;
    return {
      timeScale: {
        realIntervalS: REAL_INTERVAL_S,
        intervalMs,
        compression,
        runS: round(seconds, 1),
        standsForRealMinutes: round((seconds * compression) / 60, 1),
      },
      checkouts,
      checkoutsFound,
      /** As Prometheus holds them: the emitter's series, the pusher's own (dropped, queue) and the GC kinds seen. */
      seriesPerCheckout: round(seriesFound / checkoutsFound, 1),
      seriesFound,
      pushes,
      pushesPerS: round(pushes / seconds, 1),
      pushFailures: failures,
      batchesDropped: dropped,
      batchesQueuedAtEnd: queued,
      prometheus: {
        samplesAppended,
        samplesPerS: round(samplesAppended / seconds, 0),
        headSeries,
        cpuS: round(prometheusCpu, 2),
        cpuPercentOfOneCore: round((prometheusCpu / seconds) * 100, 1),
        cpuUsPerSample: round((prometheusCpu * 1e6) / samplesAppended, 2),
        rssIdleMiB: round(rssIdle / 2 ** 20, 1),
        rssMiB: round(rss / 2 ** 20, 1),
        rssPeakMiB: round(rssPeak / 2 ** 20, 1),
        rssPerHeadSeriesKiB: round((rss - rssIdle) / headSeries / 1024, 2),
        storageMiB: round(storage / 2 ** 20, 1),
        storageBytesPerSample: round(storage / samplesAppended, 2),
      },
      emitter: {
        ...perPush,
        medianBytesOnWire: sortedBytes[Math.floor(sortedBytes.length / 2)] ?? 0,
        processCpuUsPerPush: round((cpu.user + cpu.system) / pushes, 0),
        processCpuPercentOfOneCore: round(((cpu.user + cpu.system) / 1e6 / seconds) * 100, 1),
      },
    };
  } finally {
    for (const start of starts) clearTimeout(start);
    await Promise.all(fleet.map((telemetry) => telemetry.stop()));
    await prometheus.stop();
    rmSync(queues, { recursive: true, force: true });
  }
}

/** `--quick`: 20 checkouts pushing every 500 ms for 3 s. */
export const QUICK_FLEET: FleetOptions = { checkouts: 20, intervalMs: 500, durationMs: 3_000, encodeSamples: 20 };
