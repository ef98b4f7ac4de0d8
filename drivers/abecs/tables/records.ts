/**
 * Typed EMV table records (abecs.md §3.13, S220 §4.1): the AID, CAPK and revoked-certificate
 * records a host loads with TLI/TLR/TLE, field by field, converted to and from the opaque
 * `TableRecord` the TLR codec carries (whose `body` is everything after TAB_LEN, TAB_ID, TAB_ACQ
 * and TAB_RECIDX).
 *
 * Layouts (record lengths count the 8-byte header):
 * - AID (§4.1.1): 340 bytes for spec 2.10 and later. A PINPAD must also accept 284 bytes
 *   (BibComp: nothing after T1_ARCOFFLN), 314 bytes (2.0x: nothing after T1_CTLSTACONL) and
 *   longer records whose extra bytes it ignores; `decodeTableEntry` does the same and fills the
 *   missing fields with the values §4.1.1 says the PINPAD assumes ("se não fornecido").
 * - CAPK (§4.1.2): 611 bytes. T2_CHECKSUM is SHA-1 over RID ‖ index ‖ modulus ‖ exponent (the
 *   §4.1.2 example's checksum is exactly that), so it is computed when a file leaves it out.
 * - Revoked certificate (§4.1.3): 26 bytes.
 *
 * The shape is JSON-friendly: every value is a string or a number, hex in upper case, amounts
 * (H8 fields) as numbers of centavos. Fields the spec marks obsolete, fixed, RUF or "assumed when
 * not provided" may be left out (see DEFAULTS below each interface); RUF fields are not exposed
 * at all: they are written as zeros and their contents ignored when read (§4 says the PINPAD
 * "simplesmente despreza" what it cannot use).
 *
 * Table data is not card data; messages may name values, but they name fields first.
 */
import { createHash } from 'node:crypto';
import { InvalidArgumentError } from '../../errors.js';
import type { EmvTable, TableRecord } from '../commands/tlr.js';
import { AbecsFormatError } from '../format-error.js';
import { FieldReader, FieldWriter } from '../fields.js';

// ------------------------------------------------------------------------------------------------
// Public types

