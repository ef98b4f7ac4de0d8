/**
 * No write can kill the agent (issue 33). `pinbridge start` as a store runs it — a real process,
 * its home (journal, logs, print journal, clients file, receipts folder) all on one small disk of
 * its own (a real tmpfs), against the payments API sandbox in a process of its own — while the
 * disk fills at every progress step of a sale and stays full for a while, and while it starts on
 * a disk already full. Whatever the disk does:
 * - the agent never exits (and no error reaches its process guard: each writer degrades itself);
 * - the POS always gets an answer, and nothing the API holds charged is ever called failed;
 * - a new sale on the full disk is refused with DISK_FULL, and the window and agent.status say so;
 * - once there is room, the next sale is approved, without a restart.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../../main/api/index.js';
import type { PaymentOutcome } from '../../../main/pos/protocol/index.js';
import { serve, stopServers, type Server } from '../../helpers/cli.js';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk.js';
import { checkedCall, checkedFailure, openSocket, RpcClient } from '../pos/pos-rig.js';
import { CHIP_SALE_STEPS } from '../../helpers/chip-sale-steps.js';

const MiB = 1024 * 1024;
/** Room for the agent's files, the journal's reserve (8 MiB) and its 32 MiB floor for a sale. */
const DISK_BYTES = 64 * MiB;
const SALE_STEPS = CHIP_SALE_STEPS;
/** How long the disk stays full each time: every freed byte (the journal's reserve too) is taken again at once. */
const FULL_FOR_MS = 3_000;
/** The POS must get its answer within this, full disk or not. */
const ANSWER_MS = 60_000;

interface Sandbox {
  url: string;
  marketplace_id: string;
  seller_id: string;
  token: string;
}

let disk: SmallDisk | undefined;
let api: PaymentsClient;
let sandbox: Sandbox;

beforeEach(async () => {
  sandbox = (await serve(['sandbox', '--port', '0'])).ready as unknown as Sandbox;
  api = new PaymentsClient({ baseUrl: sandbox.url, token: sandbox.token, marketplaceId: sandbox.marketplace_id });
});
afterEach(async () => {
  await stopServers();
  disk?.unmount();
  disk = undefined;
});

/** The agent's home on the small disk: receipts printed as PDFs into a folder on it too. */
function homeOnSmallDisk(): string {
  disk = mountSmallDisk(DISK_BYTES);
  const home = disk.dir;
  mkdirSync(join(home, '.pinbridge'), { recursive: true });
  writeFileSync(
    join(home, '.pinbridge', 'settings.json'),
    JSON.stringify({
      receipts: { merchant: { name: 'PADARIA PÃO DOURADO LTDA', cnpj: '11222333000181' } },
      printers: { default: { address: `file://${home}/.pinbridge/receipts/`, format: 'pdf' } },
    }),
  );
  return home;
}

function startAgent(home: string): Promise<Server> {
  return serve(
    [
      'start',
      '--api',
      sandbox.url,
      '--token',
      sandbox.token,
      '--marketplace',
      sandbox.marketplace_id,
      '--seller',
      sandbox.seller_id,
      '--port',
      'sim',
      '--pos-port',
      '0',
    ],
    { HOME: home, PINBRIDGE_LOG_FORMAT: 'json' },
  );
}

/** A POS paired with the code the agent prints (as a cashier would type it); its token kept. */
async function pairedPos(agent: Server): Promise<RpcClient> {
  let stdout = '';
  agent.child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const client = new RpcClient(await openSocket(agent.ready.ws as string));
  const { pairing_id } = await client.call<{ pairing_id: string }>('session.pair', { name: 'Caixa 1' });
  let code: string | undefined;
  await vi.waitFor(
    () => {
      code = stdout
        .split('\n')
        .filter((line) => line.includes('pairing_requested'))
        .map((line) => JSON.parse(line) as { pairing_id: string; code: string })
        .find((line) => line.pairing_id === pairing_id)?.code;
      expect(code).toBeDefined();
    },
    { timeout: 10_000, interval: 25 },
  );
  const { token } = await client.call<{ token: string }>('session.confirmPairing', { pairing_id, code });
  client.token = token;
  return client;
}

/** A POS logging in with the token it was given before. */
async function loggedIn(agent: Server, token: string): Promise<RpcClient> {
  const client = new RpcClient(await openSocket(agent.ready.ws as string));
  await checkedCall(client, 'session.hello', { token });
  client.token = token;
  return client;
}

