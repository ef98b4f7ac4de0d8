import { afterEach, describe, expect, it } from 'vitest';
import { InvalidResponseError, toCentavos } from '../../../main/api/index.js';
import { thrown } from '../../helpers/thrown.js';
import { startStub, stubClient, TXN_ID, wireTransaction, type Stub } from './stub-server.js';

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('toCentavos', () => {
  it('takes integers as centavos', () => {
    expect(toCentavos(3050)).toBe(3050);
    expect(toCentavos(0)).toBe(0);
    expect(toCentavos(-125)).toBe(-125);
  });

  it('takes decimal strings as reais', () => {
    expect(toCentavos('30.00')).toBe(3000);
    expect(toCentavos('30')).toBe(3000);
    expect(toCentavos('30.5')).toBe(3050);
    expect(toCentavos('0.01')).toBe(1);
    expect(toCentavos('1234.56')).toBe(123456);
    expect(toCentavos('-1.25')).toBe(-125);
    expect(toCentavos('0.10')).toBe(10);
  });

  it.each([30.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])('refuses the number %s', (value) => {
    expect(thrown(() => toCentavos(value))).toBeInstanceOf(RangeError);
  });

  it.each(['1.234,56', '30,00', 'R$ 30', '1e3', '30.123', '', ' 30', '.5', '30.', 'abc', '0x10'])(
    'refuses the string "%s"',
    (value) => {
      expect(thrown(() => toCentavos(value))).toBeInstanceOf(RangeError);
    },
  );
});

describe('transactions are exposed with integer centavos', () => {
  const history = (amount: number | string) => [
    {
      id: 'h1',
      transaction: TXN_ID,
      amount,
      operation_type: 'created',
      status: 'succeeded',
      response_code: null,
      response_message: null,
      authorization_code: null,
      authorization_nsu: null,
      created_at: '2026-01-02 10:00:00',
    },
  ];

  it('reads decimal-string amounts and a string installment count', async () => {
    stub = await startStub({
      body: wireTransaction({
        amount: '30.00',
        original_amount: '30.50',
        installment_plan: { number_installments: '3', mode: 'interest_free' },
        history: history('30.5'),
      }),
    });
    const transaction = await stubClient(stub).transactions.retrieve(TXN_ID);
    expect(transaction.amount).toBe(3000);
    expect(transaction.original_amount).toBe(3050);
    expect(transaction.installment_plan).toEqual({ number_installments: 3, mode: 'interest_free' });
    expect(transaction.history[0]?.amount).toBe(3050);
    expect(transaction.description).toBe('Venda 1');
  });

  it('reads integer amounts unchanged', async () => {
    stub = await startStub({
      body: wireTransaction({
        amount: 3000,
        original_amount: 3050,
        installment_plan: { number_installments: 3 },
        history: history(3050),
      }),
    });
    const transaction = await stubClient(stub).transactions.retrieve(TXN_ID);
    expect(transaction.amount).toBe(3000);
    expect(transaction.original_amount).toBe(3050);
    expect(transaction.installment_plan?.number_installments).toBe(3);
    expect(transaction.history[0]?.amount).toBe(3050);
  });

  it('takes original_amount from amount when the service leaves it out', async () => {
    const body = wireTransaction({ amount: '12.34' });
    delete body.original_amount;
    stub = await startStub({ body });
    expect((await stubClient(stub).transactions.retrieve(TXN_ID)).original_amount).toBe(1234);
  });

  it('normalizes every item of a list, with counts that came as strings', async () => {
    stub = await startStub({
      body: {
        resource: 'list',
        uri: '/x',
        items: [wireTransaction({ amount: '1.00' }), wireTransaction({ amount: 250 })],
        has_more: false,
        limit: '100',
        offset: 0,
        total: '2',
      },
    });
    const page = await stubClient(stub).transactions.list({ status: 'pending' });
    expect(page.items.map((t) => t.amount)).toEqual([100, 250]);
    expect(page.total).toBe(2);
    expect(page.limit).toBe(100);
    expect(stub.requests[0]?.query.get('status')).toBe('pending');
  });

  it.each([
    ['an amount in Brazilian notation', { amount: '1.234,56' }],
    ['a fractional number amount', { amount: 30.5 }],
    ['a missing amount', { amount: undefined }],
    ['a history amount that is junk', { history: history('lots') }],
    ['an installment count that is not an integer', { installment_plan: { number_installments: '2.5' } }],
  ])('refuses a transaction with %s (InvalidResponseError)', async (_name, overrides) => {
    stub = await startStub({ body: wireTransaction(overrides) });
    await expect(stubClient(stub).transactions.retrieve(TXN_ID)).rejects.toBeInstanceOf(InvalidResponseError);
  });
});
