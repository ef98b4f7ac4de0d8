/**
 * A small but real Pinbridge stand-in for the client's tests: an HTTP + `ws` server on 127.0.0.1 that
 * speaks JSON-RPC 2.0 at /pos with the protocol's session rules (public methods before hello,
 * UNAUTHENTICATED otherwise), pairing with a fixed code, hello with known tokens, and errors built
 * with the protocol's own PosError. Every request is checked against the protocol's params schema
 * (INVALID_PARAMS with violations, as the agent answers), and every result and notification this
 * fake sends against the result / payload schema — a breach is recorded in `contractBreaches`, so
 * the fake cannot drift from the contract unnoticed. Tests script the rest with `handle`.
 */
import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocket, WebSocketServer } from 'ws';
import { phaseOf } from '../../main/core/states.js';
import { schemaViolations } from '../../main/contract/index.js';
import {
  EVENTS,
  METHODS,
  POS_ERRORS,
  PosError,
  WS_PATH,
  type EventName,
  type EventPayload,
  type MethodName,
  type ParamsOf,
  type PaymentOutcome,
  type ResultOf,
} from '../../main/pos/protocol/index.js';

export const PAIRING_CODE = '482913';

export interface FakeSession {
  readonly id: number;
  readonly socket: WebSocket;
  /** The token's client, once it said hello or confirmed a pairing. */
  clientId: string | null;
}

export type Handler<M extends MethodName> = (
  params: ParamsOf<M>,
  session: FakeSession,
) => ResultOf<M> | Promise<ResultOf<M>>;

export interface ReceivedRequest {
  readonly sessionId: number;
  readonly method: string;
  readonly params: unknown;
}

interface PairedClient {
  readonly client_id: string;
  readonly name: string;
}

const PUBLIC_METHODS: ReadonlySet<string> = new Set(
  (Object.keys(METHODS) as MethodName[]).filter((name) => METHODS[name].access === 'public'),
);

export class FakeAgent {
  readonly requests: ReceivedRequest[] = [];
  readonly contractBreaches: string[] = [];
  /** Known tokens and their clients. */
  readonly tokens = new Map<string, PairedClient>();
  /** Results queued per client for its next hello (missed_results). */
  readonly missedResults = new Map<string, PaymentOutcome[]>();
  /** How many WebSocket connections were accepted in all. */
  connections = 0;
  /** When set, every new connection is closed at once with this code (e.g. 4003). */
  refuseWith: { code: number; reason: string } | null = null;

  readonly #handlers = new Map<string, Handler<MethodName>>();
  readonly #sessions = new Set<FakeSession>();
  readonly #pairings = new Map<string, string>();
  readonly #onHttpRequest: RequestListener;
  #server: WebSocketServer | null = null;
  #http: Server | null = null;
  #port = 0;
  #nextSessionId = 1;
  #nextPairing = 1;

  /** `onHttpRequest` answers plain HTTP on the same port (a page served by the "agent"); default 404. */
  static async start(options: { onHttpRequest?: RequestListener } = {}): Promise<FakeAgent> {
    const agent = new FakeAgent(options.onHttpRequest);
    await agent.listen();
    return agent;
  }

  private constructor(onHttpRequest: RequestListener | undefined) {
    this.#onHttpRequest =
      onHttpRequest ??
      ((_request, response) => {
        response.writeHead(404).end();
      });
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `ws://127.0.0.1:${this.#port}${WS_PATH}`;
  }