/** One record of an acquirer's AID table (S220 §4.1.1). */
export interface AidRecord {
  /** TAB_ACQ: acquirer index 1–99. */
  readonly acquirer: number;
  /** TAB_RECIDX: record index, two printable characters ("01"–"ZZ"). */
  readonly record: string;
  /** T1_AIDLEN + T1_AID: the AID, 5–16 bytes as 10–32 hex digits. */
  readonly aid: string;
  /** T1_APPTYPE: application type GCR/GCX select on, 1–98 (e.g. 1 credit, 2 debit). */
  readonly applicationType: number;
  /** T1_DEFLABEL (S16): default label, obsolete since EMV 4.3. Default "". */
  readonly label?: string;
  /** T1_ICCSTD (N2): application standard, fixed 3 (EMV). Default 3. */
  readonly iccStandard?: number;
  /** T1_APPVER1 (H4, tag 9F09): terminal application version number, option 1. */
  readonly applicationVersion1: string;
  /** T1_APPVER2 (H4, tag 9F09): option 2. Default: applicationVersion1. */
  readonly applicationVersion2?: string;
  /** T1_APPVER3 (H4, tag 9F09): option 3. Default: applicationVersion1. */
  readonly applicationVersion3?: string;
  /** T1_TRMCNTRY (N3, tag 9F1A): terminal country code (76 = Brazil). */
  readonly terminalCountryCode: number;
  /** T1_TRNCURR (N3, tag 5F2A): transaction currency code (986 = BRL). */
  readonly transactionCurrencyCode: number;
  /** T1_TRNCRREXP (N1, tag 5F36): transaction currency exponent. */
  readonly transactionCurrencyExponent: number;
  /** T1_MERCHID (A15, tag 9F16): merchant identifier. Default "" (spaces). */
  readonly merchantIdentifier?: string;
  /** T1_MCC (N4, tag 9F15): merchant category code. */
  readonly merchantCategoryCode: number;
  /** T1_TRMID (A8, tag 9F1C): terminal identification. Default "" (spaces). */
  readonly terminalIdentification?: string;
  /** T1_TRMCAPAB (H6, tag 9F33): terminal capabilities. */
  readonly terminalCapabilities: string;
  /** T1_ADDTRMCP (H10, tag 9F40): additional terminal capabilities. */
  readonly additionalTerminalCapabilities: string;
  /** T1_TRMTYP (N2, tag 9F35): terminal type (e.g. 22). */
  readonly terminalType: number;
  /** T1_TACDEF (H10, DF9F0D): terminal action code – default. */
  readonly tacDefault: string;
  /** T1_TACDEN (H10, DF9F0E): terminal action code – denial. */
  readonly tacDenial: string;
  /** T1_TACONL (H10, DF9F0F): terminal action code – online. */
  readonly tacOnline: string;
  /** T1_FLRLIMIT (H8, tag 9F1B): terminal floor limit in centavos (0–FFFFFFFFh). */
  readonly floorLimit: number;
  /** T1_TCC (A1, tag 9F53): transaction category code. Default "R" (every §4.1.1 example). */
  readonly transactionCategoryCode?: string;
  /** T1_CTLSZEROAM (A1): "1" contactless with a zero amount online only; other: not supported. Default "0". */
  readonly contactlessZeroAmount?: string;
  /**
   * T1_CTLSMODE (A1): contactless kernel for this AID: "1" Visa MSD/qVSDC, "2" qVSDC, "3"/"4"
   * PayPass, "5"/"6" Expresspay, "7" Pure, "8"/"9" D-PAS; "0" or other: no contactless. Default "0".
   */
  readonly contactlessMode?: string;
  /** T1_CTLSTRNLIM (H8, DF8124): contactless transaction limit in centavos. Default 0. */
  readonly contactlessTransactionLimit?: number;
  /** T1_CTLSFLRLIM (H8, DF8123): contactless floor limit in centavos. Default 0. */
  readonly contactlessFloorLimit?: number;
  /** T1_CTLSCVMLIM (H8, DF8126): contactless CVM-required limit in centavos. Default 0. */
  readonly contactlessCvmLimit?: number;
  /** T1_CTLSAPPVER (H4, tag 9F6D): PayPass mag-stripe application version. Default "0000". */
  readonly contactlessApplicationVersion?: string;
  /** T1_TDOLDEF (H40): default TDOL, up to 20 bytes (00-padded on the wire). Default "" (none). */
  readonly tdol?: string;
  /** T1_DDOLDEF (H40): default DDOL, up to 20 bytes (00-padded on the wire). Default "" (none). */
  readonly ddol?: string;
  /** T1_ARCOFFLN (A8): offline response codes, ignored by PINPADs since EMV 4.0. Default "Y1Z1Y3Z3". */
  readonly offlineResponseCodes?: string;
  /** T1_CTLSTACDEF (H10, DF8120): contactless TAC – default. Default: tacDefault. */
  readonly contactlessTacDefault?: string;
  /** T1_CTLSTACDEN (H10, DF8121): contactless TAC – denial. Default: tacDenial. */
  readonly contactlessTacDenial?: string;
  /** T1_CTLSTACONL (H10, DF8122): contactless TAC – online. Default: tacOnline. */
  readonly contactlessTacOnline?: string;
  /** T1_CTLSTRMCP (H6, tag 9F33): contactless terminal capabilities. Default: terminalCapabilities. */
  readonly contactlessTerminalCapabilities?: string;
  /** T1_MOBCVM (N1): cardholder verification on the phone, 1 yes / 0 no. Default 0. */
  readonly mobileCvm?: number;
  /** T1_CTLSADDTC (H10, tag 9F40): contactless additional capabilities. Default: additionalTerminalCapabilities. */
  readonly contactlessAdditionalTerminalCapabilities?: string;
  /** T1_CTLSMBTLIM (H8, DF8125): contactless limit for mobile devices, centavos. Default: contactlessTransactionLimit. */
  readonly contactlessMobileTransactionLimit?: number;
  /** T1_CTLSISSSCR (N1): issuer scripts over contactless, 1 yes / 0 no. Default 0. */
  readonly contactlessIssuerScripts?: number;
}

