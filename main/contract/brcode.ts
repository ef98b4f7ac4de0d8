/**
 * The Pix BR Code (the "copia e cola" payload a bolepix's `pix.qr_code` carries), read and
 * checked: an EMV QRCPS Merchant-Presented-Mode string of ID(2) + length(2) + value fields, as
 * the BCB "Manual de Padrões para Iniciação do Pix" lays it out, ending with field 63, the
 * CRC-16/CCITT-FALSE of everything before its value. The sandbox writes BR Codes with these
 * rules and the agent checks one before it draws it (main/pix): a payload that is not a Pix BR
 * Code would make a QR the customer's bank app refuses after the customer has scanned it.
 */
import { crc16, CRC16_CCITT_FALSE_INITIAL } from '../../lib/crc16.js';
import { CodedError } from '../../lib/errors.js';

/** The GUI of the Pix arrangement inside the merchant account template (field 26). */
export const PIX_GUI = 'br.gov.bcb.pix';
/** EMV MPM: a payload is at most 512 characters. */
export const BR_CODE_MAX_LENGTH = 512;

/** CRC-16/CCITT-FALSE of `text` (UTF-8), as field 63 writes it: four upper-case hex digits. */
export function crc16Ccitt(text: string): string {
  return crc16(Buffer.from(text, 'utf8'), CRC16_CCITT_FALSE_INITIAL).toString(16).toUpperCase().padStart(4, '0');
}

/** The ID/length/value fields of `text` in their order; throws on a truncated or malformed one. */
export function tlvEntries(text: string): Array<readonly [id: string, value: string]> {
  const entries: Array<readonly [string, string]> = [];
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const lengthText = text.slice(at + 2, at + 4);
    if (!/^[0-9]{2}$/.test(id) || !/^[0-9]{2}$/.test(lengthText)) {
      throw new Error(`BR Code field at offset ${at} is malformed`);
    }
    const length = Number(lengthText);
    const value = text.slice(at + 4, at + 4 + length);
    if (value.length !== length) throw new Error(`BR Code field ${id} is truncated`);
    entries.push([id, value]);
    at += 4 + length;
  }
  return entries;
}

/**
 * The fields of `text` by id (a repeated id keeps its last value). An object's integer-like keys
 * iterate in numeric order, not the payload's: read the order from tlvEntries.
 */
export function parseTlv(text: string): Record<string, string> {
  return Object.fromEntries(tlvEntries(text));
}

export interface ParsedBrCode {
  /** Top-level fields by id ("00", "26", …), values as written (templates not expanded). */
  readonly fields: Record<string, string>;
  /** Whether field 63 is the CRC of everything before its value. */
  readonly crcValid: boolean;
}

export function parseBrCode(payload: string): ParsedBrCode {
  const fields = parseTlv(payload);
  const crc = fields['63'];
  const crcValid =
    crc !== undefined && payload.endsWith(`6304${crc}`) && crc16Ccitt(payload.slice(0, -4)) === crc.toUpperCase();
  return { fields, crcValid };
}

export type BrCodeErrorCode =
  /** Empty, longer than 512 characters, or a character outside printable ASCII. */
  | 'BR_CODE_MALFORMED'
  /** The ID/length/value fields do not add up (truncated, a non-digit id or length). */
  | 'BR_CODE_BAD_FIELDS'
  /** A field the Pix BR Code requires is missing or has a value it cannot have. */
  | 'BR_CODE_BAD_FIELD'
  /** No merchant account template with the Pix GUI: an EMV QR of another arrangement. */
  | 'BR_CODE_NOT_PIX'
  /** Field 63 is not last, not 4 characters, or not the CRC of the payload. */
  | 'BR_CODE_BAD_CRC';

/** A payload that is not a Pix BR Code; `code` says what is wrong, `message` which field. */
export class BrCodeError extends CodedError<BrCodeErrorCode> {}

/** What a checked BR Code says, for whoever shows it. */
export interface CheckedBrCode {
  readonly payload: string;
  /** Field 54 in centavos, when the payload carries an amount (a static code may not). */
  readonly amountCentavos: number | undefined;
  readonly merchantName: string;
  readonly merchantCity: string;
  /** The key (static: 26/01) or the location URL (dynamic: 26/25). */
  readonly key: string | undefined;
  readonly locationUrl: string | undefined;
  /** Field 62's 05, "***" when the payer's app makes none. */
  readonly txid: string | undefined;
}

function bad(code: BrCodeErrorCode, message: string): never {
  throw new BrCodeError(code, message);
}

function tlv(text: string, where: string): Array<readonly [id: string, value: string]> {
  try {
    return tlvEntries(text);
  } catch (error) {
    throw new BrCodeError('BR_CODE_BAD_FIELDS', `${where}: ${(error as Error).message}`, { cause: error });
  }
}

