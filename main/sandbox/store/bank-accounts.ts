/**
 * Bank accounts of sellers over the `bank_accounts` table. The record keeps the full account
 * number and an internal metadata object (documents, verification tokens) because a real
 * service has them; the views in views/bank-account.ts are allow-lists, so neither ever reaches
 * a response. Removal is soft: the row keeps `deleted_at`, and no lookup here returns it.
 */
import type { BankAccountType } from '../../contract/index.js';
import type { SandboxDatabase } from './database.js';
import { newId, offsetTimestamp } from '../time.js';

export interface BankAccountRecord {
  id: string;
  marketplace_id: string;
  /** Id of the seller that owns the account. */
  customer: string;
  holder_name: string;
  /** The holder's CPF (11 digits) or CNPJ (14 characters, numeric or alphanumeric), whichever was used. */
  taxpayer_id: string;
  bank_code: string;
  type: BankAccountType;
  /** The full account number as sent (internal only; responses show it masked). */
  account_number: string;
  routing_number: string;
  is_active: boolean;
  is_verified: boolean;
  /** Internal, sensitive data of the account; never part of a response. */
  metadata: Record<string, unknown>;
  /** ISO 8601 with numeric offset ("…+00:00"). */
  created_at: string;
  updated_at: string;
  deleted_at?: string;
}

export interface NewBankAccount {
  readonly customer: string;
  readonly holder_name: string;
  readonly taxpayer_id: string;
  readonly bank_code: string;
  readonly type: BankAccountType;
  readonly account_number: string;
  readonly routing_number: string;
  readonly is_verified?: boolean;
  readonly metadata?: Record<string, unknown>;
}

export interface BankAccountPage {
  readonly records: BankAccountRecord[];
  /** Active accounts of the seller, whatever the page. */
  readonly total: number;
}

const parse = (row: { data: string }): BankAccountRecord => JSON.parse(row.data) as BankAccountRecord;

export function insertBankAccount(
  db: SandboxDatabase,
  marketplaceId: string,
  input: NewBankAccount,
  now: Date,
): BankAccountRecord {
  const at = offsetTimestamp(now);
  const record: BankAccountRecord = {
    id: newId(),
    marketplace_id: marketplaceId,
    customer: input.customer,
    holder_name: input.holder_name,
    taxpayer_id: input.taxpayer_id,
    bank_code: input.bank_code,
    type: input.type,
    account_number: input.account_number,
    routing_number: input.routing_number,
    is_active: true,
    is_verified: input.is_verified ?? false,
    metadata: { ...(input.metadata ?? {}) },
    created_at: at,
    updated_at: at,
  };
  db.statement(
    'INSERT INTO bank_accounts (id, marketplace_id, seller_id, data, created_at, deleted_at) VALUES (?, ?, ?, ?, ?, NULL)',
  ).run(record.id, marketplaceId, record.customer, JSON.stringify(record), record.created_at);
  return record;
}

/** Active account of the marketplace, or undefined (another marketplace's account is not found either). */
export function findBankAccount(db: SandboxDatabase, marketplaceId: string, id: string): BankAccountRecord | undefined {
  const row = db
    .statement('SELECT data FROM bank_accounts WHERE id = ? AND marketplace_id = ? AND deleted_at IS NULL')
    .get(id, marketplaceId) as { data: string } | undefined;
  return row ? parse(row) : undefined;
}

/** One page of a seller's active accounts, oldest first (insertion order within a second). */
export function listBankAccounts(
  db: SandboxDatabase,
  marketplaceId: string,
  sellerId: string,
  page: { readonly limit: number; readonly offset: number },
): BankAccountPage {
  const rows = db
    .statement(
      `SELECT data FROM bank_accounts WHERE marketplace_id = ? AND seller_id = ? AND deleted_at IS NULL
       ORDER BY created_at, rowid LIMIT ? OFFSET ?`,
    )
    .all(marketplaceId, sellerId, page.limit, page.offset) as Array<{ data: string }>;
  const { total } = db
    .statement(
      'SELECT COUNT(*) AS total FROM bank_accounts WHERE marketplace_id = ? AND seller_id = ? AND deleted_at IS NULL',
    )
    .get(marketplaceId, sellerId) as { total: number };
  return { records: rows.map(parse), total };
}

/** Marks the account removed; returns the removed record, or undefined if there was no active account. */
export function softDeleteBankAccount(
  db: SandboxDatabase,
  marketplaceId: string,
  id: string,
  now: Date,
): BankAccountRecord | undefined {
  const remove = db.transaction((): BankAccountRecord | undefined => {
    const record = findBankAccount(db, marketplaceId, id);
    if (!record) return undefined;
    const at = offsetTimestamp(now);
    const removed: BankAccountRecord = { ...record, is_active: false, updated_at: at, deleted_at: at };
    db.statement('UPDATE bank_accounts SET data = ?, deleted_at = ? WHERE id = ? AND marketplace_id = ?').run(
      JSON.stringify(removed),
      at,
      id,
      marketplaceId,
    );
    return removed;
  });
  return remove();
}
