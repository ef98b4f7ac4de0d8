/**
 * OTLP/HTTP with binary protobuf (the OpenTelemetry protocol's specification, "OTLP/HTTP"): an
 * `ExportTraceServiceRequest` POSTed to `/v1/traces`, an `ExportLogsServiceRequest` to
 * `/v1/logs`, `Content-Type: application/x-protobuf`. Only the messages and fields this agent
 * sends or reads are declared — with the field numbers of opentelemetry-proto (common/v1,
 * resource/v1, trace/v1, logs/v1, collector/*, and google.rpc.Status for a failure's body), so any
 * receiver decodes them. The specs decode what the agent posts with the OpenTelemetry project's
 * own definitions (test/main/telemetry/otlp-wire.test.ts), not with these.
 *
 * What an answer means (the specification's "OTLP/HTTP Response"): 200 is taken, and a
 * `partial_success` in its body says how many records the receiver refused and why — never to be
 * sent again, only logged; 429, 502, 503 and 504 are tried again (after Retry-After when given);
 * every other 4xx and 5xx is dropped, its `Status.message` logged.
 *
 * Built from JSON with protobufjs' light build, like remote-write.ts: no .proto to find at run
 * time, no generated code to keep in step.
 */
import protobuf from 'protobufjs/light.js';
import type { PushWire, SendOutcome } from './pusher.js';

/** An attribute's value: text, a number (an integer goes as int64, else a double), a flag, or a list of texts. */
export type AttributeValue = string | number | boolean | readonly string[];
export type Attributes = Readonly<Record<string, AttributeValue | undefined>>;

/** A 64-bit unsigned number as protobufjs writes it (nanoseconds since the epoch pass 2^53). */
export interface Fixed64 {
  readonly low: number;
  readonly high: number;
  readonly unsigned: true;
}

export const SPAN_KIND_INTERNAL = 1;
export const STATUS_CODE_ERROR = 2;
/** SeverityNumber: WARN and ERROR (the log levels sent); FATAL for pino's fatal. */
export const SEVERITY_WARN = 13;
export const SEVERITY_ERROR = 17;
export const SEVERITY_FATAL = 21;

export interface OtlpSpan {
  readonly traceId: Uint8Array;
  readonly spanId: Uint8Array;
  readonly parentSpanId?: Uint8Array | undefined;
  readonly name: string;
  readonly kind: number;
  readonly startTimeUnixNano: Fixed64;
  readonly endTimeUnixNano: Fixed64;
  readonly attributes: readonly object[];
  readonly status?: { readonly code: number; readonly message?: string } | undefined;
}

export interface OtlpLogRecord {
  readonly timeUnixNano: Fixed64;
  readonly observedTimeUnixNano: Fixed64;
  readonly severityNumber: number;
  readonly severityText: string;
  readonly body: object;
  readonly attributes: readonly object[];
}

const KEY_VALUES = { rule: 'repeated', type: 'opentelemetry.proto.common.v1.KeyValue' } as const;

