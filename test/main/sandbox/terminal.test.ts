import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorA, ListEnvelope, TerminalAuthorizationResult, Transaction } from '../../../main/contract/index.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { newId } from '../../../main/sandbox/time.js';
import {
  call,
  eventFor,
  eventually,
  freshMarket,
  storeBuyer,
  subscribedReceiver,
  type Market,
  type Problem,
  type Receiver,
} from '../../helpers/sandbox.js';

// Card data as a PINPAD sends it: these blobs must never be stored or echoed.
const BLOBS = {
  ksn: 'FFFF9876543210E00017',
  payload: 'C0FFEE0123456789ABCDEF0123456789',
  pinBlock: 'DEADBEEF00112233',
  emv: '9F2608A1B2C3D4E5F607089F2701809F101307010A03A0B800',
};

const card = (first6 = '476173', last4 = '0010', brand = 'visa') => ({
  brand,
  first6_digits: first6,
  last4_digits: last4,
  holder_name: 'MARIA SILVA',
});

const TERMINAL = 'PAX-S920-7777';

const authorizationBody = (overrides: Record<string, unknown> = {}) => ({
  terminal: TERMINAL,
  entry_mode: 'chip',
  card: card(),
  cardholder_verification: 'online_pin',
  encrypted_card_data: { ksn: BLOBS.ksn, payload: BLOBS.payload },
  pin_block: { ksn: BLOBS.ksn, block: BLOBS.pinBlock },
  emv_data: BLOBS.emv,
  ...overrides,
});

// ---------------------------------------------------------------------------------------------

let sandbox: RunningSandbox;
let market: Market;
let receiver: Receiver;

async function pending(
  amount = 3000,
  overrides: Record<string, unknown> = {},
  owner: Market = market,
): Promise<Transaction> {
  const { status, body } = await call<Transaction>(owner, 'POST', `/v1/marketplaces/${owner.id}/transactions`, {
    payment_locale: 'pinpad',
    payment_type: 'credit',
    on_behalf_of: owner.sellerId,
    description: 'Venda',
    currency: 'BRL',
    amount,
    terminal: TERMINAL,
    ...overrides,
  });
  expect(status).toBe(201);
  return body;
}

const path = (id: string, action?: string): string =>
  `/v1/marketplaces/${market.id}/transactions/${id}${action === undefined ? '' : `/${action}`}`;

const authorize = (id: string, overrides: Record<string, unknown> = {}) =>
  call<TerminalAuthorizationResult & Problem>(market, 'POST', path(id, 'authorization'), authorizationBody(overrides));

const fetchTransaction = async (id: string): Promise<Transaction> =>
  (await call<Transaction>(market, 'GET', path(id))).body;

const asciiHex = (text: string): string => Buffer.from(text, 'ascii').toString('hex').toUpperCase();

beforeAll(async () => {
  sandbox = await startSandbox({ settings: { slowAuthorizationDelayMs: 300, webhookRetryBaseMs: 20 } });
  market = await freshMarket(sandbox);
  receiver = await subscribedReceiver(market);
});

afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});

describe('the pending list of a terminal', () => {
  it('holds the pending PINPAD transactions of that serial number, oldest first', async () => {
    const own = await freshMarket(sandbox);
    const first = await pending(1000, {}, own);
    const second = await pending(2000, {}, own);
    await pending(3000, { terminal: 'OTHER-PINPAD' }, own);
    await pending(4000, { payment_locale: 'tap_to_pay' }, own);
    const decided = await pending(5000, {}, own);
    await call(own, 'POST', `/v1/marketplaces/${own.id}/transactions/${decided.id}/void`, {
      on_behalf_of: own.sellerId,
    });

    const listPath = `/v1/marketplaces/${own.id}/terminals/${TERMINAL}/pending_transactions`;
    const { status, body } = await call<ListEnvelope<Transaction>>(own, 'GET', listPath);
    expect(status).toBe(200);
    expect(body).toMatchObject({ resource: 'list', uri: listPath, total: 2, has_more: false });
    expect(body.items.map((t) => t.id)).toEqual([first.id, second.id]);
  });

  it('is empty for a terminal with nothing to do', async () => {
    const { body } = await call<ListEnvelope<Transaction>>(
      market,
      'GET',
      `/v1/marketplaces/${market.id}/terminals/IDLE-1/pending_transactions`,
    );
    expect(body.items).toEqual([]);
    expect(body.total).toBe(0);
  });
});

