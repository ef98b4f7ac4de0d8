/**
 * TLE — table load end (fixed, non-blocking; abecs.md §3.13, S220 §3.5.4): commits the records
 * staged by TLR. A TLI followed directly by TLE erases that acquirer's tables.
 */
import type { CommandCodec, CommandEnvelope, NoData, ResponseEnvelope } from '../codec.js';
import { nonEmptyBlocks } from '../envelope.js';
import { AbecsFormatError } from '../format-error.js';

export type TleRequest = NoData;
export type TleResult = NoData;

export const tleCommand: CommandCodec<TleRequest, TleResult> = {
  id: 'TLE',
  blocking: false,

  encodeRequest(): CommandEnvelope {
    return { id: 'TLE', blocks: [] };
  },

  decodeRequest(cmd: CommandEnvelope): TleRequest {
    // `TLE` and `TLE000` are the same command; anything more is not.
    if (nonEmptyBlocks(cmd.blocks).length !== 0) {
      throw new AbecsFormatError('MALFORMED_COMMAND', 'Malformed TLE command: it takes no data.');
    }
    return {};
  },

  encodeResponse(): ResponseEnvelope {
    return { id: 'TLE', status: 0, blocks: [] };
  },

  decodeResponse(): TleResult {
    return {};
  },
};
