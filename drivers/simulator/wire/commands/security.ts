/**
 * PIN, track and data-encryption commands (S220 §3.3.6, §3.3.11, §3.3.12, §5.4, §6.3.4, §6.5.6,
 * §6.5.11, §6.5.12; abecs.md §3.10, §3.12): GPN, GTK and EBX.
 */
import { WireStatusError } from '../errors.js';
import { okReply, onlyBlock, paramsOf, pinMethodOf, type DeviceCommand, type PinMethod } from '../command.js';
import { FieldReader, formatH, invalid } from '../fields.js';
import { PP, SPE } from '../ids.js';
import { ST } from '../statuses.js';
import { item, type Params, type TlvItem } from '../tlv.js';
import { abecsReply } from './control.js';

// ------------------------------------------------------------------------------------------------
// GPN

/**
 * GPN (§3.3.11): GPN_METHOD N1, GPN_KEYIDX N2, GPN_WKENC H32, GPN_PANLEN N2 ("00" or "02"–"19"),
 * GPN_PAN A19, GPN_ENTRIES N1 ("1"), GPN_MIN1 N2 (≥ "04"), GPN_MAX1 N2 (≥ GPN_MIN1), GPN_MSG1 S32.
 */
export interface GpnRequest {
  readonly method: PinMethod;
  readonly keyIndex: number;
  /** GPN_WKENC (ignored under DUKPT). */
  readonly workingKey: Buffer;
  /** Undefined for GPN_PANLEN "00": the PAN of the card CEX/GCX read (§6.5.11). */
  readonly pan?: string;
  readonly minDigits: number;
  readonly maxDigits: number;
  /** GPN_MSG1 as received (2×16, 32 characters). */
  readonly message: string;
}

export interface GpnResult {
  /** 8 bytes. */
  readonly pinBlock: Buffer;
  /** 10 bytes; zeros under MK/WK. */
  readonly ksn: Buffer;
}

export const GPN: DeviceCommand<GpnRequest, GpnResult> = {
  id: 'GPN',
  blocking: true,
  abecs: false,
  decode(packet, reading) {
    const fields = new FieldReader(onlyBlock(packet, reading), 'GPN');
    const method = pinMethodOf(fields.digits(1, 'GPN_METHOD'), 'GPN');
    const keyIndex = fields.number(2, 'GPN_KEYIDX');
    const workingKey = fields.hex(32, 'GPN_WKENC');
    const panLength = fields.number(2, 'GPN_PANLEN');
    if (panLength === 1 || panLength > 19) throw invalid(`GPN: GPN_PANLEN ${panLength} is not "00" or "02"–"19".`);
    const panField = fields.alpha(19, 'GPN_PAN');
    const pan = panField.slice(0, panLength);
    // "O PAN fornecido possui caracteres não numéricos (espaços, letras, etc.)" (§6.5.11).
    if (!/^[0-9]*$/.test(pan)) throw invalid('GPN: GPN_PAN has characters that are not digits.');
    if (reading.strict && panField.slice(panLength).trim() !== '')
      throw invalid('GPN: GPN_PAN is longer than GPN_PANLEN.');
    if (fields.digits(1, 'GPN_ENTRIES') !== '1') throw invalid('GPN: GPN_ENTRIES is not "1".');
    const minDigits = fields.number(2, 'GPN_MIN1');
    const maxDigits = fields.number(2, 'GPN_MAX1');
    if (minDigits < 4) throw invalid(`GPN: GPN_MIN1 ${minDigits} is below "04".`);
    if (maxDigits < minDigits) throw invalid('GPN: GPN_MAX1 is below GPN_MIN1.');
    const message = fields.bytes(32, 'GPN_MSG1').toString('latin1');
    fields.end();
    return { method, keyIndex, workingKey, ...(panLength === 0 ? {} : { pan }), minDigits, maxDigits, message };
  },
  encode(result) {
    if (result.pinBlock.length !== 8 || result.ksn.length !== 10)
      throw new RangeError('GPN answers an 8-byte PIN block and a 10-byte KSN.');
    return okReply([Buffer.from(formatH(result.pinBlock) + formatH(result.ksn), 'latin1')]);
  },
};

