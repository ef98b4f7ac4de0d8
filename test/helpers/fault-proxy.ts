/**
 * A real HTTP proxy on 127.0.0.1 in front of the payments API sandbox, for fault injection: rules
 * chosen by method and path make the first N matching requests fail the way networks and
 * services do, and every request seen is recorded (method, path, Idempotency-Key, what was done)
 * so a test can prove which calls were made, and how many times.
 *
 * - `timeout`: the request is held — never forwarded, never answered — so the client's own
 *   deadline has to fire;
 * - `status`: answered 500/502/503 (or a refusal: 401, 403, 408, 409, 429, 501) with the API's
 *   JSON error body (shape A), not forwarded;
 * - `reset_before`: the connection is reset without forwarding: the API never saw the request;
 * - `reset_after`: forwarded, the API's complete answer awaited, then the connection is reset
 *   instead of relaying it — the ambiguous outcome: the API did it, the client never heard;
 * - `status_after`: forwarded, the API's complete answer awaited, then answered 502/504 (or the
 *   status given) instead — a gateway that timed out on an upstream that did the work. With
 *   `forwards: 2` the gateway sends the request upstream twice first (it retried after its own
 *   timeout): a create becomes two transactions.
 *
 * Bodies are passed through and never kept (authorization bodies carry card data).
 */
import { randomBytes } from 'node:crypto';
import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type FaultAction = 'timeout' | 'status' | 'reset_before' | 'reset_after' | 'status_after';

/** Which requests a rule applies to: the method, and a pattern for the path (without the query). */
export interface CallMatcher {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly path: RegExp;
}

export interface FaultRule extends CallMatcher {
  readonly action: FaultAction;
  /**
   * For `status` (default 503): a 5xx, or a provider's refusal (401, 403, 404, 408, 409, 429, 501).
   * For `status_after` (default 502): what the gateway answers after the API did the work.
   */
  readonly status?: 401 | 403 | 404 | 408 | 409 | 429 | 500 | 501 | 502 | 503 | 504;
  /** For `status_after`: how many times the request is sent upstream (default 1). */
  readonly forwards?: number;
  /** Extra response headers for `status` (e.g. Retry-After). */
  readonly headers?: Readonly<Record<string, string>>;
  /** How many matching requests get the fault (default 1; Infinity until the rule is removed). */
  readonly times?: number;
}

export interface SeenRequest {
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  readonly query: string;
  readonly idempotencyKey: string | undefined;
  /** What the proxy did with it. */
  readonly action: FaultAction | 'forward';
  /** The API's status for forwarded requests (also `reset_after`), the injected one for `status`. */
  readonly status: number | undefined;
}

export interface ActiveRule {
  readonly rule: FaultRule;
  /** Requests this rule has failed so far. */
  readonly hits: number;
  remove(): void;
}

export interface FaultProxy {
  /** Base URL for the client ("http://127.0.0.1:PORT"). */
  readonly url: string;
  /** Every request in arrival order. */
  readonly seen: readonly SeenRequest[];
  add(rule: FaultRule): ActiveRule;
  /** Removes every rule: from now on everything is forwarded. */
  clear(): void;
  /** Requests seen for this call (whatever was done with them). */
  count(call: CallMatcher): number;
  /** Requests seen for this call. */
  requests(call: CallMatcher): SeenRequest[];
  close(): Promise<void>;
}

/** The payments API calls of a PINPAD sale, by the path they use (main/api). */
/** GET …/sellers/{id}/transactions: where findByReference looks when the provider cannot filter by reference_id. */
export const SELLER_LIST: CallMatcher = {
  method: 'GET',
  path: /\/v1\/marketplaces\/[^/]+\/sellers\/[^/]+\/transactions$/,
};

export const PAYMENT_CALLS = {
  /** POST …/transactions */
  create: { method: 'POST', path: /\/v1\/marketplaces\/[^/]+\/transactions$/ },
  /** GET …/transactions?reference_id=… (findByReference) */
  lookup: { method: 'GET', path: /\/v1\/marketplaces\/[^/]+\/transactions$/ },
  /** GET …/transactions/{id} */
  retrieve: { method: 'GET', path: /\/v1\/marketplaces\/[^/]+\/transactions\/[^/]+$/ },
  /** POST …/transactions/{id}/authorization */
  authorize: { method: 'POST', path: /\/v[12]\/marketplaces\/[^/]+\/transactions\/[^/]+\/authorization$/ },
  /** POST …/transactions/{id}/completion */
  complete: { method: 'POST', path: /\/v1\/marketplaces\/[^/]+\/transactions\/[^/]+\/completion$/ },
  /** POST …/transactions/{id}/reversal */
  reverse: { method: 'POST', path: /\/v1\/marketplaces\/[^/]+\/transactions\/[^/]+\/reversal$/ },
  /** POST …/transactions/{id}/void */
  void: { method: 'POST', path: /\/v1\/marketplaces\/[^/]+\/transactions\/[^/]+\/void$/ },
} as const satisfies Record<string, CallMatcher>;

