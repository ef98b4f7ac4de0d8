/**
 * CEX — check event extended (abecs.md §3.9), TLV, blocking: waits for a key, a swipe, a chip
 * insertion/removal or a contactless card, as selected by SPE_CEXOPT (A6: d1 key, d2 magnetic,
 * d3 ICC 0 ignore / 1 insertion / 2 removal, d4 contactless antenna, d5–d6 reserved). Optional
 * SPE_TIMEOUT and SPE_PANMASK ("eedd": digits left in clear at each end of the PAN).
 * Response: PP_EVENT, plus the truncated tracks PP_TRK1INC/2INC/3INC after a swipe. The tracks
 * are card data: never log them.
 */
import { InvalidArgumentError } from '../../errors.js';
import type { CommandCodec } from '../codec.js';
import { PP, SPE } from '../ids.js';
import { tlvsToBlocks, type Tlv } from '../tlv.js';
import { TlvFields, isPrintableAscii, malformedResponse, okResponse, tlv } from './basic-support.js';

const ID = 'CEX';

export type CexIccMode = 'ignore' | 'insertion' | 'removal';

export interface CexRequest {
  /** Return on a key press. */
  readonly key: boolean;
  /** Return on a magnetic stripe swipe. */
  readonly magstripe: boolean;
  /** Return on chip card insertion or removal (or not at all). */
  readonly icc: CexIccMode;
  /** Turn the antenna on and return when a contactless card comes near. */
  readonly contactless: boolean;
  /** Inactivity limit, 0–255 s (the antenna stays on at most 2 minutes anyway). */
  readonly timeoutSeconds?: number;
  /** Digits of the PAN left in clear in the truncated tracks: first `left`, last `right`. */
  readonly panMask?: { readonly left: number; readonly right: number };
}

export type CexEvent =
  | 'enter'
  | 'up'
  | 'down'
  | 'f1'
  | 'f2'
  | 'f3'
  | 'f4'
  | 'clear'
  | 'cancel'
  | 'cardSwiped'
  | 'iccRemoved'
  | 'iccInserted'
  | 'contactlessTimeout'
  | 'contactlessDetected';

/** PP_EVENT codes. "02"/"03" are the two menu-navigation keys (arrow glyphs in the spec). */
export const CEX_EVENT_CODES: Readonly<Record<CexEvent, string>> = {
  enter: '00',
  up: '02',
  down: '03',
  f1: '04',
  f2: '05',
  f3: '06',
  f4: '07',
  clear: '08',
  cancel: '13',
  cardSwiped: '90',
  iccRemoved: '91',
  iccInserted: '92',
  contactlessTimeout: '93',
  contactlessDetected: '94',
};

const EVENT_BY_CODE: ReadonlyMap<string, CexEvent> = new Map(
  Object.entries(CEX_EVENT_CODES).map(([event, code]) => [code, event as CexEvent]),
);

export interface CexTracks {
  /** PP_TRK1INC (≤ 60): track 1 cut 7 characters after the second "^". */
  readonly track1?: string;
  /** PP_TRK2INC (≤ 30): track 2 cut 7 characters after "=". */
  readonly track2?: string;
  /** PP_TRK3INC (≤ 30): the first 19 characters of track 3. */
  readonly track3?: string;
}

export interface CexResult {
  readonly event: CexEvent;
  readonly tracks?: CexTracks;
}

const TRACKS = [
  { key: 'track1', id: PP.TRK1INC, name: 'PP_TRK1INC', max: 60 },
  { key: 'track2', id: PP.TRK2INC, name: 'PP_TRK2INC', max: 30 },
  { key: 'track3', id: PP.TRK3INC, name: 'PP_TRK3INC', max: 30 },
] as const;

const ICC_DIGIT: Readonly<Record<CexIccMode, string>> = { ignore: '0', insertion: '1', removal: '2' };

function flag(value: boolean): string {
  return value ? '1' : '0';
}

export function cexOptions(req: Pick<CexRequest, 'key' | 'magstripe' | 'icc' | 'contactless'>): string {
  return `${flag(req.key)}${flag(req.magstripe)}${ICC_DIGIT[req.icc]}${flag(req.contactless)}00`;
}

export const cexCommand: CommandCodec<CexRequest, CexResult> = {
  id: ID,
  blocking: true,

  encodeRequest(req) {
    if (!(req.icc in ICC_DIGIT)) throw new InvalidArgumentError('CEX icc must be "ignore", "insertion" or "removal".');
    const tlvs: Tlv[] = [tlv.text(SPE.CEXOPT, cexOptions(req))];
    if (req.timeoutSeconds !== undefined) tlvs.push(tlv.x1(SPE.TIMEOUT, 'CEX timeout', req.timeoutSeconds));
    if (req.panMask !== undefined) {
      const { left, right } = req.panMask;
      for (const [side, digits] of [
        ['left', left],
        ['right', right],
      ] as const) {
        if (!Number.isInteger(digits) || digits < 0 || digits > 99) {
          throw new InvalidArgumentError(`CEX PAN mask ${side} must be from 0 to 99 digits, got ${digits}.`);
        }
      }
      tlvs.push(tlv.text(SPE.PANMASK, `${String(left).padStart(2, '0')}${String(right).padStart(2, '0')}`));
    }
    return { id: ID, blocks: tlvsToBlocks(tlvs) };
  },

  decodeRequest(cmd) {
    const f = TlvFields.command(cmd);
    // Any SPE_CEXOPT length is accepted and unknown characters count as "0" (S220 §6.5.1).
    const options = f.require(f.text(SPE.CEXOPT, 'SPE_CEXOPT', 995), 'SPE_CEXOPT');
    const timeoutSeconds = f.x1(SPE.TIMEOUT, 'SPE_TIMEOUT');
    const mask = f.digits(SPE.PANMASK, 'SPE_PANMASK', 4);
    const iccDigit = options[2];
    return {
      key: options[0] === '1',
      magstripe: options[1] === '1',
      icc: iccDigit === '1' ? 'insertion' : iccDigit === '2' ? 'removal' : 'ignore',
      contactless: options[3] === '1',
      ...(timeoutSeconds !== undefined ? { timeoutSeconds } : {}),
      ...(mask !== undefined ? { panMask: { left: Number(mask.slice(0, 2)), right: Number(mask.slice(2)) } } : {}),
    };
  },

  encodeResponse(res) {
    const code = CEX_EVENT_CODES[res.event];
    if (code === undefined) throw new InvalidArgumentError('Unknown CEX event.');
    const tlvs: Tlv[] = [tlv.text(PP.EVENT, code)];
    for (const track of TRACKS) {
      const value = res.tracks?.[track.key];
      if (value === undefined) continue;
      if (value.length > track.max || !isPrintableAscii(value)) {
        throw new InvalidArgumentError(`${track.name} is printable ASCII of at most ${track.max} characters.`);
      }
      tlvs.push(tlv.text(track.id, value));
    }
    return okResponse(ID, tlvsToBlocks(tlvs));
  },

  decodeResponse(rsp) {
    const f = TlvFields.response(rsp);
    const code = f.require(f.text(PP.EVENT, 'PP_EVENT', 2), 'PP_EVENT');
    const event = EVENT_BY_CODE.get(code);
    if (event === undefined) throw malformedResponse(ID, 'PP_EVENT holds an unknown event code');
    const tracks: Record<string, string> = {};
    for (const track of TRACKS) {
      const value = f.text(track.id, track.name, track.max);
      if (value !== undefined) tracks[track.key] = value;
    }
    return Object.keys(tracks).length > 0 ? { event, tracks } : { event };
  },
};
