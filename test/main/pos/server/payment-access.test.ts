/**
 * Each POS sees and acts on its own payments (issue 18, item 5). Two tills paired with the same
 * Pinbridge: the second cannot read, list, join, cancel, confirm, undo or print the first one's
 * sale, nor hear its events — it is told what it would be told of a sale that does not exist.
 * The cashier's window sees all; a store whose tills are one system can let them share.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AUTO_CUSTOMER, checkedCall, checkedFailure, posRig, type PosRig, type RpcClient } from '../pos-rig.js';

let pos: PosRig | undefined;
afterEach(async () => {
  await pos?.close();
  pos = undefined;
});

const sale = (reference: string, amount = 1234) => ({
  reference_id: reference,
  amount,
  payment_type: 'credit' as const,
  installments: 1,
  description: 'Pedido',
});

const eventsAbout = (client: RpcClient, reference: string): unknown[] =>
  client.notifications.filter((n) => (n.params as { reference_id?: string } | undefined)?.reference_id === reference);

describe('payments between POS clients', () => {
  it("keeps one till's sale out of another's reach, and in the window's", async () => {
    pos = await posRig({ config: { confirmation: 'pos' } });
    const first = await pos.paired('Caixa 1');
    const second = await pos.paired('Caixa 2');
    const approved = await checkedCall(first, 'payment.start', sale('till-1-sale'));
    expect(approved).toMatchObject({ status: 'approved', confirmation: 'pending' });

    // The other till: as if it did not exist.
    expect(await checkedCall(second, 'payment.status', { reference_id: 'till-1-sale' })).toEqual({
      status: 'NotFound',
    });
    for (const method of ['payment.undo', 'payment.confirm', 'payment.cancel'] as const) {
      expect(await checkedFailure(second, method, { reference_id: 'till-1-sale' }), method).toMatchObject({
        code: 'NOT_FOUND',
      });
    }
    expect(
      await checkedFailure(second, 'receipt.get', { reference_id: 'till-1-sale', copy: 'customer' }),
    ).toMatchObject({ code: 'NOT_FOUND' });
    expect(await checkedFailure(second, 'receipt.print', { reference_id: 'till-1-sale' })).toMatchObject({
      code: 'NOT_FOUND',
    });
    // Its reference cannot be joined either (that would hand over the result).
    expect(await checkedFailure(second, 'payment.start', sale('till-1-sale'))).toMatchObject({
      code: 'REFERENCE_CONFLICT',
    });
    const listed = await checkedCall(second, 'payment.list', {});
    expect(listed.items.map((item) => item.reference_id)).not.toContain('till-1-sale');
    expect(listed.total).toBe(0);
    const pending = await checkedCall(second, 'payment.pending', {});
    expect(pending.confirmations).toEqual([]);
    expect(eventsAbout(second, 'till-1-sale')).toEqual([]);

    // The owner still has it all, and the sale is untouched.
    expect((await checkedCall(first, 'payment.pending', {})).confirmations.map((item) => item.reference_id)).toEqual([
      'till-1-sale',
    ]);
    expect((await checkedCall(first, 'payment.list', {})).items.map((item) => item.reference_id)).toEqual([
      'till-1-sale',
    ]);
    expect(await checkedCall(first, 'payment.confirm', { reference_id: 'till-1-sale' })).toMatchObject({
      confirmation: 'confirmed',
    });
    expect(await checkedCall(first, 'receipt.get', { reference_id: 'till-1-sale', copy: 'customer' })).toMatchObject({
      reference_id: 'till-1-sale',
    });

    // The window sees every till's sales, and the owner hears what the window does to its sale.
    const window = await pos.operator();
    expect((await checkedCall(window, 'payment.list', {})).items.map((item) => item.reference_id)).toContain(
      'till-1-sale',
    );
    expect(await checkedCall(window, 'payment.undo', { reference_id: 'till-1-sale' })).toMatchObject({
      status: 'cancelled',
      confirmation: 'undone',
    });
    await first.next('payment.progress', (p) => p.reference_id === 'till-1-sale' && p.step === 'undone');
    expect(eventsAbout(second, 'till-1-sale')).toEqual([]);
  });

  it('does not let another till cancel a sale running at the PINPAD', async () => {
    pos = await posRig({ simulator: {} });
    const first = await pos.paired('Caixa 1');
    const second = await pos.paired('Caixa 2');
    const running = checkedCall(first, 'payment.start', sale('till-1-running'));
    await first.next('payment.progress', (p) => p.reference_id === 'till-1-running' && p.step === 'waiting_card');
    expect(await checkedFailure(second, 'payment.cancel', { reference_id: 'till-1-running' })).toMatchObject({
      code: 'NOT_FOUND',
    });
    expect(await checkedCall(second, 'payment.status', { reference_id: 'till-1-running' })).toEqual({
      status: 'NotFound',
    });
    expect(await checkedCall(first, 'payment.status', { reference_id: 'till-1-running' })).toMatchObject({
      status: 'InProgress',
    });
    await checkedCall(first, 'payment.cancel', { reference_id: 'till-1-running' });
    expect(await running).toMatchObject({ status: 'cancelled' });
    expect(eventsAbout(second, 'till-1-running')).toEqual([]);
  });

  it('lets the tills of one system share their payments when the store says so', async () => {
    pos = await posRig({ sharePayments: true, simulator: AUTO_CUSTOMER, config: { confirmation: 'pos' } });
    const first = await pos.paired('Caixa 1');
    const second = await pos.paired('Caixa 2');
    await checkedCall(first, 'payment.start', sale('shared-sale'));
    expect(await checkedCall(second, 'payment.status', { reference_id: 'shared-sale' })).toMatchObject({
      status: 'Processed',
    });
    expect((await checkedCall(second, 'payment.list', {})).items.map((item) => item.reference_id)).toEqual([
      'shared-sale',
    ]);
    expect(await checkedCall(second, 'payment.undo', { reference_id: 'shared-sale' })).toMatchObject({
      confirmation: 'undone',
    });
    expect(eventsAbout(second, 'shared-sale').length).toBeGreaterThan(0);
  });

  it("names the sale a PINPAD runs only to that sale's owner and the window: events, status, list and BUSY", async () => {
    pos = await posRig({ simulator: {} });
    const first = await pos.paired('Caixa 1');
    const second = await pos.paired('Caixa 2');
    const window = await pos.operator();
    const running = checkedCall(first, 'payment.start', sale('till-1-secret'));
    await first.next('payment.progress', (p) => p.reference_id === 'till-1-secret' && p.step === 'waiting_card');

    // The PINPAD is reserved first (no sale named yet), then runs the sale: the owner and the window hear its reference.
    const named = (p: Record<string, unknown>): boolean => p.busy === true && p.payment_reference !== null;
    expect(await first.next('pinpad.busy', named)).toMatchObject({ payment_reference: 'till-1-secret' });
    expect(await window.next('pinpad.busy', named)).toMatchObject({ payment_reference: 'till-1-secret' });
    // The other till hears the same events, without it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const seen = second.events('pinpad.busy') as { busy: boolean; payment_reference: string | null }[];
    expect(seen.length).toBe(first.events('pinpad.busy').length);
    expect(seen.filter((p) => p.busy)).not.toEqual([]);
    expect(seen.every((p) => p.payment_reference === null)).toBe(true);

    expect(await checkedCall(first, 'pinpad.status', {})).toMatchObject({ payment_reference: 'till-1-secret' });
    expect(await checkedCall(second, 'pinpad.status', {})).toMatchObject({ busy: true, payment_reference: null });
    expect((await checkedCall(second, 'pinpad.list', {})).pinpads[0]).toMatchObject({ payment_reference: null });
    expect((await checkedCall(second, 'agent.status', {})).pinpads[0]).toMatchObject({ payment_reference: null });
    expect((await checkedCall(window, 'agent.status', {})).pinpads[0]).toMatchObject({
      payment_reference: 'till-1-secret',
    });

    // BUSY tells the other till that the PINPAD is busy with a payment, not with which.
    const busy = await checkedFailure(second, 'pinpad.display', { text: 'OI' });
    expect(busy).toMatchObject({ code: 'BUSY' });
    expect(busy.reference_id).toBeUndefined();
    expect(JSON.stringify(busy)).not.toContain('till-1-secret');
    expect(await checkedFailure(first, 'pinpad.display', { text: 'OI' })).toMatchObject({
      code: 'BUSY',
      reference_id: 'till-1-secret',
    });
    const otherSale = await checkedFailure(second, 'payment.start', sale('till-2-sale'));
    expect(otherSale).toMatchObject({ code: 'BUSY' });
    expect(JSON.stringify(otherSale)).not.toContain('till-1-secret');

    expect(JSON.stringify(second.notifications)).not.toContain('till-1-secret');
    await checkedCall(first, 'payment.cancel', { reference_id: 'till-1-secret' });
    await running;
  });

  it('names it to every till when the store lets them share their payments', async () => {
    pos = await posRig({ sharePayments: true, simulator: {} });
    const first = await pos.paired('Caixa 1');
    const second = await pos.paired('Caixa 2');
    const running = checkedCall(first, 'payment.start', sale('shared-running'));
    await first.next('payment.progress', (p) => p.reference_id === 'shared-running' && p.step === 'waiting_card');
    expect(await second.next('pinpad.busy', (p) => p.payment_reference !== null)).toMatchObject({
      payment_reference: 'shared-running',
    });
    expect(await checkedCall(second, 'pinpad.status', {})).toMatchObject({ payment_reference: 'shared-running' });
    await checkedCall(first, 'payment.cancel', { reference_id: 'shared-running' });
    await running;
  });

  it('answers a reference another till used exactly as its own used with other data: nothing says whose, and the owner recovers its sale', async () => {
    pos = await posRig({ simulator: AUTO_CUSTOMER, config: { confirmation: 'pos' } });
    const first = await pos.paired('Caixa 1');
    const second = await pos.paired('Caixa 2');
    await checkedCall(first, 'payment.start', sale('till-1-ref', 1234));
    // The owner, with other data; another till, with the same data and with other data.
    const own = await checkedFailure(first, 'payment.start', sale('till-1-ref', 999));
    const otherSame = await checkedFailure(second, 'payment.start', sale('till-1-ref', 1234));
    const otherDifferent = await checkedFailure(second, 'payment.start', sale('till-1-ref', 999));
    expect(own).toMatchObject({ code: 'REFERENCE_CONFLICT' });
    expect(otherSame).toEqual(own);
    expect(otherDifferent).toEqual(own);
    expect(JSON.stringify(own)).not.toMatch(/1234|Caixa|cli_/);
    // The owner still has its sale: the same start gives it back, payment.status reads it.
    expect(await checkedCall(first, 'payment.start', sale('till-1-ref', 1234))).toMatchObject({
      reference_id: 'till-1-ref',
      status: 'approved',
    });
    expect(await checkedCall(first, 'payment.status', { reference_id: 'till-1-ref' })).toMatchObject({
      status: 'Processed',
    });
  });
});
