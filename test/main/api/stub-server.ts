/**
 * A scripted HTTP server on 127.0.0.1 for the client's tests: each test says what the n-th
 * request gets (status, headers, body, a delay, or a dropped connection) and reads back what
 * arrived. Real sockets, no mocked fetch.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PaymentsClient, type PaymentsClientOptions } from '../../../main/api/index.js';
import { blankTransaction } from '../../../main/sandbox/payments/create.js';

export interface RecordedRequest {
  readonly method: string;
  /** Path and query, as sent. */
  readonly url: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** performance.now() at arrival. */
  readonly at: number;
  /** The client's port: the same port for two requests means one reused connection. */
  readonly remotePort: number | undefined;
}

export interface StubReply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  /** An object is sent as JSON; a string as is. */
  readonly body?: unknown;
  /** Wait before answering (for timeouts). */
  readonly delayMs?: number;
  /** Destroy the connection instead of answering (a reset). */
  readonly reset?: boolean;
}

export type StubScript = StubReply | ((request: RecordedRequest, index: number) => StubReply);

export interface Stub {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Answers request n with `script[n]` (the last entry repeats). */
export function startStub(...script: StubScript[]): Promise<Stub> {
  return startStubAt(0, ...script);
}

/** startStub on a given port (a server that comes back where one was). */
export async function startStubAt(port: number, ...script: StubScript[]): Promise<Stub> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const parsed = new URL(url, 'http://stub');
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        url,
        path: parsed.pathname,
        query: parsed.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        at: performance.now(),
        remotePort: req.socket.remotePort,
      };
      const index = requests.length;
      requests.push(recorded);
      const entry = script[Math.min(index, script.length - 1)] ?? { status: 200, body: {} };
      const reply = typeof entry === 'function' ? entry(recorded, index) : entry;
      const answer = (): void => send(res, reply);
      if (reply.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, reply.delayMs);
        timers.add(timer);
      } else {
        answer();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const listening = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${listening}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, reply: StubReply): void {
  if (reply.reset) {
    res.socket?.destroy();
    return;
  }
  if (res.destroyed) return;
  const body = reply.body === undefined ? '' : typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
  const headers: Record<string, string> = { ...reply.headers };
  if (typeof reply.body === 'object' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  res.writeHead(reply.status ?? 200, headers);
  res.end(body);
}

export const MARKETPLACE_ID = '0123456789abcdef0123456789abcdef';
export const SELLER_ID = 'fedcba9876543210fedcba9876543210';
export const TXN_ID = 'aaaaaaaaaaaaaaaabbbbbbbbbbbbbbbb';
export const TOKEN = 'sbx_secret-token-value-0123456789';

/** A client for the stub, with tiny backoff so retry tests are quick. */
export function stubClient(stub: Stub, options: Partial<PaymentsClientOptions> = {}): PaymentsClient {
  return new PaymentsClient({
    baseUrl: stub.url,
    token: TOKEN,
    marketplaceId: MARKETPLACE_ID,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 5,
    timeoutMs: 2_000,
    ...options,
  });
}

/** A complete transaction record as the service writes it (a PINPAD sale); `amount` as given. */
export function wireTransaction(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const basics = { amount: 1500, description: 'Venda 1', reference_id: 'sale-1', on_behalf_of: SELLER_ID };
  return {
    ...blankTransaction(MARKETPLACE_ID, TXN_ID, basics, '2026-01-02T10:00:00+00:00'),
    payment_type: 'credit',
    payment_locale: 'pinpad',
    terminal: 'PP123456',
    ...overrides,
  };
}

/** Captures log lines (as a pino logger would receive them). */
export function captureLogger(): {
  logger: PaymentsClientOptions['logger'] & object;
  lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }>;
} {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const at =
    (level: string) =>
    (obj: Record<string, unknown>, msg: string): void => {
      lines.push({ level, obj, msg });
    };
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}