  get sessions(): FakeSession[] {
    return [...this.#sessions];
  }

  /** The requests for one method, in order. */
  received(method: MethodName): ReceivedRequest[] {
    return this.requests.filter((request) => request.method === method);
  }

  handle<M extends MethodName>(method: M, handler: Handler<M>): void {
    this.#handlers.set(method, handler);
  }

  /** Listens on `port` (0: a free one; the same port again after `stop` to come back). */
  async listen(port = this.#port): Promise<void> {
    const http = createServer(this.#onHttpRequest);
    const server = new WebSocketServer({ server: http, path: WS_PATH });
    http.listen(port, '127.0.0.1');
    await once(http, 'listening');
    this.#http = http;
    this.#server = server;
    this.#port = (http.address() as AddressInfo).port;
    server.on('connection', (socket) => this.#accept(socket));
  }

  /** Stops listening and closes every connection with `code` (1001: the agent is stopping). */
  async stop(code = 1001, reason = 'AGENT_STOPPING'): Promise<void> {
    this.closeAll(code, reason);
    const server = this.#server;
    const http = this.#http;
    this.#server = null;
    this.#http = null;
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (http !== null) {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  }

  closeAll(code: number, reason: string): void {
    for (const session of this.#sessions) session.socket.close(code, reason);
  }

  /** Cuts every connection without a close frame, like a crash or a pulled cable (1006 at the client). */
  dropAll(): void {
    for (const session of this.#sessions) session.socket.terminate();
  }

  notify<E extends EventName>(session: FakeSession, event: E, payload: EventPayload<E>): void {
    const violations = schemaViolations(EVENTS[event].payload, payload);
    if (violations.length > 0) this.contractBreaches.push(`${event} payload: ${JSON.stringify(violations)}`);
    session.socket.send(JSON.stringify({ jsonrpc: '2.0', method: event, params: payload }));
  }

  notifyAll<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const session of this.#sessions) if (session.clientId !== null) this.notify(session, event, payload);
  }

  /** Resolves once `count` requests of `method` have arrived. */
  async waitForRequests(method: MethodName, count = 1, timeoutMs = 5_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received(method).length < count) {
      if (Date.now() > deadline)
        throw new Error(`waited ${timeoutMs} ms for ${count} × ${method}, got ${this.received(method).length}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return this.received(method);
  }

  #accept(socket: WebSocket): void {
    this.connections += 1;
    if (this.refuseWith !== null) {
      socket.close(this.refuseWith.code, this.refuseWith.reason);
      return;
    }
    const session: FakeSession = { id: this.#nextSessionId++, socket, clientId: null };
    this.#sessions.add(session);
    socket.on('close', () => this.#sessions.delete(session));
    socket.on('message', (data) => {
      void this.#answer(session, (data as Buffer).toString('utf8'));
    });
  }

  async #answer(session: FakeSession, text: string): Promise<void> {
    const request = JSON.parse(text) as { id: number; method: string; params: unknown };
    this.requests.push({ sessionId: session.id, method: request.method, params: request.params });
    const reply = (body: object): void => {
      if (session.socket.readyState === WebSocket.OPEN)
        session.socket.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...body }));
    };
    try {
      const result = await this.#run(session, request.method, request.params);
      const spec = METHODS[request.method as MethodName];
      const violations = schemaViolations(spec.result, result);
      if (violations.length > 0) this.contractBreaches.push(`${request.method} result: ${JSON.stringify(violations)}`);
      reply({ result });
    } catch (error) {
      const posError = error instanceof PosError ? error : new PosError('INTERNAL_ERROR', String(error));
      reply({
        error: {
          code: POS_ERRORS[posError.code].rpc,
          message: posError.message,
          data: { code: posError.code, cashier_message: posError.cashierMessage, ...posError.data },
        },
      });
    }
  }

  async #run(session: FakeSession, method: string, params: unknown): Promise<unknown> {
    if (!Object.hasOwn(METHODS, method)) throw new PosError('METHOD_NOT_FOUND');
    const name = method as MethodName;
    if (!PUBLIC_METHODS.has(name) && session.clientId === null) throw new PosError('UNAUTHENTICATED');
    const violations = schemaViolations(METHODS[name].params, params ?? {});
    if (violations.length > 0) {
      throw new PosError('INVALID_PARAMS', undefined, {
        violations: violations.map(({ field, message }) => ({ field, message })),
      });
    }
    const handler = this.#handlers.get(name);
    if (handler !== undefined) return handler(params as ParamsOf<MethodName>, session);
    switch (name) {
      case 'agent.info':
        return {
          name: 'Pinbridge',
          version: '0.0.0-test',
          protocol: 1,
          mode: 'training',
          authenticated: session.clientId !== null,
          methods: Object.keys(METHODS),
          events: Object.keys(EVENTS),
        } satisfies ResultOf<'agent.info'>;
      case 'session.pair': {
        const pairingId = `pairing-${this.#nextPairing++}`;
        this.#pairings.set(pairingId, (params as ParamsOf<'session.pair'>).name);
        return {
          pairing_id: pairingId,
          expires_at: new Date(Date.now() + 120_000).toISOString(),
          code_length: 6,
          message: 'Digite o código mostrado na janela do Pinbridge.',
        } satisfies ResultOf<'session.pair'>;
      }
      case 'session.confirmPairing': {
        const { pairing_id: pairingId, code } = params as ParamsOf<'session.confirmPairing'>;
        const name = this.#pairings.get(pairingId);
        if (name === undefined) throw new PosError('PAIRING_INVALID', undefined, { reason: 'PAIRING_UNKNOWN' });
        if (code !== PAIRING_CODE) throw new PosError('WRONG_CODE', undefined, { attempts_left: 2 });
        this.#pairings.delete(pairingId);
        const client = { client_id: `client-${this.tokens.size + 1}`, name };
        const token = `token-${client.client_id}`;
        this.tokens.set(token, client);
        session.clientId = client.client_id;
        return { ...client, token } satisfies ResultOf<'session.confirmPairing'>;
      }
      case 'session.hello': {
        const client = this.tokens.get((params as ParamsOf<'session.hello'>).token);
        if (client === undefined) throw new PosError('TOKEN_INVALID');
        session.clientId = client.client_id;
        const missed = this.missedResults.get(client.client_id) ?? [];
        this.missedResults.delete(client.client_id);
        return { ...client, missed_results: missed } satisfies ResultOf<'session.hello'>;
      }
      default:
        throw new PosError('METHOD_NOT_FOUND', `The fake agent has no handler for ${name}`);
    }
  }
}

/** A payment outcome as the agent reports it; `overrides` for what a test cares about. */
export function outcome(overrides: Partial<PaymentOutcome> = {}): PaymentOutcome {
  const state = overrides.state ?? 'awaiting_confirmation';
  return {
    phase: phaseOf(state),
    status: 'approved',
    reference_id: 'sale-1',
    payment_id: 'pay-1',
    transaction_id: '0123456789abcdef0123456789abcdef',
    terminal: 'SIM0001',
    amount: 1234,
    payment_type: 'credit',
    installments: 1,
    authorization_code: 'A1B2C3',
    nsu: '000123',
    card: { brand: 'Visa', masked_pan: '411111******1111', entry_mode: 'chip' },
    confirmation: 'pending',
    state: 'awaiting_confirmation',
    problem: null,
    decline_code: null,
    issuer_response_code: '00',
    customer_tax_id: null,
    created_at: '2026-01-02T10:00:00.000Z',
    finished_at: '2026-01-02T10:00:30.000Z',
    ...overrides,
  };
}

/** A promise that never settles: the handler of a request the agent "loses" (or answers too late). */
export function never(): Promise<never> {
  return new Promise<never>(() => undefined);
}
