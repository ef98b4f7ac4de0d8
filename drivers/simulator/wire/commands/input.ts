/**
 * Keypad and event commands (S220 §3.3.1, §3.3.8, §3.3.10, §3.3.13, §6.5.1, §6.5.8, §6.5.10,
 * §6.5.13; abecs.md §3.7–§3.9, §3.12): GKY, CEX, GCD, MNU.
 */
import { paramsOf, specAtLeast, type DeviceCommand, type PanMask, type Reply } from '../command.js';
import { WireStatusError } from '../errors.js';
import { invalid } from '../fields.js';
import { PP, SPE } from '../ids.js';
import { expectNoParameters } from '../packet.js';
import { ST } from '../statuses.js';
import { item, type Params, type TlvItem } from '../tlv.js';
import { abecsReply } from './control.js';

/** SPE_TIMEOUT (X1): seconds of cardholder inactivity, 0–255. */
export function timeoutOf(params: Params): number | undefined {
  return params.uint(SPE.TIMEOUT, 'SPE_TIMEOUT', 1);
}

/** SPE_PANMASK (N4 "eedd"). */
export function panMaskOf(params: Params): PanMask | undefined {
  const digits = params.digits(SPE.PANMASK, 'SPE_PANMASK', { exact: 4 });
  return digits === undefined ? undefined : { left: Number(digits.slice(0, 2)), right: Number(digits.slice(2)) };
}

// ------------------------------------------------------------------------------------------------
// GKY

export type GkyKey = 'enter' | 'f1' | 'f2' | 'f3' | 'f4' | 'clear' | 'cancel';

/** GKY answers the key in RSP_STAT, with no data (§3.3.10). */
const GKY_STATUS: Readonly<Record<GkyKey, number>> = {
  enter: ST.OK,
  f1: ST.F1,
  f2: ST.F2,
  f3: ST.F3,
  f4: ST.F4,
  clear: ST.BACKSP,
  cancel: ST.CANCEL,
};

export const GKY: DeviceCommand<Record<string, never>, { readonly key: GkyKey }> = {
  id: 'GKY',
  blocking: true,
  abecs: false,
  decode(packet, reading) {
    expectNoParameters(packet, reading.strict);
    return {};
  },
  encode: (result): Reply => ({ status: GKY_STATUS[result.key], blocks: [] }),
};

// ------------------------------------------------------------------------------------------------
// CEX

/** SPE_CEXOPT (A6): which events to wait for. */
export interface CexRequest {
  readonly key: boolean;
  readonly magstripe: boolean;
  readonly icc: 'ignore' | 'insertion' | 'removal';
  readonly contactless: boolean;
  readonly timeoutSeconds?: number;
  readonly panMask?: PanMask;
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

/** PP_EVENT codes (§3.3.1). "02"/"03" are the two navigation keys (arrows in the spec). */
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

/** Incomplete tracks (PP_TRK1INC/2INC/3INC, §5.4.1). */
export interface IncompleteTracks {
  readonly track1?: string;
  readonly track2?: string;
  readonly track3?: string;
}

export interface CexResult {
  readonly event: CexEvent;
  readonly tracks?: IncompleteTracks;
}

/** The PP_TRKnINC items of the tracks given. */
export function incompleteTrackItems(tracks: IncompleteTracks | undefined): TlvItem[] {
  return [
    ...(tracks?.track1 === undefined ? [] : [item(PP.TRK1INC, tracks.track1)]),
    ...(tracks?.track2 === undefined ? [] : [item(PP.TRK2INC, tracks.track2)]),
    ...(tracks?.track3 === undefined ? [] : [item(PP.TRK3INC, tracks.track3)]),
  ];
}

export const CEX: DeviceCommand<CexRequest, CexResult> = {
  id: 'CEX',
  blocking: true,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    // "O pinpad deve aceitar SPE_CEXOPT com qualquer tamanho ... qualquer caractere fora da faixa
    // definida deve ser considerado como '0'" (§6.5.1); absent: ST_MANDAT.
    const options = params.require(params.first(SPE.CEXOPT), 'SPE_CEXOPT').toString('latin1');
    const digit = (index: number): string => options[index] ?? '0';
    const icc = digit(2) === '1' ? 'insertion' : digit(2) === '2' ? 'removal' : 'ignore';
    const timeoutSeconds = timeoutOf(params);
    const panMask = panMaskOf(params);
    return {
      key: digit(0) === '1',
      magstripe: digit(1) === '1',
      icc,
      contactless: digit(3) === '1',
      ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
      ...(panMask === undefined ? {} : { panMask }),
    };
  },
  encode: (result) =>
    abecsReply([item(PP.EVENT, CEX_EVENT_CODES[result.event]), ...incompleteTrackItems(result.tracks)]),
};

