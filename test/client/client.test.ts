/**
 * PinbridgeClient against a real JSON-RPC WebSocket server on 127.0.0.1 (fake-agent.ts), with the
 * `ws` package's WebSocket as the client's: typed calls, error mapping, hello and pairing,
 * reconnection, payment recovery after a lost answer, refusals (4003/4001/4004) and timeouts.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import {
  defaultUrls,
  PinbridgeClient,
  PinbridgeError,
  type ClientState,
  type PinbridgeClientOptions,
} from '../../client/index.js';
import { POS_ERRORS, PosError, type ParamsOf, type ResultOf } from '../../main/pos/protocol/index.js';
import { FakeAgent, PAIRING_CODE, never, outcome } from './fake-agent.js';

const agents: FakeAgent[] = [];
const clients: PinbridgeClient[] = [];
const servers: WebSocketServer[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
  for (const agent of agents.splice(0)) {
    await agent.stop();
    expect(agent.contractBreaches, 'what the fake agent sent must follow the protocol').toEqual([]);
  }
});

const TOKEN = 'token-of-caixa-1';

async function startAgent(options: { paired?: boolean } = {}): Promise<FakeAgent> {
  const agent = await FakeAgent.start();
  if (options.paired === true) agent.tokens.set(TOKEN, { client_id: 'client-1', name: 'Caixa 1' });
  agents.push(agent);
  return agent;
}

function newClient(agent: FakeAgent | null, options: PinbridgeClientOptions = {}): PinbridgeClient {
  const client = new PinbridgeClient({
    ...(agent === null ? {} : { url: agent.url }),
    WebSocket,
    requestTimeoutMs: 2_000,
    reconnect: { minDelayMs: 20, maxDelayMs: 100 },
    ...options,
  });
  clients.push(client);
  return client;
}

function recordStates(client: PinbridgeClient): ClientState[] {
  const states: ClientState[] = [];
  client.on('state', (state) => states.push(state));
  return states;
}

async function until(predicate: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function rejection(promise: Promise<unknown>): Promise<PinbridgeError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(PinbridgeError);
    return error as PinbridgeError;
  }
  throw new Error('expected a rejection');
}

/** A port nobody listens on (taken, then freed). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const START: ParamsOf<'payment.start'> = {
  reference_id: 'sale-1',
  amount: 1234,
  payment_type: 'credit',
  installments: 2,
  description: 'Pedido 1',
  notification: 'Caixa 1',
};

describe('connecting', () => {
  it('connects anonymously after checking the agent is Pinbridge (agent.info): state open', async () => {
    const agent = await startAgent();
    const client = newClient(agent);
    const states = recordStates(client);
    expect(client.state).toBe('idle');

    await client.connect();

    expect(states).toEqual(['connecting', 'open']);
    expect(client.agentInfo).toMatchObject({ name: 'Pinbridge', protocol: 1, mode: 'training' });
    expect(agent.requests.map((request) => request.method)).toEqual(['agent.info']);
  });

  it('says hello with the token: state ready, and the missed results arrive as payment.result events', async () => {
    const agent = await startAgent({ paired: true });
    const missed = outcome({ reference_id: 'sale-while-away' });
    agent.missedResults.set('client-1', [missed]);
    const client = newClient(agent, { token: TOKEN });
    const results: unknown[] = [];
    client.on('payment.result', (result) => results.push(result));

    await client.connect();

    expect(client.state).toBe('ready');
    expect(client.clientId).toBe('client-1');
    expect(client.clientName).toBe('Caixa 1');
    expect(agent.received('session.hello').map((request) => request.params)).toEqual([{ token: TOKEN }]);
    expect(results).toEqual([missed]);
  });

  it('a rejected token: connect() rejects TOKEN_INVALID, onToken(null), and the connection stays open to pair again', async () => {
    const agent = await startAgent();
    const tokens: (string | null)[] = [];
    const client = newClient(agent, { token: 'revoked-long-ago', onToken: (token) => tokens.push(token) });

    const error = await rejection(client.connect());

    expect(error.code).toBe('TOKEN_INVALID');
    expect(error.rpcCode).toBe(POS_ERRORS.TOKEN_INVALID.rpc);
    expect(tokens).toEqual([null]);
    expect(client.token).toBeNull();
    expect(client.state).toBe('open');
    await expect(client.pair('Caixa 1')).resolves.toMatchObject({ code_length: 6 });
  });

  it('tries the URLs in order: a port where nothing listens is skipped', async () => {
    const agent = await startAgent();
    const dead = `ws://127.0.0.1:${await deadPort()}/pos`;
    const client = newClient(null, { urls: [dead, agent.url] });

    await client.connect();

    expect(client.state).toBe('open');
    expect(client.url).toBe(agent.url);
  });

  it('skips a WebSocket server that is not Pinbridge', async () => {
    const other = new WebSocketServer({ host: '127.0.0.1', port: 0, path: '/pos' });
    servers.push(other);
    await new Promise((resolve) => other.once('listening', resolve));
    other.on('connection', (socket) =>
      socket.on('message', (data) => {
        const { id } = JSON.parse((data as Buffer).toString('utf8')) as { id: number };
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, result: { name: 'SomethingElse' } }));
      }),
    );
    const otherUrl = `ws://127.0.0.1:${(other.address() as { port: number }).port}/pos`;
    const agent = await startAgent();
    const client = newClient(null, { urls: [otherUrl, agent.url] });

    await client.connect();

    expect(client.url).toBe(agent.url);
  });

  it('no agent anywhere: connect() rejects AGENT_UNREACHABLE and the client is closed (not retrying)', async () => {
    const client = newClient(null, {
      urls: [`ws://127.0.0.1:${await deadPort()}/pos`, `ws://127.0.0.1:${await deadPort()}/pos`],
    });

    const error = await rejection(client.connect());

    expect(error.code).toBe('AGENT_UNREACHABLE');
    expect(error.cashierMessage).toMatch(/Pinbridge não encontrado/);
    expect(client.state).toBe('closed');
  });

  it('the default URLs are the protocol ports on loopback, in order', () => {
    // Built without connecting: the URLs are only checked for their form here.
    const client = newClient(null);
    expect(client.url).toBe('ws://127.0.0.1:17301/pos');
    expect(defaultUrls()).toEqual(['ws://127.0.0.1:17301/pos', 'ws://127.0.0.1:17302/pos', 'ws://127.0.0.1:17303/pos']);
  });

  it('with `secure`, the defaults are wss://localhost, the name of the certificate `pinbridge pos cert` makes', () => {
    expect(newClient(null, { secure: true }).url).toBe('wss://localhost:17301/pos');
    expect(defaultUrls(true)).toEqual([
      'wss://localhost:17301/pos',
      'wss://localhost:17302/pos',
      'wss://localhost:17303/pos',
    ]);
  });
});

describe('calls', () => {
  it('are typed from the protocol and return the result', async () => {
    const agent = await startAgent({ paired: true });
    const pinpad = {
      serial_number: 'SIM0001',
      manufacturer: 'Pinbridge',
      model: 'SIM',
      firmware: '1.0',
      address: 'sim',
      connected: true,
      busy: false,
      payment_reference: null,
      tables: null,
    };
    agent.handle('pinpad.list', () => ({ pinpads: [pinpad] }));
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    const listed = await client.call('pinpad.list', {});

    expect(listed).toEqual({ pinpads: [pinpad] });
    expectTypeOf(listed).toEqualTypeOf<ResultOf<'pinpad.list'>>();
    expectTypeOf<PinbridgeClient['pay']>().returns.resolves.toEqualTypeOf<ResultOf<'payment.start'>>();
    // Checked by the type checker only: wrong names and params do not compile.
    const _typeErrors = (): void => {
      // @ts-expect-error unknown method
      void client.call('payment.begin', {});
      // @ts-expect-error reference_id is required
      void client.call('payment.status', { reference: 'sale-1' });
    };
  });

  it('map the agent error object to PinbridgeError: code, rpcCode, data and the cashier message', async () => {
    const agent = await startAgent({ paired: true });
    agent.handle('payment.cancel', () => {
      throw new PosError('INVALID_STATE', 'Already approved and confirmed');
    });
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    const error = await rejection(client.call('payment.cancel', { reference_id: 'sale-1' }));

    expect(error.code).toBe('INVALID_STATE');
    expect(error.message).toBe('Already approved and confirmed');
    expect(error.rpcCode).toBe(-32014);
    expect(error.cashierMessage).toBe(POS_ERRORS.INVALID_STATE.cashier);
    expect(error.data).toEqual({ code: 'INVALID_STATE', cashier_message: POS_ERRORS.INVALID_STATE.cashier });
  });

  it('bring the violations of INVALID_PARAMS', async () => {
    const agent = await startAgent({ paired: true });
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    const error = await rejection(client.call('pinpad.display', { text: 'x'.repeat(40) }));

    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.data?.violations?.map((violation) => violation.field)).toEqual(['text']);
  });

  it('answer UNAUTHENTICATED before hello (anonymous connection)', async () => {
    const agent = await startAgent();
    const client = newClient(agent);
    await client.connect();

    const error = await rejection(client.call('agent.status', {}));

    expect(error.code).toBe('UNAUTHENTICATED');
  });

  it('reject CONNECTION_LOST at once when not connected, sending nothing', async () => {
    const agent = await startAgent();
    const client = newClient(agent);

    const error = await rejection(client.call('agent.info', {}));

    expect(error.code).toBe('CONNECTION_LOST');
    expect(agent.connections).toBe(0);
  });

  it('time out after requestTimeoutMs (TIMEOUT); a late answer is ignored and the client goes on', async () => {
    const agent = await startAgent({ paired: true });
    agent.handle('agent.status', async () => {
      await sleep(300);
      return {
        pinpads: [],
        pinpad_link: null,
        printers: [],
        api: { state: 'up', since: null, last_error: null },
        disk: {
          state: 'ok',
          since: '2026-01-01T00:00:00.000Z',
          sources: [],
          code: null,
          sales_refused: false,
          message: 'the disk takes writes',
          cashier_message: '',
        },
        clients_connected: 1,
      };
    });
    const client = newClient(agent, { token: TOKEN, requestTimeoutMs: 100 });
    await client.connect();

    const error = await rejection(client.call('agent.status', {}));
    expect(error.code).toBe('TIMEOUT');

    await sleep(300);
    agent.handle('pinpad.list', () => ({ pinpads: [] }));
    await expect(client.call('pinpad.list', {})).resolves.toEqual({ pinpads: [] });
    expect(client.state).toBe('ready');
  });

  it('payment.start waits beyond the request timeout: a payment takes as long as it takes', async () => {
    const agent = await startAgent({ paired: true });
    agent.handle('payment.start', async (params) => {
      await sleep(400);
      return outcome({ reference_id: params.reference_id });
    });
    const client = newClient(agent, { token: TOKEN, requestTimeoutMs: 100 });
    await client.connect();

    await expect(client.pay(START)).resolves.toMatchObject({ status: 'approved', reference_id: 'sale-1' });
  });

  it('payment.cancel waits beyond the request timeout: the supervisor may be typing the PIN on the PINPAD (60 s)', async () => {
    const agent = await startAgent({ paired: true });
    agent.handle('payment.cancel', async (params) => {
      await sleep(400);
      return outcome({ reference_id: params.reference_id, status: 'cancelled' });
    });
    const client = newClient(agent, { token: TOKEN, requestTimeoutMs: 100 });
    await client.connect();

    await expect(
      client.call('payment.cancel', { reference_id: 'sale-1', supervisor_entry: 'pinpad' }),
    ).resolves.toMatchObject({ status: 'cancelled' });
  });
});

describe('pairing', () => {
  it('pair, a wrong code (WRONG_CODE, attempts left), the right code: token kept, onToken called, ready', async () => {
    const agent = await startAgent();
    const tokens: (string | null)[] = [];
    const client = newClient(agent, { onToken: (token) => tokens.push(token) });
    await client.connect();

    const started = await client.pair('Caixa 3 — Loja Centro');
    expect(started).toMatchObject({ pairing_id: 'pairing-1', code_length: 6 });

    const wrong = await rejection(client.confirmPairing('000000'));
    expect(wrong.code).toBe('WRONG_CODE');
    expect(wrong.data?.attempts_left).toBe(2);

    // Spaces are the cashier's, not the code's.
    await expect(client.confirmPairing(`${PAIRING_CODE.slice(0, 3)} ${PAIRING_CODE.slice(3)}`)).resolves.toEqual({
      clientId: 'client-1',
      name: 'Caixa 3 — Loja Centro',
    });
    expect(agent.received('session.confirmPairing').at(-1)?.params).toEqual({
      pairing_id: 'pairing-1',
      code: PAIRING_CODE,
    });
    expect(tokens).toEqual(['token-client-1']);
    expect(client.token).toBe('token-client-1');
    expect(client.state).toBe('ready');
    agent.handle('pinpad.list', () => ({ pinpads: [] }));
    await expect(client.call('pinpad.list', {})).resolves.toEqual({ pinpads: [] });

    // The next connection (another page load) logs in with the stored token.
    const later = newClient(agent, { token: tokens[0] ?? null });
    await later.connect();
    expect(later.state).toBe('ready');
  });

  it('sends the code as six digits however the cashier typed it: hyphen, dot, full-width digits', async () => {
    const agent = await startAgent();
    const wide = [...PAIRING_CODE].map((digit) => String.fromCodePoint(0xff10 + Number(digit))).join('');
    for (const typed of [
      `${PAIRING_CODE.slice(0, 3)}-${PAIRING_CODE.slice(3)}`,
      ` ${PAIRING_CODE.slice(0, 3)}.${PAIRING_CODE.slice(3)}`,
      wide,
    ]) {
      const client = newClient(agent);
      await client.connect();
      await client.pair('Caixa 3');
      await client.confirmPairing(typed);
      expect(agent.received('session.confirmPairing').at(-1)?.params, typed).toMatchObject({ code: PAIRING_CODE });
      client.close();
    }
  });

  it('confirmPairing before pair fails here, without a request', async () => {
    const agent = await startAgent();
    const client = newClient(agent);
    await client.connect();

    const error = await rejection(client.confirmPairing(PAIRING_CODE));

    expect(error.code).toBe('PAIRING_INVALID');
    expect(agent.received('session.confirmPairing')).toEqual([]);
  });

  it('unpair forgets the token (onToken(null)) and reconnects anonymously', async () => {
    const agent = await startAgent({ paired: true });
    const tokens: (string | null)[] = [];
    const client = newClient(agent, { token: TOKEN, onToken: (token) => tokens.push(token) });
    await client.connect();

    await client.unpair();

    expect(tokens).toEqual([null]);
    expect(client.state).toBe('open');
    expect(agent.connections).toBe(2);
    expect(agent.received('session.hello')).toHaveLength(1);
  });
});

describe('reconnecting', () => {
  it('after the agent drops the socket: waiting calls reject CONNECTION_LOST, then it reconnects and says hello again', async () => {
    const agent = await startAgent({ paired: true });
    agent.handle('agent.status', never);
    const client = newClient(agent, { token: TOKEN });
    const states = recordStates(client);
    await client.connect();

    const waiting = client.call('agent.status', {});
    await agent.waitForRequests('agent.status');
    agent.dropAll();

    expect((await rejection(waiting)).code).toBe('CONNECTION_LOST');
    expect(client.state).toBe('reconnecting');
    expect((await rejection(client.call('pinpad.list', {}))).code).toBe('CONNECTION_LOST');

    await until(() => client.state === 'ready', 'ready again');
    expect(states).toEqual(['connecting', 'ready', 'reconnecting', 'ready']);
    expect(agent.received('session.hello')).toHaveLength(2);
    expect(agent.connections).toBe(2);
  });

  it('when the agent stops (1001) and starts again on the same port: closed event, retries, ready', async () => {
    const agent = await startAgent({ paired: true });
    const client = newClient(agent, { token: TOKEN });
    const closes: unknown[] = [];
    client.on('closed', (event) => closes.push(event));
    await client.connect();

    await agent.stop(1001, 'AGENT_STOPPING');
    await until(() => client.state === 'reconnecting', 'reconnecting');
    await sleep(250); // a few failed attempts against the closed port
    expect(client.state).toBe('reconnecting');
    await agent.listen();

    await until(() => client.state === 'ready', 'ready after the restart');
    expect(closes).toEqual([{ code: 1001, reason: 'AGENT_STOPPING' }]);
  });

  it('reconnect: false → closed after a drop', async () => {
    const agent = await startAgent();
    const client = newClient(agent, { reconnect: false });
    await client.connect();

    agent.dropAll();

    await until(() => client.state === 'closed', 'closed');
    await sleep(100);
    expect(agent.connections).toBe(1);
  });

  it('connect() while reconnecting tries at once', async () => {
    const agent = await startAgent();
    const client = newClient(agent, { reconnect: { minDelayMs: 60_000, maxDelayMs: 60_000 } });
    await client.connect();
    agent.dropAll();
    await until(() => client.state === 'reconnecting', 'reconnecting');

    await client.connect();

    expect(client.state).toBe('open');
  });
});

describe('pay recovers a payment whose answer was lost', () => {
  /** payment.start reaches the agent, then the connection dies before the answer. */
  function loseTheFirstStart(
    agent: FakeAgent,
    then: (params: ParamsOf<'payment.start'>) => Promise<ResultOf<'payment.start'>>,
  ): void {
    let starts = 0;
    agent.handle('payment.start', (params, session) => {
      starts += 1;
      if (starts > 1) return then(params);
      session.socket.terminate();
      return never();
    });
  }

  it('Processed: after reconnecting and hello, payment.status gives the result', async () => {
    const agent = await startAgent({ paired: true });
    const result = outcome({ reference_id: START.reference_id });
    loseTheFirstStart(agent, () => Promise.reject(new Error('must not start twice')));
    agent.handle('payment.status', () => ({
      status: 'Processed',
      result,
      receipts: { customer: 'VIA CLIENTE', merchant: 'VIA LOJA' },
    }));
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    await expect(client.pay(START)).resolves.toEqual(result);

    expect(agent.received('payment.start')).toHaveLength(1);
    const methods = agent.requests.map((request) => request.method);
    expect(methods.slice(methods.indexOf('payment.start'))).toEqual([
      'payment.start',
      'agent.info',
      'session.hello',
      'payment.status',
    ]);
    expect(agent.received('payment.status')[0]?.params).toEqual({ reference_id: 'sale-1' });
  });

  it('InProgress: waits for the payment.result event of that reference (not of another)', async () => {
    const agent = await startAgent({ paired: true });
    loseTheFirstStart(agent, () => Promise.reject(new Error('must not start twice')));
    agent.handle('payment.status', () => ({ status: 'InProgress', payment_id: 'pay-1', state: 'authorizing' }));
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    let settled = false;
    const paying = client.pay(START).finally(() => (settled = true));
    await agent.waitForRequests('payment.status');
    agent.notifyAll('payment.result', outcome({ reference_id: 'another-sale', payment_id: 'pay-9' }));
    await sleep(50);
    expect(settled).toBe(false);

    const result = outcome({
      reference_id: START.reference_id,
      status: 'declined',
      confirmation: null,
      state: 'declined',
    });
    agent.notifyAll('payment.result', result);

    await expect(paying).resolves.toEqual(result);
    expect(agent.received('payment.start')).toHaveLength(1);
  });

  it('InProgress without an event: asks payment.status again every 2 s until Processed', async () => {
    const agent = await startAgent({ paired: true });
    loseTheFirstStart(agent, () => Promise.reject(new Error('must not start twice')));
    const result = outcome({ reference_id: START.reference_id });
    let asked = 0;
    agent.handle('payment.status', () => {
      asked += 1;
      return asked === 1
        ? { status: 'InProgress', payment_id: 'pay-1', state: 'card_read' }
        : { status: 'Processed', result, receipts: null };
    });
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    const startedAt = Date.now();
    await expect(client.pay(START)).resolves.toEqual(result);

    expect(asked).toBe(2);
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_900);
  });

  it('InProgress with the stalled outcome: ends with it at once instead of waiting for a result that waits on the API or the disk', async () => {
    const agent = await startAgent({ paired: true });
    loseTheFirstStart(agent, () => Promise.reject(new Error('must not start twice')));
    const stalled = outcome({
      reference_id: START.reference_id,
      status: 'in_progress',
      state: 'authorizing',
      confirmation: null,
      problem: {
        code: 'RESULT_PENDING',
        message: 'The result is not known yet',
        cashier_message: 'Não cobre de novo: o resultado está sendo confirmado.',
      },
    });
    agent.handle('payment.status', () => ({
      status: 'InProgress',
      payment_id: 'pay-1',
      state: 'authorizing',
      result: stalled,
    }));
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    await expect(client.pay(START)).resolves.toEqual(stalled);

    expect(agent.received('payment.status')).toHaveLength(1);
    expect(agent.received('payment.start')).toHaveLength(1);
  });

  it('NotFound: the start never arrived, so it is sent again with the same params', async () => {
    const agent = await startAgent({ paired: true });
    const result = outcome({ reference_id: START.reference_id });
    loseTheFirstStart(agent, () => Promise.resolve(result));
    agent.handle('payment.status', () => ({ status: 'NotFound' }));
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    await expect(client.pay(START)).resolves.toEqual(result);

    const starts = agent.received('payment.start');
    expect(starts).toHaveLength(2);
    expect(starts[1]?.params).toEqual(starts[0]?.params);
    expect(starts[0]?.params).toEqual(START);
    expect(starts[1]?.sessionId).not.toBe(starts[0]?.sessionId);
  });

  it('a result among the missed results of hello settles it without asking', async () => {
    const agent = await startAgent({ paired: true });
    const result = outcome({ reference_id: START.reference_id });
    agent.handle('payment.start', (_params, session) => {
      agent.missedResults.set('client-1', [result]);
      session.socket.terminate();
      return never();
    });
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    await expect(client.pay(START)).resolves.toEqual(result);

    expect(agent.received('payment.status')).toEqual([]);
  });

  it("the agent's answer to the start is final: BUSY rejects, nothing is retried", async () => {
    const agent = await startAgent({ paired: true });
    agent.handle('payment.start', () => {
      throw new PosError('BUSY');
    });
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    expect((await rejection(client.pay(START))).code).toBe('BUSY');
    expect(agent.received('payment.start')).toHaveLength(1);
    expect(agent.received('payment.status')).toEqual([]);
  });

  it('close() during recovery rejects the payment with CONNECTION_LOST', async () => {
    const agent = await startAgent({ paired: true });
    loseTheFirstStart(agent, never);
    const client = newClient(agent, { token: TOKEN, reconnect: { minDelayMs: 60_000, maxDelayMs: 60_000 } });
    await client.connect();

    const paying = client.pay(START);
    await until(() => client.state === 'reconnecting', 'reconnecting');
    client.close();

    expect((await rejection(paying)).code).toBe('CONNECTION_LOST');
  });
});

