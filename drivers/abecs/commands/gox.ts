/**
 * GOX — go on chip extended (Abecs TLV, blocking; abecs.md §3.17, S220 §3.7.3): runs the EMV
 * risk management and cardholder verification after GCX and returns the card's decision, the
 * online PIN block and the requested EMV objects.
 *
 * Parameters are written in the order the Scope TEF sends them (TRACE `GOX168`), with
 * SPE_TRNTYPE last, so a recorded session can be replayed byte for byte.
 */
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../codec.js';
import { InvalidArgumentError } from '../../errors.js';
import { PP, SPE } from '../ids.js';
import { decodeTagList, encodeTagList } from '../emv.js';
import {
  CHIP_DECISIONS,
  type ChipDecision,
  PIN_METHOD_CODES,
  type PinMethod,
  ParamReader,
  ParamWriter,
  compact,
  pinMethodOf,
} from '../card-params.js';

export interface GoxOptions {
  /** SPE_GOXOPT digit 1: the PAN is on the exception list (chip only). */
  readonly exceptionList: boolean;
  /** Digit 2: the transaction may not be approved offline (chip only). */
  readonly forceOnline: boolean;
  /** Digit 3: PIN bypass is not allowed. */
  readonly noPinBypass: boolean;
}

/** SPE_TRMPAR: terminal risk management parameters (absent = all zero). */
export interface RiskParameters {
  /** Terminal floor limit in centavos (X4). */
  readonly floorLimit: number;
  /** Target percentage for biased random selection (X1). */
  readonly targetPercent: number;
  /** Threshold value for biased random selection, centavos (X4). */
  readonly thresholdValue: number;
  /** Maximum target percentage (X1). */
  readonly maxTargetPercent: number;
}

export interface GoxRequest {
  /** SPE_ACQREF: one of the acquirers GCX returned in PP_AIDTABINFO. */
  readonly acquirer: number;
  readonly transactionType?: number;
  /** SPE_AMOUNT in centavos. */
  readonly amount?: number;
  /** SPE_CASHBACK in centavos. */
  readonly cashback?: number;
  /** SPE_TRNCURR (chip only). */
  readonly currency?: number;
  readonly options?: GoxOptions;
  /** SPE_MTHDPIN: online PIN encryption. */
  readonly pinMethod: PinMethod;
  /** SPE_KEYIDX: MK or DUKPT slot 0–99. */
  readonly keyIndex: number;
  /** SPE_WKENC: working key encrypted under the MK (MK/WK only). */
  readonly workingKey?: Buffer;
  /** SPE_DSPMSG: PIN prompt (CR = line break). */
  readonly pinPrompt?: string;
  readonly riskParameters?: RiskParameters;
  /** SPE_EMVDATA: BER-TLV objects overriding the AID tables (chip only). */
  readonly emvData?: Buffer;
  /** SPE_TAGLIST: EMV tags wanted in PP_EMVDATA. */
  readonly tagList?: readonly string[];
  /** SPE_TIMEOUT: PIN entry inactivity, seconds (PINPAD default 60). */
  readonly timeout?: number;
}

export interface GoxResult {
  readonly decision: ChipDecision;
  /** PP_GOXRES digit 2: a paper signature must be collected. */
  readonly signatureRequired: boolean;
  /** Digit 3 = 1: PIN verified offline by the card. */
  readonly offlinePinVerified: boolean;
  /** Digit 3 = 2: PIN captured for online verification (pinBlock, and ksn for DUKPT). */
  readonly onlinePinCaptured: boolean;
  /** Digit 4: cardholder verified on the consumer device (CDCVM). */
  readonly deviceCvm: boolean;
  /** PP_PINBLK: encrypted PIN block, 16 upper-case hex digits. */
  readonly pinBlock?: string;
  /** PP_KSN: DUKPT key serial number, 20 upper-case hex digits. */
  readonly ksn?: string;
  /** PP_EMVDATA: BER-TLV objects (see emv.ts). */
  readonly emvData?: Buffer;
}

const MAX_TAG_LIST = 128;
const MAX_EMV_DATA = 512;

function encodeOptions(o: GoxOptions): string {
  return `${o.exceptionList ? 1 : 0}${o.forceOnline ? 1 : 0}${o.noPinBypass ? 1 : 0}00`;
}

