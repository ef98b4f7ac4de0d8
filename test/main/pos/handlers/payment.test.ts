/**
 * Payments through the POS API, as a POS integrates them: start and its progress events, the
 * three answers of status (with receipts), cancel, confirm and undo under the "pos" policy,
 * idempotent repeats, BUSY, and which client hears which payment's events.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { schemaViolations } from '../../../../main/contract/index.js';
import { EVENTS, type MethodName } from '../../../../main/pos/protocol/index.js';
import { AUTO_CUSTOMER, checkedCall, posRig, type PosRig, type RpcClient } from '../pos-rig.js';

/** A schema-checked call, typed loosely for the assertions that follow. */
const checked = <T>(client: RpcClient, method: MethodName, params: unknown): Promise<T> =>
  checkedCall(client, method, params) as Promise<unknown> as Promise<T>;

const sale = (reference: string, amount = 1234) => ({
  reference_id: reference,
  amount,
  payment_type: 'credit',
  installments: 1,
  description: 'Pedido',
});

describe('with the auto confirmation policy', () => {
  let pos: PosRig;
  const open: RpcClient[] = [];
  const paired = async (name: string): Promise<RpcClient> => {
    const client = await pos.paired(name);
    open.push(client);
    return client;
  };
  beforeAll(async () => {
    pos = await posRig();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  afterAll(async () => pos.close());

  it('runs a sale to its result, with a progress event at every step in pt-BR', async () => {
    const cashier = await paired('Caixa 1');
    const outcome = await checked<{ status: string; card: { masked_pan: string }; confirmation: string }>(
      cashier,
      'payment.start',
      sale('p-1'),
    );
    expect(outcome).toMatchObject({
      status: 'approved',
      confirmation: 'confirmed',
      card: { masked_pan: '411111******1111' },
    });
    const steps = cashier.events('payment.progress').map((event) => {
      expect(schemaViolations(EVENTS['payment.progress'].payload, event)).toEqual([]);
      return (event as { step: string }).step;
    });
    expect(steps).toEqual(
      expect.arrayContaining([
        'started',
        'creating_transaction',
        'waiting_card',
        'authorizing',
        'approved',
        'confirmed',
      ]),
    );
    const texts = cashier
      .events('payment.progress')
      .map((event) => (event as { cashier_message: string }).cashier_message);
    expect(texts).toContain('Aguardando o cartão');
  });

  it('sends a payment’s progress to the client that started it, not to other POS clients; PINPAD events to all', async () => {
    const mine = await paired('Caixa A');
    const other = await paired('Caixa B');
    await mine.call('payment.start', sale('p-owner'));
    expect(mine.events('payment.progress').length).toBeGreaterThan(3);
    expect(other.events('payment.progress')).toEqual([]);
    await other.next('pinpad.busy', (entry) => entry.busy === true);
    await other.next('pinpad.busy', (entry) => entry.busy === false);
  });

  it('tells the other sessions of the same client the result (payment.result)', async () => {
    const first = await paired('Caixa multi-aba');
    const second = await pos.connect();
    open.push(second);
    await second.call('session.hello', { token: first.token });
    const outcome = await first.call<{ reference_id: string }>('payment.start', sale('p-tabs'));
    const told = await second.next('payment.result', (result) => result.reference_id === 'p-tabs');
    expect(told).toEqual(outcome);
    expect(first.events('payment.result')).toEqual([]);
  });

  it('answers status: NotFound before, Processed with the result and both receipts after', async () => {
    const cashier = await paired('Status');
    expect(await checked(cashier, 'payment.status', { reference_id: 'p-status' })).toEqual({ status: 'NotFound' });
    await cashier.call('payment.start', sale('p-status', 4321));
    const status = await checked<{
      status: string;
      result: { amount: number };
      receipts: { customer: string; merchant: string };
    }>(cashier, 'payment.status', {
      reference_id: 'p-status',
    });
    expect(status.status).toBe('Processed');
    expect(status.result.amount).toBe(4321);
    expect(status.receipts.customer).toContain('VIA DO CLIENTE');
    expect(status.receipts.merchant).toContain('VIA DO ESTABELECIMENTO');
    expect(status.receipts.customer).toContain('R$ 43,21');
  });

  it('answers a repeated start with the same payment, and a reused reference with other data with REFERENCE_CONFLICT', async () => {
    const cashier = await paired('Repeat');
    const first = await cashier.call<{ payment_id: string }>('payment.start', sale('p-repeat'));
    const again = await cashier.call<{ payment_id: string }>('payment.start', sale('p-repeat'));
    expect(again.payment_id).toBe(first.payment_id);
    const conflict = await cashier.failure('payment.start', sale('p-repeat', 999));
    expect(conflict.data.code).toBe('REFERENCE_CONFLICT');
    expect(conflict.data.cashier_message).toMatch(/já foi registrada/);
    expect(pos.rig.engine.list().items.filter((p) => p.referenceId === 'p-repeat')).toHaveLength(1);
  });

  it('declines with the reason, in both languages', async () => {
    const cashier = await paired('Decline');
    const outcome = await checked<{ status: string; problem: { code: string; cashier_message: string } }>(
      cashier,
      'payment.start',
      sale('p-decline', 1051),
    );
    expect(outcome.status).toBe('declined');
    expect(outcome.problem.cashier_message.length).toBeGreaterThan(0);
  });

  it('lists its payments newest first, filtered by state', async () => {
    const cashier = await paired('List');
    await checked(cashier, 'payment.start', sale('w-list-1'));
    await checked(cashier, 'payment.start', sale('w-list-2'));
    const all = await checked<{ items: { reference_id: string }[]; total: number }>(cashier, 'payment.list', {});
    // Its own sales only (another client's are not listed), newest first.
    expect(all.items.map((p) => p.reference_id)).toEqual(['w-list-2', 'w-list-1']);
    expect(all.total).toBe(2);
    const declined = await checked<{ items: { status: string }[] }>(cashier, 'payment.list', { states: ['declined'] });
    expect(declined.items.every((p) => p.status === 'declined')).toBe(true);
    expect((await cashier.failure('payment.list', { states: ['exploded'] })).data.code).toBe('INVALID_PARAMS');
  });
});

describe('with a PINPAD waiting for a card', () => {
  let pos: PosRig;
  beforeAll(async () => {
    pos = await posRig({ simulator: {}, config: { confirmation: 'pos', confirmationDeadlineMs: 60_000 } });
  });
  afterAll(async () => pos.close());

  it('cancels from the POS while the PINPAD waits for the card', async () => {
    const cashier = await pos.paired('Cancel');
    const running = cashier.call<{ status: string }>('payment.start', sale('w-cancel'));
    await cashier.next('payment.progress', (p) => p.reference_id === 'w-cancel' && p.step === 'waiting_card');
    const status = await checked<{ status: string }>(cashier, 'payment.status', { reference_id: 'w-cancel' });
    expect(status.status).toBe('InProgress');
    const cancelled = await cashier.call<{ status: string }>('payment.cancel', { reference_id: 'w-cancel' });
    expect(cancelled.status).toBe('cancelled');
    expect((await running).status).toBe('cancelled');
    await cashier.close();
  });

  it('answers BUSY to a second sale on the same PINPAD, naming the running sale by its reference_id (never the agent’s payment id)', async () => {
    const cashier = await pos.paired('Busy');
    const running = cashier.call('payment.start', sale('w-busy-1'));
    const progress = await cashier.next(
      'payment.progress',
      (p) => p.reference_id === 'w-busy-1' && p.step === 'waiting_card',
    );
    const busy = await cashier.failure('payment.start', sale('w-busy-2'));
    expect(busy.data).toMatchObject({
      code: 'BUSY',
      cashier_message: 'O PINPAD está ocupado com outra operação.',
      reference_id: 'w-busy-1',
    });
    expect(busy.message).toContain('reference_id "w-busy-1"');
    expect(JSON.stringify(busy)).not.toContain(String(progress.payment_id));
    // A refused start leaves nothing behind: the same reference can be started later.
    expect(await cashier.call('payment.status', { reference_id: 'w-busy-2' })).toEqual({ status: 'NotFound' });
    await cashier.call('payment.cancel', { reference_id: 'w-busy-1' });
    await running;
    await cashier.close();
  });

  it('waits for the POS to confirm (pos policy); undo voids a sale', async () => {
    const cashier = await pos.paired('Confirm');
    // A second PINPAD whose customer inserts the card and types the PIN by themselves.
    const auto = await pos.addPinpad('POS0000000000002', AUTO_CUSTOMER);
    const confirmRun = cashier.call<{ confirmation: string }>('payment.start', {
      ...sale('w-confirm'),
      terminal: auto.serial,
    });
    expect((await confirmRun).confirmation).toBe('pending');
    const pending = await checked<{ confirmations: { reference_id: string }[] }>(cashier, 'payment.pending', {});
    expect(pending.confirmations.map((p) => p.reference_id)).toContain('w-confirm');
    const confirmed = await checked<{ confirmation: string }>(cashier, 'payment.confirm', {
      reference_id: 'w-confirm',
    });
    expect(confirmed.confirmation).toBe('confirmed');
    const undone = await checked<{ status: string; confirmation: string }>(cashier, 'payment.undo', {
      reference_id: 'w-confirm',
    });
    expect(undone).toMatchObject({ status: 'cancelled', confirmation: 'undone' });
    expect((await cashier.failure('payment.confirm', { reference_id: 'nope' })).data.code).toBe('NOT_FOUND');
    await cashier.close();
  });
});

describe('a PINPAD that goes away during the sale', () => {
  let pos: PosRig | undefined;
  afterEach(async () => {
    await pos?.close();
    pos = undefined;
  });

  it('ends the payment as PINPAD_DISCONNECTED (failed), not as a cancel by the POS', async () => {
    // Nobody at the PINPAD: it waits for a card until the cable is pulled.
    pos = await posRig({ simulator: {} });
    const cashier = await pos.paired('Cabo');
    const running = checked<{ status: string; state: string; problem: { code: string; cashier_message: string } }>(
      cashier,
      'payment.start',
      sale('w-unplugged'),
    );
    await cashier.next('payment.progress', (p) => p.reference_id === 'w-unplugged' && p.step === 'waiting_card');
    pos.pinpads[0]!.unplug();
    const outcome = await running;
    expect(outcome).toMatchObject({
      status: 'failed',
      problem: { code: 'PINPAD_DISCONNECTED', cashier_message: 'PINPAD desconectado' },
    });
    expect(outcome.state === 'failed' || outcome.state === 'aborting').toBe(true);
  });
});
