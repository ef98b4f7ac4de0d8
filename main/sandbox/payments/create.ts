/**
 * Creating a transaction from a request that passed the contract's rules: the seller and buyer
 * checks, then the record of its kind. Every kind is created pending with one history entry
 * (created / succeeded); boleto and bolepix carry their numbers at once, card payments wait for
 * the terminal (PINPAD) or the phone (tap to pay).
 */
import type {
  BolepixTransactionRequest,
  BoletoTransactionRequest,
  PinpadTransactionRequest,
  TapToPayTransactionRequest,
  TransactionRequest,
} from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { findSeller, type SellerRecord } from '../marketplaces.js';
import { findBuyer } from '../store/buyers.js';
import { insertTransaction, type TransactionRecord } from '../store/transactions.js';
import { newId, offsetTimestamp } from '../time.js';
import { bolepixTerms, boletoTerms, issueBoleto, issuePix, type BoletoTerms } from './boleto.js';
import { historyEntry } from './transitions.js';

/** A transaction record before its kind is set. */
export type BlankTransaction = Omit<TransactionRecord, 'payment_type' | 'payment_locale'>;

/** What every kind of request gives a new transaction (all of them carry these fields). */
export interface TransactionBasics {
  readonly amount: number;
  readonly description: string;
  readonly reference_id?: string | null;
  readonly on_behalf_of: string;
  readonly metadata?: TransactionRecord['metadata'];
}

/**
 * The record every new transaction starts from, whatever its kind: pending, the whole amount,
 * nothing authorized and no history yet. Exported for tests that write or serve records of
 * their own, so they start from the same record the sandbox does.
 */
export function blankTransaction(
  marketplaceId: string,
  id: string,
  request: TransactionBasics,
  timestamp: string,
): BlankTransaction {
  return {
    id,
    resource: 'transaction',
    status: 'pending',
    amount: request.amount,
    original_amount: request.amount,
    currency: 'BRL',
    description: request.description,
    reference_id: request.reference_id ?? null,
    on_behalf_of: request.on_behalf_of,
    customer: null,
    terminal: null,
    notification: null,
    installment_plan: null,
    transaction_number: null,
    gateway_authorizer: null,
    payment_authorization: null,
    point_of_sale: null,
    payment_method: null,
    error: null,
    captured: false,
    voided: false,
    voided_at: null,
    refunded: false,
    history: [],
    metadata: request.metadata ?? {},
    uri: `/v1/marketplaces/${marketplaceId}/transactions/${id}`,
    created_at: timestamp,
    updated_at: timestamp,
  };
}

const newRecord = (marketplaceId: string, request: TransactionRequest, at: Date): BlankTransaction =>
  blankTransaction(marketplaceId, newId(), request, offsetTimestamp(at));

function withCreatedEntry(record: TransactionRecord, at: Date): TransactionRecord {
  return { ...record, history: [historyEntry(record, at, { operation_type: 'created', status: 'succeeded' })] };
}

function terminalRecord(
  marketplaceId: string,
  request: PinpadTransactionRequest | TapToPayTransactionRequest,
  at: Date,
): TransactionRecord {
  return {
    ...newRecord(marketplaceId, request, at),
    payment_type: request.payment_type,
    payment_locale: request.payment_locale,
    terminal: request.terminal,
    notification: request.notification ?? null,
    installment_plan: request.installment_plan
      ? { number_installments: request.installment_plan.number_installments, mode: 'interest_free' }
      : null,
  };
}

function boletoRecord(
  ctx: SandboxContext,
  marketplaceId: string,
  request: BoletoTransactionRequest | BolepixTransactionRequest,
  terms: BoletoTerms,
  seller: SellerRecord,
  at: Date,
): TransactionRecord {
  const base = newRecord(marketplaceId, request, at);
  const record: TransactionRecord = {
    ...base,
    payment_type: request.payment_type,
    payment_locale: 'api',
    customer: request.customer,
    point_of_sale: { entry_mode: 'barcode', identification_number: null },
    boleto: issueBoleto(ctx.db, { id: base.id, amount: request.amount, terms }),
  };
  if (request.payment_type === 'bolepix') {
    record.pix = issuePix({
      id: base.id,
      amount: request.amount,
      merchantName: seller.business_name,
      dueDate: terms.expirationDate,
    });
  }
  return record;
}

/**
 * Checks what only the store can tell (the seller and buyer exist in this marketplace, the
 * boleto's dates and limits), then stores the new transaction. Synchronous: it runs inside the
 * caller's database transaction (the idempotency record and the boleto sequence go with it).
 */
export function createTransaction(
  ctx: SandboxContext,
  marketplaceId: string,
  request: TransactionRequest,
  at: Date,
): TransactionRecord {
  let record: TransactionRecord;
  if (request.payment_type === 'boleto' || request.payment_type === 'bolepix') {
    const terms = request.payment_type === 'boleto' ? boletoTerms(request, at) : bolepixTerms(request, at);
    const seller = findSeller(ctx, marketplaceId, request.on_behalf_of);
    if (!seller) throw notFound('Seller not found');
    const inlinePayer = request.payment_type === 'boleto' && request.payment_method?.buyer !== undefined;
    if (!inlinePayer && !findBuyer(ctx.db, marketplaceId, request.customer)) throw notFound('Buyer not found');
    const create = ctx.db.transaction(() => {
      const issued = withCreatedEntry(boletoRecord(ctx, marketplaceId, request, terms, seller, at), at);
      insertTransaction(ctx.db, marketplaceId, issued);
      return issued;
    });
    record = create();
  } else {
    if (!findSeller(ctx, marketplaceId, request.on_behalf_of)) throw notFound('Seller not found');
    record = withCreatedEntry(terminalRecord(marketplaceId, request, at), at);
    insertTransaction(ctx.db, marketplaceId, record);
  }
  return record;
}
