/**
 * Card processing (abecs.md §3.10, §3.13–§3.17, §6): the legacy GCR/GOC/FNC flow, the Abecs
 * GCX/GED/GOX/FCX flow, and GPN. Each card read starts a `Transaction`; the chip steps check the
 * sequence (ST_INVCALL when out of order) and what the scripted card does (decision, PIN,
 * refusal after online approval, early removal).
 */
import { decodeEmvTlv } from '../../abecs/emv.js';
import { fcxCommand } from '../../abecs/commands/fcx.js';
import { fncCommand, type FncDecision } from '../../abecs/commands/fnc.js';
import { gcrCommand, type GcrStartRequest, type GcrResult } from '../../abecs/commands/gcr.js';
import { gcxCommand, type GcxRequest, type GcxResult } from '../../abecs/commands/gcx.js';
import { gedCommand } from '../../abecs/commands/ged.js';
import { gocCommand } from '../../abecs/commands/goc.js';
import { goxCommand, type GoxRequest, type GoxResult } from '../../abecs/commands/gox.js';
import { gpnCommand } from '../../abecs/commands/gpn.js';
import { gtkCommand, packDigits } from '../../abecs/commands/gtk.js';
import { tdesCbcEncrypt, tdesEncrypt } from '../../crypto/dukpt.js';
import type { CardType, ChipDecision, PinMethod } from '../../abecs/card-params.js';
import {
  aidTableInfoOf,
  candidateRecords,
  contactlessCandidates,
  matchingRecords,
  tablesInUse,
  type AidEntry,
  type CandidateFilter,
} from '../aid-selection.js';
import { applicationTypeOf, track1Of, track2Of, truncatedTrack1, truncatedTrack2, type SimCard } from '../cards.js';
import { sleep, TIMED_OUT } from '../customer.js';
import { emvDataFor, type Cryptogram } from '../emv-data.js';
import { defineHandler, ST, StatusReply, type CommandContext, type CommandHandler } from '../handler.js';
import { capturePin, formatAmount, swipeReadable, waitForCard, type PresentedCard } from '../interaction.js';
import { keyLoaded } from '../profiles.js';
import type { CardTypeCode, DeviceState, Transaction } from '../state.js';
import { freeTextLines } from './basic.js';

const PIN_MIN = 4;
const PIN_MAX = 12;

const CARD_TYPES: Readonly<Record<CardTypeCode, CardType>> = {
  '00': 'magstripe',
  '03': 'chip',
  '05': 'contactlessMagstripe',
  '06': 'contactlessChip',
};

function cardTypeCodeOf(presented: PresentedCard): CardTypeCode {
  if (presented.how === 'swipe') return '00';
  if (presented.how === 'tap') return '06';
  return '03';
}

/**
 * AID table record the simulator "selects" for a card when it selects from no loaded table (the
 * training simulator without tables): one record per brand and credit/debit.
 */
function recordOf(card: SimCard): string {
  const brand = { visa: 1, mastercard: 2, elo: 3 }[card.brand];
  return String(brand + (applicationTypeOf(card) === '02' ? 10 : 0)).padStart(2, '0');
}

/**
 * The AID records a card read selects from, or undefined when the simulator invents the match
 * (no AID record loaded and the device does not need tables; see aid-selection.ts).
 */
function candidatesFor(device: DeviceState, filter: CandidateFilter): AidEntry[] | undefined {
  return tablesInUse(device) ? candidateRecords(device, filter) : undefined;
}

/**
 * Whether the antenna is on (S220 §6.8.1 and §6.9.1, note (*)): the command and the device allow
 * it and, when tables are in use, some candidate supports contactless for this amount.
 */
function contactlessOn(device: DeviceState, requested: boolean, candidates: AidEntry[] | undefined, amount: number): boolean {
  if (!requested || !device.profile.contactless) return false;
  return candidates === undefined || contactlessCandidates(candidates, amount).length > 0;
}

/**
 * Application selection for a chip or contactless card: the candidate records the card's AID
 * matches (a contactless card only among the contactless-capable ones, §6.8.1.3/§6.9.1.3). None
 * is ST_CARDAPPNAV for a chip and ST_CTLSAPPNAV for a contactless card ("não possui nenhuma
 * aplicação compatível"), with the display cleared. Undefined when there is nothing to select
 * from (magnetic read, or the simulator invents the match).
 */
