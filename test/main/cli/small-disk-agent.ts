/**
 * What the disk-full specs of `pinbridge start` share (start-disk-full.test.ts, a disk that fills
 * during sales; start-on-full-disk.test.ts, an agent started on a disk already full): a payments
 * API sandbox in a process of its own, the agent's home on a small disk of its own (a real
 * tmpfs), a POS paired as a cashier would, and the checks every case makes — the agent never
 * exits, the POS always gets an answer, and nothing the API holds charged is called failed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { PaymentsClient } from '../../../main/api/index.js';
import type { PaymentOutcome } from '../../../main/pos/protocol/index.js';
import { serve, stopServers, type Server } from '../../helpers/cli.js';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk.js';
import { checkedCall, openSocket, RpcClient } from '../pos/pos-rig.js';
import { CHIP_SALE_STEPS } from '../../helpers/chip-sale-steps.js';

const MiB = 1024 * 1024;
/** Room for the agent's files, the journal's reserve (8 MiB) and its 32 MiB floor for a sale. */
export const DISK_BYTES = 64 * MiB;
export const SALE_STEPS = CHIP_SALE_STEPS;
/** How long the disk stays full each time: every freed byte (the journal's reserve too) is taken again at once. */
export const FULL_FOR_MS = 3_000;
/** The simulated customer's time at each prompt. */
const CUSTOMER_DELAY_MS = 300;
/** The POS must get its answer within this, full disk or not. */
export const ANSWER_MS = 60_000;

interface Sandbox {
  url: string;
  marketplace_id: string;
  seller_id: string;
  token: string;
}

let disk: SmallDisk | undefined;
let api: PaymentsClient;
let sandbox: Sandbox;

/** Each spec: a payments API sandbox in a process of its own; after it, every process stopped and the small disk unmounted. */
export function useSandboxAndSmallDisk(): void {
  beforeEach(async () => {
    sandbox = (await serve(['sandbox', '--port', '0'])).ready as unknown as Sandbox;
    api = new PaymentsClient({ baseUrl: sandbox.url, token: sandbox.token, marketplaceId: sandbox.marketplace_id });
  });
  afterEach(async () => {
    await stopServers();
    disk?.unmount();
    disk = undefined;
  });
}

/** The spec's small disk (mounted by homeOnSmallDisk or smallDiskOnly). */
export function smallDisk(): SmallDisk {
  if (disk === undefined) throw new Error('no small disk is mounted');
  return disk;
}

/** A small disk of DISK_BYTES of its own, unmounted after the spec. */
export function smallDiskOnly(): SmallDisk {
  disk = mountSmallDisk(DISK_BYTES);
  return disk;
}

/** The agent's home on the small disk: receipts printed as PDFs into a folder on it too. */
export function homeOnSmallDisk(): string {
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

export function startAgent(home: string): Promise<Server> {
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
      // A customer quicker than training's 1.5 s a prompt: twenty sales, each step still long
      // enough for the disk to fill inside it (a fill takes a few milliseconds).
      '--customer-delay',
      String(CUSTOMER_DELAY_MS),
    ],
    { HOME: home, PINBRIDGE_LOG_FORMAT: 'json' },
  );
}

/** A POS paired with the code the agent prints (as a cashier would type it); its token kept. */
export async function pairedPos(agent: Server): Promise<RpcClient> {
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
export async function loggedIn(agent: Server, token: string): Promise<RpcClient> {
  const client = new RpcClient(await openSocket(agent.ready.ws as string));
  await checkedCall(client, 'session.hello', { token });
  client.token = token;
  return client;
}

let counter = 0;
export const sale = (): {
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
export async function atApi(referenceId: string): Promise<string | null> {
  return (await api.transactions.findByReference(referenceId, { sellerId: sandbox.seller_id }))?.status ?? null;
}

/** Whether what the POS was told agrees with the API: approved ⇔ charged; undecided says nothing yet. */
export function agrees(status: PaymentOutcome['status'], apiStatus: string | null): boolean {
  if (status === 'approved') return apiStatus === 'succeeded';
  if (status === 'in_progress') return true;
  return apiStatus !== 'succeeded';
}

/** Fills the disk and keeps it full for `ms`: what the agent frees (its reserve, a deleted file) is taken again. */
export async function keepFull(ms: number): Promise<void> {
  const until = Date.now() + ms;
  // The disk may be gone already: a failed spec unmounts it while this still runs.
  while (Date.now() < until && disk !== undefined) {
    disk.fill();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The answer, or a failure naming the call: the POS must never be left waiting. */
export function answered<T>(call: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    call,
    new Promise<T>((_resolve, reject) =>
      setTimeout(() => reject(new Error(`${what}: no answer within ${ANSWER_MS} ms`)), ANSWER_MS),
    ),
  ]);
}

/** The payment's final outcome, once the agent has decided it (recovery, after the space came back). */
export async function decided(client: RpcClient, referenceId: string): Promise<PaymentOutcome> {
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
export function noUnhandledFault(agent: Server): void {
  expect(agent.stderr()).not.toMatch(/was not handled; Pinbridge keeps running|an error nobody handled/);
}

export function stillRunning(agent: Server, pid: number | undefined): void {
  expect(agent.child.exitCode).toBeNull();
  expect(agent.child.signalCode).toBeNull();
  expect(agent.child.pid).toBe(pid);
}
