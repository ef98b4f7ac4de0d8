/**
 * The pushers' own health, in the agent's metrics registry: `pinbridge_telemetry_dropped_total
 * {signal,reason}` and `pinbridge_telemetry_queue_batches` / `_bytes{signal}` for each signal
 * pushed (metrics by remote write, traces and logs by OTLP), registered once per registry.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { BatchQueue, DropReason } from './queue.js';

/** What is pushed: a queue folder and a `signal` label each. */
export type TelemetrySignal = 'metrics' | 'traces' | 'logs';

const DROP_REASONS: readonly DropReason[] = ['queue_full', 'rejected', 'unreadable'];

/** The pushers' health metrics in one registry, shared by the signals pushed. */
export interface QueueHealth {
  /** Counts the drops of `signal` (every reason at 0 from now): the queue's onDrop. */
  dropCounter(signal: TelemetrySignal): (reason: DropReason) => void;
  /** Exposes the queue's size under `signal`. */
  watch(signal: TelemetrySignal, queue: BatchQueue): void;
}

const healthOf = new WeakMap<Registry, QueueHealth>();

/** The health metrics of `registry` (registered once, whichever signal starts first). */
export function queueHealth(registry: Registry): QueueHealth {
  const known = healthOf.get(registry);
  if (known !== undefined) return known;
  const registers = [registry];
  const queues = new Map<TelemetrySignal, BatchQueue>();
  const dropped = new Counter({
    name: 'pinbridge_telemetry_dropped_total',
    help:
      'Telemetry batches dropped unsent, by signal (metrics, traces, logs) and reason: queue_full (the oldest, to make room: the ' +
      'endpoint was unreachable too long; for traces and logs also one trace or log line the memory between two batches had no room ' +
      'for), rejected (the receiver called it bad: HTTP 4xx; OTLP: also a 5xx other than 502, 503, 504), unreadable (its file could ' +
      'not be read back).',
    labelNames: ['signal', 'reason'],
    registers,
  });
  const sizes = (read: (queue: BatchQueue) => number) =>
    function (this: Gauge<'signal'>): void {
      for (const [signal, queue] of queues) this.set({ signal }, read(queue));
    };
  new Gauge({
    name: 'pinbridge_telemetry_queue_batches',
    help: 'Telemetry batches waiting to be pushed, by signal (on disk, or in memory while the disk refuses them).',
    labelNames: ['signal'],
    registers,
    collect: sizes((queue) => queue.batches),
  });
  new Gauge({
    name: 'pinbridge_telemetry_queue_bytes',
    help: 'Bytes of the telemetry batches waiting to be pushed, by signal.',
    labelNames: ['signal'],
    registers,
    collect: sizes((queue) => queue.bytes),
  });
  const health: QueueHealth = {
    dropCounter(signal) {
      for (const reason of DROP_REASONS) dropped.inc({ signal, reason }, 0);
      return (reason) => dropped.inc({ signal, reason });
    },
    watch(signal, queue) {
      queues.set(signal, queue);
    },
  };
  healthOf.set(registry, health);
  return health;
}
