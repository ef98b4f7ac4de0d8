/**
 * The PINPAD outside a payment, as a POS drives it over the WebSocket API: pinpad.list and
 * pinpad.status, a message on the display, a function key, data the customer types (never card
 * data), aborting a wait, BUSY between those operations and payments, which PINPAD when there
 * are several, and an unplugged one. Each answer is checked against its method's result schema
 * and each event against its payload schema (protocol/methods.ts, protocol/events.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemaViolations } from '../../../../main/contract/index.js';
import { EVENTS } from '../../../../main/pos/protocol/index.js';
import type { PinpadSimulator } from '../../../../drivers/simulator/index.js';
import { displayed } from '../../core/engine-rig.js';
import {
  checkedCall as call,
  checkedEvent as event,
  checkedFailure as refused,
  posRig,
  type PosRig,
  type RpcClient,
} from '../pos-rig.js';

const FIRST = 'POS0000000000001';
const RATE = { capacity: 1_000, refillPerSecond: 1_000 };

let saleCounter = 0;

/** payment.start's params as a POS sends them (snake_case): a R$ 19,90 credit sale in one installment, with a fresh reference. */
function posSale(
  prefix: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> & { reference_id: string } {
  return {
    reference_id: `${prefix}-${++saleCounter}-${Date.now()}`,
    amount: 1990,
    payment_type: 'credit',
    installments: 1,
    description: 'Venda de teste',
    notification: 'Loja Teste',
    ...overrides,
  };
}

/** Waits until the PINPAD's busy flag, as pinpad.status shows it, is `busy` (held by an operation or a payment, or free). */
async function untilBusy(client: RpcClient, terminal: string, busy = true): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await call(client, 'pinpad.status', { terminal })).busy !== busy) {
    if (Date.now() > deadline) throw new Error(`PINPAD ${terminal} never became ${busy ? 'busy' : 'free'}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The customer inserts the chip card, types its PIN and takes the card back when asked. */
async function customerPays(sim: PinpadSimulator): Promise<void> {
  sim.insertCard('visaCredit');
  await displayed(sim, /SENHA/);
  sim.keypad.type('1234');
  sim.keypad.press('enter');
  await displayed(sim, /RETIRE/);
  sim.removeCard();
}

describe('one PINPAD, a customer at the keypad', () => {
  let pos: PosRig;
  let sim: PinpadSimulator;
  let client: RpcClient;

  // No autoCustomer: the customer (the test) presses the keys and inserts cards itself.
  beforeAll(async () => {
    pos = await posRig({ simulator: {}, rateLimit: RATE });
    sim = pos.pinpads[0]!.sim;
    client = await pos.paired('Caixa PINPAD');
  });
  afterAll(async () => pos.close());

  describe('pinpad.list and pinpad.status', () => {
    it('lists the attached PINPAD with its serial, model, address and state', async () => {
      const { pinpads } = await call(client, 'pinpad.list');
      expect(pinpads).toEqual([
        {
          serial_number: FIRST,
          manufacturer: 'PINBRIDGE SIM',
          // PP_MODEL as the PINPAD reports it (the simulator appends its memory, as real ones do).
          model: 'PBSIM-1',
          firmware: 'SIMOS 1.0',
          address: `sim:${FIRST}`,
          connected: true,
          busy: false,
          payment_reference: null,
          tables: null,
        },
      ]);
    });

    it('answers pinpad.status for the only PINPAD with or without its serial', async () => {
      const implicit = await call(client, 'pinpad.status', {});
      const explicit = await call(client, 'pinpad.status', { terminal: FIRST });
      expect(implicit).toEqual(explicit);
      expect(explicit).toMatchObject({ serial_number: FIRST, address: `sim:${FIRST}`, connected: true });
    });

    it('is PINPAD_NOT_FOUND for a serial nobody attached', async () => {
      expect(await refused(client, 'pinpad.status', { terminal: 'NO-SUCH-PINPAD' })).toMatchObject({
        code: 'PINPAD_NOT_FOUND',
      });
    });
  });

  describe('pinpad.display', () => {
    it('puts the text on the PINPAD display, "\\n" splitting the two lines', async () => {
      expect(await call(client, 'pinpad.display', { text: 'OBRIGADO!\nVOLTE SEMPRE' })).toEqual({});
      expect(sim.display.lines).toEqual(['OBRIGADO!', 'VOLTE SEMPRE']);
    });

    it('wraps a single line of 32 characters after 16', async () => {
      await call(client, 'pinpad.display', { text: 'ABCDEFGHIJKLMNOP0123456789012345' });
      expect(sim.display.lines).toEqual(['ABCDEFGHIJKLMNOP', '0123456789012345']);
    });

    it.each([
      ['three lines', 'UM\nDOIS\nTRES'],
      ['a line of 17 characters', 'ABCDEFGHIJKLMNOPQ\nX'],
      ['33 characters without a break', 'A'.repeat(33)],
    ])('refuses %s with INVALID_PARAMS and its violation, and the connection stays usable', async (_case, text) => {
      const before = [...sim.display.lines];
      const error = await refused(client, 'pinpad.display', { text });
      expect(error.code).toBe('INVALID_PARAMS');
      expect(error.violations).toEqual([expect.objectContaining({ field: 'text' })]);
      expect(sim.display.lines).toEqual(before);
      // Same socket, next request answered.
      expect((await call(client, 'pinpad.list')).pinpads).toHaveLength(1);
    });

    it('refuses an empty text by the schema', async () => {
      const error = await refused(client, 'pinpad.display', { text: '' });
      expect(error.code).toBe('INVALID_PARAMS');
      expect(error.violations?.map((v) => v.field)).toContain('text');
    });
  });

  describe('pinpad.readKey', () => {
    it('shows the prompt on the PINPAD and answers the function key the customer presses', async () => {
      const answer = call(client, 'pinpad.readKey', { prompt: 'NOTA FISCAL?\nF1 SIM  F2 NAO' });
      await displayed(sim, /NOTA FISCAL\?\nF1 SIM {2}F2 NAO/);
      sim.keypad.press('f1');
      expect(await answer).toEqual({ key: 'f1' });
    });

    it('ignores digits and answers the first function key', async () => {
      const answer = call(client, 'pinpad.readKey', { prompt: 'TECLE ENTRA' });
      await displayed(sim, /TECLE ENTRA/);
      await untilBusy(client, FIRST);
      sim.keypad.type('42');
      sim.keypad.press('enter');
      expect(await answer).toEqual({ key: 'enter' });
    });

    it('answers ANULA as the key "cancel" (the POS asked for a key; ANULA is one)', async () => {
      const answer = call(client, 'pinpad.readKey', { prompt: 'ANULA?' });
      await displayed(sim, /ANULA\?/);
      sim.keypad.press('cancel');
      expect(await answer).toEqual({ key: 'cancel' });
    });

    it('refuses a prompt of three lines (INVALID_PARAMS on "prompt")', async () => {
      const error = await refused(client, 'pinpad.readKey', { prompt: 'A\nB\nC' });
      expect(error).toMatchObject({ code: 'INVALID_PARAMS', violations: [{ field: 'prompt' }] });
    });
  });

  describe('pinpad.readCustomerData', () => {
    it('asks for the CPF under the PINPAD’s own prompt and returns the digits typed', async () => {
      const answer = call(client, 'pinpad.readCustomerData', { kind: 'cpf' });
      await displayed(sim, /DIGITE O CPF/);
      sim.keypad.type('12345678909');
      sim.keypad.press('enter');
      expect(await answer).toEqual({ kind: 'cpf', value: '12345678909' });
    });

    it.each([
      ['cnpj', /DIGITE O CNPJ/, '45339827000162'],
      ['phone', /DIGITE TELEFONE/, '987654321'],
      ['areaCodeAndPhone', /DDD \+ TELEFONE/, '11987654321'],
      ['rg', /DIGITE O RG/, '123456789'],
      ['birthDateDdmmyyyy', /NASC\. DDMMAAAA/, '14031985'],
    ])('asks for %s under its prompt and returns what was typed', async (kind, prompt, typed) => {
      const answer = call(client, 'pinpad.readCustomerData', { kind });
      await displayed(sim, prompt);
      sim.keypad.type(typed);
      sim.keypad.press('enter');
      expect(await answer).toEqual({ kind, value: typed });
    });

    it('is PINPAD_CANCELLED when the customer presses ANULA, and the PINPAD is free again', async () => {
      const answer = refused(client, 'pinpad.readCustomerData', { kind: 'phone' });
      await displayed(sim, /DIGITE TELEFONE/);
      sim.keypad.type('1199');
      sim.keypad.press('cancel');
      expect(await answer).toMatchObject({ code: 'PINPAD_CANCELLED' });
      expect(await call(client, 'pinpad.status', { terminal: FIRST })).toMatchObject({ busy: false });
    });

    it.each(['lastFourDigits', 'securityCode', 'cardNumber'])(
      'refuses card data (%s) by the schema, before the PINPAD is asked',
      async (kind) => {
        const error = await refused(client, 'pinpad.readCustomerData', { kind });
        expect(error.code).toBe('INVALID_PARAMS');
        expect(error.violations?.map((v) => v.field)).toContain('kind');
        expect(await call(client, 'pinpad.status', {})).toMatchObject({ busy: false });
      },
    );
  });

  describe('the customer does not answer', () => {
    it('ends a readKey after timeout_s with PINPAD_TIMEOUT', async () => {
      const startedAt = Date.now();
      expect(await refused(client, 'pinpad.readKey', { prompt: 'ALGUEM AI?', timeout_s: 1 })).toMatchObject({
        code: 'PINPAD_TIMEOUT',
      });
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
      await untilBusy(client, FIRST, false);
    });

    it('ends a readCustomerData after timeout_s with PINPAD_TIMEOUT', async () => {
      expect(await refused(client, 'pinpad.readCustomerData', { kind: 'cpf', timeout_s: 1 })).toMatchObject({
        code: 'PINPAD_TIMEOUT',
      });
      await untilBusy(client, FIRST, false);
    });
  });

  describe('pinpad.abort', () => {
    it('stops a waiting readKey: the wait ends PINPAD_CANCELLED and abort answers {aborted: true}', async () => {
      const waiting = refused(client, 'pinpad.readKey', { prompt: 'AGUARDANDO' });
      await displayed(sim, /AGUARDANDO/);
      await untilBusy(client, FIRST);
      expect(await call(client, 'pinpad.abort', {})).toEqual({ aborted: true });
      expect(await waiting).toMatchObject({ code: 'PINPAD_CANCELLED' });
      await untilBusy(client, FIRST, false);
      // The PINPAD answers the next operation.
      await call(client, 'pinpad.display', { text: 'LIVRE' });
      expect(sim.display.lines[0]).toBe('LIVRE');
    });

    it("frees the PINPAD at once when the POS that asked for a key or a CPF disconnects, not at the prompt's timeout", async () => {
      for (const [method, params, prompt] of [
        ['pinpad.readKey', { prompt: 'QUEM PEDIU SAIU' }, /QUEM PEDIU SAIU/],
        ['pinpad.readCustomerData', { kind: 'cpf' }, /CPF/],
      ] as const) {
        const leaving = await pos.paired('Caixa que cai');
        void leaving.call(method, { ...params, timeout_s: 60 }).catch(() => {});
        await displayed(sim, prompt);
        await untilBusy(client, FIRST);
        const startedAt = Date.now();
        leaving.socket.terminate();
        await untilBusy(client, FIRST, false);
        expect(Date.now() - startedAt).toBeLessThan(10_000);
        // The PINPAD serves the POS still there.
        await call(client, 'pinpad.display', { text: 'LIVRE' });
        expect(sim.display.lines[0]).toBe('LIVRE');
      }
    });

    it('answers {aborted: false} when nothing waits', async () => {
      expect(await call(client, 'pinpad.abort', { terminal: FIRST })).toEqual({ aborted: false });
    });
  });

  describe('BUSY: one operation at a time on a PINPAD', () => {
    it('refuses payment.start while a readKey waits for the customer, then the key still answers', async () => {
      const waiting = call(client, 'pinpad.readKey', { prompt: 'ESPERA TECLA' });
      await displayed(sim, /ESPERA TECLA/);
      await untilBusy(client, FIRST);
      const params = posSale('busy-key');
      const busy = await refused(client, 'payment.start', params);
      // No payment holds it: nothing to name but the kind of operation.
      expect(busy).toMatchObject({ code: 'BUSY' });
      expect(busy.reference_id).toBeUndefined();
      expect(busy.message).toMatch(/another operation/);
      // Nothing was journaled for the refused sale.
      expect(await call(client, 'payment.status', { reference_id: params.reference_id })).toEqual({
        status: 'NotFound',
      });
      sim.keypad.press('f2');
      expect(await waiting).toEqual({ key: 'f2' });
    });

    it('refuses pinpad.display and readKey while a payment waits for a card, and the payment then goes on', async () => {
      const params = posSale('busy-pay', { amount: 1234 });
      const payment = call(client, 'payment.start', params);
      await untilBusy(client, FIRST);
      expect(await call(client, 'pinpad.status', { terminal: FIRST })).toMatchObject({
        busy: true,
        payment_reference: params.reference_id,
      });
      const busy = await refused(client, 'pinpad.display', { text: 'OI' });
      expect(busy).toMatchObject({ code: 'BUSY', reference_id: params.reference_id });
      expect(busy.message).toContain(`reference_id "${params.reference_id}"`);
      expect(await refused(client, 'pinpad.readKey', {})).toMatchObject({
        code: 'BUSY',
        reference_id: params.reference_id,
      });
      // pinpad.abort does not touch a payment (that is payment.cancel).
      expect(await call(client, 'pinpad.abort', {})).toEqual({ aborted: false });
      await customerPays(sim);
      expect(await payment).toMatchObject({ status: 'approved', reference_id: params.reference_id, terminal: FIRST });
      await untilBusy(client, FIRST, false);
      expect(await call(client, 'pinpad.display', { text: 'APROVADO' })).toEqual({});
    });
  });

  describe('pinpad.busy events', () => {
    it('tells every paired client when the PINPAD becomes busy and free again', async () => {
      const watcher = await pos.paired('Caixa observador');
      const from = watcher.notifications.length;
      const answer = call(client, 'pinpad.readKey', { prompt: 'EVENTOS' });
      await displayed(sim, /EVENTOS/);
      sim.keypad.press('enter');
      await answer;
      await event(watcher, 'pinpad.busy', (p) => p.busy === false);
      const busy = watcher.notifications
        .slice(from)
        .filter((n) => n.method === 'pinpad.busy')
        .map((n) => n.params as Record<string, unknown>);
      for (const payload of busy) expect(schemaViolations(EVENTS['pinpad.busy'].payload, payload)).toEqual([]);
      expect(busy.map((p) => p.busy)).toEqual([true, false]);
      expect(busy[0]).toMatchObject({ serial_number: FIRST, connected: true, payment_reference: null });
      await watcher.close();
    });
  });
});

describe('several PINPADs, and one unplugged', () => {
  const SECOND = 'POS0000000000002';
  let pos: PosRig;
  let client: RpcClient;

  beforeAll(async () => {
    pos = await posRig({ simulator: {}, rateLimit: RATE });
    client = await pos.paired('Caixa duplo');
    await pos.addPinpad(SECOND, { model: 'PBSIM-2' });
  });
  afterAll(async () => pos.close());

  it('announces the PINPAD attached after the client logged in (pinpad.connected)', async () => {
    expect(await event(client, 'pinpad.connected', (p) => p.serial_number === SECOND)).toMatchObject({
      model: 'PBSIM-2',
      connected: true,
    });
  });

  it('lists both', async () => {
    const { pinpads } = await call(client, 'pinpad.list');
    expect(pinpads.map((p) => [p.serial_number, p.model, p.connected])).toEqual([
      [FIRST, 'PBSIM-1', true],
      [SECOND, 'PBSIM-2', true],
    ]);
  });

  it.each([
    ['pinpad.status', {}],
    ['pinpad.display', { text: 'QUAL?' }],
    ['pinpad.readKey', {}],
    ['pinpad.readCustomerData', { kind: 'cpf' }],
    ['pinpad.abort', {}],
  ] as const)('%s without "terminal" is PINPAD_REQUIRED', async (method, params) => {
    expect(await refused(client, method, params)).toMatchObject({ code: 'PINPAD_REQUIRED' });
  });

  it.each([
    ['pinpad.status', {}],
    ['pinpad.display', { text: 'QUAL?' }],
    ['pinpad.readKey', {}],
    ['pinpad.abort', {}],
  ] as const)('%s with an unknown terminal is PINPAD_NOT_FOUND', async (method, params) => {
    expect(await refused(client, method, { ...params, terminal: 'PB-UNKNOWN' })).toMatchObject({
      code: 'PINPAD_NOT_FOUND',
    });
  });

  it('reaches the PINPAD named by "terminal" and leaves the other alone', async () => {
    const [first, second] = pos.pinpads;
    const firstBefore = [...first!.sim.display.lines];
    await call(client, 'pinpad.display', { terminal: SECOND, text: 'SEGUNDO' });
    expect(second!.sim.display.lines[0]).toBe('SEGUNDO');
    expect(first!.sim.display.lines).toEqual(firstBefore);
  });

  it('unplugging one ends the wait on it (PINPAD_ERROR), emits pinpad.disconnected and lists it as connected: false; the other is then implied', async () => {
    const second = pos.pinpads[1]!;
    const waiting = refused(client, 'pinpad.readKey', { terminal: SECOND, prompt: 'ATE LOGO' });
    await displayed(second.sim, /ATE LOGO/);
    second.unplug();
    // The POS waiting on it hears at once, rather than at the end of the customer's time.
    expect(await waiting).toMatchObject({ code: 'PINPAD_ERROR', reason: 'DISCONNECTED' });
    expect(await event(client, 'pinpad.disconnected', (p) => p.serial_number === SECOND)).toMatchObject({
      connected: false,
      busy: false,
    });
    const { pinpads } = await call(client, 'pinpad.list');
    expect(pinpads.find((p) => p.serial_number === SECOND)).toMatchObject({ connected: false });
    expect(pinpads.find((p) => p.serial_number === FIRST)).toMatchObject({ connected: true });
    // Still known, so its status answers (unplugged, not unknown).
    expect(await call(client, 'pinpad.status', { terminal: SECOND })).toMatchObject({ connected: false });
    // One connected PINPAD left: "terminal" may be left out again.
    expect(await call(client, 'pinpad.status', {})).toMatchObject({ serial_number: FIRST });
    await call(client, 'pinpad.display', { text: 'SO EU' });
    expect(pos.pinpads[0]!.sim.display.lines[0]).toBe('SO EU');
  });

  it('refuses an operation on the unplugged PINPAD by its serial', async () => {
    const error = await refused(client, 'pinpad.display', { terminal: SECOND, text: 'OI' });
    expect(error).toMatchObject({ code: 'PINPAD_NOT_FOUND' });
    expect(await refused(client, 'payment.start', posSale('unplugged', { terminal: SECOND }))).toMatchObject({
      code: 'PINPAD_NOT_FOUND',
    });
  });
});
