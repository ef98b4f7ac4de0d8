/**
 * Telemetry as the agent starts it: the metrics by remote write — the queue in its folder, the
 * pusher on the agent's metrics registry — and the pushers' own health in that same registry —
 * `pinbridge_telemetry_dropped_total{signal,reason}` and `pinbridge_telemetry_queue_batches` /
 * `_bytes{signal}`, for the metrics and for the OTLP traces and logs (otlp-exporter.ts) — so a
 * chain sees in what it receives (and on the local /metrics) what it did not receive.
 */
import type { Registry } from 'prom-client';
import { queueHealth } from './health.js';
import { BatchQueue } from './queue.js';
import { loggableEndpoint, TelemetryPusher, type PusherLogger } from './pusher.js';
import type { ResolvedTelemetrySettings } from './settings.js';

export interface Telemetry {
  readonly queue: BatchQueue;
  readonly pusher: TelemetryPusher;
  stop(): Promise<void>;
}

export interface StartTelemetryOptions {
  readonly registry: Registry;
  readonly settings: ResolvedTelemetrySettings;
  /** The queue's folder. */
  readonly dir: string;
  readonly logger: PusherLogger;
  readonly userAgent?: string | undefined;
}

/** Registers the pusher's metrics, opens the queue and starts pushing (settings.enabled and its endpoint are the caller's check). */
export function startTelemetry(options: StartTelemetryOptions): Telemetry {
  const { registry, settings, logger } = options;
  const health = queueHealth(registry);
  const queue = new BatchQueue({
    dir: options.dir,
    maxBatches: settings.maxBatches,
    maxBytes: settings.maxBytes,
    logger,
    onDrop: health.dropCounter('metrics'),
  });
  health.watch('metrics', queue);
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
