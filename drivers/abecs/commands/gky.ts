/**
 * GKY — get key (abecs.md §3.7), obsolete but still implemented by PINPADs; blocking. The key
 * travels in RSP_STAT, not as data: 000 ENTER, 004–007 F1–F4, 008 CLEAR, 013 CANCEL. Numeric
 * keys are ignored by the PINPAD. Those statuses are results here, not errors.
 */
import type { CommandCodec, NoData } from '../codec.js';
import { AbecsStatusError } from '../status.js';

const ID = 'GKY';

export type GkyKey = 'enter' | 'f1' | 'f2' | 'f3' | 'f4' | 'clear' | 'cancel';

export type GkyRequest = NoData;

export interface GkyResult {
  readonly key: GkyKey;
}

const KEY_STATUS: Readonly<Record<GkyKey, number>> = {
  enter: 0,
  f1: 4,
  f2: 5,
  f3: 6,
  f4: 7,
  clear: 8,
  cancel: 13,
};

const STATUS_KEY: ReadonlyMap<number, GkyKey> = new Map(
  Object.entries(KEY_STATUS).map(([key, status]) => [status, key as GkyKey]),
);

export const gkyCommand: CommandCodec<GkyRequest, GkyResult> = {
  id: ID,
  blocking: true,
  resultStatuses: [4, 5, 6, 7, 8, 13],

  encodeRequest() {
    return { id: ID, blocks: [] };
  },

  decodeRequest() {
    // GKY has no parameters; a PINPAD ignores whatever block a host might add.
    return {};
  },

  encodeResponse(res) {
    return { id: ID, status: KEY_STATUS[res.key], blocks: [] };
  },

  decodeResponse(rsp) {
    const key = STATUS_KEY.get(rsp.status);
    if (key === undefined) throw AbecsStatusError.from(ID, rsp.status);
    return { key };
  },
};
