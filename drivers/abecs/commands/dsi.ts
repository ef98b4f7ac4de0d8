/**
 * DSI — display image (abecs.md §3.18, S220 §3.4.6, §6.6.6), TLV, non-blocking: SPE_MFNAME names a
 * loaded file; the PINPAD clears the display and shows it centred (an animation keeps playing until
 * the next command). ST_MFNFOUND: no such file; ST_MFERRFMT: a format it does not show, or larger
 * than its display. Spec example: "DSI012" + 001Eh "QRCODE01".
 */
import type { CommandCodec, NoData } from '../codec.js';
import { SPE } from '../ids.js';
import { tlvsToBlocks } from '../tlv.js';
import { TlvFields, expectResultStatus, okResponse, tlv } from './basic-support.js';
import { mediaFileName, readMediaFileName } from './media-support.js';

const ID = 'DSI';

export interface DsiRequest {
  /** 1–8 letters or digits. */
  readonly name: string;
}

export const dsiCommand: CommandCodec<DsiRequest, NoData> = {
  id: ID,
  blocking: false,

  encodeRequest(req) {
    return { id: ID, blocks: tlvsToBlocks([tlv.text(SPE.MFNAME, mediaFileName(req.name))]) };
  },

  decodeRequest(cmd) {
    const fields = TlvFields.command(cmd);
    const name = readMediaFileName(fields.require(fields.raw(SPE.MFNAME), 'SPE_MFNAME'));
    if (name === undefined) throw fields.error('SPE_MFNAME is not 8 letters or digits');
    return { name };
  },

  encodeResponse() {
    return okResponse(ID);
  },

  decodeResponse(rsp) {
    expectResultStatus(rsp);
    return {};
  },
};