// ------------------------------------------------------------------------------------------------
// GTK

/** SPE_MTHDDAT (§3.1.3.1, §3.3.12). */
export type DataMethod =
  | 'mkwkDesEcb'
  | 'mkwkDesCbc'
  | 'mkwkEcb'
  | 'mkwkCbc'
  | 'dukptDat1Ecb'
  | 'dukptEcb'
  | 'dukptCbc'
  | 'randomEcb'
  | 'randomCbc';

const DATA_METHODS: Readonly<Record<string, DataMethod>> = {
  '00': 'mkwkDesEcb',
  '01': 'mkwkDesCbc',
  '10': 'mkwkEcb',
  '11': 'mkwkCbc',
  '30': 'dukptDat1Ecb',
  '50': 'dukptEcb',
  '51': 'dukptCbc',
  '90': 'randomEcb',
  '91': 'randomCbc',
};

export interface GtkRequest {
  /** SPE_TRACKS "PTTT" ("1" = wanted; any length; absent = everything known). */
  readonly tracks: {
    readonly pan: boolean;
    readonly track1: boolean;
    readonly track2: boolean;
    readonly track3: boolean;
  };
  readonly encryption?: {
    readonly method: DataMethod;
    /** SPE_KEYIDX (absent for the random-key methods). */
    readonly keyIndex?: number;
    readonly workingKey?: Buffer;
    /** SPE_IVCBC (zeros when absent). */
    readonly iv: Buffer;
    /** SPE_OPNDIG: 0, 2, 4, 6 or 8 digits left in clear. */
    readonly openDigits: number;
    readonly publicKey?: { readonly modulus: Buffer; readonly exponent: Buffer };
  };
}

export interface GtkResult {
  readonly pan?: Buffer;
  readonly track1?: Buffer;
  readonly track2?: Buffer;
  readonly track3?: Buffer;
  /** KSN of each field encrypted under DUKPT. */
  readonly ksns?: {
    readonly pan?: Buffer;
    readonly track1?: Buffer;
    readonly track2?: Buffer;
    readonly track3?: Buffer;
  };
  /** PP_ENCKRAND (random-key methods). */
  readonly encryptedKey?: Buffer;
}

function gtkEncryption(params: Params): GtkRequest['encryption'] {
  const code = params.digits(SPE.MTHDDAT, 'SPE_MTHDDAT', { exact: 2 });
  if (code === undefined) return undefined;
  const method = DATA_METHODS[code];
  if (method === undefined) throw invalid(`GTK: SPE_MTHDDAT "${code}" is not a data method.`);
  const random = code.startsWith('9');
  const keyDigits = params.digits(SPE.KEYIDX, 'SPE_KEYIDX', { exact: 2 });
  // SPE_KEYIDX "MD": mandatory when SPE_MTHDDAT is present and not "9x" (§3.3.12, §6.5.12).
  if (!random && keyDigits === undefined)
    throw new WireStatusError(ST.MANDAT, 'GTK: SPE_KEYIDX is mandatory with SPE_MTHDDAT.');
  const workingKey = params.bytes(SPE.WKENC, 'SPE_WKENC', {});
  if (workingKey !== undefined && workingKey.length !== 8 && workingKey.length !== 16)
    throw invalid('GTK: SPE_WKENC is B8 or B16.');
  if ((code[0] === '0' || code[0] === '1') && workingKey === undefined) {
    throw new WireStatusError(ST.MANDAT, 'GTK: SPE_WKENC is mandatory with an MK/WK method.');
  }
  // A TDES working key is double length (S220 §5.3): "1x" cannot take the B8 of a DES one.
  if (code[0] === '1' && workingKey?.length !== 16) throw invalid('GTK: an MK/WK:TDES SPE_WKENC is B16.');
  // SPE_PBKMOD: B256, the modulus of a 2048-bit RSA key.
  const modulus = params.bytes(SPE.PBKMOD, 'SPE_PBKMOD', { exact: 256 });
  const exponent = params.bytes(SPE.PBKEXP, 'SPE_PBKEXP', { min: 1, max: 3 });
  if (random && (modulus === undefined || exponent === undefined)) {
    throw new WireStatusError(ST.MANDAT, 'GTK: SPE_PBKMOD and SPE_PBKEXP are mandatory with a random key.');
  }
  const openDigits = params.digits(SPE.OPNDIG, 'SPE_OPNDIG', { exact: 1 });
  if (openDigits !== undefined && !['0', '2', '4', '6', '8'].includes(openDigits))
    throw invalid(`GTK: SPE_OPNDIG "${openDigits}" is not 0, 2, 4, 6 or 8.`);
  return {
    method,
    ...(keyDigits === undefined ? {} : { keyIndex: Number(keyDigits) }),
    ...(workingKey === undefined ? {} : { workingKey }),
    iv: params.bytes(SPE.IVCBC, 'SPE_IVCBC', { exact: 8 }) ?? Buffer.alloc(8),
    openDigits: Number(openDigits ?? '0'),
    ...(modulus && exponent ? { publicKey: { modulus, exponent } } : {}),
  };
}

