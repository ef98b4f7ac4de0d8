/**
 * Bank accounts in the payments API sandbox, against the contract (shared/payments-api.md): the
 * detail and list views, bank names, masking of the account number, error shape B, the list
 * envelope and its paging, creation and removal, and that the account's internal metadata never
 * reaches a response. Real HTTP on 127.0.0.1; a fresh marketplace for most tests, the seeded one
 * for the seeded accounts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BANK_NAMES,
  type BankAccount,
  type BankAccountListItem,
  type ListEnvelope,
} from '../../../main/contract/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { findBankAccount } from '../../../main/sandbox/store/bank-accounts.js';
import { freshMarket, marketplaceCaller, type Market } from '../../helpers/sandbox.js';

const SELLER_CNPJ = '11222333000181';
const HOLDER_CPF = '52998224725';

const DETAIL_KEYS = [
  'account_number',
  'bank_code',
  'bank_name',
  'created_at',
  'customer',
  'holder_name',
  'id',
  'is_active',
  'is_verified',
  'last4_digits',
  'resource',
  'routing_number',
  'taxpayer_id',
  'type',
  'updated_at',
  'uri',
];
const LIST_ITEM_KEYS = [
  'bank_code',
  'bank_name',
  'created_at',
  'holder_name',
  'id',
  'is_verified',
  'last4_digits',
  'resource',
  'routing_number',
  'type',
];
const ENVELOPE_KEYS = ['has_more', 'items', 'limit', 'offset', 'resource', 'total', 'uri'];
const ERROR_B_KEYS = ['message', 'status_code', 'type'];
const OFFSET_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

let sandbox: RunningSandbox;
let market: Market;

/** JSON under /v1/marketplaces/<id> of this file's marketplace (or of `options.marketplace`, with `options.token`). */
const call = marketplaceCaller(() => market);

const keysOf = (value: object): string[] => Object.keys(value).sort();

const accountRequest = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  customer: market.sellerId,
  holder_name: 'Loja Exemplo Ltda',
  ein: SELLER_CNPJ,
  bank_code: '341',
  type: 'checking',
  account_number: '123456789',
  routing_number: '0912',
  ...overrides,
});

async function createAccount(
  overrides: Record<string, unknown> = {},
  headers?: Record<string, string>,
): Promise<BankAccount> {
  const reply = await call<BankAccount>('POST', '/bank_accounts', { body: accountRequest(overrides), headers });
  expect(reply.status).toBe(201);
  return reply.body;
}

/** Points the helpers at a marketplace with a seller that has no accounts yet. */
async function useFreshMarketplace(): Promise<void> {
  market = await freshMarket(sandbox);
}

beforeAll(async () => {
  sandbox = await startSandbox();
  await useFreshMarketplace();
});

afterAll(async () => {
  await sandbox.close();
});

