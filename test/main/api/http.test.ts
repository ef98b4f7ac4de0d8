import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { Agent } from 'undici';
import { inspect } from 'node:util';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AUTHENTICATION_FAILED_MESSAGE,
  AuthenticationError,
  ConflictError,
  ConnectionError,
  HttpCore,
  NotEnabledError,
  NotFoundError,
  parseRetryAfter,
  backoffDelay,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
  type PaymentsApiError,
} from '../../../main/api/index.js';
import {
  captureLogger,
  MARKETPLACE_ID,
  SELLER_ID,
  startStub,
  startStubAt,
  stubClient,
  TOKEN,
  TXN_ID,
  wireTransaction,
  type Stub,
} from './stub-server.js';
import { rejection } from '../../helpers/thrown.js';
import { chipRequest } from '../../helpers/sealed-card.js';

const BUYER_ID = '11111111111111111111111111111111';
const buyer = { id: BUYER_ID, resource: 'buyer', first_name: 'Ana', created_at: 'x', updated_at: 'x' };
const buyerPath = `/v1/marketplaces/${MARKETPLACE_ID}/buyers/${BUYER_ID}`;

let stub: Stub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

const failure = (promise: Promise<unknown>): Promise<PaymentsApiError> => rejection<PaymentsApiError>(promise);

function core(s: Stub, options: Partial<ConstructorParameters<typeof HttpCore>[0]> = {}): HttpCore {
  return new HttpCore({
    baseUrl: s.url,
    token: TOKEN,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    timeoutMs: 2_000,
    ...options,
  });
}

describe('request headers', () => {
  it('sends the bearer token, asks for JSON and names itself', async () => {
    stub = await startStub({ body: buyer });
    await stubClient(stub).buyers.retrieve(BUYER_ID);
    const [request] = stub.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['user-agent']).toMatch(/^pinbridge\//);
    expect(request?.path).toBe(buyerPath);
  });

  it('sends a JSON body with its content type, and no content type without a body', async () => {
    stub = await startStub({ body: { ok: true } });
    const http = core(stub);
    await http.request({ method: 'POST', path: '/v1/x', body: { amount: 100 } });
    await http.request({ method: 'DELETE', path: '/v1/x' });
    expect(stub.requests[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(stub.requests[0]?.body ?? '')).toEqual({ amount: 100 });
    expect(stub.requests[1]?.headers['content-type']).toBeUndefined();
    expect(stub.requests[1]?.body).toBe('');
  });

  it('sends the key as HTTP Basic when the scheme is basic: the key as the user name, an empty password (Zoop)', async () => {
    stub = await startStub({ body: buyer });
    await stubClient(stub, { authScheme: 'basic' }).buyers.retrieve(BUYER_ID);
    const header = stub.requests[0]?.headers.authorization ?? '';
    expect(header).toMatch(/^Basic /);
    expect(Buffer.from(header.slice('Basic '.length), 'base64').toString('utf8')).toBe(`${TOKEN}:`);
  });

  it('refuses an auth scheme it does not know, before any request', () => {
    expect(() => new HttpCore({ baseUrl: 'http://127.0.0.1:1', token: TOKEN, authScheme: 'digest' as never })).toThrow(
      /authScheme/,
    );
  });

  it('uses a custom user agent when given', async () => {
    stub = await startStub({ body: buyer });
    await stubClient(stub, { userAgent: 'store-42/1.0' }).buyers.retrieve(BUYER_ID);
    expect(stub.requests[0]?.headers['user-agent']).toBe('store-42/1.0');
  });
});

describe('transport', () => {
  it('keeps the path of the base URL in front of every request path (a gateway prefix)', async () => {
    stub = await startStub({ body: buyer });
    await stubClient(stub, { baseUrl: `${stub.url}/gateway/` }).buyers.retrieve(BUYER_ID);
    expect(stub.requests[0]?.path).toBe(`/gateway${buyerPath}`);
  });

  it('sends every request through the undici dispatcher it is given (a proxy agent, own TLS settings)', async () => {
    stub = await startStub({ body: buyer });
    const seen: string[] = [];
    const dispatcher = new Agent().compose((dispatch) => (options, handler) => {
      seen.push(`${options.method} ${options.path}`);
      return dispatch(options, handler);
    });
    try {
      await stubClient(stub, { dispatcher }).buyers.retrieve(BUYER_ID);
      expect(seen).toEqual([`GET ${buyerPath}`]);
      expect(stub.requests).toHaveLength(1);
    } finally {
      await dispatcher.close();
    }
  });

  it('keeps connections alive: ten calls in a row do not open a connection each', async () => {
    stub = await startStub({ body: buyer });
    const client = stubClient(stub);
    for (let i = 0; i < 10; i++) await client.buyers.retrieve(BUYER_ID);
    // undici may open a second connection while the first is still finishing its previous answer.
    expect(new Set(stub.requests.map((request) => request.remotePort)).size).toBeLessThanOrEqual(2);
  });

  it('counts a body that stops arriving against the attempt deadline: TimeoutError', async () => {
    const stalling = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"id":');
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
    try {
      const error = await failure(
        new HttpCore({ baseUrl: url, token: TOKEN, timeoutMs: 100, maxRetries: 0 }).request({
          method: 'GET',
          path: '/v1/x',
        }),
      );
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error.message).toMatch(/did not answer GET \/v1\/x within 100 ms/);
    } finally {
      stalling.closeAllConnections();
      await new Promise((resolve) => stalling.close(resolve));
    }
  });

  it('names the status with its reason phrase when an error answer has no body', async () => {
    stub = await startStub({ status: 503, body: '' });
    const error = await failure(core(stub, { maxRetries: 0 }).request({ method: 'GET', path: '/v1/x' }));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.detail).toBe('HTTP 503 Service Unavailable');
  });
});

