/**
 * Responses → the client's types. The service writes money as integers or decimal strings and
 * installment counts as integers or strings; the client's `Transaction` has integer centavos
 * and an integer count everywhere. Responses are checked lightly — an object, an id, a status,
 * readable amounts — and anything else is an `InvalidResponseError`, never a half-read record.
 */
import {
  EmvTablesAnswer,
  schemaViolations,
  type BoletoCancellation as WireBoletoCancellation,
  type ListEnvelope,
  type TerminalAuthorizationResult as WireAuthorizationResult,
  type Transaction as WireTransaction,
} from '../contract/index.js';
import { InvalidResponseError } from './errors.js';
import { toCentavos } from './money.js';

/** Where a response came from, for the error. */
export interface ResponseOrigin {
  readonly method: string;
  readonly path: string;
}

/** The contract's statuses plus the rest of the service family's enum (notes §1.2). */
export type TransactionStatus =
  WireTransaction['status'] | 'new' | 'pre_authorized' | 'refunded' | 'partial_refunded' | 'dispute' | 'charged_back';

export const TRANSACTION_STATUSES: ReadonlySet<string> = new Set<TransactionStatus>([
  'new',
  'pending',
  'pre_authorized',
  'succeeded',
  'failed',
  'canceled',
  'reversed',
  'refunded',
  'partial_refunded',
  'dispute',
  'charged_back',
]);

export interface TransactionHistoryEntry extends Omit<WireTransaction['history'][number], 'amount'> {
  /** Centavos. */
  readonly amount: number;
}

export interface InstallmentPlan {
  readonly number_installments: number;
  readonly mode?: 'interest_free' | 'with_interest';
}

/** A transaction with integer centavos and an integer installment count. */
export interface Transaction extends Omit<
  WireTransaction,
  'status' | 'amount' | 'original_amount' | 'installment_plan' | 'history'
> {
  readonly status: TransactionStatus;
  /** Centavos (what is left after partial voids). */
  readonly amount: number;
  /** Centavos, as created. */
  readonly original_amount: number;
  readonly installment_plan: InstallmentPlan | null;
  readonly history: readonly TransactionHistoryEntry[];
}

export interface TerminalAuthorizationResult extends Omit<WireAuthorizationResult, 'transaction'> {
  readonly transaction: Transaction;
}

export type BoletoCancellation = WireBoletoCancellation;

/** A page of records. */
export type List<T> = Omit<ListEnvelope<T>, 'items'> & { readonly items: readonly T[] };

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ID = /^[0-9a-fA-F]{32}$/;

function invalid(origin: ResponseOrigin, problem: string, raw: unknown): InvalidResponseError {
  return new InvalidResponseError({
    message: `Payments API answered ${origin.method} ${origin.path} with an unexpected body: ${problem}`,
    raw,
    method: origin.method,
    path: origin.path,
  });
}

function amountField(value: unknown, field: string, origin: ResponseOrigin, raw: unknown): number {
  if (typeof value !== 'number' && typeof value !== 'string') throw invalid(origin, `${field} is not an amount`, raw);
  try {
    return toCentavos(value);
  } catch (error) {
    throw invalid(origin, `${field}: ${(error as Error).message}`, raw);
  }
}

function installments(value: unknown, origin: ResponseOrigin, raw: unknown): InstallmentPlan | null {
  if (value === null || value === undefined) return null;
  if (!isRecord(value)) throw invalid(origin, 'installment_plan is not an object', raw);
  const count = value.number_installments;
  const number =
    typeof count === 'number' && Number.isSafeInteger(count)
      ? count
      : typeof count === 'string' && /^[0-9]+$/.test(count)
        ? Number(count)
        : undefined;
  if (number === undefined) throw invalid(origin, 'installment_plan.number_installments is not an integer', raw);
  return { ...(value as Omit<InstallmentPlan, 'number_installments'>), number_installments: number };
}

/** Checks the record has a 32-hex id (and the expected `resource`, when it names one). */
export function normalizeRecord<T>(body: unknown, resource: string, origin: ResponseOrigin): T {
  if (!isRecord(body)) throw invalid(origin, `expected a ${resource} object`, body);
  if (typeof body.id !== 'string' || !ID.test(body.id)) throw invalid(origin, `${resource} has no valid id`, body);
  if (body.resource !== undefined && body.resource !== resource) {
    throw invalid(origin, `expected resource "${resource}", got ${JSON.stringify(body.resource)}`, body);
  }
  return body as T;
}