describe('authorizing a PINPAD transaction', () => {
  it('approves an ordinary amount: succeeded, captured, codes, card and history', async () => {
    const created = await pending(3000, { installment_plan: { number_installments: 3 }, reference_id: 'sale-77' });
    const { status, body } = await authorize(created.id);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      decision: 'approved',
      response_code: '00',
      response_message: 'Approved',
      decline_code: null,
    });
    expect(body.authorization_code).toMatch(/^[0-9]{6}$/);
    expect(body.nsu).toMatch(/^[0-9]{6,9}$/);
    expect(body.issuer_emv_data).toMatch(/^8A0230309110[0-9A-F]{32}$/);
    const transaction = body.transaction;
    expect(transaction).toMatchObject({
      id: created.id,
      status: 'succeeded',
      captured: true,
      gateway_authorizer: 'sandbox',
      payment_authorization: {
        authorizer_id: 'sandbox',
        authorization_code: body.authorization_code,
        authorization_nsu: body.nsu,
      },
      point_of_sale: { entry_mode: 'chip', identification_number: TERMINAL },
      payment_method: {
        resource: 'card',
        card_brand: 'Visa',
        first4_digits: '4761',
        first6_digits: '476173',
        last4_digits: '0010',
        holder_name: 'MARIA SILVA',
      },
      error: null,
    });
    expect(transaction.transaction_number).toMatch(/^Z[0-9]+-[0-9]+$/);
    expect(transaction.history.map((h) => [h.operation_type, h.status, h.response_code])).toEqual([
      ['created', 'succeeded', null],
      ['authorization', 'succeeded', '00'],
    ]);
    expect(await fetchTransaction(created.id)).toEqual(transaction);
  });

  it('sends transaction.succeeded with the authorization, card and installments', async () => {
    const created = await pending(4200, { installment_plan: { number_installments: 2 }, reference_id: 'hook-ok' });
    const { body } = await authorize(created.id, {
      entry_mode: 'contactless_chip',
      card: card('545301', '1234', 'MASTERCARD'),
    });
    const event = await eventFor(receiver, created.id, 'transaction.succeeded');
    expect(event).toMatchObject({
      transaction_id: created.id,
      payment_locale: 'pinpad',
      payment_type: 'credit',
      status: 'succeeded',
      amount: 4200,
      installment_plan: { number_installments: 2 },
      authorization_code: body.authorization_code,
      nsu: body.nsu,
      terminal: TERMINAL,
      card: { brand: 'MasterCard', last4: '1234', entry_mode: 'contactless_chip' },
      reference_id: 'hook-ok',
    });
    expect(event.approved_at).toMatch(/\+00:00$/);
  });

  it('gives every approval its own NSU', async () => {
    const nsus = new Set<string | null>();
    for (let i = 0; i < 3; i += 1) nsus.add((await authorize((await pending(1000)).id)).body.nsu);
    expect(nsus.size).toBe(3);
  });

  const amountEndings = [
    { ending: 51, code: 'insufficient_funds', responseCode: '51', message: 'Insufficient funds' },
    { ending: 5, code: 'do_not_honor', responseCode: '05', message: 'Do not honor' },
    { ending: 54, code: 'expired_card', responseCode: '54', message: 'Expired card' },
    { ending: 55, code: 'incorrect_pin', responseCode: '55', message: 'Incorrect PIN' },
    {
      ending: 57,
      code: 'transaction_not_allowed',
      responseCode: '57',
      message: 'Transaction not permitted to cardholder',
    },
    { ending: 59, code: 'suspected_fraud', responseCode: '59', message: 'Suspected fraud' },
    { ending: 91, code: 'issuer_unavailable', responseCode: '91', message: 'Issuer or switch inoperative' },
  ];

  it.each(amountEndings)(
    'declines an amount ending in $ending with $code ($responseCode)',
    async ({ ending, code, responseCode, message }) => {
      const created = await pending(1000 + ending);
      const { status, body } = await authorize(created.id);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        decision: 'declined',
        response_code: responseCode,
        response_message: message,
        decline_code: code,
        authorization_code: null,
        nsu: null,
        issuer_emv_data: `8A02${asciiHex(responseCode)}`,
      });
      expect(body.transaction).toMatchObject({
        status: 'failed',
        captured: false,
        payment_authorization: null,
        error: { code, message, response_code: responseCode },
        payment_method: { card_brand: 'Visa', last4_digits: '0010' },
      });
      expect(body.transaction.history.at(-1)).toMatchObject({
        operation_type: 'authorization',
        status: 'failed',
        response_code: responseCode,
      });
    },
  );

  const testCards = [
    { first6: '601145', last4: '0087', code: 'insufficient_funds', responseCode: '51' },
    { first6: '400000', last4: '9995', code: 'insufficient_funds', responseCode: '51' },
    { first6: '400000', last4: '0069', code: 'expired_card', responseCode: '54' },
    { first6: '400000', last4: '0002', code: 'do_not_honor', responseCode: '05' },
  ];

  it.each(testCards)(
    'declines the test card $first6…$last4 with $code whatever the amount',
    async ({ first6, last4, code, responseCode }) => {
      const created = await pending(2000);
      const { body } = await authorize(created.id, { card: card(first6, last4) });
      expect(body).toMatchObject({ decision: 'declined', decline_code: code, response_code: responseCode });
      expect(body.transaction.status).toBe('failed');
    },
  );

  it('approves any other card and amount ending', async () => {
    for (const amount of [1000, 1099, 1050, 1052]) {
      expect((await authorize((await pending(amount)).id)).body.decision).toBe('approved');
    }
  });

  it('sends transaction.failed with the decline code when declined', async () => {
    const created = await pending(2051, { reference_id: 'hook-fail' });
    await authorize(created.id);
    const event = await eventFor(receiver, created.id, 'transaction.failed');
    expect(event).toMatchObject({
      payment_locale: 'pinpad',
      payment_type: 'credit',
      status: 'failed',
      error_code: 'insufficient_funds',
      error_message: 'Insufficient funds',
      terminal: TERMINAL,
      reference_id: 'hook-fail',
    });
    expect(event.failed_at).toMatch(/\+00:00$/);
  });

  it('approves the slow amount (ending 96): GET during the hold and the held answer agree', async () => {
    const created = await pending(3096);
    const answer = authorize(created.id);
    const seen = await eventually(async () => {
      const current = await fetchTransaction(created.id);
      return current.status === 'pending' ? undefined : current;
    }, 'the slow authorization to be stored');
    expect(seen.status).toBe('succeeded');
    const { body } = await answer;
    expect(body.decision).toBe('approved');
    expect(body.nsu).toBe(seen.payment_authorization?.authorization_nsu);
  });

  it('answers a repeated authorization with the same result, deciding nothing again', async () => {
    for (const amount of [3000, 3051]) {
      const created = await pending(amount);
      const first = await authorize(created.id);
      const again = await authorize(created.id, { card: card('400000', '0002') });
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(
        (await fetchTransaction(created.id)).history.filter((h) => h.operation_type === 'authorization'),
      ).toHaveLength(1);
    }
  });

  it('answers 400 when another terminal tries to authorize it', async () => {
    const created = await pending();
    const { status, body } = await authorize(created.id, { terminal: 'SOMEONE-ELSE' });
    expect(status).toBe(400);
    expect(body.detail).toBe('Terminal does not match the transaction');
    expect((await fetchTransaction(created.id)).status).toBe('pending');
  });

  it('answers 400 for a tap-to-pay transaction', async () => {
    const created = await pending(3000, { payment_locale: 'tap_to_pay' });
    const { status, body } = await authorize(created.id);
    expect(status).toBe(400);
    expect(body.detail).toBe('Tap-to-pay transactions are completed on the phone, not through the terminal channel');
  });

  it('answers 409 "Transaction is not pending" for a transaction voided before the card was read', async () => {
    const created = await pending();
    await call(market, 'POST', path(created.id, 'void'), { on_behalf_of: market.sellerId });
    const { status, body } = await authorize(created.id);
    expect(status).toBe(409);
    expect(body.detail).toBe('Transaction is not pending');
  });

  it('answers 404 for an unknown transaction', async () => {
    const { status, body } = await authorize(newId());
    expect(status).toBe(404);
    expect(body.detail).toBe('Transaction not found');
  });

  it('rejects the barcode entry mode', async () => {
    const { status, body } = await authorize((await pending()).id, { entry_mode: 'barcode' });
    expect(status).toBe(400);
    expect(body.detail).toBe('Field entry_mode must be a card entry mode');
  });

  it('never stores or echoes the encrypted card data, the PIN block or the EMV data', async () => {
    const approved = await pending(3000);
    const declined = await pending(3051);
    const answers = [await authorize(approved.id), await authorize(declined.id), await authorize(approved.id)];
    await call(market, 'POST', path(approved.id, 'completion'), {
      terminal: TERMINAL,
      chip_result: 'accepted',
      emv_data: BLOBS.emv,
    });
    const texts = answers.map((a) => JSON.stringify(a.body));
    for (const id of [approved.id, declined.id]) {
      texts.push(JSON.stringify(await fetchTransaction(id)));
      const row = sandbox.context.db.statement('SELECT * FROM transactions WHERE id = ?').get(id);
      texts.push(JSON.stringify(row));
    }
    await eventFor(receiver, approved.id, 'transaction.succeeded');
    texts.push(JSON.stringify(sandbox.context.db.statement('SELECT body FROM webhook_deliveries').all()));
    for (const text of texts) {
      for (const blob of Object.values(BLOBS)) expect(text).not.toContain(blob);
      // issuer_emv_data (the issuer's answer) is allowed; the terminal's own emv_data is not.
      expect(text).not.toMatch(/(?<![a-z_])(encrypted_card_data|pin_block|emv_data)/);
    }
  });
});

