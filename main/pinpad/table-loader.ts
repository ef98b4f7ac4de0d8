/**
 * Brings a PINPAD's EMV tables to the version of the tables file (abecs.md §3.13): the version
 * each acquirer holds is read (PP_TABVERnn through GIX, GTS on legacy PINPADs); an acquirer whose
 * version differs is loaded with TLI (its new version), TLR (its records, as many per command as
 * a 999-byte block holds) and TLE (commit). Nothing changes on the PINPAD until TLE, so a load
 * cut short (unplugged, cancelled) leaves the old tables and is simply done again next time.
 */
import type { Pinpad } from '../../drivers/abecs/pinpad.js';
import { silentLogger, type DriverLogger } from '../../drivers/log.js';
import type { EmvTables } from './emv-tables.js';

/** How TLR splits records (the driver's rule, kept importable where the table specs count commands). */
export { tlrBatches } from '../../drivers/abecs/commands/tlr.js';

export interface TablesSync {
  /** Acquirers whose tables were loaded now. */
  readonly loaded: readonly number[];
  /** Acquirers that already held this version. */
  readonly current: readonly number[];
  /** Records sent. */
  readonly records: number;
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
    await pinpad.loadTables(acquirer, tables.version, records);
    sent += records.length;
    loaded.push(acquirer);
  }
  if (loaded.length > 0) logger.info({ acquirers: loaded, version: tables.version }, 'EMV tables loaded');
  return { loaded, current, records: sent };
}
