/**
 * The OTLP wire, read with the OpenTelemetry project's own protobuf definitions (the messages of
 * opentelemetry-proto as @opentelemetry/otlp-transformer ships them, test/helpers/otlp-receiver.ts):
 * what the agent encodes decodes there field for field — ids, kinds, nanosecond times past 2^53,
 * attributes of every kind, status, severities — and what a receiver answers means what the OTLP
 * specification says: 200 taken (a partial_success logged, never sent again), 429/502/503/504
 * tried again after Retry-After, every other 4xx and 5xx dropped with the Status message.
 */
import { describe, expect, it } from 'vitest';
import {
  encodeLogsRequest,
  encodeTraceRequest,
  keyValues,
  otlpWire,
  SEVERITY_ERROR,
  SEVERITY_WARN,
  SPAN_KIND_INTERNAL,
  STATUS_CODE_ERROR,
  textValue,
  unixNanos,
} from '../../../main/telemetry/otlp-wire.js';
import { retryAfterMs } from '../../../main/telemetry/pusher.js';
import { attributesOf, decodeLogs, decodeTraces, OFFICIAL, rpcStatus } from '../../helpers/otlp-receiver.js';

const TRACE_ID = Buffer.from('0af7651916cd43dd8448eb211c80319c', 'hex');
const ROOT_ID = Buffer.from('b7ad6b7169203331', 'hex');
const STEP_ID = Buffer.from('00f067aa0ba902b7', 'hex');
/** 2026-11-29T10:00:00.123Z: in nanoseconds well past 2^53, where a double loses digits. */
const AT = Date.UTC(2026, 10, 29, 10, 0, 0, 123);

describe('unixNanos', () => {
  it('writes milliseconds as exact fixed64 nanoseconds', () => {
    const body = encodeTraceRequest([
      {
        resource: {},
        scope: { name: 'pinbridge', version: '1' },
        spans: [
          {
            traceId: TRACE_ID,
            spanId: ROOT_ID,
            name: 'payment',
            kind: SPAN_KIND_INTERNAL,
            startTimeUnixNano: unixNanos(AT),
            endTimeUnixNano: unixNanos(AT + 1),
            attributes: [],
          },
        ],
      },
    ]);
    const span = decodeTraces(body).resourceSpans?.[0]?.scopeSpans?.[0]?.spans?.[0];
    expect(span?.startTimeUnixNano).toBe(`${AT}000000`);
    expect(span?.endTimeUnixNano).toBe(`${AT + 1}000000`);
  });
});

describe('encodeTraceRequest', () => {
  it('decodes with the official definitions: resource, scope, spans, parent, attributes, status', () => {
    const body = encodeTraceRequest([
      {
        resource: { 'service.name': 'pinbridge', 'pinbridge.pinpad.serial': 'PB-1', absent: undefined },
        scope: { name: 'pinbridge', version: '1.2.3' },
        spans: [
          {
            traceId: TRACE_ID,
            spanId: ROOT_ID,
            name: 'payment',
            kind: SPAN_KIND_INTERNAL,
            startTimeUnixNano: unixNanos(AT),
            endTimeUnixNano: unixNanos(AT + 5_000),
            attributes: keyValues({ text: 'credit', whole: 12, fraction: 0.5, flag: false, list: ['a', 'b'] }),
            status: { code: STATUS_CODE_ERROR, message: 'PINPAD_TIMEOUT' },
          },
          {
            traceId: TRACE_ID,
            spanId: STEP_ID,
            parentSpanId: ROOT_ID,
            name: 'read_card',
            kind: SPAN_KIND_INTERNAL,
            startTimeUnixNano: unixNanos(AT + 1_000),
            endTimeUnixNano: unixNanos(AT + 4_000),
            attributes: keyValues({ 'pinbridge.step.completed': true }),
          },
        ],
      },
    ]);
    const decoded = decodeTraces(body);
    expect(decoded.resourceSpans).toHaveLength(1);
    const [group] = decoded.resourceSpans!;
    expect(attributesOf(group!.resource?.attributes)).toEqual({
      'service.name': 'pinbridge',
      'pinbridge.pinpad.serial': 'PB-1',
    });
    expect(group!.scopeSpans?.[0]?.scope).toEqual({ name: 'pinbridge', version: '1.2.3' });
    const [root, step] = group!.scopeSpans![0]!.spans!;
    expect(root).toMatchObject({
      traceId: TRACE_ID,
      spanId: ROOT_ID,
      name: 'payment',
      kind: SPAN_KIND_INTERNAL,
      startTimeUnixNano: `${AT}000000`,
      endTimeUnixNano: `${AT + 5_000}000000`,
      status: { code: STATUS_CODE_ERROR, message: 'PINPAD_TIMEOUT' },
    });
    expect(root!.parentSpanId).toBeUndefined();
    expect(attributesOf(root!.attributes)).toEqual({
      text: 'credit',
      whole: 12,
      fraction: 0.5,
      flag: false,
      list: ['a', 'b'],
    });
    expect(step).toMatchObject({ traceId: TRACE_ID, spanId: STEP_ID, parentSpanId: ROOT_ID, name: 'read_card' });
    expect(attributesOf(step!.attributes)).toEqual({ 'pinbridge.step.completed': true });
  });
});

