/**
 * Pinbridge's own window on the POS API: it logs in with the agent's operator key, only from the
 * agent's own page or a program on this computer; it alone sees pairing codes, refuses a
 * request, lists, revokes and blocks clients, and sees every payment. No POS can do any of it.
 * Answers and events are checked against their schemas.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_PEER_FINDER } from '../../../../main/pos/server/peer/finder.js';
import { decodeEscPos } from '../../../helpers/escpos-decode.js';
import {
  checkedCall as call,
  checkedEvent as event,
  checkedFailure as refused,
  OPERATOR_KEY,
  posRig,
  type PosRig,
  type RpcClient,
} from '../pos-rig.js';

let pos: PosRig;

/** A rig of its own with the window and one paired POS connected. */
async function rigWithOneOfEach(): Promise<{ window: RpcClient; close: () => Promise<void> }> {
  const own = await posRig({ noPinpad: true });
  await own.paired('Caixa único');
  return { window: await own.operator(), close: () => own.close() };
}

beforeAll(async () => {
  pos = await posRig({ rateLimit: { capacity: 1_000, refillPerSecond: 1_000 } });
});
afterAll(async () => pos.close());

describe('session.operator', () => {
  it("logs in the agent's own page and a program on this computer with the key", async () => {
    const page = await pos.connect({ origin: `http://localhost:${pos.server.port}` });
    expect(await call(page, 'session.operator', { key: OPERATOR_KEY })).toMatchObject({
      name: 'Pinbridge',
      mode: 'training',
    });
    const program = await pos.connect();
    await call(program, 'session.operator', { key: OPERATOR_KEY });
    expect(await call(program, 'operator.pairings')).toEqual({ pairings: [] });
  });

  it('tells the window the installments in use (settings installments, else the defaults): what its test sale offers', async () => {
    const page = await pos.connect({ origin: `http://127.0.0.1:${pos.server.port}` });
    expect(await call(page, 'session.operator', { key: OPERATOR_KEY })).toMatchObject({
      installments: { max: 12, min_installment_amount: 500 },
    });
    const store = await posRig({ noPinpad: true, config: { installments: { max: 6, minInstallmentAmount: 2_000 } } });
    try {
      expect(await call(await store.connect(), 'session.operator', { key: OPERATOR_KEY })).toMatchObject({
        installments: { max: 6, min_installment_amount: 2_000 },
      });
    } finally {
      await store.close();
    }
  });

  it('refuses a wrong key, and the right key from any other web page (OPERATOR_ONLY)', async () => {
    const page = await pos.connect({ origin: `http://127.0.0.1:${pos.server.port}` });
    expect(await refused(page, 'session.operator', { key: `${OPERATOR_KEY}x` })).toMatchObject({
      code: 'OPERATOR_ONLY',
    });
    expect(await refused(page, 'session.operator', { key: 'short' })).toMatchObject({ code: 'OPERATOR_ONLY' });
    const foreign = await pos.connect({ origin: 'https://pos.loja.example' });
    expect(await refused(foreign, 'session.operator', { key: OPERATOR_KEY })).toMatchObject({ code: 'OPERATOR_ONLY' });
    expect(await refused(foreign, 'operator.pairings')).toMatchObject({ code: 'OPERATOR_ONLY' });
  });

  it('is not counted among the POS connections', async () => {
    const own = await rigWithOneOfEach();
    try {
      expect((await call(own.window, 'agent.status')).clients_connected).toBe(1);
    } finally {
      await own.close();
    }
  });

  it('keeps every operator method from a paired POS and from a connection that did not log in', async () => {
    const posClient = await pos.paired('Caixa curioso');
    const anonymous = await pos.connect();
    for (const [method, params] of [
      ['operator.pairings', {}],
      ['operator.clients', {}],
      ['operator.rejectPairing', { pairing_id: 'x' }],
      ['operator.revokeClient', { client_id: 'x' }],
      ['operator.blockOrigin', { origin: 'https://a.example' }],
      ['operator.unblockOrigin', { origin: 'https://a.example' }],
    ] as const) {
      expect(await refused(posClient, method, params)).toMatchObject({ code: 'OPERATOR_ONLY' });
      expect(await refused(anonymous, method, params)).toMatchObject({ code: 'OPERATOR_ONLY' });
    }
  });
});

