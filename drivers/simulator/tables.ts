/**
 * The simulated PINPAD's EMV tables (abecs.md §3.13): per acquirer 01–99 a 10-character version
 * and the records loaded for it. TLI opens a staging area, TLR adds records to it, TLE commits;
 * nothing changes until TLE, as on a real device. Acquirer "00" is the unified (global) version.
 * The AID records are also kept decoded (wire/tables.ts) for application selection; a record
 * that does not decode is ignored, as S220 §6.7.3 asks ("Um registro inválido deve ser
 * simplesmente ignorado").
 */
import { decodeAidRecord, tableRecordOf, type AidRecord, type TableRecord } from './wire/tables.js';

export type { TableRecord };
export type AidEntry = AidRecord;

interface Staging {
  readonly acquirer: number;
  readonly version: string;
  readonly records: TableRecord[];
}

export const NO_TABLE_VERSION = '0000000000';

export class EmvTableStore {
  readonly #versions = new Map<number, string>();
  readonly #records = new Map<number, TableRecord[]>();
  #staging: Staging | undefined;
  /** Decoded AID records of every acquirer, rebuilt on each commit. */
  #aids: readonly AidRecord[] = [];

  /** `initial`: versions per acquirer; `preloaded`: records already committed (factory tables). */
  constructor(initial: Readonly<Record<number, string>> = {}, preloaded: readonly TableRecord[] = []) {
    for (const [acquirer, version] of Object.entries(initial)) this.#versions.set(Number(acquirer), version);
    for (const record of preloaded)
      this.#records.set(record.acquirer, [...(this.#records.get(record.acquirer) ?? []), record]);
    this.#aids = decodeAids(this.#records);
  }

  /**
   * The version of one acquirer (0 = the global one); an acquirer without its own version is
   * covered by a unified load. Zeros when nothing is loaded.
   */
  version(acquirer: number): string {
    return this.#versions.get(acquirer) ?? (acquirer === 0 ? undefined : this.#versions.get(0)) ?? NO_TABLE_VERSION;
  }

  /** Acquirers with a loaded version, ascending (0 = global). */
  loaded(): Array<{ acquirer: number; version: string }> {
    return [...this.#versions.entries()]
      .sort(([a], [b]) => a - b)
      .map(([acquirer, version]) => ({ acquirer, version }));
  }

  recordsOf(acquirer: number): readonly TableRecord[] {
    return this.#records.get(acquirer) ?? [];
  }

  /** Every valid AID record loaded, acquirer ascending, each acquirer's in load order. */
  aidRecords(): readonly AidRecord[] {
    return this.#aids;
  }

  get loading(): boolean {
    return this.#staging !== undefined;
  }

  /** TLI: starts a load; true when the version differs from the stored one (answer 020). */
  begin(acquirer: number, version: string): boolean {
    this.#staging = { acquirer, version, records: [] };
    return this.version(acquirer) !== version;
  }

  /**
   * TLR: stages records (each as TLR carried it, TAB_LEN first); false when no TLI came first. A
   * record whose header is unknown or invalid is ignored, and so is a record of another acquirer
   * than the TLI's unless TLI named "00" (S220 §6.7.3).
   */
  add(records: readonly Buffer[]): boolean {
    const staging = this.#staging;
    if (!staging) return false;
    for (const raw of records) {
      const record = tableRecordOf(raw);
      if (record !== undefined && (staging.acquirer === 0 || record.acquirer === staging.acquirer))
        staging.records.push(record);
    }
    return true;
  }

  /** TLE: commits; false when no TLI came first. A TLI with no TLR erases the acquirer's tables. */
  commit(): boolean {
    const staging = this.#staging;
    if (!staging) return false;
    this.#staging = undefined;
    if (staging.acquirer === 0) {
      // Unified management: one version for every acquirer; records keep their own acquirer.
      this.#versions.clear();
      this.#records.clear();
      this.#versions.set(0, staging.version);
      for (const record of staging.records) {
        this.#records.set(record.acquirer, [...(this.#records.get(record.acquirer) ?? []), record]);
      }
    } else {
      this.#versions.delete(0);
      this.#versions.set(staging.acquirer, staging.version);
      this.#records.set(staging.acquirer, staging.records);
    }
    this.#aids = decodeAids(this.#records);
    return true;
  }

  /** Drops a load in progress (CLO, OPN). */
  abort(): void {
    this.#staging = undefined;
  }
}

/** The AID records that decode, acquirer ascending; the others are ignored (S220 §6.7.3). */
function decodeAids(records: ReadonlyMap<number, readonly TableRecord[]>): AidRecord[] {
  const out: AidRecord[] = [];
  for (const acquirer of [...records.keys()].sort((a, b) => a - b)) {
    for (const record of records.get(acquirer) ?? []) {
      // Not a valid AID record: the PINPAD keeps it out of application selection.
      const entry = decodeAidRecord(record);
      if (entry !== undefined) out.push(entry);
    }
  }
  return out;
}
