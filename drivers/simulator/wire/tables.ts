/**
 * EMV table records as TLR carries them (S220 §3.5.3, §4.1; abecs.md §3.13).
 *
 * Every record starts with TAB_LEN (N3, the record's total length, itself included), TAB_ID
 * (N1: 1 AID, 2 CAPK, 3 revoked certificates), TAB_ACQ (N2, 01–99) and TAB_RECIDX (A2, 01–ZZ).
 * TAB_LEN delimits the records of a TLR block, so a block whose lengths do not add up is a
 * malformed command (ST_INVPARM); a record that is delimited but unknown, inconsistent or with
 * invalid fields is not an error — the PINPAD ignores it (S220 §6.7.3, §4 "despreza registros
 * cujo conteúdo é notavelmente inválido").
 *
 * AID records (§4.1.1) come in three sizes: 284 bytes (BibComp, up to T1_ARCOFFLN), 314 (2.0x,
 * up to T1_CTLSTACONL) and 340 (2.10+); longer ones carry future fields, which are ignored.
 */
import { isAlphaByte, isDigitByte, isHexByte, isTextByte, invalid } from './fields.js';

export type TableKind = 'aid' | 'capk' | 'revoked';

export interface TableRecord {
  readonly table: TableKind;
  /** TAB_ACQ, 1–99 (0 only for aggregated CAPK records, §4.1.2). */
  readonly acquirer: number;
  /** TAB_RECIDX. */
  readonly record: string;
  /** The whole record, TAB_LEN included. */
  readonly raw: Buffer;
}

/** The fields of an AID record the simulated PINPAD selects applications with. */
export interface AidRecord {
  readonly acquirer: number;
  readonly record: string;
  /** T1_AID, uppercase hex, T1_AIDLEN bytes. */
  readonly aid: string;
  /** T1_APPTYPE, 1–98. */
  readonly applicationType: number;
  /** T1_ICCSTD ("03" = EMV). */
  readonly iccStandard: number;
  readonly defaultLabel: string;
  /** T1_CTLSZEROAM: "1" = zero amounts online only. */
  readonly contactlessZeroAmount: string;
  /** T1_CTLSMODE: "1"–"9" a contactless kernel, anything else none. */
  readonly contactlessMode: string;
  /** T1_CTLSTRNLIM, in cents. */
  readonly contactlessTransactionLimit: number;
  /** T1_CTLSMBTLIM (340-byte records); T1_CTLSTRNLIM when absent (§4.1.1). */
  readonly contactlessMobileTransactionLimit: number;
}

const TABLE_IDS: Readonly<Record<string, TableKind>> = { '1': 'aid', '2': 'capk', '3': 'revoked' };
const HEADER = 8;

/** The records of a TLR command block (TLR_NREC N2 + the records); ST_INVPARM if they do not add up. */
export function decodeTlrBlock(block: Buffer): Buffer[] {
  if (block.length < 2 || !isDigitByte(block[0]!) || !isDigitByte(block[1]!))
    throw invalid('TLR: TLR_NREC must be two digits.');
  const count = Number(block.subarray(0, 2).toString('latin1'));
  const records: Buffer[] = [];
  let at = 2;
  while (at < block.length) {
    const lengthField = block.subarray(at, at + 3);
    if (lengthField.length < 3 || !lengthField.every(isDigitByte))
      throw invalid(`TLR: record ${records.length + 1} has no TAB_LEN.`);
    const length = Number(lengthField.toString('latin1'));
    if (length < HEADER || at + length > block.length) {
      throw invalid(`TLR: record ${records.length + 1} declares ${length} bytes, which do not fit the block.`);
    }
    records.push(Buffer.from(block.subarray(at, at + length)));
    at += length;
  }
  if (records.length !== count)
    throw invalid(`TLR: TLR_NREC says ${count} records, the block holds ${records.length}.`);
  return records;
}