describe('reporting the chip decision (completion)', () => {
  it('records an accepted chip once and changes nothing else', async () => {
    const created = await pending();
    await authorize(created.id);
    const body = { terminal: TERMINAL, chip_result: 'accepted' };
    const first = await call<Transaction>(market, 'POST', path(created.id, 'completion'), body);
    const again = await call<Transaction>(market, 'POST', path(created.id, 'completion'), body);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('succeeded');
    expect(again.body.history.map((h) => h.operation_type)).toEqual(['created', 'authorization', 'completion']);
  });

  it('reverses an approved transaction the chip refused, with transaction.reversed (chip_refused)', async () => {
    const created = await pending(2500);
    await authorize(created.id);
    const { status, body } = await call<Transaction>(market, 'POST', path(created.id, 'completion'), {
      terminal: TERMINAL,
      chip_result: 'refused',
    });
    expect(status).toBe(200);
    expect(body.status).toBe('reversed');
    expect(body.history.at(-1)).toMatchObject({ operation_type: 'reversal', status: 'succeeded' });
    const event = await eventFor(receiver, created.id, 'transaction.reversed');
    expect(event).toMatchObject({ status: 'reversed', reason: 'chip_refused', amount: 2500 });
  });

  it('leaves a declined transaction as it is', async () => {
    const created = await pending(2051);
    const declined = (await authorize(created.id)).body.transaction;
    for (const chipResult of ['accepted', 'refused']) {
      const { status, body } = await call<Transaction>(market, 'POST', path(created.id, 'completion'), {
        terminal: TERMINAL,
        chip_result: chipResult,
      });
      expect(status).toBe(200);
      expect(body).toEqual(declined);
    }
  });

  it('answers 409 for a transaction not authorized yet', async () => {
    const created = await pending();
    const { status, body } = await call<ErrorA>(market, 'POST', path(created.id, 'completion'), {
      terminal: TERMINAL,
      chip_result: 'accepted',
    });
    expect(status).toBe(409);
    expect(body.detail).toBe('Transaction has not been authorized yet');
  });

  it('answers 400 when another terminal reports it', async () => {
    const created = await pending();
    await authorize(created.id);
    const { status } = await call<ErrorA>(market, 'POST', path(created.id, 'completion'), {
      terminal: 'OTHER',
      chip_result: 'refused',
    });
    expect(status).toBe(400);
    expect((await fetchTransaction(created.id)).status).toBe('succeeded');
  });
});

