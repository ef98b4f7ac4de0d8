/**
 * Money-safe with only what the provider documents (issue 32): two agents with different
 * journals on one PINPAD serial — a second PC, a reinstall, `pay --journal` — against a provider
 * that ignores Idempotency-Key and has no reference_id filter, behind a gateway that answers
 * 502 or 504 after forwarding every POST (and sometimes forwards a create twice), with agent A
 * killed (SIGKILL) at random points and restarted on its journal, while agent B polls the
 * PINPAD's pending transactions with a customer ready to pay anything.
 *
 * Asserted on the provider's records after the run (the seller's list), not on what was sent:
 * - nothing is left pending, and no reference holds two live (pending/succeeded) transactions;
 * - no reference is charged twice, and every charge is a sale agent A's journal confirmed;
 * - agent B ran nothing: every pending transaction it saw was a Pinbridge sale of another journal.
 *
 * Agent A runs in child processes (engine-two-agents-agent.ts, through tsx) built with the
 * client's defaults; agent B, the sandbox and the gateway run here. The faults come from a seeded
 * plan (the seed is in every failure message); the kills come at real-time random moments after each life's first approved sale.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pinpad } from '../../../drivers/abecs/pinpad.js';
import { PinpadSimulator, startMemorySimulator } from '../../../drivers/simulator/index.js';
import { PaymentsClient, type Transaction } from '../../../main/api/index.js';
import { paymentsPortOf } from '../../../main/agent/payments-port.js';
import { PaymentEngine } from '../../../main/core/engine.js';
import { Journal } from '../../../main/core/journal/journal.js';
import { attachPinpad } from '../../../main/pinpad/attach.js';
import { createLogger, type Logger } from '../../../main/log.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { PAYMENT_CALLS, SELLER_LIST, startFaultProxy, type FaultProxy } from '../../helpers/fault-proxy.js';
import type { AgentLine, AgentOrder } from './engine-two-agents-agent.js';

const AGENT = fileURLToPath(new URL('./engine-two-agents-agent.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const SERIAL = 'PB-TWO-AGENTS-1';
/** Generous: on a loaded 2-core box a slow answer must not pass for a lost one. */
const API_TIMEOUT_MS = 5_000;
/** Agent A's lives: each costs about a second of CPU to start (tsx). */
const ROUNDS = 3;
const SALES_PER_ROUND = 30;
const SEED = Number(process.env.PINBRIDGE_TWO_AGENTS_SEED ?? 20260310);

/** mulberry32: a small seeded generator, so a failing fault plan can be run again. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const random = seeded(SEED);
const pick = <T>(choices: readonly T[]): T => choices[Math.floor(random() * choices.length)]!;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The gateway's plan, one rule per request in arrival order for each call: every POST is
 * forwarded and answered 502 or 504 (a create is forwarded twice one time in three, and the first
 * one always is); a few reads of the seller's list and of a transaction lose their answer.
 */
function planFaults(proxy: FaultProxy): void {
  for (let i = 0; i < 400; i++) {
    proxy.add({
      ...PAYMENT_CALLS.create,
      action: 'status_after',
      status: pick([502, 504] as const),
      forwards: i === 0 || random() < 1 / 3 ? 2 : 1,
    });
  }
  for (const call of [PAYMENT_CALLS.authorize, PAYMENT_CALLS.complete, PAYMENT_CALLS.reverse, PAYMENT_CALLS.void]) {
    for (let i = 0; i < 400; i++) proxy.add({ ...call, action: 'status_after', status: pick([502, 504] as const) });
  }
  for (const call of [SELLER_LIST, PAYMENT_CALLS.retrieve]) {
    for (let i = 0; i < 5; i++) proxy.add({ ...call, action: 'reset_after' });
  }
}

