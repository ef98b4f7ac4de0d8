/**
 * GCX — get card extended (Abecs TLV, blocking; abecs.md §3.17, S220 §3.7.1). Date and time are
 * mandatory; everything else narrows or tunes the card read. Unlike GCR it never checks table
 * versions, and it returns truncated tracks only (full tracks come from GTK).
 *
 * Parameters are written in the order a real TEF (Scope, TRACE in abecs.md §1.5) sends them,
 * with SPE_TRNTYPE last, so the recorded GCX062 packet is reproduced byte for byte.
 */
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../codec.js';
import { InvalidArgumentError } from '../../errors.js';
import { PP, SPE } from '../ids.js';
import { decodeTagList, encodeTagList } from '../emv.js';
import {
  type AidRef,
  type CardType,
  ParamReader,
  ParamWriter,
  cardTypeOf,
  checkCardType,
  checkDigits,
  compact,
  decodeAidRef,
  encodeAidRef,
} from '../card-params.js';

export interface GcxOptions {
  /** SPE_GCXOPT digit 1: also wait for a contactless card. */
  readonly contactless: boolean;
  /** SPE_GCXOPT digit 2: do not show the amount while waiting for the card. */
  readonly hideAmount: boolean;
}

/** SPE_PANMASK "eedd": digits left in clear at the start and at the end of the PAN. */
export interface PanMask {
  readonly left: number;
  readonly right: number;
}

export interface GcxRequest {
  /** SPE_TRNTYPE (ISO 8583 processing code: 00 purchase, 01 cash, 09 cashback, 20 refund, 30 balance). */
  readonly transactionType?: number;
  /** SPE_ACQREF: only this acquirer's AID tables (1–99). */
  readonly acquirer?: number;
  /** SPE_APPTYPE: 1–10 application types (1–98). */
  readonly appTypes?: readonly number[];
  /** SPE_AIDLIST: explicit AID table records; overrides `acquirer` and `appTypes`. */
  readonly aids?: readonly AidRef[];
  /** SPE_AMOUNT in centavos. */
  readonly amount?: number;
  /** SPE_CASHBACK in centavos. */
  readonly cashback?: number;
  /** SPE_TRNCURR: ISO 4217 numeric currency (986 = BRL), chip only. */
  readonly currency?: number;
  /** SPE_TRNDATE, "YYMMDD". */
  readonly date: string;
  /** SPE_TRNTIME, "HHMMSS". */
  readonly time: string;
  /** SPE_GCXOPT; absent means magstripe/chip only and the amount shown. */
  readonly options?: GcxOptions;
  readonly panMask?: PanMask;
  /** SPE_EMVDATA: BER-TLV objects overriding the AID tables. */
  readonly emvData?: Buffer;
  /** SPE_TAGLIST: EMV tags wanted in PP_EMVDATA. */
  readonly tagList?: readonly string[];
  /** SPE_TIMEOUT: seconds of inactivity before ST_TIMEOUT. */
  readonly timeout?: number;
  /** SPE_DSPMSG: custom card prompt (CR = line break). */
  readonly prompt?: string;
}

/** One PP_AIDTABINFO entry: TAB_ACQ, TAB_RECIDX and T1_APPTYPE of a matching AID record. */
export interface AidTableInfo {
  readonly acquirer: number;
  readonly record: string;
  readonly appType: number;
}

export interface GcxResult {
  readonly cardType: CardType | 'other';
  /** PP_CARDTYPE as sent. */
  readonly cardTypeCode: string;
  /** PP_ICCSTAT (magstripe only): 0 ok, 1 error allowing fallback, 2 application unsupported. */
  readonly iccStatus?: number;
  /** PP_AIDTABINFO (chip only); several entries when several acquirers can take the card. */
  readonly aidTableInfo?: readonly AidTableInfo[];
  /** PP_PAN, possibly masked per SPE_PANMASK. */
  readonly pan?: string;
  /** PP_PANSEQNO, two digits. */
  readonly panSequence?: string;
  /** PP_TRK1INC / PP_TRK2INC / PP_TRK3INC: truncated tracks. */
  readonly track1?: string;
  readonly track2?: string;
  readonly track3?: string;
  readonly cardholderName?: string;
  /** PP_LABEL: application label (ISO-8859-1). */
  readonly applicationLabel?: string;
  /** PP_ISSCNTRY, three digits. */
  readonly issuerCountry?: string;
  /** PP_CARDEXP, "YYMMDD". */
  readonly expiry?: string;
  /** PP_EMVDATA: the SPE_TAGLIST objects found (present, possibly empty, when a tag list was sent). */
  readonly emvData?: Buffer;
  /** PP_DEVTYPE (contactless): "00" card, "01" phone, "02" key fob, "03" watch… */
  readonly deviceType?: string;
}

