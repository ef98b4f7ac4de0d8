/**
 * Finding a transaction by its reference on a provider that has the reference_id filter, and on
 * one that documents only the seller's list (GoPag): the list read newest first, page by page,
 * matched by reference_id or by the metadata the creation carried, and given up once a page
 * reaches back before the payment began. Also: no Idempotency-Key where the provider has none.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, PaymentsClient, SELLER_SCAN_PAGES, type PaymentsApiError } from '../../../main/api/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { MARKETPLACE_ID, SELLER_ID, startStub, stubClient, wireTransaction, type Stub } from './stub-server.js';
import { rejection } from '../../helpers/thrown.js';

let documented: RunningSandbox;
beforeAll(async () => {
  documented = await startSandbox({ settings: { idempotencyKeys: false, marketplaceTransactionList: false } });
});
afterAll(async () => {
  await documented.close();
});
let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const client = (sandbox: RunningSandbox, findByReference: boolean): PaymentsClient =>
  new PaymentsClient({
    baseUrl: sandbox.url,
    token: sandbox.token,
    marketplaceId: sandbox.marketplaceId,
    maxRetries: 0,
    capabilities: { idempotencyKey: false, findByReference },
  });

const sale = (sandbox: RunningSandbox, reference: string, metadata: Record<string, string> = {}) => ({
  payment_locale: 'pinpad' as const,
  payment_type: 'credit' as const,
  on_behalf_of: sandbox.sellerId,
  description: 'Venda',
  amount: 1990,
  terminal: 'PB-LOOKUP',
  reference_id: reference,
  metadata,
});

const failure = (promise: Promise<unknown>): Promise<PaymentsApiError> => rejection<PaymentsApiError>(promise);

describe('a provider with only the documented calls (the sandbox without its extra features)', () => {
  it('answers 404 to the marketplace list with the reference_id filter, and does a repeated POST again', async () => {
    const api = client(documented, true);
    expect(await failure(api.transactions.findByReference('ref-x'))).toBeInstanceOf(NotFoundError);
    const body = sale(documented, 'ref-twice');
    const headers = {
      'content-type': 'application/json',
      authorization: `Bearer ${documented.token}`,
      'idempotency-key': 'same-key',
    };
    const path = `${documented.url}/v1/marketplaces/${documented.marketplaceId}/transactions`;
    const first = (await (
      await fetch(path, { method: 'POST', headers, body: JSON.stringify({ ...body, currency: 'BRL' }) })
    ).json()) as { id: string };
    const second = (await (
      await fetch(path, { method: 'POST', headers, body: JSON.stringify({ ...body, currency: 'BRL' }) })
    ).json()) as { id: string };
    expect(second.id).not.toBe(first.id);
  });

  it('lists the seller’s transactions newest first', async () => {
    const api = client(documented, false);
    await api.transactions.create(sale(documented, 'ref-older'));
    await api.transactions.create(sale(documented, 'ref-newer'));
    const { items } = await api.transactions.listBySeller(documented.sellerId, { limit: 2 });
    expect(items.map((t) => t.reference_id)).toEqual(['ref-newer', 'ref-older']);
    expect(await failure(api.transactions.listBySeller('0'.repeat(32)))).toBeInstanceOf(NotFoundError);
  });

  it('finds a transaction by reference_id, or by its metadata, in the seller’s list', async () => {
    const api = client(documented, false);
    const created = await api.transactions.create(
      sale(documented, 'ref-find', { pinbridge_payment_id: 'a'.repeat(32) }),
    );
    const lookup = {
      sellerId: documented.sellerId,
      metadata: { pinbridge_payment_id: 'a'.repeat(32) },
      createdAfter: new Date(Date.now() - 60_000).toISOString(),
    };
    expect((await api.transactions.findByReference('ref-find', lookup))?.id).toBe(created.id);
    // A provider that does not echo reference_id still returns the metadata.
    expect((await api.transactions.findByReference('not-echoed', lookup))?.id).toBe(created.id);
    expect(
      await api.transactions.findByReference('ref-none', {
        ...lookup,
        metadata: { pinbridge_payment_id: 'b'.repeat(32) },
      }),
    ).toBeUndefined();
  });

  it('needs the seller to look in', async () => {
    await expect(client(documented, false).transactions.findByReference('ref-find')).rejects.toThrow(/seller id/);
  });
});

describe('the scan of the seller’s list', () => {
  const page = (start: number, createdAt: string) =>
    Array.from({ length: 100 }, (_, i) =>
      wireTransaction({
        id: (start + i).toString(16).padStart(32, '0'),
        reference_id: `other-${start + i}`,
        created_at: createdAt,
      }),
    );
  const envelope = (items: unknown[]) => ({
    resource: 'list',
    items,
    limit: 100,
    offset: 0,
    has_more: true,
    total: 1000,
  });

  it('stops at the first page that reaches back before the payment began', async () => {
    stub = await startStub(
      { body: envelope(page(1, '2026-01-02 10:00:00')) },
      { body: envelope(page(101, '2026-01-01 09:00:00')) },
    );
    const api = stubClient(stub, { capabilities: { idempotencyKey: false, findByReference: false } });
    const found = await api.transactions.findByReference('sale-x', {
      sellerId: SELLER_ID,
      metadata: {},
      createdAfter: '2026-01-02T09:59:00Z',
    });
    expect(found).toBeUndefined();
    expect(stub.requests.map((r) => r.query.get('offset'))).toEqual(['0', '100']);
    expect(stub.requests[0]?.path).toBe(`/v1/marketplaces/${MARKETPLACE_ID}/sellers/${SELLER_ID}/transactions`);
    expect(stub.requests[0]?.query.get('sort')).toBe('-created_at');
  });

  it("asks for newest first in Zoop's own words when the key goes as HTTP Basic", async () => {
    stub = await startStub({ body: envelope([]) });
    const api = stubClient(stub, {
      authScheme: 'basic',
      capabilities: { idempotencyKey: false, findByReference: false },
    });
    await api.transactions.findByReference('sale-x', { sellerId: SELLER_ID, metadata: {} });
    expect(stub.requests[0]?.query.get('sort')).toBe('time-descending');
  });

  it(`gives up after ${SELLER_SCAN_PAGES} full pages`, async () => {
    stub = await startStub({ body: envelope(page(1, '2026-01-02 10:00:00')) });
    const api = stubClient(stub, { capabilities: { idempotencyKey: false, findByReference: false } });
    expect(
      await api.transactions.findByReference('sale-x', {
        sellerId: SELLER_ID,
        metadata: {},
        createdAfter: '2026-01-02T09:59:00Z',
      }),
    ).toBeUndefined();
    expect(stub.requests).toHaveLength(SELLER_SCAN_PAGES);
  });
});

describe('a client told the provider has no Idempotency-Key', () => {
  it('sends none, and so never sends a POST again after a lost answer', async () => {
    stub = await startStub(
      { status: 503, body: { status: 503, detail: 'busy', trace_id: 'x1' } },
      { status: 201, body: wireTransaction() },
    );
    const api = stubClient(stub, { maxRetries: 2, capabilities: { idempotencyKey: false, findByReference: false } });
    const error = await failure(api.transactions.create({ ...sale(documented, 'sale-1'), on_behalf_of: SELLER_ID }));
    expect(error.status).toBe(503);
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]?.headers['idempotency-key']).toBeUndefined();
  });
});
