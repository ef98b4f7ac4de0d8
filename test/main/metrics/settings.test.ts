/**
 * The `metrics` section of the settings file: off unless enabled, 127.0.0.1:9464 unless told,
 * and a wrong value is named with its field before anything listens.
 */
import { describe, expect, it } from 'vitest';
import { schemaViolations } from '../../../main/contract/index.js';
import { MetricsSettings, resolveMetricsSettings } from '../../../main/metrics/settings.js';

describe('the metrics settings', () => {
  it('serve nothing by default, and 127.0.0.1:9464 once enabled', () => {
    expect(resolveMetricsSettings()).toEqual({ enabled: false, host: '127.0.0.1', port: 9464 });
    expect(resolveMetricsSettings({ enabled: true })).toEqual({ enabled: true, host: '127.0.0.1', port: 9464 });
    expect(resolveMetricsSettings({ enabled: true, host: '0.0.0.0', port: 9100 })).toEqual({
      enabled: true,
      host: '0.0.0.0',
      port: 9100,
    });
  });

  it.each([
    {},
    { enabled: true },
    { enabled: false, host: '192.168.0.20', port: 9464 },
    { host: '::' },
    { host: 'caixa-01.loja.local' },
    { host: 'fe80::1%eth0' },
  ])('accept %j', (section) => {
    expect(schemaViolations(MetricsSettings, section)).toEqual([]);
  });

  it.each([
    [{ enabled: 'yes' }, 'enabled'],
    [{ port: 0 }, 'port'],
    [{ port: 70000 }, 'port'],
    [{ port: 9464.5 }, 'port'],
    [{ host: '' }, 'host'],
    [{ host: 'http://0.0.0.0' }, 'host'],
    [{ host: '0.0.0.0 ' }, 'host'],
    [{ path: '/metrics' }, 'path'],
  ])('refuse %j (field "%s")', (section, field) => {
    const violations = schemaViolations(MetricsSettings, section);
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.map((v) => v.field)).toContain(field);
  });
});
