/**
 * The payments API relayed to the POS with Pinbridge's own credentials and seller: buyers (found
 * by a CPF given or typed by the customer on the PINPAD, read and updated), the seller's bank
 * accounts, boletos and bolepix (idempotent by reference_id, their slips printed), boleto
 * cancellation, tap-to-pay charges followed until the phone completes them (the event reaches
 * only the client that created the charge), and the API going away (API_UNAVAILABLE and an
 * api.health event). Every answer and event is checked against its schema, and no frame a POS
 * receives may carry the API token.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaViolations } from '../../../../main/contract/index.js';
import { EVENTS } from '../../../../main/pos/protocol/index.js';
import { decodeEscPos } from '../../../helpers/escpos-decode.js';
import { call as sandboxCall } from '../../../helpers/sandbox.js';
import { TRAINING_CUSTOMER } from '../../../../main/agent/pinpad-keeper.js';
import { displayed } from '../../core/engine-rig.js';
import { checkedCall as call, checkedFailure as refused, posRig, type PosRig, type RpcClient } from '../pos-rig.js';
import { freshCpf } from '../../../helpers/fresh-cpf.js';

const RATE = { capacity: 1_000, refillPerSecond: 1_000 };

/** Every frame each client received, to prove the API token never reached a POS. */
const frames: string[] = [];

function recordFrames(client: RpcClient): RpcClient {
  client.socket.on('message', (data: Buffer) => frames.push(data.toString('utf8')));
  return client;
}

let counter = 0;
const reference = (prefix: string): string => `${prefix}-${++counter}-${Date.now()}`;

