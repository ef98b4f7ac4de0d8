/**
 * The `metrics` section of the settings file: whether the agent serves Prometheus metrics, and
 * where. Off by default; when on, served on 127.0.0.1:9464 unless `host`/`port` say otherwise —
 * a store chain whose Prometheus scrapes the checkouts over the network sets `host` to the
 * address it reaches (or "0.0.0.0"). The listener serves nothing but the metrics (server.ts).
 */
import { Type, type Static } from 'typebox';

export const DEFAULT_METRICS_HOST = '127.0.0.1';
export const DEFAULT_METRICS_PORT = 9464;

export const MetricsSettings = Type.Object(
  {
    enabled: Type.Optional(
      Type.Boolean({
        description: 'Serve Prometheus metrics at http://HOST:PORT/metrics (default false: not served).',
      }),
    ),
    host: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 253,
        pattern: '^[A-Za-z0-9.:%-]+$',
        description:
          'Address to listen on (default 127.0.0.1: this computer only). An IP of this computer, or "0.0.0.0" / "::" for every ' +
          "interface, lets the store's Prometheus scrape it over the network; only the metrics are served there.",
      }),
    ),
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, description: 'TCP port (default 9464).' })),
  },
  { additionalProperties: false, title: 'MetricsSettings' },
);
export type MetricsSettings = Static<typeof MetricsSettings>;

export interface ResolvedMetricsSettings {
  readonly enabled: boolean;
  readonly host: string;
  readonly port: number;
}

/** The section with its defaults filled in (an absent section: not served). */
export function resolveMetricsSettings(settings: MetricsSettings = {}): ResolvedMetricsSettings {
  return {
    enabled: settings.enabled === true,
    host: settings.host ?? DEFAULT_METRICS_HOST,
    port: settings.port ?? DEFAULT_METRICS_PORT,
  };
}