let counter = 0;
const sale = (): {
  reference_id: string;
  amount: number;
  payment_type: 'credit';
  installments: number;
  description: string;
} => ({
  reference_id: `disco-${++counter}-${Date.now()}`,
  amount: 2590,
  payment_type: 'credit',
  installments: 1,
  description: 'Pão e café',
});

/** What the payments API holds for a reference: 'succeeded' is a charged card. */
async function atApi(referenceId: string): Promise<string | null> {
  return (await api.transactions.findByReference(referenceId, { sellerId: sandbox.seller_id }))?.status ?? null;
}

/** Whether what the POS was told agrees with the API: approved ⇔ charged; undecided says nothing yet. */
function agrees(status: PaymentOutcome['status'], apiStatus: string | null): boolean {
  if (status === 'approved') return apiStatus === 'succeeded';
  if (status === 'in_progress') return true;
  return apiStatus !== 'succeeded';
}

/** Fills the disk and keeps it full for `ms`: what the agent frees (its reserve, a deleted file) is taken again. */
async function keepFull(ms: number): Promise<void> {
  const until = Date.now() + ms;
  // The disk may be gone already: a failed spec unmounts it while this still runs.
  while (Date.now() < until && disk !== undefined) {
    disk.fill();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The answer, or a failure naming the call: the POS must never be left waiting. */
function answered<T>(call: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    call,
    new Promise<T>((_resolve, reject) =>
      setTimeout(() => reject(new Error(`${what}: no answer within ${ANSWER_MS} ms`)), ANSWER_MS),
    ),
  ]);
}

/** The payment's final outcome, once the agent has decided it (recovery, after the space came back). */
async function decided(client: RpcClient, referenceId: string): Promise<PaymentOutcome> {
  let outcome: PaymentOutcome | undefined;
  await vi.waitFor(
    async () => {
      const status = await checkedCall(client, 'payment.status', { reference_id: referenceId });
      expect(status.status).toBe('Processed');
      outcome = (status as { result: PaymentOutcome }).result;
    },
    { timeout: ANSWER_MS, interval: 500 },
  );
  return outcome!;
}

/** Nothing the process guard had to catch: every writer handled its own failure. */
function noUnhandledFault(agent: Server): void {
  expect(agent.stderr()).not.toMatch(/was not handled; Pinbridge keeps running|an error nobody handled/);
}

function stillRunning(agent: Server, pid: number | undefined): void {
  expect(agent.child.exitCode).toBeNull();
  expect(agent.child.signalCode).toBeNull();
  expect(agent.child.pid).toBe(pid);
}

