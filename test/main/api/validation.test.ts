import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidRequestError, type PaymentsClient, type PinpadParams } from '../../../main/api/index.js';
import { SELLER_ID, startStub, stubClient, TXN_ID, wireTransaction, type Stub } from './stub-server.js';
import { chipRequest } from '../../helpers/sealed-card.js';

const BUYER_ID = '11111111111111111111111111111111';
const VALID_CPF = '52998224725';
const VALID_CNPJ = '11222333000181';

let stub: Stub;
let client: PaymentsClient;
beforeAll(async () => {
  stub = await startStub({ status: 201, body: wireTransaction() });
  client = stubClient(stub);
});
afterAll(async () => {
  await stub.close();
});

const pinpad: PinpadParams = {
  payment_locale: 'pinpad',
  payment_type: 'credit',
  on_behalf_of: SELLER_ID,
  description: 'Venda 7',
  amount: 1000,
  terminal: 'PP123456',
  reference_id: 'sale-7',
};

/** The violations of a call that must be refused before sending, and proof nothing was sent. */
async function refused(call: () => Promise<unknown>): Promise<Array<{ field: string; code: string }>> {
  const before = stub.requests.length;
  try {
    await call();
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(stub.requests.length).toBe(before);
    const invalid = error as InvalidRequestError;
    expect(invalid.code).toBe('invalid_request');
    expect(invalid.status).toBeUndefined();
    expect(invalid.message).toMatch(/^Invalid request: /);
    return invalid.violations.map(({ field, code }) => ({ field, code }));
  }
  throw new Error('expected the call to be refused');
}

describe('transactions are checked against the contract before sending', () => {
  it('refuses a PINPAD notification longer than 32 characters', async () => {
    expect(await refused(() => client.transactions.create({ ...pinpad, notification: 'x'.repeat(33) }))).toContainEqual(
      {
        field: 'notification',
        code: 'too_long',
      },
    );
  });

  it('refuses a tap-to-pay notification longer than 200 characters', async () => {
    const { payment_locale: _locale, ...rest } = pinpad;
    expect(await refused(() => client.tapToPay.create({ ...rest, notification: 'x'.repeat(201) }))).toContainEqual({
      field: 'notification',
      code: 'too_long',
    });
  });

  it('refuses installments on a debit payment', async () => {
    expect(
      await refused(() =>
        client.transactions.create({ ...pinpad, payment_type: 'debit', installment_plan: { number_installments: 2 } }),
      ),
    ).toContainEqual({ field: 'installment_plan', code: 'not_allowed' });
  });

  it.each([0, 13, 2.5])('refuses %s installments', async (count) => {
    expect(
      await refused(() => client.transactions.create({ ...pinpad, installment_plan: { number_installments: count } })),
    ).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'installment_plan.number_installments' })]));
  });

  it.each([0, -100, 10.5, '100', Number.NaN])('refuses the amount %s', async (amount) => {
    expect(await refused(() => client.transactions.create({ ...pinpad, amount: amount as number }))).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'amount' })]),
    );
  });

  it('refuses a currency other than BRL', async () => {
    expect(await refused(() => client.transactions.create({ ...pinpad, currency: 'USD' as 'BRL' }))).toContainEqual({
      field: 'currency',
      code: 'invalid_value',
    });
  });

  it('refuses a seller id that is not 32 hexadecimal characters', async () => {
    expect(await refused(() => client.transactions.create({ ...pinpad, on_behalf_of: 'seller-1' }))).toContainEqual({
      field: 'on_behalf_of',
      code: 'invalid_format',
    });
  });

  it('refuses a boleto without reference_id or a valid customer id', async () => {
    const violations = await refused(() =>
      client.boletos.create({
        on_behalf_of: SELLER_ID,
        customer: 'nope',
        amount: 5000,
        description: 'Mensalidade',
      } as never),
    );
    expect(violations).toContainEqual({ field: 'reference_id', code: 'required' });
    expect(violations).toContainEqual({ field: 'customer', code: 'invalid_format' });
  });

  it('refuses inline payer data with a CPF whose check digits are wrong', async () => {
    expect(
      await refused(() =>
        client.boletos.create({
          on_behalf_of: SELLER_ID,
          customer: BUYER_ID,
          amount: 5000,
          description: 'Mensalidade',
          reference_id: 'b-1',
          payment_method: { buyer: { first_name: 'Ana', taxpayer_id: '52998224726' } },
        }),
      ),
    ).toContainEqual({ field: 'payment_method.buyer.taxpayer_id', code: 'invalid_check_digits' });
  });

  it('refuses inline payer data with an alphanumeric CNPJ whose check digits are wrong', async () => {
    const boleto = (ein: string) => () =>
      client.boletos.create({
        on_behalf_of: SELLER_ID,
        customer: BUYER_ID,
        amount: 5000,
        description: 'Mensalidade',
        reference_id: 'b-2',
        payment_method: { buyer: { first_name: 'Mercadinho Nova Era', ein } },
      });
    expect(await refused(boleto('12ABC34501DE36'))).toContainEqual({
      field: 'payment_method.buyer.ein',
      code: 'invalid_check_digits',
    });
  });

  it('refuses unknown fields', async () => {
    expect(await refused(() => client.transactions.create({ ...pinpad, tip: 100 } as PinpadParams))).toContainEqual({
      field: 'tip',
      code: 'unexpected_field',
    });
  });

  it('refuses a partial void with a zero amount', async () => {
    expect(
      await refused(() => client.transactions.void(TXN_ID, { on_behalf_of: SELLER_ID, amount: 0 })),
    ).toContainEqual({
      field: 'amount',
      code: 'out_of_range',
    });
  });

  it('fills in currency BRL when the caller leaves it out', async () => {
    const before = stub.requests.length;
    await client.transactions.create(pinpad);
    expect(stub.requests.length).toBe(before + 1);
    expect(JSON.parse(stub.requests.at(-1)?.body ?? '{}')).toMatchObject({ currency: 'BRL', amount: 1000 });
  });
});

