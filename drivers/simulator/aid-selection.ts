/**
 * Application selection against the loaded AID tables (S220 §6.8.1 for GCR, §6.9.1 for GCX): the
 * "registros candidatos" a card read may use, whether the antenna is on, and the records the
 * presented card's AID matches. The simulated card has one AID (emv-data.ts `aidOf`); a record
 * matches it by EMV partial selection — the record's AID is the card's or a prefix of it — and
 * every matching record is reported, as §6.9.1.2 asks for conflicting AIDs (PP_AIDTABINFO lists
 * each record that gave rise to the conflict).
 */
import type { SimCard } from './cards.js';
import { aidOf } from './emv-data.js';
import type { DeviceState } from './state.js';
import type { AidRef, AidTableInfo } from './wire/command.js';
import type { AidRecord } from './wire/tables.js';

export type AidEntry = AidRecord;

/** What the card-read command asks for, already reduced to the §6.8.1/§6.9.1 rules. */
export interface CandidateFilter {
  /** Only these records (GCR_IDAPPn with GCR_APPTYPREQ "00", or SPE_AIDLIST). */
  readonly refs?: readonly AidRef[];
  /** Only records of these application types (GCR_APPTYPREQ ≠ 99, or SPE_APPTYPE). */
  readonly appTypes?: readonly number[];
  /** Only this acquirer's records (GCR_ACQIDXREQ, or SPE_ACQREF). */
  readonly acquirer?: number;
}

/**
 * Whether the card read selects from loaded tables: some valid AID record is loaded, or the
 * device is one that cannot select an application without them (`requireTables`). Otherwise the
 * simulator answers as it always has, inventing the table match from the card's brand.
 */
export function tablesInUse(device: DeviceState): boolean {
  return device.tables.aidRecords().length > 0 || device.scenario.requireTables === true;
}

/** The "registros candidatos": EMV records (T1_ICCSTD "03") the command's parameters allow. */
export function candidateRecords(device: DeviceState, filter: CandidateFilter): AidEntry[] {
  return device.tables.aidRecords().filter((entry) => {
    if (entry.iccStandard !== 3) return false;
    if (filter.refs) return filter.refs.some((ref) => ref.acquirer === entry.acquirer && ref.record === entry.record);
    if (filter.appTypes && !filter.appTypes.includes(entry.applicationType)) return false;
    return filter.acquirer === undefined || filter.acquirer === entry.acquirer;
  });
}

/**
 * The candidates a contactless card may use (S220 §6.8.1.3, §6.9.1.3): a contactless kernel
 * ("1"–"9"), zero amounts allowed when the amount is zero, and a limit (T1_CTLSTRNLIM or
 * T1_CTLSMBTLIM) at least the amount. The antenna is on only when at least one remains (§6.8.1 (*)).
 */
export function contactlessCandidates(candidates: readonly AidEntry[], amount: number): AidEntry[] {
  return candidates.filter((entry) => {
    if (!/^[1-9]$/.test(entry.contactlessMode)) return false;
    if (amount === 0 && entry.contactlessZeroAmount !== '1') return false;
    return entry.contactlessTransactionLimit >= amount || entry.contactlessMobileTransactionLimit >= amount;
  });
}

/** Candidates whose AID selects the card's application (partial match), acquirer order. */
export function matchingRecords(candidates: readonly AidEntry[], card: SimCard): AidEntry[] {
  const cardAid = aidOf(card).toUpperCase();
  return candidates.filter((entry) => cardAid.startsWith(entry.aid)).sort((a, b) => a.acquirer - b.acquirer);
}

/** PP_AIDTABINFO holds at most 20 "AARRTT" entries (120 characters). */
const MAX_AIDTABINFO = 20;

/** PP_AIDTABINFO of the matching records (the first 20 when more conflict). */
export function aidTableInfoOf(records: readonly AidEntry[]): AidTableInfo[] {
  return records
    .slice(0, MAX_AIDTABINFO)
    .map((entry) => ({ acquirer: entry.acquirer, record: entry.record, appType: entry.applicationType }));
}
