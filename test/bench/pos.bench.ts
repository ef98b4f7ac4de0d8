/**
 * The POS API (main/pos): the local WebSocket JSON-RPC server a POS talks to, measured from the
 * outside with real `ws` clients, beside a bare `ws` server measured the same way in the same run
 * (the ratio ours / bare is the number that means something on a noisy machine).
 *
 * - round trips: `pinpad.status` from 1 client, and from 50 clients at once (each sends its next
 *   request when it has the answer): latency median and p99, requests/s; the bare server echoes
 *   each request back;
 * - event fan-out: `pinpad.busy` events driven through the hub the way the agent does (the
 *   PinpadRegistry emits `busy` with a real entry) to 50 authenticated clients: events/s and
 *   deliveries/s (events × clients / s), and the time for one event to reach all 50; the bare
 *   server broadcasts the same text to its 50 clients;
 * - memory: heap used, external (socket buffers) and RSS of the server process per connected and
 *   authenticated (`session.hello`) client, from 200 clients, after forced GCs;
 * - stages: what each stage of a `pinpad.status` request costs in the server (parse, envelope,
 *   rate limit, auth — the revocation check reads the clients file's change marker —, card-data guard, schema,
 *   handler, serialise, log, send: main/pos/server/stage-clock.ts), timed on the real path during
 *   one more round of each kind (1 and 50 clients) after the timed ones, beside the round trips
 *   of that round and of the bare server. The path has no metrics of its own to time: the agent's
 *   metrics read the session count when scraped.
 *
 * The server (the pos rig: sandbox, journal, engine, a simulated PINPAD, the real PosServer) and
 * the bare server each run in a child process of their own, so the 50 clients' work is not on the
 * server's event loop and the heap measured is the server's alone. The children are driven by
 * one JSON line per command on stdin (answered by one line on stdout); the rig's child is this
 * same file, run by node with `--expose-gc` and tsx.
 *
 * The rate limiter is set out of the way (capacity and refill 1e9 per second): it is the
 * server's cost being measured, not its policy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { WebSocket } from 'ws';
import type { RateLimitOptions } from '../../main/pos/server/rate-limit.js';
import { STAGES, type Stage, type StageCost } from '../../main/pos/server/stage-clock.js';
import { ARTIFACTS_ENV } from '../helpers/card-data-scan.js';
import { openSocket, posRig } from '../main/pos/pos-rig.js';
import { goal, round, stats, type Goal } from './harness.js';

const THIS_FILE = fileURLToPath(import.meta.url);
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** argv flag that makes this file the rig's child process instead of a module of the bench. */
const RIG_CHILD_FLAG = '--pos-bench-rig-child';
const NO_RATE_LIMIT: RateLimitOptions = { capacity: 1e9, refillPerSecond: 1e9 };
/** Events emitted per turn of the child's event loop in a fan-out burst (the agent's events do not all come in one turn). */
const EMIT_BATCH = 100;

const median = (values: readonly number[]): number => stats(values).medianMs;

// ---------------------------------------------------------------------------------------------
// The children and their command channel

type Command =
  | { readonly op: 'ping' }
  /** Mints client tokens through the client store (what session.pair + confirmPairing do). */
  | { readonly op: 'tokens'; readonly count: number }
  /** Emits `count` events (rig: registry `busy`; bare: `text` to every client). */
  | { readonly op: 'emit'; readonly count: number; readonly text?: string }
  | { readonly op: 'sessions' }
  /** Rig only: times each request's stages from now on (start), or stops and answers their costs (stop). */
  | { readonly op: 'stages'; readonly action: 'start' | 'stop' }
  /** Memory after several forced GCs. */
  | { readonly op: 'memory' };

interface Memory {
  readonly heapUsed: number;
  readonly external: number;
  readonly rss: number;
  readonly forcedGc: boolean;
}

