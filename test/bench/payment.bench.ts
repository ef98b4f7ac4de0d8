/**
 * The payment engine end to end (issue 4): the whole stack of the agent — PaymentEngine, the
 * SQLite journal on disk (WAL; fsynced before money moves and answers), the typed payments client, PinpadSale and the
 * ABECS driver — with simulated PINPADs over in-memory links (an unattended customer with no
 * delay) and the payments API sandbox on loopback, in a child process of its own so its work
 * does not run on the engine's event loop.
 *
 * - `benchPaymentEndToEnd`: one chip credit payment at a time. Each payment's time beside the
 *   sum of its unavoidable parts, measured in the same run: the time inside each payments API
 *   call (the PaymentsPort the engine is given) and inside each PINPAD exchange (the SaleDevice
 *   the engine drives). Overhead = (total − API − PINPAD) / (API + PINPAD); goal ≤ 0.20 (median).
 *   What the overhead is made of is measured too: the journal's commits (those into SYNCED_STATES fsynced;
 *   the approval's fsync runs on a libuv thread while the card comes out, so only its commit is counted) and
 *   reads, the progress events, the log lines; the same payments on an in-memory journal (no
 *   file, no fsync) and a bare fdatasync on the same disk show how much of it is the disk.
 * - `benchPaymentConcurrency`: 32 simulated PINPADs on one engine and one journal, paying at
 *   once at 1, 2, 4, 8, 16 and 32 in parallel: payments/s, latency, and the scaling against 1.
 *
 * Two things to keep in mind reading the numbers: the simulators run in the engine's process
 * (their CPU competes with the engine's, which a real PINPAD's does not), and "no delay" for the
 * simulated customer still costs a timer turn (≥ 1 ms in Node) for each thing the customer does
 * (insert the card, type the PIN, take the card out), which is counted as PINPAD time.
 *
 * All timings are wall-clock medians and p99 over many payments: this machine is noisy.
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { destination, pino } from 'pino';
import { Pinpad } from '../../drivers/abecs/pinpad.js';
import { PinpadSimulator, startMemorySimulator } from '../../drivers/simulator/index.js';
import { PaymentsClient } from '../../main/api/index.js';
import { paymentsPortOf } from '../../main/agent/payments-port.js';
import { PaymentEngine } from '../../main/core/engine.js';
import { Journal } from '../../main/core/journal/journal.js';
import { centavos } from '../../main/core/money.js';
import type { PaymentProgress } from '../../main/core/events.js';
import type { PaymentOutcome } from '../../main/core/outcome.js';
import { PinpadSale } from '../../main/pinpad/sale-session.js';
import type { EngineLogger, PaymentsPort, SaleDevice } from '../../main/core/ports.js';
import { round, startChild, stats, stopChild, type Stats } from './harness.js';

const BIN = fileURLToPath(new URL('../../bin/pinbridge.js', import.meta.url));

/** The overhead goal of issue 4: engine time ≤ 20 % of the unavoidable API + PINPAD time. */
const OVERHEAD_GOAL = 0.2;
const CARD = 'visaCredit';
const AMOUNT = centavos(1990);
const LEVELS = [1, 2, 4, 8, 16, 32] as const;

// ------------------------------------------------------------------------------------------------
// Measuring what the engine calls

/** A running count and time of one kind of call. */
class Tally {
  count = 0;
  ms = 0;
  /** Each call's time, when the caller wants a distribution (journal commits). */
  readonly each: number[] | undefined;

  constructor(keepEach = false) {
    this.each = keepEach ? [] : undefined;
  }

  add(ms: number): void {
    this.count += 1;
    this.ms += ms;
    this.each?.push(ms);
  }

  snapshot(): { count: number; ms: number } {
    return { count: this.count, ms: this.ms };
  }
}

/**
 * Everything timed in one process. In the one-at-a-time run each payment's share is the
 * difference of two snapshots; with several payments at once only the totals mean something.
 */
