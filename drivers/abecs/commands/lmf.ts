/**
 * LMF — list media files (abecs.md §3.18, S220 §3.4.4, §6.6.4), TLV, non-blocking, no parameters.
 * The answer repeats PP_MFNAME (A8, always upper case) once per stored file, in no set order; no
 * file, no item. Spec example: "LMF000060" + five 805Eh items ("SIGNALS ", "PRESTO  ", …).
 */
import type { CommandCodec } from '../codec.js';
import { nonEmptyBlocks } from '../envelope.js';
import { PP } from '../ids.js';
import { tlvsToBlocks } from '../tlv.js';
import { TlvFields, malformedCommand, malformedResponse, okResponse, tlv } from './basic-support.js';
import { mediaFileName, readMediaFileName } from './media-support.js';

const ID = 'LMF';

export interface LmfResult {
  /** The stored files' names, as the PINPAD listed them (padding trimmed). */
  readonly names: readonly string[];
}

export const lmfCommand: CommandCodec<Record<string, never>, LmfResult> = {
  id: ID,
  blocking: false,

  encodeRequest() {
    return { id: ID, blocks: [] };
  },

  decodeRequest(cmd) {
    if (nonEmptyBlocks(cmd.blocks).length !== 0) throw malformedCommand(ID, 'it takes no parameters');
    return {};
  },

  encodeResponse(res) {
    return okResponse(ID, tlvsToBlocks(res.names.map((name) => tlv.text(PP.MFNAME, mediaFileName(name)))));
  },

  decodeResponse(rsp) {
    const fields = TlvFields.response(rsp);
    const names = fields.list.all(PP.MFNAME).map((value) => {
      const name = readMediaFileName(value);
      if (name === undefined) throw malformedResponse(ID, 'a PP_MFNAME is not 8 letters or digits');
      return name;
    });
    return { names };
  },
};