/** One record of a CAPK table (S220 §4.1.2). */
export interface CapkRecord {
  /** TAB_ACQ: acquirer index 1–99, or 0 for the "aglutinada" table shared by every acquirer. */
  readonly acquirer: number;
  /** TAB_RECIDX: record index, two printable characters. */
  readonly record: string;
  /** T2_RID (H10): registered application provider identifier, 5 bytes. */
  readonly rid: string;
  /** T2_CAPKIDX (H2, tag 9F22): certification authority public key index. */
  readonly capkIndex: string;
  /** T2_EXPLEN + T2_EXP: the public exponent, 1 or 3 bytes ("03" or "010001"). */
  readonly exponent: string;
  /** T2_MODLEN + T2_MOD: the modulus, 1–248 bytes of hex. */
  readonly modulus: string;
  /** T2_CHKSTAT (N1): 1 checksum present, 0 not used (obsolete). Default 1. */
  readonly checksumStatus?: number;
  /**
   * T2_CHECKSUM (H40): SHA-1 of RID ‖ index ‖ modulus ‖ exponent. Default: computed (status 1)
   * or zeros (status 0).
   */
  readonly checksum?: string;
}

/** One record of a revoked-certificate table (S220 §4.1.3). */
export interface RevokedCertificateRecord {
  /** TAB_ACQ: acquirer index 1–99. */
  readonly acquirer: number;
  /** TAB_RECIDX: record index, two printable characters. */
  readonly record: string;
  /** T3_RID (H10). */
  readonly rid: string;
  /** T3_CAPKIDX (H2, tag 9F22). */
  readonly capkIndex: string;
  /** T3_CERTSN (H6): the revoked issuer certificate's serial number. */
  readonly serialNumber: string;
}

export type EmvTableEntry =
  | ({ readonly table: 'aid' } & AidRecord)
  | ({ readonly table: 'capk' } & CapkRecord)
  | ({ readonly table: 'revokedCertificate' } & RevokedCertificateRecord);

/** TAB_LEN of an AID record: BibComp, spec 2.0x, spec 2.10 and later (S220 §4.1.1). */
export type AidRecordLength = 284 | 314 | 340;

export interface EncodeTableOptions {
  /**
   * Layout of AID records: 340 (default, spec 2.10+), or 314/284 for PINPADs of spec 2.0x and
   * BibComp, which drop the fields after T1_CTLSTACONL / T1_ARCOFFLN.
   */
  readonly aidRecordLength?: AidRecordLength;
}

/** Record lengths (TAB_LEN) of S220 §4.1, header included. */
export const TABLE_RECORD_LENGTHS = Object.freeze({
  aid: 340,
  aidLegacy: Object.freeze([284, 314] as const),
  capk: 611,
  revokedCertificate: 26,
});

// ------------------------------------------------------------------------------------------------
// Field descriptors: one table drives encoding, decoding, defaults and validation.

/** TAB_LEN + TAB_ID + TAB_ACQ + TAB_RECIDX. */
const HEADER = 8;

type Values = Record<string, string | number>;

type FieldSpec =
  /** N field holding a number in [min, max]. */
  | { readonly kind: 'n'; readonly length: number; readonly min: number; readonly max: number }
  /** A field: printable ASCII, space-padded; `exact` = must fill the field (A1 flags). */
  | { readonly kind: 'a'; readonly length: number; readonly exact?: boolean }
  /** S field: ISO-8859-1, space-padded. */
  | { readonly kind: 's'; readonly length: number }
  /** H field of exactly `length` hex digits. */
  | { readonly kind: 'h'; readonly length: number }
  /** H8 amount in centavos, as a number. */
  | { readonly kind: 'amount' }
  /** Variable hex left-aligned in `length` digits, padded with 00 bytes (TDOL, DDOL). */
  | { readonly kind: 'padded'; readonly length: number }
  /** Length N(`lengthDigits`) + hex left-aligned in `length` digits (AID, exponent, modulus). */
  | {
      readonly kind: 'counted';
      readonly lengthDigits: number;
      readonly length: number;
      readonly bytes: ByteCount;
    }
  /** RUF: digits written as zeros, read and ignored; not exposed. */
  | { readonly kind: 'ruf'; readonly length: number };

interface Field {
  /** Property name in the typed record; '' for RUF. */
  readonly key: string;
  /** The spec's field name(s), for messages. */
  readonly spec: string;
  readonly format: FieldSpec;
  /** Value when the entry leaves the field out (undefined: mandatory). */
  readonly fallback?: (values: Values) => string | number;
}