describe('the relays, with the payments API up', () => {
  let pos: PosRig;
  let client: RpcClient;
  /** A buyer made in the sandbox for these tests. */
  let buyer: { id: string; taxpayer_id: string };

  // No autoCustomer: the customer types the CPF on the keypad when asked.
  beforeAll(async () => {
    pos = await posRig({ simulator: {}, rateLimit: RATE });
    client = recordFrames(await pos.paired('Caixa relays'));
    const taxpayerId = freshCpf();
    const created = await pos.rig.client.buyers.create({
      first_name: 'Clara',
      last_name: 'Nunes',
      taxpayer_id: taxpayerId,
      email: 'clara@example.com',
    });
    buyer = { id: created.id, taxpayer_id: taxpayerId };
  });
  afterAll(async () => pos.close());

  describe('buyer.search', () => {
    it('finds a buyer by the CPF given', async () => {
      const found = await call(client, 'buyer.search', { taxpayer_id: buyer.taxpayer_id });
      expect(found.searched).toEqual({ taxpayer_id: buyer.taxpayer_id });
      expect(found.buyer).toMatchObject({
        id: buyer.id,
        first_name: 'Clara',
        last_name: 'Nunes',
        taxpayer_id: buyer.taxpayer_id,
      });
    });

    it('finds a buyer by the CPF the customer types on the PINPAD (from_pinpad)', async () => {
      const { sim } = pos.pinpads[0]!;
      const answer = call(client, 'buyer.search', { from_pinpad: 'cpf' });
      await displayed(sim, /DIGITE O CPF/);
      sim.keypad.type(buyer.taxpayer_id);
      sim.keypad.press('enter');
      const found = await answer;
      expect(found.searched).toEqual({ taxpayer_id: buyer.taxpayer_id });
      expect(found.buyer.id).toBe(buyer.id);
    });

    it('asks again on the PINPAD when the customer mistypes the CPF (wrong check digits), and finds the buyer with the retyped one', async () => {
      const { sim } = pos.pinpads[0]!;
      const answer = call(client, 'buyer.search', { from_pinpad: 'cpf' });
      await displayed(sim, /DIGITE O CPF/);
      // One digit off: the check digits no longer match.
      const typo = `${buyer.taxpayer_id.slice(0, 10)}${(Number(buyer.taxpayer_id[10]) + 1) % 10}`;
      sim.keypad.type(typo);
      sim.keypad.press('enter');
      await displayed(sim, /^CPF INVALIDO\s*\n\s*DIGITE NOVAMENTE/);
      for (const line of sim.display.lines) expect(line.trimEnd().length).toBeLessThanOrEqual(16);
      await displayed(sim, /REDIGITE O CPF/);
      sim.keypad.type(buyer.taxpayer_id);
      sim.keypad.press('enter');
      const found = await answer;
      expect(found.searched).toEqual({ taxpayer_id: buyer.taxpayer_id });
      expect(found.buyer.id).toBe(buyer.id);
    });

    it('gives up after 3 mistyped CPFs with CUSTOMER_DATA_INVALID (not a parameter error of the POS), and frees the PINPAD', async () => {
      const { sim } = pos.pinpads[0]!;
      const answer = refused(client, 'buyer.search', { from_pinpad: 'cpf' });
      for (const [attempt, prompt] of [/DIGITE O CPF/, /REDIGITE O CPF/, /REDIGITE O CPF/].entries()) {
        await displayed(sim, prompt);
        sim.keypad.type('12345678900');
        sim.keypad.press('enter');
        // Wait for the PINPAD to refuse it before the next prompt (the last one is not refused on the PINPAD: the POS hears of it).
        if (attempt < 2) await displayed(sim, /CPF INVALIDO/);
      }
      const error = await answer;
      expect(error).toMatchObject({ code: 'CUSTOMER_DATA_INVALID', reason: 'INVALID_CHECK_DIGITS' });
      expect(error.message).toContain('3 times');
      expect(error.cashier_message).toBe('CPF inválido digitado 3 vezes no PINPAD. Peça o documento ao cliente.');
      expect(await call(client, 'pinpad.status', {})).toMatchObject({ busy: false });
    });

    it('CANCEL while the PINPAD says the CPF was invalid ends the search as PINPAD_CANCELLED', async () => {
      const { sim } = pos.pinpads[0]!;
      const answer = refused(client, 'buyer.search', { from_pinpad: 'cpf' });
      await displayed(sim, /DIGITE O CPF/);
      sim.keypad.type('11111111111');
      sim.keypad.press('enter');
      await displayed(sim, /CPF INVALIDO/);
      expect(await call(client, 'pinpad.abort', {})).toEqual({ aborted: true });
      expect(await answer).toMatchObject({ code: 'PINPAD_CANCELLED' });
      expect(await call(client, 'pinpad.status', {})).toMatchObject({ busy: false });
    });

    it('finds the seeded company by its CNPJ', async () => {
      const found = await call(client, 'buyer.search', { ein: '45339827000162' });
      expect(found.buyer).toMatchObject({ ein: '45339827000162', first_name: 'Padaria Pão Dourado' });
    });

    it('finds a company by the numeric CNPJ the customer types on the PINPAD (its keypad has no letters)', async () => {
      const { sim } = pos.pinpads[0]!;
      const answer = call(client, 'buyer.search', { from_pinpad: 'cnpj' });
      await displayed(sim, /DIGITE O CNPJ/);
      sim.keypad.type('45339827000162');
      sim.keypad.press('enter');
      const found = await answer;
      expect(found.searched).toEqual({ ein: '45339827000162' });
      expect(found.buyer).toMatchObject({ ein: '45339827000162', first_name: 'Padaria Pão Dourado' });
    });

    it('finds the seeded company by its alphanumeric CNPJ (NE4AB1C2000181)', async () => {
      const found = await call(client, 'buyer.search', { ein: 'NE4AB1C2000181' });
      expect(found.searched).toEqual({ ein: 'NE4AB1C2000181' });
      expect(found.buyer).toMatchObject({ ein: 'NE4AB1C2000181', first_name: 'Mercadinho Nova Era' });
    });

    it('refuses an alphanumeric CNPJ in lowercase or with its mask (INVALID_PARAMS naming ein), without asking the API', async () => {
      for (const ein of ['ne4ab1c2000181', 'NE.4AB.1C2/0001-81']) {
        const error = await refused(client, 'buyer.search', { ein });
        expect(error.code, ein).toBe('INVALID_PARAMS');
        expect(error.violations?.map((v) => v.field)).toEqual(['ein']);
      }
    });

    it('refuses an alphanumeric CNPJ whose check digits are wrong, and answers API_NOT_FOUND for a valid one no buyer has', async () => {
      const wrong = await refused(client, 'buyer.search', { ein: '12ABC34501DE36' });
      expect(wrong).toMatchObject({
        code: 'INVALID_PARAMS',
        violations: [{ field: 'ein', message: 'params.ein is not a valid CNPJ (check digits do not match)' }],
      });
      const nobody = await refused(client, 'buyer.search', { ein: '12ABC34501DE35' });
      expect(nobody).toMatchObject({ code: 'API_NOT_FOUND', api: { status: 404 } });
    });

    it('is PINPAD_CANCELLED when the customer presses ANULA instead of typing', async () => {
      const { sim } = pos.pinpads[0]!;
      const answer = refused(client, 'buyer.search', { from_pinpad: 'cpf' });
      await displayed(sim, /DIGITE O CPF/);
      sim.keypad.press('cancel');
      expect(await answer).toMatchObject({ code: 'PINPAD_CANCELLED' });
    });

    it.each([
      ['taxpayer_id and ein', { ein: '45339827000162' }],
      ['taxpayer_id and from_pinpad', { from_pinpad: 'cpf' }],
    ])('refuses %s together (INVALID_PARAMS), without asking the PINPAD', async (_case, extra) => {
      const error = await refused(client, 'buyer.search', { taxpayer_id: buyer.taxpayer_id, ...extra });
      expect(error.code).toBe('INVALID_PARAMS');
      expect(error.violations).toHaveLength(1);
      expect(await call(client, 'pinpad.status', {})).toMatchObject({ busy: false });
    });

    it('refuses a search with none of them, and a CPF that is not 11 digits', async () => {
      expect(await refused(client, 'buyer.search', {})).toMatchObject({ code: 'INVALID_PARAMS' });
      const error = await refused(client, 'buyer.search', { taxpayer_id: '123.456.789-09' });
      expect(error.code).toBe('INVALID_PARAMS');
      expect(error.violations?.map((v) => v.field)).toContain('taxpayer_id');
    });

    it('is API_NOT_FOUND for a valid CPF no buyer has', async () => {
      const error = await refused(client, 'buyer.search', { taxpayer_id: freshCpf() });
      expect(error).toMatchObject({ code: 'API_NOT_FOUND', api: { status: 404 } });
    });
  });

  describe('buyer.get and buyer.update', () => {
    it('reads a buyer by id', async () => {
      expect(await call(client, 'buyer.get', { buyer_id: buyer.id })).toMatchObject({
        id: buyer.id,
        resource: 'buyer',
        email: 'clara@example.com',
      });
    });

    it('is API_NOT_FOUND for an id no buyer has, and INVALID_PARAMS for one that is not an id', async () => {
      expect(await refused(client, 'buyer.get', { buyer_id: '0'.repeat(32) })).toMatchObject({ code: 'API_NOT_FOUND' });
      expect(await refused(client, 'buyer.get', { buyer_id: 'maria' })).toMatchObject({ code: 'INVALID_PARAMS' });
    });

    it('changes the first name', async () => {
      const updated = await call(client, 'buyer.update', {
        buyer_id: buyer.id,
        changes: { first_name: 'Clara Maria' },
      });
      expect(updated).toMatchObject({
        id: buyer.id,
        first_name: 'Clara Maria',
        last_name: 'Nunes',
        taxpayer_id: buyer.taxpayer_id,
      });
      expect((await pos.rig.client.buyers.retrieve(buyer.id)).first_name).toBe('Clara Maria');
    });

    it('never changes the CPF: INVALID_PARAMS before the API is asked, and the buyer is left as it was', async () => {
      const error = await refused(client, 'buyer.update', { buyer_id: buyer.id, changes: { taxpayer_id: freshCpf() } });
      // Refused by the method's own schema: the API is never asked.
      expect(error).toMatchObject({ code: 'INVALID_PARAMS' });
      expect(error.api).toBeUndefined();
      expect(error.violations?.map((v) => v.field).join(' ')).toContain('taxpayer_id');
      expect((await pos.rig.client.buyers.retrieve(buyer.id)).taxpayer_id).toBe(buyer.taxpayer_id);
    });
  });

  describe('bankAccount.list and bankAccount.get', () => {
    it('lists the seller’s accounts and reads one', async () => {
      const { items, total } = await call(client, 'bankAccount.list', {});
      expect(total).toBeGreaterThanOrEqual(3);
      expect(items.map((item) => item.bank_code)).toEqual(expect.arrayContaining(['341', '237', '260']));
      const itau = items.find((item) => item.bank_code === '341')!;
      const account = await call(client, 'bankAccount.get', { bank_account_id: itau.id });
      expect(account).toMatchObject({ id: itau.id, bank_code: '341', customer: pos.rig.sandbox.sellerId });
    });

    it('answers the API’s whole list envelope: resource, uri, has_more, limit, offset, total', async () => {
      const page = await call(client, 'bankAccount.list', {});
      expect(page).toMatchObject({
        resource: 'list',
        has_more: false,
        limit: 100,
        offset: 0,
        total: page.items.length,
      });
      expect(page.uri).toBe(
        `/v1/marketplaces/${pos.rig.sandbox.marketplaceId}/sellers/${pos.rig.sandbox.sellerId}/bank_accounts`,
      );
    });

    it('pages with limit and offset, and says when more follow (has_more)', async () => {
      const first = await call(client, 'bankAccount.list', { limit: 1 });
      const second = await call(client, 'bankAccount.list', { limit: 1, offset: 1 });
      expect(first.items).toHaveLength(1);
      expect(second.items).toHaveLength(1);
      expect(first.items[0]!.id).not.toBe(second.items[0]!.id);
      expect(first).toMatchObject({ limit: 1, offset: 0, has_more: true });
      expect(second).toMatchObject({ limit: 1, offset: 1 });
      const last = await call(client, 'bankAccount.list', { limit: 1, offset: first.total - 1 });
      expect(last).toMatchObject({ has_more: false, items: [expect.anything()] });
    });

    it('refuses a limit over 100 or a negative offset before asking the API', async () => {
      expect(await refused(client, 'bankAccount.list', { limit: 101 })).toMatchObject({
        code: 'INVALID_PARAMS',
        violations: [{ field: 'limit' }],
      });
      expect(await refused(client, 'bankAccount.list', { offset: -1 })).toMatchObject({
        code: 'INVALID_PARAMS',
        violations: [{ field: 'offset' }],
      });
    });
  });

  describe('boletos and bolepix', () => {
    const boleto = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
      customer: buyer.id,
      amount: 15_000,
      description: 'Pedido 42',
      reference_id: reference('boleto'),
      ...overrides,
    });

    it('issues a boleto with its digitable line and barcode, for the seller', async () => {
      const { transaction, print_jobs } = await call(client, 'boleto.create', boleto());
      expect(print_jobs).toEqual([]);
      expect(transaction).toMatchObject({
        status: 'pending',
        amount: 15_000,
        payment_type: 'boleto',
        customer: buyer.id,
        pix: null,
      });
      expect(transaction.boleto?.digitable_line.replace(/\D/g, '')).toMatch(/^[0-9]{47}$/);
      expect(transaction.boleto?.barcode).toMatch(/^[0-9]{44}$/);
      expect((await pos.rig.client.transactions.retrieve(transaction.id)).on_behalf_of).toBe(pos.rig.sandbox.sellerId);
    });

    // The agent's client is told of no capability (the settings' default), so no Idempotency-Key
    // does this: the seller's list is asked before creating.
    it('returns the same boleto for the same reference_id', async () => {
      const params = boleto();
      const first = await call(client, 'boleto.create', params);
      const again = await call(client, 'boleto.create', params);
      expect(again.transaction.id).toBe(first.transaction.id);
      expect(again.transaction.boleto?.digitable_line).toBe(first.transaction.boleto?.digitable_line);
    });

    it('refuses the same reference_id for another amount (REFERENCE_CONFLICT), creating nothing', async () => {
      const params = boleto();
      const first = await call(client, 'boleto.create', params);
      const error = await refused(client, 'boleto.create', { ...params, amount: 16_000 });
      expect(error).toMatchObject({ code: 'REFERENCE_CONFLICT' });
      const { items } = await pos.rig.client.transactions.listBySeller(pos.rig.sandbox.sellerId, { limit: 100 });
      expect(items.filter((t) => t.reference_id === params.reference_id).map((t) => t.id)).toEqual([
        first.transaction.id,
      ]);
    });

    it('prints the slip with the digitable line when asked (print: true)', async () => {
      const { transaction, print_jobs } = await call(client, 'boleto.create', boleto({ print: true, amount: 4_990 }));
      expect(print_jobs).toMatchObject([{ subject: `boleto:${transaction.id}`, printer: 'default' }]);
      const done = await client.next('printer.job', (p) => p.id === print_jobs[0]!.id && p.state === 'printed');
      expect(schemaViolations(EVENTS['printer.job'].payload, done)).toEqual([]);
      const slips = pos
        .printedJobs()
        .filter((file) => file.endsWith('.bin'))
        .map((file) => decodeEscPos(readFileSync(file)));
      // The digitable line (54 characters) wraps on the 48-column paper: compare its digits.
      const digits = (text: string): string => text.replace(/\D/g, '');
      const slip = slips.find((decoded) =>
        digits(decoded.lines.map((line) => line.text).join('')).includes(digits(transaction.boleto!.digitable_line)),
      );
      expect(slip, 'a printed file with the digitable line').toBeDefined();
      const text = slip!.lines.map((line) => line.text).join('\n');
      expect(text).toContain('BOLETO BANCÁRIO');
      expect(text).toContain('R$ 49,90');
      expect(slip!.events).toContainEqual(
        expect.objectContaining({ kind: 'barcode', data: transaction.boleto!.barcode }),
      );
    });

    it('sets late fee, interest and discount (billing_instructions), as the API keeps them', async () => {
      const billing = {
        late_fee: { mode: 'PERCENTAGE', percentage: 2, start_date: '2030-01-11' },
        interest: { mode: 'MONTHLY_PERCENTAGE', percentage: 1, start_date: '2030-01-11' },
        discount: [{ mode: 'FIXED', amount: 500, limit_date: '2030-01-05' }],
      };
      const { transaction } = await call(
        client,
        'boleto.create',
        boleto({ expiration_date: '2030-01-10', billing_instructions: billing }),
      );
      expect(transaction.boleto?.billing_instructions).toBeTruthy();
      const stored = await pos.rig.client.transactions.retrieve(transaction.id);
      expect(JSON.stringify(stored.boleto?.billing_instructions)).toMatch(/PERCENTAGE/);
      expect(stored.boleto?.billing_instructions).toMatchObject({
        late_fee: { mode: 'PERCENTAGE' },
        interest: { mode: 'MONTHLY_PERCENTAGE' },
        discount: [{ mode: 'FIXED' }],
      });
    });

    it('refuses a late fee in a mode the contract does not know (INVALID_PARAMS naming it)', async () => {
      const error = await refused(
        client,
        'boleto.create',
        boleto({ billing_instructions: { late_fee: { mode: 'DAILY', amount: 100 } } }),
      );
      expect(error.code).toBe('INVALID_PARAMS');
      expect(error.violations?.map((v) => v.field).join(' ')).toContain('billing_instructions.late_fee');
    });

    it('takes the payer inline (buyer), which the API uses instead of the customer record', async () => {
      // No buyer has this id: only the inline payer lets the API issue the slip.
      const unknownCustomer = '0'.repeat(32);
      expect(await refused(client, 'boleto.create', boleto({ customer: unknownCustomer }))).toMatchObject({
        code: 'API_NOT_FOUND',
      });
      const payer = { first_name: 'Rita', last_name: 'Lee', taxpayer_id: freshCpf(), email: 'rita@example.com' };
      const { transaction } = await call(client, 'boleto.create', boleto({ customer: unknownCustomer, buyer: payer }));
      expect(transaction).toMatchObject({ status: 'pending', payment_type: 'boleto' });
      expect(transaction.boleto?.barcode).toMatch(/^[0-9]{44}$/);
    });

    it('refuses an inline payer whose CPF check digits are wrong, naming the POS’s parameter (buyer.taxpayer_id), before asking the API', async () => {
      const cpf = freshCpf();
      const wrong = `${cpf.slice(0, 10)}${(Number(cpf[10]) + 1) % 10}`;
      const error = await refused(
        client,
        'boleto.create',
        boleto({ buyer: { first_name: 'Rita', taxpayer_id: wrong } }),
      );
      expect(error).toMatchObject({
        code: 'INVALID_PARAMS',
        violations: [
          {
            field: 'buyer.taxpayer_id',
            message: 'params.buyer.taxpayer_id is not a valid CPF (check digits do not match)',
          },
        ],
      });
      expect(error.api).toBeUndefined();
      expect(error.message).not.toMatch(/payment_method|\bField\b/);
    });

    it('refuses an inline payer without a first name', async () => {
      const error = await refused(client, 'boleto.create', boleto({ buyer: { last_name: 'Lee' } }));
      expect(error.code).toBe('INVALID_PARAMS');
      expect(error.violations?.map((v) => v.field).join(' ')).toContain('buyer');
    });

    it('refuses a boleto without a buyer id as customer', async () => {
      const error = await refused(client, 'boleto.create', boleto({ customer: 'Clara' }));
      expect(error.code).toBe('INVALID_PARAMS');
      expect(error.violations?.map((v) => v.field)).toContain('customer');
    });

    it('issues a bolepix with a Pix QR code', async () => {
      const { transaction } = await call(client, 'bolepix.create', boleto({ reference_id: reference('bolepix') }));
      expect(transaction.pix?.qr_code).toMatch(/^000201/);
      expect(transaction.boleto?.digitable_line).toBeTruthy();
    });

    it('asks to cancel a boleto: REQUESTED', async () => {
      const { transaction } = await call(client, 'boleto.create', boleto());
      const cancellation = await call(client, 'boleto.cancel', { transaction_id: transaction.id });
      expect(cancellation).toMatchObject({
        resource: 'cancellation',
        status: 'REQUESTED',
        transaction_id: transaction.id,
      });
    });
  });

  describe('tap to pay', () => {
    const charge = (): Record<string, unknown> => ({
      terminal: 'phone-caixa-1',
      payment_type: 'credit',
      amount: 2_500,
      description: 'Café e pão de queijo',
      reference_id: reference('ttp'),
    });

    /** The seller's phone reads the card (the sandbox's helper). */
    async function phoneCompletes(
      transactionId: string,
      outcome: 'approved' | 'declined',
      card: Record<string, string> = {},
    ): Promise<void> {
      const { sandbox } = pos.rig;
      const path = `/v1/sandbox/marketplaces/${sandbox.marketplaceId}/transactions/${transactionId}/tap_to_pay`;
      const reply = await sandboxCall({ sandbox, token: sandbox.token }, 'POST', path, { outcome, ...card });
      expect(reply.status).toBe(200);
    }

    it('creates a pending charge; when the phone completes it, tapToPay.updated reaches the creating client and no other', async () => {
      const other = recordFrames(await pos.paired('Outro caixa'));
      const created = await call(client, 'tapToPay.create', charge());
      expect(created).toMatchObject({ status: 'pending', payment_locale: 'tap_to_pay', amount: 2_500 });
      expect(await call(client, 'tapToPay.status', { transaction_id: created.id })).toMatchObject({
        id: created.id,
        status: 'pending',
      });

      await phoneCompletes(created.id, 'approved');
      const updated = await client.next('tapToPay.updated', (p) => p.id === created.id);
      expect(schemaViolations(EVENTS['tapToPay.updated'].payload, updated)).toEqual([]);
      expect(updated).toMatchObject({ id: created.id, status: 'succeeded', amount: 2_500 });
      // Anything sent to the other client before this answer arrives first on its socket.
      await call(other, 'pinpad.list');
      expect(other.events('tapToPay.updated')).toEqual([]);
      expect(await call(client, 'tapToPay.status', { transaction_id: created.id })).toMatchObject({
        status: 'succeeded',
      });
      await other.close();
    });

    it('repeating tapToPay.create (same reference_id) gives the same charge, and its end is still told once, to its creator only', async () => {
      const other = recordFrames(await pos.paired('Caixa vizinho'));
      const params = charge();
      const created = await call(client, 'tapToPay.create', params);
      const repeated = await call(client, 'tapToPay.create', params);
      expect(repeated.id).toBe(created.id);
      await phoneCompletes(created.id, 'approved');
      await client.next('tapToPay.updated', (p) => p.id === created.id);
      // An absence is only seen over a window: both followers of the charge poll the API every
      // second at first (waitForCompletion's default), so within 3 s each has seen it end.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await call(other, 'pinpad.list');
      await call(client, 'pinpad.list');
      expect(client.events('tapToPay.updated').filter((p) => (p as { id: string }).id === created.id)).toHaveLength(1);
      expect(other.events('tapToPay.updated')).toEqual([]);
      await other.close();
    });

    it('keeps what a tap-to-pay receipt needs: terminal, notification, installments, authorization code, NSU and the masked card', async () => {
      const created = await call(client, 'tapToPay.create', { ...charge(), installments: 3, notification: 'Mesa 7' });
      expect(created).toMatchObject({
        terminal: 'phone-caixa-1',
        notification: 'Mesa 7',
        installment_plan: { number_installments: 3 },
        authorization_code: null,
        nsu: null,
        card: null,
      });
      await phoneCompletes(created.id, 'approved', { card_brand: 'mastercard', last4_digits: '4242' });
      const updated = await client.next('tapToPay.updated', (p) => p.id === created.id);
      const done = await call(client, 'tapToPay.status', { transaction_id: created.id });
      for (const view of [updated, done]) {
        expect(view).toMatchObject({
          status: 'succeeded',
          terminal: 'phone-caixa-1',
          installment_plan: { number_installments: 3 },
        });
        expect(view.authorization_code).toMatch(/^[0-9]{6}$/);
        expect(view.nsu).toMatch(/^[0-9]+$/);
        // Only what a receipt may print: the API's card object also has the holder's name, which is not passed on.
        expect(view.card).toEqual({
          brand: 'MasterCard',
          first6_digits: null,
          last4_digits: '4242',
          entry_mode: 'contactless_chip',
        });
      }
      const api = await pos.rig.client.transactions.retrieve(created.id);
      expect(done.authorization_code).toBe(api.payment_authorization?.authorization_code);
      expect(done.nsu).toBe(api.payment_authorization?.authorization_nsu);
    });

    it('refuses installments on a debit charge, naming installments (not the API’s installment_plan)', async () => {
      const error = await refused(client, 'tapToPay.create', { ...charge(), payment_type: 'debit', installments: 3 });
      expect(error).toMatchObject({
        code: 'INVALID_PARAMS',
        violations: [{ field: 'installments', message: 'params.installments is allowed for credit payments only' }],
      });
    });

    it('tells the creator of a declined tap too (failed)', async () => {
      const created = await call(client, 'tapToPay.create', { ...charge(), payment_type: 'debit' });
      await phoneCompletes(created.id, 'declined');
      expect(await client.next('tapToPay.updated', (p) => p.id === created.id)).toMatchObject({ status: 'failed' });
    });

    it('is API_NOT_FOUND for a transaction the API does not have', async () => {
      expect(await refused(client, 'tapToPay.status', { transaction_id: 'f'.repeat(32) })).toMatchObject({
        code: 'API_NOT_FOUND',
      });
    });
  });

  it('never sent the API token to a POS, in any answer or event', () => {
    expect(frames.length).toBeGreaterThan(20);
    const token = pos.rig.sandbox.token;
    expect(token.length).toBeGreaterThan(8);
    expect(frames.filter((frame) => frame.includes(token))).toEqual([]);
  });
});

