/**
 * deploy/prometheus/pinbridge-alerts.yml, as CI checks it: `promtool check rules` accepts it,
 * `promtool test rules` passes its unit tests (pinbridge-alerts.test.yml), every alert has a case
 * where it fires and one where it stays quiet, and those tests bite: an alert taken out of the rules
 * fails them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROMTOOL } from '../helpers/prometheus.js';

const ROOT = resolve(import.meta.dirname, '../..');
const RULES = join(ROOT, 'deploy/prometheus/pinbridge-alerts.yml');
const TESTS = join(ROOT, 'deploy/prometheus/pinbridge-alerts.test.yml');

function promtool(...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(PROMTOOL, args, { encoding: 'utf8' });
  return { status: run.status, output: run.stdout + run.stderr };
}

/** The alerts the rules file declares (`- alert: Name`). */
function alertNames(rules: string): string[] {
  return [...rules.matchAll(/^\s*- alert: (\S+)\s*$/gm)].map((match) => match[1] as string);
}

/** For each alert the unit tests evaluate: whether some case expects it firing, and some quiet. */
function cases(tests: string): Map<string, { firing: boolean; quiet: boolean }> {
  const found = new Map<string, { firing: boolean; quiet: boolean }>();
  for (const match of tests.matchAll(/^\s*alertname: (\S+)\s*\n\s*exp_alerts:(.*)$/gm)) {
    const name = match[1] as string;
    const entry = found.get(name) ?? { firing: false, quiet: false };
    if ((match[2] as string).trim() === '[]') entry.quiet = true;
    else entry.firing = true;
    found.set(name, entry);
  }
  return found;
}

/**
 * The unit tests file with only the test groups that evaluate `alert` (each group starts with
 * `  - name:` under `tests:`): promtool then runs those alone, not the day-long approval case for
 * every alert taken out.
 */
function testsOf(tests: string, alert: string): string {
  const [header, ...groups] = tests.split(/^(?= {2}- name: )/m);
  return [header, ...groups.filter((group) => group.includes(`alertname: ${alert}\n`))].join('');
}

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

describe('the alerting rules in deploy/prometheus', () => {
  it('pass `promtool check rules`', () => {
    const check = promtool('check', 'rules', RULES);
    expect(check.status, check.output).toBe(0);
  });

  it('pass their unit tests (`promtool test rules`)', () => {
    const test = promtool('test', 'rules', TESTS);
    expect(test.status, test.output).toBe(0);
    expect(test.output).toContain('SUCCESS');
  });

  it('have, for every alert, a case where it fires and one where it does not', () => {
    const alerts = alertNames(readFileSync(RULES, 'utf8'));
    expect(alerts.length).toBeGreaterThanOrEqual(6);
    const tested = cases(readFileSync(TESTS, 'utf8'));
    for (const alert of alerts) expect({ alert, ...tested.get(alert) }).toEqual({ alert, firing: true, quiet: true });
  });

  it('have unit tests that fail when an alert is missing from the rules', () => {
    const rules = readFileSync(RULES, 'utf8');
    for (const alert of alertNames(rules)) {
      const dir = mkdtempSync(join(tmpdir(), 'pinbridge-alerts-'));
      scratch.push(dir);
      writeFileSync(join(dir, 'pinbridge-alerts.yml'), rules.replace(`- alert: ${alert}\n`, `- alert: ${alert}Gone\n`));
      const own = testsOf(readFileSync(TESTS, 'utf8'), alert);
      expect(own).toContain(`alertname: ${alert}\n`);
      writeFileSync(join(dir, 'pinbridge-alerts.test.yml'), own);
      const test = promtool('test', 'rules', join(dir, 'pinbridge-alerts.test.yml'));
      expect(test.status, `${alert} renamed: ${test.output}`).not.toBe(0);
      expect(test.output).toContain(`alertname: ${alert}, `);
    }
  }, 120_000);
});
