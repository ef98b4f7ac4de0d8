/**
 * MLR — media load record (abecs.md §3.18, S220 §3.4.2, §6.6.2), TLV, non-blocking: one or more
 * SPE_DATAIN (B..995) with the next bytes of the file MLI started, concatenated by the PINPAD in
 * order. Each value goes in a block of its own, as the spec's example lays out its two 432-byte
 * values ("MLR436…436…"); `mlrPackets` (media-support.ts) cuts a file into packets.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec, NoData } from '../codec.js';
import { SPE } from '../ids.js';
import { encodeTlv, MAX_TLV_VALUE } from '../tlv.js';
import { TlvFields, expectResultStatus, okResponse } from './basic-support.js';
import { MLR_CHUNKS_PER_PACKET } from './media-support.js';

const ID = 'MLR';

export interface MlrRequest {
  /** 1–2 pieces of the file, each 1–995 bytes, in file order. */
  readonly chunks: readonly Buffer[];
}

export const mlrCommand: CommandCodec<MlrRequest, NoData> = {
  id: ID,
  blocking: false,

  encodeRequest(req) {
    if (req.chunks.length < 1 || req.chunks.length > MLR_CHUNKS_PER_PACKET) {
      throw new InvalidArgumentError(
        `An MLR packet carries 1 to ${MLR_CHUNKS_PER_PACKET} pieces of the file; got ${req.chunks.length}.`,
      );
    }
    for (const chunk of req.chunks) {
      if (chunk.length < 1 || chunk.length > MAX_TLV_VALUE) {
        throw new InvalidArgumentError(
          `An MLR piece (SPE_DATAIN) has 1 to ${MAX_TLV_VALUE} bytes; got ${chunk.length}.`,
        );
      }
    }
    return { id: ID, blocks: req.chunks.map((chunk) => encodeTlv(SPE.DATAIN, chunk)) };
  },

  decodeRequest(cmd) {
    const fields = TlvFields.command(cmd);
    const chunks = fields.list.all(SPE.DATAIN).map((chunk) => Buffer.from(chunk));
    if (chunks.length === 0) throw fields.error('the mandatory parameter SPE_DATAIN is missing', 19);
    return { chunks };
  },

  encodeResponse() {
    return okResponse(ID);
  },

  decodeResponse(rsp) {
    expectResultStatus(rsp);
    return {};
  },
};