const n = (length: number, min: number, max: number): FieldSpec => ({ kind: 'n', length, min, max });
const h = (length: number): FieldSpec => ({ kind: 'h', length });
const same =
  (key: string) =>
  (values: Values): string | number =>
    values[key] ?? '';
const constant = (value: string | number) => (): string | number => value;

/** S220 §4.1.1, in wire order. */
const AID_FIELDS: readonly Field[] = [
  {
    key: 'aid',
    spec: 'T1_AIDLEN/T1_AID',
    format: { kind: 'counted', lengthDigits: 2, length: 32, bytes: { min: 5, max: 16 } },
  },
  { key: 'applicationType', spec: 'T1_APPTYPE', format: n(2, 1, 98) },
  { key: 'label', spec: 'T1_DEFLABEL', format: { kind: 's', length: 16 }, fallback: constant('') },
  { key: 'iccStandard', spec: 'T1_ICCSTD', format: n(2, 0, 99), fallback: constant(3) },
  { key: 'applicationVersion1', spec: 'T1_APPVER1', format: h(4) },
  { key: 'applicationVersion2', spec: 'T1_APPVER2', format: h(4), fallback: same('applicationVersion1') },
  { key: 'applicationVersion3', spec: 'T1_APPVER3', format: h(4), fallback: same('applicationVersion1') },
  { key: 'terminalCountryCode', spec: 'T1_TRMCNTRY', format: n(3, 0, 999) },
  { key: 'transactionCurrencyCode', spec: 'T1_TRNCURR', format: n(3, 0, 999) },
  { key: 'transactionCurrencyExponent', spec: 'T1_TRNCRREXP', format: n(1, 0, 9) },
  { key: 'merchantIdentifier', spec: 'T1_MERCHID', format: { kind: 'a', length: 15 }, fallback: constant('') },
  { key: 'merchantCategoryCode', spec: 'T1_MCC', format: n(4, 0, 9999) },
  { key: 'terminalIdentification', spec: 'T1_TRMID', format: { kind: 'a', length: 8 }, fallback: constant('') },
  { key: 'terminalCapabilities', spec: 'T1_TRMCAPAB', format: h(6) },
  { key: 'additionalTerminalCapabilities', spec: 'T1_ADDTRMCP', format: h(10) },
  { key: 'terminalType', spec: 'T1_TRMTYP', format: n(2, 0, 99) },
  { key: 'tacDefault', spec: 'T1_TACDEF', format: h(10) },
  { key: 'tacDenial', spec: 'T1_TACDEN', format: h(10) },
  { key: 'tacOnline', spec: 'T1_TACONL', format: h(10) },
  { key: 'floorLimit', spec: 'T1_FLRLIMIT', format: { kind: 'amount' } },
  {
    key: 'transactionCategoryCode',
    spec: 'T1_TCC',
    format: { kind: 'a', length: 1, exact: true },
    fallback: constant('R'),
  },
  {
    key: 'contactlessZeroAmount',
    spec: 'T1_CTLSZEROAM',
    format: { kind: 'a', length: 1, exact: true },
    fallback: constant('0'),
  },
  {
    key: 'contactlessMode',
    spec: 'T1_CTLSMODE',
    format: { kind: 'a', length: 1, exact: true },
    fallback: constant('0'),
  },
  { key: 'contactlessTransactionLimit', spec: 'T1_CTLSTRNLIM', format: { kind: 'amount' }, fallback: constant(0) },
  { key: 'contactlessFloorLimit', spec: 'T1_CTLSFLRLIM', format: { kind: 'amount' }, fallback: constant(0) },
  { key: 'contactlessCvmLimit', spec: 'T1_CTLSCVMLIM', format: { kind: 'amount' }, fallback: constant(0) },
  { key: 'contactlessApplicationVersion', spec: 'T1_CTLSAPPVER', format: h(4), fallback: constant('0000') },
  { key: '', spec: 'T1_RUF1', format: { kind: 'ruf', length: 1 } },
  { key: 'tdol', spec: 'T1_TDOLDEF', format: { kind: 'padded', length: 40 }, fallback: constant('') },
  { key: 'ddol', spec: 'T1_DDOLDEF', format: { kind: 'padded', length: 40 }, fallback: constant('') },
  {
    key: 'offlineResponseCodes',
    spec: 'T1_ARCOFFLN',
    format: { kind: 'a', length: 8 },
    fallback: constant('Y1Z1Y3Z3'),
  },
  // -- 284 bytes (BibComp) end here.
  { key: 'contactlessTacDefault', spec: 'T1_CTLSTACDEF', format: h(10), fallback: same('tacDefault') },
  { key: 'contactlessTacDenial', spec: 'T1_CTLSTACDEN', format: h(10), fallback: same('tacDenial') },
  { key: 'contactlessTacOnline', spec: 'T1_CTLSTACONL', format: h(10), fallback: same('tacOnline') },
  // -- 314 bytes (2.0x) end here.
  {
    key: 'contactlessTerminalCapabilities',
    spec: 'T1_CTLSTRMCP',
    format: h(6),
    fallback: same('terminalCapabilities'),
  },
  { key: 'mobileCvm', spec: 'T1_MOBCVM', format: n(1, 0, 1), fallback: constant(0) },
  {
    key: 'contactlessAdditionalTerminalCapabilities',
    spec: 'T1_CTLSADDTC',
    format: h(10),
    fallback: same('additionalTerminalCapabilities'),
  },
  {
    key: 'contactlessMobileTransactionLimit',
    spec: 'T1_CTLSMBTLIM',
    format: { kind: 'amount' },
    fallback: same('contactlessTransactionLimit'),
  },
  { key: 'contactlessIssuerScripts', spec: 'T1_CTLSISSSCR', format: n(1, 0, 1), fallback: constant(0) },
];