class Probe {
  readonly api = new Tally();
  readonly pinpad = new Tally();
  readonly journalCommits = new Tally(true);
  readonly journalReads = new Tally();
  readonly progressEvents = new Tally();
  readonly logLines = new Tally();
  /** PINPAD exchanges in flight: the engine's own work done meanwhile is not PINPAD time. */
  devicesBusy = 0;
  /** Engine work (journal, events, logs) done while a PINPAD exchange was in flight. */
  insideDeviceMs = 0;
  /** Each API call's and PINPAD exchange's time, by name ("api.authorize", "pinpad.readCard"). */
  readonly calls = new Map<string, number[]>();

  call(name: string, ms: number): void {
    let times = this.calls.get(name);
    if (!times) this.calls.set(name, (times = []));
    times.push(ms);
  }

  /** Median time of each named call since `marks` (see `callMarks`). */
  callMedians(prefix: string, marks: ReadonlyMap<string, number>): Record<string, number> {
    const medians: Record<string, number> = {};
    for (const [name, times] of this.calls) {
      if (!name.startsWith(prefix)) continue;
      const since = times.slice(marks.get(name) ?? 0);
      if (since.length > 0) medians[name.slice(prefix.length)] = round(stats(since).medianMs);
    }
    return medians;
  }

  callMarks(): Map<string, number> {
    return new Map([...this.calls].map(([name, times]) => [name, times.length]));
  }

  engineWork(ms: number): void {
    if (this.devicesBusy > 0) this.insideDeviceMs += ms;
  }

  snapshot(): ProbeSnapshot {
    return {
      api: this.api.snapshot(),
      pinpad: this.pinpad.snapshot(),
      journalCommits: this.journalCommits.snapshot(),
      journalReads: this.journalReads.snapshot(),
      progressEvents: this.progressEvents.snapshot(),
      logLines: this.logLines.snapshot(),
      insideDeviceMs: this.insideDeviceMs,
    };
  }
}

interface ProbeSnapshot {
  readonly api: { count: number; ms: number };
  readonly pinpad: { count: number; ms: number };
  readonly journalCommits: { count: number; ms: number };
  readonly journalReads: { count: number; ms: number };
  readonly progressEvents: { count: number; ms: number };
  readonly logLines: { count: number; ms: number };
  readonly insideDeviceMs: number;
}

type Delta = { -readonly [K in keyof ProbeSnapshot]: ProbeSnapshot[K] };

function delta(after: ProbeSnapshot, before: ProbeSnapshot): Delta {
  const d = (a: { count: number; ms: number }, b: { count: number; ms: number }): { count: number; ms: number } => ({
    count: a.count - b.count,
    ms: a.ms - b.ms,
  });
  return {
    api: d(after.api, before.api),
    pinpad: d(after.pinpad, before.pinpad),
    journalCommits: d(after.journalCommits, before.journalCommits),
    journalReads: d(after.journalReads, before.journalReads),
    progressEvents: d(after.progressEvents, before.progressEvents),
    logLines: d(after.logLines, before.logLines),
    insideDeviceMs: after.insideDeviceMs - before.insideDeviceMs,
  };
}

/** Times an async call from its start until it settles; `device`: a PINPAD exchange. */
function timedAsync<A extends unknown[], R>(
  probe: Probe,
  name: string,
  fn: (...args: A) => Promise<R>,
  device = false,
): (...args: A) => Promise<R> {
  const tally = device ? probe.pinpad : probe.api;
  return async (...args: A): Promise<R> => {
    if (device) probe.devicesBusy += 1;
    const start = performance.now();
    try {
      return await fn(...args);
    } finally {
      const ms = performance.now() - start;
      tally.add(ms);
      probe.call(name, ms);
      if (device) probe.devicesBusy -= 1;
    }
  };
}

