/**
 * DMF — delete media files (abecs.md §3.18, S220 §3.4.5, §6.6.5), TLV, non-blocking: one or more
 * SPE_MFNAME. A file already absent is no error; a PINPAD ignores names it cannot read.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec, NoData } from '../codec.js';
import { SPE } from '../ids.js';
import { tlvsToBlocks } from '../tlv.js';
import { TlvFields, expectResultStatus, okResponse, tlv } from './basic-support.js';
import { mediaFileName, readMediaFileName } from './media-support.js';

const ID = 'DMF';
/** As many names as one command holds: 12 bytes each within the 2044 of an Abecs command. */
export const DMF_MAX_NAMES = 160;

export interface DmfRequest {
  /** 1–160 names of 1–8 letters or digits. */
  readonly names: readonly string[];
}

export const dmfCommand: CommandCodec<DmfRequest, NoData> = {
  id: ID,
  blocking: false,

  encodeRequest(req) {
    if (req.names.length < 1 || req.names.length > DMF_MAX_NAMES) {
      throw new InvalidArgumentError(`DMF deletes 1 to ${DMF_MAX_NAMES} files at once; got ${req.names.length}.`);
    }
    return { id: ID, blocks: tlvsToBlocks(req.names.map((name) => tlv.text(SPE.MFNAME, mediaFileName(name)))) };
  },

  decodeRequest(cmd) {
    const fields = TlvFields.command(cmd);
    const values = fields.list.all(SPE.MFNAME);
    if (values.length === 0) throw fields.error('the mandatory parameter SPE_MFNAME is missing', 19);
    const names: string[] = [];
    for (const value of values) {
      const name = readMediaFileName(value);
      if (name === undefined) throw fields.error('a SPE_MFNAME is not 8 letters or digits');
      names.push(name);
    }
    return { names };
  },

  encodeResponse() {
    return okResponse(ID);
  },

  decodeResponse(rsp) {
    expectResultStatus(rsp);
    return {};
  },
};