/** Field 54 ("123.45", at most 13 characters, two decimals at most) in centavos. */
function amountOf(text: string): number {
  if (text.length > 13 || !/^[0-9]+(\.[0-9]{1,2})?$/.test(text)) {
    bad('BR_CODE_BAD_FIELD', `BR Code field 54 (amount) "${text}" is not an amount such as 123.45`);
  }
  const [reais = '0', cents = ''] = text.split('.');
  const centavos = Number(reais) * 100 + Number(cents.padEnd(2, '0'));
  if (!Number.isSafeInteger(centavos) || centavos <= 0) {
    bad('BR_CODE_BAD_FIELD', `BR Code field 54 (amount) "${text}" is not a positive amount`);
  }
  return centavos;
}

/**
 * Checks a Pix BR Code as the BCB manual lays it out: 00 = "01" first, a merchant account
 * template (26–51) with the Pix GUI and a key (01) or a location (25), 52 (4 digits), 53 = "986",
 * 54 (optional amount), 58 = "BR", 59 (1–25), 60 (1–15), 62 (optional), and 63 last with the
 * CRC. Throws a BrCodeError naming the first thing wrong.
 */
export function checkBrCode(payload: string): CheckedBrCode {
  if (payload.length === 0) bad('BR_CODE_MALFORMED', 'The BR Code is empty');
  if (payload.length > BR_CODE_MAX_LENGTH) {
    bad('BR_CODE_MALFORMED', `The BR Code is ${payload.length} characters long; at most ${BR_CODE_MAX_LENGTH}`);
  }
  const outside = /[^\x20-\x7e]/.exec(payload);
  if (outside) {
    bad('BR_CODE_MALFORMED', `The BR Code has a character outside printable ASCII at offset ${outside.index}`);
  }
  const entries = tlv(payload, 'BR Code');
  const fields = Object.fromEntries(entries);
  const ids = entries.map(([id]) => id);
  const repeated = ids.find((id, index) => ids.indexOf(id) !== index);
  if (repeated !== undefined) bad('BR_CODE_BAD_FIELDS', `BR Code field ${repeated} appears twice`);
  if (!payload.startsWith('000201'))
    bad('BR_CODE_BAD_FIELD', 'BR Code field 00 (payload format) must come first and be "01"');
  // Field 63 must be the last field, 4 characters long, the CRC of everything before its value.
  if (!/6304[0-9A-Fa-f]{4}$/.test(payload) || fields['63'] === undefined || ids.at(-1) !== '63') {
    bad('BR_CODE_BAD_CRC', 'BR Code field 63 (CRC) must be the last field, 4 hex digits');
  }
  const expected = crc16Ccitt(payload.slice(0, -4));
  if (expected !== payload.slice(-4).toUpperCase()) {
    bad('BR_CODE_BAD_CRC', `BR Code field 63 (CRC) is ${payload.slice(-4)}; the payload's CRC is ${expected}`);
  }
  let account: Record<string, string> | undefined;
  for (const [id, value] of entries) {
    const number = Number(id);
    if (number < 26 || number > 51) continue;
    const template = Object.fromEntries(tlv(value, `BR Code field ${id}`));
    if (template['00']?.toLowerCase() === PIX_GUI) {
      account = template;
      break;
    }
  }
  if (account === undefined) bad('BR_CODE_NOT_PIX', `No merchant account field (26–51) carries the Pix GUI ${PIX_GUI}`);
  const key = account['01'];
  const locationUrl = account['25'];
  if ((key === undefined) === (locationUrl === undefined)) {
    bad('BR_CODE_BAD_FIELD', 'The Pix merchant account must carry either a key (01) or a location URL (25)');
  }
  const required = (id: string, name: string, rule: RegExp): string => {
    const value = fields[id];
    if (value === undefined || !rule.test(value))
      bad('BR_CODE_BAD_FIELD', `BR Code field ${id} (${name}) is missing or invalid`);
    return value;
  };
  required('52', 'merchant category', /^[0-9]{4}$/);
  required('53', 'currency', /^986$/);
  required('58', 'country', /^BR$/);
  const merchantName = required('59', 'merchant name', /^.{1,25}$/);
  const merchantCity = required('60', 'merchant city', /^.{1,15}$/);
  const amount = fields['54'];
  let txid: string | undefined;
  if (fields['62'] !== undefined) txid = Object.fromEntries(tlv(fields['62'], 'BR Code field 62'))['05'];
  return {
    payload,
    amountCentavos: amount === undefined ? undefined : amountOf(amount),
    merchantName,
    merchantCity,
    key,
    locationUrl,
    txid,
  };
}
