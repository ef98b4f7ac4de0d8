import { afterEach, describe, expect, it } from 'vitest';
import {
  bodyIdempotencyKey,
  cancellationIdempotencyKey,
  terminalIdempotencyKey,
  transactionIdempotencyKey,
  type PinpadParams,
} from '../../../main/api/index.js';
import { MARKETPLACE_ID, SELLER_ID, startStub, stubClient, TXN_ID, wireTransaction, type Stub } from './stub-server.js';
import { chipRequest } from '../../helpers/sealed-card.js';

const OTHER_MARKETPLACE = 'ffffffffffffffffffffffffffffffff';

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const pinpad: PinpadParams = {
  payment_locale: 'pinpad',
  payment_type: 'debit',
  on_behalf_of: SELLER_ID,
  description: 'Venda',
  amount: 990,
  terminal: 'PP123456',
  reference_id: 'pos-1:sale-42',
};

describe('Idempotency-Key derivation', () => {
  it('is the same for the same sale, across client instances (and so across restarts)', () => {
    const first = transactionIdempotencyKey(MARKETPLACE_ID, 'pinpad', 'pos-1:sale-42');
    expect(first).toMatch(/^pinbridge:txn:[0-9a-f]{40}$/);
    expect(transactionIdempotencyKey(MARKETPLACE_ID, 'pinpad', 'pos-1:sale-42')).toBe(first);
  });

  it('differs for another reference, kind or marketplace', () => {
    const key = transactionIdempotencyKey(MARKETPLACE_ID, 'pinpad', 'pos-1:sale-42');
    expect(transactionIdempotencyKey(MARKETPLACE_ID, 'pinpad', 'pos-1:sale-43')).not.toBe(key);
    expect(transactionIdempotencyKey(MARKETPLACE_ID, 'tap_to_pay', 'pos-1:sale-42')).not.toBe(key);
    expect(transactionIdempotencyKey(OTHER_MARKETPLACE, 'pinpad', 'pos-1:sale-42')).not.toBe(key);
  });

  it('keeps the parts apart (no ambiguity by concatenation)', () => {
    expect(transactionIdempotencyKey('ab', 'boleto', 'c')).not.toBe(transactionIdempotencyKey('a', 'boleto', 'bc'));
  });

  it('derives terminal keys from the transaction, the operation and the attempt', () => {
    const authorize = terminalIdempotencyKey(MARKETPLACE_ID, TXN_ID, 'authorization');
    expect(authorize).toMatch(/^pinbridge:term:[0-9a-f]{40}$/);
    expect(terminalIdempotencyKey(MARKETPLACE_ID, TXN_ID.toUpperCase(), 'authorization')).toBe(authorize);
    expect(terminalIdempotencyKey(MARKETPLACE_ID, TXN_ID, 'completion')).not.toBe(authorize);
    expect(terminalIdempotencyKey(MARKETPLACE_ID, TXN_ID, 'authorization', 'card-2')).not.toBe(authorize);
  });

  it('derives body keys independently of key order', () => {
    expect(bodyIdempotencyKey(MARKETPLACE_ID, 'buyer', { first_name: 'Ana', taxpayer_id: '52998224725' })).toBe(
      bodyIdempotencyKey(MARKETPLACE_ID, 'buyer', { taxpayer_id: '52998224725', first_name: 'Ana' }),
    );
    expect(bodyIdempotencyKey(MARKETPLACE_ID, 'buyer', { first_name: 'Ana' })).not.toBe(
      bodyIdempotencyKey(MARKETPLACE_ID, 'buyer', { first_name: 'Bia' }),
    );
  });
});

/** A client told that the provider honours Idempotency-Key (settings `api.capabilities.idempotency_key`). */
const keyedClient = (server: Stub): ReturnType<typeof stubClient> =>
  stubClient(server, { capabilities: { idempotencyKey: true } });