/** A server process driven by JSON lines; it prints one ready line first. */
class CommandedChild {
  readonly ready: Record<string, string>;
  readonly #process: ChildProcess;
  readonly #answers: { readonly resolve: (line: string) => void; readonly reject: (error: Error) => void }[] = [];
  readonly #cleanup: () => void;

  private constructor(
    process: ChildProcess,
    ready: Record<string, string>,
    lines: AsyncIterator<string>,
    cleanup: () => void,
  ) {
    this.#process = process;
    this.ready = ready;
    this.#cleanup = cleanup;
    void (async () => {
      for (let next = await lines.next(); next.done !== true; next = await lines.next())
        this.#answers.shift()?.resolve(next.value);
      // The child is gone: whoever still waits would wait forever.
      for (const waiting of this.#answers.splice(0)) waiting.reject(new Error('bench child exited before answering'));
    })();
  }

  static async start(
    args: readonly string[],
    env: Record<string, string> = {},
    cleanup: () => void = () => {},
  ): Promise<CommandedChild> {
    const child = spawn(process.execPath, [...args], {
      cwd: PROJECT_ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, PINBRIDGE_LOG_LEVEL: 'warn', ...env },
    });
    const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const first = await lines.next();
    if (first.done === true) throw new Error(`bench child ${args.join(' ').slice(0, 80)} ended before it was ready`);
    return new CommandedChild(child, JSON.parse(first.value) as Record<string, string>, lines, cleanup);
  }

