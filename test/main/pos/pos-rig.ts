/**
 * The POS API under test, whole: the payment stack of the engine rig (sandbox on loopback,
 * journal file, engine), simulated PINPADs attached through the registry, receipts printed into
 * a folder printer, a client store file, and the real PosServer on a free loopback port. Tests
 * talk to it with real `ws` clients (`RpcClient`), as a POS would.
 */
import type { PinpadLink } from '../../../main/pinpad/link-status.js';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import {
  PinpadSimulator,
  startMemorySimulator,
  type PinpadSimulatorOptions,
  type SimulatorSession,
} from '../../../drivers/simulator/index.js';
import { ApiHealthMonitor } from '../../../main/api/health.js';
import { PaymentsClient } from '../../../main/api/index.js';
import type { EngineConfig } from '../../../main/core/engine.js';
import type { JournalOptions } from '../../../main/core/journal/journal.js';
import { PinpadRegistry } from '../../../main/pinpad/registry.js';
import type { AttachOptions } from '../../../main/pinpad/attach.js';
import { ClientStore } from '../../../main/pos/clients/client-store.js';
import { schemaViolations } from '../../../main/contract/index.js';
import {
  ErrorData,
  EVENTS,
  METHODS,
  type EventName,
  type MethodName,
  type ResultOf,
} from '../../../main/pos/protocol/index.js';
import type { PairingAnnouncement } from '../../../main/pos/protocol/pairing.js';
import type { AuditLog } from '../../../main/audit-log.js';
import type { Logger } from '../../../main/log.js';
import type { PeerFinder } from '../../../main/pos/server/peer/peer.js';
import type { RateLimitOptions } from '../../../main/pos/server/rate-limit.js';
import { PosServer, type PixOnScreen } from '../../../main/pos/server/server.js';
import type { SupervisorGuard } from '../../../main/pos/server/supervisor.js';
import type { DiskWatcher, UpdateWatcher } from '../../../main/pos/server/agent.js';
import { openReceiptPrinting, type ReceiptPrinting } from '../../../main/receipts/printing.js';
import { TRAINING_RECEIPT_SETTINGS } from '../../../main/receipts/settings.js';
import type { ReceiptCopy } from '../../../main/receipts/card-receipt.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { engineRig, type EngineRig } from '../core/engine-rig.js';
import { trainingPix } from '../../../main/agent/training-pix.js';

export interface PosPinpad {
  readonly serial: string;
  readonly sim: PinpadSimulator;
  /** The simulator's end of the cable: its link's `trace` shows each command the PINPAD receives, its `faults` slow it down. */
  readonly session: SimulatorSession;
  readonly pinpad: Pinpad;
  /** Pulls the cable: the registry marks it disconnected. */
  unplug(): void;
}

export interface PosRig {
  readonly rig: EngineRig;
  readonly server: PosServer;
  readonly clients: ClientStore;
  readonly registry: PinpadRegistry;
  readonly printing: ReceiptPrinting;
  readonly apiHealth: ApiHealthMonitor;
  /** Where the folder printer writes each job. */
  readonly printDir: string;
  /**
   * The jobs the folder printer has written whole, oldest first (full paths): not the hidden
   * `.part` file of a job still being written, which a spec reading the folder mid-job would see.
   */
  printedJobs(): string[];
  /** Every pairing code the "window" was shown. */
  readonly announced: PairingAnnouncement[];
  /** Every Pix QR the "window" was asked to bring forward (a text-only PINPAD's). */
  readonly pixOnScreen: PixOnScreen[];
  readonly pinpads: PosPinpad[];
  addPinpad(serial: string, options?: PinpadSimulatorOptions, attach?: AttachOptions): Promise<PosPinpad>;
  /** A connected client (not logged in). `origin` is sent like a browser would. */
  connect(options?: { origin?: string; host?: string }): Promise<RpcClient>;
  /** A client that paired (its token in `token`) and is logged in. */
  paired(name?: string, options?: { origin?: string }): Promise<RpcClient>;
  /** Pinbridge's own window: a connection from the agent's own page, logged in with the operator key. */
  operator(): Promise<RpcClient>;
  /** Closes the POS server and the client store and opens them again from the file (a restart of the POS layer; on another port). */
  restartServer(): Promise<void>;
  close(): Promise<void>;
}