/** Index in AID_FIELDS after which each legacy layout stops. */
const AID_FIELDS_UNTIL: Readonly<Record<AidRecordLength, number>> = {
  284: AID_FIELDS.findIndex((field) => field.key === 'offlineResponseCodes') + 1,
  314: AID_FIELDS.findIndex((field) => field.key === 'contactlessTacOnline') + 1,
  340: AID_FIELDS.length,
};

/** S220 §4.1.2, in wire order. */
const CAPK_FIELDS: readonly Field[] = [
  { key: 'rid', spec: 'T2_RID', format: h(10) },
  { key: 'capkIndex', spec: 'T2_CAPKIDX', format: h(2) },
  { key: '', spec: 'T2_RUF1', format: { kind: 'ruf', length: 2 } },
  // "Tamanho em bytes do [...] Exponent (“1” ou “3”)".
  { key: 'exponent', spec: 'T2_EXPLEN/T2_EXP', format: { kind: 'counted', lengthDigits: 1, length: 6, bytes: [1, 3] } },
  {
    key: 'modulus',
    spec: 'T2_MODLEN/T2_MOD',
    format: { kind: 'counted', lengthDigits: 3, length: 496, bytes: { min: 1, max: 248 } },
  },
  { key: 'checksumStatus', spec: 'T2_CHKSTAT', format: n(1, 0, 1), fallback: constant(1) },
  {
    key: 'checksum',
    spec: 'T2_CHECKSUM',
    format: h(40),
    fallback: (values) => (values['checksumStatus'] === 0 ? '0'.repeat(40) : capkChecksum(values)),
  },
  { key: '', spec: 'T2_RUF2', format: { kind: 'ruf', length: 42 } },
];

/** S220 §4.1.3, in wire order. */
const REVOKED_FIELDS: readonly Field[] = [
  { key: 'rid', spec: 'T3_RID', format: h(10) },
  { key: 'capkIndex', spec: 'T3_CAPKIDX', format: h(2) },
  { key: 'serialNumber', spec: 'T3_CERTSN', format: h(6) },
];

const FIELDS: Readonly<Record<EmvTable, readonly Field[]>> = {
  aid: AID_FIELDS,
  capk: CAPK_FIELDS,
  revokedCertificate: REVOKED_FIELDS,
};

const TABLE_NAMES: Readonly<Record<EmvTable, string>> = {
  aid: 'AID',
  capk: 'CAPK',
  revokedCertificate: 'revoked-certificate',
};

function fieldWidth(format: FieldSpec): number {
  switch (format.kind) {
    case 'amount':
      return 8;
    case 'counted':
      return format.lengthDigits + format.length;
    default:
      return format.length;
  }
}

