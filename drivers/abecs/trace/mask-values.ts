/**
 * How one value holding card data is cleaned before a trace keeps it. Every function returns a
 * value of the same shape (same length where the format allows), so the packet it came from
 * still parses and can be replayed:
 *
 * - a PAN keeps its first 6 and last 4 characters, '*' between (all '*' when shorter than 12);
 * - a track keeps the masked PAN, the expiry and the service code (the 7 characters after the
 *   separator); the cardholder name in track 1 becomes spaces and everything else (discretionary
 *   data) '0';
 * - secrets (PIN blocks, KSNs, encrypted data) become zeros of the same length;
 * - EMV data loses the objects holding card data and has its cryptograms zeroed (see maskEmvData).
 */
import { CARD_DATA_TAGS, decodeEmvTlv, encodeEmvTlv, type EmvTlv } from '../emv.js';

const KEEP_LEFT = 6;
const KEEP_RIGHT = 4;
const PAN_MIN = 12;
/** YYMM + service code: what a track keeps after its separator. */
const EXPIRY_AND_SERVICE = 7;

export function zeroBytes(value: Buffer): Buffer {
  return Buffer.alloc(value.length);
}

/** Hex or decimal text (an H or N field) as '0' characters of the same length. */
export function zeroText(text: string): string {
  return '0'.repeat(text.length);
}

/** "4111111111111111" → "411111******1111"; an already masked PAN stays as it is. */
export function maskPanText(pan: string): string {
  if (pan.length < PAN_MIN) return '*'.repeat(pan.length);
  return pan.slice(0, KEEP_LEFT) + '*'.repeat(pan.length - KEEP_LEFT - KEEP_RIGHT) + pan.slice(-KEEP_RIGHT);
}

/** Discretionary data: every character but the end sentinel becomes '0'. */
function zeroDiscretionary(text: string): string {
  return text.replace(/[^?]/g, '0');
}

/** What follows a track's PAN separator: expiry and service code kept, the rest zeroed. */
function maskAfterSeparator(rest: string): string {
  return rest.slice(0, EXPIRY_AND_SERVICE) + zeroDiscretionary(rest.slice(EXPIRY_AND_SERVICE));
}

const TRACK1 = /^(%?)([A-Z])([^^]*)\^([^^]*)\^(.*)$/s;
const TRACK2 = /^(;?)([0-9*]+)([=D])(.*)$/s;

/**
 * A magnetic track as text (full or truncated, with or without sentinels): track 1
 * "%B PAN ^ NAME ^ YYMM SVC …", track 2 ";PAN=YYMM SVC …"; anything else (track 3, an unknown
 * layout) keeps only a masked PAN-looking run and has every other letter and digit zeroed.
 */
export function maskTrackText(track: string): string {
  const t1 = TRACK1.exec(track);
  if (t1) {
    const [, sentinel, format, pan, name, rest] = t1 as unknown as [string, string, string, string, string, string];
    return `${sentinel}${format}${maskPanText(pan)}^${' '.repeat(name.length)}^${maskAfterSeparator(rest)}`;
  }
  const t2 = TRACK2.exec(track);
  if (t2) {
    const [, sentinel, pan, separator, rest] = t2 as unknown as [string, string, string, string, string];
    return `${sentinel}${maskPanText(pan)}${separator}${maskAfterSeparator(rest)}`;
  }
  const pan = /[0-9][0-9*]{10,17}[0-9]/.exec(track);
  let out = track.replace(/[0-9A-Za-z]/g, '0');
  if (pan) out = out.slice(0, pan.index) + maskPanText(pan[0]) + out.slice(pan.index + pan[0].length);
  return out;
}

/** EMV objects that hold the PAN, track data or the cardholder's name: removed. */
export const EMV_REMOVED_TAGS: ReadonlySet<string> = CARD_DATA_TAGS;

/** Cryptograms, the card's and issuer's secrets around them, and PIN data: zeroed, same length. */
export const EMV_ZEROED_TAGS: ReadonlySet<string> = new Set([
  '9F26', // application cryptogram
  '9F10', // issuer application data
  '9F37', // unpredictable number (an input of the cryptogram)
  '9F4B', // signed dynamic application data
  '9F4C', // ICC dynamic number
  '91', // issuer authentication data (ARPC)
  '71', // issuer script template 1
  '72', // issuer script template 2
  '86', // issuer script command
  '99', // transaction PIN data
]);

/** Bit 6 of a tag's first byte: the value is itself BER-TLV (a template such as 70 or 77). */
function constructed(tag: string): boolean {
  return (parseInt(tag.slice(0, 2), 16) & 0x20) !== 0;
}

function maskEmvItems(items: readonly EmvTlv[]): EmvTlv[] {
  const out: EmvTlv[] = [];
  for (const item of items) {
    if (EMV_REMOVED_TAGS.has(item.tag)) continue;
    if (EMV_ZEROED_TAGS.has(item.tag)) out.push({ tag: item.tag, value: zeroBytes(item.value) });
    else if (constructed(item.tag)) out.push({ tag: item.tag, value: maskEmvData(item.value) });
    else out.push(item);
  }
  return out;
}

/**
 * EMV BER-TLV data (PP_EMVDATA, SPE_EMVDATA, GOC/FNC EMV fields): card-data objects
 * (EMV_REMOVED_TAGS) removed, EMV_ZEROED_TAGS zeroed, templates cleaned inside, every other
 * object kept. Data that is not BER-TLV cannot be cleaned object by object and is zeroed whole.
 */
export function maskEmvData(data: Buffer): Buffer {
  let items: EmvTlv[];
  try {
    items = decodeEmvTlv(data);
  } catch {
    return zeroBytes(data);
  }
  return encodeEmvTlv(maskEmvItems(items));
}
