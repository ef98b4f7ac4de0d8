/**
 * RMC — remove card (abecs.md §3.11), blocking: `RMC032` + a 2×16 message. The PINPAD powers the
 * chip off and, while a card is inserted, alternates the message with "RETIRE O CARTÃO"; the
 * message stays on the display afterwards. The response carries no data.
 */
import type { CommandCodec, NoData } from '../codec.js';
import { FieldWriter } from '../fields.js';
import { DISPLAY_SIZE, formatDisplay2x16, normalizeDisplay2x16 } from '../text.js';
import { commandBlock, expectResultStatus, okResponse } from './basic-support.js';

const ID = 'RMC';

export interface RmcRequest {
  /** ≤ 32 characters; "\n" splits the lines. */
  readonly message: string;
}

export type RmcResult = NoData;

export const rmcCommand: CommandCodec<RmcRequest, RmcResult> = {
  id: ID,
  blocking: true,

  encodeRequest(req) {
    const block = new FieldWriter().s('RMC_MSG', formatDisplay2x16(req.message), DISPLAY_SIZE).toBuffer();
    return { id: ID, blocks: [block] };
  },

  decodeRequest(cmd) {
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
