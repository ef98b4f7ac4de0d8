/**
 * Repository over the `transactions` and `boleto_cancellations` tables. A row's `data` is the
 * contract's `Transaction` with INTEGER amounts (centavos) and an integer installment count,
 * and boleto / Pix image links stored as paths (`/boletos/{id}.pdf`); the view turns it into a
 * response. The lookup columns are rewritten from the record on every write, so they never
 * drift from `data`. Every function is synchronous (better-sqlite3): callers group several
 * writes with `db.transaction`.
 */
import type { BoletoDetails, CardDetails, PixDetails, Transaction, TransactionError } from '../../contract/index.js';
import type { SandboxDatabase } from './database.js';
import { readMeta, writeMeta } from './database.js';

/** One history entry as stored: the amount in centavos. */
export interface HistoryRecord {
  id: string;
  transaction: string;
  amount: number;
  operation_type: string;
  status: 'succeeded' | 'failed';
  response_code: string | null;
  response_message: string | null;
  authorization_code: string | null;
  authorization_nsu: string | null;
  created_at: string;
}

/** The contract's Transaction as stored: integer money, integer installments, relative links. */
export interface TransactionRecord extends Omit<
  Transaction,
  'amount' | 'original_amount' | 'installment_plan' | 'history' | 'boleto' | 'pix' | 'payment_method' | 'error'
> {
  amount: number;
  original_amount: number;
  installment_plan: { number_installments: number; mode: 'interest_free' | 'with_interest' } | null;
  history: HistoryRecord[];
  boleto?: BoletoDetails;
  pix?: PixDetails;
  payment_method: CardDetails | null;
  error: TransactionError | null;
}

export interface TransactionFilters {
  reference_id?: string | undefined;
  status?: string | undefined;
  terminal?: string | undefined;
  payment_type?: string | undefined;
  /** Restricts to one payment_locale (the terminal's pending list asks for pinpad). */
  payment_locale?: string | undefined;
  /** The seller's transactions only (the per-seller listing). */
  seller_id?: string | undefined;
}

export interface Page<T> {
  items: T[];
  total: number;
}

interface DataRow {
  data: string;
}

const parse = (row: DataRow): TransactionRecord => JSON.parse(row.data) as TransactionRecord;