const root = protobuf.Root.fromJSON({
  nested: {
    opentelemetry: {
      nested: {
        proto: {
          nested: {
            common: {
              nested: {
                v1: {
                  nested: {
                    AnyValue: {
                      oneofs: {
                        value: {
                          oneof: ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue'],
                        },
                      },
                      fields: {
                        stringValue: { type: 'string', id: 1 },
                        boolValue: { type: 'bool', id: 2 },
                        intValue: { type: 'int64', id: 3 },
                        doubleValue: { type: 'double', id: 4 },
                        arrayValue: { type: 'ArrayValue', id: 5 },
                        kvlistValue: { type: 'KeyValueList', id: 6 },
                      },
                    },
                    ArrayValue: { fields: { values: { rule: 'repeated', type: 'AnyValue', id: 1 } } },
                    KeyValueList: { fields: { values: { rule: 'repeated', type: 'KeyValue', id: 1 } } },
                    KeyValue: { fields: { key: { type: 'string', id: 1 }, value: { type: 'AnyValue', id: 2 } } },
                    InstrumentationScope: {
                      fields: { name: { type: 'string', id: 1 }, version: { type: 'string', id: 2 } },
                    },
                  },
                },
              },
            },
            resource: {
              nested: { v1: { nested: { Resource: { fields: { attributes: { ...KEY_VALUES, id: 1 } } } } } },
            },
            trace: {
              nested: {
                v1: {
                  nested: {
                    ResourceSpans: {
                      fields: {
                        resource: { type: 'opentelemetry.proto.resource.v1.Resource', id: 1 },
                        scopeSpans: { rule: 'repeated', type: 'ScopeSpans', id: 2 },
                      },
                    },
                    ScopeSpans: {
                      fields: {
                        scope: { type: 'opentelemetry.proto.common.v1.InstrumentationScope', id: 1 },
                        spans: { rule: 'repeated', type: 'Span', id: 2 },
                      },
                    },
                    Span: {
                      fields: {
                        traceId: { type: 'bytes', id: 1 },
                        spanId: { type: 'bytes', id: 2 },
                        parentSpanId: { type: 'bytes', id: 4 },
                        name: { type: 'string', id: 5 },
                        kind: { type: 'int32', id: 6 },
                        startTimeUnixNano: { type: 'fixed64', id: 7 },
                        endTimeUnixNano: { type: 'fixed64', id: 8 },
                        attributes: { ...KEY_VALUES, id: 9 },
                        status: { type: 'Status', id: 15 },
                      },
                    },
                    Status: { fields: { message: { type: 'string', id: 2 }, code: { type: 'int32', id: 3 } } },
                  },
                },
              },
            },
            logs: {
              nested: {
                v1: {
                  nested: {
                    ResourceLogs: {
                      fields: {
                        resource: { type: 'opentelemetry.proto.resource.v1.Resource', id: 1 },
                        scopeLogs: { rule: 'repeated', type: 'ScopeLogs', id: 2 },
                      },
                    },
                    ScopeLogs: {
                      fields: {
                        scope: { type: 'opentelemetry.proto.common.v1.InstrumentationScope', id: 1 },
                        logRecords: { rule: 'repeated', type: 'LogRecord', id: 2 },
                      },
                    },
                    LogRecord: {
                      fields: {
                        timeUnixNano: { type: 'fixed64', id: 1 },
                        observedTimeUnixNano: { type: 'fixed64', id: 11 },
                        severityNumber: { type: 'int32', id: 2 },
                        severityText: { type: 'string', id: 3 },
                        body: { type: 'opentelemetry.proto.common.v1.AnyValue', id: 5 },
                        attributes: { ...KEY_VALUES, id: 6 },
                      },
                    },
                  },
                },
              },
            },
            collector: {
              nested: {
                trace: {
                  nested: {
                    v1: {
                      nested: {
                        ExportTraceServiceRequest: {
                          fields: {
                            resourceSpans: {
                              rule: 'repeated',
                              type: 'opentelemetry.proto.trace.v1.ResourceSpans',
                              id: 1,
                            },
                          },
                        },
                        ExportTraceServiceResponse: { fields: { partialSuccess: { type: 'PartialSuccess', id: 1 } } },
                        PartialSuccess: {
                          fields: { rejected: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } },
                        },
                      },
                    },
                  },
                },
                logs: {
                  nested: {
                    v1: {
                      nested: {
                        ExportLogsServiceRequest: {
                          fields: {
                            resourceLogs: { rule: 'repeated', type: 'opentelemetry.proto.logs.v1.ResourceLogs', id: 1 },
                          },
                        },
                        ExportLogsServiceResponse: { fields: { partialSuccess: { type: 'PartialSuccess', id: 1 } } },
                        PartialSuccess: {
                          fields: { rejected: { type: 'int64', id: 1 }, errorMessage: { type: 'string', id: 2 } },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    google: {
      nested: {
        rpc: { nested: { Status: { fields: { code: { type: 'int32', id: 1 }, message: { type: 'string', id: 2 } } } } },
      },
    },
  },
});

const TraceRequest = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const LogsRequest = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');
const RESPONSES = {
  traces: root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse'),
  logs: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse'),
} as const;
const RpcStatus = root.lookupType('google.rpc.Status');

export type OtlpSignal = keyof typeof RESPONSES;

/** Milliseconds since the epoch as OTLP's fixed64 nanoseconds. */
export function unixNanos(ms: number): Fixed64 {
  const nanos = BigInt(Math.max(0, Math.round(ms))) * 1_000_000n;
  return { low: Number(nanos & 0xffff_ffffn), high: Number(nanos >> 32n), unsigned: true };
}

function anyValue(value: AttributeValue): object {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isSafeInteger(value) ? { intValue: value } : { doubleValue: value };
  return { arrayValue: { values: value.map((each) => ({ stringValue: each })) } };
}

/** OTLP's KeyValue list of `attributes` (undefined values left out), in the given order. */
export function keyValues(attributes: Attributes): object[] {
  const list: object[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined) list.push({ key, value: anyValue(value) });
  }
  return list;
}

/** A log record's body: its message. */
export const textValue = (text: string): object => ({ stringValue: text });

/** Spans of one resource (one PINPAD), under one instrumentation scope. */
export interface ResourceSpansInput {
  readonly resource: Attributes;
  readonly scope: { readonly name: string; readonly version: string };
  readonly spans: readonly OtlpSpan[];
}

export interface ResourceLogsInput {
  readonly resource: Attributes;
  readonly scope: { readonly name: string; readonly version: string };
  readonly records: readonly OtlpLogRecord[];
}

/** The body of a POST to /v1/traces. */
export function encodeTraceRequest(groups: readonly ResourceSpansInput[]): Uint8Array {
  return TraceRequest.encode({
    resourceSpans: groups.map((group) => ({
      resource: { attributes: keyValues(group.resource) },
      scopeSpans: [{ scope: group.scope, spans: group.spans }],
    })),
  }).finish();
}

/** The body of a POST to /v1/logs. */
export function encodeLogsRequest(groups: readonly ResourceLogsInput[]): Uint8Array {
  return LogsRequest.encode({
    resourceLogs: groups.map((group) => ({
      resource: { attributes: keyValues(group.resource) },
      scopeLogs: [{ scope: group.scope, logRecords: group.records }],
    })),
  }).finish();
}

/** The HTTP status codes OTLP tries again (all other 4xx and 5xx MUST NOT be retried). */
const RETRYABLE: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** A failure's body: a google.rpc.Status whose message says why (or its text, from a proxy that answered for it). */
function failureDetail(body: Uint8Array): string {
  try {
    const message = (RpcStatus.toObject(RpcStatus.decode(body)) as { message?: string }).message;
    if (message !== undefined && message !== '') return message.slice(0, 300);
  } catch {
    // Not protobuf: an HTML page or text from a proxy in front of the receiver.
  }
  return Buffer.from(body).toString('utf8').slice(0, 300);
}

/** A 200's partial_success, as a warning to log (undefined when the receiver took everything and said nothing). */
function partialSuccess(signal: OtlpSignal, body: Uint8Array): string | undefined {
  try {
    const type = RESPONSES[signal];
    const { partialSuccess: partial } = type.toObject(type.decode(body), { longs: Number }) as {
      partialSuccess?: { rejected?: number; errorMessage?: string };
    };
    if (partial === undefined) return undefined;
    const rejected = partial.rejected ?? 0;
    const message = (partial.errorMessage ?? '').slice(0, 300);
    if (rejected === 0 && message === '') return undefined;
    return `${rejected} ${signal === 'traces' ? 'spans' : 'log records'} rejected${message === '' ? '' : `: ${message}`}`;
  } catch {
    return undefined; // A 200 with a body that is no response message: taken all the same.
  }
}

/** OTLP/HTTP as the pusher speaks it, for one signal. */
export function otlpWire(signal: OtlpSignal): PushWire {
  return {
    headers: { 'Content-Type': 'application/x-protobuf' },
    outcome(status, body, retryAfterMs): SendOutcome {
      if (status >= 200 && status < 300) return { kind: 'sent', warning: partialSuccess(signal, body) };
      if (RETRYABLE.has(status)) return { kind: 'retry', reason: `HTTP ${status}`, afterMs: retryAfterMs };
      return { kind: 'rejected', status, detail: failureDetail(body) };
    },
  };
}
