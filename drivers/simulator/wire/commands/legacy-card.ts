/**
 * The legacy (BibComp, obsolete) card commands (S220 §3.6, §6.8; abecs.md §3.14–§3.16): GCR, GOC
 * and FNC. Fixed positional fields; H fields are preceded by a length counting bytes (hex digits
 * ÷ 2, S220 §1.3).
 */
import {
  aidRefOf,
  okReply,
  onlyBlock,
  pinMethodOf,
  type AidRef,
  type CardTypeCode,
  type ChipDecision,
  type DeviceCommand,
  type PinMethod,
} from '../command.js';
import { decodeEmvObjects, decodeTagList, type EmvObject } from '../emv.js';
import { WireStatusError } from '../errors.js';
import { FieldReader, formatA, formatH, formatN, invalid } from '../fields.js';
import { ST } from '../statuses.js';

// ------------------------------------------------------------------------------------------------
// GCR

/**
 * GCR (§3.6.1): GCR_ACQIDXREQ N2, GCR_APPTYPREQ N2, GCR_AMOUNT N12, GCR_DATE N6, GCR_TIME N6,
 * GCR_TABVER A10, GCR_QTDAPP N2 + GCR_IDAPPn A4 × n, optional GCR_CTLSON N1. GCR_QTDAPP may be
 * absent when GCR_APPTYPREQ is not "00" (§6.8.1, "compatibilidade com sistemas muito antigos").
 * A GCR without parameters resumes the one that answered ST_TABVERDIF (§6.8.2).
 */
export interface GcrStart {
  readonly resume?: false;
  readonly acquirer: number;
  /** 0 = the GCR_IDAPPn list, 99 = any type, else one T1_APPTYPE. */
  readonly appType: number;
  readonly amount: number;
  readonly date: string;
  readonly time: string;
  readonly tableVersion: string;
  readonly applications: readonly AidRef[];
  /** GCR_CTLSON; undefined when absent ("1" by default). */
  readonly contactless?: boolean;
}

export type GcrRequest = GcrStart | { readonly resume: true };

export interface GcrResult {
  readonly cardType: CardTypeCode;
  /** GCR_STATCHIP: 0, 1 (fallback possible) or 2 (application not supported). */
  readonly chipStatus: number;
  readonly appType: number;
  readonly acquirer: number;
  /** TAB_RECIDX (A2); blank for a magnetic card. */
  readonly record: string;
  readonly track1: string;
  readonly track2: string;
  readonly track3: string;
  readonly pan: string;
  readonly panSequence: string;
  readonly applicationLabel: string;
  readonly serviceCode: string;
  readonly cardholderName: string;
  readonly expiry: string;
  readonly issuerCountry: string;
  /** GCR_ACQRD: "066" bytes for acquirer 01, "010" for 02, none otherwise. */
  readonly acquirerData: string;
}

