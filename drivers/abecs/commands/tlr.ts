/**
 * TLR — table load record (fixed, non-blocking; abecs.md §3.13, S220 §3.5.3 and §4.1): one or
 * more EMV table records staged until TLE. Each record starts with TAB_LEN (N3, counting
 * itself), TAB_ID, TAB_ACQ and TAB_RECIDX; the rest of the record is table-specific and is
 * carried here as text, unparsed.
 */
import type { CommandCodec, CommandEnvelope, NoData, ResponseEnvelope } from '../codec.js';
import { InvalidArgumentError } from '../../errors.js';
import { FieldReader, FieldWriter } from '../fields.js';
import { MAX_BLOCK } from '../tlv.js';
import { checkRecordIndex, singleBlock } from '../card-params.js';

/** TAB_ID: 1 AID, 2 CAPK, 3 revoked certificate. */
export type EmvTable = 'aid' | 'capk' | 'revokedCertificate';

const TABLE_IDS: readonly (EmvTable | undefined)[] = [undefined, 'aid', 'capk', 'revokedCertificate'];

export interface TableRecord {
  readonly table: EmvTable;
  /** TAB_ACQ: acquirer index 1–99. */
  readonly acquirer: number;
  /** TAB_RECIDX: record index "01"–"ZZ". */
  readonly record: string;
  /** The rest of the record after TAB_RECIDX, as ISO-8859-1 text (layouts in S220 §4.1). */
  readonly body: string;
}

export interface TlrRequest {
  readonly records: readonly TableRecord[];
}

export type TlrResult = NoData;

/** TAB_LEN + TAB_ID + TAB_ACQ + TAB_RECIDX. */
const RECORD_HEADER = 8;
/** TLR_NREC. */
const COUNT_LENGTH = 2;

function encodeRecord(record: TableRecord, i: number): Buffer {
  const name = `records[${i}]`;
  const id = TABLE_IDS.indexOf(record.table);
  if (id < 1) throw new InvalidArgumentError(`${name}.table must be "aid", "capk" or "revokedCertificate".`);
  checkRecordIndex(record.record, `${name}.record`);
  const length = RECORD_HEADER + record.body.length;
  return new FieldWriter()
    .n(`${name} length`, length, 3)
    .n(`${name}.table`, id, 1)
    .n(`${name}.acquirer`, record.acquirer, 2)
    .a(`${name}.record`, record.record, 2)
    .s(`${name}.body`, record.body, record.body.length)
    .toBuffer();
}

export const tlrCommand: CommandCodec<TlrRequest, TlrResult> = {
  id: 'TLR',
  blocking: false,

  encodeRequest(req: TlrRequest): CommandEnvelope {
    if (req.records.length < 1 || req.records.length > 99) {
      throw new InvalidArgumentError('A TLR command carries 1 to 99 records.');
    }
    const records = req.records.map(encodeRecord);
    const block = Buffer.concat([
      new FieldWriter().n('record count', records.length, COUNT_LENGTH).toBuffer(),
      ...records,
    ]);
    if (block.length > MAX_BLOCK) {
      throw new InvalidArgumentError(
        `These records take ${block.length} bytes; a TLR command holds at most ${MAX_BLOCK}. Send them in several TLR commands.`,
      );
    }
    return { id: 'TLR', blocks: [block] };
  },

  decodeRequest(cmd: CommandEnvelope): TlrRequest {
    const what = 'TLR command';
    const r = new FieldReader(singleBlock(cmd.blocks, what, 'MALFORMED_COMMAND'), what, 'MALFORMED_COMMAND');
    const count = r.n('TLR_NREC', COUNT_LENGTH);
    if (count === 0) throw r.error('TLR_NREC is zero');
    const records: TableRecord[] = [];
    for (let i = 0; i < count; i++) {
      const length = r.n('TAB_LEN', 3);
      if (length < RECORD_HEADER) throw r.error(`record ${i + 1} declares ${length} bytes, less than its header`);
      const table = TABLE_IDS[r.n('TAB_ID', 1)];
      if (table === undefined) throw r.error('TAB_ID must be 1, 2 or 3');
      const acquirer = r.n('TAB_ACQ', 2);
      const record = r.textRaw('TAB_RECIDX', 2);
      if (!/^[\x21-\x7e]{2}$/.test(record)) throw r.error('TAB_RECIDX must be two printable characters');
      const body = r.textRaw('record body', length - RECORD_HEADER);
      records.push({ table, acquirer, record, body });
    }
    r.end();
    return { records };
  },

  encodeResponse(): ResponseEnvelope {
    return { id: 'TLR', status: 0, blocks: [] };
  },

  decodeResponse(): TlrResult {
    return {};
  },
};

/** TLR_NREC is N2. */
const MAX_RECORDS_PER_TLR = 99;

/** The records of one TLR command each: at most 99, within one block. */
export function tlrBatches(records: readonly TableRecord[]): TableRecord[][] {
  const batches: TableRecord[][] = [];
  let batch: TableRecord[] = [];
  let size = COUNT_LENGTH;
  for (const record of records) {
    const length = RECORD_HEADER + record.body.length;
    if (batch.length > 0 && (size + length > MAX_BLOCK || batch.length === MAX_RECORDS_PER_TLR)) {
      batches.push(batch);
      batch = [];
      size = COUNT_LENGTH;
    }
    batch.push(record);
    size += length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}