describe('creating a bank account (POST /bank_accounts)', () => {
  it('answers 201 with the detail view: exactly the contract fields, offset timestamps, unverified and active', async () => {
    const account = await createAccount();
    expect(keysOf(account)).toEqual(DETAIL_KEYS);
    expect(account.id).toMatch(/^[0-9a-f]{32}$/);
    expect(account).toMatchObject({
      resource: 'bank_account',
      holder_name: 'Loja Exemplo Ltda',
      taxpayer_id: SELLER_CNPJ,
      bank_code: '341',
      bank_name: 'Itaú Unibanco S.A.',
      type: 'checking',
      last4_digits: '6789',
      account_number: '*****6789',
      routing_number: '0912',
      is_active: true,
      is_verified: false,
      customer: market.sellerId,
      uri: `/v1/marketplaces/${market.id}/bank_accounts/${account.id}`,
    });
    expect(account.created_at).toMatch(OFFSET_TIMESTAMP);
    expect(account.updated_at).toMatch(OFFSET_TIMESTAMP);
  });

  it("shows the holder's CPF as taxpayer_id when a CPF was used", async () => {
    const account = await createAccount({
      ein: undefined,
      taxpayer_id: HOLDER_CPF,
      holder_name: 'Maria Souza',
      type: 'savings',
    });
    expect(account.taxpayer_id).toBe(HOLDER_CPF);
    expect(account.type).toBe('savings');
  });

  it.each(Object.entries(BANK_NAMES))('names bank %s "%s"', async (code, name) => {
    const account = await createAccount({ bank_code: code });
    expect(account.bank_name).toBe(name);
  });

  it('gives bank_name null for a code outside the list (260)', async () => {
    const account = await createAccount({ bank_code: '260' });
    expect(account.bank_name).toBeNull();
    expect(account.bank_code).toBe('260');
  });

  it('never returns the full account number: all but the last 4 characters become *', async () => {
    const plain = await createAccount({ account_number: '0012345678' });
    expect(plain.account_number).toBe('******5678');
    expect(plain.last4_digits).toBe('5678');
    const withCheckDigit = await createAccount({ account_number: '98765-4' });
    expect(withCheckDigit.account_number).toBe('**7654');
    expect(withCheckDigit.last4_digits).toBe('7654');
    const short = await createAccount({ account_number: '1234' });
    expect(short.account_number).toBe('****');
    for (const account of [plain, withCheckDigit]) {
      const fetched = await call('GET', `/bank_accounts/${account.id}`);
      expect(fetched.text).not.toContain('0012345678');
      expect(fetched.text).not.toContain('987654');
    }
  });

  it('answers 404 when customer is not a seller of this marketplace', async () => {
    const unknown = await call('POST', '/bank_accounts', { body: accountRequest({ customer: 'e'.repeat(32) }) });
    expect(unknown.status).toBe(404);
    expect(keysOf(unknown.body)).toEqual(ERROR_B_KEYS);
    expect(unknown.body).toMatchObject({ status_code: 404, type: 'not_found' });
    expect(unknown.body.message).toMatch(/^Seller not found/);
    const other = await freshMarket(sandbox);
    const foreign = await call('POST', '/bank_accounts', { body: accountRequest({ customer: other.sellerId }) });
    expect(foreign.status).toBe(404);
  });

  it('answers 400 validation_error for a bad body: both documents, bad check digits, unknown type or bank code, extra fields', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ taxpayer_id: HOLDER_CPF }, /either taxpayer_id or ein/],
      [{ ein: undefined }, /taxpayer_id.*ein.*required/],
      [{ ein: '11222333000182' }, /not a valid CNPJ/],
      [{ type: 'investment' }, /type/],
      [{ bank_code: '34' }, /bank_code/],
      [{ account_number: '12.345' }, /account_number/],
      [{ nickname: 'main' }, /Unexpected fields in request \[nickname\]/],
    ];
    for (const [overrides, message] of cases) {
      const reply = await call('POST', '/bank_accounts', { body: accountRequest(overrides) });
      expect(reply.status).toBe(400);
      expect(keysOf(reply.body)).toEqual(ERROR_B_KEYS);
      expect(reply.body.type).toBe('validation_error');
      expect(reply.body.message).toMatch(message);
    }
  });

  it('replays a request repeated with the same Idempotency-Key instead of creating a second account', async () => {
    await useFreshMarketplace();
    const headers = { 'idempotency-key': 'account-1' };
    const first = await createAccount({}, headers);
    const second = await createAccount({}, headers);
    expect(second).toEqual(first);
    const list = await call<ListEnvelope<BankAccountListItem>>('GET', `/sellers/${market.sellerId}/bank_accounts`);
    expect(list.body.total).toBe(1);
  });
});

