/**
 * The Abecs card commands (S220 §3.7, §6.9; abecs.md §3.17): GCX, GED, GOX and FCX.
 */
import {
  aidRefOf,
  paramsOf,
  pinMethodOf,
  type AidRef,
  type AidTableInfo,
  type CardTypeCode,
  type ChipDecision,
  type DeviceCommand,
  type PanMask,
  type PinMethod,
} from '../command.js';
import { decodeEmvObjects, decodeTagList, type EmvObject } from '../emv.js';
import { WireStatusError } from '../errors.js';
import { formatA, formatN, invalid } from '../fields.js';
import { PP, SPE } from '../ids.js';
import { ST } from '../statuses.js';
import { item, type Params, type TlvItem } from '../tlv.js';
import { abecsReply } from './control.js';
import { incompleteTrackItems, panMaskOf, timeoutOf } from './input.js';

// ------------------------------------------------------------------------------------------------
// Parameters shared by the card commands

/** SPE_TRNTYPE (B1): ISO 8583 transaction type (00 purchase, 01 cash, 09 cashback, 20 refund, 30 balance). */
function transactionTypeOf(params: Params): number | undefined {
  return params.uint(SPE.TRNTYPE, 'SPE_TRNTYPE', 1);
}

/** SPE_AMOUNT / SPE_CASHBACK (N12, cents). */
function amountOf(params: Params, id: number, name: string): number | undefined {
  const digits = params.digits(id, name, { exact: 12 });
  return digits === undefined ? undefined : Number(digits);
}

/** SPE_TAGLIST (B..128): EMV tags. */
function tagListOf(params: Params): string[] | undefined {
  const list = params.bytes(SPE.TAGLIST, 'SPE_TAGLIST', { max: 128 });
  return list === undefined ? undefined : decodeTagList(list);
}

/** SPE_EMVDATA (B..512): EMV objects (BER-TLV). */
function emvDataOf(params: Params): EmvObject[] | undefined {
  const data = params.bytes(SPE.EMVDATA, 'SPE_EMVDATA', { max: 512 });
  return data === undefined ? undefined : decodeEmvObjects(data);
}

/** SPE_DSPMSG (S..128), free text with CR line breaks. */
function messageOf(params: Params, strict: boolean): string | undefined {
  return params.text(SPE.DSPMSG, 'SPE_DSPMSG', { max: 128 }, strict ? 'cr' : 'any');
}

/** SPE_TRNCURR (N3). */
function currencyOf(params: Params): string | undefined {
  return params.digits(SPE.TRNCURR, 'SPE_TRNCURR', { exact: 3 });
}

/** One digit of an options field that may only be "0" or "1". */
function optionFlag(digits: string, index: number, name: string): boolean {
  const digit = digits[index]!;
  if (digit !== '0' && digit !== '1') throw invalid(`${name}: digit ${index + 1} is "${digit}", not "0" or "1".`);
  return digit === '1';
}

const defined = <T extends object>(value: T): T =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;

// ------------------------------------------------------------------------------------------------
// GCX

export interface GcxRequest {
  readonly transactionType?: number;
  /** SPE_ACQREF. */
  readonly acquirer?: number;
  /** SPE_APPTYPE (1–10 types). */
  readonly appTypes?: readonly number[];
  /** SPE_AIDLIST; when present SPE_ACQREF and SPE_APPTYPE are ignored (§3.7.1). */
  readonly aids?: readonly AidRef[];
  readonly amount?: number;
  readonly cashback?: number;
  readonly currency?: string;
  /** SPE_TRNDATE "YYMMDD" (M). */
  readonly date: string;
  /** SPE_TRNTIME "HHMMSS" (M). */
  readonly time: string;
  /** SPE_GCXOPT; absent = "00000". */
  readonly options?: { readonly contactless: boolean; readonly hideAmount: boolean };
  readonly panMask?: PanMask;
  readonly emvData?: readonly EmvObject[];
  readonly tagList?: readonly string[];
  /** SPE_TIMEOUT, seconds. */
  readonly timeout?: number;
  /** SPE_DSPMSG: the card prompt. */
  readonly prompt?: string;
}

