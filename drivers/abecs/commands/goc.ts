/**
 * GOC — go on chip (legacy, blocking; abecs.md §3.15, S220 §3.6.3). Three fixed-field blocks:
 * amounts, PIN key and risk-management parameters; then two tag lists (the second exists only
 * for historical reasons). The answer carries the card's decision, the online PIN block and
 * the requested EMV objects.
 */
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../codec.js';
import { FieldReader, FieldWriter } from '../fields.js';
import { AbecsFormatError } from '../format-error.js';
import { InvalidArgumentError } from '../../errors.js';
import {
  CHIP_DECISIONS,
  type ChipDecision,
  PIN_METHOD_CODES,
  type PinMethod,
  checkAscii,
  compact,
  decodeLegacyTagBlock,
  encodeLegacyTagBlock,
  hexToBytes,
  pinMethodOf,
  readFlag,
  singleBlock,
} from '../card-params.js';

export interface GocRequest {
  /** GOC_AMOUNT in centavos (may include amounts added after GCR). */
  readonly amount: number;
  /** GOC_CASHBACK in centavos. */
  readonly cashback: number;
  /** GOC_EXCLIST: the PAN is on the exception list. */
  readonly exceptionList: boolean;
  /** GOC_CONNECT: the transaction may not be approved offline. */
  readonly forceOnline: boolean;
  /** GOC_RUF1; the spec says "0" but its own example sends "1", so other digits are kept. */
  readonly reserved?: number;
  readonly pinMethod: PinMethod;
  /** GOC_KEYIDX: MK or DUKPT slot, 0–99. */
  readonly keyIndex: number;
  /** GOC_WKENC: working key encrypted under the MK, 32 hex digits (ignored for DUKPT). */
  readonly workingKey: string;
  /** GOC_FLRLIMIT: terminal floor limit in centavos (sent as H8). */
  readonly floorLimit: number;
  /** GOC_TPBRS: target percentage for biased random selection. */
  readonly targetPercent: number;
  /** GOC_TVBRS: threshold value for biased random selection, centavos (sent as H8). */
  readonly thresholdValue: number;
  /** GOC_MTPBRS: maximum target percentage. */
  readonly maxTargetPercent: number;
  /** GOC_ACQPR: acquirer 01: transaction type N2 + PIN bypass N1; acquirer 02: PIN message S32. */
  readonly acquirerParams?: string;
  /** GOC_TAGS1: EMV tags wanted in the answer. */
  readonly tags: readonly string[];
  /** GOC_TAGS2: more tags, appended to `tags` by the PINPAD. */
  readonly tags2?: readonly string[];
}

export interface GocResult {
  readonly decision: ChipDecision;
  /** GOC_SIGNAT: a paper signature must be collected. */
  readonly signatureRequired: boolean;
  /** GOC_PINOFF: PIN verified offline by the card. */
  readonly offlinePinVerified: boolean;
  /** GOC_ERRPINOFF: wrong offline PIN entries in this transaction. */
  readonly offlinePinErrors: number;
  /** GOC_PBLOCKED: the last wrong entry blocked the offline PIN. */
  readonly pinBlocked: boolean;
  /** GOC_PINONL: a PIN was captured for online verification (then pinBlock/ksn apply). */
  readonly onlinePinCaptured: boolean;
  /** GOC_PINBLK: encrypted PIN block, 16 hex digits. */
  readonly pinBlock: string;
  /** GOC_KSN: DUKPT key serial number, 20 hex digits (zeros for MK/WK). */
  readonly ksn: string;
  /** GOC_EMVDAT: BER-TLV objects for the host (see emv.ts). */
  readonly emvData: Buffer;
  /** GOC_ACQRD (unused by the spec, "000"). */
  readonly acquirerData?: string;
}

const BLOCK1_FIXED = 86;
const MAX_EMV_BYTES = 256;

function hex8(name: string, value: number): string {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff) {
    throw new InvalidArgumentError(`${name} must be an integer from 0 to ${0xffffffff}.`);
  }
  return value.toString(16).toUpperCase().padStart(8, '0');
}

function flag(value: boolean): number {
  return value ? 1 : 0;
}

