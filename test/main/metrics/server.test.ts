/**
 * The metrics listener over real HTTP on 127.0.0.1: GET /metrics answers the agent's exposition
 * (from a real engine, PINPAD registry and health monitor); it serves nothing else — 404 for
 * any other path, 405 for any other method — and says so without leaking why a scrape failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiHealthMonitor } from '../../../main/api/health.js';
import { PaymentsClient } from '../../../main/api/index.js';
import { paymentsPortOf } from '../../../main/agent/payments-port.js';
import { PaymentEngine } from '../../../main/core/engine.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { PinpadRegistry } from '../../../main/pinpad/registry.js';
import { AgentMetrics } from '../../../main/metrics/metrics.js';
import { MetricsServer, type MetricsServerLogger } from '../../../main/metrics/server.js';
import { parseExposition } from './exposition.js';

let dir: string;
let journal: Journal;
let engine: PaymentEngine;
let metrics: AgentMetrics;
const servers: MetricsServer[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'pinbridge-metrics-server-'));
  journal = Journal.open(join(dir, 'journal.db'));
  // No sale runs here: the client is never called.
  const payments = new PaymentsClient({ baseUrl: 'http://127.0.0.1:9', token: 'unused', marketplaceId: 'mkt-unused' });
  engine = new PaymentEngine({ journal, payments: paymentsPortOf(payments), sellerId: 'seller-unused' });
  metrics = new AgentMetrics({
    engine,
    pinpads: new PinpadRegistry(engine),
    apiHealth: new ApiHealthMonitor(),
    mode: 'training',
    version: '4.5.6-test',
  });
});

afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  metrics.close();
  await engine.close();
  journal.close();
  rmSync(dir, { recursive: true, force: true });
});

function recordingLogger(): MetricsServerLogger & {
  lines: Array<{ level: string; fields: Record<string, unknown>; message: string }>;
} {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) =>
    lines.push({ level, fields, message });
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
}

async function serve(options: Partial<Parameters<typeof MetricsServer.start>[0]> = {}): Promise<MetricsServer> {
  const server = await MetricsServer.start({ metrics, host: '127.0.0.1', port: 0, ...options });
  servers.push(server);
  return server;
}

const base = (server: MetricsServer): string => server.url.replace(/\/metrics$/, '');

describe('GET /metrics', () => {
  it('answers the exposition text with the Prometheus content type, over real HTTP on 127.0.0.1', async () => {
    const logger = recordingLogger();
    const server = await serve({ logger });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/metrics`);
    const response = await fetch(server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const exposition = parseExposition(await response.text());
    expect(exposition.all('pinbridge_info')).toEqual([
      { name: 'pinbridge_info', labels: { version: '4.5.6-test', mode: 'training' }, value: 1 },
    ]);
    expect(exposition.value('pinbridge_payments_total', { outcome: 'approved', payment_type: 'credit' })).toBe(0);
    expect(logger.lines).toContainEqual({
      level: 'info',
      fields: { url: server.url, loopback: true },
      message: 'Prometheus metrics served',
    });
  });

  it('ignores a query string, and answers HEAD with the headers only', async () => {
    const server = await serve();
    expect((await fetch(`${server.url}?name[]=pinbridge_info`)).status).toBe(200);
    const head = await fetch(server.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(100);
    expect(await head.text()).toBe('');
  });

  it('listens on 127.0.0.1 when no host is given', async () => {
    const server = await serve({ host: undefined });
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/metrics`);
    expect((await fetch(server.url)).status).toBe(200);
  });

  it('answers 500 with no detail when the metrics cannot be collected, and logs why', async () => {
    const logger = recordingLogger();
    const failing = {
      contentType: metrics.contentType,
      text: () => Promise.reject(new Error('journal closed under the scrape')),
    };
    const server = await serve({ metrics: failing, logger });
    const response = await fetch(server.url);
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('journal');
    expect(logger.lines).toContainEqual({
      level: 'error',
      fields: { err: 'journal closed under the scrape' },
      message: 'metrics could not be collected',
    });
  });
});

describe('nothing else is served', () => {
  it.each(['/', '/metrics/', '/metrics.json', '/favicon.ico', '/api/status', '//metrics'])(
    'GET %s is 404',
    async (path) => {
      const server = await serve();
      const response = await fetch(`${base(server)}${path}`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('pinbridge_');
    },
  );

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
    '%s /metrics is 405, allowing GET and HEAD',
    async (method) => {
      const server = await serve();
      const response = await fetch(server.url, {
        method,
        ...(method === 'POST' || method === 'PUT' ? { body: 'x=1' } : {}),
      });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(await response.text()).not.toContain('pinbridge_');
    },
  );
});

describe('lifecycle', () => {
  it('rejects when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      await expect(MetricsServer.start({ metrics, host: '127.0.0.1', port })).rejects.toMatchObject({
        code: 'EADDRINUSE',
      });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });

  it('stops listening on close, even with a kept-alive connection open', async () => {
    const server = await MetricsServer.start({ metrics, host: '127.0.0.1', port: 0 });
    // fetch keeps the connection alive for the next request.
    expect((await fetch(server.url)).status).toBe(200);
    await server.close();
    await expect(fetch(server.url)).rejects.toThrow();
  });
});
