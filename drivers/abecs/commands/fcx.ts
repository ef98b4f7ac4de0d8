/**
 * FCX — finish chip extended (Abecs TLV; abecs.md §3.17, S220 §3.7.4): reports the host's
 * answer to the card (ARC, issuer authentication data 91, issuer scripts 71/72) and returns the
 * card's final decision. Blocking: it waits for the cardholder when a contactless card must be
 * presented again for issuer scripts (abecs.md §3.1). If the SPE cancels then, only EOT comes
 * back and the host's result stands.
 *
 * Parameters are written in the order of the TRACE session (`FCX073`): FCXOPT, ARC, EMVDATA,
 * TAGLIST, then TIMEOUT.
 */
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../codec.js';
import { InvalidArgumentError } from '../../errors.js';
import { PP, SPE } from '../ids.js';
import { decodeTagList, encodeTagList } from '../emv.js';
import { ParamReader, ParamWriter, compact } from '../card-params.js';

/** SPE_FCXOPT digit 1: what the host said. */
export type FcxOutcome = 'approved' | 'declined' | 'noHostResponse';

export interface FcxRequest {
  readonly outcome: FcxOutcome;
  /** SPE_ARC: authorisation response code (A2); mandatory unless there was no host response. */
  readonly arc?: string;
  /** SPE_EMVDATA: issuer BER-TLV objects (tags 91, 71, 72). */
  readonly emvData?: Buffer;
  /** SPE_TAGLIST: EMV tags wanted in PP_EMVDATA. */
  readonly tagList?: readonly string[];
  /** SPE_TIMEOUT: seconds to wait for a contactless card to be presented again. */
  readonly timeout?: number;
}

export interface FcxResult {
  /** PP_FCXRES digit 1: the card approved (0) or declined (1). */
  readonly decision: 'approved' | 'declined';
  /** PP_EMVDATA: BER-TLV objects (see emv.ts). */
  readonly emvData?: Buffer;
  /** PP_ISRESULTS: issuer script results, 5 bytes per script. */
  readonly issuerScriptResults?: Buffer;
}

const OUTCOMES: readonly FcxOutcome[] = ['approved', 'declined', 'noHostResponse'];
const DECISIONS: readonly FcxResult['decision'][] = ['approved', 'declined'];
const MAX_TAG_LIST = 128;
const MAX_EMV_DATA = 512;
const MAX_SCRIPT_RESULTS = 50;

export const fcxCommand: CommandCodec<FcxRequest, FcxResult> = {
  id: 'FCX',
  blocking: true,

  encodeRequest(req: FcxRequest): CommandEnvelope {
    const outcome = OUTCOMES.indexOf(req.outcome);
    if (outcome < 0) throw new InvalidArgumentError('outcome must be "approved", "declined" or "noHostResponse".');
    if (req.arc === undefined && req.outcome !== 'noHostResponse') {
      throw new InvalidArgumentError('arc is mandatory when the host approved or declined.');
    }
    const w = new ParamWriter().n(SPE.FCXOPT, 'outcome', `${outcome}000`, 4);
    if (req.arc !== undefined) w.ascii(SPE.ARC, 'arc', req.arc, 2, 2);
    if (req.emvData !== undefined) w.bytes(SPE.EMVDATA, 'emvData', req.emvData, 0, MAX_EMV_DATA);
    if (req.tagList !== undefined) w.bytes(SPE.TAGLIST, 'tagList', encodeTagList(req.tagList), 0, MAX_TAG_LIST);
    if (req.timeout !== undefined) w.x1(SPE.TIMEOUT, 'timeout', req.timeout);
    return { id: 'FCX', blocks: w.blocks() };
  },

  decodeRequest(cmd: CommandEnvelope): FcxRequest {
    const p = new ParamReader(cmd.blocks, 'FCX command', 'MALFORMED_COMMAND');
    const option = p.required(p.digits(SPE.FCXOPT, 'SPE_FCXOPT', 4, 4), 'SPE_FCXOPT');
    const outcome = OUTCOMES[Number(option[0])];
    if (outcome === undefined) throw p.error('SPE_FCXOPT digit 1 must be 0, 1 or 2');
    const arc = p.ascii(SPE.ARC, 'SPE_ARC', 2, 2);
    if (outcome !== 'noHostResponse') p.required(arc, 'SPE_ARC');
    const tagList = p.bytes(SPE.TAGLIST, 'SPE_TAGLIST', 0, MAX_TAG_LIST);
    return compact({
      outcome,
      arc,
      emvData: p.bytes(SPE.EMVDATA, 'SPE_EMVDATA', 0, MAX_EMV_DATA),
      tagList: tagList === undefined ? undefined : decodeTagList(tagList, 'MALFORMED_COMMAND'),
      timeout: p.x1(SPE.TIMEOUT, 'SPE_TIMEOUT'),
    });
  },

  encodeResponse(res: FcxResult): ResponseEnvelope {
    const decision = DECISIONS.indexOf(res.decision);
    if (decision < 0) throw new InvalidArgumentError('decision must be "approved" or "declined".');
    const w = new ParamWriter().n(PP.FCXRES, 'decision', `${decision}00`, 3);
    if (res.emvData !== undefined) w.bytes(PP.EMVDATA, 'emvData', res.emvData, 0, MAX_EMV_DATA);
    if (res.issuerScriptResults !== undefined) {
      w.bytes(PP.ISRESULTS, 'issuerScriptResults', res.issuerScriptResults, 0, MAX_SCRIPT_RESULTS);
    }
    return { id: 'FCX', status: 0, blocks: w.blocks() };
  },

  decodeResponse(rsp: ResponseEnvelope): FcxResult {
    const p = new ParamReader(rsp.blocks, 'FCX response', 'MALFORMED_RESPONSE');
    // S220's own FCX example sends the result under 8056h (PP_GOXRES's id); accept that spelling
    // when PP_FCXRES is absent, since a PINPAD built from the example would do the same.
    const code = p.required(
      p.digits(PP.FCXRES, 'PP_FCXRES', 3, 3) ?? p.digits(PP.GOXRES, 'PP_FCXRES', 3, 3),
      'PP_FCXRES',
    );
    const decision = DECISIONS[Number(code[0])];
    if (decision === undefined) throw p.error('PP_FCXRES digit 1 must be 0 or 1');
    return compact({
      decision,
      emvData: p.bytes(PP.EMVDATA, 'PP_EMVDATA', 0, MAX_EMV_DATA),
      issuerScriptResults: p.bytes(PP.ISRESULTS, 'PP_ISRESULTS', 0, MAX_SCRIPT_RESULTS),
    });
  },
};
