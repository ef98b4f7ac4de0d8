/**
 * The simulated PINPAD's EMV tables (abecs.md §3.13): per acquirer 01–99 a 10-character version
 * and the records loaded for it. TLI opens a staging area, TLR adds records to it, TLE commits;
 * nothing changes until TLE, as on a real device. Acquirer "00" is the unified (global) version.
 */
import type { TableRecord } from '../abecs/commands/tlr.js';

export type { TableRecord };

interface Staging {
  readonly acquirer: number;
  readonly version: string;
  readonly records: TableRecord[];
}

export const NO_TABLE_VERSION = '0000000000';

export class EmvTableStore {
  private readonly versions = new Map<number, string>();
  private readonly records = new Map<number, TableRecord[]>();
  private staging: Staging | undefined;

  constructor(initial: Readonly<Record<number, string>> = {}) {
    for (const [acquirer, version] of Object.entries(initial)) this.versions.set(Number(acquirer), version);
  }

  /**
   * The version of one acquirer (0 = the global one); an acquirer without its own version is
   * covered by a unified load. Zeros when nothing is loaded.
   */
  version(acquirer: number): string {
    return this.versions.get(acquirer) ?? (acquirer === 0 ? undefined : this.versions.get(0)) ?? NO_TABLE_VERSION;
  }

  /** Acquirers with a loaded version, ascending (0 = global). */
  loaded(): Array<{ acquirer: number; version: string }> {
    return [...this.versions.entries()]
      .sort(([a], [b]) => a - b)
      .map(([acquirer, version]) => ({ acquirer, version }));
  }

  recordsOf(acquirer: number): readonly TableRecord[] {
    return this.records.get(acquirer) ?? [];
  }

  get loading(): boolean {
    return this.staging !== undefined;
  }

  /** TLI: starts a load; true when the version differs from the stored one (answer 020). */
  begin(acquirer: number, version: string): boolean {
    this.staging = { acquirer, version, records: [] };
    return this.version(acquirer) !== version;
  }

  /** TLR: stages records; false when no TLI came first. */
  add(records: readonly TableRecord[]): boolean {
    if (!this.staging) return false;
    this.staging.records.push(...records);
    return true;
  }

  /** TLE: commits; false when no TLI came first. A TLI with no TLR erases the acquirer's tables. */
  commit(): boolean {
    const staging = this.staging;
    if (!staging) return false;
    this.staging = undefined;
    if (staging.acquirer === 0) {
      // Unified management: one version for every acquirer; records keep their own acquirer.
      this.versions.clear();
      this.records.clear();
      this.versions.set(0, staging.version);
      for (const record of staging.records) {
        this.records.set(record.acquirer, [...(this.records.get(record.acquirer) ?? []), record]);
      }
      return true;
    }
    this.versions.delete(0);
    this.versions.set(staging.acquirer, staging.version);
    this.records.set(staging.acquirer, staging.records);
    return true;
  }

  /** Drops a load in progress (CLO, OPN). */
  abort(): void {
    this.staging = undefined;
  }
}