describe('getting a bank account (GET /bank_accounts/{bank_account_id})', () => {
  it('answers 200 with the same detail view the creation returned', async () => {
    const created = await createAccount({ bank_code: '001', account_number: '55667788' });
    const fetched = await call<BankAccount>('GET', `/bank_accounts/${created.id}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toEqual(created);
  });

  it('answers 400 validation_error when the id is not 32 hexadecimal characters', async () => {
    for (const id of ['123', 'g'.repeat(32), 'a'.repeat(33)]) {
      const reply = await call('GET', `/bank_accounts/${id}`);
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual({
        status_code: 400,
        type: 'validation_error',
        message: 'bank_account_id must be 32 hexadecimal characters',
      });
    }
  });

  it('answers 404 not_found for an unknown id', async () => {
    const reply = await call('GET', `/bank_accounts/${'f'.repeat(32)}`);
    expect(reply.status).toBe(404);
    expect(keysOf(reply.body)).toEqual(ERROR_B_KEYS);
    expect(reply.body).toMatchObject({ status_code: 404, type: 'not_found' });
  });
});

describe("listing a seller's bank accounts (GET /sellers/{seller_id}/bank_accounts)", () => {
  it('gives a seller with no accounts an empty list with the contract defaults', async () => {
    await useFreshMarketplace();
    const path = `/sellers/${market.sellerId}/bank_accounts`;
    const reply = await call<ListEnvelope<BankAccountListItem>>('GET', path);
    expect(reply.status).toBe(200);
    expect(keysOf(reply.body)).toEqual(ENVELOPE_KEYS);
    expect(reply.body).toEqual({
      resource: 'list',
      uri: `/v1/marketplaces/${market.id}${path}`,
      items: [],
      has_more: false,
      limit: 100,
      offset: 0,
      total: 0,
    });
  });

  it('gives an id that names no seller of the marketplace the same empty list', async () => {
    const reply = await call<ListEnvelope<BankAccountListItem>>('GET', `/sellers/${'0'.repeat(32)}/bank_accounts`);
    expect(reply.status).toBe(200);
    expect(reply.body.items).toEqual([]);
    expect(reply.body.total).toBe(0);
  });

  it('answers 400 validation_error for a seller id that is not 32 hexadecimal characters', async () => {
    const reply = await call('GET', '/sellers/store-1/bank_accounts');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ status_code: 400, type: 'validation_error' });
  });

  it('lists the accounts in the list view only, oldest first, with the total', async () => {
    await useFreshMarketplace();
    const first = await createAccount({ bank_code: '001' });
    const second = await createAccount({ bank_code: '237', type: 'savings' });
    const reply = await call<ListEnvelope<BankAccountListItem>>('GET', `/sellers/${market.sellerId}/bank_accounts`);
    expect(reply.body).toMatchObject({ has_more: false, limit: 100, offset: 0, total: 2 });
    expect(reply.body.items.map((item) => item.id)).toEqual([first.id, second.id]);
    for (const item of reply.body.items) expect(keysOf(item)).toEqual(LIST_ITEM_KEYS);
    expect(reply.body.items[1]).toEqual({
      id: second.id,
      resource: 'bank_account',
      holder_name: second.holder_name,
      bank_code: '237',
      bank_name: 'Banco Bradesco S.A.',
      type: 'savings',
      last4_digits: second.last4_digits,
      routing_number: second.routing_number,
      is_verified: false,
      created_at: second.created_at,
    });
    expect(reply.body.items[0]?.created_at).toMatch(OFFSET_TIMESTAMP);
  });

  it('pages with limit and offset: has_more while items remain, and uri carries the query string', async () => {
    await useFreshMarketplace();
    const created = [await createAccount(), await createAccount(), await createAccount()];
    const path = `/sellers/${market.sellerId}/bank_accounts`;
    const firstPage = await call<ListEnvelope<BankAccountListItem>>('GET', `${path}?limit=1`);
    expect(firstPage.body).toMatchObject({ has_more: true, limit: 1, offset: 0, total: 3 });
    expect(firstPage.body.uri).toBe(`/v1/marketplaces/${market.id}${path}?limit=1`);
    expect(firstPage.body.items.map((item) => item.id)).toEqual([created[0]?.id]);
    const middle = await call<ListEnvelope<BankAccountListItem>>('GET', `${path}?limit=1&offset=1`);
    expect(middle.body).toMatchObject({ has_more: true, offset: 1 });
    expect(middle.body.items.map((item) => item.id)).toEqual([created[1]?.id]);
    const last = await call<ListEnvelope<BankAccountListItem>>('GET', `${path}?limit=2&offset=2`);
    expect(last.body).toMatchObject({ has_more: false, limit: 2, offset: 2, total: 3 });
    expect(last.body.items.map((item) => item.id)).toEqual([created[2]?.id]);
    const beyond = await call<ListEnvelope<BankAccountListItem>>('GET', `${path}?offset=10`);
    expect(beyond.body).toMatchObject({ items: [], has_more: false, total: 3 });
  });

  it('answers 400 validation_error for a limit outside 1–100 or a negative offset', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=ten', 'offset=-1']) {
      const reply = await call('GET', `/sellers/${market.sellerId}/bank_accounts?${query}`);
      expect(reply.status).toBe(400);
      expect(keysOf(reply.body)).toEqual(ERROR_B_KEYS);
      expect(reply.body.type).toBe('validation_error');
    }
  });
});

describe('removing a bank account (DELETE /bank_accounts/{bank_account_id})', () => {
  it('answers {id, resource, deleted: true}; afterwards get is 404 and the list leaves it out', async () => {
    await useFreshMarketplace();
    const kept = await createAccount();
    const removed = await createAccount({ bank_code: '104' });
    const reply = await call('DELETE', `/bank_accounts/${removed.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ id: removed.id, resource: 'bank_account', deleted: true });
    const fetched = await call('GET', `/bank_accounts/${removed.id}`);
    expect(fetched.status).toBe(404);
    expect(fetched.body.type).toBe('not_found');
    const list = await call<ListEnvelope<BankAccountListItem>>('GET', `/sellers/${market.sellerId}/bank_accounts`);
    expect(list.body.items.map((item) => item.id)).toEqual([kept.id]);
    expect(list.body.total).toBe(1);
    expect((await call('DELETE', `/bank_accounts/${removed.id}`)).status).toBe(404);
  });

  it('answers 400 for a malformed id and 404 for an unknown one', async () => {
    expect((await call('DELETE', '/bank_accounts/xyz')).body).toMatchObject({
      status_code: 400,
      type: 'validation_error',
    });
    expect((await call('DELETE', `/bank_accounts/${'9'.repeat(32)}`)).body).toMatchObject({
      status_code: 404,
      type: 'not_found',
    });
  });
});