export interface GcxResult {
  readonly cardType: CardTypeCode;
  /** PP_ICCSTAT (magnetic cards only). */
  readonly iccStatus?: number;
  readonly aidTableInfo?: readonly AidTableInfo[];
  readonly pan?: string;
  readonly panSequence?: string;
  readonly track1?: string;
  readonly track2?: string;
  readonly track3?: string;
  readonly cardholderName?: string;
  readonly applicationLabel?: string;
  readonly issuerCountry?: string;
  readonly expiry?: string;
  /** PP_EMVDATA, possibly empty ("mandatório sempre que SPE_TAGLIST existir"). */
  readonly emvData?: Buffer;
  /** PP_DEVTYPE (contactless). */
  readonly deviceType?: string;
}

/** PP_AIDTABINFO: up to 20 "AARRTT" entries. */
export function aidTableInfoText(entries: readonly AidTableInfo[]): string {
  if (entries.length > 20) throw new RangeError('PP_AIDTABINFO holds at most 20 entries.');
  return entries
    .map((entry) => formatN(entry.acquirer, 2) + formatA(entry.record, 2) + formatN(entry.appType, 2))
    .join('');
}

export const GCX: DeviceCommand<GcxRequest, GcxResult> = {
  id: 'GCX',
  blocking: true,
  abecs: true,
  decode(packet, reading) {
    const params = paramsOf(packet);
    const date = params.require(params.digits(SPE.TRNDATE, 'SPE_TRNDATE', { exact: 6 }), 'SPE_TRNDATE');
    const time = params.require(params.digits(SPE.TRNTIME, 'SPE_TRNTIME', { exact: 6 }), 'SPE_TRNTIME');
    const acquirerDigits = params.digits(SPE.ACQREF, 'SPE_ACQREF', { exact: 2 });
    const appTypeDigits = params.digits(SPE.APPTYPE, 'SPE_APPTYPE', { min: 2, max: 20 });
    if (appTypeDigits !== undefined && appTypeDigits.length % 2 !== 0)
      throw invalid('GCX: SPE_APPTYPE is a list of two-digit types.');
    const appTypes = appTypeDigits?.match(/../g)?.map(Number);
    if (appTypes?.some((type) => type < 1 || type > 98)) throw invalid('GCX: an SPE_APPTYPE is not 01–98.');
    const aidList = params.alpha(SPE.AIDLIST, 'SPE_AIDLIST', { max: 512 });
    if (aidList !== undefined && aidList.length % 4 !== 0)
      throw invalid('GCX: SPE_AIDLIST is a list of "AARR" entries.');
    const aids = aidList?.match(/.{4}/g)?.map((entry) => aidRefOf(entry, 'GCX'));
    const optionDigits = params.digits(SPE.GCXOPT, 'SPE_GCXOPT', { exact: 5 });
    const options =
      optionDigits === undefined
        ? undefined
        : {
            contactless: optionFlag(optionDigits, 0, 'SPE_GCXOPT'),
            hideAmount: optionFlag(optionDigits, 1, 'SPE_GCXOPT'),
          };
    return defined({
      transactionType: transactionTypeOf(params),
      acquirer: acquirerDigits === undefined ? undefined : Number(acquirerDigits),
      appTypes,
      aids: aidList === undefined ? undefined : (aids ?? []),
      amount: amountOf(params, SPE.AMOUNT, 'SPE_AMOUNT'),
      cashback: amountOf(params, SPE.CASHBACK, 'SPE_CASHBACK'),
      currency: currencyOf(params),
      date,
      time,
      options,
      panMask: panMaskOf(params),
      emvData: emvDataOf(params),
      tagList: tagListOf(params),
      timeout: timeoutOf(params),
      prompt: messageOf(params, reading.strict),
    });
  },
  encode(r) {
    const items: TlvItem[] = [item(PP.CARDTYPE, r.cardType)];
    const add = (id: number, value: string | Buffer | undefined): void => {
      if (value !== undefined) items.push(item(id, value));
    };
    add(PP.ICCSTAT, r.iccStatus === undefined ? undefined : formatN(r.iccStatus, 1));
    add(PP.AIDTABINFO, r.aidTableInfo === undefined ? undefined : aidTableInfoText(r.aidTableInfo));
    add(PP.PAN, r.pan);
    add(PP.PANSEQNO, r.panSequence);
    items.push(...incompleteTrackItems(r));
    add(PP.CHNAME, r.cardholderName);
    add(PP.LABEL, r.applicationLabel);
    add(PP.ISSCNTRY, r.issuerCountry);
    add(PP.CARDEXP, r.expiry);
    add(PP.EMVDATA, r.emvData);
    add(PP.DEVTYPE, r.deviceType);
    return abecsReply(items);
  },
};

