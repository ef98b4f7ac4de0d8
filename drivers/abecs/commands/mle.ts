/**
 * MLE — media load end (abecs.md §3.18, S220 §3.4.3, §6.6.3), TLV, non-blocking, no parameters:
 * the PINPAD checks the bytes MLR brought against SPE_MFINFO's size and CRC and stores the file
 * (ST_MFERR when they differ, ST_INTERR without room); the temporary area is freed either way.
 * Sent bare, "MLE", as the spec's example.
 */
import type { CommandCodec, NoData } from '../codec.js';
import { nonEmptyBlocks } from '../envelope.js';
import { expectResultStatus, malformedCommand, okResponse } from './basic-support.js';

const ID = 'MLE';

export const mleCommand: CommandCodec<NoData, NoData> = {
  id: ID,
  blocking: false,

  encodeRequest() {
    return { id: ID, blocks: [] };
  },

  decodeRequest(cmd) {
    if (nonEmptyBlocks(cmd.blocks).length !== 0) throw malformedCommand(ID, 'it takes no parameters');
    return {};
  },

  encodeResponse() {
    return okResponse(ID);
  },

  decodeResponse(rsp) {
    expectResultStatus(rsp);
    return {};
  },
};