describe('the seeded accounts and their sensitive metadata', () => {
  const seeded = (): { marketplace: string; token: string; seller: string } => ({
    marketplace: sandbox.marketplaceId,
    token: sandbox.token,
    seller: sandbox.sellerId,
  });

  it('seeds the store with accounts at Itaú, Bradesco and an unlisted bank (null bank_name)', async () => {
    const { marketplace, token: seedToken, seller } = seeded();
    const list = await call<ListEnvelope<BankAccountListItem>>('GET', `/sellers/${seller}/bank_accounts`, {
      marketplace,
      token: seedToken,
    });
    expect(list.body.total).toBe(3);
    expect(list.body.items.map((item) => [item.bank_code, item.bank_name])).toEqual([
      ['341', 'Itaú Unibanco S.A.'],
      ['237', 'Banco Bradesco S.A.'],
      ['260', null],
    ]);
  });

  it("never shows an account's internal metadata or full number in a detail, list, create or delete response", async () => {
    const { marketplace, token: seedToken, seller } = seeded();
    const options = { marketplace, token: seedToken };
    const created = await call<BankAccount>('POST', '/bank_accounts', {
      ...options,
      body: accountRequest({ customer: seller, account_number: '7766554433' }),
    });
    const list = await call<ListEnvelope<BankAccountListItem>>('GET', `/sellers/${seller}/bank_accounts`, options);
    const responses: string[] = [created.text, list.text];
    for (const item of list.body.items) responses.push((await call('GET', `/bank_accounts/${item.id}`, options)).text);

    const secrets: string[] = [];
    for (const item of list.body.items) {
      // What the store keeps beside the account, read from the database itself.
      const record = findBankAccount(sandbox.context.db, marketplace, item.id);
      expect(record).toBeDefined();
      if (!record) continue;
      expect(Object.keys(record.metadata).length).toBeGreaterThan(0);
      secrets.push(record.account_number.replace(/-/g, ''), record.account_number, ...Object.keys(record.metadata));
      for (const value of Object.values(record.metadata)) secrets.push(String(value));
    }
    responses.push((await call('DELETE', `/bank_accounts/${created.body.id}`, options)).text);
    expect(secrets).toContain('verification_token');
    expect(secrets).toContain('document_image');
    for (const text of responses) {
      expect(text).not.toMatch(/"metadata"|token|secret|password|document|full_account_number|"pin"/i);
      for (const secret of secrets) expect(text).not.toContain(secret);
    }
  });
});
