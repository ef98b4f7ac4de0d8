/**
 * The fleet benchmark's simulated checkout (fleet-emitter.ts) is shaped like an agent: the
 * pinbridge_* metrics main/metrics defines, with its buckets, and counters that only grow as
 * sales go by — so what the benchmark measures is what a real fleet would push.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_DURATION_BUCKETS, FleetEmitter, PAYMENT_DURATION_BUCKETS, STEP_BUCKETS } from './fleet-emitter.js';

const ROOT = join(import.meta.dirname, '../..');

/** Every `name: 'pinbridge_…'` defined in the folder's sources. */
function namesDefinedIn(folder: string): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(join(ROOT, folder)).filter((name) => name.endsWith('.ts'))) {
    for (const match of readFileSync(join(ROOT, folder, file), 'utf8').matchAll(/name: '(pinbridge_[a-z_]+)'/g))
      names.add(match[1]!);
  }
  return names;
}

const source = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

describe('a simulated checkout of the fleet benchmark', () => {
  it('exports every pinbridge_* metric main/metrics defines, and no other (besides the process metrics)', async () => {
    const emitter = new FleetEmitter(7);
    const exported = new Set((await emitter.registry.getMetricsAsJSON()).map((metric) => metric.name));
    const defined = namesDefinedIn('main/metrics');
    expect(defined.size).toBeGreaterThan(20);
    for (const name of defined) expect(exported, name).toContain(name);
    const own = [...exported].filter((name) => !defined.has(name));
    // What is left is collectDefaultMetrics' with the agent's prefix (pinbridge_process_*, pinbridge_nodejs_*).
    for (const name of own) expect(name).toMatch(/^pinbridge_(process|nodejs)_/);
    expect(own.length).toBeGreaterThan(5);
  });

  it('uses the buckets main/metrics uses', () => {
    const metrics = source('main/metrics/metrics.ts');
    expect(metrics).toContain(`PAYMENT_DURATION_BUCKETS = [${PAYMENT_DURATION_BUCKETS.join(', ')}]`);
    expect(metrics).toContain(`API_DURATION_BUCKETS = [${API_DURATION_BUCKETS.join(', ')}]`);
    expect(source('main/metrics/step-durations.ts')).toContain(`STEP_BUCKETS = [${STEP_BUCKETS.join(', ')}]`);
  });

  it('counts sales at its pace, its counters only growing', async () => {
    const emitter = new FleetEmitter(3, 60);
    const payments = async (): Promise<number> => {
      const metric = (await emitter.registry.getMetricsAsJSON()).find((m) => m.name === 'pinbridge_payments_total');
      return metric!.values.reduce((sum, value) => sum + value.value, 0);
    };
    expect(await payments()).toBe(0);
    emitter.advance(1_800); // half an hour at 60 sales an hour
    expect(await payments()).toBe(30);
    emitter.advance(30); // half a sale: owed, not counted
    expect(await payments()).toBe(30);
    emitter.advance(30);
    expect(await payments()).toBe(31);
  });

  it('is the same checkout for the same seed and another for another seed', async () => {
    const amounts = async (seed: number): Promise<string> => {
      const emitter = new FleetEmitter(seed);
      emitter.advance(7_200);
      const metric = (await emitter.registry.getMetricsAsJSON()).find(
        (m) => m.name === 'pinbridge_payment_amount_centavos_total',
      );
      return JSON.stringify(metric!.values);
    };
    expect(await amounts(11)).toBe(await amounts(11));
    expect(await amounts(11)).not.toBe(await amounts(12));
  });
});
