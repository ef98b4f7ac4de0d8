/**
 * Authentication and isolation of the payments API sandbox (shared/payments-api.md,
 * "Authentication"): every request needs a valid bearer token, a missing / malformed / unknown /
 * expired one is 401 with `type: "unauthorized"` in the route family's error shape (the
 * contract's "Errors": shape A for buyers, shape B for bank accounts), a token sees only its own
 * marketplace, and the records and credentials survive a restart on the same data directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BankAccount, BankAccountListItem, Buyer, ListEnvelope } from '../../../main/contract/index.js';
import { EXAMPLE_BUYERS } from '../../../main/sandbox/seed-records.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { call, request, type Caller, type Reply } from '../../helpers/sandbox.js';

interface Marketplace {
  readonly marketplace_id: string;
  readonly seller_id: string;
  readonly access_token: string;
}

const ERROR_B_KEYS = ['message', 'status_code', 'type'];
/** A trace id as the sandbox makes them: 6 hexadecimal characters. */
const TRACE_ID = expect.stringMatching(/^[0-9a-f]{6}$/) as unknown;
const keysOf = (value: object): string[] => Object.keys(value).sort();

let sandbox: RunningSandbox;
let a: Marketplace;
let b: Marketplace;
let accountOfB: BankAccount;
let buyerOfB: Buyer;

const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** Requests with marketplace `m`'s token. */
const as = (m: Marketplace): Caller => ({ sandbox, token: m.access_token });

async function newMarketplace(url: string): Promise<Marketplace> {
  return (await request<Marketplace>(url, 'POST', '/v1/sandbox/marketplaces')).body;
}

beforeAll(async () => {
  sandbox = await startSandbox();
  a = await newMarketplace(sandbox.url);
  b = await newMarketplace(sandbox.url);
  const account = await call<BankAccount>(as(b), 'POST', `/v1/marketplaces/${b.marketplace_id}/bank_accounts`, {
    customer: b.seller_id,
    holder_name: 'Loja B Ltda',
    ein: '11222333000181',
    bank_code: '237',
    type: 'checking',
    account_number: '3344556',
    routing_number: '0101',
  });
  expect(account.status).toBe(201);
  accountOfB = account.body;
  const buyer = await call<Buyer>(as(b), 'POST', `/v1/marketplaces/${b.marketplace_id}/buyers`, {
    first_name: 'Cliente de B',
    taxpayer_id: '93541134780',
  });
  expect(buyer.status).toBe(201);
  buyerOfB = buyer.body;
});

afterAll(async () => {
  await sandbox.close();
});

