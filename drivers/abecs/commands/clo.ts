/**
 * CLO — close (abecs.md §3.5): `CLO032` + a 2×16 message left on the display. An empty message
 * is sent as a bare `CLO` (ACBr does the same); the PINPAD then leaves its idle screen.
 * The message goes through formatDisplay2x16, so a pre-formatted 32-character string passes
 * unchanged and a free text is laid out on two lines.
 */
import type { CommandCodec, NoData } from '../codec.js';
import { FieldWriter } from '../fields.js';
import { DISPLAY_SIZE, formatDisplay2x16, normalizeDisplay2x16 } from '../text.js';
import { commandBlock, expectResultStatus, okResponse } from './basic-support.js';

const ID = 'CLO';

export interface CloRequest {
  /** Text for the idle display (≤ 32 characters, "\n" splits the lines). */
  readonly message?: string;
}

export type CloResult = NoData;

export const cloCommand: CommandCodec<CloRequest, CloResult> = {
  id: ID,
  blocking: false,
  // A BibComp-era PINPAD answers 015 PP_NOTOPEN when it was not open: the close still happened
  // (MTEF accepts it as success for the same reason).
  resultStatuses: [15],

  encodeRequest(req) {
    if (req.message === undefined || req.message === '') return { id: ID, blocks: [] };
    const block = new FieldWriter().s('CLO_MSG', formatDisplay2x16(req.message), DISPLAY_SIZE).toBuffer();
    return { id: ID, blocks: [block] };
  },

  decodeRequest(cmd) {
    const block = commandBlock(cmd);
    // An inconsistent CLO_MSG is shown like DSP does, never refused (S220 §6.4.5).
    return block ? { message: normalizeDisplay2x16(block.toString('latin1')) } : {};
  },

  encodeResponse() {
    return okResponse(ID);
  },

  decodeResponse(rsp) {
    expectResultStatus(rsp, [15]);
    return {};
  },
};