describe('encodeLogsRequest', () => {
  it('decodes with the official definitions: times, severity, body, attributes', () => {
    const body = encodeLogsRequest([
      {
        resource: { 'service.name': 'pinbridge' },
        scope: { name: 'pinbridge', version: '1.2.3' },
        records: [
          {
            timeUnixNano: unixNanos(AT),
            observedTimeUnixNano: unixNanos(AT + 2),
            severityNumber: SEVERITY_WARN,
            severityText: 'WARN',
            body: textValue('payments API health'),
            attributes: keyValues({ state: 'down' }),
          },
          {
            timeUnixNano: unixNanos(AT + 3),
            observedTimeUnixNano: unixNanos(AT + 3),
            severityNumber: SEVERITY_ERROR,
            severityText: 'ERROR',
            body: textValue('disk full'),
            attributes: [],
          },
        ],
      },
    ]);
    const [group] = decodeLogs(body).resourceLogs!;
    expect(attributesOf(group!.resource?.attributes)).toEqual({ 'service.name': 'pinbridge' });
    expect(group!.scopeLogs?.[0]?.logRecords).toEqual([
      {
        timeUnixNano: `${AT}000000`,
        observedTimeUnixNano: `${AT + 2}000000`,
        severityNumber: SEVERITY_WARN,
        severityText: 'WARN',
        body: { stringValue: 'payments API health' },
        attributes: [{ key: 'state', value: { stringValue: 'down' } }],
      },
      {
        timeUnixNano: `${AT + 3}000000`,
        observedTimeUnixNano: `${AT + 3}000000`,
        severityNumber: SEVERITY_ERROR,
        severityText: 'ERROR',
        body: { stringValue: 'disk full' },
      },
    ]);
  });
});

/** A response message encoded with the official definitions. */
function officialResponse(signal: 'traces' | 'logs', partialSuccess: Record<string, unknown> | undefined): Uint8Array {
  const type =
    signal === 'traces' ? OFFICIAL.trace.v1.ExportTraceServiceResponse : OFFICIAL.logs.v1.ExportLogsServiceResponse;
  return type.encode(type.fromObject(partialSuccess === undefined ? {} : { partialSuccess })).finish();
}

describe('otlpWire: what an answer means', () => {
  it('sends binary protobuf', () => {
    expect(otlpWire('traces').headers).toEqual({ 'Content-Type': 'application/x-protobuf' });
  });

  it('takes a 200, and reads a partial success as a warning (never sent again)', () => {
    expect(otlpWire('traces').outcome(200, officialResponse('traces', undefined), undefined)).toEqual({
      kind: 'sent',
      warning: undefined,
    });
    expect(otlpWire('traces').outcome(200, new Uint8Array(0), undefined)).toEqual({ kind: 'sent', warning: undefined });
    expect(
      otlpWire('traces').outcome(
        200,
        officialResponse('traces', { rejectedSpans: 2, errorMessage: 'spans older than 7 days' }),
        undefined,
      ),
    ).toEqual({ kind: 'sent', warning: '2 spans rejected: spans older than 7 days' });
    expect(otlpWire('logs').outcome(200, officialResponse('logs', { rejectedLogRecords: 1 }), undefined)).toEqual({
      kind: 'sent',
      warning: '1 log records rejected',
    });
    // A warning with nothing rejected (the specification allows it).
    expect(
      otlpWire('logs').outcome(
        200,
        officialResponse('logs', { errorMessage: 'attribute names will change' }),
        undefined,
      ),
    ).toEqual({ kind: 'sent', warning: '0 log records rejected: attribute names will change' });
  });

  it.each([429, 502, 503, 504])('tries HTTP %i again, after Retry-After when given', (status) => {
    expect(otlpWire('traces').outcome(status, new Uint8Array(0), 7_000)).toEqual({
      kind: 'retry',
      reason: `HTTP ${status}`,
      afterMs: 7_000,
    });
    expect(otlpWire('logs').outcome(status, new Uint8Array(0), undefined)).toMatchObject({
      kind: 'retry',
      afterMs: undefined,
    });
  });

  it.each([400, 401, 403, 404, 413, 500, 501])('drops a batch answered HTTP %i, with the Status message', (status) => {
    expect(otlpWire('traces').outcome(status, rpcStatus('bad span'), undefined)).toEqual({
      kind: 'rejected',
      status,
      detail: 'bad span',
    });
  });

  it("reads a proxy's text answer as the detail", () => {
    expect(otlpWire('logs').outcome(400, Buffer.from('<html>Bad Request</html>'), undefined)).toMatchObject({
      kind: 'rejected',
      detail: '<html>Bad Request</html>',
    });
  });
});

describe('retryAfterMs', () => {
  it('reads delay-seconds and an HTTP-date; nothing else', () => {
    expect(retryAfterMs('7')).toBe(7_000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    const now = Date.UTC(2026, 10, 29, 10, 0, 0);
    expect(retryAfterMs('Sun, 29 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 29 Nov 2026 09:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('-5')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