export const GCR: DeviceCommand<GcrRequest, GcrResult> = {
  id: 'GCR',
  blocking: true,
  abecs: false,
  decode(packet, reading) {
    if (packet.blocks.length === 0 || (packet.blocks.length === 1 && packet.blocks[0]!.length === 0))
      return { resume: true };
    const fields = new FieldReader(onlyBlock(packet, reading), 'GCR');
    const acquirer = fields.number(2, 'GCR_ACQIDXREQ');
    const appType = fields.number(2, 'GCR_APPTYPREQ');
    const amount = fields.number(12, 'GCR_AMOUNT');
    const date = fields.digits(6, 'GCR_DATE');
    const time = fields.digits(6, 'GCR_TIME');
    const tableVersion = fields.alpha(10, 'GCR_TABVER');
    const applications: AidRef[] = [];
    // GCR_QTDAPP (N2) may be absent only when GCR_APPTYPREQ ≠ "00"; a single byte left is GCR_CTLSON.
    if (fields.remaining >= 2 || appType === 0) {
      const count = fields.number(2, 'GCR_QTDAPP');
      for (let i = 0; i < count; i++) applications.push(aidRefOf(fields.alpha(4, `GCR_IDAPP${i + 1}`), 'GCR'));
    }
    let contactless: boolean | undefined;
    if (!fields.atEnd) {
      const digit = fields.digits(1, 'GCR_CTLSON');
      if (digit !== '0' && digit !== '1') throw invalid(`GCR: GCR_CTLSON "${digit}" is not "0" or "1".`);
      contactless = digit === '1';
    }
    fields.end();
    return {
      acquirer,
      appType,
      amount,
      date,
      time,
      tableVersion,
      applications,
      ...(contactless === undefined ? {} : { contactless }),
    };
  },
  encode(r) {
    const data =
      formatN(r.cardType, 2) +
      formatN(r.chipStatus, 1) +
      formatN(r.appType, 2) +
      formatN(r.acquirer, 2) +
      formatA(r.record, 2) +
      formatN(r.track1.length, 2) +
      formatA(r.track1, 76) +
      formatN(r.track2.length, 2) +
      formatA(r.track2, 37) +
      formatN(r.track3.length, 3) +
      formatA(r.track3, 104) +
      formatN(r.pan.length, 2) +
      formatA(r.pan, 19) +
      formatN(r.panSequence, 2) +
      formatA(r.applicationLabel, 16) +
      formatN(r.serviceCode, 3) +
      formatA(r.cardholderName, 26) +
      formatN(r.expiry, 6) +
      formatN('', 29) +
      formatN(r.issuerCountry, 3) +
      formatN(r.acquirerData.length, 3) +
      r.acquirerData;
    return okReply([Buffer.from(data, 'latin1')]);
  },
};

// ------------------------------------------------------------------------------------------------
// GOC

/**
 * GOC (§3.6.3). Block 1 (86 bytes + GOC_ACQPR): GOC_AMOUNT N12, GOC_CASHBACK N12, GOC_EXCLIST N1,
 * GOC_CONNECT N1, GOC_RUF1 N1 ("0"), GOC_METHOD N1, GOC_KEYIDX N2, GOC_WKENC H32, GOC_RISKMAN N1,
 * GOC_FLRLIMIT H8, GOC_TPBRS N2, GOC_TVBRS H8, GOC_MTPBRS N2, GOC_ACQPRLEN N3 + GOC_ACQPR A..32.
 * Block 2: GOC_TAGS1LEN N3 + GOC_TAGS1 H. Block 3: GOC_TAGS2LEN N3 + GOC_TAGS2 H.
 */
export interface GocRequest {
  readonly amount: number;
  readonly cashback: number;
  readonly exceptionList: boolean;
  /** GOC_CONNECT "1": the transaction cannot be approved offline. */
  readonly forceOnline: boolean;
  readonly pinMethod: PinMethod;
  readonly keyIndex: number;
  readonly workingKey: Buffer;
  readonly riskManagement: boolean;
  readonly floorLimit: number;
  readonly targetPercent: number;
  readonly thresholdValue: number;
  readonly maxTargetPercent: number;
  /** GOC_ACQPR, acquirer specific (01: transaction type N2 + PIN bypass N1; 02: PIN message S32). */
  readonly acquirerParameters: string;
  readonly tags: readonly string[];
}

export interface GocResult {
  readonly decision: ChipDecision;
  readonly signatureRequired: boolean;
  readonly offlinePinVerified: boolean;
  readonly offlinePinErrors: number;
  readonly pinBlocked: boolean;
  readonly onlinePinCaptured: boolean;
  /** 8 bytes (zeros without an online PIN). */
  readonly pinBlock: Buffer;
  /** 10 bytes (zeros under MK/WK or without an online PIN). */
  readonly ksn: Buffer;
  readonly emvData: Buffer;
}

const DECISION_DIGIT: Readonly<Record<ChipDecision, string>> = { approvedOffline: '0', declined: '1', goOnline: '2' };