describe('401 unauthorized, in the shape of the route family', () => {
  /** Shape A (buyers and every family but bank accounts) with the contract's type beside its three fields. */
  const shapeA = (detail: string): Record<string, unknown> => ({
    status: 401,
    type: 'unauthorized',
    detail,
    trace_id: TRACE_ID,
  });
  /** Shape B (bank accounts). */
  const shapeB = (message: string): Record<string, unknown> => ({ status_code: 401, type: 'unauthorized', message });

  const families = (): Array<{ path: string; body: (reason: string) => Record<string, unknown> }> => [
    { path: `/v1/marketplaces/${b.marketplace_id}/buyers/${buyerOfB.id}`, body: shapeA },
    { path: `/v1/marketplaces/${b.marketplace_id}/buyers/search?taxpayer_id=93541134780`, body: shapeA },
    { path: `/v1/marketplaces/${b.marketplace_id}/transactions`, body: shapeA },
    { path: `/v1/marketplaces/${b.marketplace_id}/webhooks`, body: shapeA },
    { path: `/v1/marketplaces/${b.marketplace_id}/terminals/PP123/pending_transactions`, body: shapeA },
    { path: `/v1/marketplaces/${b.marketplace_id}/bank_accounts/${accountOfB.id}`, body: shapeB },
    { path: `/v1/marketplaces/${b.marketplace_id}/sellers/${b.seller_id}/bank_accounts`, body: shapeB },
  ];

  async function expectUnauthorized(headers: Record<string, string>, reason: string): Promise<void> {
    for (const { path, body } of families()) {
      const reply = await request(sandbox.url, 'GET', path, undefined, { headers });
      expect(reply.status, path).toBe(401);
      expect(reply.body, path).toEqual(body(reason));
    }
  }

  it('answers 401 without an Authorization header', async () => {
    await expectUnauthorized({}, 'Missing Authorization header (Bearer token)');
  });

  it('answers 401 for a header that is not "Bearer <token>"', async () => {
    await expectUnauthorized(
      { authorization: `Basic ${b.access_token}` },
      'Authorization header must be "Bearer <token>"',
    );
    await expectUnauthorized({ authorization: 'Bearer' }, 'Authorization header must be "Bearer <token>"');
  });

  it('answers 401 for a token the service never issued', async () => {
    await expectUnauthorized(bearer('sbx_not-a-real-token'), 'Invalid access token');
  });

  it('answers 401 for an expired token and accepts a live one minted the same way', async () => {
    const mint = async (expiresIn: number): Promise<string> => {
      const reply = await request<{ access_token: string }>(sandbox.url, 'POST', '/v1/sandbox/tokens', {
        marketplace_id: b.marketplace_id,
        expires_in: expiresIn,
      });
      expect(reply.status).toBe(201);
      return reply.body.access_token;
    };
    await expectUnauthorized(bearer(await mint(0)), 'Access token expired');
    const live = await mint(3600);
    for (const { path } of families())
      expect((await call({ sandbox, token: live }, 'GET', path)).status, path).toBe(200);
  });

  it('answers 401 before looking at the body of a write', async () => {
    const reply = await request(sandbox.url, 'POST', `/v1/marketplaces/${b.marketplace_id}/buyers`, {});
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual(shapeA('Missing Authorization header (Bearer token)'));
  });
});

describe('404 not found, in the shape of the route family', () => {
  it('answers an unknown buyer in shape A: status, detail, trace_id and nothing else', async () => {
    const missing = 'f'.repeat(32);
    const reply = await call(as(b), 'GET', `/v1/marketplaces/${b.marketplace_id}/buyers/${missing}`);
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ status: 404, detail: 'Buyer not found', trace_id: TRACE_ID });
  });

  it('answers an unknown bank account in shape B with type not_found', async () => {
    const missing = 'e'.repeat(32);
    const reply = await call(as(b), 'GET', `/v1/marketplaces/${b.marketplace_id}/bank_accounts/${missing}`);
    expect(reply.status).toBe(404);
    expect(reply.body).toEqual({ status_code: 404, type: 'not_found', message: `Bank account not found: ${missing}` });
  });
});

describe('isolation between marketplaces', () => {
  it("answers 404 not_found when marketplace A's token asks for B's bank account under A's path", async () => {
    const reply = await call(as(a), 'GET', `/v1/marketplaces/${a.marketplace_id}/bank_accounts/${accountOfB.id}`);
    expect(reply.status).toBe(404);
    expect(keysOf(reply.body)).toEqual(ERROR_B_KEYS);
    expect(reply.body.type).toBe('not_found');
  });

  it("answers 404 when marketplace A's token names B's marketplace in the path", async () => {
    const account = await call(as(a), 'GET', `/v1/marketplaces/${b.marketplace_id}/bank_accounts/${accountOfB.id}`);
    expect(account.status).toBe(404);
    expect(account.body).toEqual({
      status_code: 404,
      type: 'not_found',
      message: `Marketplace not found: ${b.marketplace_id}`,
    });
    const buyer = await call(as(a), 'GET', `/v1/marketplaces/${b.marketplace_id}/buyers/${buyerOfB.id}`);
    expect(buyer.status).toBe(404);
    expect(buyer.body).toEqual({
      status: 404,
      detail: `Marketplace not found: ${b.marketplace_id}`,
      trace_id: TRACE_ID,
    });
  });

  it("does not let A remove or list B's records", async () => {
    const base = `/v1/marketplaces/${a.marketplace_id}`;
    const asA = as(a);
    expect((await call(asA, 'DELETE', `${base}/bank_accounts/${accountOfB.id}`)).status).toBe(404);
    expect((await call(asA, 'DELETE', `${base}/buyers/${buyerOfB.id}`)).status).toBe(404);
    const list = await call<ListEnvelope<BankAccountListItem>>(
      asA,
      'GET',
      `${base}/sellers/${b.seller_id}/bank_accounts`,
    );
    expect(list.body).toMatchObject({ items: [], total: 0 });
    const search = await call(asA, 'GET', `${base}/buyers/search?taxpayer_id=93541134780`);
    expect(search.status).toBe(404);
    // B still has both.
    const own = await call(as(b), 'GET', `/v1/marketplaces/${b.marketplace_id}/bank_accounts/${accountOfB.id}`);
    expect(own.status).toBe(200);
  });

  it('answers 404 "Marketplace not found" for a marketplace id that does not exist', async () => {
    const unknown = '0123456789abcdef0123456789abcdef';
    const search = await call(as(a), 'GET', `/v1/marketplaces/${unknown}/buyers/search?taxpayer_id=93541134780`);
    expect(search.status).toBe(404);
    expect(search.body.detail).toBe(`Marketplace not found: ${unknown}`);
    const accounts = await call(as(a), 'GET', `/v1/marketplaces/${unknown}/sellers/${a.seller_id}/bank_accounts`);
    expect(accounts.body).toMatchObject({ status_code: 404, type: 'not_found' });
  });
});

