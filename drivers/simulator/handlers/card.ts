/**
 * Card processing (abecs.md §3.10, §3.13–§3.17, §6): the legacy GCR/GOC/FNC flow, the Abecs
 * GCX/GED/GOX/FCX flow, and GPN. Each card read starts a `Transaction`; the chip steps check the
 * sequence (ST_INVCALL when out of order) and what the scripted card does (decision, PIN,
 * refusal after online approval, early removal).
 */
import {
  aidTableInfoOf,
  candidateRecords,
  contactlessCandidates,
  matchingRecords,
  tablesInUse,
  type AidEntry,
  type CandidateFilter,
} from '../aid-selection.js';
import {
  applicationTypeOf,
  maskPanWith,
  track1Of,
  track2Of,
  truncatedTrack1,
  truncatedTrack2,
  type SimCard,
} from '../cards.js';
import { sleep, TIMED_OUT } from '../customer.js';
import { aidOf, emvDataFor, type Cryptogram } from '../emv-data.js';
import { defineHandler, ST, StatusReply, type CommandContext, type CommandHandler } from '../handler.js';
import { capturePin, formatAmount, readPin, swipeReadable, waitForCard, type PresentedCard } from '../interaction.js';
import { keyLoaded } from '../profiles.js';
import type { DeviceState, Transaction } from '../state.js';
import type { CardTypeCode, ChipDecision, PinMethod } from '../wire/command.js';
import {
  FCX,
  GCX,
  GED,
  GOX,
  type GcxRequest,
  type GcxResult,
  type GoxRequest,
  type GoxResult,
} from '../wire/commands/card.js';
import {
  FNC,
  GCR,
  GOC,
  type FncDecision,
  type GcrRequest,
  type GcrResult,
  type GcrStart,
} from '../wire/commands/legacy-card.js';
import { GPN, GTK } from '../wire/commands/security.js';
import { gtkAnswer } from '../track-sealing.js';
import type { EmvObject } from '../wire/emv.js';
import { fixedLines, freeTextLines } from '../wire/text.js';

const PIN_MIN = 4;
const PIN_MAX = 12;

