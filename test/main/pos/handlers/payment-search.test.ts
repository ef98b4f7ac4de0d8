/**
 * Finding a past sale through the POS API (issue 20): `payment.list` by amount, NSU,
 * authorization code, the card's last 4 digits and a date range, over a real WebSocket, as a POS
 * would ask. Each filter is checked before anything is read (INVALID_PARAMS naming the field), and
 * a search never reaches another till's sales: each POS finds its own, the window finds all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedCall, checkedFailure, posRig, type PosRig, type RpcClient } from '../pos-rig.js';

interface Sale {
  readonly reference_id: string;
  readonly amount: number;
  readonly nsu: string | null;
  readonly authorization_code: string | null;
  readonly card: { masked_pan: string } | null;
  readonly created_at: string;
}

let pos: PosRig;
let first: RpcClient;
let second: RpcClient;
let window: RpcClient;
const sales: Record<string, Sale> = {};

const start = async (client: RpcClient, reference: string, amount: number, type: 'credit' | 'debit'): Promise<void> => {
  const params = {
    reference_id: reference,
    amount,
    payment_type: type,
    ...(type === 'credit' ? { installments: 1 } : {}),
    description: 'Pedido',
  };
  sales[reference] = await checkedCall(client, 'payment.start', params);
};

const references = async (client: RpcClient, params: Record<string, unknown>): Promise<string[]> =>
  ((await checkedCall(client, 'payment.list', params)) as unknown as { items: Sale[] }).items.map(
    (item) => item.reference_id,
  );

beforeAll(async () => {
  // The customer's card follows the sale's type: credit sales by Visa …1111, debit by Visa …5556.
  pos = await posRig({ simulator: { autoCustomer: { delayMs: 5, card: 'visaCredit', matchApplication: true } } });
  [first, second, window] = await Promise.all([pos.paired('Caixa 1'), pos.paired('Caixa 2'), pos.operator()]);
  await start(first, 'busca-1', 1234, 'credit');
  await start(first, 'busca-2', 123_456, 'debit');
  await start(first, 'busca-3', 1234, 'debit');
  await start(second, 'busca-outro', 1234, 'credit');
});

afterAll(async () => {
  await Promise.all([first, second, window].map((client) => client?.close()));
  await pos?.close();
});

describe('payment.list finds a past sale', () => {
  it('by its exact amount in centavos', async () => {
    expect(await references(first, { amount: 1234 })).toEqual(['busca-3', 'busca-1']);
    expect(await references(first, { amount: 123_456 })).toEqual(['busca-2']);
    expect(await references(first, { amount: 1235 })).toEqual([]);
    expect(await checkedCall(first, 'payment.list', { amount: 1234 })).toMatchObject({ total: 2 });
  });

  it('by its NSU and by its authorization code, as printed on the receipt', async () => {
    const sale = sales['busca-2']!;
    expect(sale.nsu).toMatch(/^[0-9A-Za-z]+$/);
    expect(sale.authorization_code).toMatch(/^[0-9A-Za-z]+$/);
    expect(await references(first, { nsu: sale.nsu })).toEqual(['busca-2']);
    expect(await references(first, { authorization_code: sale.authorization_code })).toEqual(['busca-2']);
    expect(await references(first, { authorization_code: sale.authorization_code!.toLowerCase() })).toEqual([
      'busca-2',
    ]);
    expect(await references(first, { nsu: '999999999' })).toEqual([]);
  });

  it("by the card's last 4 digits, combined with the amount and the states", async () => {
    expect(sales['busca-1']!.card?.masked_pan).toMatch(/1111$/);
    expect(sales['busca-2']!.card?.masked_pan).toMatch(/5556$/);
    expect(await references(first, { card_last4: '5556' })).toEqual(['busca-3', 'busca-2']);
    expect(await references(first, { card_last4: '5556', amount: 1234 })).toEqual(['busca-3']);
    expect(await references(first, { card_last4: '1111', states: ['confirmed'] })).toEqual(['busca-1']);
    expect(await references(first, { card_last4: '1111', states: ['declined'] })).toEqual([]);
  });

  it('within a date range (from inclusive, to exclusive)', async () => {
    const firstAt = sales['busca-1']!.created_at;
    const third = sales['busca-3']!.created_at;
    expect(await references(first, { from: sales['busca-2']!.created_at, amount: 1234 })).toEqual(['busca-3']);
    expect(await references(first, { to: third, amount: 1234 })).toEqual(['busca-1']);
    expect(await references(first, { from: firstAt, to: third })).toEqual(['busca-2', 'busca-1']);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    expect(await references(first, { from: tomorrow })).toEqual([]);
  });
});

describe("payment.list's search never crosses tills", () => {
  it("finds only the POS's own sales; another till's sale is not found by its NSU, amount or card; the window finds all", async () => {
    const other = sales['busca-outro']!;
    expect(await references(first, { nsu: other.nsu })).toEqual([]);
    expect(await references(first, { authorization_code: other.authorization_code })).toEqual([]);
    expect(await checkedCall(first, 'payment.list', { amount: 1234, card_last4: '1111' })).toMatchObject({ total: 1 });
    expect(await references(second, { amount: 1234 })).toEqual(['busca-outro']);
    expect(await references(second, { nsu: sales['busca-2']!.nsu })).toEqual([]);
    expect(await references(window, { amount: 1234, card_last4: '1111' })).toEqual(['busca-outro', 'busca-1']);
    expect(await references(window, { nsu: other.nsu })).toEqual(['busca-outro']);
  });
});

describe("payment.list's search filters are checked before anything is read", () => {
  it.each([
    ['card_last4', { card_last4: '12a4' }],
    ['card_last4', { card_last4: '123' }],
    ['card_last4', { card_last4: '12345' }],
    ['card_last4', { card_last4: 1234 }],
    ['nsu', { nsu: '' }],
    ['nsu', { nsu: '123 456' }],
    ['nsu', { nsu: '1'.repeat(21) }],
    ['authorization_code', { authorization_code: 'AB-12' }],
    ['authorization_code', { authorization_code: 'A'.repeat(13) }],
    ['amount', { amount: 0 }],
    ['amount', { amount: -100 }],
    ['amount', { amount: 12.34 }],
    ['amount', { amount: '1234' }],
  ])('refuses a bad %s (%j) with INVALID_PARAMS naming it', async (field, params) => {
    const error = await checkedFailure(first, 'payment.list', params);
    expect(error.code).toBe('INVALID_PARAMS');
    expect(JSON.stringify(error.violations)).toContain(field);
  });
});