describe('refusals by the agent', () => {
  it('4003 at connect: ORIGIN_BLOCKED, state blocked, no retry', async () => {
    const agent = await startAgent();
    agent.refuseWith = { code: 4003, reason: 'ORIGIN_BLOCKED' };
    const client = newClient(agent);

    const error = await rejection(client.connect());

    expect(error.code).toBe('ORIGIN_BLOCKED');
    expect(error.cashierMessage).toBe(POS_ERRORS.ORIGIN_BLOCKED.cashier);
    expect(client.state).toBe('blocked');
    await sleep(200);
    expect(agent.connections).toBe(1);
  });

  it('4003 while connected: blocked, waiting payments fail with ORIGIN_BLOCKED, no retry', async () => {
    const agent = await startAgent({ paired: true });
    agent.handle('payment.start', (_params, session) => {
      session.socket.close(4003, 'ORIGIN_BLOCKED');
      return never();
    });
    const client = newClient(agent, { token: TOKEN });
    await client.connect();

    expect((await rejection(client.pay(START))).code).toBe('ORIGIN_BLOCKED');
    expect(client.state).toBe('blocked');
    await sleep(200);
    expect(agent.connections).toBe(1);
  });

  it('4001: ORIGIN_NOT_ALLOWED, blocked', async () => {
    const agent = await startAgent();
    agent.refuseWith = { code: 4001, reason: 'ORIGIN_NOT_ALLOWED' };
    const client = newClient(agent);

    expect((await rejection(client.connect())).code).toBe('ORIGIN_NOT_ALLOWED');
    expect(client.state).toBe('blocked');
  });

  it('4004: the token is forgotten (onToken(null)), a waiting payment fails TOKEN_REVOKED, it reconnects anonymously', async () => {
    const agent = await startAgent({ paired: true });
    agent.handle('payment.start', (_params, session) => {
      session.socket.close(4004, 'TOKEN_REVOKED');
      return never();
    });
    const tokens: (string | null)[] = [];
    const client = newClient(agent, { token: TOKEN, onToken: (token) => tokens.push(token) });
    await client.connect();

    const error = await rejection(client.pay(START));

    expect(error.code).toBe('TOKEN_REVOKED');
    expect(tokens).toEqual([null]);
    expect(client.token).toBeNull();
    await until(() => client.state === 'open', 'open, anonymous');
    expect(agent.received('session.hello')).toHaveLength(1);
  });
});

