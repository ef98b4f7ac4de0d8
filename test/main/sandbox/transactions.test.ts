import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorA, ListEnvelope, Transaction } from '../../../main/contract/index.js';
import { barcodeFromDigitableLine, dueDateFactor, parseBoletoBarcode } from '../../../main/sandbox/boleto/index.js';
import { parseBrCode, parseTlv } from '../../../main/sandbox/pix/brcode.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { newId } from '../../../main/sandbox/time.js';
import { call, freshMarket, storeBuyer, type Market, type Problem } from '../../helpers/sandbox.js';

const create = (market: Market, body: unknown, headers: Record<string, string> = {}) =>
  call<Transaction & Problem>(market, 'POST', `/v1/marketplaces/${market.id}/transactions`, body, { headers });

const pinpad = (market: Market, overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  payment_locale: 'pinpad',
  payment_type: 'credit',
  on_behalf_of: market.sellerId,
  description: 'Venda balcão',
  currency: 'BRL',
  amount: 3000,
  terminal: 'PAX-S920-0001',
  ...overrides,
});

const tapToPay = (market: Market, overrides: Record<string, unknown> = {}): Record<string, unknown> =>
  pinpad(market, { payment_locale: 'tap_to_pay', terminal: 'nfc-device-1', ...overrides });

