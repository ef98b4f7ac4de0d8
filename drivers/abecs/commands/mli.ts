/**
 * MLI — media load init (abecs.md §3.18, S220 §3.4.1, §6.6.1), TLV, non-blocking: SPE_MFNAME (A8)
 * and SPE_MFINFO (B10: X4 size, B2 CRC, B1 type, B3 RUF) start loading (or replacing) a file.
 * The PINPAD keeps what follows in a temporary area; a previous unfinished load is discarded.
 * Spec example: "MLI026" + 001Eh "QRCODE01" + 001Fh 00000D06 F211 01 000000 (PNG, 3 334 bytes).
 */
import type { CommandCodec, NoData } from '../codec.js';
import { SPE } from '../ids.js';
import { tlvsToBlocks } from '../tlv.js';
import { TlvFields, expectResultStatus, okResponse, tlv } from './basic-support.js';
import {
  decodeMediaFileInfo,
  encodeMediaFileInfo,
  mediaFileName,
  readMediaFileName,
  MEDIA_NAME_LENGTH,
  type MediaFileInfo,
} from './media-support.js';

const ID = 'MLI';

export interface MliRequest extends MediaFileInfo {
  /** 1–8 letters or digits (sent upper case). */
  readonly name: string;
}

export const mliCommand: CommandCodec<MliRequest, NoData> = {
  id: ID,
  blocking: false,

  encodeRequest(req) {
    const name = mediaFileName(req.name);
    const info = encodeMediaFileInfo(req);
    return { id: ID, blocks: tlvsToBlocks([tlv.text(SPE.MFNAME, name), { id: SPE.MFINFO, value: info }]) };
  },

  decodeRequest(cmd) {
    const fields = TlvFields.command(cmd);
    const rawName = fields.require(fields.raw(SPE.MFNAME), 'SPE_MFNAME');
    const name = readMediaFileName(rawName);
    if (name === undefined) throw fields.error(`SPE_MFNAME is not ${MEDIA_NAME_LENGTH} letters or digits`);
    const info = decodeMediaFileInfo(fields.require(fields.raw(SPE.MFINFO), 'SPE_MFINFO'));
    return { name, ...info };
  },

  encodeResponse() {
    return okResponse(ID);
  },

  decodeResponse(rsp) {
    expectResultStatus(rsp);
    return {};
  },
};