export const GTK: DeviceCommand<GtkRequest, GtkResult> = {
  id: 'GTK',
  blocking: false,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    // "O pinpad deve aceitar SPE_TRACKS com qualquer tamanho. Qualquer caractere que não tenha
    // sido fornecido ou que esteja fora da faixa definida deve ser considerado como '0'" (§6.5.12).
    const tracks = params.first(SPE.TRACKS)?.toString('latin1');
    const wanted = (index: number): boolean => tracks === undefined || tracks[index] === '1';
    const encryption = gtkEncryption(params);
    return {
      tracks: { pan: wanted(0), track1: wanted(1), track2: wanted(2), track3: wanted(3) },
      ...(encryption === undefined ? {} : { encryption }),
    };
  },
  encode(result) {
    const items: TlvItem[] = [];
    const add = (id: number, value: Buffer | undefined): void => {
      if (value !== undefined) items.push(item(id, value));
    };
    add(PP.ENCPAN, result.pan);
    add(PP.ENCPANKSN, result.ksns?.pan);
    add(PP.TRACK1, result.track1);
    add(PP.TRK1KSN, result.ksns?.track1);
    add(PP.TRACK2, result.track2);
    add(PP.TRK2KSN, result.ksns?.track2);
    add(PP.TRACK3, result.track3);
    add(PP.TRK3KSN, result.ksns?.track3);
    add(PP.ENCKRAND, result.encryptedKey);
    return abecsReply(items);
  },
};

/**
 * Digits one per nibble, left-aligned, an odd count completed with Fh (PP_ENCPAN, PP_TRACK2,
 * PP_TRACK3, §3.1.3.2): "9781234789432" → 97 81 23 47 89 43 2F. Track 2 symbols map to nibbles:
 * 0–9, ":" Ah, ";" Bh, "<" Ch, "=" Dh, ">" Eh, "?" Fh.
 */