/** The header of a delimited record; undefined when the record is to be ignored. */
export function tableRecordOf(raw: Buffer): TableRecord | undefined {
  const table = TABLE_IDS[String.fromCharCode(raw[3] ?? 0)];
  const acquirer = raw.subarray(4, 6);
  const record = raw.subarray(6, 8).toString('latin1');
  if (table === undefined || acquirer.length !== 2 || !acquirer.every(isDigitByte) || !/^[0-9A-Z]{2}$/.test(record))
    return undefined;
  return { table, acquirer: Number(acquirer.toString('latin1')), record, raw };
}

type Format = 'N' | 'A' | 'S' | 'H';
const FORMAT_CHECK: Readonly<Record<Format, (byte: number) => boolean>> = {
  N: isDigitByte,
  A: isAlphaByte,
  S: isTextByte,
  H: isHexByte,
};

/** §4.1.1 after TAB_RECIDX: field, format, size. */
const AID_LAYOUT: ReadonlyArray<readonly [string, Format, number]> = [
  ['T1_AIDLEN', 'N', 2],
  ['T1_AID', 'H', 32],
  ['T1_APPTYPE', 'N', 2],
  ['T1_DEFLABEL', 'S', 16],
  ['T1_ICCSTD', 'N', 2],
  ['T1_APPVER1', 'H', 4],
  ['T1_APPVER2', 'H', 4],
  ['T1_APPVER3', 'H', 4],
  ['T1_TRMCNTRY', 'N', 3],
  ['T1_TRNCURR', 'N', 3],
  ['T1_TRNCRREXP', 'N', 1],
  ['T1_MERCHID', 'A', 15],
  ['T1_MCC', 'N', 4],
  ['T1_TRMID', 'A', 8],
  ['T1_TRMCAPAB', 'H', 6],
  ['T1_ADDTRMCP', 'H', 10],
  ['T1_TRMTYP', 'N', 2],
  ['T1_TACDEF', 'H', 10],
  ['T1_TACDEN', 'H', 10],
  ['T1_TACONL', 'H', 10],
  ['T1_FLRLIMIT', 'H', 8],
  ['T1_TCC', 'A', 1],
  ['T1_CTLSZEROAM', 'A', 1],
  ['T1_CTLSMODE', 'A', 1],
  ['T1_CTLSTRNLIM', 'H', 8],
  ['T1_CTLSFLRLIM', 'H', 8],
  ['T1_CTLSCVMLIM', 'H', 8],
  ['T1_CTLSAPPVER', 'H', 4],
  ['T1_RUF1', 'N', 1],
  ['T1_TDOLDEF', 'H', 40],
  ['T1_DDOLDEF', 'H', 40],
  ['T1_ARCOFFLN', 'A', 8],
  // 2.0x (314 bytes)
  ['T1_CTLSTACDEF', 'H', 10],
  ['T1_CTLSTACDEN', 'H', 10],
  ['T1_CTLSTACONL', 'H', 10],
  // 2.10+ (340 bytes)
  ['T1_CTLSTRMCP', 'H', 6],
  ['T1_MOBCVM', 'N', 1],
  ['T1_CTLSADDTC', 'H', 10],
  ['T1_CTLSMBTLIM', 'H', 8],
  ['T1_CTLSISSSCR', 'N', 1],
];

/** Record sizes of §4.1.1: BibComp, 2.0x, 2.10+. */
export const AID_RECORD_SIZES = [284, 314, 340] as const;