function selectApplication(
  device: DeviceState,
  presented: PresentedCard,
  candidates: AidEntry[] | undefined,
  amount: number,
): AidEntry[] | undefined {
  if (candidates === undefined || presented.how === 'swipe') return undefined;
  const pool = presented.how === 'tap' ? contactlessCandidates(candidates, amount) : candidates;
  const matches = matchingRecords(pool, presented.card);
  if (matches.length > 0) return matches;
  device.transaction = undefined;
  device.clearDisplay();
  throw new StatusReply(presented.how === 'tap' ? ST.CTLSAPPNAV : ST.CARDAPPNAV);
}

/**
 * The card prompt: amount on line 1 when shown, the insert/tap/swipe request below. GCX's
 * SPE_DSPMSG replaces both (S220 §3.7.1): free text, CR-separated, as many lines as the display
 * has; it stays until a card is presented.
 */
function showCardPrompt(device: DeviceState, amount: number, ctls: boolean, custom?: string): void {
  if (custom !== undefined) {
    device.setLines(...freeTextLines(custom));
    return;
  }
  const request: [string, string] = ctls ? ['APROXIME, INSIRA', 'OU PASSE CARTAO'] : ['INSIRA OU PASSE', 'O CARTAO'];
  if (amount > 0) device.setLines(`VALOR: ${formatAmount(amount)}`, request[0]);
  else device.setLines(request[0], request[1]);
}

/** "SELECIONADO:    " + label, on the display and as an NTM (S220 §6.8.x). */
async function announceSelection(ctx: CommandContext, card: SimCard): Promise<void> {
  const line1 = 'SELECIONADO:    ';
  ctx.device.setLines(line1, card.label);
  await ctx.notify(line1 + card.label.slice(0, 16));
}

async function processing(ctx: CommandContext): Promise<void> {
  ctx.device.setLines('PROCESSANDO...', '');
  if (ctx.device.timings.processingMs > 0) await sleep(ctx.device.timings.processingMs, ctx.signal);
}

/** RSP_STAT of the ICC failure a `SimCard.iccFailure` chip causes on insertion. */
const ICC_FAILURE_STATUS = { mute: ST.DUMBCARD, error: ST.ERRCARD, fallback: ST.ERRFALLBACK, noApplication: ST.CARDAPPNAV } as const;

/**
 * A failing chip answers its ICC error once powered (GCR/GCX after PROCESSANDO...); the display
 * is cleared (S220 §7.3.1, error) and the card stays in the slot until the customer takes it.
 */
function failChip(device: DeviceState, presented: PresentedCard): void {
  const failure = presented.card.iccFailure;
  if (presented.how !== 'insert' || failure === undefined) return;
  device.transaction = undefined;
  device.clearDisplay();
  throw new StatusReply(ICC_FAILURE_STATUS[failure]);
}

/**
 * PP_ICCSTAT of a magnetic read (S220 §6.9.1.1): "2" when the GCX just before answered
 * ST_CARDAPPNAV, "1" when it answered ST_DUMBCARD/ST_ERRCARD or the GCX/GOX just before answered
 * ST_ERRFALLBACK, else "0".
 */
function iccStatusOf(device: DeviceState): number {
  const last = device.lastCardStatus;
  if (!last) return 0;
  if (last.command === 'GCX' && last.status === ST.CARDAPPNAV) return 2;
  if (last.command === 'GCX' && (last.status === ST.DUMBCARD || last.status === ST.ERRCARD)) return 1;
  return last.status === ST.ERRFALLBACK ? 1 : 0;
}

/** Runs a GCX/GOX and remembers the status it answers, for the next magnetic read's PP_ICCSTAT. */
async function rememberStatus<T>(device: DeviceState, command: 'GCX' | 'GOX', run: () => Promise<T>): Promise<T> {
  try {
    const result = await run();
    device.lastCardStatus = { command, status: ST.OK };
    return result;
  } catch (error) {
    if (error instanceof StatusReply) device.lastCardStatus = { command, status: error.status };
    throw error;
  }
}

