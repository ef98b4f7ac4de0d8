/**
 * The chain dashboard (deploy/grafana/pinbridge-chain.json) as the deploy specs read it: its
 * panels, its variables, and each PromQL query as Grafana runs it with "All" chosen.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';

const DASHBOARD = join(resolve(import.meta.dirname, '../..'), 'deploy/grafana/pinbridge-chain.json');

export interface Target {
  readonly expr: string;
  readonly refId: string;
}
export interface Panel {
  readonly title: string;
  readonly type: string;
  readonly datasource: { readonly type: string; readonly uid: string };
  readonly targets: readonly Target[];
}
export interface Variable {
  readonly name: string;
  readonly type: string;
  readonly query: string | { readonly query: string };
  readonly allValue?: string;
  readonly includeAll?: boolean;
  readonly multi?: boolean;
}
export interface Dashboard {
  readonly schemaVersion: number;
  readonly uid: string;
  readonly title: string;
  readonly templating: { readonly list: readonly Variable[] };
  readonly panels: readonly Panel[];
}

export const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;

/** Grafana's variables as a query runs with "All" chosen, and its interval macros. */
export function substituted(expr: string): string {
  const out = expr
    .replace(/\$\{?(chain|store|checkout)\}?/g, '.*')
    .replace(/\$__rate_interval/g, '4m')
    .replace(/\$__interval/g, '1m')
    .replace(/\$__range/g, '1h');
  expect(out, `a variable left in ${expr}`).not.toContain('$');
  return out;
}

/** A query variable's PromQL: label_values(<selector>, label) runs the selector. */
export function variableExpr(variable: Variable): string {
  const query = typeof variable.query === 'string' ? variable.query : variable.query.query;
  const labelValues = /^label_values\((.*),\s*\w+\)$/.exec(query);
  return labelValues ? (labelValues[1] as string) : query;
}

/** Every query the dashboard runs (its query variables' and its panels'), variables substituted. */
export function dashboardQueries(): { where: string; expr: string }[] {
  return [
    ...dashboard.templating.list
      .filter(({ type }) => type === 'query')
      .map((variable) => ({ where: `variable ${variable.name}`, expr: substituted(variableExpr(variable)) })),
    ...dashboard.panels.flatMap((panel) =>
      panel.targets.map(({ expr, refId }) => ({ where: `${panel.title} ${refId}`, expr: substituted(expr) })),
    ),
  ];
}
