/**
 * An OTLP/HTTP receiver for the specs, on 127.0.0.1, and the reading of what it received with the
 * OpenTelemetry project's own protobuf definitions — not the agent's.
 *
 * No real OTLP receiver can be installed from the registries this project uses (Debian has no
 * OpenTelemetry Collector, Jaeger, Tempo or Loki package, and its Prometheus 2.42 predates OTLP
 * ingestion; npm has no collector binary), so the wire format is checked against the definitions
 * instead: `@opentelemetry/otlp-transformer` 0.214.0 (a devDependency, pinned: the last release that
 * ships them) carries the messages of opentelemetry-proto (common, resource, trace, logs,
 * collector) compiled by protobufjs' pbjs from the official .proto files; this helper decodes
 * each body the agent posted with them.
 */
import { createRequire } from 'node:module';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** protobufjs' static message classes, as far as the specs use them. */
interface StaticMessage {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: { longs: typeof String; defaults: boolean; bytes?: typeof String }): unknown;
  encode(message: unknown): { finish(): Uint8Array };
  fromObject(object: unknown): unknown;
}

interface OfficialRoot {
  opentelemetry: {
    proto: {
      collector: {
        trace: { v1: { ExportTraceServiceRequest: StaticMessage; ExportTraceServiceResponse: StaticMessage } };
        logs: { v1: { ExportLogsServiceRequest: StaticMessage; ExportLogsServiceResponse: StaticMessage } };
      };
    };
  };
}

const official = createRequire(import.meta.url)(
  '@opentelemetry/otlp-transformer/build/src/generated/root.js',
) as OfficialRoot;
export const OFFICIAL = official.opentelemetry.proto.collector;

/** AnyValue, as decoded. */
export interface DecodedValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string;
  doubleValue?: number;
  arrayValue?: { values?: DecodedValue[] };
}
export interface DecodedKeyValue {
  key: string;
  value: DecodedValue;
}
export interface DecodedSpan {
  traceId: Buffer;
  spanId: Buffer;
  parentSpanId?: Buffer;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: DecodedKeyValue[];
  status?: { code?: number; message?: string };
}
export interface DecodedLogRecord {
  timeUnixNano: string;
  observedTimeUnixNano: string;
  severityNumber: number;
  severityText: string;
  body?: DecodedValue;
  attributes?: DecodedKeyValue[];
}
export interface DecodedResource {
  attributes?: DecodedKeyValue[];
}
interface Scope {
  scope?: { name?: string; version?: string };
}

/** An ExportTraceServiceRequest, decoded with the official definitions. */
export function decodeTraces(body: Uint8Array): {
  resourceSpans?: Array<{ resource?: DecodedResource; scopeSpans?: Array<Scope & { spans?: DecodedSpan[] }> }>;
} {
  const type = OFFICIAL.trace.v1.ExportTraceServiceRequest;
  return type.toObject(type.decode(body), { longs: String, defaults: false }) as ReturnType<typeof decodeTraces>;
}

/** An ExportLogsServiceRequest, decoded with the official definitions. */
export function decodeLogs(body: Uint8Array): {
  resourceLogs?: Array<{ resource?: DecodedResource; scopeLogs?: Array<Scope & { logRecords?: DecodedLogRecord[] }> }>;
} {
  const type = OFFICIAL.logs.v1.ExportLogsServiceRequest;
  return type.toObject(type.decode(body), { longs: String, defaults: false }) as ReturnType<typeof decodeLogs>;
}

/** A decoded attribute list as a record of plain values (lists as arrays). */
export function attributesOf(list: readonly DecodedKeyValue[] | undefined): Record<string, unknown> {
  const plain = (value: DecodedValue): unknown =>
    value.stringValue ??
    value.boolValue ??
    (value.intValue === undefined ? undefined : Number(value.intValue)) ??
    value.doubleValue ??
    value.arrayValue?.values?.map(plain);
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, plain(value)]));
}

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface Answer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: Uint8Array;
}

export interface OtlpReceiver {
  /** Its base URL: the agent's `otlp.endpoint`. */
  readonly url: string;
  readonly port: number;
  readonly received: ReceivedRequest[];
  /** How the next requests are answered: an answer, or 'hang' (never); default 200 with an empty response. */
  answer: (request: ReceivedRequest) => Answer | 'hang';
  /** Resolves at the next request received. */
  next(): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1 (`port`: a given one, to come back on after a close). */
export async function otlpReceiver(port = 0): Promise<OtlpReceiver> {
  const waiting: Array<(request: ReceivedRequest) => void> = [];
  const receiver: OtlpReceiver = {
    url: '',
    port: 0,
    received: [],
    answer: () => ({ status: 200, headers: { 'Content-Type': 'application/x-protobuf' }, body: new Uint8Array(0) }),
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: ReceivedRequest = {
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      receiver.received.push(received);
      const answer = receiver.answer(received);
      for (const resolve of waiting.splice(0)) resolve(received);
      if (answer === 'hang') return;
      response
        .writeHead(answer.status, answer.headers)
        .end(answer.body === undefined ? undefined : Buffer.from(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return Object.assign(receiver, { url: `http://127.0.0.1:${bound}`, port: bound });
}

/** A google.rpc.Status with `message` (field 2), as an OTLP receiver's failure body. */
export function rpcStatus(message: string): Uint8Array {
  const text = Buffer.from(message);
  if (text.length > 127) throw new RangeError('short messages only');
  return Buffer.concat([Buffer.from([0x12, text.length]), text]);
}
