/**
 * The payment engine after kill -9 (architecture §6: exactly once, nothing lost). A whole agent
 * runs one payment in a child process (engine-crash-agent.ts) and kills itself with SIGKILL at
 * one exact point: right after the journal committed a state, or right after the payments API
 * answered a call the engine had not journaled yet. The sandbox lives in this process and
 * outlives the child. Then the agent restarts here (same journal, same PINPAD serial,
 * `recover()`), and each case proves:
 *
 * - nothing in the journal is lost: every event the child reported as committed is there, in order;
 * - the API holds at most one transaction (and at most one succeeded) for the reference;
 * - all of it against a provider with Idempotency-Key and a reference_id filter, and against one
 *   with only the calls GoPag documents (the engine then finds its transactions in the seller's list);
 * - the payment ends in a defined state, and the journal agrees with the API: confirmed or
 *   awaiting confirmation ⇔ the API transaction succeeded;
 * - `status` answers Processed with that result;
 * - starting the same reference again returns the same payment and creates nothing at the API.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { PinpadSimulator, startMemorySimulator, type TestCardName } from '../../../drivers/simulator/index.js';
import {
  PaymentsClient,
  type ProviderCapabilities,
  type Transaction,
  type TransactionStatus,
} from '../../../main/api/index.js';
import { paymentsPortOf } from '../../../main/agent/payments-port.js';
import { PaymentEngine } from '../../../main/core/engine.js';
import { Journal } from '../../../main/core/journal/journal.js';
import type { ConfirmationPolicy, JournalEvent, PaymentRecord } from '../../../main/core/journal/record.js';
import { centavos } from '../../../main/core/money.js';
import type { PaymentResultStatus } from '../../../main/core/outcome.js';
import type { SaleRequest } from '../../../main/core/sale-request.js';
import { attachPinpad } from '../../../main/pinpad/attach.js';
import { isFinal, PAYMENT_STATES, type PaymentState } from '../../../main/core/states.js';
import { createLogger } from '../../../main/log.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { compileChild, type CompiledChild } from '../../helpers/compile-child.js';
import type { AgentLine, AgentOrder, CrashPoint } from './engine-crash-agent.js';

const AGENT = fileURLToPath(new URL('./engine-crash-agent.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Generous: on a loaded 2-core box a slow answer must not pass for a lost one. */
const API_TIMEOUT_MS = 5_000;
/** The sandbox holds answers to amounts ending in 96 this long; the lost-answer cases time out first. */
const SLOW_AUTHORIZATION_MS = 3_000;
const LOST_ANSWER_TIMEOUT_MS = 1_000;
/** Children at once: each costs about half a second of CPU to start. */
const CONCURRENCY = 3;

/** The API's view of the reference: its one transaction's status, or none at all. */
type ApiView = TransactionStatus | 'none';

interface CrashCase {
  /** Where the child dies. */
  readonly crash: CrashPoint;
  /** The card the customer presents (visaCredit by default); null: no card comes. */
  readonly card?: TestCardName | null;
  /** The POS cancels while the PINPAD waits for the card. */
  readonly posCancels?: boolean;
  readonly cardTimeoutMs?: number;
  readonly amount?: number;
  readonly policy?: ConfirmationPolicy;
  readonly deadlineMs?: number;
  readonly apiTimeoutMs?: number;
  /** At the kill: the journal's state, and the API's. */
  readonly journal: PaymentState;
  readonly apiAtCrash: ApiView;
  /** After the restart: the journal's state, the result `status` answers, its problem, and the API's state. */
  readonly end: PaymentState;
  readonly result: PaymentResultStatus;
  readonly problem: string | null;
  readonly api: ApiView;
}

/**
 * The two providers the matrix runs against: one with every feature the engine can use, and one
 * with only what GoPag documents — Idempotency-Key ignored, no reference_id filter (its marketplace
 * list answers 404) —, where the engine is told so and must find its transactions in the seller's list.
 */
interface Provider {
  readonly sandbox: RunningSandbox;
  readonly capabilities: ProviderCapabilities;
  /** The engine's client for the restart, with those capabilities. */
  readonly client: PaymentsClient;
}

const PROVIDERS = {
  'with idempotency keys and the reference filter': { idempotencyKey: true, findByReference: true, terminalChannel: 2 },
  'with only the documented calls': { idempotencyKey: false, findByReference: false, terminalChannel: 2 },
} as const satisfies Record<string, ProviderCapabilities>;
type ProviderName = keyof typeof PROVIDERS;