/**
 * Before any PIN screen (S220 §6.5.11; for GOC/GOX only when the PIN goes online, §6.9.3.1): the
 * key must be loaded (ST_ERRKEY otherwise) and the PINPAD must accept a PIN entry now
 * (ST_PINBUSY under the `pinBusy` scenario).
 */
function checkPinEntry(device: DeviceState, key: { method: PinMethod; index: number } | undefined): void {
  if (key) {
    const slots = key.method === 'dukpt' ? device.keys.dukptPin : device.keys.mkPin;
    if (!keyLoaded(slots, key.index)) throw new StatusReply(ST.ERRKEY);
  }
  if (device.scenario.pinBusy) throw new StatusReply(ST.PINBUSY);
}

/** The customer pulls a `removeEarly` card right after it was read. */
function maybeRemoveEarly(device: DeviceState, presented: PresentedCard): void {
  if (presented.how === 'insert' && presented.card.removeEarly && device.slotCard === presented.card) {
    device.slotCard = undefined;
    device.changed();
  }
}

function startTransaction(
  device: DeviceState,
  presented: PresentedCard,
  source: Transaction['source'],
  fields: { amount: number; acquirer: number; date: string; transactionType: number },
  selected?: readonly AidEntry[],
): Transaction {
  // The first matching record parameterises the transaction (PP_AIDTABINFO lists them all).
  const first = selected?.[0];
  const transaction: Transaction = {
    card: presented.card,
    source,
    cardType: cardTypeCodeOf(presented),
    amount: fields.amount,
    acquirer: first?.acquirer ?? fields.acquirer,
    record: first?.record ?? recordOf(presented.card),
    appType: first ? String(first.applicationType).padStart(2, '0') : applicationTypeOf(presented.card),
    ...(selected ? { aidTableInfo: aidTableInfoOf(selected) } : {}),
    date: fields.date,
    transactionType: fields.transactionType,
    atc: (device.atc = (device.atc + 1) & 0xffff),
    tracksRead: false,
    finished: false,
  };
  device.transaction = transaction;
  return transaction;
}

// ------------------------------------------------------------------------------------------------
// GCR

function gcrResult(t: Transaction): GcrResult {
  const { card } = t;
  const mag = t.cardType === '00';
  const chip = t.cardType === '03';
  const acquirerData = t.acquirer === 1 ? '0'.repeat(66) : t.acquirer === 2 ? '9F0702FF00' : '';
  return {
    cardType: CARD_TYPES[t.cardType],
    cardTypeCode: t.cardType,
    chipStatus: 0,
    appType: mag ? 0 : Number(t.appType),
    acquirer: t.acquirer,
    record: mag ? '00' : t.record,
    track1: mag ? track1Of(card).slice(0, 76) : '',
    track2: track2Of(card).slice(0, 37),
    track3: '',
    pan: mag ? '' : card.pan,
    panSequence: mag ? '00' : (card.panSequenceNumber ?? '00'),
    applicationLabel: mag ? '' : card.label,
    serviceCode: card.serviceCode,
    cardholderName: chip ? card.cardholderName : '',
    expiry: card.expiry,
    issuerCountry: card.issuerCountry ?? '076',
    acquirerData,
  };
}

/**
 * GCR: waits for a card; on a chip insertion compares GCR_TABVER with the stored version and, if
 * they differ, saves the parameters and answers 020 — a bare GCR then resumes with them.
 */
