/**
 * DEX — display extended (abecs.md §3.6): `DEX` + N3 + DEX_MSGLEN N3 + DEX_MSG S..160 (CR = new
 * line) + the optional 2.20 DEX_OPTIONS N6. Older PINPADs ignore the options; a PINPAD refuses
 * (ST_INVPARM) a MSGLEN that does not match or exceeds 160.
 *
 * DEX_OPTIONS digits as read here: d1 horizontal alignment (0 left, 1 right, 2 centre), d2
 * vertical alignment (0 top, 1 bottom, 2 centre), d3 message type (0 generic, 1 success, 2 error,
 * 3 alert, 4 info), d4–d6 reserved "000".
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec, NoData } from '../codec.js';
import { FieldReader, FieldWriter } from '../fields.js';
import { DEX_MAX_LENGTH, formatDexText, parseDexText } from '../text.js';
import { commandBlock, expectResultStatus, malformedCommand, okResponse } from './basic-support.js';

const ID = 'DEX';

export const DEX_HORIZONTAL = ['left', 'right', 'center'] as const;
export const DEX_VERTICAL = ['top', 'bottom', 'center'] as const;
export const DEX_TYPES = ['generic', 'success', 'error', 'alert', 'info'] as const;

export interface DexOptions {
  readonly horizontal: (typeof DEX_HORIZONTAL)[number];
  readonly vertical: (typeof DEX_VERTICAL)[number];
  /** May add colours or beeps on 2.20 PINPADs. */
  readonly type: (typeof DEX_TYPES)[number];
}

export interface DexRequest {
  /** Free text, "\n" for line breaks, ≤ 160 characters (line breaks included). */
  readonly message: string;
  readonly options?: DexOptions;
}

export type DexResult = NoData;

function optionDigit<T extends string>(table: readonly T[], value: T): number {
  return table.indexOf(value);
}

export const dexCommand: CommandCodec<DexRequest, DexResult> = {
  id: ID,
  blocking: false,

  encodeRequest(req) {
    const text = formatDexText(req.message, { maxLength: DEX_MAX_LENGTH });
    const writer = new FieldWriter().n('DEX_MSGLEN', text.length, 3).s('DEX_MSG', text, text.length);
    if (req.options) {
      const { horizontal, vertical, type } = req.options;
      const digits = [
        optionDigit(DEX_HORIZONTAL, horizontal),
        optionDigit(DEX_VERTICAL, vertical),
        optionDigit(DEX_TYPES, type),
      ];
      if (digits.some((digit) => digit < 0)) {
        // Only reachable from untyped callers (JSON input); the types already restrict the values.
        throw new InvalidArgumentError('DEX options take a known alignment and message type.');
      }
      writer.n('DEX_OPTIONS', `${digits.join('')}000`, 6);
    }
    return { id: ID, blocks: [writer.toBuffer()] };
  },

  decodeRequest(cmd) {
    const block = commandBlock(cmd);
    if (!block) throw malformedCommand(ID, 'DEX_MSGLEN and DEX_MSG are missing', 19);
    const r = new FieldReader(block, 'DEX command', 'MALFORMED_COMMAND');
    const length = r.n('DEX_MSGLEN', 3);
    if (length > DEX_MAX_LENGTH) throw r.error(`DEX_MSGLEN is ${length}; at most ${DEX_MAX_LENGTH}`);
    const message = parseDexText(r.bytes('DEX_MSG', length).toString('latin1'));
    if (r.remaining === 0) return { message };
    const options = r.digits('DEX_OPTIONS', 6);
    r.end();
    const horizontal = DEX_HORIZONTAL[Number(options[0])];
    const vertical = DEX_VERTICAL[Number(options[1])];
    const type = DEX_TYPES[Number(options[2])];
    if (!horizontal || !vertical || !type) throw r.error('DEX_OPTIONS has an unknown alignment or type digit');
    return { message, options: { horizontal, vertical, type } };
  },

  encodeResponse() {
    return okResponse(ID);
  },

  decodeResponse(rsp) {
    expectResultStatus(rsp);
    return {};
  },
};
