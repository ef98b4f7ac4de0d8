/**
 * `pinbridge_payments_undecided` and `pinbridge_payment_undecided_oldest_age_seconds`, read from
 * the journal at scrape time: payments whose result is not decided yet (core/states.ts
 * `isDecided`: intent … completing — at the PINPAD, waiting for the issuer, or an answer lost and
 * being resolved). A sale in progress is undecided for its tens of seconds; one that stays so
 * for minutes is a payment whose card may be charged while nobody knows it — the chain's alert.
 */
import type { Registry } from 'prom-client';
import type { JournalReader } from '../core/journal/reader.js';
import { isDecided } from '../core/states.js';
import type { MetricsGuard } from './guard.js';
import { OptionalGauge } from './optional-gauge.js';

export type UndecidedJournal = Pick<JournalReader, 'unfinished'>;

/** The undecided payments now: how many, and when the oldest was created (ms; undefined: none). */
export function undecidedNow(journal: UndecidedJournal): { count: number; oldestCreatedAt: number | undefined } {
  // unfinished(): every payment not final, oldest first, through the journal's partial index
  // (cheap with a million finished payments); the decided ones among them are left out.
  const undecided = journal.unfinished().filter((record) => !isDecided(record.state));
  const oldest = undecided.length === 0 ? undefined : Math.min(...undecided.map((r) => Date.parse(r.createdAt)));
  return { count: undecided.length, oldestCreatedAt: Number.isFinite(oldest) ? oldest : undefined };
}

export function registerUndecidedGauges(
  registers: Registry[],
  journal: UndecidedJournal,
  guard: MetricsGuard,
  now: () => number,
): void {
  // Two small queries a scrape (the partial index of unfinished rows): no cache to go stale.
  const read = (): ReturnType<typeof undecidedNow> | undefined =>
    guard('undecided payments', () => undecidedNow(journal));
  new OptionalGauge(
    {
      name: 'pinbridge_payments_undecided',
      help:
        'Payments whose result is not decided yet (at the PINPAD, waiting for the issuer, or an answer lost and being ' +
        'resolved with the payments API), from the journal.',
      registers,
    },
    () => read()?.count,
  );
  new OptionalGauge(
    {
      name: 'pinbridge_payment_undecided_oldest_age_seconds',
      help: 'Seconds since the oldest undecided payment started; 0 when none is undecided.',
      registers,
    },
    () => {
      const value = read();
      if (value === undefined) return undefined;
      return value.oldestCreatedAt === undefined ? 0 : Math.max(0, (now() - value.oldestCreatedAt) / 1000);
    },
  );
}