describe('buyers and bank accounts are checked before sending', () => {
  it('refuses a buyer without a tax id, or with both', async () => {
    expect(await refused(() => client.buyers.create({ first_name: 'Ana' }))).toContainEqual({
      field: 'taxpayer_id',
      code: 'required',
    });
    expect(
      await refused(() => client.buyers.create({ first_name: 'Ana', taxpayer_id: VALID_CPF, ein: VALID_CNPJ })),
    ).toContainEqual({ field: 'ein', code: 'not_allowed' });
  });

  it('refuses a buyer whose CPF or CNPJ check digits are wrong', async () => {
    expect(await refused(() => client.buyers.create({ first_name: 'Ana', taxpayer_id: '52998224726' }))).toContainEqual(
      {
        field: 'taxpayer_id',
        code: 'invalid_check_digits',
      },
    );
    expect(await refused(() => client.buyers.create({ first_name: 'Loja', ein: '11222333000182' }))).toContainEqual({
      field: 'ein',
      code: 'invalid_check_digits',
    });
    expect(await refused(() => client.buyers.create({ first_name: 'Loja', ein: '12ABC34501DE36' }))).toContainEqual({
      field: 'ein',
      code: 'invalid_check_digits',
    });
  });

  it('refuses an alphanumeric CNPJ in lowercase or with its mask: the API takes 14 characters, uppercase, no punctuation', async () => {
    for (const ein of ['12abc34501de35', '12.ABC.345/01DE-35']) {
      expect(await refused(() => client.buyers.create({ first_name: 'Loja', ein }))).toContainEqual({
        field: 'ein',
        code: 'invalid_format',
      });
    }
  });

  it('refuses a buyer with an invalid e-mail', async () => {
    expect(
      await refused(() => client.buyers.create({ first_name: 'Ana', taxpayer_id: VALID_CPF, email: 'ana-at-example' })),
    ).toContainEqual({ field: 'email', code: 'invalid_format' });
  });

  it('refuses an update that changes the tax id or an unknown field', async () => {
    const violations = await refused(() =>
      client.buyers.update(BUYER_ID, { taxpayer_id: VALID_CPF, nickname: 'A' } as unknown as { first_name: string }),
    );
    expect(violations).toContainEqual({ field: 'taxpayer_id', code: 'not_allowed' });
    expect(violations).toContainEqual({ field: 'nickname', code: 'unexpected_field' });
  });

  it.each([
    [{ taxpayer_id: '5299822472' }, 'taxpayer_id', 'invalid_format'],
    [{ taxpayer_id: '529.982.247-25' }, 'taxpayer_id', 'invalid_format'],
    [{ ein: '1122233300018' }, 'ein', 'invalid_format'],
    [{ taxpayer_id: '52998224726' }, 'taxpayer_id', 'invalid_check_digits'],
    [{ ein: '11222333000182' }, 'ein', 'invalid_check_digits'],
    [{ ein: '12ABC34501DE36' }, 'ein', 'invalid_check_digits'],
    [{ ein: '12abc34501de35' }, 'ein', 'invalid_format'],
    [{ ein: '12ABC34501DEAB' }, 'ein', 'invalid_format'],
    [{}, 'taxpayer_id', 'required'],
    [{ taxpayer_id: VALID_CPF, ein: VALID_CNPJ }, 'ein', 'not_allowed'],
  ])('refuses the search %o', async (query, field, code) => {
    expect(await refused(() => client.buyers.search(query as { taxpayer_id: string }))).toContainEqual({ field, code });
  });

  it('refuses a bank account with a bad bank code or CNPJ', async () => {
    const violations = await refused(() =>
      client.bankAccounts.create({
        customer: SELLER_ID,
        holder_name: 'Loja',
        ein: '11222333000182',
        bank_code: '34',
        type: 'checking',
        account_number: '12345-6',
        routing_number: '1234',
      }),
    );
    expect(violations).toContainEqual({ field: 'bank_code', code: 'invalid_format' });
    expect(violations).toContainEqual({ field: 'ein', code: 'invalid_check_digits' });
  });

  it('refuses a page size above 100', async () => {
    expect(await refused(() => client.bankAccounts.list(SELLER_ID, { limit: 101 }))).toContainEqual({
      field: 'limit',
      code: 'out_of_range',
    });
  });

  it('refuses a webhook with a bad url or an unknown event', async () => {
    const violations = await refused(() =>
      client.webhooks.create({ url: 'not a url', event: ['transaction.exploded' as 'transaction.failed'] }),
    );
    expect(violations.map((v) => v.field)).toEqual(expect.arrayContaining(['url', 'event.0']));
  });
});