// ------------------------------------------------------------------------------------------------
// GED

export const GED: DeviceCommand<{ readonly tagList: readonly string[] }, { readonly emvData: Buffer }> = {
  id: 'GED',
  blocking: false,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    return { tagList: params.require(tagListOf(params), 'SPE_TAGLIST') };
  },
  encode: (result) => abecsReply([item(PP.EMVDATA, result.emvData)]),
};

// ------------------------------------------------------------------------------------------------
// GOX

export interface GoxRequest {
  /** SPE_ACQREF (M): one of the acquirers PP_AIDTABINFO named. */
  readonly acquirer: number;
  readonly transactionType?: number;
  readonly amount?: number;
  readonly cashback?: number;
  readonly currency?: string;
  /** SPE_GOXOPT; absent = "00000". */
  readonly options: { readonly exceptionList: boolean; readonly forceOnline: boolean; readonly noPinBypass: boolean };
  /** SPE_MTHDPIN (M). */
  readonly pinMethod: PinMethod;
  /** SPE_KEYIDX (M). */
  readonly keyIndex: number;
  /** SPE_WKENC ("MD": MK/WK methods). */
  readonly workingKey?: Buffer;
  /** SPE_DSPMSG: the PIN screen's text (lines up to CR). */
  readonly pinPrompt?: string;
  /** SPE_TRMPAR (B10); zeros when absent. */
  readonly riskParameters?: Buffer;
  readonly emvData?: readonly EmvObject[];
  readonly tagList?: readonly string[];
  /** SPE_TIMEOUT: PIN entry inactivity, seconds (60 when absent). */
  readonly timeout?: number;
}

export interface GoxResult {
  readonly decision: ChipDecision;
  readonly signatureRequired: boolean;
  readonly offlinePinVerified: boolean;
  readonly onlinePinCaptured: boolean;
  /** Cardholder verified on the mobile device (CTLS). */
  readonly deviceCvm: boolean;
  /** PP_PINBLK (B8) when an online PIN was captured. */
  readonly pinBlock?: Buffer;
  /** PP_KSN (B10) for a DUKPT online PIN. */
  readonly ksn?: Buffer;
  readonly emvData?: Buffer;
}

const GOXRES_DECISION: Readonly<Record<ChipDecision, string>> = { approvedOffline: '0', declined: '1', goOnline: '2' };

export const GOX: DeviceCommand<GoxRequest, GoxResult> = {
  id: 'GOX',
  blocking: true,
  abecs: true,
  decode(packet, reading) {
    const params = paramsOf(packet);
    const acquirer = Number(params.require(params.digits(SPE.ACQREF, 'SPE_ACQREF', { exact: 2 }), 'SPE_ACQREF'));
    const methodDigit = params.require(params.digits(SPE.MTHDPIN, 'SPE_MTHDPIN', { exact: 1 }), 'SPE_MTHDPIN');
    const pinMethod = pinMethodOf(methodDigit, 'GOX');
    const keyIndex = Number(params.require(params.digits(SPE.KEYIDX, 'SPE_KEYIDX', { exact: 2 }), 'SPE_KEYIDX'));
    const workingKey = params.bytes(SPE.WKENC, 'SPE_WKENC', {});
    if (workingKey !== undefined && workingKey.length !== 8 && workingKey.length !== 16)
      throw invalid('GOX: SPE_WKENC is B8 or B16.');
    // "MD": mandatory only for SPE_MTHDPIN "0" or "1" (§3.7.3).
    if ((pinMethod === 'mkwk' || pinMethod === 'mkwkDes') && workingKey === undefined) {
      throw new WireStatusError(ST.MANDAT, 'GOX: SPE_WKENC is mandatory with an MK/WK PIN method.');
    }
    // A TDES working key is double length: it cannot be the B8 of a DES one (S220 §5.3).
    if (pinMethod === 'mkwk' && workingKey?.length !== 16) throw invalid('GOX: an MK/WK:TDES SPE_WKENC is B16.');
    const optionDigits = params.digits(SPE.GOXOPT, 'SPE_GOXOPT', { exact: 5 }) ?? '00000';
    return defined({
      acquirer,
      transactionType: transactionTypeOf(params),
      amount: amountOf(params, SPE.AMOUNT, 'SPE_AMOUNT'),
      cashback: amountOf(params, SPE.CASHBACK, 'SPE_CASHBACK'),
      currency: currencyOf(params),
      options: {
        exceptionList: optionFlag(optionDigits, 0, 'SPE_GOXOPT'),
        forceOnline: optionFlag(optionDigits, 1, 'SPE_GOXOPT'),
        noPinBypass: optionFlag(optionDigits, 2, 'SPE_GOXOPT'),
      },
      pinMethod,
      keyIndex,
      workingKey,
      pinPrompt: messageOf(params, reading.strict),
      riskParameters: params.bytes(SPE.TRMPAR, 'SPE_TRMPAR', { exact: 10 }),
      emvData: emvDataOf(params),
      tagList: tagListOf(params),
      timeout: timeoutOf(params),
    });
  },
  encode(r) {
    const cvm = r.offlinePinVerified ? '1' : r.onlinePinCaptured ? '2' : '0';
    const result =
      GOXRES_DECISION[r.decision] + (r.signatureRequired ? '1' : '0') + cvm + (r.deviceCvm ? '1' : '0') + '00';
    const items: TlvItem[] = [item(PP.GOXRES, result)];
    if (r.pinBlock !== undefined) {
      if (r.pinBlock.length !== 8) throw new RangeError('PP_PINBLK is 8 bytes.');
      items.push(item(PP.PINBLK, r.pinBlock));
    }
    if (r.ksn !== undefined) {
      if (r.ksn.length !== 10) throw new RangeError('PP_KSN is 10 bytes.');
      items.push(item(PP.KSN, r.ksn));
    }
    if (r.emvData !== undefined) items.push(item(PP.EMVDATA, r.emvData));
    return abecsReply(items);
  },
};