const flag = (fields: FieldReader, name: string): boolean => {
  const digit = fields.digits(1, name);
  if (digit !== '0' && digit !== '1') throw invalid(`${name} "${digit}" is not "0" or "1".`);
  return digit === '1';
};

/** A block "N3 length (bytes) + H tag list". */
function tagBlock(block: Buffer, name: string): string[] {
  const fields = new FieldReader(block, name);
  const length = fields.number(3, `${name}LEN`);
  const tags = decodeTagList(fields.hex(length * 2, name));
  fields.end();
  return tags;
}

export const GOC: DeviceCommand<GocRequest, GocResult> = {
  id: 'GOC',
  blocking: true,
  abecs: false,
  decode(packet, reading) {
    const first = packet.blocks[0];
    if (first === undefined || first.length === 0)
      throw new WireStatusError(ST.MANDAT, "GOC: the command's fields are missing.");
    const fields = new FieldReader(first, 'GOC');
    const amount = fields.number(12, 'GOC_AMOUNT');
    const cashback = fields.number(12, 'GOC_CASHBACK');
    const exceptionList = flag(fields, 'GOC_EXCLIST');
    const forceOnline = flag(fields, 'GOC_CONNECT');
    // GOC_RUF1 is "fixo 0", yet the spec's own example carries "1" (abecs.md §8.14): only the
    // strict reading refuses it.
    const ruf = fields.digits(1, 'GOC_RUF1');
    if (reading.strict && ruf !== '0') throw invalid('GOC: GOC_RUF1 is "0".');
    const pinMethod = pinMethodOf(fields.digits(1, 'GOC_METHOD'), 'GOC');
    const keyIndex = fields.number(2, 'GOC_KEYIDX');
    const workingKey = fields.hex(32, 'GOC_WKENC');
    const riskManagement = flag(fields, 'GOC_RISKMAN');
    const floorLimit = fields.hex(8, 'GOC_FLRLIMIT').readUInt32BE(0);
    const targetPercent = fields.number(2, 'GOC_TPBRS');
    const thresholdValue = fields.hex(8, 'GOC_TVBRS').readUInt32BE(0);
    const maxTargetPercent = fields.number(2, 'GOC_MTPBRS');
    const acquirerLength = fields.number(3, 'GOC_ACQPRLEN');
    if (acquirerLength > 32) throw invalid(`GOC: GOC_ACQPRLEN ${acquirerLength} is over 32.`);
    const acquirerParameters = fields.text(acquirerLength, 'GOC_ACQPR');
    fields.end();
    // CMD_LEN2 / CMD_LEN3: the tag lists. The second exists "por razões históricas": a lenient
    // reading lets it be absent.
    const tags1 = packet.blocks[1];
    if (tags1 === undefined) throw new WireStatusError(ST.MANDAT, 'GOC: block 2 (GOC_TAGS1) is missing.');
    const tags2 = packet.blocks[2];
    if (tags2 === undefined && reading.strict)
      throw new WireStatusError(ST.MANDAT, 'GOC: block 3 (GOC_TAGS2) is missing.');
    if (packet.blocks.length > 3) throw invalid('GOC has three blocks.');
    const tags = [...tagBlock(tags1, 'GOC_TAGS1'), ...(tags2 === undefined ? [] : tagBlock(tags2, 'GOC_TAGS2'))];
    return {
      amount,
      cashback,
      exceptionList,
      forceOnline,
      pinMethod,
      keyIndex,
      workingKey,
      riskManagement,
      floorLimit,
      targetPercent,
      thresholdValue,
      maxTargetPercent,
      acquirerParameters,
      tags,
    };
  },
  encode(r) {
    if (r.pinBlock.length !== 8 || r.ksn.length !== 10)
      throw new RangeError('GOC answers an 8-byte PIN block and a 10-byte KSN.');
    const bit = (value: boolean): string => (value ? '1' : '0');
    const data =
      DECISION_DIGIT[r.decision] +
      bit(r.signatureRequired) +
      bit(r.offlinePinVerified) +
      formatN(Math.min(r.offlinePinErrors, 9), 1) +
      bit(r.pinBlocked) +
      bit(r.onlinePinCaptured) +
      formatH(r.pinBlock) +
      formatH(r.ksn) +
      formatN(r.emvData.length, 3) +
      formatH(r.emvData) +
      '000';
    return okReply([Buffer.from(data, 'latin1')]);
  },
};

