/**
 * GTS — get table version (fixed, non-blocking, obsolete in favour of GIX PP_TABVERnn;
 * abecs.md §3.13, S220 §3.5.1): `GTS002` + acquirer N2 → the 10-character version the SPE chose
 * when it loaded that acquirer's tables (zeros when none; "00" asks for the global version).
 */
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../codec.js';
import { FieldReader, FieldWriter } from '../fields.js';
import { checkAscii, singleBlock } from '../card-params.js';

export interface GtsRequest {
  /** GTS_ACQIDX: 1–99, or 0 for the global ("unified") version. */
  readonly acquirer: number;
}

export interface GtsResult {
  /** GTS_TABVER (A10, trailing spaces removed). */
  readonly tableVersion: string;
}

export const gtsCommand: CommandCodec<GtsRequest, GtsResult> = {
  id: 'GTS',
  blocking: false,

  encodeRequest(req: GtsRequest): CommandEnvelope {
    return { id: 'GTS', blocks: [new FieldWriter().n('acquirer', req.acquirer, 2).toBuffer()] };
  },

  decodeRequest(cmd: CommandEnvelope): GtsRequest {
    const what = 'GTS command';
    const r = new FieldReader(singleBlock(cmd.blocks, what, 'MALFORMED_COMMAND'), what, 'MALFORMED_COMMAND');
    const acquirer = r.n('GTS_ACQIDX', 2);
    r.end();
    return { acquirer };
  },

  encodeResponse(res: GtsResult): ResponseEnvelope {
    checkAscii('tableVersion', res.tableVersion, 10);
    return { id: 'GTS', status: 0, blocks: [new FieldWriter().a('tableVersion', res.tableVersion, 10).toBuffer()] };
  },

  decodeResponse(rsp: ResponseEnvelope): GtsResult {
    const what = 'GTS response';
    const r = new FieldReader(singleBlock(rsp.blocks, what, 'MALFORMED_RESPONSE'), what);
    const tableVersion = r.text('GTS_TABVER', 10);
    r.end();
    return { tableVersion };
  },
};
