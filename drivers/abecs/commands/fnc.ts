/**
 * FNC — finish chip (legacy, non-blocking; abecs.md §3.16, S220 §3.6.4). Block 1 reports the
 * host's answer (communication status, ARC, issuer data such as tags 91/71/72); block 2 lists
 * the EMV tags wanted back. The answer is the card's final decision: a card decline after a
 * host approval means the SPE must reverse the authorisation.
 */
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../codec.js';
import { FieldReader, FieldWriter } from '../fields.js';
import { AbecsFormatError } from '../format-error.js';
import { InvalidArgumentError } from '../../errors.js';
import {
  checkAscii,
  compact,
  decodeLegacyTagBlock,
  encodeLegacyTagBlock,
  hexToBytes,
  singleBlock,
} from '../card-params.js';

/** FNC_COMMST: 0 host answered (or offline finish), 1 no communication, 9 approved with ARC ≠ "00". */
export type FncCommunication = 'ok' | 'failed' | 'approvedWithArc';

export interface FncRequest {
  readonly communication: FncCommunication;
  /** FNC_ARC: authorisation response code (A2); "00" when communication failed. */
  readonly arc: string;
  /** FNC_ISSDAT: issuer BER-TLV objects (tags 91, 71, 72…), at most 256 bytes. */
  readonly issuerData: Buffer;
  /** FNC_ACQPR (unused by the spec, "000"). */
  readonly acquirerParams?: string;
  /** FNC_TAGS: EMV tags wanted in the answer. */
  readonly tags: readonly string[];
}

export type FncDecision = 'approved' | 'declinedByCard' | 'declinedByHost';

export interface FncResult {
  readonly decision: FncDecision;
  /** FNC_EMVDAT: BER-TLV objects. */
  readonly emvData: Buffer;
  /** FNC_ISR: issuer script results (5 bytes per script). */
  readonly issuerScriptResults: Buffer;
  /** FNC_ACQRD (unused by the spec, "000"). */
  readonly acquirerData?: string;
}

const COMMUNICATION_CODES: Readonly<Record<FncCommunication, string>> = { ok: '0', failed: '1', approvedWithArc: '9' };
const DECISIONS: readonly FncDecision[] = ['approved', 'declinedByCard', 'declinedByHost'];
const MAX_ISSUER_DATA = 256;
const MAX_EMV_DATA = 256;
const MAX_SCRIPT_RESULTS = 50;
/** COMMST + ISSMODE + ARC + ISSDATLEN + ACQPRLEN. */
const BLOCK1_MIN = 10;

function communicationOf(code: string): FncCommunication | undefined {
  return (Object.keys(COMMUNICATION_CODES) as FncCommunication[]).find((key) => COMMUNICATION_CODES[key] === code);
}

function checkSize(name: string, data: Buffer, max: number): void {
  if (data.length > max) throw new InvalidArgumentError(`${name} has ${data.length} bytes; at most ${max}.`);
}

export const fncCommand: CommandCodec<FncRequest, FncResult> = {
  id: 'FNC',
  blocking: false,

  encodeRequest(req: FncRequest): CommandEnvelope {
    checkSize('issuerData', req.issuerData, MAX_ISSUER_DATA);
    if (req.arc.length !== 2) throw new InvalidArgumentError('arc must be two characters.');
    const acquirerParams = req.acquirerParams ?? '';
    checkAscii('acquirerParams', acquirerParams, 99);
    const block1 = new FieldWriter()
      .n('communication', COMMUNICATION_CODES[req.communication], 1)
      .n('issuerMode', 0, 1)
      .a('arc', req.arc, 2)
      .n('issuerData length', req.issuerData.length, 3)
      .h('issuerData', req.issuerData.toString('hex'))
      .n('acquirerParams length', acquirerParams.length, 3)
      .a('acquirerParams', acquirerParams, acquirerParams.length)
      .toBuffer();
    return { id: 'FNC', blocks: [block1, encodeLegacyTagBlock('tags', req.tags)] };
  },

  decodeRequest(cmd: CommandEnvelope): FncRequest {
    const what = 'FNC command';
    const [block1, block2] = cmd.blocks;
    if (block1 === undefined || block1.length < BLOCK1_MIN) {
      throw new AbecsFormatError('MALFORMED_COMMAND', `Malformed ${what}: mandatory fields are missing.`, 19);
    }
    if (cmd.blocks.length > 2) throw new AbecsFormatError('MALFORMED_COMMAND', `Malformed ${what}: too many blocks.`);
    const r = new FieldReader(block1, what, 'MALFORMED_COMMAND');
    const communication = communicationOf(r.digits('FNC_COMMST', 1));
    if (communication === undefined) throw r.error('FNC_COMMST must be 0, 1 or 9');
    r.digits('FNC_ISSMODE', 1);
    const arc = r.textRaw('FNC_ARC', 2);
    const issuerLength = r.n('FNC_ISSDATLEN', 3);
    if (issuerLength > MAX_ISSUER_DATA) throw r.error(`FNC_ISSDAT is longer than ${MAX_ISSUER_DATA} bytes`);
    const issuerData = hexToBytes(r.hex('FNC_ISSDAT', issuerLength * 2), what, 'MALFORMED_COMMAND');
    const acquirerParams = r.textRaw('FNC_ACQPR', r.n('FNC_ACQPRLEN', 3));
    r.end();
    return compact({
      communication,
      arc,
      issuerData,
      acquirerParams: acquirerParams === '' ? undefined : acquirerParams,
      tags: decodeLegacyTagBlock(block2, what, 'FNC_TAGS'),
    });
  },

  encodeResponse(res: FncResult): ResponseEnvelope {
    checkSize('emvData', res.emvData, MAX_EMV_DATA);
    checkSize('issuerScriptResults', res.issuerScriptResults, MAX_SCRIPT_RESULTS);
    const acquirerData = res.acquirerData ?? '';
    checkAscii('acquirerData', acquirerData, 99);
    const block = new FieldWriter()
      .n('decision', DECISIONS.indexOf(res.decision), 1)
      .n('emvData length', res.emvData.length, 3)
      .h('emvData', res.emvData.toString('hex'))
      .n('issuerScriptResults length', res.issuerScriptResults.length, 2)
      .h('issuerScriptResults', res.issuerScriptResults.toString('hex'))
      .n('acquirerData length', acquirerData.length, 3)
      .a('acquirerData', acquirerData, acquirerData.length)
      .toBuffer();
    return { id: 'FNC', status: 0, blocks: [block] };
  },

  decodeResponse(rsp: ResponseEnvelope): FncResult {
    const what = 'FNC response';
    const r = new FieldReader(singleBlock(rsp.blocks, what, 'MALFORMED_RESPONSE'), what);
    const decision = DECISIONS[r.n('FNC_DECISION', 1)];
    if (decision === undefined) throw r.error('FNC_DECISION must be 0, 1 or 2');
    const emvData = hexToBytes(r.hex('FNC_EMVDAT', r.n('FNC_EMVDTLEN', 3) * 2), what, 'MALFORMED_RESPONSE');
    const issuerScriptResults = hexToBytes(r.hex('FNC_ISR', r.n('FNC_ISRLEN', 2) * 2), what, 'MALFORMED_RESPONSE');
    const acquirerData = r.textRaw('FNC_ACQRD', r.n('FNC_ACQRDLEN', 3));
    r.end();
    return compact({
      decision,
      emvData,
      issuerScriptResults,
      acquirerData: acquirerData === '' ? undefined : acquirerData,
    });
  },
};
