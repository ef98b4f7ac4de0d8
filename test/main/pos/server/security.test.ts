/**
 * Who may talk to the POS API, and what a hostile caller gets: the promises of architecture §6
 * ("only the right callers") and anchors §8.2, each against the real server with real sockets.
 * After every attack the agent must still serve a paired POS, and no payment may be lost.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ClientStore } from '../../../../main/pos/clients/client-store.js';
import { openSocket, posRig, RpcClient, type PosRig } from '../pos-rig.js';

let pos: PosRig;
let port: number;

beforeAll(async () => {
  pos = await posRig({ rateLimit: { capacity: 200, refillPerSecond: 100 } });
  port = pos.server.port;
});
afterAll(async () => pos.close());

/** The agent still does its job: a paired POS reads the PINPAD list. */
async function stillServing(): Promise<void> {
  const client = await pos.paired('Sentinel');
  const { pinpads } = await client.call<{ pinpads: unknown[] }>('pinpad.list');
  expect(pinpads).toHaveLength(1);
  await client.close();
}

function httpGet(
  path: string,
  host: string,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers: { host } }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
      })
      .on('error', reject);
  });
}

describe('where it listens', () => {
  it('listens on loopback addresses only', () => {
    expect(pos.server.addresses.length).toBeGreaterThan(0);
    for (const address of pos.server.addresses) expect(['127.0.0.1', '::1']).toContain(address);
  });
});

describe('DNS rebinding: the Host header', () => {
  it('refuses a WebSocket upgrade whose Host is not this agent, with a machine-readable reason', async () => {
    const refused = await openSocket(pos.server.url, { Host: `evil.example:${port}` }).then(
      () => undefined,
      (error: { status?: number; body?: string }) => error,
    );
    expect(refused?.status).toBe(403);
    expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
  });

  it('refuses the right name on another port (a rebinding page on its own port)', async () => {
    const refused = await openSocket(pos.server.url, { Host: `localhost:${port + 1}` }).then(
      () => undefined,
      (error: { status?: number }) => error,
    );
    expect(refused?.status).toBe(403);
  });

  it('refuses plain HTTP requests for the demo page under a foreign Host too', async () => {
    const page = await httpGet('/demo/', `rebind.example:${port}`);
    expect(page.status).toBe(403);
    expect(JSON.parse(page.body)).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
  });

  it('accepts 127.0.0.1, localhost and [::1] with its port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const socket = await openSocket(pos.server.url, { Host: host });
      socket.close();
    }
  });
});

describe('origins', () => {
  it('closes a blocked origin at once with 4003 ORIGIN_BLOCKED, which a page can read', async () => {
    pos.clients.blockOrigin('https://evil.example');
    const client = new RpcClient(await openSocket(pos.server.url, { Origin: 'https://evil.example' }));
    expect(await client.closed).toEqual({ code: 4003, reason: 'ORIGIN_BLOCKED' });
    await stillServing();
  });

  it('closes an origin that cannot be paired ("null" from a file or sandboxed frame) with 4001', async () => {
    const client = new RpcClient(await openSocket(pos.server.url, { Origin: 'null' }));
    expect(await client.closed).toEqual({ code: 4001, reason: 'ORIGIN_NOT_ALLOWED' });
  });

  it('lets an unpaired page find the agent and ask to pair, and nothing more', async () => {
    const page = await pos.connect({ origin: 'https://unpaired.example' });
    const info = await page.call<{ name: string; authenticated: boolean }>('agent.info');
    expect(info).toMatchObject({ name: 'Pinbridge', authenticated: false });
    for (const method of [
      'payment.start',
      'payment.list',
      'pinpad.display',
      'buyer.search',
      'receipt.get',
      'agent.status',
    ]) {
      const error = await page.failure(method, {});
      expect(error.data.code, method).toBe('UNAUTHENTICATED');
    }
    // Nothing was charged and no event reached it.
    expect(pos.rig.engine.list().total).toBe(0);
    expect(page.notifications).toEqual([]);
    await page.close();
  });

  it('sends no events to a session that has not said hello', async () => {
    const anonymous = await pos.connect();
    const paired = await pos.paired('Observer');
    await paired.call('pinpad.display', { text: 'OLA' });
    await pos.registry.display(undefined, 'OLA DE NOVO');
    await paired.next('pinpad.busy');
    expect(anonymous.notifications).toEqual([]);
    await anonymous.close();
    await paired.close();
  });
});

