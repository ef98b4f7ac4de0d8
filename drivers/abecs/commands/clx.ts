/**
 * CLX — close extended (abecs.md §3.5), TLV, non-blocking: optional SPE_DSPMSG (free text, CR
 * line breaks, ≤ 128) or SPE_MFNAME (a loaded image, which wins when both are sent); neither
 * leaves a blank display. Like CLO it ends secure communication.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec, NoData } from '../codec.js';
import { SPE } from '../ids.js';
import { tlvsToBlocks, type Tlv } from '../tlv.js';
import { DSPMSG_MAX_LENGTH, formatDexText, parseDexText } from '../text.js';
import { TlvFields, expectResultStatus, isPrintableAscii, okResponse, tlv } from './basic-support.js';

const ID = 'CLX';
const MFNAME_LENGTH = 8;

export interface ClxRequest {
  /** Free text, "\n" for line breaks, ≤ 128 characters. */
  readonly message?: string;
  /** Name of an image loaded with MLI/MLR/MLE: 1–8 letters or digits. */
  readonly mediaFile?: string;
}

export type ClxResult = NoData;

export function checkMediaFileName(name: string): string {
  if (!/^[A-Za-z0-9]{1,8}$/.test(name)) {
    throw new InvalidArgumentError('A PINPAD media file name has 1 to 8 letters or digits.');
  }
  return name.padEnd(MFNAME_LENGTH, ' ');
}

export const clxCommand: CommandCodec<ClxRequest, ClxResult> = {
  id: ID,
  blocking: false,

  encodeRequest(req) {
    const tlvs: Tlv[] = [];
    if (req.message !== undefined && req.message !== '') {
      tlvs.push(tlv.text(SPE.DSPMSG, formatDexText(req.message, { maxLength: DSPMSG_MAX_LENGTH })));
    }
    if (req.mediaFile !== undefined) tlvs.push(tlv.text(SPE.MFNAME, checkMediaFileName(req.mediaFile)));
    return { id: ID, blocks: tlvs.length > 0 ? tlvsToBlocks(tlvs) : [] };
  },

  decodeRequest(cmd) {
    const fields = TlvFields.command(cmd);
    const message = fields.text(SPE.DSPMSG, 'SPE_DSPMSG', DSPMSG_MAX_LENGTH);
    const mediaFile = fields.text(SPE.MFNAME, 'SPE_MFNAME', MFNAME_LENGTH)?.trimEnd();
    if (mediaFile !== undefined && !isPrintableAscii(mediaFile)) throw fields.error('SPE_MFNAME must be ASCII');
    return {
      ...(message !== undefined ? { message: parseDexText(message) } : {}),
      ...(mediaFile !== undefined ? { mediaFile } : {}),
    };
  },

  encodeResponse() {
    return okResponse(ID);
  },

  decodeResponse(rsp) {
    expectResultStatus(rsp);
    return {};
  },
};
