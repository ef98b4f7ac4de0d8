/**
 * What each journal write does inside its transaction (journal.ts opens it, IMMEDIATE, and commits
 * it): re-read the row under the write lock, check the move against TRANSITIONS, write only the
 * columns that changed, and append the payment's event.
 */
import { randomBytes } from 'node:crypto';
import type { SqliteDatabase } from '../../storage/sqlite.js';
import { canMove, isFinal, type PaymentState } from '../states.js';
import { JournalError } from './errors.js';
import { checkPatch } from './guard.js';
import type { NewPayment, PaymentPatch, PaymentRecord } from './record.js';
import { PAYMENT_COLUMNS, toRecord, toRow, type PaymentRow } from './rows.js';
import { INSERT_EVENT, INSERT_PAYMENT, PAYMENT_BY_ID, updateSql } from './sql.js';

/** The connection's compiled statements (the storage module's cache), inside the write transaction. */
export type WriteDb = Pick<SqliteDatabase, 'statement'>;

/** A move as the journal writes it: its note already masked. */
export interface CheckedMove {
  readonly to: PaymentState;
  readonly patch: PaymentPatch;
  readonly note: string;
}

/** The fields of PaymentPatch, the only ones a transition or an update may change. */
const PATCH_FIELDS = [
  'installments',
  'transactionId',
  'card',
  'authorization',
  'problem',
  'customerTaxId',
  'confirmDeadline',
  'pendingUndo',
] as const satisfies readonly (keyof PaymentPatch)[];

/** Inserts a new payment (`intent`, or `created` with its transaction) and its first event. */
export function insertIntent(db: WriteDb, payment: NewPayment, timestamp: () => string): PaymentRecord {
  const existing = db.statement('SELECT id FROM payments WHERE reference_id = ?').get(payment.referenceId) as
    { id: string } | undefined;
  if (existing) {
    throw new JournalError(
      'REFERENCE_EXISTS',
      `reference ${payment.referenceId} is already journaled as payment ${existing.id}`,
      {
        paymentId: existing.id,
      },
    );
  }
  const at = timestamp();
  const transactionId = payment.transactionId ?? null;
  const record: PaymentRecord = {
    id: randomBytes(16).toString('hex'),
    referenceId: payment.referenceId,
    source: payment.source,
    terminal: payment.terminal,
    amount: payment.amount,
    paymentType: payment.paymentType,
    installments: payment.installments,
    description: payment.description,
    notification: payment.notification,
    paramsHash: payment.paramsHash,
    confirmation: payment.confirmation,
    state: transactionId === null ? 'intent' : 'created',
    transactionId,
    card: null,
    authorization: null,
    problem: null,
    customerTaxId: null,
    confirmDeadline: null,
    pendingUndo: null,
    createdAt: at,
    updatedAt: at,
    finishedAt: null,
    owner: payment.owner ?? null,
  };
  db.statement(INSERT_PAYMENT).run(toRow(record));
  appendEvent(
    db,
    record.id,
    at,
    null,
    record.state,
    transactionId === null ? 'payment intent' : 'pending transaction picked up',
  );
  return record;
}

/** Each move checked against TRANSITIONS and saved with its event; the record after each. */
export function applyMoves(
  db: WriteDb,
  id: string,
  moves: readonly CheckedMove[],
  timestamp: () => string,
): PaymentRecord[] {
  let current = readForWrite(db, id);
  return moves.map(({ to, patch, note }) => {
    if (!canMove(current.state, to)) {
      throw new JournalError('INVALID_TRANSITION', `payment ${id} cannot move from ${current.state} to ${String(to)}`, {
        paymentId: id,
      });
    }
    current = save(db, current, to, patch, note, timestamp);
    return current;
  });
}

/** A payment's fields changed in its state (refused once it is final), with an event. */
export function applyPatch(
  db: WriteDb,
  id: string,
  patch: PaymentPatch,
  note: string,
  timestamp: () => string,
): PaymentRecord {
  const current = readForWrite(db, id);
  if (isFinal(current.state)) {
    throw new JournalError(
      'INVALID_TRANSITION',
      `payment ${id} is ${current.state} (final); its record no longer changes`,
      {
        paymentId: id,
      },
    );
  }
  return save(db, current, current.state, patch, note, timestamp);
}

/** A line in a payment's history, from its state to the same state (final ones too). */
export function appendNote(db: WriteDb, id: string, note: string, timestamp: () => string): void {
  const current = readForWrite(db, id);
  appendEvent(db, current.id, timestamp(), current.state, current.state, note);
}

function readForWrite(db: WriteDb, id: string): PaymentRecord {
  const row = db.statement(PAYMENT_BY_ID).get(id) as PaymentRow | undefined;
  if (!row) throw new JournalError('NOT_FOUND', `there is no payment ${id} in the journal`, { paymentId: id });
  return toRecord(row);
}

function save(
  db: WriteDb,
  current: PaymentRecord,
  to: PaymentState,
  patch: PaymentPatch,
  note: string,
  timestamp: () => string,
): PaymentRecord {
  checkPatch(patch, current.paymentType, current.id);
  const at = timestamp();
  const changes: Partial<Record<(typeof PATCH_FIELDS)[number], unknown>> = {};
  for (const field of PATCH_FIELDS) if (patch[field] !== undefined) changes[field] = patch[field];
  const next: PaymentRecord = {
    ...current,
    ...(changes as PaymentPatch),
    state: to,
    updatedAt: at,
    finishedAt: isFinal(to) ? at : null,
  };
  const before = toRow(current);
  const after = toRow(next);
  const changed = PAYMENT_COLUMNS.filter((column) => column !== 'id' && before[column] !== after[column]);
  if (changed.length > 0) {
    const values: Record<string, unknown> = { id: next.id };
    for (const column of changed) values[column] = after[column];
    db.statement(updateSql(changed)).run(values);
  }
  appendEvent(db, current.id, at, current.state, to, note);
  return next;
}

function appendEvent(
  db: WriteDb,
  id: string,
  at: string,
  from: PaymentState | null,
  to: PaymentState,
  note: string,
): void {
  db.statement(INSERT_EVENT).run(id, id, at, from, to, note);
}