// ------------------------------------------------------------------------------------------------
// FNC

/** FNC_COMMST: "0" host answered (or finished offline), "1" no communication, "9" approved with ARC ≠ "00". */
export type FncCommunication = 'ok' | 'failed' | 'approvedWithArc';

/**
 * FNC (§3.6.4). Block 1: FNC_COMMST N1, FNC_ISSMODE N1 ("0"), FNC_ARC A2, FNC_ISSDATLEN N3 +
 * FNC_ISSDAT H (BER-TLV), FNC_ACQPRLEN N3 ("000") + FNC_ACQPR. Block 2: FNC_TAGSLEN N3 + FNC_TAGS H.
 */
export interface FncRequest {
  readonly communication: FncCommunication;
  readonly arc: string;
  readonly issuerData: readonly EmvObject[];
  readonly tags: readonly string[];
}

export type FncDecision = 'approved' | 'declinedByCard' | 'declinedByHost';

export interface FncResult {
  readonly decision: FncDecision;
  readonly emvData: Buffer;
  readonly issuerScriptResults: Buffer;
}

const COMMUNICATION: Readonly<Record<string, FncCommunication>> = { '0': 'ok', '1': 'failed', '9': 'approvedWithArc' };
const FNC_DECISION: Readonly<Record<FncDecision, string>> = { approved: '0', declinedByCard: '1', declinedByHost: '2' };

export const FNC: DeviceCommand<FncRequest, FncResult> = {
  id: 'FNC',
  blocking: false,
  abecs: false,
  decode(packet, reading) {
    const first = packet.blocks[0];
    if (first === undefined || first.length === 0)
      throw new WireStatusError(ST.MANDAT, "FNC: the command's fields are missing.");
    const fields = new FieldReader(first, 'FNC');
    const communication = COMMUNICATION[fields.digits(1, 'FNC_COMMST')];
    if (communication === undefined) throw invalid('FNC: FNC_COMMST is not "0", "1" or "9".');
    const issuerMode = fields.digits(1, 'FNC_ISSMODE');
    if (reading.strict && issuerMode !== '0') throw invalid('FNC: FNC_ISSMODE is "0".');
    const arc = fields.alpha(2, 'FNC_ARC');
    const issuerData = decodeEmvObjects(fields.hex(fields.number(3, 'FNC_ISSDATLEN') * 2, 'FNC_ISSDAT'));
    const acquirerLength = fields.number(3, 'FNC_ACQPRLEN');
    if (reading.strict && acquirerLength !== 0) throw invalid('FNC: FNC_ACQPRLEN is "000".');
    fields.bytes(acquirerLength, 'FNC_ACQPR');
    fields.end();
    const tagsBlock = packet.blocks[1];
    if (tagsBlock === undefined) throw new WireStatusError(ST.MANDAT, 'FNC: block 2 (FNC_TAGS) is missing.');
    if (packet.blocks.length > 2) throw invalid('FNC has two blocks.');
    return { communication, arc, issuerData, tags: tagBlock(tagsBlock, 'FNC_TAGS') };
  },
  encode(r) {
    if (r.issuerScriptResults.length > 50) throw new RangeError('FNC_ISR holds at most 50 bytes.');
    const data =
      FNC_DECISION[r.decision] +
      formatN(r.emvData.length, 3) +
      formatH(r.emvData) +
      formatN(r.issuerScriptResults.length, 2) +
      formatH(r.issuerScriptResults) +
      '000';
    return okReply([Buffer.from(data, 'latin1')]);
  },
};
