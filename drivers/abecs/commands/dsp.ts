/**
 * DSP — display a 2×16 message (abecs.md §3.6): `DSP032` + DSP_MSG S32, characters 1–16 on line
 * 1 and 17–32 on line 2. A 32-character string passes unchanged (the spec's
 * "    OPERAÇÃO       FINALIZADA   " frame); shorter texts are laid out by formatDisplay2x16.
 */
import type { CommandCodec, NoData } from '../codec.js';
import { FieldWriter } from '../fields.js';
import { DISPLAY_SIZE, formatDisplay2x16, normalizeDisplay2x16 } from '../text.js';
import { commandBlock, expectResultStatus, okResponse } from './basic-support.js';

const ID = 'DSP';

export interface DspRequest {
  /** ≤ 32 characters; "\n" splits the lines; "" clears the display. */
  readonly message: string;
}

export type DspResult = NoData;

export const dspCommand: CommandCodec<DspRequest, DspResult> = {
  id: ID,
  blocking: false,

  encodeRequest(req) {
    const block = new FieldWriter().s('DSP_MSG', formatDisplay2x16(req.message), DISPLAY_SIZE).toBuffer();
    return { id: ID, blocks: [block] };
  },

  decodeRequest(cmd) {
    // PINPAD robustness (S220 §6.5.4): short messages are padded, excess ignored, controls blank.
    const block = commandBlock(cmd);
    return { message: normalizeDisplay2x16(block ? block.toString('latin1') : '') };
  },

  encodeResponse() {
    return okResponse(ID);
  },

  decodeResponse(rsp) {
    expectResultStatus(rsp);
    return {};
  },
};