const MAX_AIDS = 128;
const MAX_APP_TYPES = 10;
const MAX_TABINFO = 20;

function encodeOptions(options: GcxOptions): string {
  return `${options.contactless ? 1 : 0}${options.hideAmount ? 1 : 0}000`;
}

function encodePanMask(mask: PanMask): string {
  for (const [name, value] of [
    ['panMask.left', mask.left],
    ['panMask.right', mask.right],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value > 99) {
      throw new InvalidArgumentError(`${name} must be an integer from 0 to 99.`);
    }
  }
  return `${String(mask.left).padStart(2, '0')}${String(mask.right).padStart(2, '0')}`;
}

function encodeAppTypes(types: readonly number[]): string {
  if (types.length < 1 || types.length > MAX_APP_TYPES) {
    throw new InvalidArgumentError(`appTypes takes 1 to ${MAX_APP_TYPES} entries.`);
  }
  return types
    .map((type, i) => {
      if (!Number.isInteger(type) || type < 0 || type > 99) {
        throw new InvalidArgumentError(`appTypes[${i}] must be an integer from 0 to 99.`);
      }
      return String(type).padStart(2, '0');
    })
    .join('');
}

export const gcxCommand: CommandCodec<GcxRequest, GcxResult> = {
  id: 'GCX',
  blocking: true,

  encodeRequest(req: GcxRequest): CommandEnvelope {
    checkDigits('date', req.date, 6);
    checkDigits('time', req.time, 6);
    const w = new ParamWriter();
    if (req.acquirer !== undefined) w.n(SPE.ACQREF, 'acquirer', req.acquirer, 2);
    if (req.appTypes !== undefined) w.digits(SPE.APPTYPE, 'appTypes', encodeAppTypes(req.appTypes), 2, 20);
    if (req.aids !== undefined) {
      if (req.aids.length < 1 || req.aids.length > MAX_AIDS) {
        throw new InvalidArgumentError(`aids takes 1 to ${MAX_AIDS} entries.`);
      }
      const list = req.aids.map((aid, i) => encodeAidRef(aid, `aids[${i}]`)).join('');
      w.ascii(SPE.AIDLIST, 'aids', list, 4, 4 * MAX_AIDS);
    }
    if (req.amount !== undefined) w.n(SPE.AMOUNT, 'amount', req.amount, 12);
    if (req.cashback !== undefined) w.n(SPE.CASHBACK, 'cashback', req.cashback, 12);
    if (req.currency !== undefined) w.n(SPE.TRNCURR, 'currency', req.currency, 3);
    w.n(SPE.TRNDATE, 'date', req.date, 6).n(SPE.TRNTIME, 'time', req.time, 6);
    if (req.options !== undefined) w.n(SPE.GCXOPT, 'options', encodeOptions(req.options), 5);
    if (req.panMask !== undefined) w.n(SPE.PANMASK, 'panMask', encodePanMask(req.panMask), 4);
    if (req.emvData !== undefined) w.bytes(SPE.EMVDATA, 'emvData', req.emvData, 0, 512);
    if (req.tagList !== undefined) w.bytes(SPE.TAGLIST, 'tagList', encodeTagList(req.tagList), 0, 128);
    if (req.timeout !== undefined) w.x1(SPE.TIMEOUT, 'timeout', req.timeout);
    if (req.prompt !== undefined) w.latin1(SPE.DSPMSG, 'prompt', req.prompt, 1, 128);
    if (req.transactionType !== undefined) w.x1(SPE.TRNTYPE, 'transactionType', req.transactionType);
    return { id: 'GCX', blocks: w.blocks() };
  },

  decodeRequest(cmd: CommandEnvelope): GcxRequest {
    const what = 'GCX command';
    const p = new ParamReader(cmd.blocks, what, 'MALFORMED_COMMAND');
    const appTypesText = p.digits(SPE.APPTYPE, 'SPE_APPTYPE', 2, 2 * MAX_APP_TYPES);
    if (appTypesText !== undefined && appTypesText.length % 2 !== 0) throw p.error('SPE_APPTYPE has an odd length');
    const aidText = p.ascii(SPE.AIDLIST, 'SPE_AIDLIST', 4, 4 * MAX_AIDS);
    if (aidText !== undefined && aidText.length % 4 !== 0) throw p.error('SPE_AIDLIST is not a list of AARR entries');
    const optionsText = p.digits(SPE.GCXOPT, 'SPE_GCXOPT', 5, 5);
    let options: GcxOptions | undefined;
    if (optionsText !== undefined) {
      if (!/^[01][01]/.test(optionsText)) throw p.error('SPE_GCXOPT digits 1 and 2 must be 0 or 1');
      options = { contactless: optionsText[0] === '1', hideAmount: optionsText[1] === '1' };
    }
    const maskText = p.digits(SPE.PANMASK, 'SPE_PANMASK', 4, 4);
    const tagList = p.bytes(SPE.TAGLIST, 'SPE_TAGLIST', 0, 128);
    return compact({
      transactionType: p.x1(SPE.TRNTYPE, 'SPE_TRNTYPE'),
      acquirer: p.number(SPE.ACQREF, 'SPE_ACQREF', 2),
      appTypes: appTypesText?.match(/../g)?.map(Number),
      aids: aidText?.match(/[\s\S]{4}/g)?.map((entry) => decodeAidRef(entry, what, 'MALFORMED_COMMAND')),
      amount: p.number(SPE.AMOUNT, 'SPE_AMOUNT', 12),
      cashback: p.number(SPE.CASHBACK, 'SPE_CASHBACK', 12),
      currency: p.number(SPE.TRNCURR, 'SPE_TRNCURR', 3),
      date: p.required(p.digits(SPE.TRNDATE, 'SPE_TRNDATE', 6, 6), 'SPE_TRNDATE'),
      time: p.required(p.digits(SPE.TRNTIME, 'SPE_TRNTIME', 6, 6), 'SPE_TRNTIME'),
      options,
      panMask:
        maskText === undefined ? undefined : { left: Number(maskText.slice(0, 2)), right: Number(maskText.slice(2)) },
      emvData: p.bytes(SPE.EMVDATA, 'SPE_EMVDATA', 0, 512),
      tagList: tagList === undefined ? undefined : decodeTagList(tagList, 'MALFORMED_COMMAND'),
      timeout: p.x1(SPE.TIMEOUT, 'SPE_TIMEOUT'),
      prompt: p.latin1(SPE.DSPMSG, 'SPE_DSPMSG', 1, 128),
    });
  },

  encodeResponse(res: GcxResult): ResponseEnvelope {
    checkCardType(res.cardType, res.cardTypeCode);
    const w = new ParamWriter().digits(PP.CARDTYPE, 'cardTypeCode', res.cardTypeCode, 2, 2);
    if (res.iccStatus !== undefined) w.n(PP.ICCSTAT, 'iccStatus', res.iccStatus, 1);
    if (res.aidTableInfo !== undefined) {
      if (res.aidTableInfo.length > MAX_TABINFO) {
        throw new InvalidArgumentError(`aidTableInfo takes at most ${MAX_TABINFO} entries.`);
      }
      const text = res.aidTableInfo
        .map((entry, i) => {
          if (!Number.isInteger(entry.appType) || entry.appType < 0 || entry.appType > 99) {
            throw new InvalidArgumentError(`aidTableInfo[${i}].appType must be an integer from 0 to 99.`);
          }
          return encodeAidRef(entry, `aidTableInfo[${i}]`) + String(entry.appType).padStart(2, '0');
        })
        .join('');
      w.ascii(PP.AIDTABINFO, 'aidTableInfo', text, 0, 6 * MAX_TABINFO);
    }
    if (res.pan !== undefined) w.ascii(PP.PAN, 'pan', res.pan, 1, 19);
    if (res.panSequence !== undefined) w.digits(PP.PANSEQNO, 'panSequence', res.panSequence, 2, 2);
    if (res.track1 !== undefined) w.ascii(PP.TRK1INC, 'track1', res.track1, 0, 60);
    if (res.track2 !== undefined) w.ascii(PP.TRK2INC, 'track2', res.track2, 0, 30);
    if (res.track3 !== undefined) w.ascii(PP.TRK3INC, 'track3', res.track3, 0, 30);
    if (res.cardholderName !== undefined) w.ascii(PP.CHNAME, 'cardholderName', res.cardholderName, 0, 26);
    if (res.applicationLabel !== undefined) w.latin1(PP.LABEL, 'applicationLabel', res.applicationLabel, 0, 16);
    if (res.issuerCountry !== undefined) w.digits(PP.ISSCNTRY, 'issuerCountry', res.issuerCountry, 3, 3);
    if (res.expiry !== undefined) w.digits(PP.CARDEXP, 'expiry', res.expiry, 6, 6);
    if (res.emvData !== undefined) w.bytes(PP.EMVDATA, 'emvData', res.emvData, 0, 512);
    if (res.deviceType !== undefined) w.digits(PP.DEVTYPE, 'deviceType', res.deviceType, 2, 2);
    return { id: 'GCX', status: 0, blocks: w.blocks() };
  },

  decodeResponse(rsp: ResponseEnvelope): GcxResult {
    const what = 'GCX response';
    const p = new ParamReader(rsp.blocks, what, 'MALFORMED_RESPONSE');
    const cardTypeCode = p.required(p.digits(PP.CARDTYPE, 'PP_CARDTYPE', 2, 2), 'PP_CARDTYPE');
    const tabInfo = p.ascii(PP.AIDTABINFO, 'PP_AIDTABINFO', 0, 6 * MAX_TABINFO);
    if (tabInfo !== undefined && tabInfo.length % 6 !== 0)
      throw p.error('PP_AIDTABINFO is not a list of 6-character entries');
    // The spec's own GCX example sends PP_ISSCNTRY as "0076": accept a leading zero pad.
    const country = p.digits(PP.ISSCNTRY, 'PP_ISSCNTRY', 3, 4);
    if (country !== undefined && country.length === 4 && !country.startsWith('0')) {
      throw p.error('PP_ISSCNTRY must be a three-digit country code');
    }
    return compact({
      cardType: cardTypeOf(cardTypeCode),
      cardTypeCode,
      iccStatus: p.number(PP.ICCSTAT, 'PP_ICCSTAT', 1),
      aidTableInfo:
        tabInfo?.match(/[\s\S]{6}/g)?.map((entry) => {
          const ref = decodeAidRef(entry.slice(0, 4), what, 'MALFORMED_RESPONSE');
          if (!/^[0-9]{2}$/.test(entry.slice(4))) throw p.error('PP_AIDTABINFO application type must be two digits');
          return { ...ref, appType: Number(entry.slice(4)) };
        }) ?? (tabInfo === '' ? [] : undefined),
      pan: p.ascii(PP.PAN, 'PP_PAN', 1, 19),
      panSequence: p.digits(PP.PANSEQNO, 'PP_PANSEQNO', 2, 2),
      track1: p.ascii(PP.TRK1INC, 'PP_TRK1INC', 0, 60),
      track2: p.ascii(PP.TRK2INC, 'PP_TRK2INC', 0, 30),
      track3: p.ascii(PP.TRK3INC, 'PP_TRK3INC', 0, 30),
      cardholderName: p.ascii(PP.CHNAME, 'PP_CHNAME', 0, 26),
      applicationLabel: p.latin1(PP.LABEL, 'PP_LABEL', 0, 16),
      issuerCountry: country?.slice(-3),
      expiry: p.digits(PP.CARDEXP, 'PP_CARDEXP', 6, 6),
      emvData: p.bytes(PP.EMVDATA, 'PP_EMVDATA', 0, 512),
      deviceType: p.digits(PP.DEVTYPE, 'PP_DEVTYPE', 2, 2),
    });
  },
};