/** An AID record's fields, or undefined when it is not a valid AID record (it is then ignored). */
export function decodeAidRecord(record: TableRecord): AidRecord | undefined {
  if (record.table !== 'aid' || record.acquirer < 1) return undefined;
  const { raw } = record;
  if (raw.length !== 284 && raw.length !== 314 && raw.length < 340) return undefined;
  const fields = new Map<string, string>();
  let at = HEADER;
  for (const [name, format, size] of AID_LAYOUT) {
    if (at + size > raw.length) break;
    const value = raw.subarray(at, at + size);
    if (!value.every(FORMAT_CHECK[format])) return undefined;
    fields.set(name, value.toString('latin1'));
    at += size;
  }
  const aidLength = Number(fields.get('T1_AIDLEN'));
  const applicationType = Number(fields.get('T1_APPTYPE'));
  if (aidLength < 5 || aidLength > 16 || applicationType < 1 || applicationType > 98) return undefined;
  const hexNumber = (name: string): number | undefined => {
    const value = fields.get(name);
    return value === undefined ? undefined : parseInt(value, 16);
  };
  const transactionLimit = hexNumber('T1_CTLSTRNLIM')!;
  return {
    acquirer: record.acquirer,
    record: record.record,
    aid: fields
      .get('T1_AID')!
      .slice(0, aidLength * 2)
      .toUpperCase(),
    applicationType,
    iccStandard: Number(fields.get('T1_ICCSTD')),
    defaultLabel: fields.get('T1_DEFLABEL')!.trimEnd(),
    contactlessZeroAmount: fields.get('T1_CTLSZEROAM')!,
    contactlessMode: fields.get('T1_CTLSMODE')!,
    contactlessTransactionLimit: transactionLimit,
    contactlessMobileTransactionLimit: hexNumber('T1_CTLSMBTLIM') ?? transactionLimit,
  };
}

/** What a store's TEF typically puts in an AID record; the rest takes the layout's neutral value. */
export interface AidRecordFields {
  readonly acquirer: number;
  readonly record: string;
  readonly aid: string;
  readonly applicationType: number;
  readonly label: string;
  /** T1_CTLSMODE: "0" no contactless, "1"–"9" a kernel. */
  readonly contactlessMode: string;
  /** T1_CTLSTRNLIM (and T1_CTLSMBTLIM), in cents. */
  readonly contactlessLimit: number;
}

const hex8 = (cents: number): string => cents.toString(16).toUpperCase().padStart(8, '0');

/**
 * A 340-byte AID record (§4.1.1) laid out field by field from AID_LAYOUT: the records a
 * PINPAD already holds when it arrives at the store (profiles' factory tables). Brazilian
 * terminal values: country 076, currency 986 exponent 2, terminal type 22, MCC 5999.
 */
export function encodeAidRecord(fields: AidRecordFields): TableRecord {
  const values: Readonly<Record<string, string>> = {
    T1_AIDLEN: String(fields.aid.length / 2).padStart(2, '0'),
    T1_AID: fields.aid.toUpperCase().padEnd(32, '0'),
    T1_APPTYPE: String(fields.applicationType).padStart(2, '0'),
    T1_DEFLABEL: fields.label.padEnd(16).slice(0, 16),
    T1_ICCSTD: '03',
    T1_APPVER1: '008C',
    T1_APPVER2: '008C',
    T1_APPVER3: '008C',
    T1_TRMCNTRY: '076',
    T1_TRNCURR: '986',
    T1_TRNCRREXP: '2',
    T1_MCC: '5999',
    T1_TRMCAPAB: 'E0F0C8',
    T1_ADDTRMCP: '7000F0A001',
    T1_TRMTYP: '22',
    T1_TACDEF: 'DC4000A800',
    T1_TACDEN: '0010000000',
    T1_TACONL: 'DC4004F800',
    T1_TCC: 'R',
    T1_CTLSZEROAM: '0',
    T1_CTLSMODE: fields.contactlessMode,
    T1_CTLSTRNLIM: hex8(fields.contactlessLimit),
    T1_CTLSCVMLIM: hex8(20_000),
    T1_ARCOFFLN: 'Y1Z1Y3Z3',
    T1_CTLSTRMCP: 'E0F0C8',
    T1_CTLSADDTC: '7000F0A001',
    T1_CTLSMBTLIM: hex8(fields.contactlessLimit),
  };
  const neutral: Readonly<Record<Format, string>> = { N: '0', A: ' ', S: ' ', H: '0' };
  const body = AID_LAYOUT.map(([name, format, size]) =>
    (values[name] ?? neutral[format].repeat(size)).padEnd(size, neutral[format]).slice(0, size),
  ).join('');
  const header = `${String(HEADER + body.length).padStart(3, '0')}1${String(fields.acquirer).padStart(2, '0')}${fields.record}`;
  const raw = Buffer.from(header + body, 'latin1');
  return { table: 'aid', acquirer: fields.acquirer, record: fields.record, raw };
}
