/**
 * Payment rows ⇄ records. Reading is where damage shows: a JSON column that does not parse, or a
 * state this version does not know, becomes a JournalError CORRUPT naming the payment, so one bad
 * row can be reported and skipped instead of stopping the agent.
 */
import type { Centavos } from '../money.js';
import { PAYMENT_STATES, type PaymentState } from '../states.js';
import { JournalError } from './errors.js';
import type { JournalEvent, PaymentRecord } from './record.js';

export interface PaymentRow {
  readonly id: string;
  readonly reference_id: string;
  readonly source: string;
  readonly terminal: string;
  readonly amount: number;
  readonly payment_type: string;
  readonly installments: number | null;
  readonly description: string;
  readonly notification: string | null;
  readonly params_hash: string;
  readonly confirmation: string;
  readonly state: string;
  readonly transaction_id: string | null;
  readonly card_json: string | null;
  readonly authorization_json: string | null;
  readonly problem_json: string | null;
  readonly customer_tax_id: string | null;
  readonly confirm_deadline: string | null;
  readonly pending_undo_json: string | null;
  readonly created_at: string;
  readonly updated_at: string;
  readonly finished_at: string | null;
  readonly owner: string | null;
}

export interface EventRow {
  readonly payment_id: string;
  readonly seq: number;
  readonly at: string;
  readonly from_state: string | null;
  readonly to_state: string;
  readonly note: string;
}

const KNOWN_STATES: ReadonlySet<string> = new Set(PAYMENT_STATES);

function state(value: string, paymentId: string, column: string): PaymentState {
  if (!KNOWN_STATES.has(value)) {
    throw new JournalError('CORRUPT', `payment ${paymentId}: unknown state in column ${column}`, { paymentId });
  }
  return value as PaymentState;
}

/** A JSON object column, or null. */
function object<T>(text: string | null, paymentId: string, column: string): T | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new JournalError('CORRUPT', `payment ${paymentId}: column ${column} is not valid JSON`, {
      paymentId,
      cause: error,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new JournalError('CORRUPT', `payment ${paymentId}: column ${column} does not hold an object`, { paymentId });
  }
  return value as T;
}

export function toRecord(row: PaymentRow): PaymentRecord {
  return {
    id: row.id,
    referenceId: row.reference_id,
    source: row.source as PaymentRecord['source'],
    terminal: row.terminal,
    // Written as Centavos by createIntent (the column is the journal's own, INTEGER NOT NULL).
    amount: row.amount as Centavos,
    paymentType: row.payment_type as PaymentRecord['paymentType'],
    installments: row.installments,
    description: row.description,
    notification: row.notification,
    paramsHash: row.params_hash,
    confirmation: row.confirmation as PaymentRecord['confirmation'],
    state: state(row.state, row.id, 'state'),
    transactionId: row.transaction_id,
    card: object(row.card_json, row.id, 'card_json'),
    authorization: object(row.authorization_json, row.id, 'authorization_json'),
    problem: object(row.problem_json, row.id, 'problem_json'),
    customerTaxId: row.customer_tax_id,
    confirmDeadline: row.confirm_deadline,
    pendingUndo: object(row.pending_undo_json, row.id, 'pending_undo_json'),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    finishedAt: row.finished_at,
    owner: row.owner,
  };
}

const json = (value: object | null): string | null => (value === null ? null : JSON.stringify(value));

/** Named parameters for the INSERT and UPDATE statements (names are the column names). */
export function toRow(record: PaymentRecord): PaymentRow {
  return {
    id: record.id,
    reference_id: record.referenceId,
    source: record.source,
    terminal: record.terminal,
    amount: record.amount,
    payment_type: record.paymentType,
    installments: record.installments,
    description: record.description,
    notification: record.notification,
    params_hash: record.paramsHash,
    confirmation: record.confirmation,
    state: record.state,
    transaction_id: record.transactionId,
    card_json: json(record.card),
    authorization_json: json(record.authorization),
    problem_json: json(record.problem),
    customer_tax_id: record.customerTaxId,
    confirm_deadline: record.confirmDeadline,
    pending_undo_json: json(record.pendingUndo),
    created_at: record.createdAt,
    updated_at: record.updatedAt,
    finished_at: record.finishedAt,
    owner: record.owner,
  };
}

export const PAYMENT_COLUMNS: readonly (keyof PaymentRow)[] = [
  'id',
  'reference_id',
  'source',
  'terminal',
  'amount',
  'payment_type',
  'installments',
  'description',
  'notification',
  'params_hash',
  'confirmation',
  'state',
  'transaction_id',
  'card_json',
  'authorization_json',
  'problem_json',
  'customer_tax_id',
  'confirm_deadline',
  'pending_undo_json',
  'created_at',
  'updated_at',
  'finished_at',
  'owner',
];

export function toEvent(row: EventRow): JournalEvent {
  return {
    paymentId: row.payment_id,
    seq: row.seq,
    at: row.at,
    from: row.from_state === null ? null : state(row.from_state, row.payment_id, 'events.from_state'),
    to: state(row.to_state, row.payment_id, 'events.to_state'),
    note: row.note,
  };
}