const providers = new Map<ProviderName, Provider>();
/** The agent compiled once for all the children (test/helpers/compile-child.ts). */
let agent: CompiledChild | undefined;
beforeAll(async () => {
  agent = await compileChild(AGENT);
  for (const [name, capabilities] of Object.entries(PROVIDERS) as Array<[ProviderName, ProviderCapabilities]>) {
    const sandbox = await startSandbox({
      settings: {
        slowAuthorizationDelayMs: SLOW_AUTHORIZATION_MS,
        idempotencyKeys: capabilities.idempotencyKey,
        marketplaceTransactionList: capabilities.findByReference,
      },
    });
    const client = new PaymentsClient({
      baseUrl: sandbox.url,
      token: sandbox.token,
      marketplaceId: sandbox.marketplaceId,
      maxRetries: 0,
      timeoutMs: API_TIMEOUT_MS,
      capabilities,
    });
    providers.set(name, { sandbox, capabilities, client });
  }
});
afterAll(async () => {
  for (const { sandbox } of providers.values()) await sandbox.close();
  agent?.remove();
});

// ------------------------------------------------------------------------------------------------
// The child

let active = 0;
const queue: Array<() => void> = [];

/** Runs `work` when fewer than CONCURRENCY others are running. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (active >= CONCURRENCY) await new Promise<void>((resolve) => queue.push(resolve));
  active++;
  try {
    return await work();
  } finally {
    active--;
    queue.shift()?.();
  }
}

interface AgentRun {
  readonly lines: AgentLine[];
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** Runs the agent to its end (its own SIGKILL, normally); a child still alive after 30 s is killed and reported. */
function runAgent(order: AgentOrder): Promise<AgentRun> {
  // The child runs the sources as they are, compiled in beforeAll, so the test needs no build.
  const child = spawn(process.execPath, [agent!.script, JSON.stringify(order)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: AgentLine[] = [];
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => lines.push(JSON.parse(line) as AgentLine));
  const hung = setTimeout(() => {
    stderr += '\n[killed by the test: still running after 30 s]';
    child.kill('SIGKILL');
  }, 30_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(hung);
      resolve({ lines, code, signal, stderr });
    });
  });
}

// ------------------------------------------------------------------------------------------------
// The restart and the checks

/** The reference's transactions, read from the seller's list (the one listing both providers have). */
async function apiTransactions(provider: Provider, reference: string): Promise<Transaction[]> {
  const page = await provider.client.transactions.listBySeller(provider.sandbox.sellerId, { limit: 100 });
  return page.items.filter((transaction) => transaction.reference_id === reference);
}

const apiView = (transactions: readonly Transaction[]): ApiView => transactions[0]?.status ?? 'none';

type EventView = Pick<JournalEvent, 'seq' | 'from' | 'to' | 'note'>;
const eventView = ({ seq, from, to, note }: EventView): EventView => ({ seq, from, to, note });

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A payment is settled when nothing is left for the engine to do on its own: final, or waiting for the POS before its deadline. */
function isSettled(record: PaymentRecord, now: number): boolean {
  if (isFinal(record.state)) return true;
  return (
    record.state === 'awaiting_confirmation' &&
    record.confirmDeadline !== null &&
    Date.parse(record.confirmDeadline) > now
  );
}

/** Waits (up to 10 s) for recovery's queued work — an undo, a deadline's void — to land. */
async function settled(journal: Journal, id: string): Promise<PaymentRecord> {
  const until = Date.now() + 10_000;
  for (;;) {
    const record = journal.get(id)!;
    if ((isSettled(record, Date.now()) && journal.pendingUndos().length === 0) || Date.now() > until) return record;
    await sleep(20);
  }
}

/** A live PINPAD with the same serial, as the restarted agent would find it on its port. */
async function plugPinpad(
  engine: PaymentEngine,
  serial: string,
  logger: ReturnType<typeof createLogger>,
): Promise<() => Promise<void>> {
  const sim = new PinpadSimulator({
    serialNumber: serial,
    timeScale: 0.05,
    autoCustomer: { delayMs: 5, card: 'visaCredit' },
  });
  const served = await startMemorySimulator(sim, { name: serial });
  const pinpad = new Pinpad(served.link.host, { logger });
  await pinpad.open();
  await attachPinpad(engine, pinpad, { logger });
  return async () => {
    await pinpad.close(null).catch(() => {});
    await served.close();
  };
}