const gcr = defineHandler(gcrCommand, async (req, ctx) => {
  const { device } = ctx;
  let start: GcrStartRequest;
  if (req.resume === true) {
    const saved = device.gcrResume;
    if (!saved) throw new StatusReply(ST.INVCALL);
    start = saved.request as GcrStartRequest;
  } else {
    start = req;
  }
  device.gcrResume = undefined;
  device.transaction = undefined;
  // "Registros candidatos" (S220 §6.8.1): GCR_APPTYPREQ "00" = the GCR_IDAPPn list, "99" = any
  // type; GCR_ACQIDXREQ narrows to one acquirer only when both fields are not "00".
  const candidates = candidatesFor(device, {
    ...(start.appType === 0 ? { refs: start.applications } : {}),
    ...(start.appType !== 0 && start.appType !== 99 ? { appTypes: [start.appType] } : {}),
    ...(start.acquirer !== 0 && start.appType !== 0 ? { acquirer: start.acquirer } : {}),
  });
  // A PINPAD without an antenna ignores the contactless request (legacy profile).
  const ctls = contactlessOn(device, start.ctlsEnabled ?? true, candidates, start.amount);
  showCardPrompt(device, start.amount, ctls);
  const presented = await waitForCard(ctx, {
    icc: true,
    mag: true,
    ctls,
    timeoutMs: ctls ? device.timings.ctlsIdleMs : undefined,
    appTypes: [start.appType],
  });
  if (presented === TIMED_OUT) {
    device.clearDisplay();
    throw new StatusReply(ST.TIMEOUT);
  }
  if (presented.how === 'swipe' && !swipeReadable(device, presented.card)) {
    // GCR has no "swiped, nothing read" answer: a stripe with no readable track is ST_MCDATAERR.
    device.clearDisplay();
    throw new StatusReply(ST.MCDATAERR);
  }
  if (presented.how === 'insert') {
    await processing(ctx);
    failChip(device, presented);
    if (start.tableVersion.trim() !== device.tables.version(start.acquirer).trim()) {
      device.gcrResume = { request: start, card: presented.card };
      device.clearDisplay();
      throw new StatusReply(ST.TABVERDIF);
    }
  }
  const selected = selectApplication(device, presented, candidates, start.amount);
  const acquirer = start.acquirer !== 0 ? start.acquirer : (start.applications[0]?.acquirer ?? 1);
  const transaction = startTransaction(
    device,
    presented,
    'GCR',
    { amount: start.amount, acquirer, date: start.date, transactionType: 0 },
    selected,
  );
  if (presented.how !== 'swipe') await announceSelection(ctx, presented.card);
  maybeRemoveEarly(device, presented);
  return gcrResult(transaction);
});

// ------------------------------------------------------------------------------------------------
// GCX

function maskPanWith(pan: string, mask: GcxRequest['panMask']): string {
  if (!mask) return pan;
  const right = Math.min(mask.right, pan.length);
  const left = Math.min(mask.left, pan.length - right);
  return pan.slice(0, left) + '*'.repeat(pan.length - left - right) + pan.slice(pan.length - right);
}

function gcxResult(t: Transaction, req: GcxRequest, iccStatus: number): GcxResult {
  const { card } = t;
  const mag = t.cardType === '00';
  const pan = maskPanWith(card.pan, req.panMask);
  const track1 = truncatedTrack1(card).replace(card.pan, pan);
  const track2 = truncatedTrack2(card).replace(card.pan, pan);
  const base: GcxResult = {
    cardType: CARD_TYPES[t.cardType],
    cardTypeCode: t.cardType,
    track2,
    issuerCountry: card.issuerCountry ?? '076',
    expiry: card.expiry,
  };
  if (mag) return { ...base, iccStatus, track1 };
  return {
    ...base,
    aidTableInfo: t.aidTableInfo ? [...t.aidTableInfo] : [{ acquirer: t.acquirer, record: t.record, appType: Number(t.appType) }],
    pan,
    panSequence: card.panSequenceNumber ?? '00',
    applicationLabel: card.label,
    ...(t.cardType === '03' ? { cardholderName: card.cardholderName } : { deviceType: '00' }),
    ...(req.tagList ? { emvData: emvDataFor(emvContext(t, 'ARQC'), req.tagList) } : {}),
  };
}

/** GCX: like GCR without the table-version check; SPE_TIMEOUT and the CTLS cap end the wait. */
const gcx = defineHandler(gcxCommand, (req, ctx) => rememberStatus(ctx.device, 'GCX', () => readCardGcx(req, ctx)));

