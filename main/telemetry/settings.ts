/**
 * The `telemetry` section of the settings file: whether the agent pushes its Prometheus metrics
 * to the chain's monitoring by Prometheus remote write (docs/fleet.md, Telemetry), where, with
 * which credentials, how often, under which chain/store/checkout labels, and how much it keeps
 * while the endpoint cannot be reached. Off by default.
 */
import { Type, type Static } from 'typebox';

export const DEFAULT_TELEMETRY_INTERVAL_S = 60;
export const DEFAULT_TELEMETRY_TIMEOUT_S = 10;
/** A day of pushes a minute apart. */
export const DEFAULT_QUEUE_MAX_BATCHES = 1_440;
export const DEFAULT_QUEUE_MAX_BYTES = 32 * 1024 * 1024;

/** A label value naming a place in the chain: short, printable, no spaces (never a person's data). */
const PlaceId = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]*$',
    description: `The ${what} id, as the \`${what}\` label of every pushed series (letters, digits, . _ : -).`,
  });

export const TelemetrySettings = Type.Object(
  {
    enabled: Type.Optional(
      Type.Boolean({
        description:
          'Push the metrics to `endpoint` by Prometheus remote write (default false: nothing is pushed). Needs endpoint, chain, store and checkout.',
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
      Type.Record(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$" }), Type.String({ maxLength: 4000 }), {
        description: 'HTTP headers sent with every push (e.g. a tenant header, or Authorization). Never logged.',
      }),
    ),
    bearer_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4000,
        description:
          'Sent as "Authorization: Bearer TOKEN" with every push (instead of an Authorization header). Never logged.',
      }),
    ),
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
    chain: Type.Optional(PlaceId('chain')),
    store: Type.Optional(PlaceId('store')),
    checkout: Type.Optional(PlaceId('checkout')),
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
            'What is kept on disk while the endpoint cannot be reached; past either bound the oldest batch is dropped (counted in pinbridge_telemetry_dropped_total).',
        },
      ),
    ),
  },
  { additionalProperties: false, title: 'TelemetrySettings' },
);
export type TelemetrySettings = Static<typeof TelemetrySettings>;

export interface ResolvedTelemetrySettings {
  readonly enabled: boolean;
  readonly endpoint: string;
  /** Every header sent, the bearer token's Authorization included. */
  readonly headers: Readonly<Record<string, string>>;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly chain: string;
  readonly store: string;
  readonly checkout: string;
  readonly maxBatches: number;
  readonly maxBytes: number;
}

export interface TelemetryProblem {
  /** Within the section (`endpoint`, `bearer_token`…). */
  readonly field: string;
  readonly code: 'REQUIRED' | 'INVALID_VALUE';
  readonly message: string;
}

/** What the schema alone cannot say: the fields enabled needs, and one Authorization at most. */
export function telemetryViolations(settings: TelemetrySettings): TelemetryProblem[] {
  const problems: TelemetryProblem[] = [];
  if (settings.enabled === true) {
    for (const field of ['endpoint', 'chain', 'store', 'checkout'] as const) {
      if (settings[field] === undefined)
        problems.push({ field, code: 'REQUIRED', message: 'is required when telemetry is enabled' });
    }
  }
  const hasAuthorization = Object.keys(settings.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
  if (settings.bearer_token !== undefined && hasAuthorization)
    problems.push({
      field: 'bearer_token',
      code: 'INVALID_VALUE',
      message: 'cannot be given with an Authorization header: choose one',
    });
  return problems;
}

/** The section with its defaults (an absent section: nothing pushed). Valid only after telemetryViolations found none. */
export function resolveTelemetrySettings(settings: TelemetrySettings = {}): ResolvedTelemetrySettings {
  return {
    enabled: settings.enabled === true,
    endpoint: settings.endpoint ?? '',
    headers: {
      ...settings.headers,
      ...(settings.bearer_token === undefined ? {} : { Authorization: `Bearer ${settings.bearer_token}` }),
    },
    intervalMs: (settings.interval_s ?? DEFAULT_TELEMETRY_INTERVAL_S) * 1000,
    timeoutMs: (settings.timeout_s ?? DEFAULT_TELEMETRY_TIMEOUT_S) * 1000,
    chain: settings.chain ?? '',
    store: settings.store ?? '',
    checkout: settings.checkout ?? '',
    maxBatches: settings.queue?.max_batches ?? DEFAULT_QUEUE_MAX_BATCHES,
    maxBytes: settings.queue?.max_bytes ?? DEFAULT_QUEUE_MAX_BYTES,
  };
}
