/**
 * `pinbridge sandbox` as a POS developer uses it: start it, read the one ready line, call the
 * API with the token it printed, stop it, start it again on the same data directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { run, serve, stopServers } from '../../helpers/cli.js';

afterEach(stopServers);

interface Ready {
  url: string;
  marketplace_id: string;
  seller_id: string;
  token: string;
}

describe('pinbridge sandbox', () => {
  it('prints exactly one JSON line with url, marketplace_id, seller_id and token when ready', async () => {
    const sandbox = await serve(['sandbox', '--port', '0']);
    const ready = sandbox.ready as unknown as Ready;
    expect(Object.keys(ready).sort()).toEqual(['marketplace_id', 'seller_id', 'token', 'url']);
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.marketplace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(ready.seller_id).toMatch(/^[0-9a-f]{32}$/);

    const response = await fetch(
      `${ready.url}/v1/marketplaces/${ready.marketplace_id}/sellers/${ready.seller_id}/bank_accounts`,
      {
        headers: { authorization: `Bearer ${ready.token}` },
      },
    );
    expect(response.status).toBe(200);
    const list = (await response.json()) as { resource: string; total: number };
    expect(list.resource).toBe('list');
    expect(list.total).toBeGreaterThan(0);
    expect(await sandbox.stop()).toBe(0);
  });

  it('keeps its records and prints the same ids and token when restarted on the same --data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pinbridge-sandbox-cli-'));
    try {
      const first = await serve(['sandbox', '--data', dir]);
      const a = first.ready as unknown as Ready;
      const created = await fetch(`${a.url}/v1/marketplaces/${a.marketplace_id}/buyers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'Maria', last_name: 'Silva', taxpayer_id: '71428793860' }),
      });
      expect(created.status).toBe(201);
      const buyer = (await created.json()) as { id: string };
      await first.stop();

      const second = await serve(['sandbox', '--data', dir]);
      const b = second.ready as unknown as Ready;
      expect({ ...b, url: '' }).toEqual({ ...a, url: '' });
      const again = await fetch(`${b.url}/v1/marketplaces/${b.marketplace_id}/buyers/${buyer.id}`, {
        headers: { authorization: `Bearer ${b.token}` },
      });
      expect(again.status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 401 with type "unauthorized" without a token', async () => {
    const sandbox = await serve(['sandbox']);
    const ready = sandbox.ready as unknown as Ready;
    const response = await fetch(
      `${ready.url}/v1/marketplaces/${ready.marketplace_id}/sellers/${ready.seller_id}/bank_accounts`,
    );
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ status_code: 401, type: 'unauthorized' });
  });

  it('prints its OpenAPI document with --openapi and exits 0', async () => {
    const result = await run(['sandbox', '--openapi']);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toContain('/v1/marketplaces/{marketplace_id}/transactions');
  });

  it.each([
    [['sandbox', '--amounts', 'float'], /--amounts must be one of integer, decimal/],
    [['sandbox', '--port', '70000'], /not a TCP port/],
    [['sandbox', '--cancellation-delay', 'soon'], /milliseconds/],
  ])('exits 2 with one line for %j', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(message);
  });

  it('exits 1 with one line when the port is taken', async () => {
    const first = await serve(['sandbox']);
    const port = new URL((first.ready as unknown as Ready).url).port;
    const result = await run(['sandbox', '--port', port]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/in use/i);
  });
});
