/**
 * Driving a running payments sandbox (main/sandbox/server.ts) from tests, over real HTTP on
 * 127.0.0.1: a fresh marketplace per test file, JSON requests with its bearer token, a webhook
 * receiver that records every request it gets, and polling until something has happened (no
 * fixed sleeps).
 *
 *   const market = await freshMarket(sandbox);
 *   const { status, body } = await call<Transaction & Problem>(market, 'POST', `/v1/marketplaces/${market.id}/transactions`, sale);
 *   const event = await eventFor(receiver, body.id, 'transaction.succeeded');
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BuyerCreateRequest, ErrorA } from '../../main/contract/index.js';
import type { RunningSandbox } from '../../main/sandbox/server.js';
import { insertBuyer } from '../../main/sandbox/store/buyers.js';

// Marketplaces and requests -----------------------------------------------------------------------

/** The detail of an error answer (shape A), beside a success body's fields: `call<Transaction & Problem>`. */
export type Problem = Pick<ErrorA, 'detail' | 'trace_id'>;

/** A marketplace of a running sandbox, its seller and an access token to it. */
export interface Market {
  readonly sandbox: RunningSandbox;
  readonly id: string;
  readonly sellerId: string;
  readonly token: string;
}

export interface Reply<T> {
  readonly status: number;
  /** The answer parsed as JSON (every answer of the sandbox's API is JSON). */
  readonly body: T;
  /** The answer as it came, for checks that nothing leaks into it. */
  readonly text: string;
}

export interface RequestOptions {
  /** Sent after the defaults (bearer token, JSON content type), so they can replace them. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/**
 * One request to `baseUrl + path`. A `body` is sent as JSON; a string is sent as it is (for
 * empty or malformed bodies). No Authorization header: see `call`.
 */
export async function request<T = Record<string, unknown>>(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<Reply<T>> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as T, text };
}

/** Where a sandbox listens and whose token to send: a `Market`, or any sandbox URL and token. */
export interface Caller {
  readonly sandbox: Pick<RunningSandbox, 'url'>;
  readonly token: string;
}

/** `request` to the caller's sandbox with the caller's bearer token. */
export function call<T = Record<string, unknown>>(
  caller: Caller,
  method: string,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<Reply<T>> {
  return request<T>(caller.sandbox.url, method, path, body, {
    ...options,
    headers: { authorization: `Bearer ${caller.token}`, ...options.headers },
  });
}

/** A new marketplace with its seller (POST /v1/sandbox/marketplaces): a test file sees only its own records. */
export async function freshMarket(sandbox: RunningSandbox): Promise<Market> {
  const { status, body } = await request<{ marketplace_id: string; seller_id: string; access_token: string }>(
    sandbox.url,
    'POST',
    '/v1/sandbox/marketplaces',
  );
  if (status !== 201) throw new Error(`POST /v1/sandbox/marketplaces answered ${status}`);
  return { sandbox, id: body.marketplace_id, sellerId: body.seller_id, token: body.access_token };
}

export interface MarketplaceCallOptions extends RequestOptions {
  readonly body?: unknown;
  /** Another token than the market's. */
  readonly token?: string;
  /** Another marketplace id in the path than the market's. */
  readonly marketplace?: string;
}

/**
 * A `call` whose paths are under /v1/marketplaces/<id> of the market `current()` gives, read at
 * every call (so a test file can move to a fresh marketplace between tests). With
 * `const call = marketplaceCaller(() => market)`: `call('GET', '/buyers/search?ein=…')`,
 * `call('POST', '/buyers', { body, headers })`, `call('GET', path, { token, marketplace })`.
 */
export function marketplaceCaller(
  current: () => Caller & { readonly id: string },
): <T = Record<string, unknown>>(method: string, path: string, options?: MarketplaceCallOptions) => Promise<Reply<T>> {
  return (method, path, options = {}) => {
    const market = current();
    const { body, token, marketplace, ...rest } = options;
    const caller = { sandbox: market.sandbox, token: token ?? market.token };
    return call(caller, method, `/v1/marketplaces/${marketplace ?? market.id}${path}`, body, rest);
  };
}

/**
 * A buyer written straight into the market's store (as POST /buyers would, without its checks),
 * for tests that need a customer rather than the buyers routes. Returns its id.
 */
export function storeBuyer(
  market: Pick<Market, 'sandbox' | 'id'>,
  buyer: BuyerCreateRequest = { first_name: 'Maria', last_name: 'Silva', taxpayer_id: '52998224725' },
): string {
  const { context } = market.sandbox;
  return insertBuyer(context.db, market.id, buyer, context.now()).id;
}

// Webhooks and waiting ----------------------------------------------------------------------------

/** How a receiver answers a request: with this status, or never (`'hang'`). */
export type Answer = number | 'hang';

export interface Received {
  /** Path and query, as sent. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A webhook event as the sandbox sends it. */
export type WebhookEvent = Record<string, unknown> & { event: string; transaction_id: string };

export interface Receiver {
  /** http://127.0.0.1:<port>, without a path: register `${url}/any/path`. */
  readonly url: string;
  readonly port: number;
  /** Every request, in the order they arrived. */
  readonly received: Received[];
  /** The bodies received, parsed: the events delivered so far. */
  readonly events: WebhookEvent[];
  /** How to answer the request with this index (0-based) and path; may be replaced mid-test. */
  answer: (index: number, path: string) => Answer;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (`port` 0: any free port). Answers 200 unless told otherwise. */
export async function startReceiver(answer: Receiver['answer'] = () => 200, port = 0): Promise<Receiver> {
  const received: Received[] = [];
  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const index = received.length;
      const path = incoming.url ?? '/';
      received.push({ path, headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = receiver.answer(index, path);
      if (status !== 'hang') response.writeHead(status, { 'content-type': 'text/plain' }).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${bound}`,
    port: bound,
    received,
    get events() {
      return received.map((r) => JSON.parse(r.body) as WebhookEvent);
    },
    answer,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

/** A receiver registered as a webhook of `market` for every event: `eventFor` then waits on it. */
export async function subscribedReceiver(market: Market): Promise<Receiver> {
  const receiver = await startReceiver();
  const hook = await call(market, 'POST', `/v1/marketplaces/${market.id}/webhooks`, {
    url: `${receiver.url}/hooks`,
    event: ['all'],
  });
  if (hook.status !== 201) {
    await receiver.close();
    throw new Error(`registering the webhook answered ${hook.status}: ${hook.text}`);
  }
  return receiver;
}

/** Polls `probe` until it gives a value other than undefined; gives up after 10 s. */
export async function eventually<T>(probe: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The event `name` of transaction `id`, once `receiver` has got it. */
export const eventFor = (receiver: Receiver, id: string, name: string): Promise<WebhookEvent> =>
  eventually(() => receiver.events.find((e) => e.transaction_id === id && e.event === name), `${name} of ${id}`);