/** Times a synchronous call of the engine's own (journal, log); noted when inside a PINPAD exchange. */
function timedSync<A extends unknown[], R>(tally: Tally, probe: Probe, fn: (...args: A) => R): (...args: A) => R {
  return (...args: A): R => {
    const start = performance.now();
    try {
      return fn(...args);
    } finally {
      const ms = performance.now() - start;
      tally.add(ms);
      probe.engineWork(ms);
    }
  };
}

/** The payments API as the engine sees it, with the time inside each call counted. */
function timedPayments(payments: PaymentsPort, probe: Probe): PaymentsPort {
  const { transactions, terminal } = payments;
  return {
    transactions: {
      create: timedAsync(probe, 'api.transactions.create', transactions.create.bind(transactions)),
      retrieve: timedAsync(probe, 'api.transactions.retrieve', transactions.retrieve.bind(transactions)),
      listByReference: timedAsync(
        probe,
        'api.transactions.listByReference',
        transactions.listByReference.bind(transactions),
      ),
    },
    terminal: {
      pendingTransactions: timedAsync(
        probe,
        'api.terminal.pendingTransactions',
        terminal.pendingTransactions.bind(terminal),
      ),
      authorize: timedAsync(probe, 'api.terminal.authorize', terminal.authorize.bind(terminal)),
      complete: timedAsync(probe, 'api.terminal.complete', terminal.complete.bind(terminal)),
      reverse: timedAsync(probe, 'api.terminal.reverse', terminal.reverse.bind(terminal)),
      void: timedAsync(probe, 'api.terminal.void', terminal.void.bind(terminal)),
    },
  };
}

/** A PINPAD as the engine drives it, with the time inside each exchange counted. */
function timedDevice(device: SaleDevice, probe: Probe): SaleDevice {
  return {
    prepare: timedAsync(probe, 'pinpad.prepare', device.prepare.bind(device), true),
    showAmount: timedAsync(probe, 'pinpad.showAmount', device.showAmount.bind(device), true),
    chooseInstallments: timedAsync(probe, 'pinpad.chooseInstallments', device.chooseInstallments.bind(device), true),
    readTaxId: timedAsync(probe, 'pinpad.readTaxId', device.readTaxId.bind(device), true),
    readCard: timedAsync(probe, 'pinpad.readCard', device.readCard.bind(device), true),
    finishChip: timedAsync(probe, 'pinpad.finishChip', device.finishChip.bind(device), true),
    removeCard: timedAsync(probe, 'pinpad.removeCard', device.removeCard.bind(device), true),
    showResult: timedAsync(probe, 'pinpad.showResult', device.showResult.bind(device), true),
  };
}

/** The journal's writes (one fsynced IMMEDIATE transaction each) and the reads the engine makes. */
function timeJournal(journal: Journal, probe: Probe): void {
  journal.createIntent = timedSync(probe.journalCommits, probe, journal.createIntent.bind(journal));
  journal.transition = timedSync(probe.journalCommits, probe, journal.transition.bind(journal));
  journal.transitions = timedSync(probe.journalCommits, probe, journal.transitions.bind(journal));
  journal.transitionsSyncedLater = timedSync(probe.journalCommits, probe, journal.transitionsSyncedLater.bind(journal));
  journal.update = timedSync(probe.journalCommits, probe, journal.update.bind(journal));
  journal.get = timedSync(probe.journalReads, probe, journal.get.bind(journal));
  journal.findByReference = timedSync(probe.journalReads, probe, journal.findByReference.bind(journal));
  journal.findByTransactionId = timedSync(probe.journalReads, probe, journal.findByTransactionId.bind(journal));
  journal.unfinished = timedSync(probe.journalReads, probe, journal.unfinished.bind(journal));
  journal.pendingUndos = timedSync(probe.journalReads, probe, journal.pendingUndos.bind(journal));
  journal.pendingConfirmations = timedSync(probe.journalReads, probe, journal.pendingConfirmations.bind(journal));
}

// ------------------------------------------------------------------------------------------------
// The stack

