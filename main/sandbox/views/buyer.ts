/**
 * Buyer record → response. The field set is the contract's: every updatable field is present
 * (null when unset), `taxpayer_id` for a person or `ein` for a company, `metadata` `{}` when unset
 * and absent from search results, timestamps in UTC with the Z suffix.
 */
import type { Buyer, BuyerDeleted } from '../../contract/index.js';
import type { BuyerRecord } from '../store/buyers.js';

/** A search result: the buyer without metadata. */
export type BuyerSearchResult = Omit<Buyer, 'metadata'>;

export function buyerSearchView(record: BuyerRecord): BuyerSearchResult {
  return {
    id: record.id,
    resource: 'buyer',
    first_name: record.first_name,
    last_name: record.last_name,
    email: record.email,
    phone_number: record.phone_number,
    ...(record.taxpayer_id !== undefined ? { taxpayer_id: record.taxpayer_id } : {}),
    ...(record.ein !== undefined ? { ein: record.ein } : {}),
    birthdate: record.birthdate,
    address: record.address === null ? null : { ...record.address },
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export function buyerView(record: BuyerRecord): Buyer {
  return { ...buyerSearchView(record), metadata: { ...record.metadata } };
}

export function buyerDeletedView(record: BuyerRecord): BuyerDeleted {
  return { id: record.id, resource: 'buyer', deleted: true, deleted_at: record.deleted_at ?? record.updated_at };
}