// ------------------------------------------------------------------------------------------------
// FCX

export type FcxOutcome = 'approved' | 'declined' | 'noHostResponse';

export interface FcxRequest {
  /** SPE_FCXOPT d1 (M). */
  readonly outcome: FcxOutcome;
  /** SPE_ARC ("MD": approved or declined). */
  readonly arc?: string;
  /** SPE_EMVDATA: issuer authentication data (91) and scripts (71, 72). */
  readonly emvData?: readonly EmvObject[];
  readonly tagList?: readonly string[];
  /** SPE_TIMEOUT: waiting for a contactless card presented again. */
  readonly timeout?: number;
}

export interface FcxResult {
  readonly decision: 'approved' | 'declined';
  readonly emvData?: Buffer;
  /** PP_ISRESULTS, 5 bytes per issuer script; only when scripts came in SPE_EMVDATA. */
  readonly issuerScriptResults?: Buffer;
}

const OUTCOMES: Readonly<Record<string, FcxOutcome>> = { '0': 'approved', '1': 'declined', '2': 'noHostResponse' };

export const FCX: DeviceCommand<FcxRequest, FcxResult> = {
  id: 'FCX',
  blocking: true,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    const options = params.require(params.digits(SPE.FCXOPT, 'SPE_FCXOPT', { exact: 4 }), 'SPE_FCXOPT');
    const outcome = OUTCOMES[options[0]!];
    if (outcome === undefined) throw invalid(`FCX: SPE_FCXOPT "${options}" is not 0xxx, 1xxx or 2xxx.`);
    const arc = params.alpha(SPE.ARC, 'SPE_ARC', { exact: 2 });
    // "MD": mandatory when SPE_FCXOPT is "0xxx" or "1xxx" (§3.7.4).
    if (outcome !== 'noHostResponse' && arc === undefined)
      throw new WireStatusError(ST.MANDAT, 'FCX: SPE_ARC is mandatory with an approval or a denial.');
    return defined({
      outcome,
      arc,
      emvData: emvDataOf(params),
      tagList: tagListOf(params),
      timeout: timeoutOf(params),
    });
  },
  encode(r) {
    const items: TlvItem[] = [item(PP.FCXRES, (r.decision === 'approved' ? '0' : '1') + '00')];
    if (r.emvData !== undefined) items.push(item(PP.EMVDATA, r.emvData));
    if (r.issuerScriptResults !== undefined && r.issuerScriptResults.length > 0) {
      if (r.issuerScriptResults.length > 50) throw new RangeError('PP_ISRESULTS holds at most 50 bytes.');
      items.push(item(PP.ISRESULTS, r.issuerScriptResults));
    }
    return abecsReply(items);
  },
};