function cardTypeCodeOf(presented: PresentedCard): CardTypeCode {
  if (presented.how === 'swipe') return '00';
  // A tap reads "CTLS EMV" (06), or "CTLS simulando tarja" (05) for a magstripe-only contactless card.
  if (presented.how === 'tap') return presented.card.contactlessMagstripe === true ? '05' : '06';
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
function contactlessOn(
  device: DeviceState,
  requested: boolean,
  candidates: AidEntry[] | undefined,
  amount: number,
): boolean {
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
const ICC_FAILURE_STATUS = {
  mute: ST.DUMBCARD,
  error: ST.ERRCARD,
  fallback: ST.ERRFALLBACK,
  noApplication: ST.CARDAPPNAV,
} as const;

/**
 * A failing chip answers its ICC error once powered (GCR/GCX after PROCESSANDO...); the display
 * is cleared (S220 §7.3.1, error) and the card stays in the slot until the customer takes it.
 */
function failChip(device: DeviceState, presented: PresentedCard): void {
  const failure = presented.card.iccFailure;
  if (presented.how !== 'insert' || failure === undefined) return;
  device.transaction = undefined;
  // The customer saw the chip fail: asked for the card again, they swipe it (interaction.ts).
  device.failedChip = presented.card;
  device.clearDisplay();
  throw new StatusReply(ICC_FAILURE_STATUS[failure]);
}

/**
 * PP_ICCSTAT (S220 §6.9.1.1) or GCR_STATCHIP (§6.8.1.1) of a magnetic read: "2" when the GCX (GCR)
 * just before answered ST_CARDAPPNAV, "1" when it answered ST_DUMBCARD/ST_ERRCARD or the GCX/GOX
 * (GCR/GOC) just before answered ST_ERRFALLBACK, else "0".
 */
function iccStatusOf(device: DeviceState, read: 'GCX' | 'GCR'): number {
  const last = device.lastCardStatus;
  if (!last) return 0;
  const second = read === 'GCX' ? 'GOX' : 'GOC';
  if (last.command === read && last.status === ST.CARDAPPNAV) return 2;
  if (last.command === read && (last.status === ST.DUMBCARD || last.status === ST.ERRCARD)) return 1;
  return (last.command === read || last.command === second) && last.status === ST.ERRFALLBACK ? 1 : 0;
}

/** Runs a card command and remembers the status it answers, for the next magnetic read's PP_ICCSTAT. */
async function rememberStatus<T>(
  device: DeviceState,
  command: 'GCR' | 'GOC' | 'GCX' | 'GOX',
  run: () => Promise<T>,
): Promise<T> {
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
/** The online PIN's key: method, slot and, under MK/WK, the working key encrypted under the slot's MK. */
interface PinKey {
  readonly method: PinMethod;
  readonly index: number;
  readonly workingKey?: Buffer;
}

function checkPinEntry(device: DeviceState, key: PinKey | undefined): void {
  if (key) {
    // The simulated PINPAD holds no (obsolete, optional) DES key: S220 §5.1.
    if (key.method === 'dukptDes' || key.method === 'mkwkDes') throw new StatusReply(ST.ERRKEY);
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
  device.failedChip = undefined;
  return transaction;
}

// ------------------------------------------------------------------------------------------------
// GCR

/**
 * GCR_ACQRD (S220 §3.6.1): acquirer 01 gets the AID (N2 bytes + H32, F-padded), the label (A16)
 * and the preferred name (A16); acquirer 02 the Application Usage Control "9F0702xxxx"; others
 * nothing.
 */
function gcrAcquirerData(t: Transaction): string {
  if (t.acquirer === 1) {
    const aid = aidOf(t.card);
    return (
      String(aid.length / 2).padStart(2, '0') +
      aid.padEnd(32, 'F') +
      t.card.label.padEnd(16).slice(0, 16) +
      t.card.label.padEnd(16).slice(0, 16)
    );
  }
  return t.acquirer === 2 ? '9F0702FF00' : '';
}

/**
 * GCR's answer. A magnetic card returns its type, GCR_STATCHIP and tracks only; every other field
 * is zeros (numeric) or spaces (alphanumeric) (S220 §6.8.1.1). A chip card returns the EMV
 * fields of §6.8.1.2 / §6.8.1.3.
 */
function gcrResult(t: Transaction, chipStatus: number): GcrResult {
  const { card } = t;
  const blank = { track1: '', track3: '', pan: '', panSequence: '00', applicationLabel: '', cardholderName: '' };
  if (t.cardType === '00') {
    return {
      ...blank,
      cardType: '00',
      chipStatus,
      appType: 0,
      acquirer: 0,
      record: '',
      track1: track1Of(card).slice(0, 76),
      track2: track2Of(card).slice(0, 37),
      serviceCode: '000',
      expiry: '000000',
      issuerCountry: '000',
      acquirerData: '',
    };
  }
  return {
    ...blank,
    cardType: t.cardType,
    chipStatus: 0,
    appType: Number(t.appType),
    acquirer: t.acquirer,
    record: t.record,
    // A contactless card simulating the stripe (05) gives its tracks and no PAN field (S220 §3.6.1).
    ...(t.cardType === '05' ? { track1: track1Of(card).slice(0, 76) } : {}),
    track2: track2Of(card).slice(0, 37),
    pan: t.cardType === '05' ? '' : card.pan,
    panSequence: card.panSequenceNumber ?? '00',
    applicationLabel: card.label,
    serviceCode: card.serviceCode,
    cardholderName: t.cardType === '03' ? card.cardholderName : '',
    expiry: card.expiry,
    issuerCountry: card.issuerCountry ?? '076',
    acquirerData: gcrAcquirerData(t),
  };
}

/**
 * GCR: waits for a card; on a chip insertion compares GCR_TABVER with the stored version and, if
 * they differ, saves the parameters and answers 020 — a bare GCR then resumes with them.
 */
const gcr = defineHandler(GCR, (req, ctx) => rememberStatus(ctx.device, 'GCR', () => readCardGcr(req, ctx)));

async function readCardGcr(req: GcrRequest, ctx: CommandContext): Promise<GcrResult> {
  const { device } = ctx;
  // From the GCR/GOC before this one (S220 §6.8.1.1), read before this one's own status replaces it.
  const chipStatus = iccStatusOf(device, 'GCR');
  let start: GcrStart;
  if (req.resume === true) {
    const saved = device.gcrResume;
    if (!saved) throw new StatusReply(ST.INVCALL);
    start = saved.request as GcrStart;
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
  const ctls = contactlessOn(device, start.contactless ?? true, candidates, start.amount);
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
  return gcrResult(transaction, chipStatus);
}

// ------------------------------------------------------------------------------------------------
// GCX

/**
 * GCX's answer (S220 §3.7.1, §6.9.1): a magnetic card gives PP_ICCSTAT and the incomplete tracks
 * (no PP_ISSCNTRY / PP_CARDEXP: "não é devolvido pelo pinpad se PP_CARDTYPE = 00"); a chip card
 * the EMV fields, PP_EMVDATA whenever SPE_TAGLIST came (possibly empty).
 */
function gcxResult(t: Transaction, req: GcxRequest, iccStatus: number): GcxResult {
  const { card } = t;
  const pan = maskPanWith(card.pan, req.panMask);
  const track2 = truncatedTrack2(card).replace(card.pan, pan);
  if (t.cardType === '00')
    return { cardType: '00', iccStatus, track1: truncatedTrack1(card).replace(card.pan, pan), track2 };
  const aidTableInfo = t.aidTableInfo
    ? [...t.aidTableInfo]
    : [{ acquirer: t.acquirer, record: t.record, appType: Number(t.appType) }];
  // "Dados de Saída (CTLS simulando tarja)" (S220 §6.9.1.3): the tracks, the label, the device
  // type — no PAN, expiry, country or EMV data.
  if (t.cardType === '05') {
    return {
      cardType: '05',
      aidTableInfo,
      track1: truncatedTrack1(card).replace(card.pan, pan),
      track2,
      applicationLabel: card.label,
      deviceType: '00',
    };
  }
  return {
    cardType: t.cardType,
    aidTableInfo,
    pan,
    panSequence: card.panSequenceNumber ?? '00',
    track2,
    ...(t.cardType === '03' ? { cardholderName: card.cardholderName } : {}),
    applicationLabel: card.label,
    issuerCountry: card.issuerCountry ?? '076',
    expiry: card.expiry,
    ...(req.tagList ? { emvData: emvDataFor(emvContext(t, 'ARQC'), req.tagList) } : {}),
    ...(t.cardType === '03' ? {} : { deviceType: '00' }),
  };
}

/** GCX: like GCR without the table-version check; SPE_TIMEOUT and the CTLS cap end the wait. */
const gcx = defineHandler(GCX, (req, ctx) => rememberStatus(ctx.device, 'GCX', () => readCardGcx(req, ctx)));

async function readCardGcx(req: GcxRequest, ctx: CommandContext): Promise<GcxResult> {
  const { device } = ctx;
  // From the GCX before this one (S220 §6.9.1.1), read before this one's own status replaces it.
  const iccStatus = iccStatusOf(device, 'GCX');
  device.transaction = undefined;
  device.gcrResume = undefined;
  // "O pinpad deve sempre limpar eventuais trilhas que estejam armazenadas para leitura através de GTK" (§6.9.1).
  device.swipedCard = undefined;
  device.emptySwipe = false;
  // "Registros candidatos" (S220 §6.9.1): SPE_AIDLIST alone, else SPE_APPTYPE and SPE_ACQREF.
  const candidates = candidatesFor(
    device,
    req.aids
      ? { refs: req.aids }
      : {
          ...(req.appTypes ? { appTypes: req.appTypes } : {}),
          ...(req.acquirer === undefined ? {} : { acquirer: req.acquirer }),
        },
  );
  const ctls = contactlessOn(device, req.options?.contactless ?? false, candidates, req.amount ?? 0);
  const amount = req.options?.hideAmount ? 0 : (req.amount ?? 0);
  showCardPrompt(device, amount, ctls, req.prompt);
  const hostLimit = req.timeout === undefined ? undefined : device.hostSeconds(req.timeout);
  const ctlsCap = ctls ? device.timings.ctlsIdleMs : undefined;
  const limit = hostLimit === undefined ? ctlsCap : ctlsCap === undefined ? hostLimit : Math.min(hostLimit, ctlsCap);
  const presented = await waitForCard(ctx, {
    icc: true,
    mag: true,
    ctls,
    timeoutMs: limit,
    ...(req.appTypes ? { appTypes: req.appTypes } : {}),
  });
  if (presented === TIMED_OUT) {
    device.clearDisplay();
    throw new StatusReply(ST.TIMEOUT);
  }
  if (presented.how === 'swipe') {
    // "Após a inserção, passagem ou aproximação do cartão, a mensagem deve ser imediatamente
    // apagada" (S220 §6.9.1); the training simulator keeps its historical display.
    if (device.profile.name !== 'training') device.clearDisplay();
    if (!swipeReadable(device, presented.card)) {
      // Swiped, no track read: ST_OK with no track fields (S220 §6.9.1.1); GTK then answers ST_OK
      // with no card data (§6.5.12), GPN "00" has no PAN.
      device.emptySwipe = true;
      return { cardType: '00', iccStatus };
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
const ged = defineHandler(GED, (req, { device }) => {
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
    ...(t.offlinePin === undefined ? {} : { offlinePin: t.offlinePin }),
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

/** GOC/GOX run once per card read: "Comando GOC/GOX já foi chamado" is ST_INVCALL (§6.8.4, §6.9.3). */
function firstAcTransaction(device: DeviceState, source: Transaction['source']): Transaction {
  const t = chipTransaction(device, source);
  if (t.decision !== undefined) throw new StatusReply(ST.INVCALL);
  return t;
}

interface FirstAcResult {
  readonly decision: ChipDecision;
  readonly offlinePin: boolean;
  readonly onlinePin: { pinBlock: Buffer; ksn: Buffer } | undefined;
  /** Wrong offline PINs typed in this command (GOC_ERRPINOFF), and whether the PIN got blocked (GOC_PBLOCKED). */
  readonly offlinePinErrors: number;
  readonly pinBlocked: boolean;
}

/** Two 16-column lines of an NTM_MSG. */
const ntm = (line1: string, line2 = ''): string => line1.padEnd(16).slice(0, 16) + line2.slice(0, 16);

/**
 * The chip verifies an offline PIN (EMV VERIFY inside the PINPAD, S220 §6.8.4, §6.9.3): a wrong
 * one is asked again while the card's PIN try counter lasts, with the spec's notifications
 * (abecs.md §1.7): "SENHA INVALIDA (+n TENTATIVAS)", "PROX. ERRO BLOQUEIA SENHA" before the
 * last try, "SENHA BLOQUEADA" when none is left — then the card declines.
 */
async function verifyOfflinePin(
  ctx: CommandContext,
  t: Transaction,
  options: { prompt: string; idleMs: number },
): Promise<{ errors: number; blocked: boolean }> {
  const { card } = t;
  const { device } = ctx;
  const initial = card.offlinePin?.tries ?? 0;
  let errors = 0;
  for (;;) {
    const left = device.pinTries.get(card) ?? initial;
    if (left === 0) {
      await ctx.notify(ntm('SENHA BLOQUEADA'));
      device.setLines('SENHA BLOQUEADA', '');
      await sleep(device.timings.pinMessageMs, ctx.signal);
      return { errors, blocked: true };
    }
    if (left === 1) await ctx.notify(ntm('PROX. ERRO', 'BLOQUEIA SENHA'));
    const pin = await readPin(ctx, {
      prompt: options.prompt,
      min: PIN_MIN,
      max: PIN_MAX,
      idleMs: options.idleMs,
      ...(card.pin === undefined ? {} : { cardPin: card.pin }),
    });
    if (pin === card.pin) {
      device.pinTries.set(card, initial);
      return { errors, blocked: false };
    }
    errors += 1;
    device.pinTries.set(card, left - 1);
    if (left - 1 > 0) {
      await ctx.notify(ntm('SENHA INVALIDA', `(+${left - 1} TENTATIVAS)`));
      device.setLines('SENHA INVALIDA', `(+${left - 1} TENTATIVAS)`);
      await sleep(device.timings.pinMessageMs, ctx.signal);
    }
  }
}

async function firstGenerateAc(
  ctx: CommandContext,
  t: Transaction,
  options: { forceOnline: boolean; key: PinKey; idleMs: number; prompt?: string },
): Promise<FirstAcResult> {
  const { card } = t;
  let decision: ChipDecision =
    card.outcome === 'online' ? 'goOnline' : card.outcome === 'offlineApproved' ? 'approvedOffline' : 'declined';
  if (decision === 'approvedOffline' && options.forceOnline) decision = 'goOnline';
  let offlinePin = false;
  let onlinePin: FirstAcResult['onlinePin'];
  let offlinePinErrors = 0;
  let pinBlocked = false;
  // A card whose CVM is offline PIN has the chip check it, whatever the decision will be.
  const chipVerifiesPin = card.offlinePin !== undefined;
  if (card.requiresPin && decision !== 'declined') {
    try {
      // The key encrypts an online PIN only; an offline PIN goes to the chip (S220 §6.9.3.1).
      checkPinEntry(ctx.device, decision === 'goOnline' && !chipVerifiesPin ? options.key : undefined);
    } catch (error) {
      ctx.device.clearDisplay(); // "apagar o display em caso de erro" (S220 §6.9.3)
      throw error;
    }
    await ctx.notify('SOLICITE A SENHA');
    const prompt = options.prompt ?? (t.amount > 0 ? `VALOR: ${formatAmount(t.amount)}` : 'DIGITE A SENHA');
    if (chipVerifiesPin) {
      const verification = await verifyOfflinePin(ctx, t, { prompt, idleMs: options.idleMs });
      offlinePinErrors = verification.errors;
      pinBlocked = verification.blocked;
      t.offlinePin = verification.blocked ? 'blocked' : 'verified';
      // PIN try limit exceeded: the card's action codes decline it (AAC).
      const final: ChipDecision = verification.blocked ? 'declined' : decision;
      t.decision = final;
      return { decision: final, offlinePin: !verification.blocked, onlinePin: undefined, offlinePinErrors, pinBlocked };
    }
    const pin = await capturePin(ctx, {
      prompt,
      min: PIN_MIN,
      max: PIN_MAX,
      idleMs: options.idleMs,
      key: {
        method: options.key.method === 'dukpt' ? 'dukpt' : 'mkwk',
        index: options.key.index,
        ...(options.key.workingKey ? { workingKey: options.key.workingKey } : {}),
      },
      pan: card.pan,
      ...(card.pin === undefined ? {} : { cardPin: card.pin }),
    });
    // Online cards send the PIN to the issuer; offline ones have the chip verify it.
    if (decision === 'goOnline')
      onlinePin = { pinBlock: Buffer.from(pin.pinBlock, 'hex'), ksn: Buffer.from(pin.ksn, 'hex') };
    else offlinePin = true;
  }
  t.decision = decision;
  return { decision, offlinePin, onlinePin, offlinePinErrors, pinBlocked };
}

const goc = defineHandler(GOC, (req, ctx) =>
  rememberStatus(ctx.device, 'GOC', async () => {
    const t = firstAcTransaction(ctx.device, 'GCR');
    // For contactless the card already decided in GCR: the amount cannot change any more.
    if (t.cardType === '06' && req.amount !== t.amount) throw new StatusReply(ST.INVPARM);
    t.amount = req.amount;
    await processing(ctx);
    const result = await firstGenerateAc(ctx, t, {
      forceOnline: req.forceOnline,
      key: { method: req.pinMethod, index: req.keyIndex, workingKey: req.workingKey },
      idleMs: ctx.device.timings.pinIdleMs,
    });
    return {
      decision: result.decision,
      signatureRequired: false,
      offlinePinVerified: result.offlinePin,
      offlinePinErrors: result.offlinePinErrors,
      pinBlocked: result.pinBlocked,
      onlinePinCaptured: result.onlinePin !== undefined,
      pinBlock: result.onlinePin?.pinBlock ?? Buffer.alloc(8),
      ksn: result.onlinePin && req.pinMethod === 'dukpt' ? result.onlinePin.ksn : Buffer.alloc(10),
      emvData: emvDataFor(emvContext(t, cryptogramOf(result.decision)), req.tags.length > 0 ? req.tags : undefined),
    };
  }),
);

const gox = defineHandler(GOX, (req, ctx) => rememberStatus(ctx.device, 'GOX', () => goOnChipGox(req, ctx)));

async function goOnChipGox(req: GoxRequest, ctx: CommandContext): Promise<GoxResult> {
  const t = firstAcTransaction(ctx.device, 'GCX');
  // SPE_ACQREF names one of the acquirers PP_AIDTABINFO reported (S220 §3.7.3).
  const acquirers = t.aidTableInfo?.map((info) => info.acquirer) ?? [t.acquirer];
  if (!acquirers.includes(req.acquirer)) throw new StatusReply(ST.INVPARM);
  if (t.cardType === '06') {
    // Processed in GCX already: amount and transaction type cannot change (S220 §6.9.3.2).
    if (req.amount !== undefined && req.amount !== t.amount) throw new StatusReply(ST.INVPARM);
    if (req.transactionType !== undefined && req.transactionType !== t.transactionType)
      throw new StatusReply(ST.INVPARM);
  }
  if (req.amount !== undefined) t.amount = req.amount;
  await processing(ctx);
  const result = await firstGenerateAc(ctx, t, {
    forceOnline: req.options.forceOnline,
    key: { method: req.pinMethod, index: req.keyIndex, ...(req.workingKey ? { workingKey: req.workingKey } : {}) },
    idleMs: req.timeout === undefined ? ctx.device.timings.pinIdleMs : ctx.device.hostSeconds(req.timeout),
    // SPE_DSPMSG: the PIN screen's lines up to the entry (§6.9.5.1); the simulator shows the first.
    ...(req.pinPrompt === undefined ? {} : { prompt: freeTextLines(req.pinPrompt)[0] ?? '' }),
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

/** Issuer script results: 5 bytes per script in the issuer data (result 20h = performed, then the script id). */
function scriptResults(issuerData: readonly EmvObject[] | undefined): Buffer {
  const scripts = (issuerData ?? []).filter((item) => item.tag === '71' || item.tag === '72');
  return Buffer.concat(scripts.slice(0, 10).map(() => Buffer.from('2000000000', 'hex')));
}

/** What the chip does with the host's answer: 'approved' unless declined or the card refuses. */
function secondGenerateAc(
  t: Transaction,
  hostApproved: boolean | undefined,
): 'approved' | 'declinedByCard' | 'declinedByHost' {
  t.finished = true;
  if (hostApproved === undefined) return 'declinedByCard'; // no host answer: the card declines
  if (!hostApproved) return 'declinedByHost';
  return t.card.refuseAfterOnline ? 'declinedByCard' : 'approved';
}

/**
 * FNC (S220 §6.8.5): after an offline decision in GOC, the same decision and no EMV data
 * (§6.8.5.1); for a contactless card, the host's decision echoed, no EMV data (§6.8.5.4);
 * otherwise the chip's second Generate AC (§6.8.5.2, §6.8.5.3).
 */
const fnc = defineHandler(FNC, (req, { device }) => {
  const t = chipTransaction(device, 'GCR');
  if (!t.decision) throw new StatusReply(ST.INVCALL);
  const hostApproved =
    req.communication === 'failed' ? undefined : req.communication === 'approvedWithArc' || req.arc === '00';
  const none = { emvData: Buffer.alloc(0), issuerScriptResults: Buffer.alloc(0) };
  if (t.decision !== 'goOnline') {
    t.finished = true;
    return { decision: (t.decision === 'approvedOffline' ? 'approved' : 'declinedByCard') as FncDecision, ...none };
  }
  if (t.cardType === '06') {
    t.finished = true;
    const decision: FncDecision =
      hostApproved === undefined ? 'declinedByCard' : hostApproved ? 'approved' : 'declinedByHost';
    return { decision, ...none };
  }
  const decision: FncDecision = secondGenerateAc(t, hostApproved);
  const arc = req.communication === 'failed' ? 'Z3' : req.arc;
  return {
    decision,
    emvData: emvDataFor(
      emvContext(t, decision === 'approved' ? 'TC' : 'AAC', arc),
      req.tags.length > 0 ? req.tags : undefined,
    ),
    issuerScriptResults: scriptResults(req.issuerData),
  };
});

/**
 * FCX (S220 §6.9.4): after an offline decision in GOX, approved only when GOX approved and the
 * host did too (§6.9.4.1); for a contactless card, the host's decision echoed (§6.9.4.4);
 * otherwise the chip's second Generate AC (§6.9.4.2, §6.9.4.3).
 *
 * PP_EMVDATA for a contactless card: §6.9.4.4 says to return it empty, §3.7.4 to return the
 * requested objects that exist ("objetos não encontrados simplesmente não são devolvidos"),
 * empty only when none does. Every profile follows §3.7.4, as the real PPC-930 did in the TRACE
 * (FCX000160: the 20 tags of its GOX answer): the card's data of the read, its ARQC included.
 */
const fcx = defineHandler(FCX, (req, { device }) => {
  const t = chipTransaction(device, 'GCX');
  if (!t.decision) throw new StatusReply(ST.INVCALL);
  const scripts = req.emvData ? scriptResults(req.emvData) : undefined;
  if (t.decision !== 'goOnline' || t.cardType === '06') {
    t.finished = true;
    const approved = req.outcome === 'approved' && (t.cardType === '06' || t.decision === 'approvedOffline');
    return {
      decision: approved ? ('approved' as const) : ('declined' as const),
      ...(req.tagList ? { emvData: emvDataFor(emvContext(t, cryptogramOf(t.decision)), req.tagList) } : {}),
      ...(scripts ? { issuerScriptResults: scripts } : {}),
    };
  }
  const hostApproved = req.outcome === 'noHostResponse' ? undefined : req.outcome === 'approved';
  const decision = secondGenerateAc(t, hostApproved);
  const arc = req.arc ?? 'Z3';
  return {
    decision: decision === 'approved' ? ('approved' as const) : ('declined' as const),
    emvData: emvDataFor(emvContext(t, decision === 'approved' ? 'TC' : 'AAC', arc), req.tagList),
    ...(scripts ? { issuerScriptResults: scripts } : {}),
  };
});

// ------------------------------------------------------------------------------------------------
// GPN

/** GPN: PIN for a given PAN, or (PANLEN "00") for the card read by CEX/GCX/GCR. */
const gpn = defineHandler(GPN, async (req, ctx) => {
  const { device } = ctx;
  const stored = device.transaction?.card ?? device.swipedCard;
  // PANLEN "00" uses the card read by CEX/GCX, while GTK has not taken its tracks (S220 §6.5.11).
  const cardGone = device.transaction !== undefined ? device.transaction.tracksRead : device.swipedTracksRead;
  if (req.pan === undefined && (!stored || cardGone)) throw new StatusReply(ST.INVCALL);
  // "Deve-se verificar a existência da chave [...] antes da captura dos dados" (S220 §6.5.11).
  checkPinEntry(device, { method: req.method, index: req.keyIndex });
  const [line1, line2] = fixedLines(req.message).map((line) => line.trimEnd());
  try {
    const pin = await capturePin(ctx, {
      prompt: line1 ?? '',
      label: line2 || 'SENHA:',
      min: req.minDigits,
      max: req.maxDigits,
      idleMs: device.timings.pinIdleMs,
      key: { method: req.method === 'dukpt' ? 'dukpt' : 'mkwk', index: req.keyIndex, workingKey: req.workingKey },
      pan: req.pan ?? stored!.pan,
      ...(stored?.pin === undefined ? {} : { cardPin: stored.pin }),
    });
    return { pinBlock: Buffer.from(pin.pinBlock, 'hex'), ksn: Buffer.from(pin.ksn, 'hex') };
  } finally {
    if (!ctx.signal.aborted) device.clearDisplay();
  }
});

// ------------------------------------------------------------------------------------------------
// GTK

/**
 * GTK: the PAN and full tracks of the card CEX or GCX read, once (S220 §6.5.12), packed and
 * encrypted as §5.4.2 says (track-sealing.ts). The key is checked (ST_ERRKEY) before the tracks
 * leave the PINPAD's memory. A swipe with no readable track leaves nothing to read: ST_OK with no
 * card field (§6.5.12), once.
 */
const gtk = defineHandler(GTK, (req, { device }) => {
  const t = device.transaction;
  const card =
    t !== undefined ? (t.tracksRead ? undefined : t.card) : device.swipedTracksRead ? undefined : device.swipedCard;
  if (card === undefined) {
    if (t === undefined && device.emptySwipe) {
      device.emptySwipe = false;
      return {};
    }
    throw new StatusReply(ST.INVCALL);
  }
  return gtkAnswer(device, card, req, () => {
    // The tracks leave the PINPAD's memory now (PCI): GTK and GPN "00" cannot use them again.
    if (t !== undefined) t.tracksRead = true;
    else device.swipedTracksRead = true;
  });
});

export const CARD_HANDLERS: readonly CommandHandler[] = [gcr, gcx, ged, goc, gox, fnc, fcx, gpn, gtk];
