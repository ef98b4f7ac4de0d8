/**
 * The POS API server: JSON-RPC 2.0 over a WebSocket at `/pos`, on loopback only, plus the demo
 * POS page and the browser client over plain HTTP on the same port.
 *
 * Who gets in (anchors §7, §8.2):
 * - it listens on 127.0.0.1 (and ::1 when the machine has it), never on a network address;
 * - every request and upgrade must name this agent in `Host` (127.0.0.1, localhost or [::1] with
 *   its port): a page that rebinds its own domain to 127.0.0.1 is refused before anything runs;
 * - a browser's `Origin` must be one that can be paired (http/https); a blocked origin is closed
 *   at once with 4003 and an unpairable one (a file, a sandboxed frame) with 4001 — close codes,
 *   not HTTP refusals, because a page can read a close code but not a refused upgrade;
 * - a program the cashier blocked (found from the connection's TCP port: peer/) is closed at once
 *   with 4005, before anything it sent is read;
 * - a session may only find the agent, pair and say hello until it has presented a client token
 *   bound to its origin (dispatch.ts); a non-browser client has no Origin and uses its token;
 * - connections that have not logged in are closed a fixed time after they connect, and when too
 *   many are open the program holding the most gives up its oldest (waiting-room.ts): a newcomer,
 *   such as a paired POS reconnecting, is never turned away;
 * - messages over the size limit close the connection (1009); everything else is answered.
 *
 * Refusals are counted and logged once a minute per reason (refusals.ts), never one line each;
 * pairing, blocks and revocations also go to the audit trail (`options.audit`).
 *
 * Optional `wss://` (and https for the page) with a certificate the machine trusts (settings
 * `pos.tls`, made by `pinbridge pos cert`); see docs/pos-api.md for what browsers require.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import { PACKAGE_ROOT } from '../../version.js';
import { nodeHttp, nodeHttps } from '../../../lib/net-builtins.js';
import { normalizeOrigin } from '../clients/client-store.js';
import type { AuditLog } from '../../audit-log.js';
import { CLOSE_CODES, DEFAULT_PORTS, MAX_MESSAGE_BYTES, WS_PATH } from '../protocol/index.js';
import type { PosAgent } from './agent.js';
import { findHeaderCardData } from './card-data-guard.js';
import { Dispatcher } from './dispatch.js';
import type { PairingAnnouncement } from '../protocol/pairing.js';
import { agentHandlers } from './handlers/agent.js';
import { paymentHandlers } from './handlers/payment.js';
import { pinpadHandlers } from './handlers/pinpad.js';
import { receiptHandlers } from './handlers/receipt.js';
import { relayHandlers } from './handlers/relay.js';
import { pixHandlers } from './handlers/pix.js';
import { operatorHandlers } from './handlers/operator.js';
import { sessionHandlers } from './handlers/session.js';
import { Hub } from './hub.js';
import { peerFinderFor } from './peer/finder.js';
import type { PeerFinder } from './peer/peer.js';
import { DEFAULT_RATE_LIMIT, type RateLimitOptions } from './rate-limit.js';
import { DEFAULT_SUMMARY_INTERVAL_MS, RefusalLog, type RefusalReason } from './refusals.js';
import { Session } from './session.js';
import { StageClock } from './stage-clock.js';
import { roomFor, timeIsUp } from './waiting-room.js';

/** A Pix QR shown in the window because the PINPAD cannot show it (PosServerOptions.announcePixOnScreen). */
export interface PixOnScreen {
  readonly terminal: string;
  readonly transactionId: string;
}