function bodyLength(fields: readonly Field[]): number {
  return fields.reduce((sum, field) => sum + fieldWidth(field.format), 0);
}

/** EMV Book 2 §5.2 / S220 §4.1.2: SHA-1 of RID ‖ CAPK index ‖ modulus ‖ exponent. */
function capkChecksum(values: Values): string {
  const hex = `${String(values['rid'])}${String(values['capkIndex'])}${String(values['modulus'])}${String(values['exponent'])}`;
  return createHash('sha1').update(Buffer.from(hex, 'hex')).digest('hex').toUpperCase();
}

// ------------------------------------------------------------------------------------------------
// Encoding

const HEX = /^(?:[0-9A-Fa-f]{2})*$/;
const MAX_AMOUNT = 0xffffffff;

function describe(table: EmvTable, field: Field): string {
  return `${TABLE_NAMES[table]} record field ${field.key} (${field.spec})`;
}

/** Checks a value from the entry (possibly untyped JSON) against its field; returns it normalised. */
function checkValue(table: EmvTable, field: Field, value: unknown): string | number {
  const name = describe(table, field);
  const format = field.format;
  switch (format.kind) {
    case 'n':
    case 'amount': {
      const [min, max] = format.kind === 'n' ? [format.min, format.max] : [0, MAX_AMOUNT];
      if (typeof value !== 'number' || !Number.isInteger(value))
        throw new InvalidArgumentError(`The ${name} must be an integer.`);
      if (value < min || value > max) {
        throw new InvalidArgumentError(`The ${name} must be from ${min} to ${max}, got ${value}.`);
      }
      return value;
    }
    case 'a':
    case 's': {
      if (typeof value !== 'string') throw new InvalidArgumentError(`The ${name} must be a string.`);
      if (format.kind === 'a' && !/^[\x20-\x7e]*$/.test(value))
        throw new InvalidArgumentError(`The ${name} must be printable ASCII.`);
      if (format.kind === 's' && !/^[\x20-\x7e\xa0-\xff]*$/.test(value)) {
        throw new InvalidArgumentError(`The ${name} must be printable ISO-8859-1 text.`);
      }
      if (format.kind === 'a' && format.exact === true && value.length !== format.length) {
        throw new InvalidArgumentError(`The ${name} must be exactly ${format.length} character(s).`);
      }
      if (value.length > format.length) {
        throw new InvalidArgumentError(`The ${name} takes at most ${format.length} characters, got ${value.length}.`);
      }
      return value;
    }
    case 'h':
    case 'padded':
    case 'counted': {
      if (typeof value !== 'string' || !HEX.test(value)) {
        throw new InvalidArgumentError(`The ${name} must be a string of hex digit pairs.`);
      }
      const upper = value.toUpperCase();
      if (format.kind === 'h' && upper.length !== format.length) {
        throw new InvalidArgumentError(`The ${name} must be ${format.length} hex digits, got ${upper.length}.`);
      }
      if (format.kind === 'padded' && upper.length > format.length) {
        throw new InvalidArgumentError(
          `The ${name} takes at most ${format.length / 2} bytes, got ${upper.length / 2}.`,
        );
      }
      if (format.kind === 'counted') {
        const bytes = upper.length / 2;
        if (!inRange(bytes, format.bytes))
          throw new InvalidArgumentError(`The ${name} must be ${bytesText(format.bytes)} bytes long, got ${bytes}.`);
      }
      return upper;
    }
    case 'ruf':
      return 0;
  }
}

type ByteCount = readonly number[] | { readonly min: number; readonly max: number };

function inRange(value: number, range: ByteCount): boolean {
  return 'min' in range ? value >= range.min && value <= range.max : range.includes(value);
}

function bytesText(range: ByteCount): string {
  return 'min' in range ? `${range.min}–${range.max}` : range.join(' or ');
}

