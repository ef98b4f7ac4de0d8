/**
 * Bank account record → response, as allow-lists: the detail view and the list view carry
 * exactly the contract's fields, so the full account number and the account's internal metadata
 * cannot leak through a forgotten `delete`.
 */
import {
  BANK_NAMES,
  type BankAccount,
  type BankAccountDeleted,
  type BankAccountListItem,
} from '../../contract/index.js';
import type { BankAccountRecord } from '../store/bank-accounts.js';

/** The full bank name for the codes the contract lists; null for any other code. */
export const bankNameOf = (bankCode: string): string | null => BANK_NAMES[bankCode] ?? null;

/** The account number without the separator of its check digit ("12345-6" → "123456"). */
const compact = (accountNumber: string): string => accountNumber.replace(/-/g, '').toUpperCase();

export const lastFourDigits = (accountNumber: string): string => compact(accountNumber).slice(-4);

/**
 * "*****6789": every character but the last four becomes '*'. A number of four characters or
 * fewer is masked entirely, so the detail view never shows a full number (last4_digits still
 * carries those characters, as its name promises).
 */
export function maskAccountNumber(accountNumber: string): string {
  const digits = compact(accountNumber);
  if (digits.length <= 4) return '*'.repeat(digits.length);
  return '*'.repeat(digits.length - 4) + digits.slice(-4);
}

export const bankAccountUri = (record: BankAccountRecord): string =>
  `/v1/marketplaces/${record.marketplace_id}/bank_accounts/${record.id}`;

export function bankAccountView(record: BankAccountRecord): BankAccount {
  return {
    id: record.id,
    resource: 'bank_account',
    holder_name: record.holder_name,
    taxpayer_id: record.taxpayer_id,
    bank_code: record.bank_code,
    bank_name: bankNameOf(record.bank_code),
    type: record.type,
    last4_digits: lastFourDigits(record.account_number),
    account_number: maskAccountNumber(record.account_number),
    routing_number: record.routing_number,
    is_active: record.is_active,
    is_verified: record.is_verified,
    customer: record.customer,
    uri: bankAccountUri(record),
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export function bankAccountListItemView(record: BankAccountRecord): BankAccountListItem {
  return {
    id: record.id,
    resource: 'bank_account',
    holder_name: record.holder_name,
    bank_code: record.bank_code,
    bank_name: bankNameOf(record.bank_code),
    type: record.type,
    last4_digits: lastFourDigits(record.account_number),
    routing_number: record.routing_number,
    is_verified: record.is_verified,
    created_at: record.created_at,
  };
}

export function bankAccountDeletedView(record: BankAccountRecord): BankAccountDeleted {
  return { id: record.id, resource: 'bank_account', deleted: true };
}