export interface PosServerOptions {
  readonly agent: PosAgent;
  readonly logger: Logger;
  /** Where security events go (pairing, blocks, refused connections in aggregate); none: the log alone. */
  readonly audit?: AuditLog;
  /** Ports tried in order until one is free; [0] takes any free port (tests). Default DEFAULT_PORTS. */
  readonly ports?: readonly number[];
  /** Also listen on ::1 (same port) when the machine has IPv6 loopback. Default true. */
  readonly ipv6?: boolean;
  /**
   * The key that makes a session Pinbridge's own window (session.operator), from one of the
   * pages this server serves or a program on this computer. Absent: no session can be the window.
   */
  readonly operatorKey?: string;
  /** PEM key and certificate: serve wss:// and https:// instead of ws:// and http://. */
  readonly tls?: { readonly key: string | Buffer; readonly cert: string | Buffer };
  readonly rateLimit?: RateLimitOptions;
  readonly maxMessageBytes?: number;
  /** Shows a pairing code to the cashier (the window, or the terminal when headless). */
  readonly announcePairing: (pairing: PairingAnnouncement) => void;
  /**
   * A Pix QR the customer must scan from the checkout's screen (pix.show on a text-only PINPAD,
   * or one that would not take the image): the desktop app brings its window forward.
   */
  readonly announcePixOnScreen?: (shown: PixOnScreen) => void;
  /** How often idle connections are pinged; one that misses a pong is dropped. Default 30 s. */
  readonly heartbeatMs?: number;
  /**
   * Connections open at once that have not logged in (paired, hello or the window); over it, the
   * program holding the most gives up its oldest. Default 32.
   */
  readonly maxUnauthenticated?: number;
  /**
   * How long after connecting one of those is closed, whatever it sends (with a pairing request
   * waiting for its code: when that request ends). Default 30 s.
   */
  readonly unauthenticatedLifetimeMs?: number;
  /** Finds the program behind a connection; default: this system's (peer/finder.ts). */
  readonly peerFinder?: PeerFinder;
  /** How often the counted refusals are written to the log. Default a minute. */
  readonly refusalSummaryMs?: number;
}

export const DEFAULT_MAX_UNAUTHENTICATED = 32;
export const DEFAULT_UNAUTHENTICATED_LIFETIME_MS = 30_000;

/**
 * The pages the agent serves: the demo POS (demo/), the browser client (client/dist, the build of
 * the @pinbridge/client package), and
 * Pinbridge's own window — its HTML, CSS and images in renderer/, its compiled scripts in
 * dist/renderer.
 */
const STATIC_ROOTS = {
  demo: join(PACKAGE_ROOT, 'demo'),
  client: join(PACKAGE_ROOT, 'client', 'dist'),
  window: join(PACKAGE_ROOT, 'renderer'),
  windowScripts: join(PACKAGE_ROOT, 'dist', 'renderer'),
} as const;
const STATIC_FILE = /^[a-z0-9][a-z0-9-]*\.(html|css|js|svg)$/;
/** A folder of the window's scripts (dist/renderer/settings, dist/renderer/i18n): one level, no dots. */
const SCRIPT_FOLDER = /^[a-z][a-z0-9-]*$/;
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  svg: 'image/svg+xml',
};

function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Not Found'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: Error): void => reject(error);
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : port);
    });
  });
}

export class PosServer {
  readonly port: number;
  readonly secure: boolean;
  readonly #servers: Server[];
  readonly #wss: WebSocketServer;
  readonly #hub: Hub;
  readonly #app: FastifyInstance;
  readonly #heartbeat: NodeJS.Timeout;
  readonly #idleSweep: NodeJS.Timeout;
  readonly #refusals: RefusalLog;
  readonly #dispatcher: Dispatcher;

  private constructor(parts: {
    port: number;
    secure: boolean;
    servers: Server[];
    wss: WebSocketServer;
    hub: Hub;
    app: FastifyInstance;
    heartbeat: NodeJS.Timeout;
    idleSweep: NodeJS.Timeout;
    refusals: RefusalLog;
    dispatcher: Dispatcher;
  }) {
    this.port = parts.port;
    this.secure = parts.secure;
    this.#servers = parts.servers;
    this.#wss = parts.wss;
    this.#hub = parts.hub;
    this.#app = parts.app;
    this.#heartbeat = parts.heartbeat;
    this.#idleSweep = parts.idleSweep;
    this.#refusals = parts.refusals;
    this.#dispatcher = parts.dispatcher;
  }