export interface RpcMessage {
  readonly jsonrpc: '2.0';
  readonly id?: string | number | null;
  readonly method?: string;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: { code: number; message: string; data: { code: string; [key: string]: unknown } };
}

/** A bare JSON-RPC client on `ws`, the way a POS developer would write one. */
/**
 * `promise`, its failure reported to whoever awaits it and to nobody else: a spec that fires a call
 * and goes on (`void client.request(…)`) and then closes the connection does not care that the
 * call got no answer.
 */
function quietly<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** Why a call got no answer: its connection closed first, with this code and reason. */
function closedBeforeAnswer(code: number, reason: string): Error {
  return new Error(`the connection closed (${code}${reason === '' ? '' : ` ${reason}`}) before the answer came`);
}

export class RpcClient {
  readonly socket: WebSocket;
  readonly notifications: RpcMessage[] = [];
  token: string | undefined;
  #next = 0;
  readonly #waiting = new Map<string | number, (message: RpcMessage | Error) => void>();
  readonly #noIdAnswers: RpcMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(socket: WebSocket) {
    this.socket = socket;
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => {
        // A call the agent can no longer answer fails, naming why the connection ended, instead of
        // waiting for the spec's timeout.
        for (const [, answer] of this.#waiting) answer(closedBeforeAnswer(code, reason.toString()));
        this.#waiting.clear();
        resolve({ code, reason: reason.toString() });
      }),
    );
    socket.on('message', (data) => {
      const message = JSON.parse((data as Buffer).toString('utf8')) as RpcMessage;
      if (message.id === undefined) this.notifications.push(message);
      else if (message.id === null) this.#noIdAnswers.push(message);
      else this.#waiting.get(message.id)?.(message);
    });
  }

  /** The raw answer (result or error); rejects when the connection closes first. */
  request(method: string, params?: unknown): Promise<RpcMessage> {
    const id = ++this.#next;
    return quietly(
      new Promise((resolve, reject) => {
        this.#waiting.set(id, (message) => {
          this.#waiting.delete(id);
          if (message instanceof Error) reject(new Error(`${method}: ${message.message}`));
          else resolve(message);
        });
        this.socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
      }),
    );
  }

  /** The result; an error answer throws with its data code. */
  call<T = Record<string, unknown>>(method: string, params?: unknown): Promise<T> {
    return quietly(
      this.request(method, params).then((answer) => {
        if (answer.error)
          throw Object.assign(new Error(`${method}: ${answer.error.data.code} ${answer.error.message}`), { answer });
        return answer.result as T;
      }),
    );
  }

  /** The error's data code of a call expected to fail. */
  failure(method: string, params?: unknown): Promise<NonNullable<RpcMessage['error']>> {
    return quietly(
      this.request(method, params).then((answer) => {
        if (!answer.error)
          throw new Error(`${method} was expected to fail but answered ${JSON.stringify(answer.result)}`);
        return answer.error;
      }),
    );
  }

  /** Answers to messages whose id could not be read (parse errors…). */
  get anonymousAnswers(): readonly RpcMessage[] {
    return this.#noIdAnswers;
  }

  events(method: string): unknown[] {
    return this.notifications.filter((n) => n.method === method).map((n) => n.params);
  }

  /** Resolves with the first notification (past or future) matching. */
  async next(
    method: string,
    match: (params: Record<string, unknown>) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.notifications.find((n) => n.method === method && match(n.params as Record<string, unknown>));
      if (found) return found.params as Record<string, unknown>;
      if (Date.now() > deadline) throw new Error(`no ${method} notification within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  close(): Promise<{ code: number; reason: string }> {
    this.socket.close();
    return this.closed;
  }
}

/**
 * Throws (failing the spec) when `value` breaks its schema. Plain, not vitest's `expect`: the
 * benchmarks drive the agent through this rig too, outside the test runner.
 */
function assertSchema(schema: Parameters<typeof schemaViolations>[0], value: unknown, what: string): void {
  const violations = schemaViolations(schema, value);
  if (violations.length > 0) throw new Error(`${what} breaks its schema: ${JSON.stringify(violations)}`);
}

/** Calls a method and checks its answer against the method's result schema. */
export async function checkedCall<M extends MethodName>(
  client: RpcClient,
  method: M,
  params?: unknown,
): Promise<ResultOf<M>> {
  const result = await client.call<ResultOf<M>>(method, params);
  assertSchema(METHODS[method].result, result, `${method} result`);
  return result;
}

/** Calls a method expected to fail; checks the error data against the protocol's schema. */
export async function checkedFailure(
  client: RpcClient,
  method: MethodName,
  params?: unknown,
): Promise<ErrorData & { message: string }> {
  const error = await client.failure(method, params);
  assertSchema(ErrorData, error.data, `${method} error data`);
  return { ...(error.data as ErrorData), message: error.message };
}

/** The first notification of `name` matching, checked against its payload schema. */
export async function checkedEvent<E extends EventName>(
  client: RpcClient,
  name: E,
  match: (params: Record<string, unknown>) => boolean = () => true,
): Promise<Record<string, unknown>> {
  const params = await client.next(name, match);
  assertSchema(EVENTS[name].payload, params, `${name} payload`);
  return params;
}

/** `ca`: the certificate authority trusted for a wss:// URL (the agent's local CA in tests). */
export function openSocket(url: string, headers: Record<string, string> = {}, ca?: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers, ...(ca === undefined ? {} : { ca }) });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        reject(
          Object.assign(new Error(`upgrade refused: ${response.statusCode}`), { status: response.statusCode, body }),
        ),
      );
    });
  });
}

export interface PosRigOptions {
  readonly config?: Partial<EngineConfig>;
  /** Limits on connections that have not logged in (the server's defaults otherwise). */
  readonly unauthenticated?: { readonly max?: number; readonly lifetimeMs?: number };
  /** The audit trail the server records security events in (none by default). */
  readonly audit?: AuditLog;
  /** Finds the program behind a connection (this system's by default). */
  readonly peerFinder?: PeerFinder;
  /** The logger (the engine rig's by default). */
  readonly logger?: Logger;
  /** How often refusals are summed up in the log (the server's minute by default). */
  readonly refusalSummaryMs?: number;
  /** Every POS client sees every payment (settings `pos.share_payments`). */
  readonly sharePayments?: boolean;
  /** The engine rig's journal folder and options (a small disk of its own). */
  readonly journalDir?: string;
  readonly journalOptions?: JournalOptions;
  readonly rateLimit?: RateLimitOptions;
  /** The first PINPAD's simulator; default: a customer who inserts visaCredit 30 ms after each prompt. */
  readonly simulator?: PinpadSimulatorOptions;
  /** No PINPAD at start. */
  readonly noPinpad?: boolean;
  /** The link to the agent's PINPAD, as the agent's keeper would set it (none by default). */
  readonly pinpadLink?: PinpadLink;
  readonly maxMessageBytes?: number;
  /** Serve wss:// with this key and certificate; clients trust `ca`. */
  readonly tls?: { readonly key: string; readonly cert: string; readonly ca: string };
  /** The store's time zone (settings receipts.time_zone), for the receipts and the window alike. */
  readonly timeZone?: string;
  /** The receipt printer's address; default: a folder (printDir) that takes every job; null: no printer. */
  readonly printerAddress?: string | null;
  /** The copies printed by themselves (settings receipts.auto_print); default none. */
  readonly autoPrint?: readonly ReceiptCopy[];
  /** When a void needs the supervisor's PIN (settings supervisor) and its keeper; none by default. */
  readonly supervisor?: SupervisorGuard;
  /** What the agent says it runs in (the window shows it): training by default; payments go to the rig's sandbox either way. */
  readonly mode?: 'training' | 'live';
  /** The disk as the agent watches it (agent.status, agent.disk); none by default. */
  readonly disk?: DiskWatcher;
  /** The desktop app's updates as its shell reports them (operator.updates, agent.update); none by default. */
  readonly updates?: UpdateWatcher;
}

/** The key of the window (session.operator) in these tests. */
export const OPERATOR_KEY = 'test-operator-key-0123456789abcdefghijklmnopqrstuv';

export const AUTO_CUSTOMER: PinpadSimulatorOptions = { autoCustomer: { delayMs: 30, card: 'visaCredit' } };

export async function posRig(options: PosRigOptions = {}): Promise<PosRig> {
  const rig = await engineRig({
    ...(options.config === undefined ? {} : { config: options.config }),
    ...(options.journalDir === undefined ? {} : { journalDir: options.journalDir }),
    ...(options.journalOptions === undefined ? {} : { journalOptions: options.journalOptions }),
  });
  const dir = mkdtempSync(join(artifactsDir(), 'pos-'));
  const printDir = join(dir, 'printed');
  const apiHealth = new ApiHealthMonitor();
  // The relays' client: the rig's sandbox, watched by the health monitor like the agent's.
  const api = new PaymentsClient({
    baseUrl: rig.sandbox.url,
    token: rig.sandbox.token,
    marketplaceId: rig.sandbox.marketplaceId,
    maxRetries: 0,
    timeoutMs: 2_000,
    onAttempt: apiHealth.record,
  });
  const registry = new PinpadRegistry(rig.engine);
  const printing = openReceiptPrinting({
    journal: rig.journal,
    store:
      options.timeZone === undefined
        ? TRAINING_RECEIPT_SETTINGS
        : { ...TRAINING_RECEIPT_SETTINGS, time_zone: options.timeZone },
    training: true,
    printers:
      options.printerAddress === null
        ? {}
        : { default: { address: options.printerAddress ?? `file://${printDir}/`, format: 'escpos' } },
    autoPrint: options.autoPrint ?? [],
  });
  const clientsFile = join(dir, 'clients.db');
  const announced: PairingAnnouncement[] = [];
  const pixOnScreen: PixOnScreen[] = [];
  const startServer = async (): Promise<{ server: PosServer; clients: ClientStore }> => {
    const clients = ClientStore.open(clientsFile);
    const server = await PosServer.start({
      agent: {
        version: '0.0.0-test',
        mode: options.mode ?? 'training',
        ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
        engine: rig.engine,
        pinpads: registry,
        receipts: printing.service,
        printers: printing.printers,
        printQueue: printing.queue,
        api,
        sellerId: rig.sandbox.sellerId,
        // As the agent in training mode: its sandbox plays the bank for a practice Pix.
        ...((options.mode ?? 'training') === 'training'
          ? { trainingPix: trainingPix({ api, sandbox: rig.sandbox, sellerId: rig.sandbox.sellerId }) }
          : {}),
        apiHealth,
        clients,
        ...(options.sharePayments === undefined ? {} : { sharePayments: options.sharePayments }),
        ...(options.pinpadLink === undefined ? {} : { pinpadLink: options.pinpadLink }),
        ...(options.supervisor === undefined ? {} : { supervisor: options.supervisor }),
        ...(options.disk === undefined ? {} : { disk: options.disk }),
        ...(options.updates === undefined ? {} : { updates: options.updates }),
      },
      logger: options.logger ?? rig.logger,
      ports: [0],
      ...(options.audit === undefined ? {} : { audit: options.audit }),
      ...(options.peerFinder === undefined ? {} : { peerFinder: options.peerFinder }),
      ...(options.refusalSummaryMs === undefined ? {} : { refusalSummaryMs: options.refusalSummaryMs }),
      ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
      ...(options.maxMessageBytes ? { maxMessageBytes: options.maxMessageBytes } : {}),
      ...(options.tls ? { tls: { key: options.tls.key, cert: options.tls.cert } } : {}),
      announcePairing: (pairing) => announced.push(pairing),
      announcePixOnScreen: (shown) => pixOnScreen.push(shown),
      operatorKey: OPERATOR_KEY,
      ...(options.unauthenticated?.max === undefined ? {} : { maxUnauthenticated: options.unauthenticated.max }),
      ...(options.unauthenticated?.lifetimeMs === undefined
        ? {}
        : { unauthenticatedLifetimeMs: options.unauthenticated.lifetimeMs }),
    });
    return { server, clients };
  };
  let { server, clients } = await startServer();
  const closers: (() => Promise<void>)[] = [];
  const pinpads: PosPinpad[] = [];
  const sockets: RpcClient[] = [];

  const posRigValue: PosRig = {
    rig,
    get server() {
      return server;
    },
    get clients() {
      return clients;
    },
    registry,
    printing,
    apiHealth,
    printDir,
    printedJobs: () =>
      existsSync(printDir)
        ? readdirSync(printDir)
            .filter((name) => !name.startsWith('.'))
            .sort()
            .map((name) => join(printDir, name))
        : [],
    announced,
    pixOnScreen,
    pinpads,
    async addPinpad(serial, simOptions, attachOptions = {}) {
      const sim = new PinpadSimulator({ serialNumber: serial, ...simOptions });
      const served = await startMemorySimulator(sim, { name: serial });
      const pinpad = new Pinpad(served.link.host, { logger: rig.logger });
      await pinpad.open();
      closers.push(async () => {
        await pinpad.close(null).catch(() => {});
        await served.close();
      });
      await registry.attach(pinpad, `sim:${serial}`, { logger: rig.logger, ...attachOptions });
      const entry: PosPinpad = {
        serial,
        sim,
        session: served.session,
        pinpad,
        unplug: () => {
          served.link.unplug();
          registry.detach(serial);
        },
      };
      pinpads.push(entry);
      return entry;
    },
    async connect(connectOptions = {}) {
      const headers: Record<string, string> = {};
      if (connectOptions.origin !== undefined) headers.Origin = connectOptions.origin;
      if (connectOptions.host !== undefined) headers.Host = connectOptions.host;
      const client = new RpcClient(await openSocket(server.url, headers, options.tls?.ca));
      sockets.push(client);
      return client;
    },
    async paired(name = 'Caixa 1', pairOptions = {}) {
      const client = await posRigValue.connect(pairOptions.origin === undefined ? {} : { origin: pairOptions.origin });
      const started = await client.call<{ pairing_id: string }>('session.pair', { name });
      const code = announced.find((a) => a.pairingId === started.pairing_id)!.code;
      const done = await client.call<{ token: string }>('session.confirmPairing', {
        pairing_id: started.pairing_id,
        code,
      });
      client.token = done.token;
      return client;
    },
    async operator() {
      const client = await posRigValue.connect({ origin: `http://127.0.0.1:${server.port}` });
      await client.call('session.operator', { key: OPERATOR_KEY });
      return client;
    },
    async restartServer() {
      for (const socket of sockets) socket.socket.terminate();
      await server.close();
      clients.close();
      ({ server, clients } = await startServer());
    },
    async close() {
      for (const socket of sockets) socket.socket.terminate();
      await server.close();
      clients.close();
      await printing.close();
      for (const close of closers.reverse()) await close();
      await rig.close();
    },
  };
  if (options.noPinpad !== true) await posRigValue.addPinpad('POS0000000000001', options.simulator ?? AUTO_CUSTOMER);
  return posRigValue;
}
