/**
 * The `telemetry` section of the settings file: whether the agent pushes its Prometheus metrics
 * to the chain's monitoring by Prometheus remote write and, in `otlp`, a trace per payment and its
 * warning/error logs by OTLP/HTTP (docs/fleet.md, Telemetry), where, with which credentials, how
 * often, and how much it keeps while an endpoint cannot be reached. Off by default.
 *
 * The chain/store/checkout labels are not this section's: they are the checkout's place in the
 * chain, declared once in the settings' `fleet` section (main/settings/fleet-settings.ts) and
 * given here as plain data (this floor sits below the settings file's).
 */
import { Type, type Static } from 'typebox';

export const DEFAULT_TELEMETRY_INTERVAL_S = 60;
export const DEFAULT_TELEMETRY_TIMEOUT_S = 10;
/** A day of pushes a minute apart. */
export const DEFAULT_QUEUE_MAX_BATCHES = 1_440;
export const DEFAULT_QUEUE_MAX_BYTES = 32 * 1024 * 1024;

/** This checkout's place in the chain (the settings' `fleet` section): the labels of every push. */
export interface TelemetryPlace {
  readonly chain?: string | undefined;
  readonly store?: string | undefined;
  readonly checkout?: string | undefined;
}

/** HTTP headers sent with every push: names as HTTP allows them; values never logged. */
const Headers = (description: string) =>
  Type.Record(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$" }), Type.String({ maxLength: 4000 }), {
    description,
  });

const BearerToken = Type.String({
  minLength: 1,
  maxLength: 4000,
  description:
    'Sent as "Authorization: Bearer TOKEN" with every push (instead of an Authorization header). Never logged.',
});

/** What is pushed by OTLP/HTTP, and where (main/telemetry/otlp-*.ts). */
export const OtlpSettings = Type.Object(
  {
    endpoint: Type.String({
      minLength: 1,
      maxLength: 2000,
      pattern: '^https?://',
      description:
        "The OTLP/HTTP receiver's base URL (http or https), e.g. an OpenTelemetry Collector's https://otel.example:4318: traces go to its /v1/traces, logs to its /v1/logs (binary protobuf).",
    }),
    headers: Type.Optional(
      Headers('HTTP headers sent with every OTLP push (e.g. a tenant header, or Authorization). Never logged.'),
    ),
    bearer_token: Type.Optional(BearerToken),
    send: Type.Optional(
      Type.Object(
        {
          traces: Type.Optional(
            Type.Boolean({
              description:
                'One trace per payment: a span for the payment and one per step (create_transaction, read_card, authorize, confirm). Default true.',
            }),
          ),
          logs: Type.Optional(
            Type.Boolean({
              description: 'The warning and error lines of the log (card data masked, CPFs masked). Default true.',
            }),
          ),
        },
        { additionalProperties: false, description: 'What is sent by OTLP (default: both).' },
      ),
    ),
    log_level: Type.Optional(
      Type.Union([Type.Literal('warn'), Type.Literal('error')], {
        description: 'The lowest log level sent: warn (default: warnings and errors) or error.',
      }),
    ),
    interval_s: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 3600,
        description: "Seconds between two OTLP batches (default: telemetry's interval_s).",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Push a trace per payment and the warning/error logs by OTLP/HTTP (protobuf) to an OpenTelemetry Collector or another OTLP receiver. Resource attributes: service.name, service.version, the chain, store and checkout (fleet), the PINPAD serial.',
  },
);
export type OtlpSettings = Static<typeof OtlpSettings>;

export const TelemetrySettings = Type.Object(
  {
    enabled: Type.Optional(
      Type.Boolean({
        description:
          'Push telemetry (default false: nothing is pushed): the metrics to `endpoint` by Prometheus remote write, traces and logs to `otlp.endpoint` by OTLP. Needs fleet.chain, fleet.store, fleet.checkout (the labels) and at least one of the two endpoints.',
      }),
    ),
    endpoint: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2000,
        pattern: '^https?://',
        description:
          'The remote-write URL (http or https), e.g. a Prometheus started with --web.enable-remote-write-receiver: https://prometheus.example/api/v1/write.',
      }),
    ),
    headers: Type.Optional(
      Headers('HTTP headers sent with every remote-write push (e.g. a tenant header, or Authorization). Never logged.'),
    ),
    bearer_token: Type.Optional(BearerToken),
    interval_s: Type.Optional(
      Type.Integer({ minimum: 5, maximum: 3600, description: 'Seconds between two collections (default 60).' }),
    ),
    timeout_s: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 120,
        description: 'Seconds a push may take before it is retried later (default 10).',
      }),
    ),
    otlp: Type.Optional(OtlpSettings),
    queue: Type.Optional(
      Type.Object(
        {
          max_batches: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 100_000, description: 'Batches kept unsent at most (default 1440).' }),
          ),
          max_bytes: Type.Optional(
            Type.Integer({
              minimum: 1024,
              maximum: 1024 * 1024 * 1024,
              description: 'Bytes of unsent batches kept at most (default 33554432: 32 MiB).',
            }),
          ),
        },
        {
          additionalProperties: false,
          description:
            'What is kept on disk while an endpoint cannot be reached, for each of metrics, traces and logs (a folder each); past either bound the oldest batch is dropped (counted in pinbridge_telemetry_dropped_total{signal}).',
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'TelemetrySettings' },
);
export type TelemetrySettings = Static<typeof TelemetrySettings>;