export type PaymentCall = keyof typeof PAYMENT_CALLS;

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) kept[name] = value;
  }
  return kept;
}

function readBody(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** A connection reset (RST), as a dropped NAT entry or a crashing load balancer would send. */
function reset(socket: Socket): void {
  if (socket.destroyed) return;
  socket.resetAndDestroy();
}

/** An injected error answer, in the API's JSON error shape (A). */
function answerStatus(res: ServerResponse, status: number, headers: Readonly<Record<string, string>> = {}): void {
  const text = JSON.stringify({
    status,
    detail: `Injected ${status} (fault proxy)`,
    trace_id: randomBytes(8).toString('hex'),
  });
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

const matches = (call: CallMatcher, method: string, path: string): boolean =>
  call.method === method && call.path.test(path);

interface RuleState {
  readonly rule: FaultRule;
  remaining: number;
  hits: number;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const rules: RuleState[] = [];
  const seen: Array<{ -readonly [K in keyof SeenRequest]: SeenRequest[K] }> = [];
  const sockets = new Set<Socket>();

  const take = (method: string, path: string): FaultRule | undefined => {
    const state = rules.find((candidate) => candidate.remaining > 0 && matches(candidate.rule, method, path));
    if (!state) return undefined;
    state.remaining--;
    state.hits++;
    return state.rule;
  };

  const forward = (
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const out = httpRequest(
        {
          protocol: upstream.protocol,
          hostname: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...endToEnd(req.headers), host: upstream.host, 'content-length': String(body.length) },
          agent,
        },
        (res) => {
          readBody(res).then(
            (answer) => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: answer }),
            reject,
          );
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://proxy.invalid');
    const key = req.headers['idempotency-key'];
    const rule = take(method, url.pathname);
    const entry: (typeof seen)[number] = {
      method,
      path: url.pathname,
      query: url.search,
      idempotencyKey: Array.isArray(key) ? key[0] : key,
      action: rule?.action ?? 'forward',
      status: undefined,
    };
    seen.push(entry);
    // The whole request is read first: the client has sent it, whatever happens next.
    const body = await readBody(req);
    switch (rule?.action) {
      case 'timeout':
        // Held: the client's deadline ends it (the socket goes with the client's abort, or at close).
        return;
      case 'reset_before':
        reset(req.socket);
        return;
      case 'status':
        entry.status = rule.status ?? 503;
        answerStatus(res, entry.status, rule.headers);
        return;
      case 'status_after': {
        for (let sent = 0; sent < Math.max(1, rule.forwards ?? 1); sent++) await forward(req, body);
        entry.status = rule.status ?? 502;
        answerStatus(res, entry.status, rule.headers);
        return;
      }
      default: {
        const answer = await forward(req, body);
        entry.status = answer.status;
        if (rule?.action === 'reset_after') {
          reset(req.socket);
          return;
        }
        res.writeHead(answer.status, { ...endToEnd(answer.headers), 'content-length': String(answer.body.length) });
        res.end(answer.body);
      }
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      // The sandbox could not be reached: answer like a gateway would.
      if (!res.headersSent) {
        res.writeHead(502, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            status: 502,
            detail: 'Bad gateway (fault proxy)',
            trace_id: randomBytes(8).toString('hex'),
          }),
        );
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    add(rule) {
      const state: RuleState = { rule, remaining: rule.times ?? 1, hits: 0 };
      rules.push(state);
      return {
        rule,
        get hits() {
          return state.hits;
        },
        remove() {
          const at = rules.indexOf(state);
          if (at >= 0) rules.splice(at, 1);
        },
      };
    },
    clear() {
      rules.length = 0;
    },
    count(call) {
      return seen.filter((entry) => matches(call, entry.method, entry.path)).length;
    },
    requests(call) {
      return seen.filter((entry) => matches(call, entry.method, entry.path));
    },
    async close() {
      rules.length = 0;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Held requests and kept-alive connections would keep close() waiting forever.
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}