describe('events', () => {
  it('notifications reach their typed listeners until off; closed tells code and reason', async () => {
    const agent = await startAgent({ paired: true });
    const client = newClient(agent, { token: TOKEN, reconnect: false });
    const messages: string[] = [];
    const listener = (progress: { cashier_message: string }): void => {
      messages.push(progress.cashier_message);
    };
    client.on('payment.progress', listener);
    const closes: unknown[] = [];
    client.on('closed', (event) => closes.push(event));
    await client.connect();

    const progress = {
      payment_id: 'pay-1',
      reference_id: 'sale-1',
      terminal: 'SIM0001',
      step: 'waiting_card',
      state: 'created',
      phase: 'in_progress',
      message: 'Waiting for the card',
      cashier_message: 'Aguardando o cartão',
      at: '2026-01-02T10:00:05.000Z',
    } as const;
    agent.notifyAll('payment.progress', progress);
    await until(() => messages.length === 1, 'the progress event');
    client.off('payment.progress', listener);
    agent.notifyAll('payment.progress', { ...progress, step: 'card_read', cashier_message: 'Cartão lido' });
    await sleep(50);
    expect(messages).toEqual(['Aguardando o cartão']);

    agent.closeAll(4000, 'test over');
    await until(() => client.state === 'closed', 'closed');
    expect(closes).toEqual([{ code: 4000, reason: 'test over' }]);
  });

  it("a notification named like the client's own events is not taken for one", async () => {
    const agent = await startAgent({ paired: true });
    const client = newClient(agent, { token: TOKEN });
    const states: ClientState[] = recordStates(client);
    await client.connect();

    for (const session of agent.sessions)
      session.socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'state', params: 'blocked' }));
    await sleep(50);

    expect(states).toEqual(['connecting', 'ready']);
  });
});

