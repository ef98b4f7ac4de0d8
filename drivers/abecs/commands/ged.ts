/**
 * GED — get EMV data (Abecs TLV, non-blocking; abecs.md §3.17, S220 §3.7.2): after a GCX that
 * read a chip or contactless card, returns the EMV objects named in SPE_TAGLIST. Objects the
 * card does not have, and objects holding track data or the PAN, are simply left out.
 */
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../codec.js';
import { PP, SPE } from '../ids.js';
import { decodeTagList, encodeTagList } from '../emv.js';
import { ParamReader, ParamWriter } from '../card-params.js';

export interface GedRequest {
  /** SPE_TAGLIST: EMV tags wanted, e.g. ['9F07', '4F']. */
  readonly tagList: readonly string[];
}

export interface GedResult {
  /** PP_EMVDATA: BER-TLV objects (see emv.ts). */
  readonly emvData: Buffer;
}

const MAX_TAG_LIST = 128;
const MAX_EMV_DATA = 512;

export const gedCommand: CommandCodec<GedRequest, GedResult> = {
  id: 'GED',
  blocking: false,

  encodeRequest(req: GedRequest): CommandEnvelope {
    const w = new ParamWriter().bytes(SPE.TAGLIST, 'tagList', encodeTagList(req.tagList), 1, MAX_TAG_LIST);
    return { id: 'GED', blocks: w.blocks() };
  },

  decodeRequest(cmd: CommandEnvelope): GedRequest {
    const p = new ParamReader(cmd.blocks, 'GED command', 'MALFORMED_COMMAND');
    const list = p.required(p.bytes(SPE.TAGLIST, 'SPE_TAGLIST', 1, MAX_TAG_LIST), 'SPE_TAGLIST');
    return { tagList: decodeTagList(list, 'MALFORMED_COMMAND') };
  },

  encodeResponse(res: GedResult): ResponseEnvelope {
    const w = new ParamWriter().bytes(PP.EMVDATA, 'emvData', res.emvData, 0, MAX_EMV_DATA);
    return { id: 'GED', status: 0, blocks: w.blocks() };
  },

  decodeResponse(rsp: ResponseEnvelope): GedResult {
    const p = new ParamReader(rsp.blocks, 'GED response', 'MALFORMED_RESPONSE');
    return { emvData: p.required(p.bytes(PP.EMVDATA, 'PP_EMVDATA', 0, MAX_EMV_DATA), 'PP_EMVDATA') };
  },
};