function uint32(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new InvalidArgumentError(`${name} must be an integer from 0 to ${0xffffffff}.`);
  }
  return value;
}

function uint8(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > 0xff) {
    throw new InvalidArgumentError(`${name} must be an integer from 0 to 255.`);
  }
  return value;
}

function encodeRisk(risk: RiskParameters): Buffer {
  const out = Buffer.alloc(10);
  out.writeUInt32BE(uint32('riskParameters.floorLimit', risk.floorLimit), 0);
  out.writeUInt8(uint8('riskParameters.targetPercent', risk.targetPercent), 4);
  out.writeUInt32BE(uint32('riskParameters.thresholdValue', risk.thresholdValue), 5);
  out.writeUInt8(uint8('riskParameters.maxTargetPercent', risk.maxTargetPercent), 9);
  return out;
}

function decodeRisk(data: Buffer): RiskParameters {
  return {
    floorLimit: data.readUInt32BE(0),
    targetPercent: data.readUInt8(4),
    thresholdValue: data.readUInt32BE(5),
    maxTargetPercent: data.readUInt8(9),
  };
}

function hexOf(data: Buffer | undefined): string | undefined {
  return data?.toString('hex').toUpperCase();
}

export const goxCommand: CommandCodec<GoxRequest, GoxResult> = {
  id: 'GOX',
  blocking: true,

  encodeRequest(req: GoxRequest): CommandEnvelope {
    const w = new ParamWriter().n(SPE.ACQREF, 'acquirer', req.acquirer, 2);
    if (req.amount !== undefined) w.n(SPE.AMOUNT, 'amount', req.amount, 12);
    if (req.cashback !== undefined) w.n(SPE.CASHBACK, 'cashback', req.cashback, 12);
    if (req.currency !== undefined) w.n(SPE.TRNCURR, 'currency', req.currency, 3);
    if (req.options !== undefined) w.n(SPE.GOXOPT, 'options', encodeOptions(req.options), 5);
    w.n(SPE.MTHDPIN, 'pinMethod', PIN_METHOD_CODES[req.pinMethod], 1).n(SPE.KEYIDX, 'keyIndex', req.keyIndex, 2);
    // S220 says B16; the TRACE session sends an 8-byte (single-length) key.
    if (req.workingKey !== undefined) w.bytes(SPE.WKENC, 'workingKey', req.workingKey, 8, 16);
    if (req.pinPrompt !== undefined) w.latin1(SPE.DSPMSG, 'pinPrompt', req.pinPrompt, 1, 128);
    if (req.riskParameters !== undefined) w.bytes(SPE.TRMPAR, 'riskParameters', encodeRisk(req.riskParameters), 10, 10);
    if (req.emvData !== undefined) w.bytes(SPE.EMVDATA, 'emvData', req.emvData, 0, MAX_EMV_DATA);
    if (req.tagList !== undefined) w.bytes(SPE.TAGLIST, 'tagList', encodeTagList(req.tagList), 0, MAX_TAG_LIST);
    if (req.timeout !== undefined) w.x1(SPE.TIMEOUT, 'timeout', req.timeout);
    if (req.transactionType !== undefined) w.x1(SPE.TRNTYPE, 'transactionType', req.transactionType);
    return { id: 'GOX', blocks: w.blocks() };
  },

  decodeRequest(cmd: CommandEnvelope): GoxRequest {
    const p = new ParamReader(cmd.blocks, 'GOX command', 'MALFORMED_COMMAND');
    const acquirer = p.required(p.number(SPE.ACQREF, 'SPE_ACQREF', 2), 'SPE_ACQREF');
    const methodText = p.required(p.digits(SPE.MTHDPIN, 'SPE_MTHDPIN', 1, 1), 'SPE_MTHDPIN');
    const pinMethod = pinMethodOf(methodText);
    if (pinMethod === undefined) throw p.error('SPE_MTHDPIN must be 1 or 3');
    const keyIndex = p.required(p.number(SPE.KEYIDX, 'SPE_KEYIDX', 2), 'SPE_KEYIDX');
    const optionsText = p.digits(SPE.GOXOPT, 'SPE_GOXOPT', 5, 5);
    if (optionsText !== undefined && !/^[01]{3}/.test(optionsText)) {
      throw p.error('SPE_GOXOPT digits 1 to 3 must be 0 or 1');
    }
    const risk = p.bytes(SPE.TRMPAR, 'SPE_TRMPAR', 10, 10);
    const tagList = p.bytes(SPE.TAGLIST, 'SPE_TAGLIST', 0, MAX_TAG_LIST);
    return compact({
      acquirer,
      transactionType: p.x1(SPE.TRNTYPE, 'SPE_TRNTYPE'),
      amount: p.number(SPE.AMOUNT, 'SPE_AMOUNT', 12),
      cashback: p.number(SPE.CASHBACK, 'SPE_CASHBACK', 12),
      currency: p.number(SPE.TRNCURR, 'SPE_TRNCURR', 3),
      options:
        optionsText === undefined
          ? undefined
          : {
              exceptionList: optionsText[0] === '1',
              forceOnline: optionsText[1] === '1',
              noPinBypass: optionsText[2] === '1',
            },
      pinMethod,
      keyIndex,
      workingKey: p.bytes(SPE.WKENC, 'SPE_WKENC', 8, 16),
      pinPrompt: p.latin1(SPE.DSPMSG, 'SPE_DSPMSG', 1, 128),
      riskParameters: risk === undefined ? undefined : decodeRisk(risk),
      emvData: p.bytes(SPE.EMVDATA, 'SPE_EMVDATA', 0, MAX_EMV_DATA),
      tagList: tagList === undefined ? undefined : decodeTagList(tagList, 'MALFORMED_COMMAND'),
      timeout: p.x1(SPE.TIMEOUT, 'SPE_TIMEOUT'),
    });
  },

  encodeResponse(res: GoxResult): ResponseEnvelope {
    if (res.offlinePinVerified && res.onlinePinCaptured) {
      throw new InvalidArgumentError('A PIN is either verified offline or captured for online verification, not both.');
    }
    const cvm = res.onlinePinCaptured ? 2 : res.offlinePinVerified ? 1 : 0;
    const code = `${CHIP_DECISIONS.indexOf(res.decision)}${res.signatureRequired ? 1 : 0}${cvm}${res.deviceCvm ? 1 : 0}00`;
    const w = new ParamWriter().n(PP.GOXRES, 'decision', code, 6);
    if (res.pinBlock !== undefined) w.bytes(PP.PINBLK, 'pinBlock', hexBytes('pinBlock', res.pinBlock, 8), 8, 8);
    if (res.ksn !== undefined) w.bytes(PP.KSN, 'ksn', hexBytes('ksn', res.ksn, 10), 10, 10);
    if (res.emvData !== undefined) w.bytes(PP.EMVDATA, 'emvData', res.emvData, 0, MAX_EMV_DATA);
    return { id: 'GOX', status: 0, blocks: w.blocks() };
  },

  decodeResponse(rsp: ResponseEnvelope): GoxResult {
    const p = new ParamReader(rsp.blocks, 'GOX response', 'MALFORMED_RESPONSE');
    const code = p.required(p.digits(PP.GOXRES, 'PP_GOXRES', 6, 6), 'PP_GOXRES');
    const decision = CHIP_DECISIONS[Number(code[0])];
    if (decision === undefined) throw p.error('PP_GOXRES digit 1 must be 0, 1 or 2');
    if (!/^.[01][012][01]/.test(code)) throw p.error('PP_GOXRES digits 2 to 4 are out of range');
    return compact({
      decision,
      signatureRequired: code[1] === '1',
      offlinePinVerified: code[2] === '1',
      onlinePinCaptured: code[2] === '2',
      deviceCvm: code[3] === '1',
      pinBlock: hexOf(p.bytes(PP.PINBLK, 'PP_PINBLK', 8, 8)),
      ksn: hexOf(p.bytes(PP.KSN, 'PP_KSN', 10, 10)),
      emvData: p.bytes(PP.EMVDATA, 'PP_EMVDATA', 0, MAX_EMV_DATA),
    });
  },
};

function hexBytes(name: string, value: string, bytes: number): Buffer {
  if (!new RegExp(`^[0-9A-Fa-f]{${bytes * 2}}$`).test(value)) {
    throw new InvalidArgumentError(`${name} must be ${bytes * 2} hex digits.`);
  }
  return Buffer.from(value, 'hex');
}