let sandbox: RunningSandbox;
let proxy: FaultProxy;
beforeAll(async () => {
  // A provider with only what GoPag documents: Idempotency-Key ignored, no reference_id filter.
  sandbox = await startSandbox({ settings: { idempotencyKeys: false, marketplaceTransactionList: false } });
  proxy = await startFaultProxy(sandbox.url);
  planFaults(proxy);
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

/** A client with the defaults of settings that name no capabilities, through the gateway. */
const defaultClient = (): PaymentsClient =>
  new PaymentsClient({
    baseUrl: proxy.url,
    token: sandbox.token,
    marketplaceId: sandbox.marketplaceId,
    timeoutMs: API_TIMEOUT_MS,
    retryBaseDelayMs: 10,
    retryMaxDelayMs: 40,
  });

const FAST = {
  apiTimeoutMs: API_TIMEOUT_MS,
  unknownResolution: { attempts: 2, delayMs: 10 },
  undoRetry: { baseMs: 20, maxMs: 200 },
  recoveryRetry: { baseMs: 20, maxMs: 200 },
} as const;

/** A simulated PINPAD with the shared serial and a customer who pays whatever it is shown. */
async function plugPinpad(engine: PaymentEngine, logger: Logger): Promise<() => Promise<void>> {
  const sim = new PinpadSimulator({
    serialNumber: SERIAL,
    timeScale: 0.05,
    autoCustomer: { delayMs: 5, card: 'visaCredit' },
  });
  const served = await startMemorySimulator(sim, { name: SERIAL });
  const pinpad = new Pinpad(served.link.host, { logger });
  await pinpad.open();
  await attachPinpad(engine, pinpad, { logger });
  return async () => {
    await pinpad.close(null).catch(() => {});
    await served.close();
  };
}

interface Life {
  readonly lines: AgentLine[];
  readonly stderr: string;
  readonly signal: NodeJS.Signals | null;
}

/**
 * One life of agent A: started on its journal, killed (SIGKILL) by `killWhen` — a random delay
 * after it is ready, or the moment one of its sales has a transaction pending at the card.
 */
function liveAndDie(order: AgentOrder, killWhen: { afterMs: number } | 'pending'): Promise<Life> {
  const child = spawn(process.execPath, ['--import', 'tsx', AGENT, JSON.stringify(order)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: AgentLine[] = [];
  let stderr = '';
  const kill = (): void => void child.kill('SIGKILL');
  let armed = false;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (text) => {
    const line = JSON.parse(text) as AgentLine;
    lines.push(line);
    // Timed from its first approved sale, not from its start: on a loaded machine a life killed
    // a second after starting may not have sold anything yet, and the run would prove nothing.
    if (line.kind === 'outcome' && line.status === 'approved' && killWhen !== 'pending' && !armed) {
      armed = true;
      setTimeout(kill, killWhen.afterMs);
    }
    if (line.kind === 'pending' && killWhen === 'pending') kill();
  });
  const guard = setTimeout(() => {
    stderr += '\n[killed by the test: still alive after 30 s]';
    kill();
  }, 30_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (_, signal) => {
      clearTimeout(guard);
      resolve({ lines, stderr, signal });
    });
  });
}

/** Every transaction of the seller, read straight from the sandbox (not through the gateway). */
async function sellerTransactions(): Promise<Transaction[]> {
  const api = new PaymentsClient({ baseUrl: sandbox.url, token: sandbox.token, marketplaceId: sandbox.marketplaceId });
  const all: Transaction[] = [];
  for (let offset = 0; ; offset += 100) {
    const { items } = await api.transactions.listBySeller(sandbox.sellerId, { limit: 100, offset });
    all.push(...items);
    if (items.length < 100) return all;
  }
}

describe('two agents with different journals on one PINPAD, a provider with only the documented calls', () => {
  it(
    'never leaves two live transactions for one reference, never charges one twice, and agent B runs none of A’s sales',
    { timeout: 120_000 },
    async () => {
      const told = `seed ${SEED} (PINBRIDGE_TWO_AGENTS_SEED)`;
      const dir = mkdtempSync(join(artifactsDir(), 'two-agents-'));
      const journalA = join(dir, 'agent-a.db');
      const stamp = Date.now();

      // Agent B: its own journal, polling the PINPAD's pending transactions all along.
      const loggedB: string[] = [];
      const logB = createLogger({ level: 'debug', name: 'two-agents-b', file: join(dir, 'agent-b.log') });
      const journalB = Journal.open(join(dir, 'agent-b.db'));
      const engineB = new PaymentEngine({
        journal: journalB,
        payments: paymentsPortOf(defaultClient()),
        sellerId: sandbox.sellerId,
        config: { ...FAST, pendingPollMs: 30 },
        logger: {
          debug: (obj, msg) => logB.debug(obj, msg),
          info: (obj, msg) => (loggedB.push(msg), logB.info(obj, msg)),
          warn: (obj, msg) => (loggedB.push(msg), logB.warn(obj, msg)),
          error: (obj, msg) => (loggedB.push(msg), logB.error(obj, msg)),
        },
      });
      const unplugB = await plugPinpad(engineB, logB);

      const lives: Life[] = [];
      let engineA: PaymentEngine | undefined;
      let unplugA: (() => Promise<void>) | undefined;
      let journal: Journal | undefined;
      try {
        // Agent A's lives, each killed -9: at random moments after its first approved sale, and the last with a sale's transaction pending.
        for (let round = 1; round <= ROUNDS; round++) {
          const order: AgentOrder = {
            api: {
              url: proxy.url,
              token: sandbox.token,
              marketplaceId: sandbox.marketplaceId,
              sellerId: sandbox.sellerId,
            },
            journalPath: journalA,
            logPath: join(dir, `agent-a-${round}.log`),
            serial: SERIAL,
            apiTimeoutMs: API_TIMEOUT_MS,
            references: Array.from({ length: SALES_PER_ROUND }, (_, k) => `two-${stamp}-${round}-${k + 1}`),
          };
          const life = await liveAndDie(
            order,
            round === ROUNDS ? 'pending' : { afterMs: 400 + Math.floor(random() * 900) },
          );
          lives.push(life);
          expect(life.signal, `${told}\n${life.stderr}`).toBe('SIGKILL');
          expect(
            life.lines.some((line) => line.kind === 'ready'),
            `${told}\n${life.stderr}`,
          ).toBe(true);
        }
        // The last kill left a sale's transaction pending: B polls it meanwhile.
        await sleep(300);

        // Agent A restarted for good: recovery settles whatever the kills left.
        const logA = createLogger({
          level: 'debug',
          name: 'two-agents-a-restart',
          file: join(dir, 'agent-a-restart.log'),
        });
        journal = Journal.open(journalA);
        const restarted = journal;
        engineA = new PaymentEngine({
          journal,
          payments: paymentsPortOf(defaultClient()),
          sellerId: sandbox.sellerId,
          config: FAST,
          logger: logA,
        });
        unplugA = await plugPinpad(engineA, logA);
        await engineA.recover();
        await expect
          .poll(() => restarted.unfinished().length + restarted.pendingUndos().length, {
            timeout: 20_000,
            interval: 50,
          })
          .toBe(0);
        // B idle before the records are read: it runs nothing, but it must not be mid-poll either.
        await expect.poll(() => engineB.terminal(SERIAL)?.busy, { timeout: 10_000, interval: 20 }).toBe(false);
        await engineB.close();

        // The provider's records.
        const ours = (await sellerTransactions()).filter((t) => t.reference_id?.startsWith(`two-${stamp}-`) === true);
        const byReference = new Map<string, Transaction[]>();
        for (const t of ours) byReference.set(t.reference_id!, [...(byReference.get(t.reference_id!) ?? []), t]);
        const story = (reference: string): string =>
          `${told}\n${reference}: ${byReference
            .get(reference)!
            .map((t) => `${t.id} ${t.status} ${JSON.stringify(t.metadata)}`)
            .join('; ')}`;
        expect(
          ours.filter((t) => t.status === 'pending' || t.status === 'new').map((t) => t.id),
          told,
        ).toEqual([]);
        for (const [reference, transactions] of byReference) {
          const live = transactions.filter((t) => t.status === 'pending' || t.status === 'succeeded');
          expect(live.length, story(reference)).toBeLessThanOrEqual(1);
          expect(transactions.filter((t) => t.status === 'succeeded').length, story(reference)).toBeLessThanOrEqual(1);
        }
        // Every charge is a sale A's journal confirmed, and every sale A confirmed is charged.
        for (const charged of ours.filter((t) => t.status === 'succeeded')) {
          const record = journal.findByReference(charged.reference_id!);
          expect(record?.state, story(charged.reference_id!)).toBe('confirmed');
          expect(record?.transactionId, story(charged.reference_id!)).toBe(charged.id);
          expect(charged.metadata.pinbridge_payment_id, story(charged.reference_id!)).toBe(record?.id);
        }
        const confirmed = journal.list({ states: ['confirmed'], limit: 1000 }).items;
        for (const record of confirmed) {
          expect(ours.find((t) => t.id === record.transactionId)?.status, story(record.referenceId)).toBe('succeeded');
        }
        // Agent B ran none of it, though it saw A's sales pending.
        expect(journalB.list().total, told).toBe(0);
        expect(loggedB.filter((msg) => msg.includes("another Pinbridge agent's sale")).length, told).toBeGreaterThan(0);
        // The run met what it is about: a gateway's second creation, cancelled; sales that went through.
        expect(
          [...byReference.values()].some((transactions) => transactions.length >= 2),
          told,
        ).toBe(true);
        expect(confirmed.length, told).toBeGreaterThan(0);
      } finally {
        await engineA?.close();
        await unplugA?.();
        await engineB.close();
        await unplugB();
        journal?.close();
        journalB.close();
      }
    },
  );
});