function writeField(writer: FieldWriter, field: Field, value: string | number): void {
  const format = field.format;
  const name = field.spec;
  switch (format.kind) {
    case 'n':
      writer.n(name, value, format.length);
      break;
    case 'amount':
      writer.h(name, (value as number).toString(16).toUpperCase().padStart(8, '0'), 8);
      break;
    case 'a':
      writer.a(name, value as string, format.length);
      break;
    case 's':
      writer.s(name, value as string, format.length);
      break;
    case 'h':
      writer.h(name, value as string, format.length);
      break;
    case 'padded':
      writer.h(name, (value as string).padEnd(format.length, '0'), format.length);
      break;
    case 'counted': {
      const hex = value as string;
      writer
        .n(`${name} length`, hex.length / 2, format.lengthDigits)
        .h(name, hex.padEnd(format.length, '0'), format.length);
      break;
    }
    case 'ruf':
      writer.n(name, 0, format.length);
      break;
  }
}

/** The entry's values with defaults applied, checked field by field (unknown fields refused). */
function resolveValues(table: EmvTable, entry: Readonly<Record<string, unknown>>): Values {
  const fields = FIELDS[table];
  const known = new Set([
    'table',
    'acquirer',
    'record',
    ...fields.map((field) => field.key).filter((key) => key !== ''),
  ]);
  for (const key of Object.keys(entry)) {
    if (!known.has(key))
      throw new InvalidArgumentError(`A ${TABLE_NAMES[table]} record has no field "${key}" (S220 §4.1).`);
  }
  const values: Values = {};
  for (const field of fields) {
    if (field.key === '') continue;
    const given = entry[field.key];
    if (given === undefined) {
      if (!field.fallback) throw new InvalidArgumentError(`The ${describe(table, field)} is missing.`);
      // Fallbacks refer only to fields listed before them, already checked.
      values[field.key] = checkValue(table, field, field.fallback(values));
    } else {
      values[field.key] = checkValue(table, field, given);
    }
  }
  return values;
}

function checkHeader(table: EmvTable, acquirer: unknown, record: unknown): { acquirer: number; record: string } {
  // Only CAPK tables have an acquirer "00": the keys shared by every acquirer (S220 §4.1.2).
  const min = table === 'capk' ? 0 : 1;
  if (typeof acquirer !== 'number' || !Number.isInteger(acquirer) || acquirer < min || acquirer > 99) {
    throw new InvalidArgumentError(
      `The ${TABLE_NAMES[table]} record's acquirer (TAB_ACQ) must be an integer from ${min} to 99.`,
    );
  }
  if (typeof record !== 'string' || !/^[\x21-\x7e]{2}$/.test(record)) {
    throw new InvalidArgumentError(
      `The ${TABLE_NAMES[table]} record's index (TAB_RECIDX) must be two printable ASCII characters, e.g. "01".`,
    );
  }
  return { acquirer, record };
}

/**
 * The TLR record of a typed entry. Throws InvalidArgumentError naming the field when a value
 * does not fit (wrong type, bad hex, too long, out of range, unknown field).
 */
export function encodeTableEntry(entry: EmvTableEntry, options: EncodeTableOptions = {}): TableRecord {
  const raw = entry as unknown;
  if (typeof raw !== 'object' || raw === null) throw new InvalidArgumentError('An EMV table entry must be an object.');
  const object = raw as Readonly<Record<string, unknown>>;
  const table = object['table'];
  if (table !== 'aid' && table !== 'capk' && table !== 'revokedCertificate') {
    throw new InvalidArgumentError('An EMV table entry\'s "table" must be "aid", "capk" or "revokedCertificate".');
  }
  const header = checkHeader(table, object['acquirer'], object['record']);
  const values = resolveValues(table, object);
  const length = table === 'aid' ? (options.aidRecordLength ?? 340) : undefined;
  if (length !== undefined && AID_FIELDS_UNTIL[length] === undefined) {
    throw new InvalidArgumentError('aidRecordLength must be 284, 314 or 340 (S220 §4.1.1).');
  }
  const fields = table === 'aid' ? AID_FIELDS.slice(0, AID_FIELDS_UNTIL[length ?? 340]) : FIELDS[table];
  const writer = new FieldWriter();
  for (const field of fields) writeField(writer, field, field.key === '' ? 0 : (values[field.key] ?? 0));
  return { table, acquirer: header.acquirer, record: header.record, body: writer.toBuffer().toString('latin1') };
}

// ------------------------------------------------------------------------------------------------
// Decoding