async function readCardGcx(req: GcxRequest, ctx: CommandContext): Promise<GcxResult> {
  const { device } = ctx;
  // From the GCX before this one (S220 §6.9.1.1), read before this one's own status replaces it.
  const iccStatus = iccStatusOf(device);
  device.transaction = undefined;
  device.gcrResume = undefined;
  // "Registros candidatos" (S220 §6.9.1): SPE_AIDLIST alone, else SPE_APPTYPE and SPE_ACQREF.
  const candidates = candidatesFor(
    device,
    req.aids ? { refs: req.aids } : { ...(req.appTypes ? { appTypes: req.appTypes } : {}), ...(req.acquirer === undefined ? {} : { acquirer: req.acquirer }) },
  );
  const ctls = contactlessOn(device, req.options?.contactless ?? false, candidates, req.amount ?? 0);
  const amount = req.options?.hideAmount ? 0 : (req.amount ?? 0);
  showCardPrompt(device, amount, ctls, req.prompt);
  const hostLimit = req.timeout === undefined ? undefined : device.hostSeconds(req.timeout);
  const ctlsCap = ctls ? device.timings.ctlsIdleMs : undefined;
  const limit = hostLimit === undefined ? ctlsCap : ctlsCap === undefined ? hostLimit : Math.min(hostLimit, ctlsCap);
  const presented = await waitForCard(ctx, { icc: true, mag: true, ctls, timeoutMs: limit, ...(req.appTypes ? { appTypes: req.appTypes } : {}) });
  if (presented === TIMED_OUT) {
    device.clearDisplay();
    throw new StatusReply(ST.TIMEOUT);
  }
  if (presented.how === 'swipe') {
    // "Após a inserção, passagem ou aproximação do cartão, a mensagem deve ser imediatamente
    // apagada" (S220 §6.9.1); the training simulator keeps its historical display.
    if (device.profile.name !== 'training') device.clearDisplay();
    if (!swipeReadable(device, presented.card)) {
      // Swiped, no track read: ST_OK with no track fields (S220 §6.9.1.1); nothing for GTK/GPN.
      return { cardType: 'magstripe', cardTypeCode: '00', iccStatus };
    }
  }
  if (presented.how === 'insert') {
    await processing(ctx);
    failChip(device, presented);
  }
  const selected = selectApplication(device, presented, candidates, req.amount ?? 0);
  const acquirer = req.aids?.[0]?.acquirer ?? req.acquirer ?? 1;
  const transaction = startTransaction(
    device,
    presented,
    'GCX',
    { amount: req.amount ?? 0, acquirer, date: req.date, transactionType: req.transactionType ?? 0 },
    selected,
  );
  if (presented.how !== 'swipe') await announceSelection(ctx, presented.card);
  maybeRemoveEarly(device, presented);
  return gcxResult(transaction, req, iccStatus);
}

/** GED: EMV data of the card read by GCX (chip or contactless). */
const ged = defineHandler(gedCommand, (req, { device }) => {
  const t = device.transaction;
  if (!t || t.source !== 'GCX' || t.cardType === '00') throw new StatusReply(ST.INVCALL);
  return { emvData: emvDataFor(emvContext(t, t.decision ? cryptogramOf(t.decision) : 'ARQC'), req.tagList) };
});

// ------------------------------------------------------------------------------------------------
// GOC / GOX: the first Generate AC

function emvContext(t: Transaction, cryptogram: Cryptogram, arc?: string): Parameters<typeof emvDataFor>[0] {
  return {
    card: t.card,
    amount: t.amount,
    cashback: 0,
    transactionType: t.transactionType,
    cryptogram,
    date: t.date,
    atc: t.atc,
    ...(arc === undefined ? {} : { arc }),
  };
}

function cryptogramOf(decision: ChipDecision): Cryptogram {
  return decision === 'goOnline' ? 'ARQC' : decision === 'approvedOffline' ? 'TC' : 'AAC';
}

/** The chip transaction GOC/GOX/FNC/FCX work on, or ST_INVCALL / the ICC error. */
function chipTransaction(device: DeviceState, source: Transaction['source']): Transaction {
  const t = device.transaction;
  if (!t || t.source !== source || t.cardType === '00' || t.cardType === '05' || t.finished) {
    throw new StatusReply(ST.INVCALL);
  }
  if (t.cardType === '03' && device.slotCard !== t.card) {
    // The card left the slot: the ICC does not answer any more.
    device.transaction = undefined;
    throw new StatusReply(ST.ERRCARD);
  }
  return t;
}