describe('pinbridge start with its home on a disk that fills (issue 33)', () => {
  it(
    'filled at every progress step of a sale and kept full a while: never exits, always answers, never calls a charged card failed, refuses new sales with DISK_FULL, and sells again once there is room',
    async () => {
      const home = homeOnSmallDisk();
      const agent = await startAgent(home);
      const pid = agent.child.pid;
      const pos = await pairedPos(agent);
      const window = new RpcClient(await openSocket(agent.ready.ws as string));
      await window.call('session.operator', {
        key: readFileSync(join(home, '.pinbridge', 'operator.key'), 'utf8').trim(),
      });

      for (const step of SALE_STEPS) {
        const params = sale();
        let filled: Promise<void> | undefined;
        const onMessage = (data: Buffer): void => {
          const message = JSON.parse(data.toString('utf8')) as { method?: string; params?: Record<string, unknown> };
          if (filled !== undefined || message.method !== 'payment.progress') return;
          if (message.params?.reference_id !== params.reference_id || message.params.step !== step) return;
          filled = keepFull(FULL_FOR_MS);
        };
        pos.socket.on('message', onMessage);
        const answer = await answered(checkedCall(pos, 'payment.start', params), `payment.start filled at ${step}`);
        pos.socket.off('message', onMessage);
        expect(filled, `the sale never reached ${step}`).toBeDefined();
        expect(answer.status, `filled at ${step}`).not.toBe('failed');
        const apiThen = await atApi(params.reference_id);
        expect(agrees(answer.status, apiThen), `filled at ${step}: told ${answer.status}, the API has ${apiThen}`).toBe(
          true,
        );

        // While the disk is full: a new sale is refused before anything happens, and everyone is told why.
        const refused = sale();
        const error = await answered(checkedFailure(pos, 'payment.start', refused), 'payment.start on a full disk');
        expect(error.code).toBe('DISK_FULL');
        expect(await atApi(refused.reference_id)).toBeNull();
        expect(await checkedCall(pos, 'agent.info')).toMatchObject({ name: 'Pinbridge' });
        await vi.waitFor(
          async () =>
            expect((await checkedCall(window, 'agent.status')).disk, `filled at ${step}`).toMatchObject({
              state: 'full',
              sales_refused: true,
              cashier_message: 'Disco do computador cheio: novas vendas estão suspensas até liberar espaço.',
            }),
          { timeout: 10_000, interval: 250 },
        );
        if (step === SALE_STEPS[0]) {
          // The window's saves say the disk is full, in Portuguese, and leave the file as it was.
          const settingsFile = join(home, '.pinbridge', 'settings.json');
          const before = readFileSync(settingsFile, 'utf8');
          const saved = await checkedFailure(window, 'operator.saveSettings', { settings: { confirmation: 'pos' } });
          expect(saved).toMatchObject({
            code: 'DISK_FULL',
            cashier_message:
              'As configurações não foram salvas: o disco do computador está cheio. Libere espaço e salve de novo.',
          });
          expect(readFileSync(settingsFile, 'utf8')).toBe(before);
          // And the log export says the log file is not being written, with the lines it missed from memory.
          const logs = await checkedCall(window, 'operator.exportLogs', {});
          expect(logs.not_written).toMatchObject({ code: 'ENOSPC' });
          const inFile = readFileSync(join(home, '.pinbridge', 'logs', 'pinbridge.log'), 'utf8');
          expect(logs.text.split('\n').filter((line) => line !== '' && !inFile.includes(line)).length).toBeGreaterThan(
            0,
          );
        }
        await filled;
        stillRunning(agent, pid);

        // Room again: nothing to restart — the next sale is approved, and the one the disk stopped ends agreeing with the API.
        disk!.free();
        const next = sale();
        expect(await answered(checkedCall(pos, 'payment.start', next), 'the next sale')).toMatchObject({
          status: 'approved',
        });
        expect(await atApi(next.reference_id)).toBe('succeeded');
        const outcome = await decided(pos, params.reference_id);
        const apiNow = await atApi(params.reference_id);
        expect(
          agrees(outcome.status, apiNow),
          `filled at ${step}: ended ${outcome.status}, the API has ${apiNow}`,
        ).toBe(true);
        if (apiNow === 'succeeded') expect(outcome.status).toBe('approved');
        await vi.waitFor(async () => expect((await checkedCall(window, 'agent.status')).disk.state).toBe('ok'), {
          timeout: 10_000,
          interval: 250,
        });
      }

      stillRunning(agent, pid);
      noUnhandledFault(agent);
      // The window heard the disk fill and empty, and the audit trail has each change once.
      expect(window.events('agent.disk').map((event) => (event as { state: string }).state)).toContain('full');
      const audit = readFileSync(join(home, '.pinbridge', 'logs', 'audit.log'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { kind: string });
      const full = audit.filter((line) => line.kind === 'disk.full').length;
      const recovered = audit.filter((line) => line.kind === 'disk.recovered').length;
      expect(full).toBeGreaterThanOrEqual(SALE_STEPS.length);
      expect(recovered).toBe(full);
      // The log file kept every line whole, and says where it could not be written.
      const log = readFileSync(join(home, '.pinbridge', 'logs', 'pinbridge.log'), 'utf8')
        .trim()
        .split('\n');
      for (const line of log) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      expect(log.some((line) => line.includes('the log file could not be written from'))).toBe(true);
      expect(await agent.stop()).toBe(0);
    },
    SALE_STEPS.length * (ANSWER_MS / 2) + 60_000,
  );

  it.each([
    ['after a crash left a sale in flight (its files as the crash left them)', true],
    ['after a clean stop (every file to be opened anew: the journal and the clients file read-only)', false],
  ] as const)(
    'starts on a disk already full, its reserve long gone, %s: answers, refuses new sales with DISK_FULL, and once there is room approves the next sale without a restart',
    async (_case, crash) => {
      const home = homeOnSmallDisk();
      const first = await startAgent(home);
      const pos = await pairedPos(first);
      const token = pos.token!;
      expect(await checkedCall(pos, 'payment.start', sale())).toMatchObject({ status: 'approved' });
      let inFlight: ReturnType<typeof sale> | undefined;
      if (crash) {
        // Killed (a power cut) while a card is being authorized.
        const params = sale();
        inFlight = params;
        const killed = new Promise<void>((resolve) =>
          pos.socket.on('message', (data: Buffer) => {
            const message = JSON.parse(data.toString('utf8')) as { method?: string; params?: Record<string, unknown> };
            if (message.method !== 'payment.progress' || message.params?.reference_id !== params.reference_id) return;
            if (message.params.step !== 'authorizing') return;
            first.child.kill('SIGKILL');
            resolve();
          }),
        );
        void pos.request('payment.start', params);
        await killed;
      }
      await first.stop();
      await pos.close();
      // The disk filled while the agent was away, after its reserve had already been given back.
      rmSync(join(home, '.pinbridge', 'journal.db.reserve'), { force: true });
      disk!.fill();

      const agent = await startAgent(home);
      const pid = agent.child.pid;
      expect(agent.ready).toMatchObject({ status: 'ready', mode: 'live', pinpad: { state: 'ready' } });
      // With nothing to give back, a journal closed cleanly could only be opened read-only: the log says so.
      if (!crash) expect(agent.stderr()).toContain('the journal was opened on a full disk');
      const client = await loggedIn(agent, token);
      expect(await checkedCall(client, 'agent.info')).toMatchObject({ name: 'Pinbridge', mode: 'live' });
      expect((await checkedCall(client, 'agent.status')).disk).toMatchObject({ state: 'full', sales_refused: true });
      const refused = sale();
      expect((await checkedFailure(client, 'payment.start', refused)).code).toBe('DISK_FULL');
      expect(await atApi(refused.reference_id)).toBeNull();
      if (inFlight !== undefined) {
        // The sale the crash left is read from the journal, not forgotten: undecided until it can be written.
        const left = await checkedCall(client, 'payment.status', { reference_id: inFlight.reference_id });
        expect(left.status).toBe('InProgress');
      }
      await keepFull(FULL_FOR_MS);
      stillRunning(agent, pid);
      expect(await checkedCall(client, 'agent.info')).toMatchObject({ name: 'Pinbridge' });

      disk!.free();
      const next = sale();
      expect(await answered(checkedCall(client, 'payment.start', next), 'the first sale with room')).toMatchObject({
        status: 'approved',
      });
      expect(await atApi(next.reference_id)).toBe('succeeded');
      if (inFlight !== undefined) {
        const outcome = await decided(client, inFlight.reference_id);
        expect(agrees(outcome.status, await atApi(inFlight.reference_id))).toBe(true);
      }
      await vi.waitFor(async () => expect((await checkedCall(client, 'agent.status')).disk.state).toBe('ok'), {
        timeout: 10_000,
        interval: 250,
      });
      // Its reserve is back for the next time.
      expect(existsSync(join(home, '.pinbridge', 'journal.db.reserve'))).toBe(true);
      stillRunning(agent, pid);
      noUnhandledFault(agent);
      expect(await agent.stop()).toBe(0);
    },
    180_000,
  );

  it('in training mode too: the embedded sandbox opens on the journal’s reserve, and new sales are refused with DISK_FULL until there is room', async () => {
    disk = mountSmallDisk(DISK_BYTES);
    const home = disk.dir;
    const first = await serve(['start', '--pos-port', '0'], { HOME: home, PINBRIDGE_LOG_FORMAT: 'json' });
    await first.stop();
    disk.fill();
    const agent = await serve(['start', '--pos-port', '0'], { HOME: home, PINBRIDGE_LOG_FORMAT: 'json' });
    expect(agent.ready).toMatchObject({ status: 'ready', mode: 'training' });
    expect(agent.stderr()).toContain("the journal's reserve was given back so that training's sandbox can open");
    const window = new RpcClient(await openSocket(agent.ready.ws as string));
    await window.call('session.operator', {
      key: readFileSync(join(home, '.pinbridge', 'operator.key'), 'utf8').trim(),
    });
    expect((await checkedFailure(window, 'payment.start', sale())).code).toBe('DISK_FULL');
    disk.free();
    expect(await answered(checkedCall(window, 'payment.start', sale()), 'a training sale with room')).toMatchObject({
      status: 'approved',
    });
    noUnhandledFault(agent);
    expect(await agent.stop()).toBe(0);
  }, 120_000);
});