describe('buyer.search from the PINPAD in training', () => {
  let pos: PosRig;
  let client: RpcClient;

  // The training PINPAD's own scripted customer (as the agent's keeper sets it), not one of these specs'.
  beforeAll(async () => {
    pos = await posRig({ simulator: { autoCustomer: { ...TRAINING_CUSTOMER, delayMs: 50 } }, rateLimit: RATE });
    client = await pos.paired('Caixa treino');
  });
  afterAll(async () => pos.close());

  it('the customer types a valid CPF, which finds the sandbox’s example buyer', async () => {
    const found = await call(client, 'buyer.search', { from_pinpad: 'cpf' });
    expect(found.searched).toEqual({ taxpayer_id: TRAINING_CUSTOMER.cpf });
    expect(found.buyer).toMatchObject({ first_name: 'Maria Aparecida', taxpayer_id: TRAINING_CUSTOMER.cpf });
  });

  it('and a valid CNPJ under the CNPJ prompt, which finds the example company', async () => {
    const found = await call(client, 'buyer.search', { from_pinpad: 'cnpj' });
    expect(found.searched).toEqual({ ein: TRAINING_CUSTOMER.cnpj });
    expect(found.buyer).toMatchObject({ first_name: 'Padaria Pão Dourado' });
  });
});

