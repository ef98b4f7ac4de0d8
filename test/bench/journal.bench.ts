/**
 * Journal start-up with a long history: a file with 1,000,000 finished payments and 10 in
 * flight, then the time recovery needs to see the in-flight ones — Journal.open + unfinished +
 * pendingUndos + pendingConfirmations (goal < 200 ms; the partial index makes it independent of
 * the history) — and a findByReference (the POS's `payment.status`). The file lives in
 * os.tmpdir() and is deleted at the end. Timings are medians: the machine is noisy.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Journal } from '../../main/core/journal/journal.js';
import type { PaymentRecord } from '../../main/core/journal/record.js';
import { PAYMENT_COLUMNS, toRow } from '../../main/core/journal/rows.js';
import type { PaymentState } from '../../main/core/states.js';
import { round, sample, type Stats } from './harness.js';
import { centavos } from '../../main/core/money.js';

export interface JournalRecoveryBench {
  readonly finishedPayments: number;
  readonly unfinishedPayments: number;
  readonly fileMegabytes: number;
  readonly buildSeconds: number;
  /** Journal.open + unfinished + pendingUndos + pendingConfirmations + close, on the closed file. */
  readonly recovery: Stats;
  readonly recoveryGoalMs: number;
  readonly recoveryUnderGoal: boolean;
  /** findByReference on a random reference of the history, journal open. */
  readonly findByReference: Stats;
}

const FINAL: readonly PaymentState[] = [
  'confirmed',
  'confirmed',
  'confirmed',
  'confirmed',
  'declined',
  'cancelled',
  'reversed',
  'failed',
  'undone',
];
const IN_FLIGHT: readonly PaymentState[] = [
  'intent',
  'created',
  'card_read',
  'authorizing',
  'unknown',
  'approved',
  'completing',
  'awaiting_confirmation',
  'reversing',
  'aborting',
];

function record(n: number, state: PaymentState, createdAt: string, finished: boolean): PaymentRecord {
  const approved =
    state === 'confirmed' || state === 'reversed' || state === 'undone' || state === 'awaiting_confirmation';
  return {
    id: randomBytes(16).toString('hex'),
    referenceId: `bench-${n}`,
    source: 'pos',
    terminal: `PP-${n % 8}`,
    amount: centavos(100 + (n % 100_000)),
    paymentType: n % 3 === 0 ? 'debit' : 'credit',
    installments: n % 3 === 0 ? null : 1 + (n % 12),
    description: 'Venda balcão',
    notification: n % 2 === 0 ? 'Loja Centro' : null,
    paramsHash: randomBytes(32).toString('hex'),
    confirmation: 'auto',
    state,
    transactionId: state === 'intent' ? null : randomBytes(16).toString('hex'),
    card:
      state === 'intent' || state === 'created'
        ? null
        : { brand: 'visa', maskedPan: '411111******1111', entryMode: 'chip' },
    authorization: approved
      ? {
          authorizationCode: 'A1B2C3',
          nsu: String(n).padStart(9, '0'),
          responseCode: '00',
          responseMessage: 'approved',
        }
      : null,
    problem:
      state === 'declined'
        ? { code: 'CARD_DECLINED', message: 'the issuer declined', cashierMessage: 'Cartão recusado' }
        : null,
    customerTaxId: null,
    confirmDeadline: null,
    pendingUndo:
      state === 'reversing' || state === 'aborting'
        ? { attempts: 1, nextAttemptAt: createdAt, lastError: 'timeout' }
        : null,
    createdAt,
    updatedAt: createdAt,
    finishedAt: finished ? createdAt : null,
    owner: null,
  };
}

/** Fills a fresh journal file in one transaction (no per-row fsync: this is set-up, not the subject). */
function build(path: string, finishedPayments: number): void {
  Journal.open(path).close(); // the schema, exactly as the agent creates it
  const db = new Database(path);
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    `INSERT INTO payments (${PAYMENT_COLUMNS.join(', ')}) VALUES (${PAYMENT_COLUMNS.map((c) => `@${c}`).join(', ')})`,
  );
  const event = db.prepare(
    'INSERT INTO events (payment_id, seq, at, from_state, to_state, note) VALUES (?, 1, ?, NULL, ?, ?)',
  );
  // A payment every ~20 s going back from now: a million is about eight months of a busy store.
  const start = Date.now() - (finishedPayments + IN_FLIGHT.length) * 20_000;
  db.transaction(() => {
    for (let n = 0; n < finishedPayments; n++) {
      insert.run(toRow(record(n, FINAL[n % FINAL.length]!, new Date(start + n * 20_000).toISOString(), true)));
    }
    // The ones in flight are interleaved with the newest history, as after a crash.
    IN_FLIGHT.forEach((state, i) => {
      const n = finishedPayments + i;
      const row = record(n, state, new Date(start + n * 20_000).toISOString(), false);
      insert.run(toRow(row));
      event.run(row.id, row.createdAt, state, 'bench');
    });
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

export async function benchJournalRecovery(finishedPayments = 1_000_000, samples = 15): Promise<JournalRecoveryBench> {
  const dir = mkdtempSync(join(tmpdir(), 'pinbridge-journal-bench-'));
  const path = join(dir, 'journal.db');
  try {
    const buildStart = performance.now();
    build(path, finishedPayments);
    const buildSeconds = (performance.now() - buildStart) / 1000;

    let seen = 0;
    const recovery = await sample(
      () => {
        const journal = Journal.open(path);
        seen = journal.unfinished().length;
        journal.pendingUndos();
        journal.pendingConfirmations();
        journal.close();
      },
      samples,
      2,
    );
    if (seen !== IN_FLIGHT.length)
      throw new Error(`recovery saw ${seen} unfinished payments, expected ${IN_FLIGHT.length}`);

    const journal = Journal.open(path);
    let missed = 0;
    const findByReference = await sample(
      () => {
        if (!journal.findByReference(`bench-${Math.floor(Math.random() * finishedPayments)}`)) missed += 1;
      },
      2000,
      100,
    );
    journal.close();
    if (missed > 0) throw new Error(`findByReference missed ${missed} references that are in the journal`);

    const goal = 200;
    return {
      finishedPayments,
      unfinishedPayments: IN_FLIGHT.length,
      fileMegabytes: round(statSync(path).size / 1024 / 1024, 1),
      buildSeconds: round(buildSeconds, 1),
      recovery: roundStats(recovery),
      recoveryGoalMs: goal,
      recoveryUnderGoal: recovery.medianMs < goal,
      findByReference: roundStats(findByReference),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const roundStats = (s: Stats): Stats => ({
  samples: s.samples,
  medianMs: round(s.medianMs),
  p99Ms: round(s.p99Ms),
  minMs: round(s.minMs),
});
