/**
 * Traces and logs by OTLP/HTTP, as the agent starts them: per signal, an in-memory buffer the
 * agent's code hands records to (PaymentSpans, the core's trace port; LogLines, a log stream),
 * a bounded queue on disk in a folder of its own (queue.ts: survives a restart, drops the oldest
 * first) and a pusher that, every interval, moves the buffer into one batch on the queue and
 * sends what waits (pusher.ts with otlp-wire.ts's answers).
 *
 * Nothing on a payment's path waits for any of it: a sale's end and a `logger.warn` only add to a
 * bounded buffer in memory; the file writes and the requests run on the pushers' own timers. A
 * disk that refuses the queue's files keeps the batches in memory under the same bounds (queue.ts),
 * so a full disk costs telemetry, never a payment. At stop, what the buffers hold is queued, so
 * the next start sends it.
 */
import type { Registry } from 'prom-client';
import { messageOf } from '../../lib/errors.js';
import { queueHealth, type TelemetrySignal } from './health.js';
import { LogLines, OWN_PUSHER } from './otlp-logs.js';
import type { OtlpIdentity } from './otlp-resource.js';
import { PaymentSpans } from './otlp-traces.js';
import { otlpWire, type OtlpSignal } from './otlp-wire.js';
import { loggableEndpoint, TelemetryPusher, type PusherLogger } from './pusher.js';
import { BatchQueue, type DropReason } from './queue.js';
import type { ResolvedOtlpSettings, ResolvedTelemetrySettings } from './settings.js';

export interface OtlpExport {
  /** The core's PaymentTraceSink, when traces are sent. */
  readonly traces: PaymentSpans | undefined;
  /** The log stream to tee warnings and errors into, when logs are sent. */
  readonly logs: LogLines | undefined;
  /** Each signal's queue (for the specs and the health metrics). */
  readonly queues: ReadonlyMap<OtlpSignal, BatchQueue>;
  /** Collects and sends now (the specs; a pusher also does it every interval). */
  pushNow(): Promise<void>;
  /** Stops the pushers and queues what the buffers still hold (sent at the next start). */
  stop(): Promise<void>;
}

export interface StartOtlpOptions {
  readonly settings: ResolvedTelemetrySettings & { readonly otlp: ResolvedOtlpSettings };
  /** Each signal's queue folder. */
  readonly dir: (signal: OtlpSignal) => string;
  readonly identity: OtlpIdentity;
  readonly logger: PusherLogger;
  /** Card data and CPFs masked out of a log text (main/support/mask.ts's maskSupportText). */
  readonly mask: (text: string) => string;
  /** The PINPADs attached now (the logs' resource). */
  readonly pinpads?: (() => readonly string[]) | undefined;
  /** The health metrics' registry (the agent's), when there is one. */
  readonly registry?: Registry | undefined;
  readonly userAgent?: string | undefined;
  /** Retry waits (specs); default: pusher.ts's. */
  readonly retryBaseMs?: number | undefined;
  readonly retryCapMs?: number | undefined;
}

interface Signal {
  readonly queue: BatchQueue;
  readonly pusher: TelemetryPusher;
  readonly take: () => Uint8Array | undefined;
}

/** Starts the OTLP pushers the settings ask for (settings.otlp is the caller's check). */
export function startOtlp(options: StartOtlpOptions): OtlpExport {
  const { settings, logger, identity } = options;
  const otlp = settings.otlp;
  const health = options.registry === undefined ? undefined : queueHealth(options.registry);
  const signals = new Map<OtlpSignal, Signal>();

  const open = (
    signal: OtlpSignal & TelemetrySignal,
    take: () => Uint8Array | undefined,
  ): ((reason: DropReason) => void) => {
    const onDrop = health?.dropCounter(signal) ?? (() => undefined);
    const queue = new BatchQueue({
      dir: options.dir(signal),
      maxBatches: settings.maxBatches,
      maxBytes: settings.maxBytes,
      logger,
      onDrop,
    });
    health?.watch(signal, queue);
    const pusher = new TelemetryPusher({
      collect: take,
      wire: otlpWire(signal),
      what: signal === 'logs' ? OWN_PUSHER : `OTLP ${signal}`,
      queue,
      endpoint: signal === 'traces' ? otlp.tracesUrl : otlp.logsUrl,
      headers: otlp.headers,
      intervalMs: otlp.intervalMs,
      timeoutMs: settings.timeoutMs,
      logger,
      userAgent: options.userAgent,
      retryBaseMs: options.retryBaseMs,
      retryCapMs: options.retryCapMs,
    });
    signals.set(signal, { queue, pusher, take });
    return onDrop;
  };

  let traces: PaymentSpans | undefined;
  if (otlp.traces) {
    let onDrop: (reason: DropReason) => void = () => undefined;
    traces = new PaymentSpans({ identity, logger, onDrop: () => onDrop('queue_full') });
    const spans = traces;
    onDrop = open('traces', () => spans.take());
  }
  let logs: LogLines | undefined;
  if (otlp.logs) {
    let onDrop: (reason: DropReason) => void = () => undefined;
    logs = new LogLines({
      identity,
      minLevel: otlp.logLevel === 'error' ? 50 : 40,
      mask: options.mask,
      pinpads: options.pinpads,
      onDrop: () => onDrop('queue_full'),
    });
    const lines = logs;
    onDrop = open('logs', () => lines.take());
  }
  for (const { pusher } of signals.values()) pusher.start();
  logger.info(
    {
      endpoint: loggableEndpoint(otlp.endpoint),
      signals: [...signals.keys()],
      interval_s: otlp.intervalMs / 1000,
      queued: Object.fromEntries([...signals].map(([signal, { queue }]) => [signal, queue.batches])),
    },
    'pushing traces and logs by OTLP/HTTP',
  );

  let stopped: Promise<void> | undefined;
  return {
    traces,
    logs,
    queues: new Map([...signals].map(([signal, { queue }]) => [signal, queue])),
    pushNow: async () => {
      await Promise.all([...signals.values()].map(({ pusher }) => pusher.tick()));
    },
    stop: () =>
      (stopped ??= (async () => {
        await Promise.all([...signals.values()].map(({ pusher }) => pusher.stop()));
        for (const { queue, take } of signals.values()) {
          try {
            const body = take();
            if (body !== undefined) queue.push(body);
          } catch (error) {
            logger.warn({ err: messageOf(error) }, 'telemetry: the OTLP records in memory could not be queued at stop');
          }
        }
      })()),
  };
}