// ------------------------------------------------------------------------------------------------
// GCD

export interface GcdRequest {
  /** SPE_MSGIDX: the fixed message's index (0001h–0035h). */
  readonly message: number;
  readonly minDigits?: number;
  readonly maxDigits?: number;
  readonly timeoutSeconds?: number;
  /** SPE_GCDOPT d1 (2.20): "1" alphanumeric entry. */
  readonly alphanumeric?: boolean;
}

export const GCD: DeviceCommand<GcdRequest, { readonly value: string }> = {
  id: 'GCD',
  blocking: true,
  abecs: true,
  decode(packet, reading) {
    const params = paramsOf(packet);
    const message = params.require(params.uint(SPE.MSGIDX, 'SPE_MSGIDX', 2), 'SPE_MSGIDX');
    const minDigits = params.uint(SPE.MINDIG, 'SPE_MINDIG', 1);
    const maxDigits = params.uint(SPE.MAXDIG, 'SPE_MAXDIG', 1);
    if (minDigits !== undefined && minDigits > 32) throw invalid(`GCD: SPE_MINDIG ${minDigits} is over 32.`);
    if (maxDigits !== undefined && (maxDigits < 1 || maxDigits > 32))
      throw invalid(`GCD: SPE_MAXDIG ${maxDigits} is not 1–32.`);
    // "Se presente, [SPE_MAXDIG] deve ser maior ou igual a SPE_MINDIG" (§3.3.8).
    if (maxDigits !== undefined && maxDigits < (minDigits ?? 0)) throw invalid('GCD: SPE_MAXDIG is below SPE_MINDIG.');
    const timeoutSeconds = timeoutOf(params);
    // SPE_GCDOPT exists from 2.20; an older PINPAD ignores it as an unknown parameter.
    const gcdOption = specAtLeast(reading, '2.20') ? params.digits(SPE.GCDOPT, 'SPE_GCDOPT', { exact: 4 }) : undefined;
    return {
      message,
      ...(minDigits === undefined ? {} : { minDigits }),
      ...(maxDigits === undefined ? {} : { maxDigits }),
      ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
      ...(gcdOption === undefined ? {} : { alphanumeric: gcdOption[0] === '1' }),
    };
  },
  encode: (result) => abecsReply([item(PP.VALUE, result.value)]),
};

// ------------------------------------------------------------------------------------------------
// MNU

export const MAX_MENU_OPTIONS = 20;
export const MAX_MENU_OPTION_LENGTH = 24;

export interface MnuRequest {
  readonly title?: string;
  /** SPE_MNUOPT in order; option n is answered as "0n". */
  readonly options: readonly string[];
  readonly timeoutSeconds?: number;
}

export const MNU: DeviceCommand<MnuRequest, { readonly index: number }> = {
  id: 'MNU',
  blocking: true,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    const options = params.all(SPE.MNUOPT).map((value) => value.toString('latin1'));
    // §6.5.13 lists "no option" under both ST_INVPARM and ST_MANDAT; the first SPE_MNUOPT is "M"
    // (§3.3.13), and a missing "M" parameter is ST_MANDAT (§3.1.3.1).
    if (options.length === 0) throw new WireStatusError(ST.MANDAT, 'MNU: no SPE_MNUOPT.');
    if (options.length > MAX_MENU_OPTIONS)
      throw invalid(`MNU: ${options.length} options; at most ${MAX_MENU_OPTIONS}.`);
    if (options.some((option) => option.length > MAX_MENU_OPTION_LENGTH)) {
      throw invalid(`MNU: an option is longer than ${MAX_MENU_OPTION_LENGTH} characters.`);
    }
    const title = params.text(SPE.DSPMSG, 'SPE_DSPMSG', { max: 128 }, 'any');
    const timeoutSeconds = timeoutOf(params);
    return {
      options,
      ...(title === undefined ? {} : { title }),
      ...(timeoutSeconds === undefined ? {} : { timeoutSeconds }),
    };
  },
  encode: (result) => {
    if (!Number.isInteger(result.index) || result.index < 1 || result.index > MAX_MENU_OPTIONS) {
      throw new RangeError(`Menu option ${result.index} is not 1–${MAX_MENU_OPTIONS}.`);
    }
    return abecsReply([item(PP.VALUE, String(result.index).padStart(2, '0'))]);
  },
};