function readField(reader: FieldReader, field: Field): string | number | undefined {
  const format = field.format;
  const name = field.spec;
  switch (format.kind) {
    case 'n': {
      const value = reader.n(name, format.length);
      if (value < format.min || value > format.max)
        throw reader.error(`${name} must be from ${format.min} to ${format.max}`);
      return value;
    }
    case 'amount':
      return parseInt(reader.hex(name, 8), 16);
    case 'a': {
      const text = format.exact === true ? reader.textRaw(name, format.length) : reader.text(name, format.length);
      if (!/^[\x20-\x7e]*$/.test(text)) throw reader.error(`${name} must be printable ASCII`);
      return text;
    }
    case 's': {
      const text = reader.text(name, format.length);
      if (!/^[\x20-\x7e\xa0-\xff]*$/.test(text)) throw reader.error(`${name} must be printable text`);
      return text;
    }
    case 'h':
      return reader.hex(name, format.length);
    case 'padded':
      // The list is left-aligned and completed with 00 bytes: trailing 00 bytes are padding.
      return reader.hex(name, format.length).replace(/(?:00)+$/, '');
    case 'counted': {
      const bytes = reader.n(`${name} length`, format.lengthDigits);
      if (!inRange(bytes, format.bytes)) throw reader.error(`${name} length must be ${bytesText(format.bytes)} bytes`);
      return reader.hex(name, format.length).slice(0, bytes * 2);
    }
    case 'ruf':
      // RUF: "preencher com zeros"; a PINPAD ignores what is there, digits or not.
      reader.bytes(name, format.length);
      return undefined;
  }
}

/**
 * The typed entry of a TLR record, every field set (defaults filled in for 284/314-byte AID
 * records as S220 §4.1.1 says the PINPAD assumes them). Throws AbecsFormatError
 * 'MALFORMED_COMMAND' for a body of the wrong length or a field of the wrong format.
 */
export function decodeTableEntry(record: TableRecord): EmvTableEntry {
  const { table } = record;
  const what = `${TABLE_NAMES[table]} table record`;
  const fail = (detail: string): AbecsFormatError =>
    new AbecsFormatError('MALFORMED_COMMAND', `Malformed ${what}: ${detail}.`);
  if (!Number.isInteger(record.acquirer) || record.acquirer < (table === 'capk' ? 0 : 1) || record.acquirer > 99) {
    throw fail(`TAB_ACQ ${record.acquirer} is not an acquirer index`);
  }
  const body = Buffer.from(record.body, 'latin1');
  const total = HEADER + body.length;
  let fields = FIELDS[table];
  if (table === 'aid') {
    // 284 and 314 bytes are older layouts; more than 340 is a later one whose extra bytes are
    // ignored (S220 §4.1.1, TAB_LEN).
    const layout = total === 284 || total === 314 ? total : total >= 340 ? 340 : undefined;
    if (layout === undefined) throw fail(`TAB_LEN is ${total}; an AID record has 284, 314 or at least 340 bytes`);
    fields = AID_FIELDS.slice(0, AID_FIELDS_UNTIL[layout]);
  } else {
    const expected = table === 'capk' ? TABLE_RECORD_LENGTHS.capk : TABLE_RECORD_LENGTHS.revokedCertificate;
    if (total !== expected) throw fail(`TAB_LEN is ${total}, not ${expected}`);
  }
  const reader = new FieldReader(body.subarray(0, bodyLength(fields)), what, 'MALFORMED_COMMAND');
  const values: Values = {};
  for (const field of fields) {
    const value = readField(reader, field);
    if (value !== undefined && field.key !== '') values[field.key] = value;
  }
  reader.end();
  // Fields a legacy record does not carry take the values the PINPAD assumes.
  for (const field of FIELDS[table]) {
    if (values[field.key] === undefined && field.key !== '' && field.fallback)
      values[field.key] = field.fallback(values);
  }
  return { table, acquirer: record.acquirer, record: record.record, ...values } as EmvTableEntry;
}

/** The entry with every default filled in and hex upper-cased: what decode(encode(entry)) gives. */
export function normalizeTableEntry(entry: EmvTableEntry): EmvTableEntry {
  return decodeTableEntry(encodeTableEntry(entry));
}

/** The AID records among decoded entries (for the simulator's application selection). */
export function isAidEntry(entry: EmvTableEntry): entry is { readonly table: 'aid' } & AidRecord {
  return entry.table === 'aid';
}
