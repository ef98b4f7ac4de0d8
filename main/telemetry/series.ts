/**
 * The agent's metrics as remote-write series: what prom-client's `registry.getMetricsAsJSON()`
 * gives (counters, gauges, histograms, summaries), each value one series stamped with the
 * collection time, named as the exposition format names it — a histogram's values are already its
 * `_bucket{le}`, `_sum` and `_count` series — and carrying the checkout's identity labels.
 *
 * Typed by shape, not by prom-client's own types: this folder reads a registry the metrics folder
 * owns, and any object that answers `getMetricsAsJSON()` the same way will do.
 */
import type { Label, TimeSeries } from './remote-write.js';

/** One value of a metric as prom-client reports it. */
export interface RegistryValue {
  readonly value: number;
  readonly labels: Readonly<Record<string, string | number | undefined>>;
  /** Set for the parts of a histogram or summary (`x_bucket`, `x_sum`, `x_count`); else the metric's name. */
  readonly metricName?: string | undefined;
}

export interface RegistryMetric {
  readonly name: string;
  readonly values: readonly RegistryValue[];
}

/** What the pusher reads: prom-client's Registry fits. */
export interface MetricsSource {
  getMetricsAsJSON(): Promise<readonly RegistryMetric[]>;
}

/**
 * The labels every pushed series carries: `job` and the checkout's place in the chain. They win
 * over a metric's own label of the same name (none of the agent's metrics has one). The agent's
 * version is not among them: it stays on `pinbridge_info` alone, or every series of every
 * checkout would start anew at each upgrade (a new label set is a new series in Prometheus).
 */
export interface IdentityLabels {
  readonly job: string;
  readonly chain: string;
  readonly store: string;
  readonly checkout: string;
}

/** The prom-client value's label as text (`le` is a number, or "+Inf"), as the exposition writes it. */
const labelText = (value: string | number): string =>
  typeof value === 'number' ? (value === Number.POSITIVE_INFINITY ? '+Inf' : String(value)) : value;

/** Every value of `metrics` as one series of one sample at `timestampMs`, with `identity` on each. */
export function seriesOf(
  metrics: readonly RegistryMetric[],
  identity: IdentityLabels,
  timestampMs: number,
): TimeSeries[] {
  const series: TimeSeries[] = [];
  for (const metric of metrics) {
    for (const value of metric.values) {
      const labels = new Map<string, string>();
      for (const [name, label] of Object.entries(value.labels)) {
        if (label !== undefined) labels.set(name, labelText(label));
      }
      for (const [name, label] of Object.entries(identity) as Array<[string, string]>) labels.set(name, label);
      labels.set('__name__', value.metricName ?? metric.name);
      const list: Label[] = [...labels].map(([name, text]) => ({ name, value: text }));
      series.push({ labels: list, samples: [{ value: value.value, timestamp: timestampMs }] });
    }
  }
  return series;
}