describe('the relays, with the payments API down', () => {
  let pos: PosRig;
  let client: RpcClient;

  beforeAll(async () => {
    pos = await posRig({ rateLimit: RATE });
    client = recordFrames(await pos.paired('Caixa sem API'));
  });
  afterAll(async () => pos.close());

  it('is API_UNAVAILABLE once the API stops answering, with api.health "down" to every client', async () => {
    // Up first: an answer (even a 404) means the service is there.
    await call(client, 'bankAccount.list', {});
    const up = await client.next('api.health', (p) => p.state === 'up');
    expect(schemaViolations(EVENTS['api.health'].payload, up)).toEqual([]);

    await pos.rig.sandbox.close();
    const error = await refused(client, 'bankAccount.list', {});
    expect(error).toMatchObject({ code: 'API_UNAVAILABLE', api: { status: null } });
    expect(error.cashier_message).toBe('Sem comunicação com o serviço de pagamentos.');
    const down = await client.next('api.health', (p) => p.state === 'down');
    expect(schemaViolations(EVENTS['api.health'].payload, down)).toEqual([]);
    expect(down).toMatchObject({ state: 'down', last_error: { code: expect.any(String) as string } });
    expect(down.since).not.toBeNull();

    // Said once, not once per failed call.
    await refused(client, 'buyer.search', { taxpayer_id: freshCpf() });
    expect(client.events('api.health').filter((p) => (p as { state: string }).state === 'down')).toHaveLength(1);
    expect(await call(client, 'agent.status')).toMatchObject({ api: { state: 'down' } });
  });

  it('goes on serving what needs no API', async () => {
    expect((await call(client, 'pinpad.list')).pinpads).toHaveLength(1);
  });

  it('never sent the API token to a POS', () => {
    expect(frames.filter((frame) => frame.includes(pos.rig.sandbox.token))).toEqual([]);
  });
});
