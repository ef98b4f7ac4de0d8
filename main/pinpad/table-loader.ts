/**
 * Brings a PINPAD's EMV tables to the version of the tables file (abecs.md §3.13): the version
 * each acquirer holds is read (PP_TABVERnn through GIX, GTS on legacy PINPADs); an acquirer whose
 * version differs is loaded with TLI (its new version), TLR (its records, as many per command as
 * a 999-byte block holds) and TLE (commit). Nothing changes on the PINPAD until TLE, so a load
 * cut short (unplugged, cancelled) leaves the old tables and is simply done again next time.
 */
import { tleCommand } from '../../drivers/abecs/commands/tle.js';
import { tliCommand } from '../../drivers/abecs/commands/tli.js';
import { tlrCommand, type TableRecord } from '../../drivers/abecs/commands/tlr.js';
import type { Pinpad } from '../../drivers/abecs/pinpad.js';
import { MAX_BLOCK } from '../../drivers/abecs/tlv.js';
import { silentLogger, type DriverLogger } from '../../drivers/log.js';
import type { EmvTables } from './emv-tables.js';

/** TLR_NREC is N2. */
const MAX_RECORDS_PER_TLR = 99;
/** TLR_NREC in front of the records. */
const COUNT_BYTES = 2;
/** TAB_LEN + TAB_ID + TAB_ACQ + TAB_RECIDX in front of each body. */
const RECORD_HEADER = 8;

export interface TablesSync {
  /** Acquirers whose tables were loaded now. */
  readonly loaded: readonly number[];
  /** Acquirers that already held this version. */
  readonly current: readonly number[];
  /** Records sent. */
  readonly records: number;
}

/** The records of one TLR command each: at most 99, within one block. */
export function tlrBatches(records: readonly TableRecord[]): TableRecord[][] {
  const batches: TableRecord[][] = [];
  let batch: TableRecord[] = [];
  let size = COUNT_BYTES;
  for (const record of records) {
    const length = RECORD_HEADER + record.body.length;
    if (batch.length > 0 && (size + length > MAX_BLOCK || batch.length === MAX_RECORDS_PER_TLR)) {
      batches.push(batch);
      batch = [];
      size = COUNT_BYTES;
    }
    batch.push(record);
    size += length;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * Loads into `pinpad` the tables of every acquirer whose stored version is not `tables.version`.
 * `onProgress` hears of each acquirer before it is loaded (for the cashier and the logs).
 */
export async function syncTables(
  pinpad: Pinpad,
  tables: EmvTables,
  options: { logger?: DriverLogger; onProgress?: (acquirer: number, records: number) => void } = {},
): Promise<TablesSync> {
  const logger = options.logger ?? silentLogger;
  const acquirers = [...tables.records.keys()].sort((a, b) => a - b);
  const held = await pinpad.tableVersions(acquirers);
  const loaded: number[] = [];
  const current: number[] = [];
  let sent = 0;
  for (const acquirer of acquirers) {
    if (held[acquirer]?.trim() === tables.version.trim()) {
      current.push(acquirer);
      continue;
    }
    const records = tables.records.get(acquirer) ?? [];
    options.onProgress?.(acquirer, records.length);
    logger.info(
      { acquirer, records: records.length, version: tables.version, held: held[acquirer] ?? null },
      'loading EMV tables into the PINPAD',
    );
    await pinpad.execute(tliCommand, { acquirer, tableVersion: tables.version });
    for (const batch of tlrBatches(records)) await pinpad.execute(tlrCommand, { records: batch });
    await pinpad.execute(tleCommand, {});
    sent += records.length;
    loaded.push(acquirer);
  }
  if (loaded.length > 0) logger.info({ acquirers: loaded, version: tables.version }, 'EMV tables loaded');
  return { loaded, current, records: sent };
}