describe('Idempotency-Key on every creating POST, for a provider said to honour it', () => {
  it('sends the derived transaction key, the same from two clients', async () => {
    stub = await startStub({ status: 201, body: wireTransaction() });
    await keyedClient(stub).transactions.create(pinpad);
    await keyedClient(stub).transactions.create(pinpad);
    const keys = stub.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toBe(transactionIdempotencyKey(MARKETPLACE_ID, 'pinpad', 'pos-1:sale-42'));
    expect(keys[1]).toBe(keys[0]);
  });

  it('uses the key the caller gives', async () => {
    stub = await startStub({ status: 201, body: wireTransaction() });
    await keyedClient(stub).transactions.create(pinpad, { idempotencyKey: 'my-own-key' });
    expect(stub.requests[0]?.headers['idempotency-key']).toBe('my-own-key');
  });

  it('gives a card sale without reference_id a fresh key per call, kept across its retries', async () => {
    const { reference_id: _reference, ...noReference } = pinpad;
    stub = await startStub({ status: 503, body: 'busy' }, { status: 201, body: wireTransaction() });
    const client = keyedClient(stub);
    await client.transactions.create(noReference);
    await client.transactions.create(noReference);
    const keys = stub.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('sends a key with buyers, bank accounts, webhooks, boletos, cancellations and terminal calls', async () => {
    stub = await startStub((request) => {
      if (request.path.endsWith('/buyers')) return { status: 201, body: { id: TXN_ID, resource: 'buyer' } };
      if (request.path.endsWith('/bank_accounts'))
        return { status: 201, body: { id: TXN_ID, resource: 'bank_account' } };
      if (request.path.endsWith('/webhooks')) return { status: 201, body: { id: TXN_ID, resource: 'webhook' } };
      if (request.path.startsWith('/v1/cancellation/')) {
        return { body: { resource: 'cancellation', status: 'REQUESTED', message: 'ok', transaction_id: TXN_ID } };
      }
      if (request.path.endsWith('/authorization')) {
        return {
          body: {
            decision: 'approved',
            response_code: '00',
            response_message: 'Approved',
            decline_code: null,
            authorization_code: 'A1',
            nsu: '1',
            issuer_emv_data: null,
            transaction: wireTransaction({ status: 'succeeded' }),
          },
        };
      }
      return { status: 201, body: wireTransaction() };
    });
    const client = keyedClient(stub);
    await client.buyers.create({ first_name: 'Ana', taxpayer_id: '52998224725' });
    await client.bankAccounts.create({
      customer: SELLER_ID,
      holder_name: 'Loja',
      ein: '11222333000181',
      bank_code: '341',
      type: 'checking',
      account_number: '12345-6',
      routing_number: '1234',
    });
    await client.webhooks.create({ url: 'https://pos.example/hooks', event: ['all'] });
    await client.boletos.create({
      on_behalf_of: SELLER_ID,
      customer: TXN_ID,
      amount: 5000,
      description: 'Mensalidade',
      reference_id: 'b-1',
    });
    await client.boletos.cancel(TXN_ID);
    await client.terminal.authorize(TXN_ID, chipRequest(1000, {}, 'PP1'));
    await client.terminal.complete(TXN_ID, { terminal: 'PP1', chip_result: 'accepted' });
    await client.terminal.reverse(TXN_ID, { terminal: 'PP1', reason: 'chip_refused' });
    await client.terminal.void(TXN_ID, { on_behalf_of: SELLER_ID });
    await client.transactions.void(TXN_ID, { on_behalf_of: SELLER_ID, amount: 100 });

    const keys = stub.requests.map((r) => [r.method, r.path.split('/').slice(-1)[0], r.headers['idempotency-key']]);
    expect(keys).toHaveLength(10);
    for (const [method, , key] of keys) {
      expect(method).toBe('POST');
      expect(key).toMatch(/^pinbridge:[a-z_]+:[0-9a-f]{40}$/);
    }
    expect(new Set(keys.map(([, , key]) => key)).size).toBe(10);
    expect(stub.requests[4]?.headers['idempotency-key']).toBe(cancellationIdempotencyKey(MARKETPLACE_ID, TXN_ID));
    expect(stub.requests[4]?.body).toBe('{}');
    expect(stub.requests[5]?.headers['idempotency-key']).toBe(
      terminalIdempotencyKey(MARKETPLACE_ID, TXN_ID, 'authorization'),
    );
  });
});

describe('Idempotency-Key for a provider not said to honour it (the default)', () => {
  it('sends no key, and never sends a creation again after a 502 or a 504 whose outcome is unknown', async () => {
    for (const status of [502, 504]) {
      stub = await startStub(
        { status, body: { status, detail: 'gateway', trace_id: 'g1' } },
        { status: 201, body: wireTransaction() },
      );
      const error = await stubClient(stub, { maxRetries: 2 })
        .transactions.create(pinpad)
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status, code: 'server_error' });
      expect(stub.requests).toHaveLength(1);
      expect(stub.requests[0]?.headers['idempotency-key']).toBeUndefined();
      await stub.close();
      stub = undefined;
    }
  });
});