describe("Pinbridge's own window (operatorKey)", () => {
  const KEY = 'operator-key-of-this-agent';
  const installments = { max: 12, min_installment_amount: 500 };

  /** The agent's session.operator: the right key logs the session in as the window. */
  function acceptOperatorKey(agent: FakeAgent, mode: 'training' | 'live' = 'training'): void {
    agent.handle('session.operator', ({ key }, session) => {
      if (key !== KEY) throw new PosError('OPERATOR_ONLY');
      session.clientId = 'operator-window';
      return { name: 'Pinbridge', version: '0.0.0-test', mode, time_zone: 'America/Sao_Paulo', installments };
    });
  }

  it('logs in with session.operator on every connection, never with hello or the token: state ready', async () => {
    const agent = await startAgent({ paired: true });
    acceptOperatorKey(agent, 'live');
    agent.handle('pinpad.list', () => ({ pinpads: [] }));
    const client = newClient(agent, { operatorKey: KEY, token: TOKEN });
    const states = recordStates(client);
    expect(client.operator).toBeNull();

    await client.connect();

    expect(states).toEqual(['connecting', 'ready']);
    expect(client.operator).toEqual({
      name: 'Pinbridge',
      version: '0.0.0-test',
      mode: 'live',
      time_zone: 'America/Sao_Paulo',
      installments,
    });
    expect(agent.requests.map((request) => request.method)).toEqual(['agent.info', 'session.operator']);
    expect(agent.received('session.operator')[0]?.params).toEqual({ key: KEY });
    await expect(client.call('pinpad.list', {})).resolves.toEqual({ pinpads: [] });

    agent.dropAll();
    await until(() => client.state === 'reconnecting', 'reconnecting');
    expect(client.operator).toBeNull();
    await until(() => client.state === 'ready', 'ready again');

    expect(agent.received('session.operator')).toHaveLength(2);
    expect(agent.received('session.hello')).toEqual([]);
    expect(client.operator?.mode).toBe('live');
  });

  it('a refused key: connect() rejects OPERATOR_ONLY and the connection stays open, anonymous', async () => {
    const agent = await startAgent();
    acceptOperatorKey(agent);
    const client = newClient(agent, { operatorKey: 'a-key-from-another-install' });

    const error = await rejection(client.connect());

    expect(error.code).toBe('OPERATOR_ONLY');
    expect(error.cashierMessage).toBe(POS_ERRORS.OPERATOR_ONLY.cashier);
    expect(client.state).toBe('open');
    expect(client.operator).toBeNull();
    expect(agent.connections).toBe(1);
  });

  it('pay() recovers a payment after a lost connection by logging in with the key again', async () => {
    const agent = await startAgent();
    acceptOperatorKey(agent);
    let starts = 0;
    agent.handle('payment.start', (_params, session) => {
      starts += 1;
      session.socket.terminate();
      return never();
    });
    const result = outcome({ reference_id: START.reference_id });
    agent.handle('payment.status', () => ({ status: 'Processed', result, receipts: null }));
    const client = newClient(agent, { operatorKey: KEY });
    await client.connect();

    await expect(client.pay(START)).resolves.toEqual(result);

    expect(starts).toBe(1);
    const methods = agent.requests.map((request) => request.method);
    expect(methods.slice(methods.indexOf('payment.start'))).toEqual([
      'payment.start',
      'agent.info',
      'session.operator',
      'payment.status',
    ]);
  });

  it('pay() rejects with OPERATOR_ONLY when the key is refused after the connection was lost, instead of waiting forever', async () => {
    const agent = await startAgent();
    let accepted = true;
    agent.handle('session.operator', (_params, session) => {
      if (!accepted) throw new PosError('OPERATOR_ONLY');
      session.clientId = 'operator-window';
      return {
        name: 'Pinbridge',
        version: '0.0.0-test',
        mode: 'training',
        time_zone: 'America/Sao_Paulo',
        installments,
      };
    });
    agent.handle('payment.start', (_params, session) => {
      // The agent restarts with a new key while the payment is waiting.
      accepted = false;
      session.socket.terminate();
      return never();
    });
    const client = newClient(agent, { operatorKey: KEY });
    await client.connect();

    const error = await rejection(client.pay(START));

    expect(error.code).toBe('OPERATOR_ONLY');
    expect(client.state).toBe('open');
    expect(agent.received('payment.status')).toEqual([]);
  });
});