export function insertTransaction(db: SandboxDatabase, marketplaceId: string, record: TransactionRecord): void {
  db.statement(
    `INSERT INTO transactions (id, marketplace_id, seller_id, reference_id, terminal, payment_type, payment_locale, status, data, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    record.id,
    marketplaceId,
    record.on_behalf_of,
    record.reference_id,
    record.terminal,
    record.payment_type,
    record.payment_locale,
    record.status,
    JSON.stringify(record),
    record.created_at,
    record.updated_at,
  );
}

/** Rewrites a transaction's data and lookup columns (the id and marketplace never change). */
export function updateTransaction(db: SandboxDatabase, marketplaceId: string, record: TransactionRecord): void {
  const result = db
    .statement(
      `UPDATE transactions SET reference_id = ?, terminal = ?, payment_type = ?, payment_locale = ?, status = ?, data = ?, updated_at = ?
       WHERE id = ? AND marketplace_id = ?`,
    )
    .run(
      record.reference_id,
      record.terminal,
      record.payment_type,
      record.payment_locale,
      record.status,
      JSON.stringify(record),
      record.updated_at,
      record.id,
      marketplaceId,
    );
  if (result.changes !== 1) throw new Error(`transaction ${record.id} is not in marketplace ${marketplaceId}`);
}

export function findTransaction(db: SandboxDatabase, marketplaceId: string, id: string): TransactionRecord | undefined {
  const row = db
    .statement('SELECT data FROM transactions WHERE id = ? AND marketplace_id = ?')
    .get(id, marketplaceId) as DataRow | undefined;
  return row ? parse(row) : undefined;
}

function whereClause(marketplaceId: string, filters: TransactionFilters): { sql: string; args: string[] } {
  const conditions = ['marketplace_id = ?'];
  const args = [marketplaceId];
  const columns = ['reference_id', 'status', 'terminal', 'payment_type', 'payment_locale', 'seller_id'] as const;
  for (const column of columns) {
    const value = filters[column];
    if (value !== undefined) {
      conditions.push(`${column} = ?`);
      args.push(value);
    }
  }
  return { sql: conditions.join(' AND '), args };
}

/** Matching transactions and their count; `order` by creation (rowid breaks same-second ties). */
export function listTransactions(
  db: SandboxDatabase,
  marketplaceId: string,
  filters: TransactionFilters,
  page: { limit: number; offset: number; order: 'newest_first' | 'oldest_first' },
): Page<TransactionRecord> {
  const { sql, args } = whereClause(marketplaceId, filters);
  const direction = page.order === 'newest_first' ? 'DESC' : 'ASC';
  const rows = db
    .statement(
      `SELECT data FROM transactions WHERE ${sql} ORDER BY created_at ${direction}, rowid ${direction} LIMIT ? OFFSET ?`,
    )
    .all(...args, page.limit, page.offset) as DataRow[];
  const { total } = db.statement(`SELECT COUNT(*) AS total FROM transactions WHERE ${sql}`).get(...args) as {
    total: number;
  };
  return { items: rows.map(parse), total };
}

/**
 * The next value of a named counter kept in the meta table (boleto sequence, NSU). Call it
 * inside the transaction that uses the value, so a rolled-back creation does not skip one.
 */
export function nextCounter(db: SandboxDatabase, name: string, first: number): number {
  const current = readMeta(db, `counter:${name}`);
  const next = current === undefined ? first : Number(current) + 1;
  writeMeta(db, `counter:${name}`, String(next));
  return next;
}

// ---------------------------------------------------------------------------------------------
// Boleto cancellations

export type CancellationOutcome = 'canceled' | 'ignored';

export interface CancellationRow {
  transaction_id: string;
  marketplace_id: string;
  requested_at: string;
  apply_at_ms: number;
  applied_at: string | null;
  outcome: CancellationOutcome | null;
}

export function findCancellation(db: SandboxDatabase, transactionId: string): CancellationRow | undefined {
  return db.statement('SELECT * FROM boleto_cancellations WHERE transaction_id = ?').get(transactionId) as
    CancellationRow | undefined;
}

export function insertCancellation(
  db: SandboxDatabase,
  row: { transactionId: string; marketplaceId: string; requestedAt: string; applyAtMs: number },
): void {
  db.statement(
    'INSERT INTO boleto_cancellations (transaction_id, marketplace_id, requested_at, apply_at_ms) VALUES (?, ?, ?, ?)',
  ).run(row.transactionId, row.marketplaceId, row.requestedAt, row.applyAtMs);
}

/** Requested cancellations whose processing delay has passed, earliest first. */
export function dueCancellations(db: SandboxDatabase, nowMs: number): CancellationRow[] {
  return db
    .statement('SELECT * FROM boleto_cancellations WHERE applied_at IS NULL AND apply_at_ms <= ? ORDER BY apply_at_ms')
    .all(nowMs) as CancellationRow[];
}

/** When the next requested cancellation falls due (ms since the epoch), if any is waiting. */
export function nextCancellationDueAt(db: SandboxDatabase): number | undefined {
  const row = db
    .statement('SELECT MIN(apply_at_ms) AS due FROM boleto_cancellations WHERE applied_at IS NULL')
    .get() as {
    due: number | null;
  };
  return row.due ?? undefined;
}

export function markCancellationApplied(
  db: SandboxDatabase,
  transactionId: string,
  appliedAt: string,
  outcome: CancellationOutcome,
): void {
  db.statement('UPDATE boleto_cancellations SET applied_at = ?, outcome = ? WHERE transaction_id = ?').run(
    appliedAt,
    outcome,
    transactionId,
  );
}