describe('reversing (technical undo)', () => {
  const reversal = (id: string, reason = 'timeout') =>
    call<Transaction & Problem>(market, 'POST', path(id, 'reversal'), { terminal: TERMINAL, reason });

  it('reverses an approved transaction and answers a repeat unchanged', async () => {
    const created = await pending(1800);
    await authorize(created.id);
    const first = await reversal(created.id, 'unknown_outcome');
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('reversed');
    const again = await reversal(created.id, 'unknown_outcome');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const event = await eventFor(receiver, created.id, 'transaction.reversed');
    expect(event).toMatchObject({ reason: 'unknown_outcome', amount: 1800 });
    expect(
      receiver.events.filter((e) => e.transaction_id === created.id && e.event === 'transaction.reversed'),
    ).toHaveLength(1);
  });

  it('cancels a pending transaction (nothing was authorized), after which it cannot be authorized', async () => {
    const created = await pending();
    const { body } = await reversal(created.id, 'cancelled');
    expect(body.status).toBe('canceled');
    await eventFor(receiver, created.id, 'transaction.canceled');
    expect((await authorize(created.id)).status).toBe(409);
  });

  it('leaves a declined transaction unchanged', async () => {
    const created = await pending(1051);
    await authorize(created.id);
    const { status, body } = await reversal(created.id);
    expect(status).toBe(200);
    expect(body.status).toBe('failed');
  });
});