describe('ids in paths are 32 hexadecimal characters', () => {
  it.each([
    ['buyers.retrieve', () => client.buyers.retrieve('123')],
    ['buyers.update', () => client.buyers.update('../secrets', { first_name: 'x' })],
    ['buyers.delete', () => client.buyers.delete('')],
    ['bankAccounts.retrieve', () => client.bankAccounts.retrieve(`${BUYER_ID}0`)],
    ['bankAccounts.list', () => client.bankAccounts.list('seller')],
    ['bankAccounts.delete', () => client.bankAccounts.delete('zz'.repeat(16))],
    ['transactions.retrieve', () => client.transactions.retrieve('a/b')],
    ['transactions.void', () => client.transactions.void('x', { on_behalf_of: SELLER_ID })],
    ['transactions.waitForCompletion', () => client.transactions.waitForCompletion('nope')],
    ['boletos.cancel', () => client.boletos.cancel('nope')],
    ['webhooks.retrieve', () => client.webhooks.retrieve('nope')],
    ['webhooks.deliveries', () => client.webhooks.deliveries('nope')],
    ['terminal.complete', () => client.terminal.complete('nope', { terminal: 'PP1', chip_result: 'accepted' })],
    ['terminal.reverse', () => client.terminal.reverse('nope', { terminal: 'PP1', reason: 'timeout' })],
  ])('%s refuses a bad id', async (_name, call) => {
    const violations = await refused(call);
    expect(violations[0]?.code).toMatch(/invalid_format|required/);
  });

  it('refuses a PINPAD serial with spaces or of the wrong length', async () => {
    expect(await refused(() => client.terminal.pendingTransactions('PP 1'))).toContainEqual({
      field: 'terminal',
      code: 'invalid_format',
    });
    expect(await refused(() => client.terminal.pendingTransactions(''))).toContainEqual({
      field: 'terminal',
      code: 'required',
    });
    expect(await refused(() => client.terminal.pendingTransactions('P'.repeat(65)))).toContainEqual({
      field: 'terminal',
      code: 'invalid_format',
    });
  });

  it('refuses card data that is more than first 6 / last 4 digits', async () => {
    const violations = await refused(() =>
      client.terminal.authorize(
        TXN_ID,
        chipRequest(
          1000,
          { card: { brand: 'visa', first6_digits: '4111111111111111', last4_digits: '1111', pan_length: 16 } },
          'PP1',
        ),
      ),
    );
    expect(violations).toContainEqual({ field: 'card.first6_digits', code: 'invalid_format' });
  });
});
