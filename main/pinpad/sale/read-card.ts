/**
 * The card read of a sale: GCX on an Abecs 2.x PINPAD (gcx-read.ts), GCR on a legacy one
 * (legacy-sale.ts), read again while the failure is one the customer can fix and time is left
 * (card-read-retry.ts), within the card step's one limit (cardMs).
 *
 * Card data: the PAN is asked for masked (6/4), and the raw GCX/GCR answer (maybe a clear PAN,
 * tracks, the name) is reduced at once to a CardReadSummary (card-data.ts) and dropped; an
 * unusable card fails here, before the customer is asked for a PIN.
 */
import type { GcxResult } from '../../../drivers/abecs/commands/gcx.js';
import { AbecsStatusError } from '../../../drivers/abecs/status.js';
import { serviceCodeOf, summarizeCardRead, type CardReadSummary } from '../card-data.js';
import { CHIP_CARD_SWIPED, cardReadRetryFor, UNREADABLE_SWIPE } from '../card-read-retry.js';
import { ALL_ACQUIRERS, ANY_APPLICATION_TYPE, gcrTableVersion, readCardGcr, showNotice } from '../legacy-sale.js';
import { SaleStepError } from '../sale-errors.js';
import type { SaleContext } from './context.js';
import { CHIP_FAILED_REMOVE_CARD, cardPrompt, displaySize, legacyNoticeScreen } from './display.js';
import { removeCard } from './finish-chip.js';
import { gcx, readCardInTurns } from './gcx-read.js';
import type { SaleTables } from './tables.js';

export interface CardReadRequest {
  /** Integer centavos > 0. */
  readonly amount: number;
  readonly paymentType: 'credit' | 'debit';
  /** The POS's notification, trimmed; null when there is none. */
  readonly notification: string | null;
  readonly signal: AbortSignal | undefined;
}

/** One card read of the retry loop (readCardWithRetries): GCX on Abecs 2.x, GCR on legacy PINPADs. */
type CardReader = (attempt: {
  readonly reads: number;
  readonly contactless: boolean;
  /** The retry rules' prompt for this read, if any. */
  readonly prompt: string | undefined;
  /** After a 020 (ST_TABVERDIF) and a table load: GCR resumes (bare GCR); GCX just reads again. */
  readonly resume: boolean;
  readonly deadline: number;
}) => Promise<GcxResult>;

/**
 * Why a read the PINPAD answered with ST_OK cannot be the sale's card: a swipe with no track
 * (S220: ST_OK and no track fields), or a chip card's stripe read outside a fallback (service
 * code 2xx / 6xx, or the PINPAD's PP_ICCSTAT saying the chip was not tried). Undefined when the
 * read is usable.
 */
function refusedRead(
  read: GcxResult,
  afterChipError: boolean,
): { code: string; cashierMessage: string; cause: unknown } | undefined {
  if (read.cardType !== 'magstripe') return undefined;
  if (read.track1 === undefined && read.track2 === undefined) {
    return {
      code: UNREADABLE_SWIPE,
      cashierMessage: 'Não foi possível ler a tarja. Passe o cartão novamente.',
      cause: new SaleStepError('CARD_ERROR', 'read_card', {
        message: 'the PINPAD read no track of the swiped card.',
        cashierMessage: 'Não foi possível ler a tarja do cartão.',
      }),
    };
  }
  const fallback = afterChipError || read.iccStatus === 1;
  const serviceCode = serviceCodeOf(read);
  if (!fallback && serviceCode !== undefined && (serviceCode.startsWith('2') || serviceCode.startsWith('6'))) {
    return {
      code: CHIP_CARD_SWIPED,
      cashierMessage: 'Cartão com chip: peça para o cliente inserir o cartão.',
      cause: new SaleStepError('CARD_ERROR', 'read_card', {
        message: 'a chip card was swiped, and card schemes allow its stripe only after a chip failure.',
        cashierMessage: 'Cartão com chip: insira o cartão no PINPAD.',
      }),
    };
  }
  return undefined;
}

/**
 * GCX, read again while the failure is one the customer can fix and time is left
 * (card-read-retry.ts): contactless and chip failures as the spec says, a chip card swiped
 * outside a fallback, a swipe with no readable track. Each new read tells the customer why on
 * the PINPAD (its prompt) and the cashier (onMessage).
 *
 * `readOnce` is one read: GCX (readCardAbecs) or GCR (readCardLegacy). A 020 (ST_TABVERDIF)
 * loads the tables once and reads again — on GCR with the bare GCR that resumes with the card
 * already inserted (abecs.md §3.13).
 */