describe('voiding', () => {
  const voidIt = (id: string, body: Record<string, unknown> = {}) =>
    call<Transaction & Problem>(market, 'POST', path(id, 'void'), { on_behalf_of: market.sellerId, ...body });

  it('cancels a pending transaction: voided, voided_at, history void, transaction.canceled', async () => {
    const created = await pending(1500);
    const { status, body } = await voidIt(created.id);
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'canceled', voided: true, amount: 1500, original_amount: 1500 });
    expect(body.voided_at).toMatch(/\+00:00$/);
    expect(body.history.at(-1)).toMatchObject({ operation_type: 'void', status: 'succeeded', amount: 1500 });
    const event = await eventFor(receiver, created.id, 'transaction.canceled');
    expect(event).toMatchObject({ status: 'canceled', amount: 1500, reason: 'void' });
  });

  it('cancels an approved transaction and answers a repeat unchanged', async () => {
    const created = await pending();
    await authorize(created.id);
    const first = await voidIt(created.id);
    expect(first.body.status).toBe('canceled');
    const again = await voidIt(created.id);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
  });

  it('voids part of an approved credit: amount drops, original_amount stays, still succeeded', async () => {
    const created = await pending(5000);
    await authorize(created.id);
    const partial = await voidIt(created.id, { amount: 1200 });
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({ status: 'succeeded', amount: 3800, original_amount: 5000, voided: false });
    expect(partial.body.history.at(-1)).toMatchObject({ operation_type: 'void_partial', amount: 1200 });
    const rest = await voidIt(created.id, { amount: 3800 });
    expect(rest.body).toMatchObject({ status: 'canceled', voided: true, original_amount: 5000 });
  });

  it('refuses a partial void of a debit payment', async () => {
    const created = await pending(5000, { payment_type: 'debit' });
    await authorize(created.id);
    const { status, body } = await voidIt(created.id, { amount: 1000 });
    expect(status).toBe(400);
    expect(body.detail).toBe('Partial void is allowed for captured credit transactions only');
  });

  it('refuses to void more than the remaining amount', async () => {
    const created = await pending(5000);
    await authorize(created.id);
    const { status, body } = await voidIt(created.id, { amount: 5001 });
    expect(status).toBe(400);
    expect(body.detail).toBe("Field amount must not exceed the transaction's remaining amount (5000)");
  });

  it("refuses an on_behalf_of that is not the transaction's seller", async () => {
    const created = await pending();
    const { status, body } = await voidIt(created.id, { on_behalf_of: newId() });
    expect(status).toBe(400);
    expect(body.detail).toBe("Field on_behalf_of does not match the transaction's seller");
  });

  it('answers 409 for a declined transaction', async () => {
    const created = await pending(1051);
    await authorize(created.id);
    const { status, body } = await voidIt(created.id);
    expect(status).toBe(409);
    expect(body.detail).toBe('Transaction is failed; it cannot be voided');
  });

  it('sends boletos to the boleto cancellation endpoint', async () => {
    const buyerId = storeBuyer(market);
    const created = await call<Transaction>(market, 'POST', `/v1/marketplaces/${market.id}/transactions`, {
      payment_type: 'boleto',
      on_behalf_of: market.sellerId,
      customer: buyerId,
      amount: 5000,
      currency: 'BRL',
      description: 'Pedido',
      reference_id: 'boleto-void',
    });
    const { status, body } = await voidIt(created.body.id);
    expect(status).toBe(400);
    expect(body.detail).toBe('Use the boleto cancellation endpoint');
  });
});

describe('a lost authorization answer', () => {
  it('is approved and visible by GET while the answer is held; closing the sandbox releases it', async () => {
    const slow = await startSandbox({ settings: { slowAuthorizationDelayMs: 600_000 } });
    const own = await freshMarket(slow);
    const created = await pending(7796, {}, own);
    const transactionPath = `/v1/marketplaces/${own.id}/transactions/${created.id}`;
    let settled = false;
    const answer = call<TerminalAuthorizationResult>(
      own,
      'POST',
      `${transactionPath}/authorization`,
      authorizationBody(),
    ).finally(() => {
      settled = true;
    });
    const seen = await eventually(async () => {
      const current = (await call<Transaction>(own, 'GET', transactionPath)).body;
      return current.status === 'pending' ? undefined : current;
    }, 'the held authorization to be stored');
    expect(seen.status).toBe('succeeded');
    expect(settled).toBe(false);
    await slow.close();
    expect((await answer).body.decision).toBe('approved');
  });
});
