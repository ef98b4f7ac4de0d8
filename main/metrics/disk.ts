/**
 * `pinbridge_disk_free_bytes` and `pinbridge_journal_reserve_bytes`, read at scrape time from the
 * journal's room (core/journal/disk-reserve.ts): free space on the journal's disk, and the
 * reserve the journal keeps there to finish the payments in flight when the disk fills. Free
 * space below the reserve means a reserve given back cannot be put in place again: new sales are
 * refused (DISK_FULL) until someone makes room.
 */
import type { Registry } from 'prom-client';
import type { DiskRoom } from '../core/journal/disk-reserve.js';
import type { MetricsGuard } from './guard.js';
import { OptionalGauge } from './optional-gauge.js';

/** What the disk gauges read: the journal's `room()` fits. */
export type DiskSource = () => Pick<DiskRoom, 'freeBytes' | 'reserveBytes'>;

/**
 * A free space the file system could not tell (a network share) or a journal in memory is
 * reported as Number.MAX_SAFE_INTEGER by the journal: unknown, so no sample.
 */
const known = (bytes: number): number | undefined =>
  Number.isFinite(bytes) && bytes >= 0 && bytes < Number.MAX_SAFE_INTEGER ? bytes : undefined;

export function registerDiskGauges(registers: Registry[], disk: DiskSource, guard: MetricsGuard): void {
  new OptionalGauge(
    {
      name: 'pinbridge_disk_free_bytes',
      help: "Bytes free (to the agent's user) on the disk that holds the payment journal.",
      registers,
    },
    () => {
      const bytes = guard('disk room', disk)?.freeBytes;
      return bytes === undefined ? undefined : known(bytes);
    },
  );
  new OptionalGauge(
    {
      name: 'pinbridge_journal_reserve_bytes',
      help:
        'Bytes the journal keeps in reserve on its disk to finish the payments in flight when the disk fills (0: none); ' +
        'free space below it means a reserve given back cannot be held again and new sales are refused.',
      registers,
    },
    () => {
      const bytes = guard('disk room', disk)?.reserveBytes;
      return bytes === undefined ? undefined : known(bytes);
    },
  );
}