describe('retries of requests that are safe to repeat', () => {
  it.each([502, 503, 504, 500, 408])('retries a GET answered %i and returns the later success', async (status) => {
    stub = await startStub({ status, body: { status, detail: 'try later', trace_id: 'abc123' } }, { body: buyer });
    const found = await stubClient(stub).buyers.retrieve(BUYER_ID);
    expect(found.id).toBe(BUYER_ID);
    expect(stub.requests).toHaveLength(2);
  });

  it('gives up after maxRetries and throws the last error', async () => {
    stub = await startStub({ status: 503, body: { status: 503, detail: 'Service unavailable', trace_id: 't1' } });
    const error = await failure(stubClient(stub, { maxRetries: 2 }).buyers.retrieve(BUYER_ID));
    expect(error).toBeInstanceOf(ServerError);
    expect(error.status).toBe(503);
    expect(stub.requests).toHaveLength(3);
  });

  it('retries a 429 after the Retry-After seconds the server asked for', async () => {
    stub = await startStub(
      {
        status: 429,
        headers: { 'retry-after': '1' },
        body: { status: 429, detail: 'Rate limit exceeded', trace_id: 'r1' },
      },
      { body: buyer },
    );
    // random() = 0: without Retry-After the backoff would not wait at all.
    await stubClient(stub, { random: () => 0 }).buyers.retrieve(BUYER_ID);
    expect(stub.requests).toHaveLength(2);
    const [first, second] = stub.requests;
    expect((second?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('does not wait for a Retry-After longer than maxRetryAfterMs: it throws RateLimitError with retryAfterMs', async () => {
    stub = await startStub({ status: 429, headers: { 'retry-after': '120' }, body: 'slow down' }, { body: buyer });
    const error = await failure(stubClient(stub).buyers.retrieve(BUYER_ID));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect(stub.requests).toHaveLength(1);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('backs off exponentially with full jitter, capped', () => {
    expect(backoffDelay(1, 250, 4000, () => 0.999)).toBe(249);
    expect(backoffDelay(2, 250, 4000, () => 0.999)).toBe(499);
    expect(backoffDelay(3, 250, 4000, () => 0.5)).toBe(500);
    expect(backoffDelay(10, 250, 4000, () => 0.999)).toBe(3996);
    expect(backoffDelay(3, 250, 4000, () => 0)).toBe(0);
  });

  it('retries a GET whose connection was reset', async () => {
    stub = await startStub({ reset: true }, { body: buyer });
    const found = await stubClient(stub).buyers.retrieve(BUYER_ID);
    expect(found.first_name).toBe('Ana');
    expect(stub.requests).toHaveLength(2);
  });

  it('retries a GET whose attempt timed out', async () => {
    stub = await startStub({ delayMs: 1_000, body: buyer }, { body: buyer });
    const found = await stubClient(stub, { timeoutMs: 100 }).buyers.retrieve(BUYER_ID);
    expect(found.id).toBe(BUYER_ID);
    expect(stub.requests).toHaveLength(2);
  });

  it('throws TimeoutError when every attempt times out', async () => {
    stub = await startStub({ delayMs: 1_000, body: buyer });
    const error = await failure(stubClient(stub, { timeoutMs: 50, maxRetries: 1 }).buyers.retrieve(BUYER_ID));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(50);
    expect(error.status).toBeUndefined();
    expect(stub.requests).toHaveLength(2);
  });

  it('throws ConnectionError with the cause when nothing listens', async () => {
    stub = await startStub({ body: {} });
    const url = stub.url;
    await stub.close();
    stub = undefined;
    const http = new HttpCore({ baseUrl: url, token: TOKEN, retryBaseDelayMs: 1, retryMaxDelayMs: 2 });
    const error = await failure(http.request({ method: 'GET', path: '/v1/x' }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('retries a POST that carries an Idempotency-Key to a provider said to honour it, sending the same key and body each time', async () => {
    stub = await startStub(
      { status: 502, body: '<html>bad gateway</html>' },
      { reset: true },
      { status: 201, body: wireTransaction() },
    );
    const client = stubClient(stub, { capabilities: { idempotencyKey: true } });
    const created = await client.transactions.create({
      payment_locale: 'pinpad',
      payment_type: 'debit',
      on_behalf_of: '22222222222222222222222222222222',
      description: 'Venda 1',
      amount: 1500,
      terminal: 'PP123456',
      reference_id: 'sale-1',
    });
    expect(created.amount).toBe(1500);
    expect(stub.requests).toHaveLength(3);
    const keys = stub.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^pinbridge:txn:[0-9a-f]{40}$/);
    expect(new Set(keys).size).toBe(1);
    expect(new Set(stub.requests.map((r) => r.body)).size).toBe(1);
  });

  it('does not retry a POST without an Idempotency-Key (it may have been processed)', async () => {
    stub = await startStub({ status: 503, body: { status: 503, detail: 'busy', trace_id: 'b1' } }, { body: {} });
    const error = await failure(core(stub).request({ method: 'POST', path: '/v1/x', body: { a: 1 } }));
    expect(error).toBeInstanceOf(ServerError);
    expect(stub.requests).toHaveLength(1);
  });

  it('retries a POST without a key after a 429: the service refused it before doing anything', async () => {
    stub = await startStub(
      {
        status: 429,
        headers: { 'retry-after': '0' },
        body: { status: 429, detail: 'Rate limit exceeded. Try again in 60 seconds', trace_id: 'q1' },
      },
      { status: 201, body: { ok: true } },
    );
    expect(await core(stub).request({ method: 'POST', path: '/v1/x', body: { a: 1 } })).toEqual({ ok: true });
    expect(stub.requests).toHaveLength(2);
  });

  it('retries a POST without a key whose connection was refused: nothing was sent', async () => {
    const first = await startStub({ body: {} });
    const { port } = new URL(first.url);
    await first.close();
    // Nothing listens for the first attempt; the server is back for the retry.
    const back = new Promise<Stub>((resolve) =>
      setTimeout(() => resolve(startStubAt(Number(port), { status: 201, body: { ok: true } })), 20),
    );
    const http = new HttpCore({
      baseUrl: `http://127.0.0.1:${port}`,
      token: TOKEN,
      retryBaseDelayMs: 400,
      retryMaxDelayMs: 400,
      random: () => 1,
      maxRetries: 3,
    });
    const answer = await http.request({ method: 'POST', path: '/v1/x', body: { a: 1 } });
    stub = await back;
    expect(answer).toEqual({ ok: true });
    expect(stub.requests).toHaveLength(1);
  });

  it('never retries a 501 (the feature is not enabled), not even a GET', async () => {
    stub = await startStub({
      status: 501,
      body: {
        type: 'https://httpstatuses.com/501',
        title: 'Not Implemented',
        status: 501,
        detail: 'PINPAD flow not yet implemented',
        validated_data: { payment_locale: 'pinpad' },
      },
    });
    const error = await failure(core(stub).request({ method: 'GET', path: '/v1/x' }));
    expect(error).toBeInstanceOf(NotEnabledError);
    expect(error).toMatchObject({
      status: 501,
      code: 'not_enabled',
      detail: 'PINPAD flow not yet implemented',
      validatedData: { payment_locale: 'pinpad' },
    });
    expect(stub.requests).toHaveLength(1);
  });

  it('does not retry a POST without a key whose connection was reset', async () => {
    stub = await startStub({ reset: true }, { body: {} });
    const error = await failure(core(stub).request({ method: 'POST', path: '/v1/x', body: { a: 1 } }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(stub.requests).toHaveLength(1);
  });

  it('does not retry a PATCH without a key', async () => {
    stub = await startStub({ status: 500, body: { status: 500, detail: 'oops', trace_id: 'p1' } }, { body: buyer });
    const error = await failure(stubClient(stub).buyers.update(BUYER_ID, { first_name: 'Bia' }));
    expect(error).toBeInstanceOf(ServerError);
    expect(stub.requests).toHaveLength(1);
  });

  it.each([
    [400, ValidationError],
    [404, NotFoundError],
    [409, ConflictError],
  ])('never retries a %i, even for a GET or a POST with a key', async (status, errorClass) => {
    stub = await startStub({ status, body: { status, detail: 'no', trace_id: 'n1' } });
    const http = core(stub);
    expect(await failure(http.request({ method: 'GET', path: '/v1/x' }))).toBeInstanceOf(errorClass);
    expect(
      await failure(http.request({ method: 'POST', path: '/v1/x', body: {}, idempotencyKey: 'k1' })),
    ).toBeInstanceOf(errorClass);
    expect(stub.requests).toHaveLength(2);
  });

  it('stops waiting between attempts when the caller aborts, rejecting with the reason', async () => {
    stub = await startStub({ status: 503, headers: { 'retry-after': '5' }, body: 'busy' }, { body: buyer });
    const controller = new AbortController();
    const reason = new Error('cashier cancelled');
    setTimeout(() => controller.abort(reason), 100);
    await expect(stubClient(stub).buyers.retrieve(BUYER_ID, { signal: controller.signal })).rejects.toBe(reason);
    expect(stub.requests).toHaveLength(1);
  });

  it('aborts an attempt in flight when the caller aborts', async () => {
    stub = await startStub({ delayMs: 1_500, body: buyer });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await failure(stubClient(stub).buyers.retrieve(BUYER_ID, { signal: controller.signal }));
    expect((error as Error).name).toBe('AbortError');
    expect(stub.requests).toHaveLength(1);
  });
});

describe('401: credentials invalid or expired', () => {
  const unauthorized = {
    status: 401,
    body: { status_code: 401, type: 'unauthorized', message: 'Access token expired' },
  };

  it('throws AuthenticationError with a fixed message after one request, without retry', async () => {
    stub = await startStub(unauthorized);
    const error = await failure(stubClient(stub).buyers.retrieve(BUYER_ID));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error.message).toBe(AUTHENTICATION_FAILED_MESSAGE);
    expect(error.message).toBe('Payments API credentials invalid or expired');
    expect(error.status).toBe(401);
    expect(error.code).toBe('authentication_failed');
    expect(error.type).toBe('unauthorized');
    expect(error.detail).toBe('Access token expired');
    expect((error as AuthenticationError).sent).toBe(true);
    expect(stub.requests).toHaveLength(1);
  });

  it('fails further calls fast within the window, then sends one real request after it', async () => {
    stub = await startStub(unauthorized, unauthorized, { body: buyer });
    let now = 1_000_000;
    const client = stubClient(stub, { now: () => now, authFailureCooldownMs: 5_000 });
    await failure(client.buyers.retrieve(BUYER_ID));

    now += 4_000;
    const fast = await failure(client.transactions.retrieve('22222222222222222222222222222222'));
    expect(fast).toBeInstanceOf(AuthenticationError);
    expect(fast.message).toBe('Payments API credentials invalid or expired');
    expect((fast as AuthenticationError).sent).toBe(false);
    expect(stub.requests).toHaveLength(1);

    now += 2_000;
    expect(await failure(client.buyers.retrieve(BUYER_ID))).toBeInstanceOf(AuthenticationError);
    expect(stub.requests).toHaveLength(2);

    now += 6_000;
    const found = await client.buyers.retrieve(BUYER_ID);
    expect(found.id).toBe(BUYER_ID);
    expect(stub.requests).toHaveLength(3);
  });

  it('sends an undo (a reversal, a void) within the window: it is what leaves nothing charged', async () => {
    const canceled = { status: 200, body: wireTransaction({ status: 'canceled' }) };
    stub = await startStub(unauthorized, canceled, canceled);
    const client = stubClient(stub, { now: () => 1_000_000, authFailureCooldownMs: 5_000 });
    await failure(client.terminal.authorize(TXN_ID, chipRequest(1000, {}, 'PP123456')));
    // Anything else fails fast, unsent…
    expect(await failure(client.transactions.retrieve(TXN_ID))).toMatchObject({ sent: false });
    // …an undo goes out.
    expect((await client.terminal.reverse(TXN_ID, { terminal: 'PP123456', reason: 'other' })).status).toBe('canceled');
    expect((await client.terminal.void(TXN_ID, { on_behalf_of: SELLER_ID })).status).toBe('canceled');
    expect(stub.requests.map((request) => request.path.split('/').at(-1))).toEqual([
      'authorization',
      'reversal',
      'void',
    ]);
  });
});

describe('secrets stay out of errors and logs', () => {
  it('never writes the token, bodies or card data in error messages or log lines', async () => {
    const echo = `proxy saw Authorization: Bearer ${TOKEN}`;
    stub = await startStub(
      { status: 401, body: { status_code: 401, type: 'unauthorized', message: 'bad token' } },
      { status: 500, body: echo },
      { status: 200, body: `not json ${TOKEN}` },
      { reset: true },
    );
    const { logger, lines } = captureLogger();
    const client = stubClient(stub, { logger, maxRetries: 0, authFailureCooldownMs: 0 });
    const errors = [
      await failure(client.buyers.retrieve(BUYER_ID)),
      await failure(client.buyers.retrieve(BUYER_ID)),
      await failure(client.buyers.retrieve(BUYER_ID)),
      await failure(
        client.terminal.authorize(
          '22222222222222222222222222222222',
          chipRequest(1000, {
            pin_block: { format: 'iso_0', key_slot: 1, ksn: 'FFFF9876543210E00001', block: 'ABCDEF0123456789' },
          }),
        ),
      ),
    ];
    expect(errors.map((e) => e.constructor.name)).toEqual([
      'AuthenticationError',
      'ServerError',
      'InvalidResponseError',
      'ConnectionError',
    ]);
    const everything = JSON.stringify([
      errors.map((e) => ({ message: e.message, detail: e.detail, raw: e.raw, inspected: inspect(e) })),
      lines,
    ]);
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain('ABCDEF0123456789');
    expect(everything).toContain('[redacted]');
    expect(lines.length).toBeGreaterThanOrEqual(4);
    expect(inspect(client, { depth: 10 })).not.toContain(TOKEN);
  });

  it('keeps the Basic credentials out of errors too, even when a proxy echoes the header', async () => {
    const basic = Buffer.from(`${TOKEN}:`).toString('base64');
    stub = await startStub({ status: 400, body: `proxy saw Authorization: Basic ${basic}` });
    const error = await failure(stubClient(stub, { authScheme: 'basic', maxRetries: 0 }).buyers.retrieve(BUYER_ID));
    expect(JSON.stringify({ message: error.message, detail: error.detail, raw: error.raw })).not.toContain(basic);
    expect(error.detail).toContain('[redacted]');
  });

  it('logs method, path, status, attempt and duration — not the query string with the CPF', async () => {
    stub = await startStub({ status: 503, body: 'busy' }, { body: buyer });
    const { logger, lines } = captureLogger();
    await stubClient(stub, { logger }).buyers.search({ taxpayer_id: '52998224725' });
    expect(stub.requests[0]?.query.get('taxpayer_id')).toBe('52998224725');
    const [retry, success] = lines;
    expect(retry?.level).toBe('warn');
    expect(retry?.obj).toMatchObject({
      method: 'GET',
      path: `/v1/marketplaces/${MARKETPLACE_ID}/buyers/search`,
      status: 503,
      attempt: 1,
    });
    expect(typeof retry?.obj.durationMs).toBe('number');
    expect(typeof retry?.obj.retryInMs).toBe('number');
    expect(success?.obj).toMatchObject({ status: 200, attempt: 2 });
    expect(JSON.stringify(lines)).not.toContain('52998224725');
  });

  it('accepts a pino logger as is', async () => {
    stub = await startStub({ status: 500, body: { status: 500, detail: 'boom', trace_id: 'pz1' } });
    const written: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, sink);
    await failure(stubClient(stub, { logger, maxRetries: 1 }).buyers.retrieve(BUYER_ID));
    const lines = written
      .join('')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      msg: 'payments api request failed',
      method: 'GET',
      path: buyerPath,
      status: 500,
      attempt: 2,
      traceId: 'pz1',
    });
    expect(written.join('')).not.toContain(TOKEN);
  });
});
