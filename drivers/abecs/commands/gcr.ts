/**
 * GCR — get card (legacy, blocking; abecs.md §3.14, S220 §3.6.1). One fixed-field block in,
 * a 342-byte record plus acquirer-specific data out.
 *
 * When the PINPAD answers 020 (ST_TABVERDIF) the SPE loads tables (TLI/TLR/TLE) and sends a
 * bare `GCR`, which resumes with the saved parameters: that is the `{ resume: true }` request.
 * 020 stays an error status here; the caller handles it.
 */
import type { CommandCodec, CommandEnvelope, ResponseEnvelope } from '../codec.js';
import { FieldReader, FieldWriter } from '../fields.js';
import { nonEmptyBlocks } from '../envelope.js';
import { AbecsFormatError } from '../format-error.js';
import {
  type AidRef,
  type CardType,
  cardTypeOf,
  checkAscii,
  checkCardType,
  checkDigits,
  checkRecordIndex,
  decodeAidRef,
  encodeAidRef,
  singleBlock,
} from '../card-params.js';

export interface GcrStartRequest {
  readonly resume?: false;
  /** GCR_ACQIDXREQ: acquirer whose tables are used, 0 = all. */
  readonly acquirer: number;
  /** GCR_APPTYPREQ: 99 = any application type, 0 = only the explicit `applications` list. */
  readonly appType: number;
  /** GCR_AMOUNT in centavos (0 when not known yet). */
  readonly amount: number;
  /** GCR_DATE, "YYMMDD". */
  readonly date: string;
  /** GCR_TIME, "HHMMSS". */
  readonly time: string;
  /** GCR_TABVER: the table version the SPE expects (A10). */
  readonly tableVersion: string;
  /** GCR_IDAPPn: explicit AID table records (used with appType 0). */
  readonly applications: readonly AidRef[];
  /** GCR_CTLSON; absent means the PINPAD's default (contactless on). */
  readonly ctlsEnabled?: boolean;
}

/** The bare `GCR` sent after a 020 answer and a table load. */
export interface GcrResumeRequest {
  readonly resume: true;
}

export type GcrRequest = GcrStartRequest | GcrResumeRequest;

export interface GcrResult {
  readonly cardType: CardType | 'other';
  /** GCR_CARDTYPE as sent. */
  readonly cardTypeCode: string;
  /** GCR_STATCHIP: 0 ok, 1 error allowing fallback, 2 required application unsupported. */
  readonly chipStatus: number;
  readonly appType: number;
  readonly acquirer: number;
  /** GCR_RECIDX (A2). */
  readonly record: string;
  readonly track1: string;
  readonly track2: string;
  readonly track3: string;
  readonly pan: string;
  /** GCR_PANSEQNO, two digits. */
  readonly panSequence: string;
  readonly applicationLabel: string;
  /** GCR_SRVCODE, three digits. */
  readonly serviceCode: string;
  readonly cardholderName: string;
  /** GCR_CARDEXP, "YYMMDD". */
  readonly expiry: string;
  /** GCR_ISSCNTRY, three digits. */
  readonly issuerCountry: string;
  /** GCR_ACQRD: acquirer 01 returns 66 characters, 02 "9F0702xxxx", others nothing. */
  readonly acquirerData: string;
}

/** Fixed fields before the application list: 2+2+12+6+6+10+2. */
const REQUEST_FIXED = 40;
/** Response bytes before GCR_ACQRD. */
export const GCR_RESPONSE_FIXED = 342;
const RUF1_LENGTH = 29;

function encodeStart(req: GcrStartRequest): Buffer {
  checkDigits('date', req.date, 6);
  checkDigits('time', req.time, 6);
  checkAscii('tableVersion', req.tableVersion, 10);
  const w = new FieldWriter()
    .n('acquirer', req.acquirer, 2)
    .n('appType', req.appType, 2)
    .n('amount', req.amount, 12)
    .n('date', req.date, 6)
    .n('time', req.time, 6)
    .a('tableVersion', req.tableVersion, 10)
    .n('applications count', req.applications.length, 2);
  req.applications.forEach((app, i) => w.a(`applications[${i}]`, encodeAidRef(app, `applications[${i}]`), 4));
  if (req.ctlsEnabled !== undefined) w.n('ctlsEnabled', req.ctlsEnabled ? 1 : 0, 1);
  return w.toBuffer();
}

function decodeStart(block: Buffer): GcrStartRequest {
  const what = 'GCR command';
  if (block.length < REQUEST_FIXED) {
    throw new AbecsFormatError('MALFORMED_COMMAND', `Malformed ${what}: mandatory fields are missing.`, 19);
  }
  const r = new FieldReader(block, what, 'MALFORMED_COMMAND');
  const acquirer = r.n('GCR_ACQIDXREQ', 2);
  const appType = r.n('GCR_APPTYPREQ', 2);
  const amount = r.n('GCR_AMOUNT', 12);
  const date = r.digits('GCR_DATE', 6);
  const time = r.digits('GCR_TIME', 6);
  const tableVersion = r.text('GCR_TABVER', 10);
  const count = r.n('GCR_QTDAPP', 2);
  const applications: AidRef[] = [];
  for (let i = 0; i < count; i++) {
    applications.push(decodeAidRef(r.textRaw('GCR_IDAPP', 4), what, 'MALFORMED_COMMAND'));
  }
  const req: GcrStartRequest = { acquirer, appType, amount, date, time, tableVersion, applications };
  if (r.remaining === 0) return req;
  const ctls = r.digits('GCR_CTLSON', 1);
  r.end();
  if (ctls !== '0' && ctls !== '1') throw r.error('GCR_CTLSON must be 0 or 1');
  return { ...req, ctlsEnabled: ctls === '1' };
}