interface BenchPinpad {
  readonly serial: string;
  readonly pinpad: Pinpad;
  close(): Promise<void>;
}

interface Stack {
  readonly dir: string;
  readonly probe: Probe;
  readonly payments: PaymentsPort;
  readonly sellerId: string;
  readonly logger: EngineLogger;
  readonly pinpads: BenchPinpad[];
  /** An engine on `journal`, every PINPAD attached to it through a timed SaleDevice. */
  engineOn(journal: Journal): PaymentEngine;
  close(): Promise<void>;
}

async function openStack(pinpadCount: number): Promise<Stack> {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-payment-bench-'));
  const probe = new Probe();
  // The sandbox in its own process, as the real API is elsewhere: its work is not the engine's.
  const sandbox = await startChild([BIN, 'sandbox', '--port', '0']);
  const closers: Array<() => Promise<void> | void> = [
    () => stopChild(sandbox),
    () => rmSync(dir, { recursive: true, force: true }),
  ];
  try {
    const ready = sandbox.ready;
    const client = new PaymentsClient({
      baseUrl: ready.url!,
      token: ready.token!,
      marketplaceId: ready.marketplace_id!,
    });
    // The agent's logger as `pinbridge start` makes it (main/log.ts: pino, info, synchronous
    // writes), into a file here; every line the engine writes is counted and timed.
    const pinoLogger = pino(
      {
        name: 'pinbridge',
        level: 'info',
        redact: {
          paths: ['pan', 'track1', 'track2', 'track3', 'pinBlock', '*.pan', '*.pinBlock'],
          censor: '[redacted]',
        },
      },
      destination({ dest: join(dir, 'agent.log'), sync: true }),
    );
    const logger: EngineLogger = {
      debug: timedSync(probe.logLines, probe, (obj: Record<string, unknown>, msg: string) =>
        pinoLogger.debug(obj, msg),
      ),
      info: timedSync(probe.logLines, probe, (obj: Record<string, unknown>, msg: string) => pinoLogger.info(obj, msg)),
      warn: timedSync(probe.logLines, probe, (obj: Record<string, unknown>, msg: string) => pinoLogger.warn(obj, msg)),
      error: timedSync(probe.logLines, probe, (obj: Record<string, unknown>, msg: string) =>
        pinoLogger.error(obj, msg),
      ),
    };

    // Opened together: each open resets the link, which waits half a second for the PINPAD.
    const pinpads = await Promise.all(
      Array.from({ length: pinpadCount }, async (_, i): Promise<BenchPinpad> => {
        const serial = `PB-BENCH-${String(i + 1).padStart(2, '0')}`;
        // No human delays: the unattended customer acts at once, and the simulator's own time
        // limits are scaled down (they never expire here; the customer answers first).
        const sim = new PinpadSimulator({
          serialNumber: serial,
          timeScale: 0.05,
          autoCustomer: { delayMs: 0, card: CARD },
        });
        const served = await startMemorySimulator(sim, { name: serial });
        const pinpad = new Pinpad(served.link.host, { logger: pinoLogger });
        const entry: BenchPinpad = {
          serial,
          pinpad,
          async close() {
            await pinpad.close(null).catch(() => undefined);
            await served.close();
          },
        };
        closers.unshift(() => entry.close());
        await pinpad.open();
        return entry;
      }),
    );

    const payments = timedPayments(paymentsPortOf(client), probe);
    const sellerId = ready.seller_id!;
    return {
      dir,
      probe,
      payments,
      sellerId,
      logger,
      pinpads,
      engineOn(journal) {
        const engine = new PaymentEngine({ journal, payments, sellerId, logger });
        // What the agent does with each event: hand it to the POS and the window as JSON.
        engine.on(
          'progress',
          timedSync(probe.progressEvents, probe, (event: PaymentProgress) => {
            JSON.stringify(event);
          }),
        );
        for (const { serial, pinpad } of pinpads) {
          // As attachPinpad (main/pinpad/attach.ts) does, with the SaleDevice timed.
          const sale = new PinpadSale(pinpad, {
            logger: pinoLogger,
            onMessage: (text) => engine.relayPinpadMessage(serial, text),
          });
          engine.attachTerminal(serial, timedDevice(sale, probe));
        }
        closers.unshift(() => engine.close());
        return engine;
      },
      async close() {
        for (const close of closers) await close();
        closers.length = 0;
      },
    };
  } catch (error) {
    for (const close of closers) await close();
    throw error;
  }
}