  async request<T>(command: Command): Promise<T> {
    const answer = new Promise<string>((resolve, reject) => this.#answers.push({ resolve, reject }));
    this.#process.stdin!.write(`${JSON.stringify(command)}\n`);
    return JSON.parse(await answer) as T;
  }

  /** Closing stdin asks the child to close its server and exit. */
  async stop(): Promise<void> {
    if (this.#process.exitCode === null && this.#process.signalCode === null) {
      const exited = once(this.#process, 'exit');
      this.#process.stdin!.end();
      const timer = setTimeout(() => this.#process.kill('SIGTERM'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    this.#cleanup();
  }
}

/** The rig's child: this file run by node with tsx, a GC it may force, and artifacts in a folder removed afterwards. */
async function startRigChild(): Promise<CommandedChild> {
  const artifacts = mkdtempSync(join(tmpdir(), 'pinbridge-pos-bench-'));
  return CommandedChild.start(
    ['--expose-gc', '--import', 'tsx', THIS_FILE, RIG_CHILD_FLAG],
    { [ARTIFACTS_ENV]: artifacts },
    () => rmSync(artifacts, { recursive: true, force: true }),
  );
}

/** The bare server: `ws` alone, echoing every message and broadcasting on command. */
const BARE_WS = `
const { WebSocketServer } = require('ws');
const readline = require('node:readline');
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 }, () =>
  console.log(JSON.stringify({ url: 'ws://127.0.0.1:' + wss.address().port })));
wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
const reply = (value) => process.stdout.write(JSON.stringify(value) + '\\n');
const turn = () => new Promise((resolve) => setImmediate(resolve));
const memory = async () => {
  for (let i = 0; i < 6; i++) { global.gc?.(); await new Promise((resolve) => setTimeout(resolve, 20)); }
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, external: m.external + m.arrayBuffers, rss: m.rss, forcedGc: typeof global.gc === 'function' };
};
readline.createInterface({ input: process.stdin })
  .on('line', async (line) => {
    const command = JSON.parse(line);
    if (command.op === 'ping') return reply({});
    if (command.op === 'sessions') return reply({ sessions: wss.clients.size });
    if (command.op === 'memory') return reply(await memory());
    if (command.op === 'emit') {
      for (let i = 0; i < command.count; i++) {
        for (const ws of wss.clients) ws.send(command.text);
        if (i % ${EMIT_BATCH} === ${EMIT_BATCH - 1}) await turn();
      }
      return reply({ emitted: command.count });
    }
    reply({ error: 'unknown command ' + command.op });
  })
  .on('close', () => { for (const ws of wss.clients) ws.terminate(); wss.close(() => process.exit(0)); });
`;

async function settledMemory(): Promise<Memory> {
  // Several passes with turns between them: sockets' native handles and weak callbacks are
  // released only after a GC has seen them and the loop has run.
  for (let i = 0; i < 6; i++) {
    globalThis.gc?.();
    await sleep(20);
  }
  const usage = process.memoryUsage();
  return {
    heapUsed: usage.heapUsed,
    external: usage.external + usage.arrayBuffers,
    rss: usage.rss,
    forcedGc: typeof globalThis.gc === 'function',
  };
}

/** The rig's child process: the whole POS API of the agent, in training mode, driven by commands. */
async function serveRigChild(): Promise<void> {
  const pos = await posRig({ rateLimit: NO_RATE_LIMIT });
  const entry = pos.registry.list()[0];
  if (entry === undefined) throw new Error('the pos rig attached no PINPAD');
  const reply = (value: unknown): boolean => process.stdout.write(`${JSON.stringify(value)}\n`);
  reply({ url: pos.server.url, terminal: entry.serialNumber });
  let minted = 0;
  let timing: ReturnType<typeof pos.server.timeStages> | undefined;
  for await (const line of createInterface({ input: process.stdin })) {
    const command = JSON.parse(line) as Command;
    switch (command.op) {
      case 'ping':
        reply({});
        break;
      case 'tokens': {
        const tokens: string[] = [];
        for (let i = 0; i < command.count; i++) {
          const { pairing, code } = pos.clients.requestPairing({ name: `Caixa ${++minted}`, origin: null });
          tokens.push(pos.clients.completePairing({ pairingId: pairing.id, code, origin: null }).token);
        }
        reply({ tokens });
        break;
      }
      case 'emit':
        // What the agent does when a PINPAD turns busy or idle: the registry emits, the hub
        // publishes `pinpad.busy` to every authenticated session.
        for (let i = 0; i < command.count; i++) {
          pos.registry.emit('busy', entry);
          if (i % EMIT_BATCH === EMIT_BATCH - 1) await new Promise(setImmediate);
        }
        reply({ emitted: command.count });
        break;
      case 'sessions':
        reply({ sessions: pos.server.sessions });
        break;
      case 'stages':
        if (command.action === 'start') {
          timing = pos.server.timeStages();
          reply({});
        } else {
          timing?.stop();
          reply(timing?.clock.costs() ?? {});
          timing = undefined;
        }
        break;
      case 'memory':
        reply(await settledMemory());
        break;
    }
  }
  await pos.close();
}

// ---------------------------------------------------------------------------------------------
// The clients (in this process): bare `ws` sockets, the way a POS developer would write one

interface Client {
  readonly socket: WebSocket;
  /** Sends a JSON-RPC request and resolves with the parsed answer to it. */
  request(method: string, params?: unknown): Promise<{ id?: number; result?: unknown; error?: unknown }>;
  /** Called for each event (a message with no id of its own); events are not parsed, so counting stays cheap. */
  onEvent: (() => void) | undefined;
}

async function connectClient(url: string, token?: string): Promise<Client> {
  const socket = await openSocket(url);
  let next = 0;
  const waiting = new Map<number, (answer: { id?: number; result?: unknown; error?: unknown }) => void>();
  const client: Client = {
    socket,
    onEvent: undefined,
    request(method, params) {
      const id = ++next;
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
      });
    },
  };
  socket.on('message', (data: Buffer) => {
    // An event names its method before anything else; an answer (ours, or the echo of a request)
    // has its id first. Events are only counted, never parsed: the clients must not be the bottleneck.
    const method = data.indexOf('"method":');
    const id = data.indexOf('"id":');
    if (method !== -1 && (id === -1 || method < id)) {
      client.onEvent?.();
      return;
    }
    const answer = JSON.parse(data.toString('utf8')) as { id?: number; result?: unknown; error?: unknown };
    const resolve = waiting.get(answer.id ?? -1);
    waiting.delete(answer.id ?? -1);
    resolve?.(answer);
  });
  if (token !== undefined) {
    const hello = await client.request('session.hello', { token });
    if (hello.error !== undefined) throw new Error(`session.hello refused: ${JSON.stringify(hello.error)}`);
  }
  return client;
}

async function closeClients(clients: readonly Client[], server: CommandedChild): Promise<void> {
  await Promise.all(
    clients.map(async (client) => {
      const closed = once(client.socket, 'close');
      client.socket.close();
      await closed;
    }),
  );
  // The server forgets a session on its own close event: wait for it, so the next phase starts clean.
  for (let i = 0; i < 200 && (await server.request<{ sessions: number }>({ op: 'sessions' })).sessions > 0; i++)
    await sleep(10);
}

// ---------------------------------------------------------------------------------------------
// 1. Round trips

export interface Latency {
  readonly samples: number;
  readonly medianMs: number;
  readonly p99Ms: number;
  readonly requestsPerSecond: number;
}

export interface Compared<T> {
  readonly pos: T;
  readonly bareWs: T;
  /** ours / bare, per field (> 1 for times means slower; < 1 for rates means slower). */
  readonly ratio: { readonly [K in Exclude<keyof T, 'samples'>]: number };
}

/** Latencies and per-round rates of one server, gathered over rounds that alternate with the other's. */
interface RoundTripSamples {
  readonly times: number[];
  readonly rates: number[];
}

/** One round: `perClient` requests on each client, all clients at once, each waiting for its answer before the next. */
async function roundTripRound(
  clients: readonly Client[],
  perClient: number,
  params: unknown,
  into: RoundTripSamples,
): Promise<void> {
  const start = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      for (let i = 0; i < perClient; i++) {
        const sent = performance.now();
        const answer = await client.request('pinpad.status', params);
        into.times.push(performance.now() - sent);
        if (answer.error !== undefined) throw new Error(`pinpad.status failed: ${JSON.stringify(answer.error)}`);
      }
    }),
  );
  into.rates.push((clients.length * perClient) / ((performance.now() - start) / 1000));
}

