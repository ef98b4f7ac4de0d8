/**
 * The client against the real sandbox (main/sandbox) on 127.0.0.1: every resource end to end,
 * in a fresh marketplace of its own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  PaymentsClient,
  ValidationError,
  type PinpadParams,
} from '../../../main/api/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { chipRequest } from '../../helpers/sealed-card.js';

const CPF = '52998224725';
const CNPJ = '11444777000161';
const MISSING_ID = '0'.repeat(32);

let sandbox: RunningSandbox;
let client: PaymentsClient;
let marketplaceId: string;
let sellerId: string;
let token: string;

async function post<T>(url: string, body: unknown, bearer?: string): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** A fresh marketplace with a seller and a token (sandbox helper). */
async function freshMarketplace(
  base: string,
): Promise<{ marketplace_id: string; seller_id: string; access_token: string }> {
  return post(`${base}/v1/sandbox/marketplaces`, {});
}

beforeAll(async () => {
  sandbox = await startSandbox({
    settings: { boletoCancellationDelayMs: 50, webhookRetryBaseMs: 20, webhookTimeoutMs: 1_000 },
  });
  const fresh = await freshMarketplace(sandbox.url);
  marketplaceId = fresh.marketplace_id;
  sellerId = fresh.seller_id;
  token = fresh.access_token;
  // The sandbox offers Idempotency-Key and the reference_id filter (its defaults); these specs use both.
  client = new PaymentsClient({
    baseUrl: sandbox.url,
    token,
    marketplaceId,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    capabilities: { idempotencyKey: true, findByReference: true },
  });
});
afterAll(async () => {
  await sandbox.close();
});

const pinpadSale = (referenceId: string, amount: number, terminal = 'PB-TEST-0001'): PinpadParams => ({
  payment_locale: 'pinpad',
  payment_type: 'credit',
  on_behalf_of: sellerId,
  description: `Sale ${referenceId}`,
  notification: 'Pinbridge test',
  amount,
  terminal,
  reference_id: referenceId,
});