let referenceCounter = 0;
const runId = Date.now().toString(36);

async function pay(engine: PaymentEngine, terminal: string): Promise<PaymentOutcome> {
  const outcome = await engine.start({
    referenceId: `bench-${runId}-${++referenceCounter}`,
    amount: AMOUNT,
    paymentType: 'credit',
    installments: 1,
    description: 'Venda de bancada',
    notification: 'Loja Bancada',
    terminal,
  });
  // A bench of payments that did not happen would measure the wrong thing.
  if (outcome.status !== 'approved' || outcome.state !== 'confirmed') {
    throw new Error(
      `payment ${outcome.referenceId} ended ${outcome.state} (${outcome.problem?.code ?? 'no problem'}), not approved and confirmed`,
    );
  }
  return outcome;
}

const roundStats = (s: Stats): Stats => ({
  samples: s.samples,
  medianMs: round(s.medianMs),
  p99Ms: round(s.p99Ms),
  minMs: round(s.minMs),
});
const median = (values: readonly number[]): number => stats(values).medianMs;

// ------------------------------------------------------------------------------------------------
// One payment at a time

interface PaymentParts {
  total: number;
  api: number;
  pinpad: number;
  overhead: number;
  ratio: number;
  delta: Delta;
}

interface SequentialRun {
  readonly parts: PaymentParts[];
  /** Each journal commit of the measured payments. */
  readonly commitTimes: number[];
  /** Median time of each API call and PINPAD exchange, by name. */
  readonly apiCalls: Record<string, number>;
  readonly pinpadExchanges: Record<string, number>;
}

async function sequentialPayments(
  stack: Stack,
  engine: PaymentEngine,
  samples: number,
  warmup: number,
): Promise<SequentialRun> {
  const { probe } = stack;
  const terminal = stack.pinpads[0]!.serial;
  for (let i = 0; i < warmup; i++) await pay(engine, terminal);
  const commits = probe.journalCommits.each!;
  const commitsBefore = commits.length;
  const marks = probe.callMarks();
  const parts: PaymentParts[] = [];
  for (let i = 0; i < samples; i++) {
    const before = probe.snapshot();
    const start = performance.now();
    await pay(engine, terminal);
    const total = performance.now() - start;
    const d = delta(probe.snapshot(), before);
    // Engine work done while a PINPAD exchange was in flight (a PINPAD message relayed as a
    // progress event) is the engine's, not the PINPAD's.
    const pinpad = d.pinpad.ms - d.insideDeviceMs;
    const unavoidable = d.api.ms + pinpad;
    parts.push({
      total,
      api: d.api.ms,
      pinpad,
      overhead: total - unavoidable,
      ratio: (total - unavoidable) / unavoidable,
      delta: d,
    });
  }
  return {
    parts,
    commitTimes: commits.slice(commitsBefore),
    apiCalls: probe.callMedians('api.', marks),
    pinpadExchanges: probe.callMedians('pinpad.', marks),
  };
}

/** A bare 16 KB write in place + fdatasync on the journal's disk: what one durable write costs there. */
function fdatasyncFloor(dir: string, samples: number): Stats {
  const path = join(dir, 'fsync-probe');
  const fd = openSync(path, 'w+');
  const block = Buffer.alloc(16 * 1024, 7);
  try {
    writeSync(fd, block, 0, block.length, 0);
    fdatasyncSync(fd);
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      block[i % block.length] = i & 0xff;
      const start = performance.now();
      writeSync(fd, block, 0, block.length, 0);
      fdatasyncSync(fd);
      times.push(performance.now() - start);
    }
    return stats(times);
  } finally {
    closeSync(fd);
    rmSync(path, { force: true });
  }
}