export interface ResolvedOtlpSettings {
  /** The receiver's base URL as given, and the two URLs pushed to. */
  readonly endpoint: string;
  readonly tracesUrl: string;
  readonly logsUrl: string;
  /** Every header sent, the bearer token's Authorization included. */
  readonly headers: Readonly<Record<string, string>>;
  readonly traces: boolean;
  readonly logs: boolean;
  readonly logLevel: 'warn' | 'error';
  readonly intervalMs: number;
}

export interface ResolvedTelemetrySettings {
  readonly enabled: boolean;
  /** The remote-write URL; '' when metrics are not pushed (OTLP alone). */
  readonly endpoint: string;
  /** Every header sent, the bearer token's Authorization included. */
  readonly headers: Readonly<Record<string, string>>;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  /** The labels: the fleet section's ids ('' when left out: never, once telemetryViolations found none). */
  readonly chain: string;
  readonly store: string;
  readonly checkout: string;
  readonly maxBatches: number;
  readonly maxBytes: number;
  /** Undefined when nothing goes by OTLP. */
  readonly otlp: ResolvedOtlpSettings | undefined;
}

export interface TelemetryProblem {
  /** From the settings' root (`telemetry.endpoint`, `fleet.chain`…). */
  readonly field: string;
  readonly code: 'REQUIRED' | 'INVALID_VALUE';
  readonly message: string;
}

const hasAuthorization = (headers: Readonly<Record<string, string>> | undefined): boolean =>
  Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'authorization');

/**
 * What the schema alone cannot say: the fields enabled needs (the fleet's three ids among them:
 * every series is labelled with them), one Authorization at most, an OTLP section that sends something.
 */
export function telemetryViolations(settings: TelemetrySettings, place: TelemetryPlace = {}): TelemetryProblem[] {
  const problems: TelemetryProblem[] = [];
  if (settings.enabled === true) {
    for (const field of ['chain', 'store', 'checkout'] as const) {
      if (place[field] === undefined)
        problems.push({
          field: `fleet.${field}`,
          code: 'REQUIRED',
          message: `is required when telemetry is enabled: every pushed series is labelled with it`,
        });
    }
    if (settings.endpoint === undefined && settings.otlp === undefined)
      problems.push({
        field: 'telemetry.endpoint',
        code: 'REQUIRED',
        message: 'is required when telemetry is enabled (or otlp.endpoint, for traces and logs only)',
      });
  }
  if (settings.bearer_token !== undefined && hasAuthorization(settings.headers))
    problems.push({
      field: 'telemetry.bearer_token',
      code: 'INVALID_VALUE',
      message: 'cannot be given with an Authorization header: choose one',
    });
  const otlp = settings.otlp;
  if (otlp !== undefined) {
    if (otlp.bearer_token !== undefined && hasAuthorization(otlp.headers))
      problems.push({
        field: 'telemetry.otlp.bearer_token',
        code: 'INVALID_VALUE',
        message: 'cannot be given with an Authorization header: choose one',
      });
    if (otlp.send?.traces === false && otlp.send.logs === false)
      problems.push({
        field: 'telemetry.otlp.send',
        code: 'INVALID_VALUE',
        message: 'sends nothing: set traces or logs to true, or remove the otlp section',
      });
  }
  return problems;
}

/** `base` + `/v1/<signal>`, as OpenTelemetry's exporters build it from OTEL_EXPORTER_OTLP_ENDPOINT. */
export function otlpSignalUrl(base: string, signal: 'traces' | 'logs'): string {
  return `${base.replace(/\/+$/, '')}/v1/${signal}`;
}

function resolveOtlp(otlp: OtlpSettings | undefined, intervalMs: number): ResolvedOtlpSettings | undefined {
  if (otlp === undefined) return undefined;
  return {
    endpoint: otlp.endpoint,
    tracesUrl: otlpSignalUrl(otlp.endpoint, 'traces'),
    logsUrl: otlpSignalUrl(otlp.endpoint, 'logs'),
    headers: {
      ...otlp.headers,
      ...(otlp.bearer_token === undefined ? {} : { Authorization: `Bearer ${otlp.bearer_token}` }),
    },
    traces: otlp.send?.traces !== false,
    logs: otlp.send?.logs !== false,
    logLevel: otlp.log_level ?? 'warn',
    intervalMs: otlp.interval_s === undefined ? intervalMs : otlp.interval_s * 1000,
  };
}

/**
 * The section with its defaults (an absent section: nothing pushed), labelled with `place` (the
 * fleet section). Valid only after telemetryViolations found none.
 */
export function resolveTelemetrySettings(
  settings: TelemetrySettings = {},
  place: TelemetryPlace = {},
): ResolvedTelemetrySettings {
  const intervalMs = (settings.interval_s ?? DEFAULT_TELEMETRY_INTERVAL_S) * 1000;
  return {
    enabled: settings.enabled === true,
    endpoint: settings.endpoint ?? '',
    headers: {
      ...settings.headers,
      ...(settings.bearer_token === undefined ? {} : { Authorization: `Bearer ${settings.bearer_token}` }),
    },
    intervalMs,
    timeoutMs: (settings.timeout_s ?? DEFAULT_TELEMETRY_TIMEOUT_S) * 1000,
    chain: place.chain ?? '',
    store: place.store ?? '',
    checkout: place.checkout ?? '',
    maxBatches: settings.queue?.max_batches ?? DEFAULT_QUEUE_MAX_BATCHES,
    maxBytes: settings.queue?.max_bytes ?? DEFAULT_QUEUE_MAX_BYTES,
    otlp: resolveOtlp(settings.otlp, intervalMs),
  };
}