describe('buyers', () => {
  it('creates, reads, updates, finds by CPF and deletes a buyer', async () => {
    const created = await client.buyers.create({
      first_name: 'Ana',
      last_name: 'Souza',
      email: 'ana@example.com',
      taxpayer_id: CPF,
      address: { line1: 'Rua A, 1', city: 'São Paulo', state: 'SP', postal_code: '01001000', country_code: 'BR' },
    });
    expect(created).toMatchObject({ resource: 'buyer', first_name: 'Ana', taxpayer_id: CPF });
    expect(created.id).toMatch(/^[0-9a-f]{32}$/);

    expect((await client.buyers.retrieve(created.id)).email).toBe('ana@example.com');
    const updated = await client.buyers.update(created.id, { first_name: 'Ana Maria', metadata: { loyalty: 'gold' } });
    expect(updated.first_name).toBe('Ana Maria');
    expect(updated.metadata).toEqual({ loyalty: 'gold' });
    expect((await client.buyers.search({ taxpayer_id: CPF })).id).toBe(created.id);

    const deleted = await client.buyers.delete(created.id);
    expect(deleted).toMatchObject({ id: created.id, resource: 'buyer', deleted: true });
    await expect(client.buyers.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('finds a company buyer by CNPJ', async () => {
    const company = await client.buyers.create({ first_name: 'Mercado Bom', ein: CNPJ });
    const found = await client.buyers.search({ ein: CNPJ });
    expect(found).toMatchObject({ id: company.id, ein: CNPJ });
  });

  it('creates and finds a company buyer by its alphanumeric CNPJ (12ABC34501DE35)', async () => {
    const company = await client.buyers.create({ first_name: 'Mercadinho Nova Era', ein: '12ABC34501DE35' });
    expect(company.ein).toBe('12ABC34501DE35');
    const found = await client.buyers.search({ ein: '12ABC34501DE35' });
    expect(found).toMatchObject({ id: company.id, ein: '12ABC34501DE35', first_name: 'Mercadinho Nova Era' });
  });

  it('answers the same buyer when the same creation is sent twice (Idempotency-Key)', async () => {
    const body = { first_name: 'Caio', taxpayer_id: '11144477735' };
    const first = await client.buyers.create(body);
    const again = await client.buyers.create({ taxpayer_id: '11144477735', first_name: 'Caio' });
    expect(again.id).toBe(first.id);
  });

  it('maps a duplicate CPF to ConflictError and an unknown tax id to NotFoundError with the trace id', async () => {
    await client.buyers.create({ first_name: 'Duda', taxpayer_id: '39053344705' });
    const conflict = await client.buyers
      .create({ first_name: 'Outra Duda', taxpayer_id: '39053344705' })
      .catch((e: unknown) => e);
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({ status: 409, code: 'conflict' });

    const missing = await client.buyers.search({ taxpayer_id: '12345678909' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing).toMatchObject({ status: 404, detail: 'Buyer not found with taxpayer_id: 12345678909' });
    expect((missing as NotFoundError).traceId).toMatch(/^[0-9a-f]{6}$/);
  });
});

describe('bank accounts', () => {
  it('creates an account, reads its detail view and finds it in the seller list', async () => {
    const account = await client.bankAccounts.create({
      customer: sellerId,
      holder_name: 'Loja Exemplo Ltda',
      ein: '11222333000181',
      bank_code: '341',
      type: 'checking',
      account_number: '123456-7',
      routing_number: '0001',
    });
    expect(account).toMatchObject({
      resource: 'bank_account',
      bank_code: '341',
      bank_name: 'Itaú Unibanco S.A.',
      customer: sellerId,
    });
    expect(account.account_number).not.toBe('123456-7');

    const detail = await client.bankAccounts.retrieve(account.id);
    expect(detail.last4_digits).toBe(account.last4_digits);

    const page = await client.bankAccounts.list(sellerId, { limit: 100 });
    expect(page.resource).toBe('list');
    expect(page.items.map((item) => item.id)).toContain(account.id);
    expect(page.total).toBe(page.items.length);

    await client.bankAccounts.delete(account.id);
    const gone = await client.bankAccounts.retrieve(account.id).catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(NotFoundError);
    // Bank accounts answer errors in shape B.
    expect(gone).toMatchObject({ status: 404, type: 'not_found' });
  });

  it('creates an account for a holder with an alphanumeric CNPJ, shown as its taxpayer_id', async () => {
    const account = await client.bankAccounts.create({
      customer: sellerId,
      holder_name: 'Mercadinho Nova Era Ltda',
      ein: 'A1B2C3D4000193',
      bank_code: '237',
      type: 'checking',
      account_number: '765432-1',
      routing_number: '0002',
    });
    expect(account).toMatchObject({
      resource: 'bank_account',
      holder_name: 'Mercadinho Nova Era Ltda',
      taxpayer_id: 'A1B2C3D4000193',
    });
    expect((await client.bankAccounts.retrieve(account.id)).taxpayer_id).toBe('A1B2C3D4000193');
  });

  it('lists an empty page for a seller without accounts', async () => {
    const page = await client.bankAccounts.list(MISSING_ID);
    expect(page).toMatchObject({ resource: 'list', items: [], has_more: false, total: 0, offset: 0 });
  });
});

describe('PINPAD transactions through the terminal channel', () => {
  it('creates a pending sale, sees it pending for the terminal, authorizes and completes it', async () => {
    const sale = await client.transactions.create(pinpadSale('pinpad-ok-1', 1234));
    expect(sale).toMatchObject({
      status: 'pending',
      amount: 1234,
      original_amount: 1234,
      payment_locale: 'pinpad',
      currency: 'BRL',
    });

    const pending = await client.terminal.pendingTransactions('PB-TEST-0001');
    expect(pending.map((t) => t.id)).toContain(sale.id);

    const authorization = await client.terminal.authorize(sale.id, chipRequest(sale.amount, {}, 'PB-TEST-0001'));
    expect(authorization).toMatchObject({ decision: 'approved', response_code: '00', decline_code: null });
    expect(authorization.transaction).toMatchObject({ id: sale.id, status: 'succeeded', amount: 1234 });
    expect(authorization.authorization_code).toEqual(expect.any(String));

    const completed = await client.terminal.complete(sale.id, { terminal: 'PB-TEST-0001', chip_result: 'accepted' });
    expect(completed.status).toBe('succeeded');
    expect((await client.terminal.pendingTransactions('PB-TEST-0001')).map((t) => t.id)).not.toContain(sale.id);
  });

  it('declines an amount ending in 51 (insufficient funds)', async () => {
    const sale = await client.transactions.create(pinpadSale('pinpad-51', 2051));
    const result = await client.terminal.authorize(sale.id, chipRequest(sale.amount, {}, 'PB-TEST-0001'));
    expect(result).toMatchObject({ decision: 'declined', response_code: '51', decline_code: 'insufficient_funds' });
    expect(result.transaction.status).toBe('failed');
    expect(result.transaction.error?.code).toBe('insufficient_funds');
  });

  it('finds a sale by reference_id, and sending the same sale again does not create a second one', async () => {
    const sale = await client.transactions.create(pinpadSale('pinpad-ref-1', 990));
    const again = await client.transactions.create(pinpadSale('pinpad-ref-1', 990));
    expect(again.id).toBe(sale.id);
    const found = await client.transactions.findByReference('pinpad-ref-1');
    expect(found?.id).toBe(sale.id);
    expect((await client.transactions.list({ reference_id: 'pinpad-ref-1' })).items).toHaveLength(1);
    expect(await client.transactions.findByReference('no-such-reference')).toBeUndefined();
  });

  it('answers a repeated creation with the first response: the current state needs a retrieve', async () => {
    const sale = await client.transactions.create(pinpadSale('pinpad-replay', 1500));
    await client.terminal.authorize(sale.id, chipRequest(sale.amount, {}, 'PB-TEST-0001'));
    const replay = await client.transactions.create(pinpadSale('pinpad-replay', 1500));
    expect(replay).toMatchObject({ id: sale.id, status: 'pending' });
    expect((await client.transactions.retrieve(sale.id)).status).toBe('succeeded');
  });

  it('refuses the same reference with another body (ConflictError), never a second charge', async () => {
    await client.transactions.create(pinpadSale('pinpad-ref-2', 500));
    const error = await client.transactions.create(pinpadSale('pinpad-ref-2', 600)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
  });

  it('reverses an approved sale whose chip refused, and voids another', async () => {
    const first = await client.transactions.create(pinpadSale('pinpad-rev', 700));
    await client.terminal.authorize(
      first.id,
      chipRequest(first.amount, { entry_mode: 'contactless_chip', pos_entry_mode: '071' }, 'PB-TEST-0001'),
    );
    const reversed = await client.terminal.reverse(first.id, { terminal: 'PB-TEST-0001', reason: 'chip_refused' });
    expect(reversed.status).toBe('reversed');

    const second = await client.transactions.create(pinpadSale('pinpad-void', 800));
    await client.terminal.authorize(second.id, chipRequest(second.amount, {}, 'PB-TEST-0001'));
    const voided = await client.terminal.void(second.id, { on_behalf_of: sellerId });
    expect(voided).toMatchObject({ status: 'canceled', voided: true });
    expect(voided.history.map((entry) => entry.operation_type)).toContain('void');
    expect(voided.history.every((entry) => Number.isInteger(entry.amount))).toBe(true);
  });

  it('partially voids a captured credit sale: amount drops, original_amount stays', async () => {
    const sale = await client.transactions.create(pinpadSale('pinpad-partial', 1000));
    await client.terminal.authorize(sale.id, chipRequest(sale.amount, {}, 'PB-TEST-0001'));
    const partial = await client.transactions.void(sale.id, { on_behalf_of: sellerId, amount: 300 });
    expect(partial).toMatchObject({ status: 'succeeded', amount: 700, original_amount: 1000 });
  });

  // A retried partial void (the client sends it again after a timeout, with the same key) must
  // not void twice.
  it('applies a retried partial void once, and a deliberate second one (new attempt token) again', async () => {
    const sale = await client.transactions.create(pinpadSale('pinpad-partial-retry', 1000));
    await client.terminal.authorize(sale.id, chipRequest(sale.amount, {}, 'PB-TEST-0001'));
    const first = await client.transactions.void(sale.id, { on_behalf_of: sellerId, amount: 300 });
    const retried = await client.transactions.void(sale.id, { on_behalf_of: sellerId, amount: 300 });
    expect(first.amount).toBe(700);
    expect(retried.amount).toBe(700);
    const second = await client.transactions.void(
      sale.id,
      { on_behalf_of: sellerId, amount: 300 },
      { attempt: 'second' },
    );
    expect(second.amount).toBe(400);
  });

  it('maps an unknown seller to a service error with the trace id', async () => {
    const error = await client.transactions
      .create({ ...pinpadSale('pinpad-no-seller', 100), on_behalf_of: MISSING_ID })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, detail: 'Seller not found' });
  });
});

describe('tap to pay', () => {
  it('waits for the phone to complete the payment', async () => {
    const sale = await client.tapToPay.create({
      payment_type: 'debit',
      on_behalf_of: sellerId,
      description: 'Café',
      notification: 'Aproxime o cartão do celular do vendedor',
      amount: 650,
      terminal: 'phone-ana',
      reference_id: 'ttp-1',
    });
    expect(sale).toMatchObject({ status: 'pending', payment_locale: 'tap_to_pay' });
    setTimeout(() => {
      void post(
        `${sandbox.url}/v1/sandbox/marketplaces/${marketplaceId}/transactions/${sale.id}/tap_to_pay`,
        { outcome: 'approved' },
        token,
      );
    }, 60);
    const done = await client.tapToPay.waitForCompletion(sale.id, { intervalMs: 20, timeoutMs: 5_000 });
    expect(done).toMatchObject({ id: sale.id, status: 'succeeded', amount: 650 });
  });

  it('reports a declined tap as failed', async () => {
    const sale = await client.tapToPay.create({
      payment_type: 'credit',
      installment_plan: { number_installments: 2 },
      on_behalf_of: sellerId,
      description: 'Jantar',
      amount: 12_000,
      terminal: 'phone-ana',
      reference_id: 'ttp-2',
    });
    expect(sale.installment_plan?.number_installments).toBe(2);
    await post(
      `${sandbox.url}/v1/sandbox/marketplaces/${marketplaceId}/transactions/${sale.id}/tap_to_pay`,
      { outcome: 'declined' },
      token,
    );
    const done = await client.tapToPay.waitForCompletion(sale.id, { intervalMs: 10 });
    expect(done.status).toBe('failed');
  });
});

describe('boletos', () => {
  it('creates a boleto and cancels it; the cancellation applies after the processing delay', async () => {
    const payer = await client.buyers.create({ first_name: 'Bruno', taxpayer_id: '86288366757' });
    const boleto = await client.boletos.create({
      on_behalf_of: sellerId,
      customer: payer.id,
      amount: 15_000,
      description: 'Mensalidade março',
      reference_id: 'boleto-1',
    });
    expect(boleto).toMatchObject({ payment_type: 'boleto', status: 'pending', amount: 15_000 });
    expect(boleto.boleto?.barcode).toMatch(/^[0-9]{44}$/);

    const cancellation = await client.boletos.cancel(boleto.id);
    expect(cancellation).toMatchObject({ resource: 'cancellation', status: 'REQUESTED', transaction_id: boleto.id });

    await new Promise((resolve) => setTimeout(resolve, 120));
    expect((await client.transactions.retrieve(boleto.id)).status).toBe('canceled');
  });

  it('creates a bolepix with a Pix payload', async () => {
    const payer = await client.buyers.create({ first_name: 'Carla', taxpayer_id: '71428793860' });
    const bolepix = await client.boletos.createBolepix({
      on_behalf_of: sellerId,
      customer: payer.id,
      amount: 4_990,
      description: 'Pedido 77',
      reference_id: 'bolepix-1',
    });
    expect(bolepix).toMatchObject({ payment_type: 'bolepix', amount: 4_990 });
    expect(bolepix.pix?.qr_code).toEqual(expect.any(String));
  });

  it('lets the service refuse a boleto below its minimum (ValidationError)', async () => {
    const payer = await client.buyers.search({ taxpayer_id: '86288366757' });
    const error = await client.boletos
      .create({
        on_behalf_of: sellerId,
        customer: payer.id,
        amount: 100,
        description: 'Barato',
        reference_id: 'boleto-min',
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 400 });
  });
});

describe('webhooks', () => {
  let receiver: Server;
  let receiverUrl: string;
  const received: string[] = [];

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push(body);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it('registers a webhook, lists it, sees its deliveries and deletes it', async () => {
    const webhook = await client.webhooks.create({
      url: receiverUrl,
      event: ['transaction.succeeded'],
      description: 'POS',
    });
    expect(webhook).toMatchObject({ resource: 'webhook', url: receiverUrl, status: 'active' });
    expect(webhook.secret).toEqual(expect.any(String));
    expect((await client.webhooks.list()).items.map((w) => w.id)).toContain(webhook.id);
    expect((await client.webhooks.retrieve(webhook.id)).id).toBe(webhook.id);

    const sale = await client.transactions.create(pinpadSale('webhook-sale', 1500, 'PB-TEST-0002'));
    await client.terminal.authorize(sale.id, chipRequest(sale.amount, {}, 'PB-TEST-0002'));
    let deliveries = await client.webhooks.deliveries(webhook.id);
    for (let i = 0; i < 150 && deliveries.items[0]?.status !== 'succeeded'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      deliveries = await client.webhooks.deliveries(webhook.id);
    }
    expect(deliveries.items[0]).toMatchObject({
      webhook_id: webhook.id,
      event: 'transaction.succeeded',
      status: 'succeeded',
    });
    expect(received.some((body) => body.includes(sale.id))).toBe(true);

    expect(await client.webhooks.delete(webhook.id)).toMatchObject({ id: webhook.id, deleted: true });
  });

  // A retried registration must not create a second webhook (every event would arrive twice).
  it('registers one webhook when the same registration is retried', async () => {
    const params = { url: `${receiverUrl}/retry`, event: ['transaction.failed' as const] };
    const first = await client.webhooks.create(params);
    const again = await client.webhooks.create(params);
    expect(again.id).toBe(first.id);
  });
});

describe('credentials', () => {
  it('maps an expired token to AuthenticationError, then fails fast without hammering the service', async () => {
    const expired = await post<{ access_token: string }>(`${sandbox.url}/v1/sandbox/tokens`, {
      marketplace_id: marketplaceId,
      expires_in: 0,
    });
    const stale = new PaymentsClient({ baseUrl: sandbox.url, token: expired.access_token, marketplaceId });
    const first = await stale.buyers.search({ taxpayer_id: CPF }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(AuthenticationError);
    expect(first).toMatchObject({
      status: 401,
      message: 'Payments API credentials invalid or expired',
      type: 'unauthorized',
      sent: true,
    });
    expect((first as Error).message).not.toContain(expired.access_token);

    const second = await stale.transactions.list().catch((e: unknown) => e);
    expect(second).toBeInstanceOf(AuthenticationError);
    expect(second).toMatchObject({ sent: false });
  });

  it('cannot reach another marketplace with its token (404, marketplace not found)', async () => {
    const other = await freshMarketplace(sandbox.url);
    const crossed = new PaymentsClient({ baseUrl: sandbox.url, token, marketplaceId: other.marketplace_id });
    const error = await crossed.buyers.search({ taxpayer_id: CPF }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).detail).toContain('Marketplace not found');
  });

  it('refuses invalid input before the sandbox sees it', async () => {
    await expect(
      client.transactions.create({ ...pinpadSale('x', 100), notification: 'n'.repeat(33) }),
    ).rejects.toBeInstanceOf(InvalidRequestError);
  });
});

describe('a sandbox that writes amounts as decimal reais', () => {
  let decimal: RunningSandbox;
  let decimalClient: PaymentsClient;
  let decimalSeller: string;
  let decimalToken: string;
  let decimalMarketplace: string;

  beforeAll(async () => {
    decimal = await startSandbox({ settings: { amountFormat: 'decimal' } });
    const fresh = await freshMarketplace(decimal.url);
    decimalSeller = fresh.seller_id;
    decimalToken = fresh.access_token;
    decimalMarketplace = fresh.marketplace_id;
    decimalClient = new PaymentsClient({
      baseUrl: decimal.url,
      token: decimalToken,
      marketplaceId: decimalMarketplace,
    });
  });
  afterAll(async () => {
    await decimal.close();
  });

  it('still gives the client integer centavos', async () => {
    const sale = await decimalClient.transactions.create({
      ...pinpadSale('decimal-1', 1234),
      on_behalf_of: decimalSeller,
    });
    expect(sale.amount).toBe(1234);
    expect(sale.original_amount).toBe(1234);

    const raw = (await (
      await fetch(`${decimal.url}/v1/marketplaces/${decimalMarketplace}/transactions/${sale.id}`, {
        headers: { authorization: `Bearer ${decimalToken}` },
      })
    ).json()) as { amount: unknown };
    expect(raw.amount).toBe('12.34');

    const result = await decimalClient.terminal.authorize(sale.id, chipRequest(sale.amount, {}, 'PB-TEST-0001'));
    expect(result.transaction.amount).toBe(1234);
    expect(result.transaction.history.map((entry) => entry.amount)).toEqual(expect.arrayContaining([1234]));
    const partial = await decimalClient.transactions.void(sale.id, { on_behalf_of: decimalSeller, amount: 234 });
    expect(partial).toMatchObject({ amount: 1000, original_amount: 1234 });
  });
});
