/**
 * A training agent with only the `telemetry.otlp` section (no remote-write endpoint) sends its
 * sales' traces and its log's warnings by OTLP/HTTP, as `pinbridge start` would: its settings
 * parsed and checked, the core's recorder on its engine, the tee on its logger, the queues in
 * its home folder. The receiver on 127.0.0.1 reads them with OpenTelemetry's own definitions.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Agent } from '../../../main/agent/agent.js';
import { centavos } from '../../../main/core/money.js';
import { createLogger } from '../../../main/log.js';
import { parseSettings } from '../../../main/settings/settings-file.js';
import { VERSION } from '../../../main/version.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import {
  attributesOf,
  decodeLogs,
  decodeTraces,
  otlpReceiver,
  type OtlpReceiver,
} from '../../helpers/otlp-receiver.js';

let dir: string;
let collector: OtlpReceiver;
beforeAll(async () => {
  dir = mkdtempSync(join(artifactsDir(), 'agent-otlp-'));
  collector = await otlpReceiver();
});
afterAll(async () => {
  await collector?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an agent pushing by OTLP', () => {
  it("sends a training sale's trace and a warning under its checkout and PINPAD", async () => {
    const home = join(dir, 'home');
    const settings = parseSettings(
      {
        fleet: { chain: 'acme', store: 'sp-01', checkout: 'pdv-3' },
        telemetry: {
          enabled: true,
          otlp: { endpoint: collector.url, interval_s: 1, headers: { 'X-Scope-OrgID': 'acme' } },
        },
      },
      null,
    );
    const logger = createLogger({ level: 'info', copyTo: join(dir, 'agent.log'), stderrLevel: 'fatal' });
    const agent = await Agent.start({ settings, api: {}, pinpadAddress: 'sim', home, posPorts: [0], logger });
    try {
      const ready = await agent.ready;
      const outcome = await agent.stack.engine.start({
        referenceId: 'otlp-agent-1',
        amount: centavos(1_250),
        paymentType: 'credit',
        installments: 1,
        description: 'Telemetria',
      });
      expect(outcome.status).toBe('approved');
      logger.warn({ state: 'down' }, 'payments API health');

      await vi.waitFor(
        () => {
          const paths = new Set(collector.received.map((request) => request.path));
          expect(paths).toEqual(new Set(['/v1/traces', '/v1/logs']));
          const logs = collector.received.filter((request) => request.path === '/v1/logs');
          const bodies = logs.flatMap(
            (request) =>
              decodeLogs(request.body).resourceLogs?.flatMap((group) =>
                group.scopeLogs?.flatMap((scope) => scope.logRecords?.map((record) => record.body?.stringValue)),
              ) ?? [],
          );
          expect(bodies).toContain('payments API health');
        },
        { timeout: 15_000, interval: 200 },
      );
      for (const request of collector.received) expect(request.headers['x-scope-orgid']).toBe('acme');
      const [traces] = collector.received
        .filter((request) => request.path === '/v1/traces')
        .map((request) => decodeTraces(request.body));
      const group = traces!.resourceSpans![0]!;
      expect(attributesOf(group.resource?.attributes)).toMatchObject({
        'service.name': 'pinbridge',
        'service.version': VERSION,
        'pinbridge.chain': 'acme',
        'pinbridge.store': 'sp-01',
        'pinbridge.checkout': 'pdv-3',
        'pinbridge.pinpad.serial': outcome.terminal,
        'deployment.environment.name': 'training',
      });
      expect(ready.pinpad).toBeDefined();
      expect(group.scopeSpans![0]!.spans!.map((span) => span.name)).toEqual([
        'payment',
        'create_transaction',
        'read_card',
        'authorize',
        'confirm',
      ]);
      // Each signal has its queue folder in the agent's home.
      expect(existsSync(join(home, '.pinbridge', 'telemetry-traces'))).toBe(true);
      expect(existsSync(join(home, '.pinbridge', 'telemetry-logs'))).toBe(true);
    } finally {
      await agent.stop();
    }
  }, 60_000);
});