const boleto = (
  market: Market,
  customer: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> => ({
  payment_type: 'boleto',
  on_behalf_of: market.sellerId,
  customer,
  amount: 12_345,
  currency: 'BRL',
  description: 'Pedido 42',
  reference_id: `order-${newId().slice(0, 8)}`,
  ...overrides,
});

const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------

let sandbox: RunningSandbox;
let market: Market;
let buyerId: string;

beforeAll(async () => {
  sandbox = await startSandbox();
  market = await freshMarket(sandbox);
  buyerId = storeBuyer(market);
});

afterAll(async () => {
  await sandbox.close();
});

describe('creating a PINPAD transaction', () => {
  it('answers 201 with a pending transaction echoing terminal, notification and installments', async () => {
    const { status, body } = await create(
      market,
      pinpad(market, {
        notification: 'Insira o cartão',
        installment_plan: { number_installments: 3 },
        reference_id: 'sale-1',
      }),
    );
    expect(status).toBe(201);
    expect(body).toMatchObject({
      resource: 'transaction',
      status: 'pending',
      amount: 3000,
      original_amount: 3000,
      currency: 'BRL',
      payment_type: 'credit',
      payment_locale: 'pinpad',
      terminal: 'PAX-S920-0001',
      notification: 'Insira o cartão',
      installment_plan: { number_installments: 3, mode: 'interest_free' },
      reference_id: 'sale-1',
      on_behalf_of: market.sellerId,
      customer: null,
      captured: false,
      voided: false,
      payment_method: null,
      point_of_sale: null,
      payment_authorization: null,
      error: null,
      uri: `/v1/marketplaces/${market.id}/transactions/${body.id}`,
    });
    expect(body.id).toMatch(/^[0-9a-f]{32}$/);
    expect(body.history).toEqual([
      expect.objectContaining({ operation_type: 'created', status: 'succeeded', amount: 3000, transaction: body.id }),
    ]);
    expect(body.history[0]?.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(body.created_at).toMatch(/\+00:00$/);
    expect(body).not.toHaveProperty('boleto');
  });

  it('gives null notification and installment plan when they are not sent', async () => {
    const { body } = await create(market, pinpad(market));
    expect(body.notification).toBeNull();
    expect(body.installment_plan).toBeNull();
    expect(body.reference_id).toBeNull();
  });

  it('accepts a notification of exactly 32 characters', async () => {
    expect((await create(market, pinpad(market, { notification: 'x'.repeat(32) }))).status).toBe(201);
  });

  it('accepts 1 and 12 installments', async () => {
    for (const count of [1, 12]) {
      const { status, body } = await create(
        market,
        pinpad(market, { installment_plan: { number_installments: count } }),
      );
      expect(status).toBe(201);
      expect(body.installment_plan?.number_installments).toBe(count);
    }
  });

  const INSTALLMENTS_RANGE = 'Field installment_plan.number_installments must be between 1 and 12';
  const rejections: Array<[string, Record<string, unknown>, string]> = [
    [
      'a notification longer than 32 characters',
      { notification: 'x'.repeat(33) },
      'Field notification must be at most 32 characters',
    ],
    [
      'installments on a debit payment',
      { payment_type: 'debit', installment_plan: { number_installments: 2 } },
      'Field installment_plan is allowed for credit payments only',
    ],
    ['more than 12 installments', { installment_plan: { number_installments: 13 } }, INSTALLMENTS_RANGE],
    ['zero installments', { installment_plan: { number_installments: 0 } }, INSTALLMENTS_RANGE],
    ['a zero amount', { amount: 0 }, 'Field amount must be >= 1'],
    ['a fractional amount (amounts are integer centavos)', { amount: 30.5 }, 'Field amount must be of type integer'],
    ['an amount sent as a string', { amount: '3000' }, 'Field amount must be of type integer'],
    ['a currency other than BRL', { currency: 'USD' }, 'Field currency must be "BRL"'],
    [
      'an on_behalf_of that is not 32 hexadecimal characters',
      { on_behalf_of: 'seller-1' },
      'Invalid on_behalf_of (seller_id) format',
    ],
    ['fields the contract does not have', { tip: 100 }, 'Unexpected fields in request [tip]'],
  ];

  it.each(rejections)('rejects %s', async (_what, overrides, detail) => {
    const { status, body } = await create(market, pinpad(market, overrides));
    expect(status).toBe(400);
    expect(body.detail).toBe(detail);
    expect(body.trace_id).toMatch(/^[0-9a-f]{6}$/);
  });

  it.each([
    ['the terminal', 'terminal', 'Field terminal is required'],
    ['the description', 'description', 'Field description is required'],
    [
      'payment_locale for a card payment',
      'payment_locale',
      'Field payment_locale is required for card payments (pinpad or tap_to_pay)',
    ],
  ])('requires %s', async (_what, field, detail) => {
    const body = pinpad(market);
    delete body[field];
    const answer = await create(market, body);
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toBe(detail);
  });

  it('answers 404 "Seller not found" for a seller that is not in the marketplace', async () => {
    const other = await freshMarket(sandbox);
    for (const seller of [newId(), other.sellerId]) {
      const { status, body } = await create(market, pinpad(market, { on_behalf_of: seller }));
      expect(status).toBe(404);
      expect(body.detail).toBe('Seller not found');
    }
  });
});

describe('creating a tap-to-pay transaction', () => {
  it('answers 201 pending with the NFC device as terminal', async () => {
    const { status, body } = await create(market, tapToPay(market, { payment_type: 'debit' }));
    expect(status).toBe(201);
    expect(body).toMatchObject({
      status: 'pending',
      payment_locale: 'tap_to_pay',
      payment_type: 'debit',
      terminal: 'nfc-device-1',
    });
  });

  it('accepts a notification of 200 characters', async () => {
    expect((await create(market, tapToPay(market, { notification: 'n'.repeat(200) }))).status).toBe(201);
  });

  it('rejects a notification longer than 200 characters', async () => {
    const { status, body } = await create(market, tapToPay(market, { notification: 'n'.repeat(201) }));
    expect(status).toBe(400);
    expect(body.detail).toBe('Field notification must be at most 200 characters');
  });

  it('rejects installments on a debit payment', async () => {
    const { status, body } = await create(
      market,
      tapToPay(market, { payment_type: 'debit', installment_plan: { number_installments: 3 } }),
    );
    expect(status).toBe(400);
    expect(body.detail).toBe('Field installment_plan is allowed for credit payments only');
  });
});

describe('Idempotency-Key on creation', () => {
  it('answers a repeat with the same key and body with the same transaction, 201 both times', async () => {
    const key = `key-${newId()}`;
    const body = pinpad(market, { reference_id: 'idem-1' });
    const first = await create(market, body, { 'idempotency-key': key });
    const second = await create(market, body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    const { total } = (
      await call<ListEnvelope<Transaction>>(
        market,
        'GET',
        `/v1/marketplaces/${market.id}/transactions?reference_id=idem-1`,
      )
    ).body;
    expect(total).toBe(1);
  });

  it('answers 409 when the key comes back with a different body', async () => {
    const key = `key-${newId()}`;
    expect((await create(market, pinpad(market), { 'idempotency-key': key })).status).toBe(201);
    const again = await create(market, pinpad(market, { amount: 3001 }), { 'idempotency-key': key });
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('already used with a different request');
  });

  it('replays a boleto creation with the same numbers, issuing no second boleto', async () => {
    const key = `key-${newId()}`;
    const body = boleto(market, buyerId);
    const first = await create(market, body, { 'idempotency-key': key });
    const second = await create(market, body, { 'idempotency-key': key });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    const { total } = (
      await call<ListEnvelope<Transaction>>(
        market,
        'GET',
        `/v1/marketplaces/${market.id}/transactions?reference_id=${String(body.reference_id)}`,
      )
    ).body;
    expect(total).toBe(1);
  });

  it('creates a new transaction for each request without a key', async () => {
    const first = await create(market, pinpad(market));
    const second = await create(market, pinpad(market));
    expect(second.body.id).not.toBe(first.body.id);
  });
});

describe('looking a transaction up', () => {
  it('answers 200 with the transaction as created', async () => {
    const created = (await create(market, pinpad(market))).body;
    const { status, body } = await call<Transaction>(
      market,
      'GET',
      `/v1/marketplaces/${market.id}/transactions/${created.id}`,
    );
    expect(status).toBe(200);
    expect(body).toEqual(created);
  });

  it('answers 404 "Transaction not found" for an unknown id', async () => {
    const { status, body } = await call<ErrorA>(market, 'GET', `/v1/marketplaces/${market.id}/transactions/${newId()}`);
    expect(status).toBe(404);
    expect(body.detail).toBe('Transaction not found');
  });

  it('answers 404 for an id that is not 32 hexadecimal characters', async () => {
    const { status, body } = await call<ErrorA>(market, 'GET', `/v1/marketplaces/${market.id}/transactions/not-an-id`);
    expect(status).toBe(404);
    expect(body.detail).toBe('Transaction not found');
  });

  it("answers 404 for another marketplace's transaction", async () => {
    const other = await freshMarket(sandbox);
    const theirs = (await create(other, pinpad(other))).body;
    const { status, body } = await call<ErrorA>(
      market,
      'GET',
      `/v1/marketplaces/${market.id}/transactions/${theirs.id}`,
    );
    expect(status).toBe(404);
    expect(body.detail).toBe('Transaction not found');
  });
});

describe('listing transactions', () => {
  it('finds a transaction by reference_id', async () => {
    const reference = `ref-${newId()}`;
    const created = (await create(market, pinpad(market, { reference_id: reference }))).body;
    const path = `/v1/marketplaces/${market.id}/transactions`;
    const { status, body } = await call<ListEnvelope<Transaction>>(market, 'GET', `${path}?reference_id=${reference}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ resource: 'list', uri: path, has_more: false, limit: 100, offset: 0, total: 1 });
    expect(body.items.map((t) => t.id)).toEqual([created.id]);
  });

  it('lists newest first and pages with limit and offset', async () => {
    const own = await freshMarket(sandbox);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await create(own, pinpad(own))).body.id);
    const path = `/v1/marketplaces/${own.id}/transactions`;
    const all = (await call<ListEnvelope<Transaction>>(own, 'GET', path)).body;
    expect(all.items.map((t) => t.id)).toEqual([...ids].reverse());
    const page = (await call<ListEnvelope<Transaction>>(own, 'GET', `${path}?limit=2&offset=1`)).body;
    expect(page).toMatchObject({ limit: 2, offset: 1, total: 3, has_more: false });
    expect(page.items.map((t) => t.id)).toEqual([ids[1], ids[0]]);
    const first = (await call<ListEnvelope<Transaction>>(own, 'GET', `${path}?limit=1`)).body;
    expect(first.has_more).toBe(true);
  });

  it('filters by status, terminal and payment_type', async () => {
    const own = await freshMarket(sandbox);
    const a = (await create(own, pinpad(own, { terminal: 'T-A' }))).body;
    const b = (await create(own, pinpad(own, { terminal: 'T-B', payment_type: 'debit' }))).body;
    const path = `/v1/marketplaces/${own.id}/transactions`;
    const byTerminal = (await call<ListEnvelope<Transaction>>(own, 'GET', `${path}?terminal=T-A`)).body;
    expect(byTerminal.items.map((t) => t.id)).toEqual([a.id]);
    const byType = (await call<ListEnvelope<Transaction>>(own, 'GET', `${path}?payment_type=debit`)).body;
    expect(byType.items.map((t) => t.id)).toEqual([b.id]);
    const succeeded = (await call<ListEnvelope<Transaction>>(own, 'GET', `${path}?status=succeeded`)).body;
    expect(succeeded.total).toBe(0);
  });

  it('rejects an unknown status filter with 400', async () => {
    const { status, body } = await call<ErrorA>(
      market,
      'GET',
      `/v1/marketplaces/${market.id}/transactions?status=paid`,
    );
    expect(status).toBe(400);
    expect(body.detail).toContain('status');
  });
});

describe('sorting the listings, as the provider the sandbox plays documents it', () => {
  const lists = (own: Market): Record<string, string> => ({
    marketplace: `/v1/marketplaces/${own.id}/transactions`,
    seller: `/v1/marketplaces/${own.id}/sellers/${own.sellerId}/transactions`,
  });
  const threeSales = async (own: Market, headers: Record<string, string> = {}): Promise<string[]> => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await create(own, pinpad(own), headers)).body.id);
    return ids;
  };

  it.each(['marketplace', 'seller'])(
    "GoPag's front (Bearer): the %s list takes created_at and -created_at, and refuses Zoop's time-descending with 400",
    async (which) => {
      const own = await freshMarket(sandbox);
      const ids = await threeSales(own);
      const path = lists(own)[which]!;
      const ids$ = async (sort: string): Promise<string[]> =>
        (await call<ListEnvelope<Transaction>>(own, 'GET', `${path}?sort=${sort}`)).body.items.map((t) => t.id);
      expect(await ids$('created_at')).toEqual(ids);
      expect(await ids$('-created_at')).toEqual([...ids].reverse());
      const refused = await call<ErrorA>(own, 'GET', `${path}?sort=time-descending`);
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toBe(
        "Query parameter sort must be created_at or -created_at (time-descending is the Zoop API's value, taken when the sandbox takes the key as Zoop does: --auth basic or any)",
      );
    },
  );

  describe('the Zoop API (--auth basic)', () => {
    let zoop: RunningSandbox;
    beforeAll(async () => {
      zoop = await startSandbox({ settings: { authScheme: 'basic' } });
    });
    afterAll(() => zoop.close());

    it.each(['marketplace', 'seller'])(
      "the %s list takes Zoop's own sort=time-descending and time-ascending, and GoPag's values still",
      async (which) => {
        const own = await freshMarket(zoop);
        const basic = { authorization: `Basic ${Buffer.from(`${own.token}:`).toString('base64')}` };
        const ids = await threeSales(own, basic);
        const path = lists(own)[which]!;
        const ids$ = async (sort: string): Promise<string[]> => {
          const reply = await call<ListEnvelope<Transaction>>(own, 'GET', `${path}?sort=${sort}`, undefined, {
            headers: basic,
          });
          expect(reply.status, reply.text).toBe(200);
          return reply.body.items.map((t) => t.id);
        };
        expect(await ids$('time-descending')).toEqual([...ids].reverse());
        expect(await ids$('time-ascending')).toEqual(ids);
        expect(await ids$('created_at')).toEqual(ids);
        expect(await ids$('-created_at')).toEqual([...ids].reverse());
      },
    );

    it('refuses a sort neither provider documents with 400', async () => {
      const own = await freshMarket(zoop);
      const basic = { authorization: `Basic ${Buffer.from(`${own.token}:`).toString('base64')}` };
      const reply = await call<ErrorA>(own, 'GET', `${lists(own).seller}?sort=newest`, undefined, { headers: basic });
      expect(reply.status).toBe(400);
      expect(reply.body.detail).toContain('sort');
    });
  });
});

describe('creating a boleto', () => {
  it('answers 201 pending with a 44-digit barcode that parses back to the amount and due date', async () => {
    const { status, body } = await create(
      market,
      boleto(market, buyerId, { payment_method: { expiration_date: '2030-05-17' } }),
    );
    expect(status).toBe(201);
    expect(body).toMatchObject({
      status: 'pending',
      payment_type: 'boleto',
      payment_locale: 'api',
      customer: buyerId,
      amount: 12_345,
    });
    const details = body.boleto;
    if (!details) throw new Error('no boleto details');
    expect(details.barcode).toMatch(/^[0-9]{44}$/);
    const parsed = parseBoletoBarcode(details.barcode);
    expect(parsed.valid).toBe(true);
    expect(parsed.amountCentavos).toBe(12_345);
    expect(parsed.dueDateFactor).toBe(dueDateFactor('2030-05-17'));
    expect(barcodeFromDigitableLine(details.digitable_line)).toBe(details.barcode);
    expect(details).toMatchObject({
      url: `${sandbox.url}/boletos/${body.id}.pdf`,
      expiration_date: '2030-05-17',
      payment_limit_date: addDays('2030-05-17', 29),
      billing_instructions: null,
      status: 'not_paid',
      paid_at: null,
    });
  });

  it('gives each boleto its own number', async () => {
    const first = (await create(market, boleto(market, buyerId))).body.boleto?.barcode;
    const second = (await create(market, boleto(market, buyerId))).body.boleto?.barcode;
    expect(first).toBeDefined();
    expect(second).not.toBe(first);
  });

  it('is due in 3 days when no expiration date is given', async () => {
    const { body } = await create(market, boleto(market, buyerId));
    const today = new Date().toISOString().slice(0, 10);
    expect(body.boleto?.expiration_date).toBe(addDays(today, 3));
  });

  it('keeps the payment limit date and billing instructions it was given', async () => {
    const instructions = {
      late_fee: { mode: 'PERCENTAGE', percentage: 2, start_date: '2030-05-18' },
      interest: { mode: 'MONTHLY_PERCENTAGE', percentage: 1 },
      discount: [{ mode: 'FIXED', amount: 500, limit_date: '2030-05-10' }],
    };
    const { status, body } = await create(
      market,
      boleto(market, buyerId, {
        payment_method: {
          expiration_date: '2030-05-17',
          payment_limit_date: '2030-05-20',
          billing_instructions: instructions,
        },
      }),
    );
    expect(status).toBe(201);
    expect(body.boleto?.payment_limit_date).toBe('2030-05-20');
    expect(body.boleto?.billing_instructions).toEqual(instructions);
  });

  it('rejects a payment limit date before the expiration date', async () => {
    const { status, body } = await create(
      market,
      boleto(market, buyerId, { payment_method: { expiration_date: '2030-05-17', payment_limit_date: '2030-05-16' } }),
    );
    expect(status).toBe(400);
    expect(body.detail).toBe(
      'Field payment_method.payment_limit_date must not be before payment_method.expiration_date',
    );
  });

  it('rejects an expiration date that is not a calendar date', async () => {
    const { status, body } = await create(
      market,
      boleto(market, buyerId, { payment_method: { expiration_date: '2030-02-30' } }),
    );
    expect(status).toBe(400);
    expect(body.detail).toBe('Field payment_method.expiration_date is not a calendar date');
  });

  it('rejects an amount below R$ 3,00', async () => {
    const { status, body } = await create(market, boleto(market, buyerId, { amount: 299 }));
    expect(status).toBe(400);
    expect(body.detail).toBe('Field amount must be at least 300 (R$ 3,00) for a boleto');
  });

  it('accepts R$ 3,00 and R$ 10.000,00', async () => {
    expect((await create(market, boleto(market, buyerId, { amount: 300 }))).status).toBe(201);
    expect((await create(market, boleto(market, buyerId, { amount: 1_000_000 }))).status).toBe(201);
  });

  it('rejects an amount above R$ 10.000,00', async () => {
    const { status, body } = await create(market, boleto(market, buyerId, { amount: 1_000_001 }));
    expect(status).toBe(400);
    expect(body.detail).toBe('Field amount must be at most 1000000 (R$ 10.000,00) for a boleto');
  });

  it('rejects an amount below R$ 30,00 when a late fee or interest is given', async () => {
    const { status, body } = await create(
      market,
      boleto(market, buyerId, {
        amount: 2999,
        payment_method: { billing_instructions: { late_fee: { mode: 'FIXED', amount: 100 } } },
      }),
    );
    expect(status).toBe(400);
    expect(body.detail).toBe('Field amount must be at least 3000 (R$ 30,00) when a late fee or interest is given');
  });

  it('answers 404 "Buyer not found" for a customer that is not a buyer of the marketplace', async () => {
    const { status, body } = await create(market, boleto(market, newId()));
    expect(status).toBe(404);
    expect(body.detail).toBe('Buyer not found');
  });

  it('answers 404 for a buyer that was removed', async () => {
    const removed = storeBuyer(market);
    sandbox.context.db
      .statement('UPDATE buyers SET deleted_at = ? WHERE id = ?')
      .run(new Date().toISOString(), removed);
    expect((await create(market, boleto(market, removed))).status).toBe(404);
  });

  it('does not need a registered customer when the payer is given inline', async () => {
    const { status, body } = await create(
      market,
      boleto(market, newId(), {
        payment_method: { buyer: { first_name: 'João', last_name: 'Souza', taxpayer_id: '52998224725' } },
      }),
    );
    expect(status).toBe(201);
    expect(body.boleto?.status).toBe('not_paid');
  });

  it('answers 404 "Seller not found" for a seller of another marketplace', async () => {
    const other = await freshMarket(sandbox);
    const { status, body } = await create(market, boleto(market, buyerId, { on_behalf_of: other.sellerId }));
    expect(status).toBe(404);
    expect(body.detail).toBe('Seller not found');
  });

  it('requires reference_id', async () => {
    const body = boleto(market, buyerId);
    delete body.reference_id;
    const answer = await create(market, body);
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toBe('Field reference_id is required');
  });
});

describe('creating a bolepix', () => {
  const bolepix = (overrides: Record<string, unknown> = {}) =>
    boleto(market, buyerId, { payment_type: 'bolepix', ...overrides });

  it('carries a boleto and a Pix payload with a valid CRC for the same amount', async () => {
    const { status, body } = await create(
      market,
      bolepix({ payment_method: { due_at: '2030-06-10', payment_limit_at: '2030-06-20' } }),
    );
    expect(status).toBe(201);
    expect(body.payment_type).toBe('bolepix');
    expect(body.boleto).toMatchObject({
      expiration_date: '2030-06-10',
      payment_limit_date: '2030-06-20',
      status: 'not_paid',
    });
    expect(parseBoletoBarcode(body.boleto?.barcode ?? '').dueDateFactor).toBe(dueDateFactor('2030-06-10'));
    const pix = body.pix;
    if (!pix) throw new Error('no pix details');
    const parsed = parseBrCode(pix.qr_code);
    expect(parsed.crcValid).toBe(true);
    expect(parsed.fields['54']).toBe('123.45');
    expect(parsed.fields['59']).toBe('Loja Exemplo Ltda');
    expect(parseTlv(parsed.fields['62'] ?? '')['05']).toBe(body.id.slice(0, 25));
    expect(parseTlv(parsed.fields['26'] ?? '')['00']).toBe('br.gov.bcb.pix');
    expect(pix.qr_code_url).toBe(`${sandbox.url}/pix/${body.id}.png`);
    expect(pix.expiration_date_time).toBe('2030-06-10T23:59:59+00:00');
  });

  it('stores its charges as boleto billing instructions', async () => {
    const { status, body } = await create(
      market,
      bolepix({
        payment_method: {
          due_at: '2030-06-10',
          late_fee: { mode: 'FIXED', value: '200', start_at: '2030-06-11' },
          interest: { mode: 'PERCENTAGE', frequency: 'MONTHLY', value: '1.5' },
          discount: { mode: 'PERCENTAGE', value: 5, limit_at: '2030-06-05' },
        },
      }),
    );
    expect(status).toBe(201);
    expect(body.boleto?.billing_instructions).toEqual({
      late_fee: { mode: 'FIXED', amount: 200, start_date: '2030-06-11' },
      interest: { mode: 'MONTHLY_PERCENTAGE', percentage: 1.5, start_date: null },
      discount: [{ mode: 'PERCENTAGE', percentage: 5, limit_date: '2030-06-05' }],
    });
  });

  it('rejects a FIXED interest charged per month (a boleto has no such instruction)', async () => {
    const { status, body } = await create(
      market,
      bolepix({ payment_method: { interest: { mode: 'FIXED', frequency: 'MONTHLY', value: 100 } } }),
    );
    expect(status).toBe(400);
    expect(body.detail).toBe('Field payment_method.interest.frequency must be DAILY when mode is FIXED');
  });

  it('rejects a payment limit before the due date', async () => {
    const { status, body } = await create(
      market,
      bolepix({ payment_method: { due_at: '2030-06-10', payment_limit_at: '2030-06-09' } }),
    );
    expect(status).toBe(400);
    expect(body.detail).toBe('Field payment_method.payment_limit_at must not be before payment_method.due_at');
  });

  it('answers 404 "Buyer not found" for an unknown customer', async () => {
    const { status, body } = await create(market, bolepix({ customer: newId() }));
    expect(status).toBe(404);
    expect(body.detail).toBe('Buyer not found');
  });
});

describe('storage', () => {
  it('keeps integer amounts and relative links in the stored record', async () => {
    const created = (await create(market, boleto(market, buyerId, { payment_type: 'bolepix' }))).body;
    const row = sandbox.context.db
      .statement(
        'SELECT data, reference_id, status, payment_type, payment_locale, seller_id FROM transactions WHERE id = ?',
      )
      .get(created.id) as {
      data: string;
      reference_id: string;
      status: string;
      payment_type: string;
      payment_locale: string;
      seller_id: string;
    };
    const stored = JSON.parse(row.data) as Transaction;
    expect(stored.amount).toBe(12_345);
    expect(stored.history[0]?.amount).toBe(12_345);
    expect(stored.boleto?.url).toBe(`/boletos/${created.id}.pdf`);
    expect(stored.pix?.qr_code_url).toBe(`/pix/${created.id}.png`);
    expect(row).toMatchObject({
      reference_id: created.reference_id,
      status: 'pending',
      payment_type: 'bolepix',
      payment_locale: 'api',
      seller_id: market.sellerId,
    });
  });
});

describe('amountFormat "decimal"', () => {
  it('writes amounts as reais strings and the installment count as a string', async () => {
    const decimal = await startSandbox({ settings: { amountFormat: 'decimal' } });
    try {
      const own = await freshMarket(decimal);
      const { status, body } = await create(
        own,
        pinpad(own, { amount: 3000, installment_plan: { number_installments: 2 } }),
      );
      expect(status).toBe(201);
      expect(body.amount).toBe('30.00');
      expect(body.original_amount).toBe('30.00');
      expect(body.history[0]?.amount).toBe('30.00');
      expect(body.installment_plan?.number_installments).toBe('2');
      const cents = (await create(own, pinpad(own, { amount: 1205 }))).body;
      expect(cents.amount).toBe('12.05');
      const row = decimal.context.db.statement('SELECT data FROM transactions WHERE id = ?').get(body.id) as {
        data: string;
      };
      expect((JSON.parse(row.data) as Transaction).amount).toBe(3000);
    } finally {
      await decimal.close();
    }
  });
});

describe('restarting with the same data directory', () => {
  it('keeps the transactions', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pinbridge-transactions-'));
    try {
      const first = await startSandbox({ dataDir });
      const own = await freshMarket(first);
      const created = (await create(own, pinpad(own, { reference_id: 'kept' }))).body;
      await first.close();
      const second = await startSandbox({ dataDir });
      try {
        const again = { ...own, sandbox: second };
        const { status, body } = await call<Transaction>(
          again,
          'GET',
          `/v1/marketplaces/${own.id}/transactions/${created.id}`,
        );
        expect(status).toBe(200);
        expect(body).toEqual(created);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
