/**
 * Buyer records of the sandbox: creation, lookup by id and by tax id, PATCH semantics and soft
 * deletion over the `buyers` table. The record is the JSON in `data`; `taxpayer_id`, `ein` and
 * `deleted_at` are copied to columns so the lookups use the table's indexes. A removed buyer
 * keeps its row (with `deleted_at`) so the history stays, but no lookup here returns it.
 */
import type { Address, BuyerCreateRequest, BuyerUpdateRequest } from '../../contract/index.js';
import type { SandboxDatabase } from './database.js';
import { newId, utcTimestamp } from '../time.js';

export interface BuyerRecord {
  id: string;
  marketplace_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_number: string | null;
  /** CPF of a person (11 digits); exactly one of taxpayer_id / ein is set. */
  taxpayer_id?: string;
  /** CNPJ of a company (14 characters, numeric or alphanumeric, as sent). */
  ein?: string;
  birthdate: string | null;
  /** Only the keys that were sent; null when unset. */
  address: Address | null;
  metadata: Record<string, unknown>;
  /** ISO 8601 UTC ("…Z"). */
  created_at: string;
  updated_at: string;
  deleted_at?: string;
}

/** Which document a search names. */
export type BuyerTaxId = { readonly taxpayer_id: string } | { readonly ein: string };

/** "" and null both mean "no value" (contract, Update buyer rule 4). */
const textOrNull = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value === '' ? null : value;

/** An address without keys is no address. */
const addressOrNull = (value: Address | null | undefined): Address | null =>
  value === undefined || value === null || Object.keys(value).length === 0 ? null : { ...value };

const rowToRecord = (row: { data: string } | undefined): BuyerRecord | undefined =>
  row ? (JSON.parse(row.data) as BuyerRecord) : undefined;

/**
 * Active (not removed) buyer of the marketplace, or undefined. `includeRemoved` also finds a
 * removed one (a boleto issued before the removal still names its payer).
 */
export function findBuyer(
  db: SandboxDatabase,
  marketplaceId: string,
  buyerId: string,
  options: { readonly includeRemoved?: boolean } = {},
): BuyerRecord | undefined {
  const sql = options.includeRemoved
    ? 'SELECT data FROM buyers WHERE id = ? AND marketplace_id = ?'
    : 'SELECT data FROM buyers WHERE id = ? AND marketplace_id = ? AND deleted_at IS NULL';
  return rowToRecord(db.statement(sql).get(buyerId, marketplaceId) as { data: string } | undefined);
}

/** Active buyer of the marketplace with this CPF or CNPJ, or undefined. */
export function findBuyerByTaxId(
  db: SandboxDatabase,
  marketplaceId: string,
  taxId: BuyerTaxId,
): BuyerRecord | undefined {
  const [column, value] = 'taxpayer_id' in taxId ? ['taxpayer_id', taxId.taxpayer_id] : ['ein', taxId.ein];
  return rowToRecord(
    db
      .statement(`SELECT data FROM buyers WHERE marketplace_id = ? AND ${column} = ? AND deleted_at IS NULL`)
      .get(marketplaceId, value) as { data: string } | undefined,
  );
}

/**
 * Stores a new buyer built from a creation request whose schema and tax id were already checked.
 * The duplicate check belongs to the caller (it answers 409 in its own words).
 */
export function insertBuyer(
  db: SandboxDatabase,
  marketplaceId: string,
  request: BuyerCreateRequest,
  now: Date,
): BuyerRecord {
  const at = utcTimestamp(now);
  const record: BuyerRecord = {
    id: newId(),
    marketplace_id: marketplaceId,
    first_name: textOrNull(request.first_name),
    last_name: textOrNull(request.last_name),
    email: textOrNull(request.email),
    phone_number: textOrNull(request.phone_number),
    ...(request.taxpayer_id !== undefined ? { taxpayer_id: request.taxpayer_id } : { ein: request.ein }),
    birthdate: textOrNull(request.birthdate),
    address: addressOrNull(request.address),
    metadata: { ...(request.metadata ?? {}) },
    created_at: at,
    updated_at: at,
  };
  db.statement(
    'INSERT INTO buyers (id, marketplace_id, taxpayer_id, ein, data, created_at, deleted_at) VALUES (?, ?, ?, ?, ?, ?, NULL)',
  ).run(
    record.id,
    marketplaceId,
    record.taxpayer_id ?? null,
    record.ein ?? null,
    JSON.stringify(record),
    record.created_at,
  );
  return record;
}

/**
 * The buyer after a PATCH whose body was already validated: each field sent replaces the old
 * value (address and metadata as whole objects, rules 3 and 5), "" or null removes it (rule 4),
 * and updated_at always moves forward — by one millisecond if the clock has not.
 */
export function applyBuyerUpdate(record: BuyerRecord, patch: BuyerUpdateRequest, now: Date): BuyerRecord {
  const next: BuyerRecord = { ...record };
  if ('first_name' in patch) next.first_name = textOrNull(patch.first_name);
  if ('last_name' in patch) next.last_name = textOrNull(patch.last_name);
  if ('email' in patch) next.email = textOrNull(patch.email);
  if ('phone_number' in patch) next.phone_number = textOrNull(patch.phone_number);
  if ('birthdate' in patch) next.birthdate = textOrNull(patch.birthdate);
  if ('address' in patch) next.address = addressOrNull(patch.address);
  if ('metadata' in patch) next.metadata = { ...(patch.metadata ?? {}) };
  const previous = Date.parse(record.updated_at);
  next.updated_at = utcTimestamp(now.getTime() > previous ? now : new Date(previous + 1));
  return next;
}

/** Writes an updated record back (id, marketplace and tax id never change). */
export function saveBuyer(db: SandboxDatabase, record: BuyerRecord): void {
  db.statement('UPDATE buyers SET data = ? WHERE id = ? AND marketplace_id = ?').run(
    JSON.stringify(record),
    record.id,
    record.marketplace_id,
  );
}

/** Marks the buyer removed; returns the removed record, or undefined if there was no active buyer. */
export function softDeleteBuyer(
  db: SandboxDatabase,
  marketplaceId: string,
  buyerId: string,
  now: Date,
): BuyerRecord | undefined {
  const remove = db.transaction((): BuyerRecord | undefined => {
    const record = findBuyer(db, marketplaceId, buyerId);
    if (!record) return undefined;
    const removed: BuyerRecord = { ...record, deleted_at: utcTimestamp(now) };
    db.statement('UPDATE buyers SET data = ?, deleted_at = ? WHERE id = ? AND marketplace_id = ?').run(
      JSON.stringify(removed),
      removed.deleted_at,
      buyerId,
      marketplaceId,
    );
    return removed;
  });
  return remove();
}