describe('pairing from the window', () => {
  let window: RpcClient;
  beforeAll(async () => {
    window = await pos.operator();
  });

  it('shows the code of a request to the window alone, and its end when the POS sends the code back', async () => {
    const bystander = await pos.paired('Caixa vizinho');
    const newcomer = await pos.connect({ origin: 'https://pos.loja.example' });
    const { pairing_id } = await call(newcomer, 'session.pair', { name: 'Caixa novo' });
    const shown = await event(window, 'pairing.requested', (p) => p.pairing_id === pairing_id);
    expect(shown).toMatchObject({
      name: 'Caixa novo',
      origin: 'https://pos.loja.example',
      code: pos.announced.at(-1)!.code,
    });
    expect((await call(window, 'operator.pairings')).pairings.map((p) => p.pairing_id)).toContain(pairing_id);
    const { client_id } = await call(newcomer, 'session.confirmPairing', { pairing_id, code: shown.code as string });
    const ended = await event(window, 'pairing.ended', (p) => p.pairing_id === pairing_id);
    expect(ended).toMatchObject({ state: 'completed', client: { client_id, name: 'Caixa novo', connected: 1 } });
    expect((await call(window, 'operator.pairings')).pairings.map((p) => p.pairing_id)).not.toContain(pairing_id);
    // No code ever reached a POS.
    expect(JSON.stringify([...bystander.notifications, ...newcomer.notifications])).not.toContain(shown.code as string);
    expect(bystander.events('pairing.requested')).toEqual([]);
  });

  it('refuses a request for the cashier: the code stops working', async () => {
    const newcomer = await pos.connect({ origin: 'https://outro.loja.example' });
    const { pairing_id } = await call(newcomer, 'session.pair', { name: 'Caixa desconhecido' });
    const shown = await event(window, 'pairing.requested', (p) => p.pairing_id === pairing_id);
    expect(await call(window, 'operator.rejectPairing', { pairing_id })).toEqual({});
    expect(await event(window, 'pairing.ended', (p) => p.pairing_id === pairing_id)).toMatchObject({
      state: 'rejected',
      client: null,
    });
    expect(await refused(newcomer, 'session.confirmPairing', { pairing_id, code: shown.code as string })).toMatchObject(
      {
        code: 'PAIRING_INVALID',
        reason: 'PAIRING_REJECTED',
      },
    );
    expect(await refused(window, 'operator.rejectPairing', { pairing_id: 'nope' })).toMatchObject({
      code: 'PAIRING_INVALID',
      reason: 'PAIRING_NOT_FOUND',
    });
  });
});