async function readCardWithRetries(
  context: SaleContext,
  tables: SaleTables,
  signal: AbortSignal | undefined,
  promptFor: (contactless: boolean) => string | undefined,
  readOnce: CardReader,
): Promise<CardReadSummary> {
  const deadline = performance.now() + context.timeouts.cardMs;
  let contactless = true;
  let prompt = promptFor(contactless);
  let afterChipError = false;
  let contactlessCommErrors = 0;
  let tablesReloaded = false;
  let resume = false;
  for (let reads = 1; ; reads++) {
    let why: { code: string; cashierMessage: string; cause: unknown };
    try {
      const attempt = { reads, contactless, prompt, resume, deadline };
      resume = false;
      const read = await readOnce(attempt);
      const refusal = refusedRead(read, afterChipError);
      if (refusal === undefined) return summarizeCardRead(read, { afterChipError });
      why = refusal;
    } catch (error) {
      if (!(error instanceof AbecsStatusError)) throw context.failure(error, 'read_card');
      if (error.code === 'ST_TABVERDIF') {
        // Tables the PINPAD calls outdated: loaded (once) and the card read again, else a clear TABLES error.
        if (tablesReloaded || !tables.configured) {
          throw new SaleStepError('TABLES_UNAVAILABLE', 'read_card', {
            message: 'the PINPAD says its EMV tables are outdated.',
            cause: error,
          });
        }
        tablesReloaded = true;
        await context.step('read_card', () => tables.ensure());
        resume = true;
        continue;
      }
      why = { code: error.code, cashierMessage: error.cashierMessage, cause: error };
    }
    contactlessCommErrors = why.code === 'ST_CTLSCOMMERR' ? contactlessCommErrors + 1 : 0;
    const next = cardReadRetryFor(why.code, { reads, contactless, contactlessCommErrors });
    if (!next.retry || deadline - performance.now() <= 0 || signal?.aborted)
      throw context.failure(why.cause, 'read_card');
    context.logger.info({ step: 'read_card', code: why.code, contactless: next.contactless }, 'reading the card again');
    context.message(why.cashierMessage);
    if (next.removeCardFirst) await removeCard(context, CHIP_FAILED_REMOVE_CARD, signal);
    contactless = next.contactless;
    prompt = next.prompt ?? promptFor(contactless);
    afterChipError ||= next.fallback;
  }
}

/**
 * The card read of an Abecs 2.x PINPAD: GCX with the notification's screen as its prompt where
 * the display can hold it (else the PINPAD's own prompt; the amount was shown by showAmount);
 * a display too small for all of it (2 × 16) shows notification and amount in turns while the
 * first read waits (CEX).
 */
export async function readCardAbecs(
  context: SaleContext,
  tables: SaleTables,
  request: CardReadRequest,
): Promise<CardReadSummary> {
  const { amount, paymentType, notification, signal } = request;
  const display = notification === null ? undefined : await displaySize(context.pinpad);
  const { promptFor, rotation } = cardPrompt(display, amount, notification);
  const sale = { amount, paymentType };
  return readCardWithRetries(context, tables, signal, promptFor, ({ reads, contactless, prompt, deadline }) =>
    reads === 1 && rotation !== undefined
      ? readCardInTurns(context, tables, sale, rotation, deadline, signal)
      : gcx(context, tables, sale, { contactless, prompt, deadline, signal }),
  );
}

/**
 * The card read of a legacy PINPAD (abecs.md §3.14, §6.1): the notification, whole, for a moment
 * before GCR (which has no custom prompt; there is no CEX on 1.08 to wait beside it), then GCR
 * with the tables file's acquirer (when it has one), the sale's first application type (the
 * field takes one; "99" without a file) and the version of gcrTableVersion. A retry's prompt
 * ("FALHA NO CHIP…") is shown the same way before the next GCR.
 */
export async function readCardLegacy(
  context: SaleContext,
  tables: SaleTables,
  request: CardReadRequest & { readonly noticeMs: number },
): Promise<CardReadSummary> {
  const { amount, paymentType, notification, signal, noticeMs } = request;
  if (notification !== null) {
    const screen = legacyNoticeScreen(amount, notification);
    await context.step('read_card', () => showNotice(context.pinpad, screen, noticeMs, signal));
  }
  const usable = tables.usable();
  const acquirer = tables.acquirer() ?? ALL_ACQUIRERS;
  const tableVersion = await context.step('read_card', () =>
    gcrTableVersion(context.pinpad, usable?.version, acquirer),
  );
  return readCardWithRetries(
    context,
    tables,
    signal,
    () => undefined,
    async ({ contactless, prompt, resume, deadline }) => {
      if (prompt !== undefined && !resume)
        await context.step('read_card', () => showNotice(context.pinpad, prompt, noticeMs, signal));
      return readCardGcr(context, {
        amount,
        acquirer,
        appType:
          usable === undefined
            ? ANY_APPLICATION_TYPE
            : (tables.applicationTypes(paymentType)[0] ?? ANY_APPLICATION_TYPE),
        tableVersion,
        contactless,
        resume,
        deadline,
        signal,
      });
    },
  );
}