export function packDigits(text: string): Buffer {
  const nibbles = [...text].map((ch) => {
    const code = ch.charCodeAt(0);
    if (code < 0x30 || code > 0x3f) throw new RangeError(`"${ch}" has no nibble in track 2 coding.`);
    return code - 0x30;
  });
  if (nibbles.length % 2 !== 0) nibbles.push(0xf);
  const out = Buffer.alloc(nibbles.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = (nibbles[2 * i]! << 4) | nibbles[2 * i + 1]!;
  return out;
}

// ------------------------------------------------------------------------------------------------
// EBX

/** The SPE_MTHDDAT codes EBX takes (§3.3.6): MK/WK DES and TDES, DUKPT DAT#1 and DAT#3 — no "9x". */
const EBX_METHODS: ReadonlySet<DataMethod> = new Set([
  'mkwkDesEcb',
  'mkwkDesCbc',
  'mkwkEcb',
  'mkwkCbc',
  'dukptDat1Ecb',
  'dukptEcb',
  'dukptCbc',
]);

/** Largest SPE_DATAIN of EBX: "máximo de 256 bytes" (§3.3.6). */
export const MAX_EBX_DATA = 256;

export interface EbxRequest {
  /** SPE_DATAIN (M): a multiple of 8 bytes, at most 256. */
  readonly data: Buffer;
  readonly encryption: {
    readonly method: DataMethod;
    /** SPE_KEYIDX (M): an MK:DAT or DUKPT:DAT slot. */
    readonly keyIndex: number;
    /** SPE_WKENC ("MD": "0x" and "1x"). */
    readonly workingKey?: Buffer;
    /** SPE_IVCBC, zeros when absent. */
    readonly iv: Buffer;
  };
}

export interface EbxResult {
  /** PP_DATAOUT: as long as SPE_DATAIN. */
  readonly data: Buffer;
  /** PP_KSN ("MD": DUKPT methods). */
  readonly ksn?: Buffer;
}

/**
 * EBX (§3.3.6, §6.5.6): SPE_DATAIN, SPE_MTHDDAT and SPE_KEYIDX are mandatory (ST_MANDAT), so is
 * SPE_WKENC for "0x"/"1x"; a SPE_DATAIN that is not a multiple of 8 or passes 256 bytes, or a
 * method EBX does not define, is ST_INVPARM.
 */
export const EBX: DeviceCommand<EbxRequest, EbxResult> = {
  id: 'EBX',
  blocking: false,
  abecs: true,
  decode(packet) {
    const params = paramsOf(packet);
    const data = params.require(params.bytes(SPE.DATAIN, 'SPE_DATAIN', {}), 'SPE_DATAIN');
    const code = params.require(params.digits(SPE.MTHDDAT, 'SPE_MTHDDAT', { exact: 2 }), 'SPE_MTHDDAT');
    const keyDigits = params.require(params.digits(SPE.KEYIDX, 'SPE_KEYIDX', { exact: 2 }), 'SPE_KEYIDX');
    const method = DATA_METHODS[code];
    if (method === undefined || !EBX_METHODS.has(method))
      throw invalid(`EBX: SPE_MTHDDAT "${code}" is not an EBX method.`);
    if (data.length === 0 || data.length % 8 !== 0 || data.length > MAX_EBX_DATA)
      throw invalid(`EBX: SPE_DATAIN has ${data.length} bytes; a multiple of 8, at most ${MAX_EBX_DATA}.`);
    const workingKey = params.bytes(SPE.WKENC, 'SPE_WKENC', {});
    if (workingKey !== undefined && workingKey.length !== 8 && workingKey.length !== 16)
      throw invalid('EBX: SPE_WKENC is B8 or B16.');
    if ((code[0] === '0' || code[0] === '1') && workingKey === undefined)
      throw new WireStatusError(ST.MANDAT, 'EBX: SPE_WKENC is mandatory with an MK/WK method.');
    if (code[0] === '1' && workingKey?.length !== 16) throw invalid('EBX: an MK/WK:TDES SPE_WKENC is B16.');
    return {
      data,
      encryption: {
        method,
        keyIndex: Number(keyDigits),
        ...(workingKey === undefined ? {} : { workingKey }),
        iv: params.bytes(SPE.IVCBC, 'SPE_IVCBC', { exact: 8 }) ?? Buffer.alloc(8),
      },
    };
  },
  encode(result) {
    const items: TlvItem[] = [item(PP.DATAOUT, result.data)];
    if (result.ksn !== undefined) items.push(item(PP.KSN, result.ksn));
    return abecsReply(items);
  },
};