export function normalizeTransaction(body: unknown, origin: ResponseOrigin): Transaction {
  const record = normalizeRecord<Record<string, unknown>>(body, 'transaction', origin);
  const status = record.status;
  if (typeof status !== 'string' || !TRANSACTION_STATUSES.has(status)) {
    throw invalid(origin, `transaction status ${JSON.stringify(status)} is unknown`, body);
  }
  const amount = amountField(record.amount, 'amount', origin, body);
  const original =
    record.original_amount === undefined || record.original_amount === null
      ? amount
      : amountField(record.original_amount, 'original_amount', origin, body);
  const rawHistory = record.history ?? [];
  if (!Array.isArray(rawHistory)) throw invalid(origin, 'history is not a list', body);
  const history = rawHistory.map((entry: unknown, index) => {
    if (!isRecord(entry)) throw invalid(origin, `history[${index}] is not an object`, body);
    return { ...entry, amount: amountField(entry.amount, `history[${index}].amount`, origin, body) };
  });
  return {
    ...record,
    status: status as TransactionStatus,
    amount,
    original_amount: original,
    installment_plan: installments(record.installment_plan, origin, body),
    history: history as unknown as TransactionHistoryEntry[],
    // A provider that leaves metadata out (or sends null) has none: the lookups read it as an object.
    metadata: isRecord(record.metadata) ? record.metadata : {},
  } as unknown as Transaction;
}

/** A list envelope (or a bare array, which some endpoints of the family return). */
export function normalizeList<T>(body: unknown, item: (value: unknown) => T, origin: ResponseOrigin): List<T> {
  if (Array.isArray(body)) {
    const items = body.map(item);
    return {
      resource: 'list',
      uri: origin.path,
      items,
      has_more: false,
      limit: items.length,
      offset: 0,
      total: items.length,
    };
  }
  if (!isRecord(body) || !Array.isArray(body.items)) throw invalid(origin, 'expected a list with items', body);
  const count = (value: unknown, fallback: number): number => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    if (typeof value === 'string' && /^[0-9]+$/.test(value)) return Number(value);
    return fallback;
  };
  const items = body.items.map(item);
  return {
    resource: 'list',
    uri: typeof body.uri === 'string' ? body.uri : origin.path,
    items,
    has_more: body.has_more === true,
    limit: count(body.limit, items.length),
    offset: count(body.offset, 0),
    total: count(body.total ?? body.query_count, items.length),
  };
}

/** The terminal channel's EMV tables answer, whole: `tables` present whenever `changed`. */
export function normalizeEmvTablesAnswer(body: unknown, origin: ResponseOrigin): EmvTablesAnswer {
  const problems = schemaViolations(EmvTablesAnswer, body).map((p) => `${p.field}: ${p.message}`);
  if (problems.length === 0 && (body as EmvTablesAnswer).changed && (body as EmvTablesAnswer).tables === undefined) {
    problems.push('tables: is missing although changed is true');
  }
  if (problems.length > 0) throw invalid(origin, `unusable EMV tables (${problems.join('; ')})`, body);
  return body as EmvTablesAnswer;
}

export function normalizeAuthorizationResult(body: unknown, origin: ResponseOrigin): TerminalAuthorizationResult {
  if (!isRecord(body)) throw invalid(origin, 'expected an authorization result', body);
  if (body.decision !== 'approved' && body.decision !== 'declined') {
    throw invalid(origin, `decision ${JSON.stringify(body.decision)} is neither approved nor declined`, body);
  }
  if (typeof body.response_code !== 'string') throw invalid(origin, 'response_code is missing', body);
  return {
    ...(body as unknown as WireAuthorizationResult),
    transaction: normalizeTransaction(body.transaction, origin),
  };
}

export function normalizeCancellation(body: unknown, origin: ResponseOrigin): BoletoCancellation {
  if (!isRecord(body) || body.resource !== 'cancellation') throw invalid(origin, 'expected a cancellation', body);
  if (body.status !== 'REQUESTED' && body.status !== 'IGNORED') {
    throw invalid(origin, `cancellation status ${JSON.stringify(body.status)} is unknown`, body);
  }
  if (typeof body.transaction_id !== 'string') throw invalid(origin, 'transaction_id is missing', body);
  return body as unknown as BoletoCancellation;
}

/** `{id, resource, deleted: true}` */
export function normalizeDeleted<T>(body: unknown, resource: string, origin: ResponseOrigin): T {
  const record = normalizeRecord<Record<string, unknown>>(body, resource, origin);
  if (record.deleted !== true) throw invalid(origin, 'expected deleted: true', body);
  return record as T;
}
