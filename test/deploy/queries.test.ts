/**
 * The chain dashboard (deploy/grafana/pinbridge-chain.json) and the alerting rules
 * (deploy/prometheus/pinbridge-alerts.yml) against a real Prometheus 2.42 on loopback, which loads
 * the rules and holds two hours of a small fleet's history (backfilled with promtool): every PromQL
 * expression of both, Grafana's variables set to match everything, evaluates without error, and
 * each of the dashboard's returns data; the dashboard has the panels and variables a chain needs;
 * every alert carries a severity and English annotations naming where it fires; and every
 * pinbridge_* name they use is one the agent exports.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECLINE_CATEGORIES } from '../../main/core/declines.js';
import { startPrometheus, type RunningPrometheus } from '../helpers/prometheus.js';
import { dashboard, dashboardQueries, variableExpr } from './dashboard.js';

const ROOT = resolve(import.meta.dirname, '../..');
const RULES = join(ROOT, 'deploy/prometheus/pinbridge-alerts.yml');

/** The metric names main/metrics declares (`name: 'pinbridge_…'`). */
function exportedNames(): Set<string> {
  const dir = join(ROOT, 'main/metrics');
  const names = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.ts')))
    for (const match of readFileSync(join(dir, file), 'utf8').matchAll(/name: '(pinbridge_\w+)'/g))
      names.add(match[1] as string);
  return names;
}

/** The pinbridge_* metric names an expression uses (recording rules' level:name:op names are not). */
function metricNames(expr: string): string[] {
  const tokens = expr.replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/[A-Za-z_:][A-Za-z0-9_:]*/g) ?? [];
  return tokens.filter((token) => token.startsWith('pinbridge_') && !token.includes(':'));
}

// --- A small fleet's last two hours -------------------------------------------------------------

/** Two stores of two checkouts, one PINPAD off, one undecided payment, one certificate 10 days out. */
function fleetHistory(now: number): string {
  const series = new Map<string, string[]>();
  const sample = (name: string, labels: Record<string, string>, value: number, at: number): void => {
    const text = Object.entries(labels)
      .map(([key, label]) => `${key}="${label}"`)
      .join(',');
    const lines = series.get(name) ?? [];
    lines.push(`${name}{${text}} ${value} ${at}`);
    series.set(name, lines);
  };
  const checkouts = [
    { chain: 'acme', store: 's01', checkout: 'c01' },
    { chain: 'acme', store: 's01', checkout: 'c02' },
    { chain: 'acme', store: 's02', checkout: 'c01' },
    { chain: 'acme', store: 's02', checkout: 'c02' },
  ];
  const steps = ['create_transaction', 'read_card', 'authorize', 'confirm'];
  for (let minute = 0; minute <= 120; minute++) {
    const at = now - (120 - minute) * 60;
    checkouts.forEach((where, index) => {
      sample('pinbridge_info', { ...where, version: index === 0 ? '0.2.0' : '0.1.0', mode: 'live' }, 1, at);
      sample('pinbridge_pinpad_up', { ...where, serial: `SN${index}`, model: 'PPC930' }, index === 3 ? 0 : 1, at);
      for (const [outcome, perMinute] of [
        ['approved', 9],
        ['declined', 1],
        ['cancelled', 1],
      ] as const)
        sample('pinbridge_payments_total', { ...where, outcome, payment_type: 'credit' }, perMinute * minute, at);
      sample('pinbridge_payment_declines_total', { ...where, category: DECLINE_CATEGORIES[0] }, minute, at);
      for (const step of steps)
        for (const [le, share] of [
          ['0.5', 0.5],
          ['1', 0.8],
          ['5', 0.95],
          ['+Inf', 1],
        ] as const)
          sample('pinbridge_payment_step_duration_seconds_bucket', { ...where, step, le }, 10 * minute * share, at);
      sample('pinbridge_payments_undecided', where, index === 1 ? 1 : 0, at);
      sample('pinbridge_payment_undecided_oldest_age_seconds', where, index === 1 ? 90 : 0, at);
      sample('pinbridge_disk_free_bytes', where, (index + 1) * 64 * 1024 * 1024, at);
      sample('pinbridge_journal_reserve_bytes', where, 8 * 1024 * 1024, at);
      sample(
        'pinbridge_certificate_expiry_timestamp_seconds',
        { ...where, certificate: 'api_client' },
        now + 200 * 86400,
        at,
      );
      const posTls = index === 2 ? now + 10 * 86400 : now + 300 * 86400;
      sample('pinbridge_certificate_expiry_timestamp_seconds', { ...where, certificate: 'pos_tls' }, posTls, at);
    });
  }
  // OpenMetrics wants each name's samples together, each series in time order.
  const byName = [...series.values()].map((lines) =>
    lines.sort((a, b) => a.split(' ')[0]!.localeCompare(b.split(' ')[0]!)),
  );
  return `${byName.map((lines) => lines.join('\n')).join('\n')}\n# EOF\n`;
}