  /** ws://127.0.0.1:PORT/pos (wss:// with TLS). */
  get url(): string {
    return `${this.secure ? 'wss' : 'ws'}://127.0.0.1:${this.port}${WS_PATH}`;
  }

  /** Pinbridge's window served to a browser, the operator key in the fragment (a browser never sends it). */
  uiUrl(operatorKey: string): string {
    return `${this.secure ? 'https' : 'http'}://127.0.0.1:${this.port}/#key=${operatorKey}`;
  }

  /** The window's POS clients page, where pairing codes appear (the window logs in as with uiUrl). */
  pairingUrl(operatorKey: string): string {
    return `${this.uiUrl(operatorKey)}&page=clients`;
  }

  /** The demo POS page. */
  get demoUrl(): string {
    return `${this.secure ? 'https' : 'http'}://127.0.0.1:${this.port}/demo/`;
  }

  /** The addresses it listens on ("127.0.0.1", "::1"): loopback only, by construction. */
  get addresses(): string[] {
    return this.#servers.map((server) => {
      const address = server.address();
      return typeof address === 'object' && address !== null ? address.address : String(address);
    });
  }

  /** Connected sessions (authenticated or not). */
  get sessions(): number {
    return this.#hub.sessions.size;
  }

  /**
   * Times the stages of every request answered from now on (stage-clock.ts), until `stop` —
   * the benchmark's breakdown of a round trip. Not timed otherwise: the path reads no clock.
   */
  timeStages(): { readonly clock: StageClock; stop(): void } {
    const clock = new StageClock();
    this.#dispatcher.clock = clock;
    return {
      clock,
      stop: () => {
        if (this.#dispatcher.clock === clock) this.#dispatcher.clock = undefined;
      },
    };
  }

  /** Closes the sessions of a client just revoked (the store already refuses its token). */
  revoked(clientId: string): void {
    this.#hub.revoked(clientId);
  }

  static async start(options: PosServerOptions): Promise<PosServer> {
    const { agent, logger } = options;
    const rateLimit = options.rateLimit ?? DEFAULT_RATE_LIMIT;
    const maxUnauthenticated = options.maxUnauthenticated ?? DEFAULT_MAX_UNAUTHENTICATED;
    const lifetimeMs = options.unauthenticatedLifetimeMs ?? DEFAULT_UNAUTHENTICATED_LIFETIME_MS;
    const finder = options.peerFinder ?? peerFinderFor();
    const audit = options.audit;
    const record = audit === undefined ? undefined : audit.record.bind(audit);
    const hub = new Hub(agent, rateLimit, logger, record);
    hub.pix.on('shown', (shown) => {
      if (shown.pinpad.kind === 'text')
        options.announcePixOnScreen?.({ terminal: shown.terminal, transactionId: shown.transactionId });
    });
    const refusals = new RefusalLog({
      logger,
      ...(record === undefined ? {} : { audit: record }),
      intervalMs: options.refusalSummaryMs ?? DEFAULT_SUMMARY_INTERVAL_MS,
    });
    const refused = (reason: RefusalReason, session: Session): void => refusals.count(reason, session.describe());
    /**
     * Whether any program is blocked, or this one; a clients file that cannot be read (locked by
     * another process) blocks nothing rather than refusing everyone.
     */
    const blockedPrograms = (program?: string): boolean => {
      try {
        return program === undefined ? agent.clients.hasBlockedPrograms() : agent.clients.isProgramBlocked(program);
      } catch (error) {
        logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'blocked programs not read');
        return false;
      }
    };
    const allowedHosts = new Set<string>();
    const ownOrigins = new Set<string>();
    const dispatcher = new Dispatcher(
      {
        ...sessionHandlers,
        ...operatorHandlers,
        ...agentHandlers,
        ...pinpadHandlers,
        ...paymentHandlers,
        ...receiptHandlers,
        ...relayHandlers,
        ...pixHandlers,
      },
      {
        agent,
        hub,
        log: logger,
        announcePairing: (pairing, session) => {
          hub.pairingRequested(pairing, session);
          options.announcePairing(pairing);
        },
        refused,
        operatorKey: options.operatorKey,
        ownOrigins,
      },
    );
    const app = buildHttpApp(allowedHosts);
    await app.ready();
    const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxMessageBytes ?? MAX_MESSAGE_BYTES });
    const alive = new WeakMap<WebSocket, boolean>();

    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
      socket.on('error', () => socket.destroy());
      const path = (request.url ?? '').split('?')[0];
      // A header that gets logged and holds card data is refused without its value reaching the log.
      const cardDataHeader = findHeaderCardData(request.headers);
      const host = (request.headers.host ?? '').toLowerCase();
      const who = `Host ${cardDataHeader === 'host' ? '[card data]' : host.slice(0, 60)}, port ${request.socket.remotePort ?? '?'}`;
      if (path !== WS_PATH) {
        refusals.count('NOT_FOUND', who);
        return refuse(socket, 404, 'NOT_FOUND', `The POS API is at ${WS_PATH}.`);
      }
      if (!allowedHosts.has(host)) {
        // DNS rebinding? Counted and summed up once a minute: a flood must not flush the log.
        refusals.count('HOST_NOT_ALLOWED', who);
        return refuse(
          socket,
          403,
          'HOST_NOT_ALLOWED',
          'The Host header must be 127.0.0.1, localhost or [::1] with this port.',
        );
      }
      const rawOrigin = request.headers.origin;
      const remote = {
        address: request.socket.remoteAddress ?? '',
        port: request.socket.remotePort ?? 0,
        serverPort: request.socket.localPort ?? 0,
      };
      wss.handleUpgrade(request, socket, head, (ws) => {
        let origin: string | null = null;
        if (rawOrigin !== undefined) {
          if (cardDataHeader === 'origin') {
            // Counted like any refusal (a flood stays a summary line), its value never logged.
            refusals.count('ORIGIN_NOT_ALLOWED', 'Origin [card data]');
            record?.({ kind: 'card_data.refused', field: 'Origin header' });
            return ws.close(CLOSE_CODES.ORIGIN_NOT_ALLOWED, 'ORIGIN_NOT_ALLOWED');
          }
          const normalized = normalizeOrigin(rawOrigin);
          if (normalized === undefined) {
            refusals.count('ORIGIN_NOT_ALLOWED', `Origin ${rawOrigin.slice(0, 60)}`);
            return ws.close(CLOSE_CODES.ORIGIN_NOT_ALLOWED, 'ORIGIN_NOT_ALLOWED');
          }
          if (agent.clients.isBlocked(normalized)) {
            refusals.count('ORIGIN_BLOCKED', normalized);
            return ws.close(CLOSE_CODES.ORIGIN_BLOCKED, 'ORIGIN_BLOCKED');
          }
          origin = normalized;
        }
        const session = new Session(ws, origin, rateLimit, { remote, finder });
        hub.sessions.add(session);
        const waiting = [...hub.sessions].filter(
          (other) => other !== session && other.open && !other.authenticated && other.admitted,
        );
        const crowded = waiting.length >= maxUnauthenticated;
        session.admitted = !crowded;
        // What the connection sends is read once its program is known to be allowed and to have room
        // (Dispatcher waits for `session.pending`); in the common case (no block, room) at once.
        if (crowded || blockedPrograms()) {
          // Under pressure every waiting connection's program counts: each is looked up once.
          if (crowded) for (const other of waiting) void other.lookUpPeer();
          const check = (async () => {
            const peer = await session.lookUpPeer();
            if (!session.open) return;
            if (peer.process !== null && blockedPrograms(peer.process.program)) {
              refusals.count('PROGRAM_BLOCKED', session.describe());
              return session.close('PROGRAM_BLOCKED');
            }
            if (session.admitted) return;
            // Room is decided by program: every waiting connection's program is known first.
            const waitingNow = (): Session[] =>
              [...hub.sessions].filter((other) => other.open && !other.authenticated && other.admitted);
            for (let round = 0; round < 3 && waitingNow().some((other) => other.peerInfo === undefined); round++)
              await Promise.all(waitingNow().map((other) => other.lookUpPeer()));
            if (!session.open) return;
            // The program holding the most gives up its oldest: the newcomer's own, for a squatter.
            for (const victim of roomFor(session, waitingNow(), maxUnauthenticated)) {
              refusals.count('TOO_MANY_CONNECTIONS', victim.describe());
              victim.close('TOO_MANY_CONNECTIONS');
            }
            session.admitted = true;
          })().catch((error: unknown) => {
            // Never a connection left unread: it is served as if there were room.
            logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'POS connection check failed');
            session.admitted = true;
          });
          session.holdUntil(check);
        }
        hub.clientsChanged();
        alive.set(ws, true);
        ws.on('pong', () => alive.set(ws, true));
        ws.on('message', (data, isBinary) => {
          const bytes = Array.isArray(data)
            ? Buffer.concat(data)
            : Buffer.isBuffer(data)
              ? data
              : Buffer.from(new Uint8Array(data));
          dispatcher.handle(session, bytes, isBinary);
        });
        ws.on('close', (code) => {
          if (code === CLOSE_CODES.MESSAGE_TOO_BIG) refusals.count('MALFORMED', session.describe());
          hub.sessions.delete(session);
          session.end();
          hub.clientsChanged();
        });
        ws.on('error', (error) => logger.debug({ err: error.message }, 'POS connection error'));
      });
    };

    const makeServer = (): Server => {
      const handler = (request: IncomingMessage, response: ServerResponse): void => app.routing(request, response);
      const server = options.tls
        ? nodeHttps().createServer({ key: options.tls.key, cert: options.tls.cert }, handler)
        : nodeHttp().createServer(handler);
      server.on('upgrade', onUpgrade);
      return server;
    };

    const servers: Server[] = [];
    let port: number | undefined;
    let lastError: unknown;
    for (const candidate of options.ports ?? DEFAULT_PORTS) {
      const server = makeServer();
      try {
        port = await listen(server, candidate, '127.0.0.1');
        servers.push(server);
        break;
      } catch (error) {
        lastError = error;
        server.close();
      }
    }
    if (port === undefined) {
      hub.close();
      await app.close();
      const detail = lastError instanceof Error ? lastError.message : String(lastError);
      throw new Error(`No free port for the POS API among ${(options.ports ?? DEFAULT_PORTS).join(', ')}: ${detail}`, {
        cause: lastError,
      });
    }
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) {
      allowedHosts.add(`${name}:${port}`);
      ownOrigins.add(`${options.tls ? 'https' : 'http'}://${name}:${port}`);
    }
    if (options.ipv6 !== false) {
      const v6 = makeServer();
      // No IPv6 loopback here (or the port is taken on it): IPv4 alone is fine.
      await listen(v6, port, '::1').then(
        () => servers.push(v6),
        () => v6.close(),
      );
    }
    const heartbeat = setInterval(() => {
      for (const ws of wss.clients) {
        if (alive.get(ws) === false) {
          ws.terminate();
          continue;
        }
        alive.set(ws, false);
        ws.ping();
      }
    }, options.heartbeatMs ?? 30_000);
    heartbeat.unref();
    // Connections that never log in cannot pile up or linger: each is closed a fixed time after it connected.
    const idleSweep = setInterval(
      () => {
        for (const session of hub.sessions) {
          if (!session.open || session.authenticated || !timeIsUp(session, lifetimeMs)) continue;
          refusals.count('IDLE', session.describe());
          session.close('IDLE');
        }
      },
      Math.max(50, Math.min(5_000, Math.floor(lifetimeMs / 3))),
    );
    idleSweep.unref();
    logger.info(
      { url: `${options.tls ? 'wss' : 'ws'}://127.0.0.1:${port}${WS_PATH}`, ipv6: servers.length > 1 },
      'POS API listening',
    );
    return new PosServer({
      port,
      secure: options.tls !== undefined,
      servers,
      wss,
      hub,
      app,
      heartbeat,
      idleSweep,
      refusals,
      dispatcher,
    });
  }

  /** Tells every session the agent is going away (1001), then stops listening. */
  async close(): Promise<void> {
    clearInterval(this.#heartbeat);
    clearInterval(this.#idleSweep);
    this.#refusals.close();
    this.#hub.close();
    for (const ws of this.#wss.clients) ws.close(1001, 'AGENT_STOPPING');
    await Promise.all(
      this.#servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      ),
    );
    this.#wss.close();
    await this.#app.close();
  }
}

/**
 * The page routes have no schema to validate or serialize with. Without compilers of its own,
 * fastify builds its defaults as it starts — requiring Ajv and fast-json-stringify, some 110
 * modules and 600 KB of source kept for nothing (issue 35); these say there are none, and a route
 * given a schema one day fails as it is added rather than going unchecked.
 */
const NO_SCHEMAS = {
  buildValidator: () => () => {
    throw new Error('the POS page routes take no schema: give this app a validator compiler first');
  },
  buildSerializer: () => () => {
    throw new Error('the POS page routes take no schema: give this app a serializer compiler first');
  },
};

/** The HTTP side: the demo page and the client, behind the same Host check as the WebSocket. */
function buildHttpApp(allowedHosts: ReadonlySet<string>): FastifyInstance {
  const app = fastify({ logger: false, schemaController: { compilersFactory: NO_SCHEMAS } });
  app.addHook('onRequest', async (request, reply) => {
    if (!allowedHosts.has((request.headers.host ?? '').toLowerCase())) {
      await reply.code(403).send({
        error: {
          code: 'HOST_NOT_ALLOWED',
          message: 'The Host header must be 127.0.0.1, localhost or [::1] with this port.',
        },
      });
    }
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('Cross-Origin-Resource-Policy', 'same-origin');
  });
  app.get(WS_PATH, async (_request, reply) =>
    reply
      .code(426)
      .send({ error: { code: 'UPGRADE_REQUIRED', message: 'The POS API is a WebSocket: connect with ws://.' } }),
  );
  const serve = (root: string) => async (file: string, reply: FastifyReply) => {
    if (!STATIC_FILE.test(file))
      return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No such file.' } });
    let body: Buffer;
    try {
      body = await readFile(join(root, file));
    } catch {
      return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No such file.' } });
    }
    const type = CONTENT_TYPES[file.slice(file.lastIndexOf('.') + 1)]!;
    if (type.startsWith('text/html')) {
      reply.header(
        'Content-Security-Policy',
        "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      );
    }
    return reply.type(type).header('Cache-Control', 'no-cache').send(body);
  };
  const demo = serve(STATIC_ROOTS.demo);
  const client = serve(STATIC_ROOTS.client);
  const windowFiles = serve(STATIC_ROOTS.window);
  const windowScripts = serve(STATIC_ROOTS.windowScripts);
  // Pinbridge's window: it logs in with the operator key from the address's fragment.
  app.get('/', async (_request, reply) => windowFiles('index.html', reply));
  app.get<{ Params: { file: string } }>('/app/:file', async (request, reply) =>
    request.params.file.endsWith('.js')
      ? windowScripts(request.params.file, reply)
      : windowFiles(request.params.file, reply),
  );
  // The window's panels and catalogs in their folders: compiled scripts only, one level deep.
  app.get<{ Params: { folder: string; file: string } }>('/app/:folder/:file', async (request, reply) => {
    const { folder, file } = request.params;
    if (!SCRIPT_FOLDER.test(folder) || !file.endsWith('.js'))
      return reply.code(404).send({ error: { code: 'NOT_FOUND', message: 'No such file.' } });
    return serve(join(STATIC_ROOTS.windowScripts, folder))(file, reply);
  });
  app.get('/demo/', async (_request, reply) => demo('index.html', reply));
  app.get<{ Params: { file: string } }>('/demo/:file', async (request, reply) => demo(request.params.file, reply));
  app.get<{ Params: { file: string } }>('/client/:file', async (request, reply) => client(request.params.file, reply));
  return app;
}