/**
 * Ours and bare, round after round in turn (not all of ours, then all of bare), so that a slow
 * spell of the machine falls on both.
 */
async function alternateRoundTrips(
  ours: readonly Client[],
  bare: readonly Client[],
  perClient: number,
  params: unknown,
  rounds: number,
): Promise<Compared<Latency>> {
  const pos: RoundTripSamples = { times: [], rates: [] };
  const bareWs: RoundTripSamples = { times: [], rates: [] };
  for (let r = 0; r < rounds; r++) {
    await roundTripRound(ours, perClient, params, pos);
    await roundTripRound(bare, perClient, params, bareWs);
  }
  const latency = ({ times, rates }: RoundTripSamples): Latency => {
    const s = stats(times);
    return {
      samples: s.samples,
      medianMs: round(s.medianMs, 4),
      p99Ms: round(s.p99Ms, 4),
      requestsPerSecond: Math.round(median(rates)),
    };
  };
  return compare(latency(pos), latency(bareWs));
}

function compare<T extends object>(pos: T, bareWs: T, digits = 2): Compared<T> {
  const ratio = Object.fromEntries(
    Object.entries(pos)
      .filter(([key]) => key !== 'samples')
      .map(([key, value]) => [key, round((value as number) / (bareWs[key as keyof T] as number), digits)]),
  ) as { [K in Exclude<keyof T, 'samples'>]: number };
  return { pos, bareWs, ratio };
}

// ---------------------------------------------------------------------------------------------
// 2. Event fan-out

