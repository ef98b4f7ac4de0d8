/**
 * GPN — get PIN (abecs.md §3.10), fixed fields, blocking. `GPN093`: method N1 ("1" MK/WK, "3"
 * DUKPT) + key index N2 + working key H32 (ignored for DUKPT, sent as zeros) + PAN length N2
 * ("00" = the card read by CEX/GCX) + PAN A19 + entries N1 "1" + minimum N2 + maximum N2 +
 * message S32 (2×16). Response `GPN000036`: PIN block H16 + KSN H20 (zeros for MK/WK).
 *
 * The PAN, working key, PIN block and KSN are secrets: errors name fields, never their values.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec } from '../codec.js';
import { FieldReader, FieldWriter } from '../fields.js';
import { DISPLAY_SIZE, formatDisplay2x16, normalizeDisplay2x16 } from '../text.js';
import { commandBlock, malformedCommand, malformedResponse, okResponse, responseBlock } from './basic-support.js';

const ID = 'GPN';
const ZERO_KEY = '0'.repeat(32);
const PAN_FIELD = 19;
export const GPN_MIN_PIN = 4;
export const GPN_MAX_PIN = 12;

export type GpnMethod = 'mkwk' | 'dukpt';

export interface GpnRequest {
  readonly method: GpnMethod;
  /** Key slot 0–99. */
  readonly keyIndex: number;
  /** MK/WK only: the working key encrypted under the master key, 32 hex digits. */
  readonly workingKey?: string;
  /** 2–19 digits; absent = the PAN of the card read by the last CEX/GCX. */
  readonly pan?: string;
  readonly minDigits: number;
  readonly maxDigits: number;
  /** 2×16 prompt, e.g. "VALOR: 10,00\nSENHA:". */
  readonly message: string;
}

export interface GpnResult {
  /** Encrypted PIN block, 16 hex digits. */
  readonly pinBlock: string;
  /** DUKPT KSN, 20 hex digits (zeros for MK/WK). */
  readonly ksn: string;
}

const METHOD_DIGIT: Readonly<Record<GpnMethod, number>> = { mkwk: 1, dukpt: 3 };

function checkRequest(req: GpnRequest): void {
  if (!(req.method in METHOD_DIGIT)) throw new InvalidArgumentError('GPN method must be "mkwk" or "dukpt".');
  if (!Number.isInteger(req.keyIndex) || req.keyIndex < 0 || req.keyIndex > 99) {
    throw new InvalidArgumentError(`GPN key index must be from 0 to 99, got ${req.keyIndex}.`);
  }
  if (req.method === 'mkwk' && (req.workingKey === undefined || !/^[0-9A-Fa-f]{32}$/.test(req.workingKey))) {
    throw new InvalidArgumentError('GPN with MK/WK needs the encrypted working key as 32 hex digits.');
  }
  if (req.method === 'dukpt' && req.workingKey !== undefined) {
    throw new InvalidArgumentError('GPN with DUKPT takes no working key.');
  }
  if (req.pan !== undefined && !/^[0-9]{2,19}$/.test(req.pan)) {
    throw new InvalidArgumentError('The GPN PAN must have 2 to 19 digits.');
  }
  const { minDigits, maxDigits } = req;
  if (
    !Number.isInteger(minDigits) ||
    !Number.isInteger(maxDigits) ||
    minDigits < GPN_MIN_PIN ||
    maxDigits > GPN_MAX_PIN ||
    minDigits > maxDigits
  ) {
    throw new InvalidArgumentError(
      `GPN PIN length limits must satisfy ${GPN_MIN_PIN} ≤ minimum ≤ maximum ≤ ${GPN_MAX_PIN}; got ${minDigits} and ${maxDigits}.`,
    );
  }
}

export const gpnCommand: CommandCodec<GpnRequest, GpnResult> = {
  id: ID,
  blocking: true,

  encodeRequest(req) {
    checkRequest(req);
    const block = new FieldWriter()
      .n('GPN_METHOD', METHOD_DIGIT[req.method], 1)
      .n('GPN_KEYIDX', req.keyIndex, 2)
      .h('GPN_WKENC', req.workingKey ?? ZERO_KEY, 32)
      .n('GPN_PANLEN', req.pan?.length ?? 0, 2)
      .a('GPN_PAN', req.pan ?? '', PAN_FIELD)
      .n('GPN_ENTRIES', 1, 1)
      .n('GPN_MIN1', req.minDigits, 2)
      .n('GPN_MAX1', req.maxDigits, 2)
      .s('GPN_MSG1', formatDisplay2x16(req.message), DISPLAY_SIZE)
      .toBuffer();
    return { id: ID, blocks: [block] };
  },

  decodeRequest(cmd) {
    const block = commandBlock(cmd);
    if (!block) throw malformedCommand(ID, 'the GPN fields are missing', 19);
    const r = new FieldReader(block, 'GPN command', 'MALFORMED_COMMAND');
    const methodDigit = r.n('GPN_METHOD', 1);
    const method: GpnMethod | undefined = methodDigit === 1 ? 'mkwk' : methodDigit === 3 ? 'dukpt' : undefined;
    if (!method) throw r.error('GPN_METHOD must be 1 or 3');
    const keyIndex = r.n('GPN_KEYIDX', 2);
    const workingKey = r.hex('GPN_WKENC', 32);
    const panLength = r.n('GPN_PANLEN', 2);
    const panField = r.textRaw('GPN_PAN', PAN_FIELD);
    if (panLength === 1 || panLength > PAN_FIELD) throw r.error('GPN_PANLEN must be 00 or 02 to 19');
    const pan = panField.slice(0, panLength);
    if (!/^[0-9]*$/.test(pan)) throw r.error('GPN_PAN must be digits');
    if (r.n('GPN_ENTRIES', 1) !== 1) throw r.error('GPN_ENTRIES must be 1');
    const minDigits = r.n('GPN_MIN1', 2);
    const maxDigits = r.n('GPN_MAX1', 2);
    if (minDigits < GPN_MIN_PIN || minDigits > maxDigits) throw r.error('GPN_MIN1 and GPN_MAX1 are inconsistent');
    const message = normalizeDisplay2x16(r.textRaw('GPN_MSG1', DISPLAY_SIZE));
    r.end();
    return {
      method,
      keyIndex,
      ...(method === 'mkwk' ? { workingKey } : {}),
      ...(panLength > 0 ? { pan } : {}),
      minDigits,
      maxDigits,
      message,
    };
  },

  encodeResponse(res) {
    const block = new FieldWriter().h('GPN_PINBLK', res.pinBlock, 16).h('GPN_KSN', res.ksn, 20).toBuffer();
    return okResponse(ID, [block]);
  },

  decodeResponse(rsp) {
    const block = responseBlock(rsp);
    if (!block) throw malformedResponse(ID, 'no data block');
    const r = new FieldReader(block, 'GPN response');
    const pinBlock = r.hex('GPN_PINBLK', 16);
    const ksn = r.hex('GPN_KSN', 20);
    r.end();
    return { pinBlock, ksn };
  },
};
