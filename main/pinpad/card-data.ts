/**
 * Turns what the PINPAD returned for one card (GCX, then GOX for chip cards or GPN for a swiped
 * one) into the two things a sale needs from it, in two pure steps — `summarizeCardRead` right
 * after GCX (so the raw answer need not be kept while the customer types the PIN), then
 * `cardSaleData` with the verification's result:
 *
 * - the card as Pinbridge may keep it (`MaskedCard`: brand, first 6 / last 4, entry mode), and
 * - the card part of the terminal channel's authorization request.
 *
 * The PAN is asked for masked (GCX SPE_PANMASK 6/4), but a PINPAD may ignore the mask: whatever
 * arrives, only the first six and last four digits and the length leave this module. Tracks and
 * the cardholder name are never copied; EMV objects that carry the PAN, tracks or the name are
 * dropped from the EMV data even if the PINPAD returned them. Everything here is pure.
 */
import { CodedError } from '../../lib/errors.js';
import type { AidTableInfo, GcxResult } from '../../drivers/abecs/commands/gcx.js';
import type { GoxResult } from '../../drivers/abecs/commands/gox.js';
import { CARD_DATA_TAGS, decodeEmvTlv, encodeEmvTlv } from '../../drivers/abecs/emv.js';
import { POS_ENTRY_MODES, type CardEntryMode } from '../contract/terminal-v2.js';
import type { CardAuthorization } from '../core/ports.js';
import type { MaskedCard } from '../core/journal/record.js';
import { brandOf } from './card-brand.js';
import type { PinKeyMethod } from './key-methods.js';

export type { CardAuthorization };

export type CardholderVerification = CardAuthorization['cardholder_verification'];

/** The PINPAD as the host is told about it: model and EMV table versions (the serial comes from the payment). */
export type TerminalDescription = CardAuthorization['terminal'];

export interface CardSaleData {
  readonly card: MaskedCard;
  readonly authorization: CardAuthorization;
}

/** PAN or track 2 encrypted by the PINPAD (GTK) by one of the card data methods, with what opens it, hex. */
export type EncryptedCardData = NonNullable<CardAuthorization['encrypted_card_data']>;

/** The online PIN of a swiped card (GPN), for cards that have no chip to run GOX on. */
export interface SwipedCardPin {
  readonly pinBlock: string;
  readonly ksn: string;
}

export const CARD_DATA_ERROR_CODES = [
  /** Neither the PAN nor a track gave six leading and four trailing digits. */
  'UNREADABLE_CARD',
  /** PP_CARDTYPE outside Abecs 2.x (BibComp's 01/02/04). */
  'UNSUPPORTED_CARD_TYPE',
  /** PP_EMVDATA is not BER-TLV. */
  'MALFORMED_EMV_DATA',
  /** The PINPAD said it captured an online PIN but gave no PIN block (or, for DUKPT, no KSN). */
  'INCOMPLETE_PIN_BLOCK',
] as const;
export type CardDataErrorCode = (typeof CARD_DATA_ERROR_CODES)[number];

