/**
 * The agent's telemetry, as the settings' `telemetry` section asks: the metrics by Prometheus
 * remote write (main/telemetry/index.ts) when `endpoint` is set, and by OTLP (`otlp`) a trace per
 * payment — the core's PaymentTraceRecorder following the engine, its port answered by the
 * exporter — and the log's warning/error lines, teed off the logger after its masking.
 *
 * Everything here runs beside the payments: the recorder and the log tee only hand records to
 * bounded buffers in memory; the pushers' timers do the rest (main/telemetry/otlp-exporter.ts).
 */
import { messageOf } from '../../lib/errors.js';
import type { PaymentEngine } from '../core/engine.js';
import { PaymentTraceRecorder } from '../core/payment-traces.js';
import { teeLogLines, type Logger } from '../log.js';
import type { AgentMetrics } from '../metrics/metrics.js';
import { otlpQueueDir, telemetryQueueDir } from '../paths.js';
import { maskSupportText } from '../support/mask.js';
import type { ResolvedTelemetrySettings } from '../telemetry/settings.js';
import { VERSION } from '../version.js';

export interface AgentTelemetry {
  stop(): Promise<void>;
}

export interface StartAgentTelemetryOptions {
  readonly settings: ResolvedTelemetrySettings;
  /** The agent's metrics registry (the remote-write source, and the pushers' health). */
  readonly registry: AgentMetrics['registry'];
  readonly engine: Pick<PaymentEngine, 'on' | 'off' | 'journal' | 'terminals'>;
  readonly logger: Logger;
  readonly training: boolean;
  readonly home?: string | undefined;
}

/** Starts what the settings ask for (settings.enabled is the caller's check). */
export async function startAgentTelemetry(options: StartAgentTelemetryOptions): Promise<AgentTelemetry> {
  const { settings, registry, engine, logger } = options;
  const stops: Array<() => Promise<void> | void> = [];
  const userAgent = `pinbridge/${VERSION}`;
  if (settings.endpoint !== '') {
    // Its own timers, unref'd: nothing a sale does waits for a push (main/telemetry/pusher.ts).
    const { startTelemetry } = await import('../telemetry/index.js');
    const telemetry = startTelemetry({
      registry,
      settings,
      dir: telemetryQueueDir(options.home),
      logger,
      userAgent,
    });
    stops.push(() => telemetry.stop());
  }
  const otlpSettings = settings.otlp;
  if (otlpSettings !== undefined) {
    const { startOtlp } = await import('../telemetry/otlp-exporter.js');
    const otlp = startOtlp({
      settings: { ...settings, otlp: otlpSettings },
      dir: (signal) => otlpQueueDir(signal, options.home),
      identity: {
        version: VERSION,
        chain: settings.chain,
        store: settings.store,
        checkout: settings.checkout,
        mode: options.training ? 'training' : 'live',
      },
      logger,
      mask: maskSupportText,
      pinpads: () => engine.terminals().map((terminal) => terminal.serial),
      registry,
      userAgent,
    });
    let untee: (() => void) | undefined;
    if (otlp.logs !== undefined) {
      untee = teeLogLines(logger, otlpSettings.logLevel, otlp.logs);
      if (untee === undefined)
        logger.warn({}, 'telemetry: this log writes one stream only, so its lines cannot be sent by OTLP');
    }
    let recorder: PaymentTraceRecorder | undefined;
    if (otlp.traces !== undefined) {
      recorder = new PaymentTraceRecorder(engine, otlp.traces, {
        onError: (error) => logger.warn({ err: messageOf(error) }, 'telemetry: a payment trace could not be kept'),
      });
    }
    // First the sources, so nothing is added after the buffers were queued.
    stops.push(() => {
      recorder?.close();
      untee?.();
      return otlp.stop();
    });
  }
  let stopped: Promise<void> | undefined;
  return {
    stop: () =>
      (stopped ??= (async () => {
        for (const stop of stops) await stop();
      })()),
  };
}