interface FirstAcResult {
  readonly decision: ChipDecision;
  readonly offlinePin: boolean;
  readonly onlinePin: { pinBlock: string; ksn: string } | undefined;
}

async function firstGenerateAc(
  ctx: CommandContext,
  t: Transaction,
  options: { forceOnline: boolean; key: { method: PinMethod; index: number }; idleMs: number; prompt?: string },
): Promise<FirstAcResult> {
  const { card } = t;
  let decision: ChipDecision =
    card.outcome === 'online' ? 'goOnline' : card.outcome === 'offlineApproved' ? 'approvedOffline' : 'declined';
  if (decision === 'approvedOffline' && options.forceOnline) decision = 'goOnline';
  let offlinePin = false;
  let onlinePin: FirstAcResult['onlinePin'];
  if (card.requiresPin && decision !== 'declined') {
    try {
      // The key encrypts an online PIN only; an offline PIN goes to the chip (S220 §6.9.3.1).
      checkPinEntry(ctx.device, decision === 'goOnline' ? options.key : undefined);
    } catch (error) {
      ctx.device.clearDisplay(); // "apagar o display em caso de erro" (S220 §6.9.3)
      throw error;
    }
    await ctx.notify('SOLICITE A SENHA');
    const prompt = options.prompt ?? (t.amount > 0 ? `VALOR: ${formatAmount(t.amount)}` : 'DIGITE A SENHA');
    const pin = await capturePin(ctx, {
      prompt,
      min: PIN_MIN,
      max: PIN_MAX,
      idleMs: options.idleMs,
      key: options.key,
      pan: card.pan,
      ...(card.pin === undefined ? {} : { cardPin: card.pin }),
    });
    // Online cards send the PIN to the issuer; offline ones have the chip verify it.
    if (decision === 'goOnline') onlinePin = pin;
    else offlinePin = true;
  }
  t.decision = decision;
  return { decision, offlinePin, onlinePin };
}

const goc = defineHandler(gocCommand, async (req, ctx) => {
  const t = chipTransaction(ctx.device, 'GCR');
  // For contactless the card already decided in GCR: the amount cannot change any more.
  if (t.cardType === '06' && req.amount !== t.amount) throw new StatusReply(ST.INVPARM);
  t.amount = req.amount;
  await processing(ctx);
  const result = await firstGenerateAc(ctx, t, {
    forceOnline: req.forceOnline,
    key: { method: req.pinMethod, index: req.keyIndex },
    idleMs: ctx.device.timings.pinIdleMs,
  });
  const tags = [...req.tags, ...(req.tags2 ?? [])];
  return {
    decision: result.decision,
    signatureRequired: false,
    offlinePinVerified: result.offlinePin,
    offlinePinErrors: 0,
    pinBlocked: false,
    onlinePinCaptured: result.onlinePin !== undefined,
    pinBlock: result.onlinePin?.pinBlock ?? '0'.repeat(16),
    ksn: result.onlinePin?.ksn ?? '0'.repeat(20),
    emvData: emvDataFor(emvContext(t, cryptogramOf(result.decision)), tags.length > 0 ? tags : undefined),
  };
});

const gox = defineHandler(goxCommand, (req, ctx) => rememberStatus(ctx.device, 'GOX', () => goOnChipGox(req, ctx)));

