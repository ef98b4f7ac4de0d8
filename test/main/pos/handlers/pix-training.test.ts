/**
 * A practice Pix in training mode (issue 38: "the sandbox can mark a bolepix paid … so tests and
 * training show the whole flow"): from the window, operator.trainingPix makes a bolepix for the
 * training buyer and shows it as pix.show does; operator.trainingPayPix plays the customer's
 * bank through the training sandbox's pay route — and the show hears it at once, not at its next
 * poll. In live mode both are refused; a POS cannot call them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRAINING_BUYER } from '../../../../main/agent/training-pix.js';
import { decodeQrPng } from '../../../helpers/qr-decode.js';
import { displayed } from '../../core/engine-rig.js';
import {
  AUTO_CUSTOMER,
  checkedCall as call,
  checkedEvent,
  checkedFailure as refused,
  posRig,
  type PosRig,
} from '../pos-rig.js';

describe('a practice Pix from the window, in training mode', () => {
  let pos: PosRig;

  beforeAll(async () => {
    pos = await posRig({ simulator: { profile: 'ppc930', ...AUTO_CUSTOMER } });
  });
  afterAll(async () => pos.close());

  it('shows a bolepix of the amount typed on the PINPAD, and the simulated payment ends it: PIX RECEBIDO', async () => {
    const window = await pos.operator();
    const shown = await call(window, 'operator.trainingPix', { amount: 2_500 });
    expect(shown).toMatchObject({ amount: 2_500, pinpad: 'image' });
    // A real bolepix at the training sandbox, for the training buyer.
    const transaction = await pos.rig.client.transactions.retrieve(shown.transaction_id);
    expect(transaction).toMatchObject({ payment_type: 'bolepix', status: 'pending', amount: 2_500 });
    const buyer = await pos.rig.client.buyers.search({ taxpayer_id: TRAINING_BUYER.taxpayer_id });
    expect(transaction.customer).toBe(buyer.id);
    const sim = pos.pinpads[0]!.sim;
    expect(decodeQrPng(sim.display.image!.bytes)).toBe(transaction.pix!.qr_code);
    expect(await checkedEvent(window, 'pix.shown', (p) => p.transaction_id === shown.transaction_id)).toMatchObject({
      amount: 2_500,
    });

    expect(await call(window, 'operator.trainingPayPix', { transaction_id: shown.transaction_id })).toEqual({
      paid: true,
    });
    expect(await checkedEvent(window, 'pix.paid', (p) => p.transaction_id === shown.transaction_id)).toMatchObject({
      amount: 2_500,
      via: 'pix',
      pinpad_lines: ['PIX RECEBIDO', 'R$ 25,00'],
    });
    await displayed(sim, /PIX RECEBIDO/);
    expect((await pos.rig.client.transactions.retrieve(shown.transaction_id)).status).toBe('succeeded');

    // Paid already: a second payment is refused with the reason, in the cashier's words too.
    const again = await refused(window, 'operator.trainingPayPix', { transaction_id: shown.transaction_id });
    expect(again).toMatchObject({ code: 'INVALID_STATE', reason: 'NOT_PAYABLE' });
    expect(await refused(window, 'operator.trainingPayPix', { transaction_id: 'f'.repeat(32) })).toMatchObject({
      code: 'NOT_FOUND',
    });
    await window.close();
  }, 30_000);

  it('makes the training buyer once and uses it again', async () => {
    const window = await pos.operator();
    const first = await call(window, 'operator.trainingPix', { amount: 300 });
    const second = await call(window, 'operator.trainingPix', { amount: 400 });
    const customers = await Promise.all(
      [first, second].map(async (shown) => (await pos.rig.client.transactions.retrieve(shown.transaction_id)).customer),
    );
    expect(customers[0]).toBe(customers[1]);
    await call(window, 'pix.cancel', { transaction_id: second.transaction_id });
    await displayed(pos.pinpads[0]!.sim, /CAIXA LIVRE/);
    await window.close();
  }, 30_000);

  it("refuses an amount below a boleto's smallest before asking the sandbox, in the cashier's words too", async () => {
    const window = await pos.operator();
    expect(await refused(window, 'operator.trainingPix', { amount: 299 })).toMatchObject({
      code: 'INVALID_PARAMS',
      cashier_message: 'O Pix de teste precisa ser de pelo menos R$ 3,00 (o mínimo de um boleto).',
      violations: [{ field: 'amount' }],
    });
    await window.close();
  });

  it('is the window’s alone: a POS client cannot call it', async () => {
    const client = await pos.paired('Caixa treino');
    expect(await refused(client, 'operator.trainingPix', { amount: 300 })).toMatchObject({ code: 'OPERATOR_ONLY' });
    await client.close();
  });
});

describe('a practice Pix in live mode', () => {
  let pos: PosRig;

  beforeAll(async () => {
    pos = await posRig({ mode: 'live' });
  });
  afterAll(async () => pos.close());

  it('is refused: nothing to practise with, and no bank to play', async () => {
    const window = await pos.operator();
    for (const [method, params] of [
      ['operator.trainingPix', { amount: 300 }],
      ['operator.trainingPayPix', { transaction_id: 'a'.repeat(32) }],
    ] as const) {
      const error = await refused(window, method, params);
      expect(error).toMatchObject({ code: 'INVALID_STATE', reason: 'NOT_TRAINING' });
    }
    await window.close();
  });
});