export const gocCommand: CommandCodec<GocRequest, GocResult> = {
  id: 'GOC',
  blocking: true,

  encodeRequest(req: GocRequest): CommandEnvelope {
    const acquirerParams = req.acquirerParams ?? '';
    if (acquirerParams.length > 32) throw new InvalidArgumentError('acquirerParams takes at most 32 characters.');
    const block1 = new FieldWriter()
      .n('amount', req.amount, 12)
      .n('cashback', req.cashback, 12)
      .n('exceptionList', flag(req.exceptionList), 1)
      .n('forceOnline', flag(req.forceOnline), 1)
      .n('reserved', req.reserved ?? 0, 1)
      .n('pinMethod', PIN_METHOD_CODES[req.pinMethod], 1)
      .n('keyIndex', req.keyIndex, 2)
      .h('workingKey', req.workingKey, 32)
      .n('riskManagement', 1, 1)
      .h('floorLimit', hex8('floorLimit', req.floorLimit), 8)
      .n('targetPercent', req.targetPercent, 2)
      .h('thresholdValue', hex8('thresholdValue', req.thresholdValue), 8)
      .n('maxTargetPercent', req.maxTargetPercent, 2)
      .n('acquirerParams length', acquirerParams.length, 3)
      .s('acquirerParams', acquirerParams, acquirerParams.length)
      .toBuffer();
    return {
      id: 'GOC',
      blocks: [block1, encodeLegacyTagBlock('tags', req.tags), encodeLegacyTagBlock('tags2', req.tags2 ?? [])],
    };
  },

  decodeRequest(cmd: CommandEnvelope): GocRequest {
    const what = 'GOC command';
    const [block1, block2, block3] = cmd.blocks;
    if (block1 === undefined || block1.length < BLOCK1_FIXED) {
      throw new AbecsFormatError('MALFORMED_COMMAND', `Malformed ${what}: mandatory fields are missing.`, 19);
    }
    if (cmd.blocks.length > 3) throw new AbecsFormatError('MALFORMED_COMMAND', `Malformed ${what}: too many blocks.`);
    const r = new FieldReader(block1, what, 'MALFORMED_COMMAND');
    const amount = r.n('GOC_AMOUNT', 12);
    const cashback = r.n('GOC_CASHBACK', 12);
    const exceptionList = readFlag(r, 'GOC_EXCLIST');
    const forceOnline = readFlag(r, 'GOC_CONNECT');
    const reserved = r.n('GOC_RUF1', 1);
    const method = pinMethodOf(r.digits('GOC_METHOD', 1));
    if (method === undefined) throw r.error('GOC_METHOD must be 1 or 3');
    const keyIndex = r.n('GOC_KEYIDX', 2);
    const workingKey = r.hex('GOC_WKENC', 32);
    r.digits('GOC_RISKMAN', 1);
    const floorLimit = parseInt(r.hex('GOC_FLRLIMIT', 8), 16);
    const targetPercent = r.n('GOC_TPBRS', 2);
    const thresholdValue = parseInt(r.hex('GOC_TVBRS', 8), 16);
    const maxTargetPercent = r.n('GOC_MTPBRS', 2);
    const acquirerParams = r.textRaw('GOC_ACQPR', r.n('GOC_ACQPRLEN', 3));
    r.end();
    if (acquirerParams.length > 32) throw r.error('GOC_ACQPR is longer than 32 characters');
    const tags2 = decodeLegacyTagBlock(block3, what, 'GOC_TAGS2');
    return compact({
      amount,
      cashback,
      exceptionList,
      forceOnline,
      reserved: reserved === 0 ? undefined : reserved,
      pinMethod: method,
      keyIndex,
      workingKey,
      floorLimit,
      targetPercent,
      thresholdValue,
      maxTargetPercent,
      acquirerParams: acquirerParams === '' ? undefined : acquirerParams,
      tags: decodeLegacyTagBlock(block2, what, 'GOC_TAGS1'),
      tags2: tags2.length === 0 ? undefined : tags2,
    });
  },

  encodeResponse(res: GocResult): ResponseEnvelope {
    if (res.emvData.length > MAX_EMV_BYTES) {
      throw new InvalidArgumentError(`emvData has ${res.emvData.length} bytes; at most ${MAX_EMV_BYTES}.`);
    }
    const acquirerData = res.acquirerData ?? '';
    checkAscii('acquirerData', acquirerData, 99);
    const block = new FieldWriter()
      .n('decision', CHIP_DECISIONS.indexOf(res.decision), 1)
      .n('signatureRequired', flag(res.signatureRequired), 1)
      .n('offlinePinVerified', flag(res.offlinePinVerified), 1)
      .n('offlinePinErrors', res.offlinePinErrors, 1)
      .n('pinBlocked', flag(res.pinBlocked), 1)
      .n('onlinePinCaptured', flag(res.onlinePinCaptured), 1)
      .h('pinBlock', res.pinBlock, 16)
      .h('ksn', res.ksn, 20)
      .n('emvData length', res.emvData.length, 3)
      .h('emvData', res.emvData.toString('hex'))
      .n('acquirerData length', acquirerData.length, 3)
      .a('acquirerData', acquirerData, acquirerData.length)
      .toBuffer();
    return { id: 'GOC', status: 0, blocks: [block] };
  },

  decodeResponse(rsp: ResponseEnvelope): GocResult {
    const what = 'GOC response';
    const r = new FieldReader(singleBlock(rsp.blocks, what, 'MALFORMED_RESPONSE'), what);
    const decision = CHIP_DECISIONS[r.n('GOC_DECISION', 1)];
    if (decision === undefined) throw r.error('GOC_DECISION must be 0, 1 or 2');
    const signatureRequired = readFlag(r, 'GOC_SIGNAT');
    const offlinePinVerified = readFlag(r, 'GOC_PINOFF');
    const offlinePinErrors = r.n('GOC_ERRPINOFF', 1);
    const pinBlocked = readFlag(r, 'GOC_PBLOCKED');
    const onlinePinCaptured = readFlag(r, 'GOC_PINONL');
    const pinBlock = r.hex('GOC_PINBLK', 16);
    const ksn = r.hex('GOC_KSN', 20);
    const emvLength = r.n('GOC_EMVDTLEN', 3);
    const emvData = hexToBytes(r.hex('GOC_EMVDAT', emvLength * 2), what, 'MALFORMED_RESPONSE');
    const acquirerData = r.textRaw('GOC_ACQRD', r.n('GOC_ACQRDLEN', 3));
    r.end();
    return compact({
      decision,
      signatureRequired,
      offlinePinVerified,
      offlinePinErrors,
      pinBlocked,
      onlinePinCaptured,
      pinBlock,
      ksn,
      emvData,
      acquirerData: acquirerData === '' ? undefined : acquirerData,
    });
  },
};