/**
 * A bare SQLite commit with the journal's pragmas (WAL, `synchronous`), of about the journal's
 * size: one row updated and one event row appended in an IMMEDIATE transaction. FULL is what the
 * journal uses; NORMAL (WAL synced only at checkpoints: safe against a killed process, not
 * against a power cut) shows what the fsync of each commit costs.
 */
function sqliteCommitFloor(dir: string, synchronous: 'FULL' | 'NORMAL', samples: number): Stats {
  const path = join(dir, `sqlite-probe-${synchronous}.db`);
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${synchronous}`);
    db.exec(
      'CREATE TABLE row (id INTEGER PRIMARY KEY, data TEXT NOT NULL); CREATE TABLE event (id INTEGER PRIMARY KEY, row_id INTEGER, note TEXT)',
    );
    db.prepare('INSERT INTO row (id, data) VALUES (1, ?)').run('x'.repeat(600));
    const update = db.prepare('UPDATE row SET data = ? WHERE id = 1');
    const event = db.prepare('INSERT INTO event (row_id, note) VALUES (1, ?)');
    const commit = db.transaction((i: number) => {
      update.run(`${i}`.padEnd(600, 'x'));
      event.run(`event ${i}`);
    });
    const times: number[] = [];
    for (let i = 0; i < samples + 20; i++) {
      const start = performance.now();
      commit.immediate(i);
      if (i >= 20) times.push(performance.now() - start);
    }
    return stats(times);
  } finally {
    db.close();
  }
}

export interface PaymentEndToEndBench {
  readonly samples: number;
  readonly card: string;
  readonly amount: number;
  /** engine.start → outcome (approved and confirmed by the auto policy). */
  readonly total: Stats;
  /** Time inside the payments API calls (create, authorize, complete: loopback HTTP to the sandbox). */
  readonly api: Stats;
  /** Time inside the PINPAD exchanges (PinpadSale ⇄ driver ⇄ memory link ⇄ simulator). */
  readonly pinpad: Stats;
  /** API + PINPAD: the unavoidable parts. */
  readonly unavoidable: Stats;
  /** total − unavoidable: the engine's own time. */
  readonly overhead: Stats;
  /** Per payment, (total − API − PINPAD) / (API + PINPAD). */
  readonly overheadRatioMedian: number;
  readonly overheadRatioP99: number;
  /** Median time of each call (ms). */
  readonly apiCallMedians: Record<string, number>;
  readonly pinpadExchangeMedians: Record<string, number>;
  /** What a payment's overhead is made of (medians per payment; ms). */
  readonly perPayment: {
    readonly apiCalls: number;
    readonly pinpadExchanges: number;
    readonly journalCommits: number;
    readonly journalCommitsMs: number;
    readonly journalReads: number;
    readonly journalReadsMs: number;
    readonly progressEvents: number;
    readonly progressEventsMs: number;
    readonly logLines: number;
    readonly logLinesMs: number;
    /** overhead − journal − events − logs: engine code, promise hops. */
    readonly restMs: number;
    /** Share of the overhead spent in journal commits. */
    readonly journalCommitShare: number;
  };
  /** One journal commit (an IMMEDIATE transaction, fsynced). */
  readonly journalCommit: Stats;
  /** Beneath a journal commit on this disk: a bare SQLite commit (FULL, NORMAL) and a bare fdatasync. */
  readonly floors: {
    readonly sqliteCommitFull: Stats;
    readonly sqliteCommitNormal: Stats;
    readonly fdatasync: Stats;
  };
  /** The same payments on a `:memory:` journal (no file, no fsync): what is left without the disk. */
  readonly inMemoryJournal: {
    readonly samples: number;
    readonly total: Stats;
    readonly overhead: Stats;
    readonly overheadRatioMedian: number;
    readonly journalCommitsMs: number;
    readonly journalCommit: Stats;
  };
  readonly goal: string;
  readonly met: boolean;
}

export async function benchPaymentEndToEnd(samples = 300, inMemorySamples = 150): Promise<PaymentEndToEndBench> {
  const stack = await openStack(1);
  try {
    const fileJournal = Journal.open(join(stack.dir, 'journal.db'));
    timeJournal(fileJournal, stack.probe);
    const engine = stack.engineOn(fileJournal);
    const run = await sequentialPayments(stack, engine, samples, Math.ceil(samples / 10));
    await engine.close();
    fileJournal.close();

    // The same on a journal in memory: the disk's share of the overhead, by difference.
    const memoryJournal = Journal.open(':memory:');
    timeJournal(memoryJournal, stack.probe);
    const memoryEngine = stack.engineOn(memoryJournal);
    const memoryRun = await sequentialPayments(stack, memoryEngine, inMemorySamples, Math.ceil(inMemorySamples / 10));
    await memoryEngine.close();
    memoryJournal.close();

    // As many bare commits as payments (300 in the full run), at least 10.
    const floorCommits = Math.max(10, samples);
    const floors = {
      sqliteCommitFull: roundStats(sqliteCommitFloor(stack.dir, 'FULL', floorCommits)),
      sqliteCommitNormal: roundStats(sqliteCommitFloor(stack.dir, 'NORMAL', floorCommits)),
      fdatasync: roundStats(fdatasyncFloor(stack.dir, floorCommits)),
    };

    const { parts } = run;
    const of = (pick: (p: PaymentParts) => number, list = parts): Stats => roundStats(stats(list.map(pick)));
    const perPaymentMedian = (pick: (p: PaymentParts) => number): number => round(median(parts.map(pick)));
    const ratioStats = stats(parts.map((p) => p.ratio));
    const journalCommitsMs = perPaymentMedian((p) => p.delta.journalCommits.ms);
    const overheadMedian = median(parts.map((p) => p.overhead));
    return {
      samples,
      card: CARD,
      amount: AMOUNT,
      total: of((p) => p.total),
      api: of((p) => p.api),
      pinpad: of((p) => p.pinpad),
      unavoidable: of((p) => p.api + p.pinpad),
      overhead: of((p) => p.overhead),
      overheadRatioMedian: round(ratioStats.medianMs),
      overheadRatioP99: round(ratioStats.p99Ms),
      apiCallMedians: run.apiCalls,
      pinpadExchangeMedians: run.pinpadExchanges,
      perPayment: {
        apiCalls: perPaymentMedian((p) => p.delta.api.count),
        pinpadExchanges: perPaymentMedian((p) => p.delta.pinpad.count),
        journalCommits: perPaymentMedian((p) => p.delta.journalCommits.count),
        journalCommitsMs,
        journalReads: perPaymentMedian((p) => p.delta.journalReads.count),
        journalReadsMs: perPaymentMedian((p) => p.delta.journalReads.ms),
        progressEvents: perPaymentMedian((p) => p.delta.progressEvents.count),
        progressEventsMs: perPaymentMedian((p) => p.delta.progressEvents.ms),
        logLines: perPaymentMedian((p) => p.delta.logLines.count),
        logLinesMs: perPaymentMedian((p) => p.delta.logLines.ms),
        restMs: perPaymentMedian(
          (p) =>
            p.overhead -
            p.delta.journalCommits.ms -
            p.delta.journalReads.ms -
            p.delta.progressEvents.ms -
            p.delta.logLines.ms,
        ),
        journalCommitShare: round(journalCommitsMs / overheadMedian),
      },
      journalCommit: roundStats(stats(run.commitTimes)),
      floors,
      inMemoryJournal: {
        samples: inMemorySamples,
        total: of((p) => p.total, memoryRun.parts),
        overhead: of((p) => p.overhead, memoryRun.parts),
        overheadRatioMedian: round(median(memoryRun.parts.map((p) => p.ratio))),
        journalCommitsMs: round(median(memoryRun.parts.map((p) => p.delta.journalCommits.ms))),
        journalCommit: roundStats(stats(memoryRun.commitTimes)),
      },
      goal: `overhead ratio (median) ≤ ${OVERHEAD_GOAL}`,
      met: ratioStats.medianMs <= OVERHEAD_GOAL,
    };
  } finally {
    await stack.close();
  }
}

// ------------------------------------------------------------------------------------------------
// Many PINPADs at once

export interface ConcurrencyLevel {
  readonly pinpads: number;
  readonly payments: number;
  readonly seconds: number;
  readonly paymentsPerSecond: number;
  readonly latency: Stats;
  /** paymentsPerSecond at this level / at the first level (one PINPAD by default). */
  readonly scaling: number;
  /** Share of the engine process's time its event loop was busy. */
  readonly eventLoopUtilization: number;
  /** Share of the wall time the journal's commits held the event loop (they block it: better-sqlite3 is synchronous). */
  readonly journalCommitShare: number;
  /** Means per payment (ms): time inside API calls and PINPAD exchanges (queueing included), journal commits. */
  readonly apiMsPerPayment: number;
  readonly pinpadMsPerPayment: number;
  readonly journalCommitMsPerPayment: number;
  /** One journal commit at this level. */
  readonly journalCommit: Stats;
}

export interface PaymentConcurrencyBench {
  readonly card: string;
  readonly secondsPerLevel: number;
  readonly levels: ConcurrencyLevel[];
}

export async function benchPaymentConcurrency(
  secondsPerLevel = 3,
  levels: readonly number[] = LEVELS,
): Promise<PaymentConcurrencyBench> {
  const stack = await openStack(Math.max(...levels));
  try {
    const journal = Journal.open(join(stack.dir, 'journal.db'));
    timeJournal(journal, stack.probe);
    const engine = stack.engineOn(journal);
    // Warm-up: every PINPAD pays once (JIT, connections to the sandbox, statements compiled).
    await Promise.all(stack.pinpads.map((p) => pay(engine, p.serial)));

    const results: ConcurrencyLevel[] = [];
    let base = Number.NaN;
    for (const n of levels) {
      const latencies: number[] = [];
      const commits = stack.probe.journalCommits.each!;
      const commitsBefore = commits.length;
      const before = stack.probe.snapshot();
      const elu = performance.eventLoopUtilization();
      const start = performance.now();
      const deadline = start + secondsPerLevel * 1000;
      await Promise.all(
        stack.pinpads.slice(0, n).map(async ({ serial }) => {
          while (performance.now() < deadline) {
            const paymentStart = performance.now();
            await pay(engine, serial);
            latencies.push(performance.now() - paymentStart);
          }
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      const d = delta(stack.probe.snapshot(), before);
      const rate = latencies.length / seconds;
      if (Number.isNaN(base)) base = rate;
      results.push({
        pinpads: n,
        payments: latencies.length,
        seconds: round(seconds, 2),
        paymentsPerSecond: round(rate, 1),
        latency: roundStats(stats(latencies)),
        scaling: round(rate / base, 2),
        eventLoopUtilization: round(performance.eventLoopUtilization(elu).utilization),
        journalCommitShare: round(d.journalCommits.ms / (seconds * 1000)),
        apiMsPerPayment: round(d.api.ms / latencies.length),
        pinpadMsPerPayment: round(d.pinpad.ms / latencies.length),
        journalCommitMsPerPayment: round(d.journalCommits.ms / latencies.length),
        journalCommit: roundStats(stats(commits.slice(commitsBefore))),
      });
    }
    await engine.close();
    journal.close();
    return { card: CARD, secondsPerLevel, levels: results };
  } finally {
    await stack.close();
  }
}