interface RulesAnswer {
  readonly data: {
    readonly groups: readonly {
      readonly rules: readonly {
        readonly type: 'alerting' | 'recording';
        readonly name: string;
        readonly query: string;
        readonly health: string;
        readonly lastError?: string;
        readonly labels?: Record<string, string>;
        readonly annotations?: Record<string, string>;
      }[];
    }[];
  };
}

let prometheus: RunningPrometheus;
let rules: RulesAnswer['data']['groups'][number]['rules'][number][];

beforeAll(async () => {
  prometheus = await startPrometheus({ ruleFiles: [RULES], openMetrics: fleetHistory(Math.floor(Date.now() / 1000)) });
  // Every rule evaluated once (each second), without an error.
  const deadline = Date.now() + 15_000;
  let unhealthy: string[];
  do {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const answer = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as RulesAnswer;
    rules = answer.data.groups.flatMap((group) => group.rules);
    unhealthy = rules
      .filter(({ health }) => health !== 'ok')
      .map(({ name, health, lastError }) => `${name}: ${health} ${lastError ?? ''}`);
  } while (unhealthy.length > 0 && Date.now() < deadline);
  expect(unhealthy).toEqual([]);
});

afterAll(async () => {
  await prometheus?.stop();
});

describe('the chain dashboard', () => {
  it('is a Grafana dashboard on a Prometheus data source variable, with the chain, store and checkout variables', () => {
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.uid).toBe('pinbridge-chain');
    const [source, ...rest] = dashboard.templating.list;
    expect(source).toMatchObject({ name: 'datasource', type: 'datasource', query: 'prometheus' });
    expect(rest.map(({ name }) => name)).toEqual(['chain', 'store', 'checkout']);
    for (const variable of rest)
      expect(variable).toMatchObject({ type: 'query', includeAll: true, multi: true, allValue: '.*' });
    for (const panel of dashboard.panels) {
      expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
      for (const target of panel.targets) {
        expect(target.expr, `${panel.title} ${target.refId}`).toContain('chain=~"$chain"');
        expect(target.expr).toContain('store=~"$store"');
        expect(target.expr).toContain('checkout=~"$checkout"');
      }
    }
  });

  it('has the panels a chain watches, each on the series it is about', () => {
    const panel = (title: string): string => {
      const found = dashboard.panels.find((candidate) => candidate.title === title);
      expect(found, title).toBeDefined();
      return found!.targets.map(({ expr }) => expr).join('\n');
    };
    expect(panel('Stores online')).toContain('pinbridge_info');
    expect(panel('Checkouts online')).toContain('pinbridge_info');
    expect(panel('PINPADs offline')).toContain('pinbridge_pinpad_up');
    expect(panel('Approval rate by store')).toContain('outcome="approved"');
    expect(panel('Declines by category')).toContain('by (category)');
    expect(panel('Slow steps (p95 by step)')).toMatch(
      /histogram_quantile\(0\.95, .*by \(step, le\).*pinbridge_payment_step_duration_seconds_bucket/,
    );
    expect(panel('Undecided payments by checkout')).toContain('pinbridge_payment_undecided_oldest_age_seconds');
    expect(panel('Certificates expiring')).toContain('pinbridge_certificate_expiry_timestamp_seconds');
    expect(panel('Disk low')).toContain('pinbridge_journal_reserve_bytes');
    expect(panel('Versions')).toContain('by (version)');
  });

  it('runs every query, its variables matching everything, without error and with data', async () => {
    const queries = dashboardQueries();
    expect(queries.length).toBeGreaterThan(15);
    for (const { where, expr } of queries) {
      const answer = await prometheus.query(expr);
      expect({ where, status: answer.status, error: answer.error }).toEqual({
        where,
        status: 'success',
        error: undefined,
      });
      expect(answer.data?.result.length, `${where} found no data: ${expr}`).toBeGreaterThan(0);
    }
  });
});

