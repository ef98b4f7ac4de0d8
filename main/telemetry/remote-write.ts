/**
 * Prometheus remote write, version 1 (https://prometheus.io/docs/specs/remote_write_spec/): a
 * `prometheus.WriteRequest` protobuf of time series (labels and samples), Snappy block-compressed,
 * POSTed with the three headers below. Only the fields v1 needs are declared — the numbers are
 * prompb's (prometheus/prompb/remote.proto and types.proto), so any receiver decodes them; the
 * metadata, exemplars and native histograms a v1 sender may omit are left out.
 *
 * The definitions are built from JSON (protobufjs' light build: no .proto file to find at run
 * time, no generated code to keep in step) and exported, so the specs decode with the very same.
 */
import protobuf from 'protobufjs/light.js';
import snappy from 'snappyjs';

/** The headers every remote-write v1 request carries (the spec's MUSTs). */
export const REMOTE_WRITE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Encoding': 'snappy',
  'Content-Type': 'application/x-protobuf',
  'X-Prometheus-Remote-Write-Version': '0.1.0',
};

export interface Label {
  readonly name: string;
  readonly value: string;
}

export interface Sample {
  readonly value: number;
  /** Milliseconds since the Unix epoch. */
  readonly timestamp: number;
}

/** One series: its labels (`__name__` included) and its samples, oldest first. */
export interface TimeSeries {
  readonly labels: readonly Label[];
  readonly samples: readonly Sample[];
}

const root = protobuf.Root.fromJSON({
  nested: {
    prometheus: {
      nested: {
        WriteRequest: { fields: { timeseries: { rule: 'repeated', type: 'TimeSeries', id: 1 } } },
        TimeSeries: {
          fields: {
            labels: { rule: 'repeated', type: 'Label', id: 1 },
            samples: { rule: 'repeated', type: 'Sample', id: 2 },
          },
        },
        Label: { fields: { name: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        Sample: { fields: { value: { type: 'double', id: 1 }, timestamp: { type: 'int64', id: 2 } } },
      },
    },
  },
});

/** The `prometheus.WriteRequest` message type (for decoding in specs and tools). */
export const WriteRequestType = root.lookupType('prometheus.WriteRequest');

/**
 * The spec wants each series' labels sorted by name, byte-wise, and no empty label value (an
 * empty value means "no such label" to Prometheus): both are done here, once, for every caller.
 */
function normalized(series: TimeSeries): TimeSeries {
  const labels = series.labels
    .filter((label) => label.value !== '')
    .toSorted((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { labels, samples: series.samples };
}

/** The protobuf bytes of a WriteRequest holding `series` (uncompressed). */
export function encodeWriteRequest(series: readonly TimeSeries[]): Uint8Array {
  const message = WriteRequestType.fromObject({ timeseries: series.map(normalized) });
  return WriteRequestType.encode(message).finish();
}

/** The body of a remote-write request: the WriteRequest, Snappy block-compressed. */
export function remoteWriteBody(series: readonly TimeSeries[]): Uint8Array {
  return snappy.compress(encodeWriteRequest(series));
}

/** The series a body holds (Snappy, then protobuf): the receiver's reading, for specs and tools. */
export function decodeRemoteWriteBody(body: Uint8Array): TimeSeries[] {
  const message = WriteRequestType.decode(snappy.uncompress(body));
  const object = WriteRequestType.toObject(message, { longs: Number, defaults: true }) as {
    timeseries?: TimeSeries[];
  };
  return object.timeseries ?? [];
}