/** A track-like field: an N length followed by a space-padded A field of `size`. */
function readSized(r: FieldReader, name: string, lengthDigits: number, size: number): string {
  const length = r.n(`${name}LEN`, lengthDigits);
  if (length > size) throw r.error(`${name}LEN is ${length}, more than the ${size}-byte field`);
  return r.textRaw(name, size).slice(0, length);
}

function writeSized(w: FieldWriter, name: string, value: string, lengthDigits: number, size: number): void {
  checkAscii(name, value, size);
  w.n(`${name} length`, value.length, lengthDigits).a(name, value, size);
}

function encodeResult(res: GcrResult): Buffer {
  checkCardType(res.cardType, res.cardTypeCode);
  checkRecordIndex(res.record, 'record');
  checkDigits('panSequence', res.panSequence, 2);
  checkDigits('serviceCode', res.serviceCode, 3);
  checkDigits('expiry', res.expiry, 6);
  checkDigits('issuerCountry', res.issuerCountry, 3);
  checkAscii('applicationLabel', res.applicationLabel, 16);
  checkAscii('cardholderName', res.cardholderName, 26);
  checkAscii('acquirerData', res.acquirerData, 999 - GCR_RESPONSE_FIXED);
  const w = new FieldWriter()
    .n('cardTypeCode', res.cardTypeCode, 2)
    .n('chipStatus', res.chipStatus, 1)
    .n('appType', res.appType, 2)
    .n('acquirer', res.acquirer, 2)
    .a('record', res.record, 2);
  writeSized(w, 'track1', res.track1, 2, 76);
  writeSized(w, 'track2', res.track2, 2, 37);
  writeSized(w, 'track3', res.track3, 3, 104);
  writeSized(w, 'pan', res.pan, 2, 19);
  return w
    .n('panSequence', res.panSequence, 2)
    .a('applicationLabel', res.applicationLabel, 16)
    .n('serviceCode', res.serviceCode, 3)
    .a('cardholderName', res.cardholderName, 26)
    .n('expiry', res.expiry, 6)
    .n('RUF1', '0'.repeat(RUF1_LENGTH), RUF1_LENGTH)
    .n('issuerCountry', res.issuerCountry, 3)
    .n('acquirerData length', res.acquirerData.length, 3)
    .a('acquirerData', res.acquirerData, res.acquirerData.length)
    .toBuffer();
}

function decodeResult(block: Buffer): GcrResult {
  const r = new FieldReader(block, 'GCR response');
  const cardTypeCode = r.digits('GCR_CARDTYPE', 2);
  const chipStatus = r.n('GCR_STATCHIP', 1);
  const appType = r.n('GCR_APPTYPE', 2);
  const acquirer = r.n('GCR_ACQIDX', 2);
  const record = r.textRaw('GCR_RECIDX', 2);
  const track1 = readSized(r, 'GCR_TRK1', 2, 76);
  const track2 = readSized(r, 'GCR_TRK2', 2, 37);
  // In encrypted-PAN mode GCR_TRK3LEN is sent as spaces (S220 §3.6.1): take the padded field.
  let track3: string;
  if (block.subarray(r.position, r.position + 3).toString('latin1') === '   ') {
    r.bytes('GCR_TRK3LEN', 3);
    track3 = r.text('GCR_TRK3', 104);
  } else {
    track3 = readSized(r, 'GCR_TRK3', 3, 104);
  }
  const pan = readSized(r, 'GCR_PAN', 2, 19);
  const panSequence = r.digits('GCR_PANSEQNO', 2);
  const applicationLabel = r.text('GCR_APPLABEL', 16);
  const serviceCode = r.digits('GCR_SRVCODE', 3);
  const cardholderName = r.text('GCR_CHNAME', 26);
  const expiry = r.digits('GCR_CARDEXP', 6);
  r.bytes('GCR_RUF1', RUF1_LENGTH);
  const issuerCountry = r.digits('GCR_ISSCNTRY', 3);
  const acquirerDataLength = r.n('GCR_ACQRDLEN', 3);
  const acquirerData = r.textRaw('GCR_ACQRD', acquirerDataLength);
  // No r.end(): the spec's own magstripe example pads the block to 352 bytes after an empty
  // GCR_ACQRD (ACQRDLEN "000" + ten zeros), so bytes past the declared data are ignored.
  return {
    cardType: cardTypeOf(cardTypeCode),
    cardTypeCode,
    chipStatus,
    appType,
    acquirer,
    record,
    track1,
    track2,
    track3,
    pan,
    panSequence,
    applicationLabel,
    serviceCode,
    cardholderName,
    expiry,
    issuerCountry,
    acquirerData,
  };
}

export const gcrCommand: CommandCodec<GcrRequest, GcrResult> = {
  id: 'GCR',
  blocking: true,

  encodeRequest(req: GcrRequest): CommandEnvelope {
    return { id: 'GCR', blocks: req.resume === true ? [] : [encodeStart(req)] };
  },

  decodeRequest(cmd: CommandEnvelope): GcrRequest {
    const blocks = nonEmptyBlocks(cmd.blocks);
    if (blocks.length === 0) return { resume: true };
    return decodeStart(singleBlock(blocks, 'GCR command', 'MALFORMED_COMMAND'));
  },

  encodeResponse(res: GcrResult): ResponseEnvelope {
    return { id: 'GCR', status: 0, blocks: [encodeResult(res)] };
  },

  decodeResponse(rsp: ResponseEnvelope): GcrResult {
    return decodeResult(singleBlock(rsp.blocks, 'GCR response', 'MALFORMED_RESPONSE'));
  },
};