describe('paired clients from the window', () => {
  it('lists them with their open connections, and tells the window as POSes come and go', async () => {
    const window = await pos.operator();
    const caixa = await pos.paired('Caixa listado');
    const listed = await call(window, 'operator.clients');
    expect(listed.clients.find((c) => c.name === 'Caixa listado')).toMatchObject({ connected: 1, revoked_at: null });
    await caixa.close();
    await event(window, 'pos.clients', (p) =>
      (p.clients as { name: string; connected: number }[]).some((c) => c.name === 'Caixa listado' && c.connected === 0),
    );
  });

  it('revokes one: its connections close with 4004 and its token stops working', async () => {
    const window = await pos.operator();
    const caixa = await pos.paired('Caixa revogado');
    const { client_id } = await call(caixa, 'agent.info')
      .then(() => call(window, 'operator.clients'))
      .then((l) => l.clients.find((c) => c.name === 'Caixa revogado')!);
    expect(await call(window, 'operator.revokeClient', { client_id })).toMatchObject({
      client_id,
      revoked_at: expect.any(String) as unknown,
    });
    expect((await caixa.closed).code).toBe(4004);
    const again = await pos.connect();
    expect(await refused(again, 'session.hello', { token: caixa.token! })).toMatchObject({ code: 'TOKEN_INVALID' });
    expect(await refused(window, 'operator.revokeClient', { client_id: 'cli_none' })).toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('blocks a web origin (its open connections close with 4003) and unblocks it', async () => {
    const window = await pos.operator();
    const page = await pos.paired('Caixa bloqueado', { origin: 'https://bloqueado.example' });
    expect(await call(window, 'operator.blockOrigin', { origin: 'HTTPS://Bloqueado.Example:443' })).toEqual({
      origin: 'https://bloqueado.example',
    });
    expect((await page.closed).code).toBe(4003);
    expect((await call(window, 'operator.clients')).blocked_origins.map((b) => b.origin)).toContain(
      'https://bloqueado.example',
    );
    expect(await call(window, 'operator.unblockOrigin', { origin: 'https://bloqueado.example' })).toEqual({
      origin: 'https://bloqueado.example',
    });
    expect(await refused(window, 'operator.blockOrigin', { origin: 'not an origin' })).toMatchObject({
      code: 'INVALID_PARAMS',
    });
  });
});

describe('a test print from the window', () => {
  it('prints the test slip on the named printer, and refuses a printer the settings do not have', async () => {
    const window = await pos.operator();
    const job = await call(window, 'operator.testPrint', {});
    expect(job).toMatchObject({ printer: 'default' });
    await expect.poll(() => pos.printedJobs().length, { timeout: 10_000 }).toBeGreaterThan(0);
    const printed = pos
      .printedJobs()
      .flatMap((file) => decodeEscPos(readFileSync(file)).lines.map((line) => line.text))
      .join('\n');
    expect(printed).toContain('TESTE DE IMPRESSÃO');
    expect(printed).toContain('Acentos: ÁÉÍÓÚ');
    expect(await refused(window, 'operator.testPrint', { printer: 'cozinha' })).toMatchObject({ code: 'NOT_FOUND' });
    const posClient = await pos.paired('Caixa impressor');
    expect(await refused(posClient, 'operator.testPrint', {})).toMatchObject({ code: 'OPERATOR_ONLY' });
  });
});

describe('payments in the window', () => {
  it('sees the progress and the result of a sale a POS started, which another POS does not', async () => {
    const window = await pos.operator();
    const caixa = await pos.paired('Caixa vendendo');
    const other = await pos.paired('Outro caixa');
    const outcome = await call(caixa, 'payment.start', {
      reference_id: 'window-1',
      amount: 2200,
      payment_type: 'credit',
      installments: 1,
      description: 'Janela',
    });
    expect(outcome.status).toBe('approved');
    await event(window, 'payment.progress', (p) => p.reference_id === 'window-1' && p.step === 'waiting_card');
    expect(await event(window, 'payment.result', (p) => p.reference_id === 'window-1')).toMatchObject({
      status: 'approved',
      amount: 2200,
    });
    expect(
      other.events('payment.progress').filter((p) => (p as { reference_id: string }).reference_id === 'window-1'),
    ).toEqual([]);
  });

  it('runs a training sale of its own, whose steps every session may see', async () => {
    const window = await pos.operator();
    const outcome = await call(window, 'payment.start', {
      reference_id: 'window-own-1',
      amount: 990,
      payment_type: 'credit',
      installments: 1,
      description: 'Venda de teste',
    });
    expect(outcome).toMatchObject({ status: 'approved', amount: 990 });
    expect(await call(window, 'payment.status', { reference_id: 'window-own-1' })).toMatchObject({
      status: 'Processed',
    });
  });
});

describe('operator.blockProgram', () => {
  it('refuses what it cannot or must not block: an unknown request, Pinbridge itself, a program it could not tell', async () => {
    const window = await pos.operator();
    expect(await refused(window, 'operator.blockProgram', { pairing_id: 'pair_unknown' })).toMatchObject({
      code: 'NOT_FOUND',
    });
    // This spec's own connections are the agent's own process.
    const self = await pos.connect();
    const { pairing_id: own } = await call(self, 'session.pair', { name: 'Eu mesmo' });
    expect(await refused(window, 'operator.blockProgram', { pairing_id: own })).toMatchObject({
      code: 'INVALID_STATE',
      reason: 'OWN_PROGRAM',
    });
    await call(window, 'operator.rejectPairing', { pairing_id: own });

    const blind = await posRig({ noPinpad: true, peerFinder: NO_PEER_FINDER });
    try {
      const blindWindow = await blind.operator();
      const unknown = await blind.connect();
      const { pairing_id: unseen } = await call(unknown, 'session.pair', { name: 'Quem?' });
      expect((await call(blindWindow, 'operator.pairings')).pairings[0]).toMatchObject({ program: null });
      expect(await refused(blindWindow, 'operator.blockProgram', { pairing_id: unseen })).toMatchObject({
        code: 'INVALID_STATE',
        reason: 'PROGRAM_UNKNOWN',
      });
    } finally {
      await blind.close();
    }
    expect(await refused(window, 'operator.unblockProgram', { program_id: 'prg_0000000000000000' })).toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