let caseNumber = 0;

async function crashAndRecover(provider: Provider, c: CrashCase, expect: ExpectStatic): Promise<void> {
  const { sandbox, client } = provider;
  const n = ++caseNumber;
  // Kept after the run (journal and logs of both processes) for the card-data scan.
  const dir = mkdtempSync(join(artifactsDir(), 'engine-crash-'));
  const journalPath = join(dir, 'journal.db');
  const serial = `PB-CRASH-${String(n).padStart(3, '0')}`;
  const policy = c.policy ?? 'auto';
  const params: SaleRequest = {
    referenceId: `crash-${n}-${c.crash.replace(':', '-')}-${Date.now()}`,
    amount: centavos(c.amount ?? 1990),
    paymentType: 'credit',
    installments: 1,
    description: 'Venda do teste de queda',
    notification: 'Loja Teste',
  };

  // 1. The agent runs the payment and dies at the crash point.
  const run = await inTurn(() =>
    runAgent({
      api: {
        url: sandbox.url,
        token: sandbox.token,
        marketplaceId: sandbox.marketplaceId,
        sellerId: sandbox.sellerId,
        capabilities: provider.capabilities,
      },
      journalPath,
      logPath: join(dir, 'agent.log'),
      serial,
      card: c.card === undefined ? 'visaCredit' : c.card,
      posCancels: c.posCancels === true,
      ...(c.cardTimeoutMs === undefined ? {} : { cardTimeoutMs: c.cardTimeoutMs }),
      confirmation: policy,
      confirmationDeadlineMs: c.deadlineMs ?? 10 * 60_000,
      apiTimeoutMs: c.apiTimeoutMs ?? API_TIMEOUT_MS,
      params,
      crashAt: c.crash,
    }),
  );
  const told = `agent output:\n${run.lines.map((line) => JSON.stringify(line)).join('\n')}\n${run.stderr}`;
  expect(run.signal, told).toBe('SIGKILL');
  expect(run.lines.at(-1), told).toEqual({ kind: 'crash', at: c.crash });
  const committed = run.lines.filter((line): line is Extract<AgentLine, { kind: 'event' }> => line.kind === 'event');

  const journal = Journal.open(journalPath);
  const logger = createLogger({ level: 'trace', name: 'engine-crash-restart', file: join(dir, 'restart.log') });
  const engine = new PaymentEngine({
    journal,
    payments: paymentsPortOf(client),
    sellerId: sandbox.sellerId,
    config: {
      confirmation: policy,
      apiTimeoutMs: API_TIMEOUT_MS,
      unknownResolution: { attempts: 2, delayMs: 10 },
      undoRetry: { baseMs: 20, maxMs: 200 },
    },
    logger,
  });
  let unplug: (() => Promise<void>) | undefined;
  try {
    // 2. What the crash left: exactly what the child reported as committed, and the API's side.
    const atCrash = journal.findByReference(params.referenceId);
    expect(atCrash?.state, told).toBe(c.journal);
    const id = atCrash!.id;
    expect(new Set(committed.map((event) => event.paymentId))).toEqual(new Set([id]));
    expect(journal.events(id).map(eventView)).toEqual(committed.map(eventView));
    expect(apiView(await apiTransactions(provider, params.referenceId))).toBe(c.apiAtCrash);

    // 3. The restart: same journal, same PINPAD, recovery, and whatever it queued lands.
    unplug = await plugPinpad(engine, serial, logger);
    const report = await engine.recover();
    expect(report.found).toBe(isFinal(c.journal) ? 0 : 1);
    const record = await settled(journal, id);

    // Nothing lost: the committed events are still the start of the history, in order.
    const history = journal.events(id).map(eventView);
    expect(history.slice(0, committed.length)).toEqual(committed.map(eventView));
    expect(history.map((event) => event.seq)).toEqual(history.map((_, i) => i + 1));

    // A defined end state.
    const story = `journal after the restart:\n${history.map((event) => `${event.seq} ${event.from ?? '-'} → ${event.to}: ${event.note}`).join('\n')}`;
    expect(record.state, story).toBe(c.end);
    expect(record.problem?.code ?? null, story).toBe(c.problem);
    expect(journal.pendingUndos()).toEqual([]);
    if (record.state === 'awaiting_confirmation')
      expect(Date.parse(record.confirmDeadline!)).toBeGreaterThan(Date.now());

    // Exactly once at the API, and the journal agrees with it.
    const transactions = await apiTransactions(provider, params.referenceId);
    expect(transactions.length).toBeLessThanOrEqual(1);
    expect(transactions.filter((transaction) => transaction.status === 'succeeded').length).toBeLessThanOrEqual(1);
    expect(apiView(transactions)).toBe(c.api);
    expect(record.transactionId).toBe(transactions[0]?.id ?? null);
    const charged = record.state === 'confirmed' || record.state === 'awaiting_confirmation';
    expect(apiView(transactions) === 'succeeded').toBe(charged);

    // Status tells the truth.
    const status = engine.status(params.referenceId);
    expect(status).toMatchObject({
      kind: 'processed',
      outcome: { paymentId: id, state: c.end, status: c.result, transactionId: record.transactionId },
    });
    if (status.kind === 'processed')
      expect(status.outcome.status === 'approved').toBe(apiView(transactions) === 'succeeded');

    // The POS asks again: the same payment, and nothing new at the API.
    const again = await engine.start(params);
    expect(again).toEqual(status.kind === 'processed' ? status.outcome : undefined);
    expect(await apiTransactions(provider, params.referenceId)).toEqual(transactions);
  } finally {
    await engine.close();
    await unplug?.();
    journal.close();
    logger.flush();
  }
}