async function goOnChipGox(req: GoxRequest, ctx: CommandContext): Promise<GoxResult> {
  const t = chipTransaction(ctx.device, 'GCX');
  // SPE_ACQREF names one of the acquirers PP_AIDTABINFO reported (S220 §3.7.3).
  const acquirers = t.aidTableInfo?.map((info) => info.acquirer) ?? [t.acquirer];
  if (!acquirers.includes(req.acquirer)) throw new StatusReply(ST.INVPARM);
  if (req.amount !== undefined) {
    if (t.cardType === '06' && req.amount !== t.amount) throw new StatusReply(ST.INVPARM);
    t.amount = req.amount;
  }
  await processing(ctx);
  const result = await firstGenerateAc(ctx, t, {
    forceOnline: req.options?.forceOnline ?? false,
    key: { method: req.pinMethod, index: req.keyIndex },
    idleMs: req.timeout === undefined ? ctx.device.timings.pinIdleMs : ctx.device.hostSeconds(req.timeout),
    ...(req.pinPrompt === undefined ? {} : { prompt: req.pinPrompt.split('\n')[0] ?? '' }),
  });
  return {
    decision: result.decision,
    signatureRequired: false,
    offlinePinVerified: result.offlinePin,
    onlinePinCaptured: result.onlinePin !== undefined,
    deviceCvm: false,
    ...(result.onlinePin ? { pinBlock: result.onlinePin.pinBlock } : {}),
    ...(result.onlinePin && req.pinMethod === 'dukpt' ? { ksn: result.onlinePin.ksn } : {}),
    emvData: emvDataFor(emvContext(t, cryptogramOf(result.decision)), req.tagList),
  };
}

// ------------------------------------------------------------------------------------------------
// FNC / FCX: the second Generate AC

/** Issuer script results: 5 bytes per script (result 20h = performed, then the script id). */
function scriptResults(issuerData: Buffer | undefined): Buffer {
  if (!issuerData || issuerData.length === 0) return Buffer.alloc(0);
  const scripts = decodeEmvTlv(issuerData, 'MALFORMED_COMMAND').filter((item) => item.tag === '71' || item.tag === '72');
  return Buffer.concat(scripts.map(() => Buffer.from('2000000000', 'hex')));
}

/** What the card does with the host's answer: 'approved' unless declined or the card refuses. */
function secondGenerateAc(t: Transaction, hostApproved: boolean | undefined): 'approved' | 'declinedByCard' | 'declinedByHost' {
  t.finished = true;
  if (t.decision === 'approvedOffline') return 'approved';
  if (t.decision === 'declined') return 'declinedByCard';
  if (hostApproved === undefined) return 'declinedByCard'; // no host answer: the card declines
  if (!hostApproved) return 'declinedByHost';
  return t.card.refuseAfterOnline ? 'declinedByCard' : 'approved';
}

const fnc = defineHandler(fncCommand, (req, { device }) => {
  const t = chipTransaction(device, 'GCR');
  if (!t.decision) throw new StatusReply(ST.INVCALL);
  const hostApproved =
    req.communication === 'failed' ? undefined : req.communication === 'approvedWithArc' || req.arc === '00';
  const decision: FncDecision = secondGenerateAc(t, hostApproved);
  const arc = req.communication === 'failed' ? 'Z3' : req.arc;
  return {
    decision,
    emvData: emvDataFor(emvContext(t, decision === 'approved' ? 'TC' : 'AAC', arc), req.tags.length > 0 ? req.tags : undefined),
    issuerScriptResults: scriptResults(req.issuerData),
  };
});

const fcx = defineHandler(fcxCommand, (req, { device }) => {
  const t = chipTransaction(device, 'GCX');
  if (!t.decision) throw new StatusReply(ST.INVCALL);
  if (req.outcome !== 'noHostResponse' && req.arc === undefined) throw new StatusReply(ST.MANDAT);
  const hostApproved = req.outcome === 'noHostResponse' ? undefined : req.outcome === 'approved';
  const decision = secondGenerateAc(t, hostApproved);
  const arc = req.arc ?? 'Z3';
  return {
    decision: decision === 'approved' ? ('approved' as const) : ('declined' as const),
    emvData: emvDataFor(emvContext(t, decision === 'approved' ? 'TC' : 'AAC', arc), req.tagList),
    issuerScriptResults: scriptResults(req.emvData),
  };
});

// ------------------------------------------------------------------------------------------------
// GPN