describe('the alerting rules, loaded by Prometheus', () => {
  /** Where each alert fires, as its description names it: the labels it must mention. */
  const NAMES: Record<string, readonly string[]> = {
    PinbridgeUndecidedPayment: ['chain', 'store', 'checkout'],
    PinbridgeApprovalRateDrop: ['chain', 'store'], // per store: a checkout sells too little for a rate
    PinbridgePinpadDisconnected: ['chain', 'store', 'checkout', 'serial'],
    PinbridgeDiskBelowJournalReserve: ['chain', 'store', 'checkout'],
    PinbridgeCertificateExpiring: ['chain', 'store', 'checkout', 'certificate'],
    PinbridgeCheckoutSilent: ['chain', 'store', 'checkout'],
    PinbridgeNoTelemetry: [], // the whole fleet is silent: nowhere in particular
  };

  it('gives every alert a severity, a summary, a description naming where it fires, and a runbook hint in docs/fleet.md', () => {
    const alerts = rules.filter(({ type }) => type === 'alerting');
    expect(alerts.map(({ name }) => name).sort()).toEqual(Object.keys(NAMES).sort());
    const fleetDoc = readFileSync(join(ROOT, 'docs/fleet.md'), 'utf8');
    for (const alert of alerts) {
      expect(['critical', 'warning'], alert.name).toContain(alert.labels?.severity);
      const { summary = '', description = '', runbook = '' } = alert.annotations ?? {};
      expect(summary.length, alert.name).toBeGreaterThan(10);
      for (const label of NAMES[alert.name]!) expect(description, alert.name).toContain(`{{ $labels.${label} }}`);
      expect(runbook).toMatch(new RegExp(`^docs/fleet\\.md#${alert.name.toLowerCase()}: `));
      expect(fleetDoc, `docs/fleet.md has no heading for ${alert.name}`).toMatch(
        new RegExp(`^#+ .*\\b${alert.name}\\b`, 'm'),
      );
    }
  });

  it('evaluates every rule expression without error', async () => {
    expect(rules.length).toBeGreaterThanOrEqual(11);
    for (const rule of rules) {
      const answer = await prometheus.query(rule.query);
      expect({ rule: rule.name, status: answer.status, error: answer.error }).toEqual({
        rule: rule.name,
        status: 'success',
        error: undefined,
      });
    }
  });
});

describe('the pinbridge_* names the dashboard and the rules use', () => {
  const used = (): Set<string> =>
    new Set([
      ...dashboard.templating.list.flatMap((variable) =>
        variable.type === 'query' ? metricNames(variableExpr(variable)) : [],
      ),
      ...dashboard.panels.flatMap((panel) => panel.targets.flatMap(({ expr }) => metricNames(expr))),
      ...rules.flatMap(({ query }) => metricNames(query)),
    ]);

  it('are all exported by the agent (main/metrics), a histogram by its _bucket, _sum and _count', () => {
    const known = exportedNames();
    const unknown = [...used()].filter(
      (name) => !known.has(name) && !known.has(name.replace(/_(bucket|sum|count)$/, '')),
    );
    expect(used().size).toBeGreaterThan(8);
    expect(unknown).toEqual([]);
  });
});
