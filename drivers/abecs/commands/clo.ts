/**
 * CLO — close (abecs.md §3.5): always `CLO032` + CLO_MSG S32, a 2×16 message left on the display.
 * S220 §3.2.6 fixes CMD_LEN1 at "032", so no message is sent as 32 spaces (a blank display), never
 * as a bare `CLO`: ACBr sends the bare form, but a PINPAD reading §3.2.6 literally may refuse it.
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
    const message = req.message === undefined || req.message === '' ? '' : formatDisplay2x16(req.message);
    const block = new FieldWriter().s('CLO_MSG', message.padEnd(DISPLAY_SIZE, ' '), DISPLAY_SIZE).toBuffer();
    return { id: ID, blocks: [block] };
  },

  decodeRequest(cmd) {
    const block = commandBlock(cmd);
    // An inconsistent CLO_MSG is shown like DSP does, never refused (S220 §6.4.5); a blank one
    // (what encodeRequest sends for no message) is no message.
    const message = block ? normalizeDisplay2x16(block.toString('latin1')) : '';
    return message.trim() === '' ? {} : { message };
  },

  encodeResponse() {
    return okResponse(ID);
  },

  decodeResponse(rsp) {
    expectResultStatus(rsp, [15]);
    return {};
  },
};