/** GPN: PIN for a given PAN, or (PANLEN "00") for the card read by CEX/GCX/GCR. */
const gpn = defineHandler(gpnCommand, async (req, ctx) => {
  const { device } = ctx;
  const stored = device.transaction?.card ?? device.swipedCard;
  // PANLEN "00" uses the card read by CEX/GCX, while GTK has not taken its tracks (S220 §6.5.11).
  const cardGone = device.transaction !== undefined ? device.transaction.tracksRead : device.swipedTracksRead;
  if (req.pan === undefined && (!stored || cardGone)) throw new StatusReply(ST.INVCALL);
  // "Deve-se verificar a existência da chave [...] antes da captura dos dados" (S220 §6.5.11).
  checkPinEntry(device, { method: req.method, index: req.keyIndex });
  const lines = [req.message.slice(0, 16).trimEnd(), req.message.slice(16).trimEnd()];
  try {
    return await capturePin(ctx, {
      prompt: lines[0] ?? '',
      label: lines[1] || 'SENHA:',
      min: req.minDigits,
      max: req.maxDigits,
      idleMs: device.timings.pinIdleMs,
      key: { method: req.method, index: req.keyIndex },
      pan: req.pan ?? stored!.pan,
      ...(stored?.pin === undefined ? {} : { cardPin: stored.pin }),
    });
  } finally {
    if (!ctx.signal.aborted) device.clearDisplay();
  }
});

// ------------------------------------------------------------------------------------------------
// GTK

/**
 * GTK: the PAN and full tracks of the card CEX or GCX read, once (S220 §6.5.12), packed and
 * encrypted as §5.4.2 says — under DUKPT ECB every field with the same data key and KSN
 * (§6.3.4.2), under DUKPT CBC each field with a key of its own. MK/WK methods are refused with
 * ST_INVPARM: the simulator holds no master keys to open a working key with. (A swipe with no
 * readable track left nothing to read: ST_INVCALL here, where S220 §6.5.12 has ST_OK with no card
 * field — a host never asks after such a read.)
 */
const gtk = defineHandler(gtkCommand, (req, { device }) => {
  const t = device.transaction;
  const card = t !== undefined ? (t.tracksRead ? undefined : t.card) : device.swipedTracksRead ? undefined : device.swipedCard;
  if (card === undefined) throw new StatusReply(ST.INVCALL);
  const encryption = req.encryption;
  if (encryption !== undefined) {
    if (!encryption.method.startsWith('dukpt')) throw new StatusReply(ST.INVPARM);
    if (!keyLoaded(device.keys.dukptData, encryption.keyIndex)) throw new StatusReply(ST.ERRKEY);
  }
  // The tracks leave the PINPAD's memory now (PCI): GTK and GPN "00" cannot use them again.
  if (t !== undefined) t.tracksRead = true;
  else device.swipedTracksRead = true;
  const clear: { pan?: Buffer; track1?: Buffer; track2?: Buffer; track3?: Buffer } = {
    ...(req.tracks.pan ? { pan: packDigits(card.pan) } : {}),
    ...(req.tracks.track1 ? { track1: padTo8(Buffer.from(track1Of(card), 'latin1')) } : {}),
    ...(req.tracks.track2 ? { track2: packDigits(track2Of(card)) } : {}),
  };
  if (encryption === undefined) return clear;
  const fields = Object.entries(clear) as Array<[keyof typeof clear, Buffer]>;
  const out: Record<string, Buffer> = {};
  const ksns: Record<string, Buffer> = {};
  const cbc = encryption.method === 'dukptCbc';
  let shared: { ksn: Buffer; key: Buffer } | undefined;
  for (const [name, value] of fields) {
    const { ksn, key } = cbc ? device.dukpt.use('data', encryption.keyIndex) : (shared ??= device.dukpt.use('data', encryption.keyIndex));
    const open = Math.min(encryption.openDigits ?? 0, name === 'track1' ? 0 : 8) / 2;
    const sealed = cbc ? tdesCbcEncrypt(key, value.subarray(open), encryption.iv) : tdesEncrypt(key, value.subarray(open));
    out[name] = Buffer.concat([value.subarray(0, open), sealed]).subarray(0, value.length);
    ksns[name] = ksn;
  }
  return { ...out, ksns };
});

/** Track 1 (ASCII) filled with 00h to a multiple of 8 bytes (S220 §5.4.2.1). */
function padTo8(value: Buffer): Buffer {
  return Buffer.concat([value, Buffer.alloc((8 - (value.length % 8)) % 8)]);
}

export const CARD_HANDLERS: readonly CommandHandler[] = [gcr, gcx, ged, goc, gox, fnc, fcx, gpn, gtk];