describe('pairing', () => {
  it('shows the code to the cashier only, and gives a token that works on later connections', async () => {
    const page = await pos.connect({ origin: 'https://pos.loja.example' });
    const started = await page.call<{ pairing_id: string; code_length: number; expires_at: string }>('session.pair', {
      name: 'Caixa 7',
    });
    expect(started.code_length).toBe(6);
    const announcement = pos.announced.find((a) => a.pairingId === started.pairing_id)!;
    expect(announcement).toMatchObject({ name: 'Caixa 7', origin: 'https://pos.loja.example' });
    // The code never travels to the POS.
    expect(JSON.stringify(started)).not.toContain(announcement.code);
    const done = await page.call<{ token: string; client_id: string }>('session.confirmPairing', {
      pairing_id: started.pairing_id,
      code: announcement.code,
    });
    expect(done.token).toMatch(/^pbt_/);
    // This session is now logged in.
    await page.call('pinpad.list');
    await page.close();

    const later = await pos.connect({ origin: 'https://pos.loja.example' });
    const hello = await later.call<{ client_id: string; missed_results: unknown[] }>('session.hello', {
      token: done.token,
    });
    expect(hello).toMatchObject({ client_id: done.client_id, missed_results: [] });
    await later.call('pinpad.list');
    await later.close();
  });

  it('takes the code as the window shows it ("422 105") or as a person types it: hyphen, full-width digits', async () => {
    const fullWidth = (code: string): string =>
      [...code].map((digit) => String.fromCodePoint(0xff10 + Number(digit))).join('');
    const typings = [
      (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`,
      (code: string) => `${code.slice(0, 3)}-${code.slice(3)}`,
      // As an input method in full-width mode types it, with its own wide space.
      (code: string) => `${fullWidth(code.slice(0, 3))}\u3000${fullWidth(code.slice(3))}`,
    ];
    for (const typed of typings) {
      const page = await pos.connect();
      const started = await page.call<{ pairing_id: string }>('session.pair', { name: 'Caixa digitado' });
      const code = pos.announced.find((a) => a.pairingId === started.pairing_id)!.code;
      const done = await page.call<{ token: string }>('session.confirmPairing', {
        pairing_id: started.pairing_id,
        code: typed(code),
      });
      expect(done.token, typed(code)).toMatch(/^pbt_/);
      await page.close();
    }
  });

  it('refuses a code that is not 6 digits with INVALID_PARAMS naming it, without using up an attempt', async () => {
    const page = await pos.connect();
    const started = await page.call<{ pairing_id: string }>('session.pair', { name: 'Caixa com letra' });
    const code = pos.announced.find((a) => a.pairingId === started.pairing_id)!.code;
    for (const typed of ['12345', '1234567', '12a456', '123+456']) {
      const error = await page.failure('session.confirmPairing', { pairing_id: started.pairing_id, code: typed });
      expect(error.data, typed).toMatchObject({ code: 'INVALID_PARAMS', violations: [{ field: 'code' }] });
    }
    await page.call('session.confirmPairing', { pairing_id: started.pairing_id, code });
    await page.close();
  });

  it('refuses a replayed pairing code', async () => {
    const first = await pos.connect();
    const started = await first.call<{ pairing_id: string }>('session.pair', { name: 'Replay' });
    const code = pos.announced.find((a) => a.pairingId === started.pairing_id)!.code;
    await first.call('session.confirmPairing', { pairing_id: started.pairing_id, code });
    const attacker = await pos.connect();
    const error = await attacker.failure('session.confirmPairing', { pairing_id: started.pairing_id, code });
    expect(error.data).toMatchObject({ code: 'PAIRING_INVALID', reason: 'PAIRING_USED' });
    await first.close();
    await attacker.close();
  });

  it('counts wrong codes down and then kills the request, even for the right code', async () => {
    const page = await pos.connect();
    const started = await page.call<{ pairing_id: string }>('session.pair', { name: 'Guesser' });
    const code = pos.announced.find((a) => a.pairingId === started.pairing_id)!.code;
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await page.failure('session.confirmPairing', { pairing_id: started.pairing_id, code: wrong });
    expect(first.data).toMatchObject({ code: 'WRONG_CODE', attempts_left: 2 });
    for (let i = 0; i < 2; i++)
      await page.failure('session.confirmPairing', { pairing_id: started.pairing_id, code: wrong });
    const after = await page.failure('session.confirmPairing', { pairing_id: started.pairing_id, code });
    expect(after.data).toMatchObject({ code: 'PAIRING_INVALID', reason: 'PAIRING_FAILED' });
    await page.close();
  });

  it('will not let another origin complete a pairing it did not ask for', async () => {
    const asking = await pos.connect({ origin: 'https://caixa.example' });
    const started = await asking.call<{ pairing_id: string }>('session.pair', { name: 'Caixa' });
    const code = pos.announced.find((a) => a.pairingId === started.pairing_id)!.code;
    const thief = await pos.connect({ origin: 'https://thief.example' });
    const error = await thief.failure('session.confirmPairing', { pairing_id: started.pairing_id, code });
    expect(error.data).toMatchObject({ code: 'PAIRING_INVALID', reason: 'ORIGIN_MISMATCH' });
    await asking.close();
    await thief.close();
  });
});

describe('tokens', () => {
  it('answers no token, a wrong token and a malformed token with TOKEN_INVALID, and keeps the connection', async () => {
    const client = await pos.connect();
    expect((await client.failure('session.hello', { token: 'pbt_' + 'A'.repeat(43) })).data.code).toBe('TOKEN_INVALID');
    expect((await client.failure('session.hello', { token: 'nonsense' })).data.code).toBe('TOKEN_INVALID');
    expect((await client.failure('session.hello', {})).data.code).toBe('INVALID_PARAMS');
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    expect((await client.failure('payment.list', {})).data.code).toBe('UNAUTHENTICATED');
    await client.close();
  });

  it('binds a token to its origin: the same token from another page is refused', async () => {
    const pos1 = await pos.paired('Web POS', { origin: 'https://web-pos.example' });
    const other = await pos.connect({ origin: 'https://other.example' });
    const error = await other.failure('session.hello', { token: pos1.token });
    expect(error.data).toMatchObject({ code: 'TOKEN_INVALID', reason: 'ORIGIN_MISMATCH' });
    // Which origin it belongs to is not told.
    expect(JSON.stringify(error)).not.toContain('web-pos.example');
    // Nor from a program without an Origin.
    const program = await pos.connect();
    expect((await program.failure('session.hello', { token: pos1.token })).data.code).toBe('TOKEN_INVALID');
    await Promise.all([pos1.close(), other.close(), program.close()]);
  });

  it('stores tokens hashed: the token text is nowhere in the client list', async () => {
    const client = await pos.paired('Hash check');
    expect(JSON.stringify(pos.clients.list())).not.toContain(client.token!.slice(4));
    await client.close();
  });

  it('a revoked client is cut off: its open session is closed with 4004 and its token refused', async () => {
    const client = await pos.paired('To revoke');
    const { client_id } = await client.call<{ client_id: string }>('session.hello', { token: client.token });
    pos.clients.revoke(client_id);
    // Checked at the next request even without the window telling the server.
    const error = await client.failure('pinpad.list');
    expect(error.data).toMatchObject({ code: 'TOKEN_INVALID', reason: 'TOKEN_REVOKED' });
    expect((await client.closed).code).toBe(4004);
    const again = await pos.connect();
    expect((await again.failure('session.hello', { token: client.token })).data).toMatchObject({
      code: 'TOKEN_INVALID',
      reason: 'TOKEN_REVOKED',
    });
    await again.close();
  });

  it('a client revoked by another process on the clients file is refused at its very next request', async () => {
    const client = await pos.paired('Revoked elsewhere');
    const { client_id } = await client.call<{ client_id: string }>('session.hello', { token: client.token });
    await client.call('pinpad.list');
    await client.call('pinpad.list');
    // Another connection to the same file, as `pinbridge clients revoke` opens in its own process.
    const cli = ClientStore.open(pos.clients.path);
    try {
      cli.revoke(client_id);
    } finally {
      cli.close();
    }
    const error = await client.failure('pinpad.list');
    expect(error.data).toMatchObject({ code: 'TOKEN_INVALID', reason: 'TOKEN_REVOKED' });
    expect((await client.closed).code).toBe(4004);
  });

  it('closes the sessions of a client revoked from the window at once', async () => {
    const client = await pos.paired('Window revoke');
    const { client_id } = await client.call<{ client_id: string }>('session.hello', { token: client.token });
    pos.clients.revoke(client_id);
    pos.server.revoked(client_id);
    expect((await client.closed).code).toBe(4004);
  });
});

describe('hostile and broken input', () => {
  it('closes a 1 MB message with 1009 and goes on serving everyone else', async () => {
    const client = await pos.paired('Big');
    client.socket.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'agent.info', params: { pad: 'x'.repeat(1024 * 1024) } }),
    );
    expect((await client.closed).code).toBe(1009);
    await stillServing();
  });

  it('answers 10,000 malformed messages without closing, then serves the same connection', async () => {
    const flooder = await pos.paired('Flood');
    const bystander = await pos.paired('Bystander');
    const junk = [
      '{',
      'null',
      '[]',
      '{"jsonrpc":"1.0"}',
      '{"jsonrpc":"2.0","id":{},"method":"x"}',
      '"text"',
      '{"jsonrpc":"2.0","id":5,"method":7}',
    ];
    for (let i = 0; i < 10_000; i++) flooder.socket.send(junk[i % junk.length]!);
    // Every one gets an error answer (parse, invalid request or rate limited); none a result.
    const deadline = Date.now() + 20_000;
    while (flooder.anonymousAnswers.length < 10_000 - Math.ceil(10_000 / junk.length) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(flooder.anonymousAnswers.every((answer) => answer.error !== undefined)).toBe(true);
    expect(flooder.socket.readyState).toBe(WebSocket.OPEN);
    // The bystander was never slowed into failure.
    await bystander.call('pinpad.list');
    // The flooder's budget refills: after a pause it is served again.
    await new Promise((r) => setTimeout(r, 2_500));
    await flooder.call('pinpad.list');
    await Promise.all([flooder.close(), bystander.close()]);
  });

  it('answers unknown methods, bad envelopes and bad params precisely', async () => {
    const client = await pos.paired('Precise');
    expect((await client.failure('payment.teleport', {})).data.code).toBe('METHOD_NOT_FOUND');
    const invalid = await client.failure('payment.start', {
      reference_id: 'x',
      amount: 12.5,
      payment_type: 'pix',
      description: '',
    });
    expect(invalid.code).toBe(-32602);
    expect(invalid.data.code).toBe('INVALID_PARAMS');
    const fields = (invalid.data.violations as { field: string }[]).map((v) => v.field);
    expect(fields).toEqual(expect.arrayContaining(['amount', 'payment_type', 'description']));
    client.socket.send(Buffer.from([1, 2, 3]));
    await client.call('pinpad.list');
    await client.close();
  });

  it('limits the rate per client: a burst gets RATE_LIMITED with how long to wait, and the connection stays', async () => {
    const client = await pos.paired('Burst');
    // payment.start costs 20 of a budget of 200: the burst runs dry after about ten (bad params, so nothing is charged).
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => client.request('payment.start', { reference_id: 'burst' })),
    );
    const limited = answers.filter((a) => a.error?.data.code === 'RATE_LIMITED');
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.error!.data.retry_after_ms).toBeGreaterThan(0);
    expect(client.socket.readyState).toBe(WebSocket.OPEN);
    await client.close();
  });

  it('never sends the payments API credentials to a POS', async () => {
    const client = await pos.paired('Secrets');
    await client.call('agent.info');
    await client.call('agent.status');
    const seen = JSON.stringify([...client.notifications]);
    expect(seen).not.toContain(pos.rig.sandbox.token);
    await client.close();
  });
});

/**
 * A cashier starts a sale and its connection dies as the PINPAD asks for the card; resolves
 * with its token once the payment has ended with nobody listening.
 */
async function saleWhileAway(local: PosRig, referenceId: string, amount: number): Promise<string> {
  const cashier = await local.paired('Caixa que cai');
  void cashier.request('payment.start', {
    reference_id: referenceId,
    amount,
    payment_type: 'credit',
    installments: 1,
    description: 'Queda',
  });
  await cashier.next('payment.progress', (p) => p.step === 'waiting_card');
  cashier.socket.terminate();
  // The payment goes on without anyone listening, exactly once.
  const deadline = Date.now() + 15_000;
  while (local.rig.engine.status(referenceId).kind !== 'processed' && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 20));
  return cashier.token!;
}

describe('a POS that disconnects in the middle of a payment', () => {
  it('loses nothing: the payment finishes, and at the next hello the POS gets the result it missed', async () => {
    const local = await posRig({ simulator: { autoCustomer: { delayMs: 400, card: 'visaCredit' } } });
    try {
      const token = await saleWhileAway(local, 'drop-1', 2500);
      const back = await local.connect();
      const hello = await back.call<{ missed_results: { reference_id: string; status: string }[] }>('session.hello', {
        token,
      });
      expect(hello.missed_results).toEqual([expect.objectContaining({ reference_id: 'drop-1', status: 'approved' })]);
      const status = await back.call<{ status: string; result: { status: string } }>('payment.status', {
        reference_id: 'drop-1',
      });
      expect(status).toMatchObject({ status: 'Processed', result: { status: 'approved' } });
      expect(local.rig.engine.list().total).toBe(1);
      // Delivered once: the next hello has nothing more.
      const third = await local.connect();
      expect((await third.call<{ missed_results: unknown[] }>('session.hello', { token })).missed_results).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('loses nothing across a restart: the result missed before it is given at the first hello after', async () => {
    const local = await posRig({ simulator: { autoCustomer: { delayMs: 400, card: 'visaCredit' } } });
    try {
      const token = await saleWhileAway(local, 'restart-1', 3100);
      // The agent's POS layer stops and starts again: nothing of it is left in memory.
      await local.restartServer();
      const back = await local.connect();
      const hello = await back.call<{ missed_results: { reference_id: string; status: string; amount: number }[] }>(
        'session.hello',
        { token },
      );
      expect(hello.missed_results).toEqual([
        expect.objectContaining({ reference_id: 'restart-1', status: 'approved', amount: 3100 }),
      ]);
      const again = await local.connect();
      expect((await again.call<{ missed_results: unknown[] }>('session.hello', { token })).missed_results).toEqual([]);
    } finally {
      await local.close();
    }
  });

  it('does not give a result again at a later hello once the POS read it by payment.status', async () => {
    const local = await posRig({ simulator: { autoCustomer: { delayMs: 1_500, card: 'visaCredit' } } });
    try {
      const cashier = await local.paired('Caixa que consulta');
      const token = cashier.token!;
      void cashier.request('payment.start', {
        reference_id: 'status-1',
        amount: 1900,
        payment_type: 'credit',
        installments: 1,
        description: 'Consulta',
      });
      await cashier.next('payment.progress', (p) => p.step === 'waiting_card');
      // The agent's POS layer restarts while the customer still holds the card.
      await local.restartServer();
      const back = await local.connect();
      expect((await back.call<{ missed_results: unknown[] }>('session.hello', { token })).missed_results).toEqual([]);
      // The POS recovers the documented way: payment.status until Processed.
      let status = await back.call<{ status: string }>('payment.status', { reference_id: 'status-1' });
      const deadline = Date.now() + 15_000;
      while (status.status !== 'Processed' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        status = await back.call<{ status: string }>('payment.status', { reference_id: 'status-1' });
      }
      expect(status).toMatchObject({ status: 'Processed', result: { status: 'approved' } });
      const later = await local.connect();
      expect((await later.call<{ missed_results: unknown[] }>('session.hello', { token })).missed_results).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
