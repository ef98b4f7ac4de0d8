/**
 * The steps of a sale that differ on a legacy (BibComp 1.08) PINPAD, which knows none of the
 * Abecs 2.x TLV commands (abecs.md §2.3, §6.1): the card read is GCR (§3.14), the chip GOC
 * (§3.15), the chip's final word FNC (§3.16), installments are asked with DSP + GKY (§3.6, §3.7)
 * since MNU is 2.x. PinpadSale (sale-session.ts) stays the one SaleDevice; its steps (sale/)
 * call these small functions when `pinpad.info()` says `protocol: 'legacy'`; everything the two
 * paths share (retry rules, card-data reduction, GPN, RMC, DSP results) stays there.
 *
 * What a legacy PINPAD cannot do, and how the sale copes:
 *
 * - GCR has no custom card prompt and 1.08 has no CEX: the POS's notification is shown (DSP)
 *   for a moment before GCR, not while the card is asked for.
 * - GCD (the CPF) is 2.x: a sale asking for a CPF is refused (PINPAD_UNSUPPORTED, step tax_id)
 *   before anything is created on the payments API.
 * - GTK is 2.x: a swiped card's authorization carries no encrypted_card_data.
 * - GIX's key maps are 2.x: the keys are not checked before the sale (the provider's first PIN
 *   method is used, key-methods.ts); GOC/GPN answer ST_ERRKEY (042) at the PIN step when its key
 *   is missing (S220 §6.5.11).
 *
 * Card data: GCR returns the PAN, the tracks and the name in clear. `cardReadOfGcr` hands them
 * only to summarizeCardRead (card-data.ts), which keeps first 6 / last 4; nothing here keeps,
 * logs or returns them otherwise.
 */
import type { FncRequest } from '../../drivers/abecs/commands/fnc.js';
import type { GcrRequest, GcrResult } from '../../drivers/abecs/commands/gcr.js';
import type { GcxResult } from '../../drivers/abecs/commands/gcx.js';
import type { GoxResult } from '../../drivers/abecs/commands/gox.js';
import { localDateTime, type Pinpad, type WaitOptions } from '../../drivers/abecs/pinpad.js';
import type { SaleTimeouts } from '../core/ports.js';
import { AUTHORIZATION_TAGS, COMPLETION_TAGS } from './card-data.js';
import { fitLine, fitMessage, type InstallmentChoice } from './display-text.js';
import type { PinKeyMethod } from './key-methods.js';
import { SaleStepError } from './sale-errors.js';

/** What the legacy steps need of the session that runs them (sale/context.ts SaleContext fits). */
export interface LegacySaleContext {
  readonly pinpad: Pinpad;
  readonly timeouts: SaleTimeouts;
  /** The session's wait options (signal, host limit, NTM relay) for one command. */
  wait(signal: AbortSignal | undefined, timeoutMs: number): WaitOptions;
}

/** GCR_APPTYPREQ "99": any application type of the PINPAD's tables (S220 §6.8.1). */
export const ANY_APPLICATION_TYPE = 99;
/** GCR_ACQIDXREQ "00": every acquirer's tables. */
export const ALL_ACQUIRERS = 0;
/** What a PINPAD with nothing loaded holds (GTS zeros, abecs.md §3.13): GCR_TABVER when GTS cannot say. */
export const NO_TABLES_VERSION = '0000000000';

/** How long the notification stays on a legacy PINPAD before GCR takes the display over. */
export const DEFAULT_LEGACY_NOTICE_MS = 2_000;

/** Line 1 while installments are asked: the yellow key (CLEAR) shows the next option. */
export const INSTALLMENTS_HINT = 'AMARELA: PROXIMA';