describe('restarting on the same data directory', () => {
  const dirs: string[] = [];
  afterEach(() => {
    while (dirs.length > 0) rmSync(dirs.pop()!, { recursive: true, force: true });
  });

  it('keeps the seed ids, the token, the buyers and the bank accounts', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pinbridge-sandbox-'));
    dirs.push(dataDir);

    const first = await startSandbox({ dataDir });
    const base = `/v1/marketplaces/${first.marketplaceId}`;
    const onFirst = { sandbox: first, token: first.token };
    let buyer: Reply<Buyer>;
    let account: Reply<BankAccount>;
    let seededBefore: Reply<ListEnvelope<BankAccountListItem>>;
    try {
      buyer = await call<Buyer>(onFirst, 'POST', `${base}/buyers`, {
        first_name: 'Persistente',
        taxpayer_id: '07186592104',
        metadata: { since: 2026 },
      });
      account = await call<BankAccount>(onFirst, 'POST', `${base}/bank_accounts`, {
        customer: first.sellerId,
        holder_name: 'Loja Exemplo Ltda',
        ein: '11222333000181',
        bank_code: '756',
        type: 'savings',
        account_number: '1020304-0',
        routing_number: '3001',
      });
      seededBefore = await call(onFirst, 'GET', `${base}/sellers/${first.sellerId}/bank_accounts`);
      expect(buyer.status).toBe(201);
      expect(account.status).toBe(201);
    } finally {
      await first.close();
    }

    const second = await startSandbox({ dataDir });
    try {
      expect({ m: second.marketplaceId, s: second.sellerId, t: second.token }).toEqual({
        m: first.marketplaceId,
        s: first.sellerId,
        t: first.token,
      });
      // The first run's token, on the second run's address.
      const onSecond = { sandbox: second, token: first.token };
      const again = await call<Buyer>(onSecond, 'GET', `${base}/buyers/${buyer.body.id}`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(buyer.body);
      const accountAgain = await call<BankAccount>(onSecond, 'GET', `${base}/bank_accounts/${account.body.id}`);
      expect(accountAgain.body).toEqual(account.body);
      const list = await call<ListEnvelope<BankAccountListItem>>(
        onSecond,
        'GET',
        `${base}/sellers/${second.sellerId}/bank_accounts`,
      );
      expect(list.body).toEqual(seededBefore.body);
      expect(list.body.total).toBe(4);
      // The seeded buyers are there, once: the seed does not run again.
      for (const example of EXAMPLE_BUYERS) {
        const query = example.taxpayer_id !== undefined ? `taxpayer_id=${example.taxpayer_id}` : `ein=${example.ein}`;
        const found = await call<Buyer>(onSecond, 'GET', `${base}/buyers/search?${query}`);
        expect(found.status).toBe(200);
        expect(found.body.first_name).toBe(example.first_name);
      }
    } finally {
      await second.close();
    }
  });
});
