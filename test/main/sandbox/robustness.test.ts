/**
 * Bad input never crashes the sandbox or leaks a stack trace, a burst of 200 concurrent
 * requests is served correctly, and a restart on the same data directory keeps every record.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';

let sandbox: RunningSandbox;
let headers: Record<string, string>;
let base: string;

beforeAll(async () => {
  sandbox = await startSandbox({ settings: { bodyLimitBytes: 64 * 1024 } });
  headers = { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' };
  base = `${sandbox.url}/v1/marketplaces/${sandbox.marketplaceId}`;
});
afterAll(() => sandbox.close());

const pinpadSale = (reference: string, amount = 1500): Record<string, unknown> => ({
  payment_locale: 'pinpad',
  payment_type: 'credit',
  on_behalf_of: sandbox.sellerId,
  description: 'Venda balcão',
  currency: 'BRL',
  amount,
  terminal: 'PB-ROBUST-01',
  reference_id: reference,
});

async function post(
  path: string,
  body: string,
  extra: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}${path}`, { method: 'POST', headers: { ...headers, ...extra }, body });
  return { status: response.status, text: await response.text() };
}

describe('bad request bodies', () => {
  it.each([
    ['malformed JSON', '{"payment_type": "boleto",', 400, /not valid JSON/],
    ['an empty body', '', 400, /empty/],
    ['a JSON array', '[1, 2, 3]', 400, /JSON object/],
    ['a JSON string', '"boleto"', 400, /JSON object/],
    ['a string amount', JSON.stringify({ ...{ payment_locale: 'pinpad' }, amount: '1500' }), 400, /./],
    ['deeply nested JSON', `${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`, 400, /./],
  ])('answers %s on POST /transactions with a JSON 400 and no stack trace', async (_name, body, status, detail) => {
    const answer = await post('/transactions', body);
    expect(answer.status).toBe(status);
    const parsed = JSON.parse(answer.text) as { status: number; detail: string; trace_id: string };
    expect(parsed).toMatchObject({ status });
    expect(parsed.detail).toMatch(detail);
    expect(answer.text).not.toMatch(/\bat .+\.(js|ts):\d+/);
  });

  it('answers 413 for a body over the limit', async () => {
    const answer = await post(
      '/transactions',
      JSON.stringify({ ...pinpadSale('big'), description: 'x'.repeat(100 * 1024) }),
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ status: 413, detail: 'Request body is too large' });
  });

  it('answers 415 for a body that is not JSON', async () => {
    const answer = await post('/transactions', 'amount=1500', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.text)).toMatchObject({ status: 415 });
  });

  it('keeps serving after all of that', async () => {
    const answer = await post('/transactions', JSON.stringify(pinpadSale('after-the-storm')));
    expect(answer.status).toBe(201);
  });
});

describe('200 concurrent requests', () => {
  it('creates 100 transactions and reads 100 times while doing it, every answer right', async () => {
    const creates = Array.from({ length: 100 }, (_, i) =>
      post('/transactions', JSON.stringify(pinpadSale(`burst-${i}`, 1000 + i))),
    );
    const reads = Array.from({ length: 100 }, () =>
      fetch(`${base}/sellers/${sandbox.sellerId}/bank_accounts`, { headers }).then(async (r) => ({
        status: r.status,
        text: await r.text(),
      })),
    );
    const answers = await Promise.all([...creates, ...reads]);
    expect(answers.filter((a) => a.status === 201)).toHaveLength(100);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(100);
    const ids = new Set(answers.slice(0, 100).map((a) => (JSON.parse(a.text) as { id: string }).id));
    expect(ids.size).toBe(100);

    const listed = await fetch(`${base}/transactions?terminal=PB-ROBUST-01&limit=1`, { headers });
    const list = (await listed.json()) as { total: number };
    expect(list.total).toBeGreaterThanOrEqual(100);
  });

  it('creates exactly one transaction for 200 concurrent requests with the same Idempotency-Key', async () => {
    const body = JSON.stringify(pinpadSale('same-key'));
    const answers = await Promise.all(
      Array.from({ length: 200 }, () => post('/transactions', body, { 'idempotency-key': 'robust-same-key' })),
    );
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const ids = new Set(answers.map((a) => (JSON.parse(a.text) as { id: string }).id));
    expect(ids.size).toBe(1);
    const listed = await fetch(`${base}/transactions?reference_id=same-key`, { headers });
    expect(((await listed.json()) as { total: number }).total).toBe(1);
  });
});

describe('restart with the same data directory', () => {
  it('keeps buyers, bank accounts, transactions, webhooks and idempotency keys', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pinbridge-sandbox-robust-'));
    try {
      const first = await startSandbox({ dataDir });
      const auth = { authorization: `Bearer ${first.token}`, 'content-type': 'application/json' };
      const at = (url: string, path: string): string => `${url}/v1/marketplaces/${first.marketplaceId}${path}`;
      const create = async (path: string, body: unknown, key?: string): Promise<{ id: string }> => {
        const response = await fetch(at(first.url, path), {
          method: 'POST',
          headers: key ? { ...auth, 'idempotency-key': key } : auth,
          body: JSON.stringify(body),
        });
        expect(response.status).toBe(201);
        return (await response.json()) as { id: string };
      };
      const buyer = await create('/buyers', { first_name: 'João', last_name: 'Pereira', taxpayer_id: '71428793860' });
      const account = await create('/bank_accounts', {
        customer: first.sellerId,
        holder_name: 'Loja Exemplo Ltda',
        ein: '11222333000181',
        bank_code: '001',
        type: 'checking',
        account_number: '123456',
        routing_number: '0001',
      });
      const sale = await create(
        '/transactions',
        { ...pinpadSale('restart-1'), on_behalf_of: first.sellerId },
        'restart-key',
      );
      const boleto = await create('/transactions', {
        payment_type: 'boleto',
        on_behalf_of: first.sellerId,
        customer: buyer.id,
        amount: 5000,
        currency: 'BRL',
        description: 'Pedido',
        reference_id: 'restart-boleto',
      });
      const webhook = await create('/webhooks', { url: 'http://127.0.0.1:9/hook', event: ['all'] });
      await first.close();

      const second = await startSandbox({ dataDir });
      try {
        const again = { authorization: `Bearer ${second.token}` };
        for (const path of [
          `/buyers/${buyer.id}`,
          `/bank_accounts/${account.id}`,
          `/transactions/${sale.id}`,
          `/transactions/${boleto.id}`,
          `/webhooks/${webhook.id}`,
        ]) {
          const response = await fetch(`${second.url}/v1/marketplaces/${second.marketplaceId}${path}`, {
            headers: again,
          });
          expect(response.status, path).toBe(200);
        }
        const replay = await fetch(`${second.url}/v1/marketplaces/${second.marketplaceId}/transactions`, {
          method: 'POST',
          headers: { ...again, 'content-type': 'application/json', 'idempotency-key': 'restart-key' },
          body: JSON.stringify({ ...pinpadSale('restart-1'), on_behalf_of: first.sellerId }),
        });
        expect(replay.status).toBe(201);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(((await replay.json()) as { id: string }).id).toBe(sale.id);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