export interface FanOut {
  /** Events emitted per second, counted until the last client got the last one. */
  readonly eventsPerSecond: number;
  /** Deliveries per second: events × clients / s. */
  readonly deliveriesPerSecond: number;
  /** Command sent to the server → the 50th client has the event (one at a time; includes the command pipe). */
  readonly oneEventToAllMedianMs: number;
  readonly oneEventToAllP99Ms: number;
  /** CPU of this (client) process / wall time during the bursts: near 1, the clients were the bottleneck. */
  readonly clientProcessCpu: number;
}

/** Counts the events a server's clients receive; emits through the server's command channel. */
class FanOutProbe {
  readonly #singleMs: number[] = [];
  readonly #rates: number[] = [];
  readonly #cpu: number[] = [];
  readonly #server: CommandedChild;
  readonly #clients: readonly Client[];
  readonly #text: string | undefined;
  #received = 0;
  #waiter: { readonly target: number; readonly resolve: () => void } | undefined;

  /** `text`: what the bare server sends (ours sends what its hub makes). */
  constructor(server: CommandedChild, clients: readonly Client[], text?: string) {
    this.#server = server;
    this.#clients = clients;
    this.#text = text;
    for (const client of clients) {
      client.onEvent = () => {
        this.#received++;
        if (this.#waiter !== undefined && this.#received >= this.#waiter.target) {
          this.#waiter.resolve();
          this.#waiter = undefined;
        }
      };
    }
  }

  /** Emits `count` events; resolves when every client has all of them (and the server answered). */
  async #round(count: number): Promise<void> {
    const target = this.#received + count * this.#clients.length;
    const arrived = new Promise<void>((resolve) => (this.#waiter = { target, resolve }));
    const answered = this.#server.request({
      op: 'emit',
      count,
      ...(this.#text === undefined ? {} : { text: this.#text }),
    });
    await arrived;
    await answered;
  }

  async warmUp(events: number): Promise<void> {
    for (let i = 0; i < events; i++) await this.#round(1);
  }

