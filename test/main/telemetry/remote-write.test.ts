/**
 * The remote-write body: the agent's registry as prom-client reports it, turned into series with
 * the checkout's labels, protobuf-encoded and Snappy-compressed — read back as a receiver reads it
 * (Snappy block, then the same WriteRequest definitions) and held to remote write v1's shape.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import snappy from 'snappyjs';
import { describe, expect, it } from 'vitest';
import {
  decodeRemoteWriteBody,
  encodeWriteRequest,
  REMOTE_WRITE_HEADERS,
  remoteWriteBody,
  WriteRequestType,
  type TimeSeries,
} from '../../../main/telemetry/remote-write.js';
import { seriesOf, type IdentityLabels } from '../../../main/telemetry/series.js';

const IDENTITY: IdentityLabels = { job: 'pinbridge', chain: 'acme', store: 'sp-01', checkout: 'pdv-3' };
const STAMP = 1_760_000_000_123;

/** A series' labels as an object, for reading. */
const labelsOf = (series: TimeSeries): Record<string, string> =>
  Object.fromEntries(series.labels.map((label) => [label.name, label.value]));

function registryWithEveryKind(): Registry {
  const registry = new Registry();
  const registers = [registry];
  new Counter({ name: 'pinbridge_payments_total', help: 'h', labelNames: ['outcome'], registers }).inc(
    { outcome: 'approved' },
    3,
  );
  new Gauge({ name: 'pinbridge_info', help: 'h', labelNames: ['version', 'mode'], registers }).set(
    { version: '1.2.3', mode: 'training' },
    1,
  );
  new Gauge({ name: 'pinbridge_api_up', help: 'h', registers }).set(1);
  new Histogram({
    name: 'pinbridge_step_seconds',
    help: 'h',
    buckets: [0.5, 2],
    labelNames: ['step'],
    registers,
  }).observe({ step: 'authorize' }, 1);
  return registry;
}

describe('remote-write series', () => {
  it('makes one series per value, named as the exposition names it, histograms as _bucket{le}/_sum/_count', async () => {
    const series = seriesOf(await registryWithEveryKind().getMetricsAsJSON(), IDENTITY, STAMP);
    const byKey = new Map(series.map((one) => [JSON.stringify(labelsOf(one)), one.samples]));
    const get = (labels: Record<string, string>) => {
      const found = series.find((one) => {
        const own = labelsOf(one);
        return Object.entries(labels).every(([name, value]) => own[name] === value);
      });
      return found?.samples;
    };
    // No two series share a label set.
    expect(byKey.size).toBe(series.length);
    expect(get({ __name__: 'pinbridge_payments_total', outcome: 'approved' })).toEqual([
      { value: 3, timestamp: STAMP },
    ]);
    expect(get({ __name__: 'pinbridge_api_up' })).toEqual([{ value: 1, timestamp: STAMP }]);
    expect(get({ __name__: 'pinbridge_step_seconds_bucket', step: 'authorize', le: '0.5' })?.[0]?.value).toBe(0);
    expect(get({ __name__: 'pinbridge_step_seconds_bucket', step: 'authorize', le: '2' })?.[0]?.value).toBe(1);
    expect(get({ __name__: 'pinbridge_step_seconds_bucket', step: 'authorize', le: '+Inf' })?.[0]?.value).toBe(1);
    expect(get({ __name__: 'pinbridge_step_seconds_sum', step: 'authorize' })?.[0]?.value).toBe(1);
    expect(get({ __name__: 'pinbridge_step_seconds_count', step: 'authorize' })?.[0]?.value).toBe(1);
  });

  it('puts job, chain, store and checkout on every series, and the version only on pinbridge_info', async () => {
    const series = seriesOf(await registryWithEveryKind().getMetricsAsJSON(), IDENTITY, STAMP);
    expect(series.length).toBe(8);
    for (const one of series) {
      expect(labelsOf(one)).toMatchObject({ job: 'pinbridge', chain: 'acme', store: 'sp-01', checkout: 'pdv-3' });
      expect('version' in labelsOf(one)).toBe(labelsOf(one).__name__ === 'pinbridge_info');
    }
  });
});

describe('remote-write body', () => {
  it('round-trips: Snappy block, then the WriteRequest definitions, give back the series with sorted labels', async () => {
    const series = seriesOf(await registryWithEveryKind().getMetricsAsJSON(), IDENTITY, STAMP);
    const body = remoteWriteBody(series);
    const decoded = decodeRemoteWriteBody(body);
    expect(decoded).toHaveLength(series.length);
    for (const [index, one] of decoded.entries()) {
      const names = one.labels.map((label) => label.name);
      expect(names).toEqual(names.toSorted());
      expect(labelsOf(one)).toEqual(labelsOf(series[index]!));
      expect(one.samples).toEqual([{ value: series[index]!.samples[0]!.value, timestamp: STAMP }]);
    }
  });

  it('is the protobuf WriteRequest, Snappy block-compressed (not the framed stream format)', () => {
    const series: TimeSeries[] = [
      { labels: [{ name: '__name__', value: 'up' }], samples: [{ value: 1, timestamp: STAMP }] },
    ];
    const raw = encodeWriteRequest(series);
    const body = remoteWriteBody(series);
    // The framed format starts with its stream identifier chunk (0xff 06 00 00 "sNaPpY"); a block starts with the length.
    expect(body[0]).not.toBe(0xff);
    expect(Buffer.from(snappy.uncompress(body))).toEqual(Buffer.from(raw));
    // Field 1 (timeseries), length-delimited: tag 0x0a, as prompb numbers it.
    expect(raw[0]).toBe(0x0a);
    const message = WriteRequestType.toObject(WriteRequestType.decode(raw), { longs: String });
    expect(message).toEqual({
      timeseries: [{ labels: [{ name: '__name__', value: 'up' }], samples: [{ value: 1, timestamp: String(STAMP) }] }],
    });
  });

  it('leaves out labels whose value is empty (to Prometheus, an empty label is no label)', () => {
    const [one] = decodeRemoteWriteBody(
      remoteWriteBody([
        {
          labels: [
            { name: '__name__', value: 'up' },
            { name: 'serial', value: '' },
          ],
          samples: [{ value: 1, timestamp: STAMP }],
        },
      ]),
    );
    expect(one!.labels).toEqual([{ name: '__name__', value: 'up' }]);
  });

  it('is sent with the three headers remote write v1 requires', () => {
    expect(REMOTE_WRITE_HEADERS).toEqual({
      'Content-Encoding': 'snappy',
      'Content-Type': 'application/x-protobuf',
      'X-Prometheus-Remote-Write-Version': '0.1.0',
    });
  });
});