export interface GcrReadRequest {
  /** Centavos (N12). */
  readonly amount: number;
  /** GCR_ACQIDXREQ: the tables file's one acquirer, else ALL_ACQUIRERS. */
  readonly acquirer: number;
  /**
   * GCR_APPTYPREQ: the legacy field takes one type, so the first of the sale's types in the
   * tables file; ANY_APPLICATION_TYPE without a tables file.
   */
  readonly appType: number;
  /** GCR_TABVER: see gcrTableVersion. */
  readonly tableVersion: string;
  /** GCR_CTLSON (off after the contactless failures of card-read-retry.ts). */
  readonly contactless: boolean;
  /**
   * The bare GCR after a 020 (ST_TABVERDIF) and a table load: the PINPAD resumes with the saved
   * parameters and the card already inserted (abecs.md §3.13).
   */
  readonly resume: boolean;
  /** performance.now() at which the card step ends. */
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * One GCR (blocking). GCR takes no limit of its own (only the 2-minute CTLS idle, S220 §3.6.1),
 * so the host's limit is the card step's deadline; the driver cancels (CAN) when it passes.
 * Statuses (020, 041 ST_MCDATAERR, chip errors…) are thrown for the session's retry rules.
 */
export async function readCardGcr(ctx: LegacySaleContext, request: GcrReadRequest): Promise<GcxResult> {
  const remaining = Math.max(1, request.deadline - performance.now());
  const gcr: GcrRequest = request.resume
    ? { resume: true }
    : {
        ...localDateTime(new Date()),
        acquirer: request.acquirer,
        appType: request.appType,
        amount: request.amount,
        tableVersion: request.tableVersion,
        // No GCR_IDAPPn list: the application type (or "99") chooses the records.
        applications: [],
        ctlsEnabled: request.contactless,
      };
  return cardReadOfGcr(await ctx.pinpad.readCardLegacy(gcr, ctx.wait(request.signal, remaining)));
}

/**
 * GCR_TABVER: the version the PINPAD compares, on a chip insertion, with the one it stores for
 * GCR_ACQIDXREQ — the global ("00") version when GCR names no acquirer (abecs.md §3.13).
 *
 * - GCR names the tables file's one acquirer: the file's version (prepare loaded it; a PINPAD
 *   that still differs answers 020 and gets the tables then).
 * - GCR names "00" (no tables file, or a file of several acquirers): what the PINPAD holds as
 *   its global version (GTS "00"). A file of several acquirers is loaded per acquirer, which
 *   leaves the global version zeros, and a PINPAD whose tables another TEF loaded (no file)
 *   holds that TEF's version: the file's version or zeros would draw a 020 on every chip card.
 *   The tables file's versions were compared per acquirer before the sale (prepare). Zeros when
 *   GTS fails.
 */
export async function gcrTableVersion(
  pinpad: Pinpad,
  fileVersion: string | undefined,
  acquirer: number,
): Promise<string> {
  if (acquirer !== ALL_ACQUIRERS && fileVersion !== undefined) return fileVersion;
  try {
    return (await pinpad.tableVersions([ALL_ACQUIRERS]))[ALL_ACQUIRERS] ?? NO_TABLES_VERSION;
  } catch {
    return NO_TABLES_VERSION;
  }
}

/**
 * GCR's answer in the shape of GCX's (PP_* fields), for summarizeCardRead and the card rules:
 * GCR_STATCHIP is PP_ICCSTAT, GCR_ACQIDX/RECIDX/APPTYPE the one PP_AIDTABINFO entry, empty
 * fields absent. The clear PAN, tracks and name go only where GCX's would (card-data.ts reduces
 * them at once); GCR returns no EMV data (GOC does).
 */
export function cardReadOfGcr(read: GcrResult): GcxResult {
  const magstripe = read.cardType === 'magstripe' || read.cardType === 'contactlessMagstripe';
  const present = (value: string): string | undefined => (value.trim() === '' ? undefined : value.trim());
  const pan = present(read.pan);
  const track1 = present(read.track1);
  const track2 = present(read.track2);
  const label = present(read.applicationLabel);
  const expiry = /^[0-9]{6}$/.test(read.expiry) && read.expiry !== '000000' ? read.expiry : undefined;
  return {
    cardType: read.cardType,
    cardTypeCode: read.cardTypeCode,
    ...(read.cardType === 'magstripe' ? { iccStatus: read.chipStatus } : {}),
    ...(magstripe ? {} : { aidTableInfo: [{ acquirer: read.acquirer, record: read.record, appType: read.appType }] }),
    ...(pan !== undefined ? { pan } : {}),
    ...(!magstripe && /^[0-9]{2}$/.test(read.panSequence) ? { panSequence: read.panSequence } : {}),
    ...(track1 !== undefined ? { track1 } : {}),
    ...(track2 !== undefined ? { track2 } : {}),
    ...(label !== undefined ? { applicationLabel: label } : {}),
    ...(expiry !== undefined ? { expiry } : {}),
    ...(/^[0-9]{3}$/.test(read.issuerCountry) ? { issuerCountry: read.issuerCountry } : {}),
  };
}

/**
 * GOC (blocking): the card's first GENERATE AC with what the sale asks of GOX — force online
 * (GOC_CONNECT 1), DUKPT online PIN in the PIN slot, the authorization tags in GOC_TAGS1 — as
 * GOX's result, so the session builds the same CardRead. PIN bypass: GOC carries the "bypass
 * allowed" flag only in acquirer 01's GOC_ACQPR (tag 9C N2 + flag N1, abecs.md §3.15), which is
 * sent "000" (purchase, no bypass) when the card was read on acquirer 01's tables. The risk
 * management fields are zero: the sale is online whatever they say.
 */
export async function goOnChipGoc(
  ctx: LegacySaleContext,
  request: {
    amount: number;
    acquirer: number;
    /** The PIN's key method (GOC_METHOD, GOC_KEYIDX, GOC_WKENC): DUKPT, or MK/WK with the host's working key. */
    pinKey: PinKeyMethod;
    signal: AbortSignal | undefined;
  },
): Promise<GoxResult> {
  const { pinKey } = request;
  const goc = await ctx.pinpad.goOnChipLegacy(
    {
      amount: request.amount,
      cashback: 0,
      exceptionList: false,
      forceOnline: true,
      pinMethod: pinKey.method,
      keyIndex: pinKey.slot,
      // GOC_WKENC is ignored for DUKPT (S220 §3.6.3).
      workingKey: pinKey.method === 'mkwk' ? pinKey.working_key : '0'.repeat(32),
      floorLimit: 0,
      targetPercent: 0,
      thresholdValue: 0,
      maxTargetPercent: 0,
      ...(request.acquirer === 1 ? { acquirerParams: '000' } : {}),
      tags: AUTHORIZATION_TAGS,
    },
    // GOC takes no limit: the PINPAD's own is 60 s of PIN idle; the host's is the PIN step's.
    ctx.wait(request.signal, ctx.timeouts.pinMs),
  );
  return {
    decision: goc.decision,
    signatureRequired: goc.signatureRequired,
    offlinePinVerified: goc.offlinePinVerified,
    onlinePinCaptured: goc.onlinePinCaptured,
    deviceCvm: false,
    // GOC_PINBLK/GOC_KSN are zeros when no online PIN was captured.
    ...(goc.onlinePinCaptured ? { pinBlock: goc.pinBlock, ksn: goc.ksn } : {}),
    emvData: goc.emvData,
  };
}

/**
 * FNC (non-blocking): the host's answer for the card's second GENERATE AC (abecs.md §3.16).
 * FNC_COMMST 0 with the ARC; 9 for an approval whose ARC is not "00"; `null` (no host answer)
 * is 1 "no communication", with the other fields zero. Returns whether the card approved
 * (FNC_DECISION 0) and its EMV data.
 */
export async function finishChipFnc(
  ctx: LegacySaleContext,
  answer: { approved: boolean; responseCode: string; issuerData: Buffer } | null,
  signal: AbortSignal | undefined,
): Promise<{ approved: boolean; emvData: Buffer }> {
  const request: FncRequest =
    answer === null
      ? { communication: 'failed', arc: '00', issuerData: Buffer.alloc(0), tags: COMPLETION_TAGS }
      : {
          communication: answer.approved && answer.responseCode !== '00' ? 'approvedWithArc' : 'ok',
          arc: answer.responseCode,
          issuerData: answer.issuerData,
          tags: COMPLETION_TAGS,
        };
  const result = await ctx.pinpad.finishChipLegacy(request, ctx.wait(signal, ctx.timeouts.cardMs));
  return { approved: result.decision === 'approved', emvData: result.emvData };
}

/**
 * The installments asked without MNU: one option at a time on line 2 (DSP), INSTALLMENTS_HINT on
 * line 1, and GKY for the customer's key (abecs.md §3.7: the key comes back in RSP_STAT; GKY
 * leaves the display alone, §3.6). ENTER (green) chooses the option shown, CLEAR (yellow) shows
 * the next one (after the last, the first again), CANCEL (red) cancels; F1–F4 are ignored, since
 * not every PINPAD has them. menuMs limits the whole choice, not each key.
 */
export async function chooseInstallmentsGky(
  ctx: LegacySaleContext,
  choices: readonly InstallmentChoice[],
  signal: AbortSignal | undefined,
): Promise<number> {
  const deadline = performance.now() + ctx.timeouts.menuMs;
  let shown = 0;
  for (;;) {
    const remaining = deadline - performance.now();
    if (remaining <= 0) {
      throw new SaleStepError('TIMEOUT', 'installments', {
        message: `no installments chosen within ${ctx.timeouts.menuMs} ms.`,
      });
    }
    const choice = choices[shown]!;
    await ctx.pinpad.display(`${INSTALLMENTS_HINT}\n${fitLine(choice.label)}`);
    // On a legacy PINPAD (known from the identification the session already read) this is GKY.
    const key = await ctx.pinpad.readKey(ctx.wait(signal, remaining));
    if (key === 'enter') return choice.installments;
    if (key === 'cancel') {
      throw new SaleStepError('CUSTOMER_CANCELLED', 'installments', {
        message: 'the customer pressed CANCEL while the installments were asked.',
      });
    }
    if (key === 'clear') shown = (shown + 1) % choices.length;
  }
}

/** GCD (the CPF on the keypad) is an Abecs 2.x command (abecs.md §3.8): a legacy PINPAD cannot ask. */
export function taxIdUnsupported(): SaleStepError {
  return new SaleStepError('PINPAD_UNSUPPORTED', 'tax_id', {
    message:
      'this PINPAD cannot ask for a CPF (GCD is an Abecs 2.x command; the PINPAD knows only the BibComp 1.08 ones).',
    cashierMessage: 'Este PINPAD não pede CPF. Faça a venda sem CPF ou use outro PINPAD.',
  });
}

/**
 * The POS's notification, whole (2 × 16, fitMessage), for `ms` before GCR takes the display
 * over: GCR has no custom prompt and 1.08 has no CEX to wait for a card beside a DSP screen
 * (abecs.md §3.9, §3.14). Also used for the retry prompts of card-read-retry.ts ("\r" between
 * the lines). Cut short, without error, when the sale is cancelled: the next command then fails
 * as cancelled.
 */
export async function showNotice(
  pinpad: Pinpad,
  text: string,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  await pinpad.display(fitMessage(text.replace(/\r/g, '\n')));
  if (ms <= 0 || signal?.aborted) return;
  await new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