  /** Times `events` single events: command sent → the last client has it. */
  async singles(events: number): Promise<void> {
    for (let i = 0; i < events; i++) {
      const start = performance.now();
      const target = this.#received + this.#clients.length;
      const arrived = new Promise<void>((resolve) => (this.#waiter = { target, resolve }));
      const answered = this.#server.request({
        op: 'emit',
        count: 1,
        ...(this.#text === undefined ? {} : { text: this.#text }),
      });
      await arrived;
      this.#singleMs.push(performance.now() - start);
      await answered;
    }
  }

  /** One burst of `events`, timed until the last client has the last one. */
  async burst(events: number): Promise<void> {
    const cpuBefore = process.cpuUsage();
    const start = performance.now();
    await this.#round(events);
    const wallMs = performance.now() - start;
    const used = process.cpuUsage(cpuBefore);
    this.#rates.push(events / (wallMs / 1000));
    this.#cpu.push((used.user + used.system) / 1000 / wallMs);
  }

  result(): FanOut {
    for (const client of this.#clients) client.onEvent = undefined;
    const single = stats(this.#singleMs);
    const eventsPerSecond = median(this.#rates);
    return {
      eventsPerSecond: Math.round(eventsPerSecond),
      deliveriesPerSecond: Math.round(eventsPerSecond * this.#clients.length),
      oneEventToAllMedianMs: round(single.medianMs, 4),
      oneEventToAllP99Ms: round(single.p99Ms, 4),
      clientProcessCpu: round(median(this.#cpu), 2),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// 3. Memory per client

export interface PerClientMemory {
  readonly heapUsedKiB: number;
  /** Buffers outside the JS heap (sockets' read and write buffers). */
  readonly externalKiB: number;
  /** Indicative only: the allocator keeps freed pages, so RSS moves in steps. */
  readonly rssKiB: number;
}

/**
 * Server memory growth per client: readings after forced GCs before and after `count` clients
 * connect (`connect` makes one), `rounds` times (the clients closed between rounds), median per field.
 */
async function memoryPerClient(
  server: CommandedChild,
  count: number,
  rounds: number,
  connect: (round: number, index: number) => Promise<Client>,
): Promise<{ perClient: PerClientMemory; forcedGc: boolean }> {
  const heap: number[] = [];
  const external: number[] = [];
  const rss: number[] = [];
  let forcedGc = true;
  for (let r = 0; r < rounds; r++) {
    const before = await server.request<Memory>({ op: 'memory' });
    const clients: Client[] = [];
    for (let i = 0; i < count; i++) clients.push(await connect(r, i));
    const after = await server.request<Memory>({ op: 'memory' });
    await closeClients(clients, server);
    heap.push(after.heapUsed - before.heapUsed);
    external.push(after.external - before.external);
    rss.push(after.rss - before.rss);
    forcedGc &&= before.forcedGc && after.forcedGc;
  }
  const kib = (bytes: readonly number[]): number => round(median(bytes) / count / 1024, 2);
  return { perClient: { heapUsedKiB: kib(heap), externalKiB: kib(external), rssKiB: kib(rss) }, forcedGc };
}

// ---------------------------------------------------------------------------------------------
// 4. Cost per stage

export interface StageBreakdown {
  /** Requests timed: one more round on the clients of its kind, with the server's stage clock on. */
  readonly requests: number;
  /** Microseconds per request in each stage, in the order they run (stage-clock.ts). */
  readonly perStage: Partial<Record<Stage, StageCost>>;
  /**
   * The stages' medians added up: the server's own time per request, from the frame's text to the
   * socket (medians, as everywhere here: a preempted request makes a mean on this machine).
   */
  readonly serverUs: number;
  /**
   * The same without `send`: what this server does that a bare echo does not (both read the frame
   * and hand one back to the socket; `send` also holds the kernel's loopback delivery to the client).
   */
  readonly addedUs: number;
  /** The round trip's median during that round (the clock's own reads included: a fraction of a µs). */
  readonly roundTripMedianUs: number;
  /** The bare server's round trip in the timed rounds above, for comparison. */
  readonly bareRoundTripMedianUs: number;
}

/** One more round of `perClient` requests on each of `clients`, with the rig's stage clock on. */
async function stageBreakdown(
  rig: CommandedChild,
  clients: readonly Client[],
  perClient: number,
  params: unknown,
  bare: Latency,
): Promise<StageBreakdown> {
  const into: RoundTripSamples = { times: [], rates: [] };
  let perStage: Partial<Record<Stage, StageCost>> = {};
  await rig.request({ op: 'stages', action: 'start' });
  try {
    await roundTripRound(clients, perClient, params, into);
  } finally {
    perStage = await rig.request<Partial<Record<Stage, StageCost>>>({ op: 'stages', action: 'stop' });
  }
  const medianUs = (stages: readonly Stage[]): number =>
    round(
      stages.reduce((sum, stage) => sum + (perStage[stage]?.medianUs ?? 0), 0),
      2,
    );
  return {
    requests: into.times.length,
    perStage,
    serverUs: medianUs(STAGES),
    addedUs: medianUs(STAGES.filter((stage) => stage !== 'send')),
    roundTripMedianUs: round(median(into.times) * 1000, 2),
    bareRoundTripMedianUs: round(bare.medianMs * 1000, 2),
  };
}

// ---------------------------------------------------------------------------------------------

export interface PosBenchOptions {
  /** Requests by the single client per round. */
  readonly oneClientRequests: number;
  /** Concurrent clients for round trips and fan-out. */
  readonly clients: number;
  /** Requests per client per round with `clients` at once. */
  readonly requestsPerClient: number;
  readonly rounds: number;
  /** Events per fan-out burst. */
  readonly burst: number;
  /** Events timed one at a time. */
  readonly singleEvents: number;
  /** Untimed requests and events before the timed ones, and command-pipe pings timed. */
  readonly warmUp: number;
  /** Clients connected for the memory measure. */
  readonly memoryClients: number;
}

/** Issue 35's goals: a round trip at most this many times a bare `ws` server's (median). */
const ONE_CLIENT_RATIO_GOAL = 1.5;
const MANY_CLIENTS_RATIO_GOAL = 1.2;

export interface PosBench {
  /** The round trips' median ratios to the bare server's, against their goals (1 client; `clients` at once). */
  readonly goals: { readonly oneClientRatio: Goal; readonly manyClientsRatio: Goal };
  readonly rateLimit: RateLimitOptions;
  readonly roundTrip: {
    readonly method: 'pinpad.status';
    readonly oneClient: Compared<Latency>;
    readonly concurrentClients: number;
    readonly manyClients: Compared<Latency>;
  };
  readonly fanOut: {
    readonly event: 'pinpad.busy';
    readonly eventBytes: number;
    readonly clients: number;
    readonly compared: Compared<Omit<FanOut, 'clientProcessCpu'>>;
    readonly clientProcessCpu: { readonly pos: number; readonly bareWs: number };
    /** The command pipe's own round trip (stdin → stdout), part of oneEventToAll for both servers. */
    readonly commandPipeRoundTripMs: number;
  };
  /** What each stage of a request costs in the server (µs), and what of the round trip lies outside them. */
  readonly stages: { readonly oneClient: StageBreakdown; readonly manyClients: StageBreakdown };
  readonly memory: {
    readonly clients: number;
    /** Whether the server processes could force GCs (--expose-gc) before each reading. */
    readonly forcedGc: boolean;
    readonly pos: PerClientMemory;
    readonly bareWs: PerClientMemory;
    readonly heapRatio: number;
  };
}

const DEFAULTS: PosBenchOptions = {
  oneClientRequests: 2000,
  clients: 50,
  requestsPerClient: 100,
  rounds: 5,
  burst: 2000,
  singleEvents: 300,
  warmUp: 300,
  memoryClients: 200,
};

export async function benchPos(overrides: Partial<PosBenchOptions> = {}): Promise<PosBench> {
  const o = { ...DEFAULTS, ...overrides };
  const rig = await startRigChild();
  const bare = await CommandedChild.start(['--expose-gc', '-e', BARE_WS]);
  try {
    const url = rig.ready.url!;
    const bareUrl = bare.ready.url!;
    const statusParams = { terminal: rig.ready.terminal! };
    // Every client its own token (its own client id, as 50 or 200 POS would have); the memory
    // rounds' tokens are minted now so that minting is not inside their readings.
    const { tokens } = await rig.request<{ tokens: string[] }>({
      op: 'tokens',
      count: o.clients + o.memoryClients * o.rounds,
    });
    const memoryTokens = tokens.splice(o.clients);

    // 1. Round trips. The echo gets the same request text and answers it with itself.
    const ours: Client[] = [];
    for (const token of tokens) ours.push(await connectClient(url, token));
    const bares: Client[] = [];
    for (let i = 0; i < o.clients; i++) bares.push(await connectClient(bareUrl));
    await alternateRoundTrips(ours.slice(0, 1), bares.slice(0, 1), o.warmUp, statusParams, 1); // warm-up
    await alternateRoundTrips(ours, bares, 20, statusParams, 1);
    const oneClient = await alternateRoundTrips(
      ours.slice(0, 1),
      bares.slice(0, 1),
      o.oneClientRequests,
      statusParams,
      o.rounds,
    );
    const manyClients = await alternateRoundTrips(ours, bares, o.requestsPerClient, statusParams, o.rounds);
    // The stages are timed after the ratios, so the clock's own reads are in none of them.
    const stages = {
      oneClient: await stageBreakdown(rig, ours.slice(0, 1), o.oneClientRequests, statusParams, oneClient.bareWs),
      manyClients: await stageBreakdown(rig, ours, o.requestsPerClient, statusParams, manyClients.bareWs),
    };

    // 2. Fan-out: the bare server sends the very text our hub sends.
    const sampleEvent = new Promise<string>((resolve) =>
      ours[0]!.socket.once('message', (data: Buffer) => resolve(data.toString('utf8'))),
    );
    await rig.request({ op: 'emit', count: 1 });
    const eventText = await sampleEvent;
    if (!eventText.includes('"pinpad.busy"'))
      throw new Error(`expected a pinpad.busy event, got ${eventText.slice(0, 100)}`);
    await sleep(50); // the other 49 copies of that event arrive before the counting starts
    const posProbe = new FanOutProbe(rig, ours);
    const bareProbe = new FanOutProbe(bare, bares, eventText);
    await posProbe.warmUp(Math.min(50, o.warmUp));
    await bareProbe.warmUp(Math.min(50, o.warmUp));
    for (let r = 0; r < o.rounds; r++) {
      await posProbe.singles(Math.ceil(o.singleEvents / o.rounds));
      await bareProbe.singles(Math.ceil(o.singleEvents / o.rounds));
      await posProbe.burst(o.burst);
      await bareProbe.burst(o.burst);
    }
    const posFanOut = posProbe.result();
    const bareFanOut = bareProbe.result();
    const pipe: number[] = [];
    for (let i = 0; i < o.warmUp; i++) {
      const start = performance.now();
      await rig.request({ op: 'ping' });
      pipe.push(performance.now() - start);
    }
    const { clientProcessCpu: posCpu, ...posRates } = posFanOut;
    const { clientProcessCpu: bareCpu, ...bareRates } = bareFanOut;
    await closeClients(ours, rig);
    await closeClients(bares, bare);

    // 3. Memory: tokens minted and the code warmed before the first reading, so the difference is the connections.
    const posMemory = await memoryPerClient(rig, o.memoryClients, o.rounds, (r, i) => {
      const token = memoryTokens[r * o.memoryClients + i];
      if (token === undefined) throw new Error('not enough client tokens were minted');
      return connectClient(url, token);
    });
    const bareMemory = await memoryPerClient(bare, o.memoryClients, o.rounds, async () => {
      const client = await connectClient(bareUrl);
      await client.request('session.hello', { token: 'echo' }); // the same message exchanged once, for like with like
      return client;
    });

    return {
      goals: {
        oneClientRatio: goal(ONE_CLIENT_RATIO_GOAL, oneClient.ratio.medianMs, 2),
        manyClientsRatio: goal(MANY_CLIENTS_RATIO_GOAL, manyClients.ratio.medianMs, 2),
      },
      rateLimit: NO_RATE_LIMIT,
      roundTrip: { method: 'pinpad.status', oneClient, concurrentClients: o.clients, manyClients },
      stages,
      fanOut: {
        event: 'pinpad.busy',
        eventBytes: Buffer.byteLength(eventText),
        clients: o.clients,
        compared: compare(posRates, bareRates),
        clientProcessCpu: { pos: posCpu, bareWs: bareCpu },
        commandPipeRoundTripMs: round(median(pipe), 4),
      },
      memory: {
        clients: o.memoryClients,
        forcedGc: posMemory.forcedGc && bareMemory.forcedGc,
        pos: posMemory.perClient,
        bareWs: bareMemory.perClient,
        heapRatio: round(posMemory.perClient.heapUsedKiB / bareMemory.perClient.heapUsedKiB, 2),
      },
    };
  } finally {
    await bare.stop();
    await rig.stop();
  }
}

if (process.argv.includes(RIG_CHILD_FLAG) && process.argv[1] !== undefined && resolve(process.argv[1]) === THIS_FILE) {
  await serveRigChild();
}
