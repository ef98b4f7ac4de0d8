/**
 * The `telemetry` section as the settings file checks it: metrics by remote write (`endpoint`),
 * traces and logs by OTLP (`otlp`), either or both; what `otlp` sends by default and where; and
 * the mistakes refused with their field and code.
 */
import { describe, expect, it } from 'vitest';
import { SettingsError } from '../../../main/core/settings.js';
import { parseSettings } from '../../../main/settings/settings-file.js';
import { redactSettings } from '../../../main/support/redact-settings.js';
import { otlpSignalUrl, resolveTelemetrySettings, telemetryViolations } from '../../../main/telemetry/settings.js';

const PLACE = { chain: 'acme', store: 'sp-01', checkout: 'pdv-3' } as const;

/** The violations parseSettings refuses `telemetry` with (beside `fleet`, when given), as field and code. */
function refused(telemetry: unknown, fleet?: unknown): Array<[string, string]> {
  try {
    parseSettings({ telemetry, ...(fleet === undefined ? {} : { fleet }) }, null);
  } catch (error) {
    if (error instanceof SettingsError) return error.violations.map((violation) => [violation.field, violation.code]);
    throw error;
  }
  return [];
}

describe('telemetry.otlp', () => {
  it('sends traces and logs from warn up to <endpoint>/v1/traces and /v1/logs by default, every telemetry interval', () => {
    const resolved = resolveTelemetrySettings(
      {
        enabled: true,
        interval_s: 30,
        otlp: { endpoint: 'https://otel.example:4318/', bearer_token: 'tok' },
      },
      PLACE,
    );
    expect(resolved).toMatchObject(PLACE);
    expect(resolved.endpoint).toBe('');
    expect(resolved.otlp).toEqual({
      endpoint: 'https://otel.example:4318/',
      tracesUrl: 'https://otel.example:4318/v1/traces',
      logsUrl: 'https://otel.example:4318/v1/logs',
      headers: { Authorization: 'Bearer tok' },
      traces: true,
      logs: true,
      logLevel: 'warn',
      intervalMs: 30_000,
    });
    expect(
      resolveTelemetrySettings({
        otlp: { endpoint: 'http://collector', send: { logs: false }, log_level: 'error', interval_s: 5 },
      }).otlp,
    ).toMatchObject({ traces: true, logs: false, logLevel: 'error', intervalMs: 5_000 });
    expect(resolveTelemetrySettings({}).otlp).toBeUndefined();
  });

  it('keeps a path prefix of the endpoint (a collector behind a reverse proxy)', () => {
    expect(otlpSignalUrl('https://gw.example/otlp', 'logs')).toBe('https://gw.example/otlp/v1/logs');
    expect(otlpSignalUrl('https://gw.example/otlp//', 'traces')).toBe('https://gw.example/otlp/v1/traces');
  });

  it('lets OTLP alone, remote write alone, or both, satisfy an enabled section', () => {
    expect(telemetryViolations({ enabled: true, otlp: { endpoint: 'http://collector:4318' } }, PLACE)).toEqual([]);
    expect(telemetryViolations({ enabled: true, endpoint: 'http://prometheus/api/v1/write' }, PLACE)).toEqual([]);
    expect(refused({ enabled: true }, PLACE)).toEqual([['telemetry.endpoint', 'REQUIRED']]);
    // The labels are the fleet section's ids: the one declaration of this checkout's place.
    expect(refused({ enabled: true, otlp: { endpoint: 'http://collector:4318' } })).toEqual([
      ['fleet.chain', 'REQUIRED'],
      ['fleet.store', 'REQUIRED'],
      ['fleet.checkout', 'REQUIRED'],
    ]);
  });

  it('refuses a section that sends nothing, two Authorizations, and what the schema does not allow', () => {
    expect(refused({ otlp: { endpoint: 'http://c', send: { traces: false, logs: false } } })).toEqual([
      ['telemetry.otlp.send', 'INVALID_VALUE'],
    ]);
    expect(
      refused({ otlp: { endpoint: 'http://c', bearer_token: 't', headers: { authorization: 'Basic x' } } }),
    ).toEqual([['telemetry.otlp.bearer_token', 'INVALID_VALUE']]);
    expect(refused({ otlp: { endpoint: 'grpc://collector:4317' } }).map(([field]) => field)).toEqual([
      'telemetry.otlp.endpoint',
    ]);
    expect(refused({ otlp: { endpoint: 'http://c', log_level: 'info' } }).map(([field]) => field)).toEqual([
      'telemetry.otlp.log_level',
    ]);
    expect(refused({ otlp: {} }).map(([field]) => field)).toEqual(['telemetry.otlp.endpoint']);
    expect(refused({ otlp: { endpoint: 'http://c', sampling: 0.5 } }).map(([field]) => field)).toEqual([
      'telemetry.otlp.sampling',
    ]);
  });

  it("keeps its credentials out of a support bundle's settings", () => {
    const telemetry = {
      enabled: true,
      otlp: { endpoint: 'https://otel.example:4318', bearer_token: 'tok-123', headers: { 'X-Api-Key': 'key-456' } },
    };
    expect(redactSettings({ telemetry })).toEqual({
      telemetry: {
        ...telemetry,
        otlp: { endpoint: 'https://otel.example:4318', bearer_token: '(set)', headers: { 'X-Api-Key': '(set)' } },
      },
    });
  });
});