const title = 'killed at $crash (journal $journal, API $apiAtCrash), restarted: ends $end ($result), API $api';

// ------------------------------------------------------------------------------------------------
// The matrix: one row per kill, what the journal and the API hold at that moment, and where the
// restarted agent takes the payment.

const MATRIX: ReadonlyArray<readonly [string, readonly CrashCase[]]> = [
  [
    'an approved chip sale, killed after each state it commits',
    [
      {
        crash: 'state:intent',
        journal: 'intent',
        apiAtCrash: 'none',
        end: 'failed',
        result: 'failed',
        problem: 'INTERRUPTED',
        api: 'none',
      },
      {
        crash: 'state:created',
        journal: 'created',
        apiAtCrash: 'pending',
        end: 'failed',
        result: 'failed',
        problem: 'INTERRUPTED',
        api: 'canceled',
      },
      // The card read and the authorization's announcement are one commit: the kill finds both.
      {
        crash: 'state:card_read',
        journal: 'authorizing',
        apiAtCrash: 'pending',
        end: 'failed',
        result: 'failed',
        problem: 'AUTHORIZATION_NOT_RECEIVED',
        api: 'canceled',
      },
      {
        crash: 'state:authorizing',
        journal: 'authorizing',
        apiAtCrash: 'pending',
        end: 'failed',
        result: 'failed',
        problem: 'AUTHORIZATION_NOT_RECEIVED',
        api: 'canceled',
      },
      // An accepted chip journals the approval and completing together: the kill finds both.
      {
        crash: 'state:approved',
        journal: 'completing',
        apiAtCrash: 'succeeded',
        end: 'confirmed',
        result: 'approved',
        problem: null,
        api: 'succeeded',
      },
      {
        crash: 'state:completing',
        journal: 'completing',
        apiAtCrash: 'succeeded',
        end: 'confirmed',
        result: 'approved',
        problem: null,
        api: 'succeeded',
      },
      // Under 'auto', awaiting confirmation and confirmed are one commit.
      {
        crash: 'state:awaiting_confirmation',
        journal: 'confirmed',
        apiAtCrash: 'succeeded',
        end: 'confirmed',
        result: 'approved',
        problem: null,
        api: 'succeeded',
      },
      {
        crash: 'state:confirmed',
        journal: 'confirmed',
        apiAtCrash: 'succeeded',
        end: 'confirmed',
        result: 'approved',
        problem: null,
        api: 'succeeded',
      },
    ],
  ],
  [
    'a sale the issuer declines (10051), killed on the way',
    [
      {
        crash: 'state:authorizing',
        amount: 10051,
        journal: 'authorizing',
        apiAtCrash: 'pending',
        end: 'failed',
        result: 'failed',
        problem: 'AUTHORIZATION_NOT_RECEIVED',
        api: 'canceled',
      },
      {
        crash: 'state:declined',
        amount: 10051,
        journal: 'declined',
        apiAtCrash: 'failed',
        end: 'declined',
        result: 'declined',
        problem: 'CARD_DECLINED',
        api: 'failed',
      },
    ],
  ],
  [
    'a card that refuses after the online approval, killed on the way to the reversal',
    [
      {
        crash: 'state:approved',
        card: 'visaRefuseAfterOnline',
        journal: 'approved',
        apiAtCrash: 'succeeded',
        end: 'reversed',
        result: 'failed',
        problem: 'INTERRUPTED',
        api: 'reversed',
      },
      {
        crash: 'state:reversing',
        card: 'visaRefuseAfterOnline',
        journal: 'reversing',
        apiAtCrash: 'succeeded',
        end: 'reversed',
        result: 'declined',
        problem: 'CHIP_REFUSED',
        api: 'reversed',
      },
      {
        crash: 'state:reversed',
        card: 'visaRefuseAfterOnline',
        journal: 'reversed',
        apiAtCrash: 'reversed',
        end: 'reversed',
        result: 'declined',
        problem: 'CHIP_REFUSED',
        api: 'reversed',
      },
    ],
  ],
  [
    'a card that declines offline, killed while the pending transaction is cancelled',
    [
      {
        crash: 'state:card_read',
        card: 'visaOfflineDeclined',
        journal: 'card_read',
        apiAtCrash: 'pending',
        end: 'failed',
        result: 'failed',
        problem: 'INTERRUPTED',
        api: 'canceled',
      },
      {
        crash: 'state:aborting',
        card: 'visaOfflineDeclined',
        journal: 'aborting',
        apiAtCrash: 'pending',
        end: 'declined',
        result: 'declined',
        problem: 'CARD_DECLINED_OFFLINE',
        api: 'canceled',
      },
      {
        crash: 'state:declined',
        card: 'visaOfflineDeclined',
        journal: 'declined',
        apiAtCrash: 'canceled',
        end: 'declined',
        result: 'declined',
        problem: 'CARD_DECLINED_OFFLINE',
        api: 'canceled',
      },
    ],
  ],
  [
    'a sale the POS cancels while the PINPAD waits for the card',
    [
      {
        crash: 'state:aborting',
        card: null,
        posCancels: true,
        journal: 'aborting',
        apiAtCrash: 'pending',
        end: 'cancelled',
        result: 'cancelled',
        problem: 'CANCELLED_BY_POS',
        api: 'canceled',
      },
      {
        crash: 'after:reverse',
        card: null,
        posCancels: true,
        journal: 'aborting',
        apiAtCrash: 'canceled',
        end: 'cancelled',
        result: 'cancelled',
        problem: 'CANCELLED_BY_POS',
        api: 'canceled',
      },
      {
        crash: 'state:cancelled',
        card: null,
        posCancels: true,
        journal: 'cancelled',
        apiAtCrash: 'canceled',
        end: 'cancelled',
        result: 'cancelled',
        problem: 'CANCELLED_BY_POS',
        api: 'canceled',
      },
    ],
  ],
  [
    'a sale that fails because no card comes in time',
    [
      {
        crash: 'state:aborting',
        card: null,
        cardTimeoutMs: 300,
        journal: 'aborting',
        apiAtCrash: 'pending',
        end: 'failed',
        result: 'failed',
        problem: 'CARD_TIMEOUT',
        api: 'canceled',
      },
      {
        crash: 'state:failed',
        card: null,
        cardTimeoutMs: 300,
        journal: 'failed',
        apiAtCrash: 'canceled',
        end: 'failed',
        result: 'failed',
        problem: 'CARD_TIMEOUT',
        api: 'canceled',
      },
    ],
  ],
  [
    'the API answered, the journal never heard it',
    [
      {
        crash: 'after:create',
        journal: 'intent',
        apiAtCrash: 'pending',
        end: 'failed',
        result: 'failed',
        problem: 'INTERRUPTED',
        api: 'canceled',
      },
      {
        crash: 'after:authorize',
        journal: 'authorizing',
        apiAtCrash: 'succeeded',
        end: 'reversed',
        result: 'failed',
        problem: 'INTERRUPTED',
        api: 'reversed',
      },
      {
        crash: 'after:authorize',
        amount: 10051,
        journal: 'authorizing',
        apiAtCrash: 'failed',
        end: 'declined',
        result: 'declined',
        problem: 'CARD_DECLINED',
        api: 'failed',
      },
      {
        crash: 'after:complete',
        journal: 'completing',
        apiAtCrash: 'succeeded',
        end: 'confirmed',
        result: 'approved',
        problem: null,
        api: 'succeeded',
      },
      {
        crash: 'after:reverse',
        card: 'visaRefuseAfterOnline',
        journal: 'reversing',
        apiAtCrash: 'reversed',
        end: 'reversed',
        result: 'declined',
        problem: 'CHIP_REFUSED',
        api: 'reversed',
      },
      {
        crash: 'after:reverse',
        card: 'visaOfflineDeclined',
        journal: 'aborting',
        apiAtCrash: 'canceled',
        end: 'declined',
        result: 'declined',
        problem: 'CARD_DECLINED_OFFLINE',
        api: 'canceled',
      },
    ],
  ],
  [
    "the 'pos' policy: an approval waits for the POS, and is voided after its deadline",
    [
      {
        crash: 'state:awaiting_confirmation',
        policy: 'pos',
        journal: 'awaiting_confirmation',
        apiAtCrash: 'succeeded',
        end: 'awaiting_confirmation',
        result: 'approved',
        problem: null,
        api: 'succeeded',
      },
      {
        crash: 'state:awaiting_confirmation',
        policy: 'pos',
        deadlineMs: 1,
        journal: 'awaiting_confirmation',
        apiAtCrash: 'succeeded',
        end: 'undone',
        result: 'cancelled',
        problem: 'NOT_CONFIRMED',
        api: 'canceled',
      },
      {
        crash: 'state:undoing',
        policy: 'pos',
        deadlineMs: 1,
        journal: 'undoing',
        apiAtCrash: 'succeeded',
        end: 'undone',
        result: 'cancelled',
        problem: 'NOT_CONFIRMED',
        api: 'canceled',
      },
      {
        crash: 'after:void',
        policy: 'pos',
        deadlineMs: 1,
        journal: 'undoing',
        apiAtCrash: 'canceled',
        end: 'undone',
        result: 'cancelled',
        problem: 'NOT_CONFIRMED',
        api: 'canceled',
      },
      {
        crash: 'state:undone',
        policy: 'pos',
        deadlineMs: 1,
        journal: 'undone',
        apiAtCrash: 'canceled',
        end: 'undone',
        result: 'cancelled',
        problem: 'NOT_CONFIRMED',
        api: 'canceled',
      },
    ],
  ],
  [
    'a lost authorization answer (slow 10096), killed while it is resolved',
    [
      {
        crash: 'state:unknown',
        amount: 10096,
        apiTimeoutMs: LOST_ANSWER_TIMEOUT_MS,
        journal: 'unknown',
        apiAtCrash: 'succeeded',
        end: 'reversed',
        result: 'failed',
        problem: 'INTERRUPTED',
        api: 'reversed',
      },
      {
        crash: 'after:retrieve',
        amount: 10096,
        apiTimeoutMs: LOST_ANSWER_TIMEOUT_MS,
        journal: 'unknown',
        apiAtCrash: 'succeeded',
        end: 'reversed',
        result: 'failed',
        problem: 'INTERRUPTED',
        api: 'reversed',
      },
    ],
  ],
];

describe.concurrent('the payment engine after kill -9, restarted', { timeout: 90_000 }, () => {
  for (const name of Object.keys(PROVIDERS) as ProviderName[]) {
    describe(`against a provider ${name}`, () => {
      for (const [path, cases] of MATRIX) {
        describe(path, () => {
          it.for(cases)(title, (c, { expect }) => crashAndRecover(providers.get(name)!, c, expect));
        });
      }
    });
  }

  it('kills the agent at every state of the machine, and after every API call that changes a transaction', ({
    expect,
  }) => {
    const points = new Set(MATRIX.flatMap(([, cases]) => cases.map((c) => c.crash)));
    expect(PAYMENT_STATES.filter((state) => !points.has(`state:${state}`))).toEqual([]);
    const changing: CrashPoint[] = ['after:create', 'after:authorize', 'after:complete', 'after:reverse', 'after:void'];
    expect(changing.filter((point) => !points.has(point))).toEqual([]);
  });
});
