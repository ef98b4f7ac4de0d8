/**
 * The journal's disk fills in the middle of a payment (issue 18, item 1). On a real tmpfs of its
 * own, filled to the last byte the moment the payment reaches each step, a POS connected over
 * the WebSocket must never hear "failed" (or declined, or cancelled) for a card the payments API
 * holds charged; a payment its sale could not finish is answered `in_progress` with
 * RESULT_PENDING and the PINPAD says the result is being checked; once the space is back, the
 * payment reaches its final state by itself — no next sale, no restart — within a minute, the
 * POS gets `payment.result`, and what it hears agrees with the API.
 */
import { copyFileSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../main/core/engine.js';
import type { ProgressStep } from '../../../main/core/events.js';
import { FINAL_STATES, type PaymentState } from '../../../main/core/states.js';
import type { PaymentOutcome } from '../../../main/pos/protocol/index.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { mountSmallDisk, type SmallDisk } from '../../helpers/small-disk.js';
import { checkedCall, checkedEvent, checkedFailure, posRig, type PosRig, type RpcClient } from '../pos/pos-rig.js';
import { CHIP_SALE_STEPS } from '../../helpers/chip-sale-steps.js';

const MiB = 1024 * 1024;
const SALE_STEPS = CHIP_SALE_STEPS;
/** Steps after which the sale's next journal write needs new space: the sale stops undecided. */
const STOPPED_AT: ReadonlySet<ProgressStep> = new Set(
  SALE_STEPS.slice(SALE_STEPS.indexOf('started'), SALE_STEPS.indexOf('removing_card') + 1),
);
/** Every step under the auto policy; the steps around the approval under the POS policy too. */
const CASES: readonly (readonly [ProgressStep, 'auto' | 'pos'])[] = [
  ...SALE_STEPS.map((step) => [step, 'auto'] as const),
  ['authorizing', 'pos'],
  ['removing_card', 'pos'],
  ['awaiting_confirmation', 'pos'],
];
/** How long the disk stays full after the sale stopped: recovery tries (and fails) meanwhile. */
const FULL_FOR_MS = 2_500;
/** The promise: every payment ends within a minute of the space coming back. */
const MINUTE_MS = 60_000;

let disk: SmallDisk | undefined;
let pos: PosRig | undefined;

afterEach(async () => {
  const journalDir = disk?.dir;
  await pos?.close();
  // The journal leaves the small disk for the card-data scan of the whole run.
  if (journalDir !== undefined) {
    const kept = mkdtempSync(join(artifactsDir(), 'disk-full-'));
    for (const name of readdirSync(journalDir))
      if (name.startsWith('journal.db')) copyFileSync(join(journalDir, name), join(kept, name));
  }
  disk?.unmount();
  pos = undefined;
  disk = undefined;
});

let counter = 0;
const sale = (
  amount = 1990,
): { reference_id: string; amount: number; payment_type: 'credit'; installments: number; description: string } => ({
  reference_id: `disk-full-${++counter}-${Date.now()}`,
  amount,
  payment_type: 'credit',
  installments: 1,
  description: 'Venda de teste',
});

async function atApi(rig: PosRig, referenceId: string): Promise<string | null> {
  const found = await rig.rig.client.transactions.findByReference(referenceId, { sellerId: rig.rig.sandbox.sellerId });
  return found?.status ?? null;
}

/** Whether what the POS was told agrees with the API: approved ⇔ the card stands charged. */
function agrees(status: PaymentOutcome['status'], apiStatus: string | null): boolean {
  if (status === 'approved') return apiStatus === 'succeeded';
  if (status === 'in_progress') return true;
  return apiStatus !== 'succeeded';
}

/** The payment's final state — or, under the POS policy, an approval waiting for the POS. */
async function finalWithin(
  rig: PosRig,
  referenceId: string,
  ms: number,
  policy: 'auto' | 'pos',
): Promise<PaymentState> {
  const deadline = Date.now() + ms;
  for (;;) {
    const state = rig.rig.journal.findByReference(referenceId)?.state;
    if (state !== undefined && (FINAL_STATES.has(state) || (policy === 'pos' && state === 'awaiting_confirmation')))
      return state;
    if (Date.now() > deadline)
      throw new Error(`payment ${referenceId} still ${String(state)} ${ms} ms after the space came back`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a full disk in the middle of a payment', () => {
  it('passes through these steps on a disk with room (the list the cases below fill at)', async () => {
    disk = mountSmallDisk(16 * MiB);
    pos = await posRig({ journalDir: disk.dir, journalOptions: { reserveBytes: 0, minFreeBytes: MiB } });
    const client = await pos.paired();
    const params = sale();
    expect(await checkedCall(client, 'payment.start', params)).toMatchObject({
      status: 'approved',
      state: 'confirmed',
    });
    expect(
      pos.rig.events
        .filter((e) => e.referenceId === params.reference_id && e.step !== 'pinpad_message')
        .map((e) => e.step),
    ).toEqual(SALE_STEPS);
  });

  it.each(CASES)(
    'filled at %s (confirmation %s): the POS never hears "failed" for a charged card, and the payment ends by itself once there is room',
    async (step, policy) => {
      disk = mountSmallDisk(16 * MiB);
      // No reserve: the write after the step fails, as it would once the reserve is used up.
      pos = await posRig({
        journalDir: disk.dir,
        journalOptions: { reserveBytes: 0, minFreeBytes: MiB },
        config: { confirmation: policy },
      });
      expect(pos.rig.engine.config.recoveryRetry).toEqual(DEFAULT_ENGINE_CONFIG.recoveryRetry);
      const client = await pos.paired();
      const params = sale();
      const sim = pos.pinpads[0]!.sim;
      const shown: string[] = [];
      sim.on('display', ({ lines }: { lines: readonly string[] }) => shown.push(lines.join(' ')));
      let filled = false;
      pos.rig.engine.on('progress', (event) => {
        if (event.referenceId !== params.reference_id || event.step !== step || filled) return;
        filled = true;
        disk!.fill();
      });

      const answer = await checkedCall(client, 'payment.start', params);
      expect(filled).toBe(true);
      // Up to the card's removal the write after the step needs new space: the sale stops there.
      if (STOPPED_AT.has(step)) expect(answer.status).toBe('in_progress');
      const apiThen = await atApi(pos, params.reference_id);
      expect(agrees(answer.status, apiThen), `told ${answer.status} while the API has ${String(apiThen)}`).toBe(true);
      expect(answer.status).not.toBe('failed');

      if (answer.status === 'in_progress') {
        expect(answer.problem).toMatchObject({
          code: 'RESULT_PENDING',
          cashier_message: 'Não cobre de novo: o resultado está sendo confirmado.',
        });
        expect(shown.some((text) => /VERIFICANDO/.test(text))).toBe(true);
        // Nothing drives it now: payment.status says so with the outcome, and a POS can stop waiting.
        const status = await checkedCall(client, 'payment.status', { reference_id: params.reference_id });
        expect(status).toMatchObject({
          status: 'InProgress',
          result: { status: 'in_progress', problem: { code: 'RESULT_PENDING' } },
        });
      }
      // Recovery meets the full disk too, and keeps trying.
      await new Promise((resolve) => setTimeout(resolve, FULL_FOR_MS));
      disk.free();
      const freedAt = Date.now();
      let state = await finalWithin(pos, params.reference_id, MINUTE_MS, policy);
      expect(Date.now() - freedAt).toBeLessThan(MINUTE_MS);
      const decided = state;
      // A POS whose answer was in_progress is told the result without asking, and acts on it (it
      // confirms below) only once told: the event is awaited first, as such a POS would.
      const told =
        answer.status === 'in_progress'
          ? await checkedEvent(client, 'payment.result', (p) => p.reference_id === params.reference_id)
          : undefined;
      if (told !== undefined) expect(told.state).toBe(decided);
      if (state === 'awaiting_confirmation') {
        // The POS policy: the approval waits for the POS, which confirms it as usual.
        expect(await checkedCall(client, 'payment.confirm', { reference_id: params.reference_id })).toMatchObject({
          confirmation: 'confirmed',
        });
        state = 'confirmed';
      }

      const final = await checkedCall(client, 'payment.status', { reference_id: params.reference_id });
      expect(final.status).toBe('Processed');
      const outcome = (final as { result: PaymentOutcome }).result;
      expect(outcome.state).toBe(state);
      const apiNow = await atApi(pos, params.reference_id);
      expect(agrees(outcome.status, apiNow), `ended ${outcome.status} while the API has ${String(apiNow)}`).toBe(true);
      if (told !== undefined) {
        // What the POS was told is the result it was promised.
        expect(told).toMatchObject({ status: outcome.status, state: decided });
        if (outcome.status !== 'approved') expect(outcome.problem?.code).toBe('DISK_FULL');
      } else {
        expect(outcome.status).toBe(answer.status);
      }
      // Whatever happened, the journal is whole and nothing is left undecided.
      expect(pos.rig.journal.unfinished().filter((record) => !FINAL_STATES.has(record.state))).toEqual([]);
      const db = new Database(pos.rig.journalPath, { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
      // And the next sale goes through.
      expect(await checkedCall(client, 'payment.start', sale())).toMatchObject({ status: 'approved' });
    },
    MINUTE_MS + 30_000,
  );
});

describe('the journal reserve', () => {
  it('finishes the payment in flight on the reserve, then refuses new sales with DISK_FULL until there is room', async () => {
    disk = mountSmallDisk(48 * MiB);
    pos = await posRig({ journalDir: disk.dir, journalOptions: { reserveBytes: 8 * MiB, minFreeBytes: 4 * MiB } });
    expect(existsSync(`${pos.rig.journalPath}.reserve`)).toBe(true);
    const client: RpcClient = await pos.paired();
    const params = sale();
    pos.rig.engine.on('progress', (event) => {
      if (event.referenceId === params.reference_id && event.step === 'authorizing') disk!.fill();
    });
    // The card is charged with the disk full: the approval and the confirmation go to the reserve.
    expect(await checkedCall(client, 'payment.start', params)).toMatchObject({
      status: 'approved',
      state: 'confirmed',
    });
    expect(await atApi(pos, params.reference_id)).toBe('succeeded');
    expect(existsSync(`${pos.rig.journalPath}.reserve`)).toBe(false);

    // No reserve and no room: the next sale is refused before anything happens.
    const refused = sale();
    const error = await checkedFailure(client, 'payment.start', refused);
    expect(error).toMatchObject({
      code: 'DISK_FULL',
      cashier_message: 'Disco do computador cheio: libere espaço antes de vender. Nada foi cobrado.',
    });
    expect(await checkedCall(client, 'payment.status', { reference_id: refused.reference_id })).toEqual({
      status: 'NotFound',
    });
    expect(await atApi(pos, refused.reference_id)).toBeNull();

    // Room again: the reserve is put back and sales go on.
    disk.free();
    expect(await checkedCall(client, 'payment.start', sale())).toMatchObject({
      status: 'approved',
      state: 'confirmed',
    });
    expect(existsSync(`${pos.rig.journalPath}.reserve`)).toBe(true);
  });

  it('tells a sale started while the PINPAD still finishes another on a full disk DISK_FULL, the lasting reason, not BUSY', async () => {
    disk = mountSmallDisk(48 * MiB);
    pos = await posRig({ journalDir: disk.dir, journalOptions: { reserveBytes: 8 * MiB, minFreeBytes: 4 * MiB } });
    const client = await pos.paired();
    const held = sale();
    let reading!: () => void;
    const waiting = new Promise<void>((resolve) => (reading = resolve));
    pos.rig.engine.on('progress', (event) => {
      if (event.referenceId === held.reference_id && event.step === 'card_read') reading();
    });
    const first = checkedCall(client, 'payment.start', held);
    await waiting;
    expect(pos.rig.engine.terminals()[0]?.busy).toBeTruthy();
    disk.fill(MiB);
    expect(await checkedFailure(client, 'payment.start', sale())).toMatchObject({ code: 'DISK_FULL' });
    disk.free();
    expect(await first).toMatchObject({ status: 'approved' });
  });

  it('refuses a sale when the disk is nearly full though the reserve is held', async () => {
    disk = mountSmallDisk(16 * MiB);
    pos = await posRig({ journalDir: disk.dir, journalOptions: { reserveBytes: 2 * MiB, minFreeBytes: 4 * MiB } });
    const client = await pos.paired();
    disk.fill(3 * MiB);
    expect(existsSync(`${pos.rig.journalPath}.reserve`)).toBe(true);
    const error = await checkedFailure(client, 'payment.start', sale());
    expect(error).toMatchObject({ code: 'DISK_FULL' });
    expect(error.message).toMatch(/nearly full \(3 MiB free\)/);
  });
});
