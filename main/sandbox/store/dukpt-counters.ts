/**
 * The replay check of DUKPT KSNs, as an acquirer's host makes it: a PINPAD advances its DUKPT
 * transaction counter (the KSN's rightmost 21 bits) on every use, and never goes back, so a KSN
 * whose counter is not above the last one accepted for the same key is a replay — the same
 * cryptogram sent again, or a cloned key. The key is the KSN with its counter cleared (the key
 * set and device id, which name the initial key), per kind: PIN keys and data keys are kept
 * apart. Kept in the sandbox's database, so a restart does not forget it.
 *
 * Only the key part of the KSN and a counter are stored: nothing a card could be read from.
 */
import { ksnCounter, withCounter } from '../../../drivers/crypto/dukpt.js';
import type { SandboxDatabase } from './database.js';

export type DukptKind = 'pin' | 'data';

/** The last counter accepted for a key, when the KSN is not above it. */
export interface ReplayedKsn {
  readonly counter: number;
  readonly last: number;
}

/**
 * Records `ksn` as used by `transactionId`; the replayed KSN's counters (nothing recorded) when
 * its counter is not above the last one accepted for its key. Run it in the transaction that
 * decides the authorization, so a refused or failed request records nothing.
 */
export function acceptKsn(
  db: SandboxDatabase,
  use: { kind: DukptKind; ksn: Buffer; transactionId: string },
  at: Date,
): ReplayedKsn | undefined {
  const keySerial = withCounter(use.ksn, 0).toString('hex').toUpperCase();
  const counter = ksnCounter(use.ksn);
  const row = db
    .statement('SELECT counter FROM dukpt_counters WHERE kind = ? AND key_serial = ?')
    .get(use.kind, keySerial) as { counter: number } | undefined;
  if (row !== undefined && counter <= row.counter) return { counter, last: row.counter };
  db.statement(
    `INSERT INTO dukpt_counters (kind, key_serial, counter, transaction_id, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (kind, key_serial) DO UPDATE SET counter = excluded.counter, transaction_id = excluded.transaction_id,
       updated_at = excluded.updated_at`,
  ).run(use.kind, keySerial, counter, use.transactionId, at.toISOString());
  return undefined;
}
