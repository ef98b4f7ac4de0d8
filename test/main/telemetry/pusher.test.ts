/**
 * The pusher against a real HTTP server on 127.0.0.1: what it sends (the remote-write headers,
 * the settings' headers, the checkout's series), and what it does with each answer — 2xx: sent;
 * 429, 5xx, no answer in time, no server: kept and tried again with backoff; another 4xx: dropped
 * as bad and counted, the next batch goes on. Credentials never reach the log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Counter, Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BatchQueue } from '../../../main/telemetry/queue.js';
import { TelemetryPusher, type PusherOptions } from '../../../main/telemetry/pusher.js';
import { decodeRemoteWriteBody } from '../../../main/telemetry/remote-write.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';

interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A receiver answering each request with the next status of `statuses` (the last one repeats); 'hang' never answers. */
async function receiver(
  statuses: Array<number | 'hang'>,
): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks) });
      const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
      if (status === 'hang') return;
      response.writeHead(status).end(status >= 400 ? `status ${status}: out of order sample` : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/write`, received, server };
}

let dir: string;
const servers: Server[] = [];
const pushers: TelemetryPusher[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(artifactsDir(), 'telemetry-pusher-'));
});
afterEach(async () => {
  for (const pusher of pushers.splice(0)) await pusher.stop();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

const logs: string[] = [];
const logger = {
  warn: (fields: Record<string, unknown>, message: string) => logs.push(`${message} ${JSON.stringify(fields)}`),
  info: (fields: Record<string, unknown>, message: string) => logs.push(`${message} ${JSON.stringify(fields)}`),
};

function pusherFor(
  endpoint: string,
  options: Partial<PusherOptions> = {},
): { pusher: TelemetryPusher; queue: BatchQueue } {
  logs.length = 0;
  const registry = new Registry();
  new Counter({ name: 'pinbridge_payments_total', help: 'h', labelNames: ['outcome'], registers: [registry] }).inc(
    { outcome: 'approved' },
    2,
  );
  const queue = new BatchQueue({ dir: join(dir, 'queue'), maxBatches: 10, maxBytes: 1_000_000, logger });
  const pusher = new TelemetryPusher({
    source: registry,
    queue,
    endpoint,
    headers: { Authorization: 'Bearer s3cr3t-token', 'X-Scope-OrgID': 'acme' },
    identity: { job: 'pinbridge', chain: 'acme', store: 'sp-01', checkout: 'pdv-3' },
    intervalMs: 60_000,
    timeoutMs: 500,
    logger,
    retryBaseMs: 20,
    retryCapMs: 40,
    ...options,
  });
  pushers.push(pusher);
  return { pusher, queue };
}

describe('TelemetryPusher', () => {
  it("POSTs the registry as a remote-write body with v1's headers and the settings' headers, then forgets the batch", async () => {
    const { url, received } = await receiver([204]);
    const { pusher, queue } = pusherFor(url, { userAgent: 'pinbridge/9.9.9' });
    await pusher.tick();
    expect(received).toHaveLength(1);
    expect(received[0]!.headers).toMatchObject({
      'content-encoding': 'snappy',
      'content-type': 'application/x-protobuf',
      'x-prometheus-remote-write-version': '0.1.0',
      authorization: 'Bearer s3cr3t-token',
      'x-scope-orgid': 'acme',
      'user-agent': 'pinbridge/9.9.9',
    });
    const [series] = decodeRemoteWriteBody(received[0]!.body);
    expect(Object.fromEntries(series!.labels.map((label) => [label.name, label.value]))).toEqual({
      __name__: 'pinbridge_payments_total',
      outcome: 'approved',
      job: 'pinbridge',
      chain: 'acme',
      store: 'sp-01',
      checkout: 'pdv-3',
    });
    expect(series!.samples[0]!.value).toBe(2);
    expect(queue.batches).toBe(0);
  });

  it.each([429, 500, 503])('keeps the batch on HTTP %i and sends it again after a backoff', async (status) => {
    const { url, received } = await receiver([status, 200]);
    const { pusher, queue } = pusherFor(url);
    await pusher.tick();
    expect(queue.batches).toBe(1);
    await vi.waitFor(() => expect(queue.batches).toBe(0), { timeout: 2_000 });
    expect(received).toHaveLength(2);
    expect(received[1]!.body).toEqual(received[0]!.body);
    expect(queue.dropped('rejected') + queue.dropped('queue_full')).toBe(0);
    expect(logs.some((line) => line.startsWith('telemetry push failed') && line.includes(`HTTP ${status}`))).toBe(true);
    expect(logs.some((line) => line.startsWith('telemetry pushes again'))).toBe(true);
  });

  it('drops a batch the receiver calls bad (HTTP 400), counts it, logs why, and sends the next', async () => {
    const { url, received } = await receiver([400, 200]);
    const { pusher, queue } = pusherFor(url);
    await pusher.tick();
    expect(queue.batches).toBe(0);
    expect(queue.dropped('rejected')).toBe(1);
    expect(logs.find((line) => line.startsWith('telemetry: the receiver refused'))).toContain('out of order sample');
    await pusher.tick();
    expect(received).toHaveLength(2);
    expect(queue.batches).toBe(0);
  });

  it('keeps the batches when no server listens, retries, and sends them oldest first once one does', async () => {
    const { url, received, server } = await receiver([200]);
    const port = (server.address() as AddressInfo).port;
    server.close();
    const { pusher, queue } = pusherFor(url, { retryBaseMs: 60_000, retryCapMs: 60_000 });
    await pusher.tick();
    expect(logs.find((line) => line.startsWith('telemetry push failed'))).toContain('ECONNREFUSED');
    // Another round during the backoff collects, but does not send.
    await pusher.tick();
    expect(queue.batches).toBe(2);
    const first = queue.peek()!;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    await pusher.stop();
    // A new pusher on the same folder (a restart) sends what the first left, oldest first, then its own.
    const { pusher: later, queue: reopened } = pusherFor(url, { retryBaseMs: 60_000 });
    expect(reopened.batches).toBe(2);
    await later.tick();
    expect(reopened.batches).toBe(0);
    expect(received).toHaveLength(3);
    expect(received[0]!.body).toEqual(Buffer.from(first.body));
  });

  it('gives up on a request that outlasts the timeout, and tries it again', async () => {
    const { url, received } = await receiver(['hang', 200]);
    const { pusher, queue } = pusherFor(url, { timeoutMs: 200 });
    await pusher.tick();
    expect(logs.find((line) => line.startsWith('telemetry push failed'))).toContain('"reason":"timeout"');
    await vi.waitFor(() => expect(queue.batches).toBe(0), { timeout: 2_000 });
    expect(received).toHaveLength(2);
  });

  it('never writes the headers or the endpoint’s credentials into the log', async () => {
    const { url } = await receiver([500]);
    const withSecrets = url.replace('http://', 'http://user:pa55word@') + '?token=q-s3cr3t';
    const { pusher } = pusherFor(withSecrets);
    await pusher.tick();
    expect(logs.length).toBeGreaterThan(0);
    for (const line of logs) expect(line).not.toMatch(/s3cr3t|pa55word|acme/);
  });

  it('refuses an endpoint that is not http(s)', () => {
    expect(() => pusherFor('file:///etc/passwd')).toThrow(/http\(s\)/);
  });
});
