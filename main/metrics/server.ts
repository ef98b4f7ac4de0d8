/**
 * The HTTP listener Prometheus scrapes: `GET /metrics` (and HEAD) answers the exposition text;
 * any other path is 404, any other method on it 405. Nothing else is served — no status page,
 * no API — because a store chain may configure it on a network address so its own Prometheus
 * can reach it. Default 127.0.0.1:9464 (the port Prometheus lists for exporters of this kind).
 *
 * node:http is enough for one route; its limits are tight (small headers, short timeouts, few
 * connections), since a scraper needs no more and anything else needs nothing.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentMetrics } from './metrics.js';
import { DEFAULT_METRICS_HOST, DEFAULT_METRICS_PORT } from './settings.js';
import { nodeHttp } from '../../lib/net-builtins.js';

/** The logger the server uses (a pino logger fits). */
export interface MetricsServerLogger {
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

export interface MetricsServerOptions {
  /** What is served: the agent's metrics (anything with the same `text` and `contentType`). */
  readonly metrics: Pick<AgentMetrics, 'text' | 'contentType'>;
  /** Default 127.0.0.1; a network address only when the settings say so. */
  readonly host?: string | undefined;
  /** Default 9464; 0 takes any free port (tests). */
  readonly port?: number | undefined;
  readonly logger?: MetricsServerLogger | undefined;
}

export const METRICS_PATH = '/metrics';
const ALLOWED_METHODS = 'GET, HEAD';
const MAX_CONNECTIONS = 32;

const silentLogger: MetricsServerLogger = { info: () => {}, warn: () => {}, error: () => {} };

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function answer(
  response: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: string,
  sendBody: boolean,
): void {
  response.writeHead(status, {
    ...headers,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  response.end(sendBody ? body : undefined);
}

export class MetricsServer {
  readonly #server: Server;
  readonly #host: string;
  readonly #port: number;

  private constructor(server: Server, host: string, port: number) {
    this.#server = server;
    this.#host = host;
    this.#port = port;
  }

  /** Listens; rejects (EADDRINUSE, EADDRNOTAVAIL…) when the address cannot be taken. */
  static async start(options: MetricsServerOptions): Promise<MetricsServer> {
    const { metrics } = options;
    const host = options.host ?? DEFAULT_METRICS_HOST;
    const logger = options.logger ?? silentLogger;
    const server = nodeHttp().createServer(
      { maxHeaderSize: 8 * 1024, requestTimeout: 10_000, headersTimeout: 5_000, keepAliveTimeout: 5_000 },
      (request: IncomingMessage, response: ServerResponse) => {
        void MetricsServer.#handle(request, response, metrics, logger);
      },
    );
    server.maxConnections = MAX_CONNECTIONS;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host, port: options.port ?? DEFAULT_METRICS_PORT, exclusive: true }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => logger.error({ err: error.message }, 'metrics server error'));
    const { port } = server.address() as AddressInfo;
    const started = new MetricsServer(server, host, port);
    logger.info({ url: started.url, loopback: isLoopback(host) }, 'Prometheus metrics served');
    return started;
  }

  /** Where Prometheus scrapes: http://HOST:PORT/metrics. */
  get url(): string {
    const host = this.#host.includes(':') ? `[${this.#host}]` : this.#host;
    return `http://${host}:${this.#port}${METRICS_PATH}`;
  }

  get port(): number {
    return this.#port;
  }

  /** Stops listening and drops open connections (a scrape in flight is cut). */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }

  static async #handle(
    request: IncomingMessage,
    response: ServerResponse,
    metrics: MetricsServerOptions['metrics'],
    logger: MetricsServerLogger,
  ): Promise<void> {
    const path = (request.url ?? '').split('?', 1)[0];
    const plain = { 'Content-Type': 'text/plain; charset=utf-8' };
    const sendBody = request.method !== 'HEAD';
    if (path !== METRICS_PATH)
      return answer(response, 404, plain, 'Not found: only GET /metrics is served here.\n', sendBody);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return answer(
        response,
        405,
        { ...plain, Allow: ALLOWED_METHODS },
        'Method not allowed: only GET /metrics is served here.\n',
        sendBody,
      );
    }
    let text: string;
    try {
      text = await metrics.text();
    } catch (error) {
      logger.error({ err: error instanceof Error ? error.message : String(error) }, 'metrics could not be collected');
      return answer(response, 500, plain, 'Metrics could not be collected; see the agent log.\n', sendBody);
    }
    answer(response, 200, { 'Content-Type': metrics.contentType }, text, sendBody);
  }
}