/** What the PINPAD returned cannot make an authorization request. Messages never hold card data. */
export class CardDataError extends CodedError<CardDataErrorCode> {
  constructor(code: CardDataErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

/**
 * EMV tags asked for in GCX and GOX (SPE_TAGLIST): what an authorization needs (cryptogram and
 * its inputs, terminal and card risk data, CVM results, form factor). The PAN (5A), track 2
 * equivalent (57) and name (5F20) are deliberately not asked for: the card travels as brand and
 * masked digits only.
 */
export const AUTHORIZATION_TAGS: readonly string[] = Object.freeze([
  '9F26',
  '9F27',
  '9F10',
  '9F37',
  '9F36',
  '95',
  '9A',
  '9C',
  '9F02',
  '5F2A',
  '82',
  '9F1A',
  '9F03',
  '9F34',
  '84',
  '9F33',
  '5F34',
  '9F35',
  '9F09',
  '9F41',
  '9F6E',
  // The application's AID, the terminal's serial (IFD), Mastercard's transaction category code
  // and the contactless terminal transaction qualifiers, which chip and CTLS authorizations carry.
  '9F06',
  '9F1E',
  '9F53',
  '9F66',
]);

/**
 * EMV tags asked for in FCX for the completion report: the second cryptogram (TC or AAC), its
 * inputs and the results of the issuer's authentication and scripts.
 */
export const COMPLETION_TAGS: readonly string[] = Object.freeze([
  '9F26',
  '9F27',
  '9F10',
  '9F36',
  '95',
  '9B',
  '8A',
  '9F34',
]);

export { CARD_DATA_TAGS };

const MASK_LEFT = 6;
const MASK_RIGHT = 4;
/** ISO/IEC 7812 PANs are 12–19 digits; fewer than 12 cannot hide anything between 6 and 4. */
const PAN_MIN = 12;
const PAN_MAX = 19;

/** The digits Pinbridge may keep of one PAN. */
interface PanDigits {
  readonly first6: string;
  readonly last4: string;
  readonly length: number;
}

/**
 * First 6 / last 4 and the length of a PAN that may be in clear or masked by the PINPAD (any
 * non-digit in the middle counts as a mask character). Undefined when it cannot be a PAN.
 */
function panDigits(pan: string | undefined): PanDigits | undefined {
  if (pan === undefined) return undefined;
  const text = pan.trim();
  if (text.length < PAN_MIN || text.length > PAN_MAX) return undefined;
  const first6 = text.slice(0, MASK_LEFT);
  const last4 = text.slice(-MASK_RIGHT);
  if (!/^[0-9]{6}$/.test(first6) || !/^[0-9]{4}$/.test(last4)) return undefined;
  return { first6, last4, length: text.length };
}

/**
 * "411111******1111": first 6 and last 4 digits of `pan` (clear or already masked), the rest as
 * '*'. Throws CardDataError when `pan` is not a 12–19 character PAN.
 */
export function maskPan(pan: string): string {
  const digits = panDigits(pan);
  if (!digits) throw new CardDataError('UNREADABLE_CARD', 'The card number is not a 12 to 19 digit PAN.');
  return masked(digits);
}

function masked(digits: PanDigits): string {
  return digits.first6 + '*'.repeat(digits.length - MASK_LEFT - MASK_RIGHT) + digits.last4;
}

/** The PAN part of a (truncated) track: before "=" on track 2, between "B" and "^" on track 1. */
function panOfTracks(read: GcxResult): string | undefined {
  const track2 = read.track2?.replace(/^;/, '');
  if (track2 !== undefined && track2.includes('=')) return track2.slice(0, track2.indexOf('='));
  const track1 = read.track1?.replace(/^%/, '');
  if (track1 !== undefined && /^B/.test(track1) && track1.includes('^')) return track1.slice(1, track1.indexOf('^'));
  return undefined;
}

/** The PAN's keepable digits: PP_PAN first, else the tracks (a swipe has no PP_PAN). */
function cardDigits(read: GcxResult): PanDigits {
  const digits = panDigits(read.pan) ?? panDigits(panOfTracks(read));
  if (!digits) throw new CardDataError('UNREADABLE_CARD', 'The PINPAD returned no usable card number.');
  return digits;
}

/**
 * How the card was read. `afterChipError` is for a swipe that follows a chip failure the PINPAD
 * reported as ST_ERRFALLBACK on the previous read (a PINPAD that forgets it between reads says
 * iccStatus 0 on the swipe).
 */
export function entryModeOf(read: GcxResult, options: { afterChipError?: boolean } = {}): CardEntryMode {
  switch (read.cardType) {
    case 'chip':
      return 'chip';
    case 'contactlessChip':
      return 'contactless_chip';
    case 'contactlessMagstripe':
      return 'contactless_magstripe';
    case 'magstripe':
      return read.iccStatus === 1 || options.afterChipError ? 'magstripe_fallback' : 'magstripe';
    default:
      throw new CardDataError(
        'UNSUPPORTED_CARD_TYPE',
        `The PINPAD reported the card type ${read.cardTypeCode}, which is not chip, contactless or magnetic stripe.`,
      );
  }
}

/** "YYMM" from PP_CARDEXP "YYMMDD", else from track 2 ("PAN=YYMM…"); undefined when neither has it. */
export function expirationOf(read: Pick<GcxResult, 'expiry' | 'track2'>): string | undefined {
  if (read.expiry !== undefined && /^[0-9]{6}$/.test(read.expiry)) return read.expiry.slice(0, 4);
  const track2 = read.track2;
  if (track2 === undefined) return undefined;
  const after = track2.slice(track2.indexOf('=') + 1, track2.indexOf('=') + 5);
  return track2.includes('=') && /^[0-9]{4}$/.test(after) ? after : undefined;
}

/**
 * What verified the cardholder: an online PIN (GOX or, for a swipe, GPN), a PIN the chip
 * verified offline, a paper signature, or nothing (contactless under the CVM limit, a verified
 * phone — CDCVM — included: the contract has no value of its own for it).
 */
export function cardholderVerificationOf(
  chip: GoxResult | null | undefined,
  swipedPin?: SwipedCardPin | null,
): CardholderVerification {
  if (swipedPin) return 'online_pin';
  if (!chip) return 'none';
  if (chip.onlinePinCaptured) return 'online_pin';
  if (chip.offlinePinVerified) return 'offline_pin';
  if (chip.signatureRequired) return 'signature';
  return 'none';
}

/**
 * Upper-case hex of the EMV objects in `data` without those that carry card data
 * (CARD_DATA_TAGS); undefined when nothing is left.
 */
export function emvDataHex(data: Buffer | undefined): string | undefined {
  if (data === undefined || data.length === 0) return undefined;
  let items;
  try {
    items = decodeEmvTlv(data);
  } catch (error) {
    throw new CardDataError('MALFORMED_EMV_DATA', 'The PINPAD returned EMV data that is not BER-TLV.', {
      cause: error,
    });
  }
  const kept = items.filter((item) => !CARD_DATA_TAGS.has(item.tag));
  if (kept.length === 0) return undefined;
  return encodeEmvTlv(kept).toString('hex').toUpperCase();
}

function pinBlockOf(verification: CardVerification): CardAuthorization['pin_block'] {
  const { chip, swipedPin, pinMethod } = verification;
  const source = swipedPin ?? (chip?.onlinePinCaptured ? chip : undefined);
  if (!source) return undefined;
  if (pinMethod === undefined)
    throw new CardDataError('INCOMPLETE_PIN_BLOCK', 'An online PIN block came without the key it was encrypted under.');
  // MK/WK blocks have no KSN (GPN returns it zeroed, S220 §3.3.11): the working key names the key.
  if (source.pinBlock && pinMethod.method === 'mkwk') {
    return {
      format: 'iso_0',
      method: 'mkwk',
      key_slot: pinMethod.slot,
      working_key: pinMethod.working_key,
      block: source.pinBlock.toUpperCase(),
    };
  }
  if (!source.pinBlock || !source.ksn) {
    throw new CardDataError(
      'INCOMPLETE_PIN_BLOCK',
      'The PINPAD captured an online PIN but returned no PIN block or no DUKPT KSN.',
    );
  }
  return {
    format: 'iso_0',
    method: 'dukpt',
    key_slot: pinMethod.slot,
    ksn: source.ksn.toUpperCase(),
    block: source.pinBlock.toUpperCase(),
  };
}

/**
 * What is kept of a GCX answer, taken from it at once: no PAN beyond first 6 / last 4, no
 * tracks, no name. The EMV data is already hex without card-data objects.
 */
export interface CardReadSummary {
  readonly entryMode: CardEntryMode;
  readonly brand: string;
  readonly first6: string;
  readonly last4: string;
  /** Digits of the PAN, for the masked form. */
  readonly panLength: number;
  /** "YYMM". */
  readonly expiration?: string;
  /** Chip only: PP_PANSEQNO. */
  readonly panSequenceNumber?: string;
  /** Magnetic stripe service code (3 digits), from track 2. */
  readonly serviceCode?: string;
  /** PP_EMVDATA of the read (chip only), upper-case hex without card-data objects. */
  readonly emvData?: string;
  /** PP_AIDTABINFO (chip only): which acquirer's AID table took the card, and with which application type. */
  readonly aidTableInfo?: readonly AidTableInfo[];
}

/** The magnetic stripe service code: the three digits after "=YYMM" on track 2. */
export function serviceCodeOf(read: Pick<GcxResult, 'track2'>): string | undefined {
  const track2 = read.track2;
  if (track2 === undefined || !track2.includes('=')) return undefined;
  const code = track2.slice(track2.indexOf('=') + 5, track2.indexOf('=') + 8);
  return /^[0-9]{3}$/.test(code) ? code : undefined;
}

/**
 * Reduces a GCX answer to what a sale may keep. `afterChipError`: the previous read ended with
 * ST_ERRFALLBACK (see entryModeOf). Throws CardDataError when the card cannot make a request.
 */
export function summarizeCardRead(read: GcxResult, options: { afterChipError?: boolean } = {}): CardReadSummary {
  const entryMode = entryModeOf(read, { afterChipError: options.afterChipError === true });
  const digits = cardDigits(read);
  const chipCard = entryMode === 'chip' || entryMode === 'contactless_chip';
  const expiration = expirationOf(read);
  const serviceCode = serviceCodeOf(read);
  const panSequence =
    chipCard && read.panSequence !== undefined && /^[0-9]{1,3}$/.test(read.panSequence) ? read.panSequence : undefined;
  const emvData = chipCard ? emvDataHex(read.emvData) : undefined;
  return {
    entryMode,
    brand: brandOf(digits.first6, chipCard ? read.applicationLabel : undefined),
    first6: digits.first6,
    last4: digits.last4,
    panLength: digits.length,
    ...(expiration !== undefined ? { expiration } : {}),
    ...(panSequence !== undefined ? { panSequenceNumber: panSequence } : {}),
    ...(serviceCode !== undefined ? { serviceCode } : {}),
    ...(emvData !== undefined ? { emvData } : {}),
    ...(chipCard && read.aidTableInfo !== undefined
      ? { aidTableInfo: read.aidTableInfo.map((entry) => ({ ...entry })) }
      : {}),
  };
}

export interface CardVerification {
  /** GOX's result, for chip and contactless chip cards. */
  readonly chip?: GoxResult | null;
  /** GPN's result, for a swiped card that was asked for a PIN. */
  readonly swipedPin?: SwipedCardPin | null;
  /** GTK's encrypted track 2 (or PAN); null from a legacy PINPAD, which has no GTK. */
  readonly encryptedCardData?: EncryptedCardData | null;
  /** The key method the online PIN (GOX, GOC or GPN) was encrypted by; needed when there is one. */
  readonly pinMethod?: PinKeyMethod;
  /** The acquirer index whose AID table took the card (chip), or the tables' one acquirer. */
  readonly acquirer?: number;
}

/** The masked card and the card part of the authorization request (terminal channel v2). */
export function cardSaleData(
  summary: CardReadSummary,
  verification: CardVerification = {},
  terminal: TerminalDescription = { table_versions: {} },
): CardSaleData {
  const { chip, swipedPin, encryptedCardData, acquirer } = verification;
  const chipCard = summary.entryMode === 'chip' || summary.entryMode === 'contactless_chip';
  const pinBlock = pinBlockOf(verification);
  // GOX's data carries the first GENERATE AC (the ARQC); the read's is what was known before it.
  const emvData = chipCard ? (emvDataHex(chip?.emvData) ?? summary.emvData) : undefined;
  const digits: PanDigits = { first6: summary.first6, last4: summary.last4, length: summary.panLength };

  const cardholder = cardholderVerificationOf(chip, swipedPin);
  const card: MaskedCard = {
    brand: summary.brand,
    maskedPan: masked(digits),
    entryMode: summary.entryMode,
    verification: cardholder,
  };
  const authorization: CardAuthorization = {
    terminal,
    entry_mode: summary.entryMode,
    pos_entry_mode: POS_ENTRY_MODES[summary.entryMode],
    ...(acquirer !== undefined ? { acquirer: String(acquirer).padStart(2, '0') } : {}),
    card: {
      brand: summary.brand,
      first6_digits: summary.first6,
      last4_digits: summary.last4,
      pan_length: summary.panLength,
      ...(summary.expiration !== undefined ? { expiration: summary.expiration } : {}),
      ...(summary.panSequenceNumber !== undefined ? { pan_sequence_number: summary.panSequenceNumber } : {}),
      ...(summary.serviceCode !== undefined ? { service_code: summary.serviceCode } : {}),
    },
    cardholder_verification: cardholder,
    ...(encryptedCardData ? { encrypted_card_data: { ...encryptedCardData } } : {}),
    ...(pinBlock ? { pin_block: pinBlock } : {}),
    ...(emvData !== undefined ? { emv_data: emvData } : {}),
  };
  return { card, authorization };
}

/**
 * Whether the card blocked its PIN in this first GENERATE AC: TVR (tag 95) byte 3 bit 6, "PIN
 * try limit exceeded" (EMV Book 3 Annex C5) — set by the chip's offline PIN check after the
 * last wrong PIN, or when the counter was already at zero. GOX says nothing else about it.
 */
export function pinTryLimitExceeded(chip: Pick<GoxResult, 'emvData'>): boolean {
  if (chip.emvData === undefined) return false;
  let tvr: Buffer | undefined;
  try {
    tvr = decodeEmvTlv(chip.emvData).find((item) => item.tag === '95')?.value;
  } catch {
    return false;
  }
  return tvr !== undefined && tvr.length === 5 && (tvr[2]! & 0x20) !== 0;
}
