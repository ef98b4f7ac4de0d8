/**
 * THE end-to-end check of telemetry: the real Prometheus (Debian's /usr/bin/prometheus 2.42,
 * started here on 127.0.0.1 with its remote-write receiver) receives what a real training agent
 * pushes — its settings' `telemetry` section, its AgentMetrics, a sale it takes — and answers
 * queries on its HTTP API with the agent's series under the chain/store/checkout labels.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent } from '../../../main/agent/agent.js';
import { centavos } from '../../../main/core/money.js';
import { createLogger } from '../../../main/log.js';
import { loadSettings, parseSettings } from '../../../main/settings/settings-file.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { startPrometheus, type RunningPrometheus } from '../../helpers/prometheus.js';

let dir: string;
let prometheus: RunningPrometheus;

beforeAll(async () => {
  dir = mkdtempSync(join(artifactsDir(), 'telemetry-prometheus-'));
  // No scrape target at all: every series it holds came by remote write.
  prometheus = await startPrometheus({ remoteWrite: true });
}, 30_000);

afterAll(async () => {
  await prometheus?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface VectorResult {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

/** Prometheus's answer to an instant query (its HTTP API, /api/v1/query). */
async function query(promql: string): Promise<VectorResult[]> {
  const answer = await prometheus.query(promql);
  expect(answer.status, answer.error).toBe('success');
  return (answer.data?.result ?? []) as VectorResult[];
}

describe('telemetry into the real Prometheus', () => {
  it("finds a training agent's series, with chain, store and checkout, in Prometheus after it pushes", async () => {
    const home = join(dir, 'home');
    const settings = parseSettings(
      {
        fleet: { chain: 'acme', store: 'sp-01', checkout: 'pdv-3' },
        telemetry: { enabled: true, endpoint: prometheus.writeUrl, interval_s: 5 },
      },
      null,
    );
    expect(loadSettings(undefined, home).telemetry).toEqual({});
    const agent = await Agent.start({
      settings,
      api: {},
      pinpadAddress: 'sim',
      home,
      posPorts: [0],
      logger: createLogger({ level: 'silent' }),
    });
    try {
      await agent.ready;
      await agent.stack.engine.start({
        referenceId: 'telemetry-1',
        amount: centavos(1_250),
        paymentType: 'credit',
        installments: 1,
        description: 'Telemetria',
      });
      const where = '{job="pinbridge",chain="acme",store="sp-01",checkout="pdv-3"}';
      // The first push goes out as the agent starts; the sale arrives with a later one (5 s apart).
      await vi.waitFor(
        async () => {
          const sales = await query(`pinbridge_payments_total${where}`);
          expect(sales.map((one) => [one.metric.outcome, one.metric.payment_type, one.value[1]])).toContainEqual([
            'approved',
            'credit',
            '1',
          ]);
        },
        { timeout: 20_000, interval: 500 },
      );
      const [info] = await query(`pinbridge_info${where}`);
      expect(info?.metric).toMatchObject({ mode: 'training', job: 'pinbridge', chain: 'acme' });
      expect(info?.metric.version).toMatch(/\d/);
      // The agent's version is on pinbridge_info alone (pinbridge_nodejs_version_info holds Node's).
      expect(
        await query(`{__name__=~"pinbridge_.+",__name__!~"pinbridge_info|pinbridge_nodejs_version_info",version!=""}`),
      ).toEqual([]);
      // A histogram arrives as its exposition series.
      expect(await query(`pinbridge_payment_duration_seconds_count${where}`)).not.toEqual([]);
      expect(await query(`pinbridge_payment_duration_seconds_bucket{le="+Inf",checkout="pdv-3"}`)).not.toEqual([]);
      // And the pusher's own health, in the same push.
      const [queued] = await query(`pinbridge_telemetry_queue_batches${where}`);
      expect(Number(queued?.value[1])).toBeLessThan(3);
      expect(await query(`pinbridge_telemetry_dropped_total${where}`)).toHaveLength(3);
      // Every series it holds carries the three labels (nothing else writes to it).
      expect(await query('count({__name__=~".+", checkout!="pdv-3"})')).toEqual([]);
    } finally {
      await agent.stop();
    }
  }, 60_000);
});
