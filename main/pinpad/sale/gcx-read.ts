/**
 * One card read of an Abecs 2.x PINPAD (GCX), and the first read of a display too small for the
 * notification's prompt: the notification and GCX's own prompt in turns (DSP + CEX, then GCX),
 * ROTATION_SECONDS each, until a card comes.
 */
import type { CexResult } from '../../../drivers/abecs/commands/cex.js';
import type { GcxRequest, GcxResult } from '../../../drivers/abecs/commands/gcx.js';
import { AbecsStatusError } from '../../../drivers/abecs/status.js';
import { AUTHORIZATION_TAGS } from '../card-data.js';
import { SaleStepError } from '../sale-errors.js';
import { CURRENCY_BRL, HOST_GRACE_MS, pinpadSeconds, TRANSACTION_PURCHASE, type SaleContext } from './context.js';
import { ROTATION_SECONDS } from './display.js';
import type { SaleTables } from './tables.js';

/** What GCX asks of the card for this sale. */
export interface GcxSale {
  /** Centavos (N12). */
  readonly amount: number;
  /** Only the applications of this type (SPE_APPTYPE, from the tables). */
  readonly paymentType: 'credit' | 'debit';
}

/** One GCX with what the sale asks for, limited by the card step's deadline. */
export async function gcx(
  context: SaleContext,
  tables: SaleTables,
  sale: GcxSale,
  read: {
    contactless: boolean;
    prompt: string | undefined;
    deadline: number;
    signal: AbortSignal | undefined;
    /** SPE_TIMEOUT when shorter than what is left of the deadline (the PINPAD's idle wait). */
    idleSeconds?: number;
  },
): Promise<GcxResult> {
  const remaining = Math.max(1, read.deadline - performance.now());
  const request: Omit<GcxRequest, 'date' | 'time'> = {
    transactionType: TRANSACTION_PURCHASE,
    appTypes: tables.applicationTypes(sale.paymentType),
    ...(tables.acquirer() !== undefined ? { acquirer: tables.acquirer()! } : {}),
    amount: sale.amount,
    currency: CURRENCY_BRL,
    options: { contactless: read.contactless, hideAmount: false },
    panMask: { left: 6, right: 4 },
    tagList: AUTHORIZATION_TAGS,
    timeout: Math.min(read.idleSeconds ?? 255, pinpadSeconds(remaining)),
    ...(read.prompt !== undefined ? { prompt: read.prompt } : {}),
  };
  // The host waits for the whole card step: a card presented late in an idle wait still needs
  // the time to be read.
  return context.pinpad.readCard(request, context.wait(read.signal, remaining + HOST_GRACE_MS));
}

/**
 * The first read on a display too small for amount, notification and request at once: the
 * notification (DSP) while CEX waits for a card or the CANCEL key, then the PINPAD's own card
 * prompt with the amount (GCX), ROTATION_SECONDS each, in turns until a card comes — as the
 * Scope TEF in the real trace shows its own screen (DEX) and waits with CEX before GCX.
 *
 * A card inserted or tapped during CEX is then read by GCX at once; a swipe caught by CEX is
 * the read itself (its truncated tracks, PAN masked 6/4, as a magstripe read). A GCX status
 * other than its own time limit is thrown for the caller's retry rules.
 */
export async function readCardInTurns(
  context: SaleContext,
  tables: SaleTables,
  sale: GcxSale,
  screens: readonly string[],
  deadline: number,
  signal: AbortSignal | undefined,
): Promise<GcxResult> {
  for (let turn = 0; ; turn++) {
    const remaining = deadline - performance.now();
    if (remaining <= 0)
      throw new SaleStepError('TIMEOUT', 'read_card', { message: `no card within ${context.timeouts.cardMs} ms.` });
    const seconds = Math.min(ROTATION_SECONDS, pinpadSeconds(remaining));
    if (turn % 2 === 1) {
      try {
        return await gcx(context, tables, sale, {
          contactless: true,
          prompt: undefined,
          deadline,
          signal,
          idleSeconds: seconds,
        });
      } catch (error) {
        if (error instanceof AbecsStatusError && error.code === 'ST_TIMEOUT' && deadline > performance.now()) continue;
        throw error;
      }
    }
    await context.step('read_card', () => context.pinpad.display(screens[(turn / 2) % screens.length]!));
    let event: CexResult;
    try {
      event = await context.pinpad.waitForEvent(
        {
          key: true,
          magstripe: true,
          icc: 'insertion',
          contactless: true,
          timeoutSeconds: seconds,
          panMask: { left: 6, right: 4 },
        },
        context.wait(signal, seconds * 1000 + HOST_GRACE_MS),
      );
    } catch (error) {
      if (error instanceof AbecsStatusError && error.code === 'ST_TIMEOUT') continue;
      throw context.failure(error, 'read_card');
    }
    switch (event.event) {
      case 'iccInserted':
      case 'contactlessDetected':
        return gcx(context, tables, sale, { contactless: true, prompt: undefined, deadline, signal });
      case 'cardSwiped':
        return { cardType: 'magstripe', cardTypeCode: '00', ...event.tracks };
      case 'cancel':
        throw new SaleStepError('CUSTOMER_CANCELLED', 'read_card', {
          message: 'the customer pressed CANCEL while the card was asked for.',
        });
      default:
        // Another key, or the antenna's own 2-minute limit: the next turn.
        continue;
    }
  }
}
