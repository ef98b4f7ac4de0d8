/**
 * The first card read on a 2 × 16 display, turn by turn (main/pinpad/sale/gcx-read.ts): the
 * notification (DSP) while CEX waits ROTATION_SECONDS for a card or a key, then GCX's own prompt
 * with the amount for ROTATION_SECONDS, and again, until a card comes or the step's time is gone.
 */
import { describe, expect, it } from 'vitest';
import type { GcxResult } from '../../../../drivers/abecs/commands/gcx.js';
import { AbecsStatusError } from '../../../../drivers/abecs/status.js';
import { HOST_GRACE_MS } from '../../../../main/pinpad/sale/context.js';
import { ROTATION_SECONDS } from '../../../../main/pinpad/sale/display.js';
import { gcx, readCardInTurns } from '../../../../main/pinpad/sale/gcx-read.js';
import { SaleTables } from '../../../../main/pinpad/sale/tables.js';
import { contextOn, fakePinpad, type Answer, type FakePinpad } from './fake-pinpad.js';

const SALE = { amount: 1990, paymentType: 'credit' } as const;
const SCREENS = ['Mesa 12'];
/** What GCX hands back for an inserted chip card (no card data a spec needs). */
const CHIP_READ = { cardType: 'chip', cardTypeCode: '03' } as unknown as GcxResult;

const timesOut =
  (command: string): Answer =>
  () => {
    throw new AbecsStatusError(command, 12);
  };
const gives =
  (value: unknown): Answer =>
  () =>
    value;

function turns(fake: FakePinpad, cardMs = 60_000): Promise<GcxResult> {
  const context = contextOn(fake.pinpad, { timeouts: { cardMs } });
  const tables = new SaleTables(context, undefined, undefined);
  return readCardInTurns(context, tables, SALE, SCREENS, performance.now() + cardMs, undefined);
}

describe('the first read on a 2 × 16 display, in turns', () => {
  it('shows the notification while CEX waits, then GCX’s own prompt, ROTATION_SECONDS each, until a card comes', async () => {
    const fake = fakePinpad({
      answers: {
        waitForEvent: timesOut('CEX'),
        readCard: [timesOut('GCX'), gives(CHIP_READ)],
      },
    });
    expect(await turns(fake)).toBe(CHIP_READ);
    expect(fake.methods()).toEqual(['display', 'waitForEvent', 'readCard', 'display', 'waitForEvent', 'readCard']);
    const [shown, cex, read] = fake.calls;
    expect(shown!.request).toBe('Mesa 12');
    expect(cex).toMatchObject({
      request: { key: true, magstripe: true, icc: 'insertion', contactless: true, timeoutSeconds: ROTATION_SECONDS },
      hostLimitMs: ROTATION_SECONDS * 1000 + HOST_GRACE_MS,
    });
    // GCX's own prompt (no SPE_DSPMSG), the amount shown by the PINPAD, for one turn.
    expect(read!.request).toMatchObject({ amount: 1990, appTypes: [1], timeout: ROTATION_SECONDS });
    expect(read!.request).not.toHaveProperty('prompt');
  });

  it('reads a card inserted or tapped during CEX at once, with the whole step’s time left', async () => {
    for (const event of ['iccInserted', 'contactlessDetected']) {
      const fake = fakePinpad({ answers: { waitForEvent: gives({ event }), readCard: gives(CHIP_READ) } });
      expect(await turns(fake)).toBe(CHIP_READ);
      expect(fake.methods()).toEqual(['display', 'waitForEvent', 'readCard']);
      expect(fake.calls[2]!.request).toMatchObject({ timeout: 60, options: { contactless: true } });
    }
  });

  it('takes a swipe caught by CEX as the read itself (the truncated tracks CEX gives)', async () => {
    const tracks = { track2: '401288******1881=2812' };
    const fake = fakePinpad({ answers: { waitForEvent: gives({ event: 'cardSwiped', tracks }) } });
    expect(await turns(fake)).toEqual({ cardType: 'magstripe', cardTypeCode: '00', ...tracks });
    expect(fake.methods()).toEqual(['display', 'waitForEvent']);
  });

  it('goes on to the next turn on any other key', async () => {
    const fake = fakePinpad({
      answers: {
        waitForEvent: [gives({ event: 'enter' }), gives({ event: 'iccInserted' })],
        readCard: [timesOut('GCX'), gives(CHIP_READ)],
      },
    });
    expect(await turns(fake)).toBe(CHIP_READ);
    expect(fake.methods()).toEqual(['display', 'waitForEvent', 'readCard', 'display', 'waitForEvent', 'readCard']);
  });

  it('ends with CUSTOMER_CANCELLED when the customer presses CANCEL', async () => {
    const fake = fakePinpad({ answers: { waitForEvent: gives({ event: 'cancel' }) } });
    await expect(turns(fake)).rejects.toMatchObject({ code: 'CUSTOMER_CANCELLED', step: 'read_card' });
  });

  it('leaves a GCX failure other than its own time limit to the retry rules, as the PINPAD said it', async () => {
    const fake = fakePinpad({
      answers: {
        waitForEvent: timesOut('CEX'),
        readCard: () => {
          throw new AbecsStatusError('GCX', 60);
        },
      },
    });
    const error = await turns(fake).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbecsStatusError);
    expect(error).toMatchObject({ code: 'ST_DUMBCARD' });
  });

  it('ends with TIMEOUT, asking nothing more, once the card step’s time is gone', async () => {
    const fake = fakePinpad();
    const context = contextOn(fake.pinpad, { timeouts: { cardMs: 1_200 } });
    const tables = new SaleTables(context, undefined, undefined);
    await expect(
      readCardInTurns(context, tables, SALE, SCREENS, performance.now() - 1, undefined),
    ).rejects.toMatchObject({
      code: 'TIMEOUT',
      step: 'read_card',
      message: expect.stringContaining('1200 ms') as unknown,
    });
    expect(fake.calls).toEqual([]);
  });
});

describe('one GCX (gcx)', () => {
  it('asks for the sale’s applications with the PAN masked 6/4, and gives the PINPAD what is left of the step', async () => {
    const fake = fakePinpad({ answers: { readCard: gives(CHIP_READ) } });
    const context = contextOn(fake.pinpad);
    const tables = new SaleTables(context, undefined, undefined);
    const deadline = performance.now() + 30_000;
    await gcx(
      context,
      tables,
      { amount: 1990, paymentType: 'debit' },
      {
        contactless: false,
        prompt: 'FALHA NO CHIP\rPASSE O CARTAO',
        deadline,
        signal: undefined,
      },
    );
    expect(fake.calls[0]!.request).toMatchObject({
      transactionType: 0,
      appTypes: [2],
      amount: 1990,
      currency: 986,
      options: { contactless: false, hideAmount: false },
      panMask: { left: 6, right: 4 },
      timeout: 30,
      prompt: 'FALHA NO CHIP\rPASSE O CARTAO',
    });
    expect(fake.calls[0]!.request).not.toHaveProperty('acquirer');
    // The host waits the PINPAD's time and its grace: a card presented late still gets read.
    expect(fake.calls[0]!.hostLimitMs).toBeGreaterThan(30_000);
    expect(fake.calls[0]!.hostLimitMs).toBeLessThanOrEqual(30_000 + HOST_GRACE_MS);
  });
});
