/**
 * Telemetry as the agent starts it: the queue in its folder, the pusher on the agent's metrics
 * registry, and the pusher's own health in that same registry — `pinbridge_telemetry_dropped_total
 * {reason}` and `pinbridge_telemetry_queue_batches` / `_bytes` — so a chain sees in what it
 * receives (and on the local /metrics) what it did not receive.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import { BatchQueue, type DropReason } from './queue.js';
import { loggableEndpoint, TelemetryPusher, type PusherLogger } from './pusher.js';
import type { ResolvedTelemetrySettings } from './settings.js';

export interface Telemetry {
  readonly queue: BatchQueue;
  readonly pusher: TelemetryPusher;
  stop(): Promise<void>;
}

const DROP_REASONS: readonly DropReason[] = ['queue_full', 'rejected', 'unreadable'];

export interface StartTelemetryOptions {
  readonly registry: Registry;
  readonly settings: ResolvedTelemetrySettings;
  /** The queue's folder. */
  readonly dir: string;
  readonly logger: PusherLogger;
  readonly userAgent?: string | undefined;
}

/** Registers the pusher's metrics, opens the queue and starts pushing (settings.enabled is the caller's check). */
export function startTelemetry(options: StartTelemetryOptions): Telemetry {
  const { registry, settings, logger } = options;
  const registers = [registry];
  const dropped = new Counter({
    name: 'pinbridge_telemetry_dropped_total',
    help:
      'Telemetry batches dropped unsent, by reason: queue_full (the oldest, to make room: the endpoint was unreachable too long), ' +
      'rejected (the receiver called it bad: HTTP 4xx), unreadable (its file could not be read back).',
    labelNames: ['reason'],
    registers,
  });
  for (const reason of DROP_REASONS) dropped.inc({ reason }, 0);
  const queue = new BatchQueue({
    dir: options.dir,
    maxBatches: settings.maxBatches,
    maxBytes: settings.maxBytes,
    logger,
    onDrop: (reason) => dropped.inc({ reason }),
  });
  new Gauge({
    name: 'pinbridge_telemetry_queue_batches',
    help: 'Telemetry batches waiting to be pushed (on disk, or in memory while the disk refuses them).',
    registers,
    collect() {
      this.set(queue.batches);
    },
  });
  new Gauge({
    name: 'pinbridge_telemetry_queue_bytes',
    help: 'Bytes of the telemetry batches waiting to be pushed.',
    registers,
    collect() {
      this.set(queue.bytes);
    },
  });
  const pusher = new TelemetryPusher({
    source: registry,
    queue,
    endpoint: settings.endpoint,
    headers: settings.headers,
    identity: { job: 'pinbridge', chain: settings.chain, store: settings.store, checkout: settings.checkout },
    intervalMs: settings.intervalMs,
    timeoutMs: settings.timeoutMs,
    logger,
    userAgent: options.userAgent,
  });
  pusher.start();
  logger.info(
    { endpoint: loggableEndpoint(settings.endpoint), interval_s: settings.intervalMs / 1000, queued: queue.batches },
    'pushing metrics by Prometheus remote write',
  );
  return { queue, pusher, stop: () => pusher.stop() };
}
