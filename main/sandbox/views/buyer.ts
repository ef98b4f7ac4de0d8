/**
 * Buyer record → response. The field set is the contract's: every updatable field is present
 * (null when unset), `taxpayer_id` for a person or `ein` for a company, `metadata` `{}` when unset
 * and absent from search results, timestamps in UTC with the Z suffix.
 *
 * Views are plain object literals of one fixed shape on purpose: the tax id that does not apply
 * is `undefined`, which the response serializer (and JSON.stringify) leaves out. Conditional
 * spreads gave every buyer a different hidden class and cost the GET route about a third of its
 * throughput in the serializer (see the sandbox benchmark).
 */
import type { Address, Buyer, BuyerDeleted } from '../../contract/index.js';
import type { BuyerRecord } from '../store/buyers.js';

/** A search result: the buyer without metadata. */
export type BuyerSearchResult = Omit<Buyer, 'metadata'>;

function addressView(address: Address | null): Address | null {
  return address === null ? null : { ...address };
}

export function buyerSearchView(record: BuyerRecord): BuyerSearchResult {
  return {
    id: record.id,
    resource: 'buyer',
    first_name: record.first_name,
    last_name: record.last_name,
    email: record.email,
    phone_number: record.phone_number,
    taxpayer_id: record.taxpayer_id,
    ein: record.ein,
    birthdate: record.birthdate,
    address: addressView(record.address),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export function buyerView(record: BuyerRecord): Buyer {
  return {
    id: record.id,
    resource: 'buyer',
    first_name: record.first_name,
    last_name: record.last_name,
    email: record.email,
    phone_number: record.phone_number,
    taxpayer_id: record.taxpayer_id,
    ein: record.ein,
    birthdate: record.birthdate,
    address: addressView(record.address),
    created_at: record.created_at,
    updated_at: record.updated_at,
    metadata: { ...record.metadata },
  };
}

export function buyerDeletedView(record: BuyerRecord): BuyerDeleted {
  return { id: record.id, resource: 'buyer', deleted: true, deleted_at: record.deleted_at ?? record.updated_at };
}
