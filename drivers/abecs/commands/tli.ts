/**
 * TLI — table load init (fixed, non-blocking; abecs.md §3.13, S220 §3.5.2): starts loading the
 * EMV tables of one acquirer (or all, "00") under a new 10-character version. The PINPAD answers
 * 000 when the version equals the stored one and 020 (ST_TABVERDIF) when it differs; both mean
 * the load has started, so 020 is a result here, not an error.
 */
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../codec.js';
import { FieldReader, FieldWriter } from '../fields.js';
import { checkAscii, singleBlock } from '../card-params.js';

/** ST_TABVERDIF. */
const VERSION_DIFFERS = 20;

export interface TliRequest {
  /** TLI_ACQIDX: 1–99, or 0 for all acquirers ("unified" management). */
  readonly acquirer: number;
  /** TLI_TABVER: the version the new tables will carry (A10). */
  readonly tableVersion: string;
}

export interface TliResult {
  /** True when the PINPAD's stored version differed from `tableVersion` (status 020). */
  readonly versionDiffers: boolean;
}

export const tliCommand: CommandCodec<TliRequest, TliResult> = {
  id: 'TLI',
  blocking: false,
  resultStatuses: [VERSION_DIFFERS],

  encodeRequest(req: TliRequest): CommandEnvelope {
    checkAscii('tableVersion', req.tableVersion, 10);
    const block = new FieldWriter().n('acquirer', req.acquirer, 2).a('tableVersion', req.tableVersion, 10).toBuffer();
    return { id: 'TLI', blocks: [block] };
  },

  decodeRequest(cmd: CommandEnvelope): TliRequest {
    const what = 'TLI command';
    const r = new FieldReader(singleBlock(cmd.blocks, what, 'MALFORMED_COMMAND'), what, 'MALFORMED_COMMAND');
    const acquirer = r.n('TLI_ACQIDX', 2);
    const tableVersion = r.text('TLI_TABVER', 10);
    r.end();
    return { acquirer, tableVersion };
  },

  encodeResponse(res: TliResult): ResponseEnvelope {
    return { id: 'TLI', status: res.versionDiffers ? VERSION_DIFFERS : 0, blocks: [] };
  },

  decodeResponse(rsp: ResponseEnvelope): TliResult {
    return { versionDiffers: rsp.status === VERSION_DIFFERS };
  },
};
