/**
 * State transitions of a stored transaction. Each takes the current record and the time and
 * returns the next record (a copy) with its history entry, plus the webhook event to send once
 * the change is committed — or `changed: false` when the request is a no-op that must still
 * answer 200 (the idempotent repeats). Requests a state forbids throw the HTTP error to answer.
 *
 *   card:   pending ─authorize→ succeeded ─void/reversal/chip refused→ canceled | reversed
 *                   └─decline→ failed
 *           pending ─void/reversal→ canceled
 *   boleto: pending(not_paid) ─pay→ succeeded(paid)
 *                             ─cancellation applied→ canceled(canceled)
 */
import type { WebhookEventInput } from '../context.js';
import { badRequest, conflict } from '../errors.js';
import type { HistoryRecord, TransactionRecord } from '../store/transactions.js';
import { dateOnly, historyTimestamp, newId, offsetTimestamp } from '../time.js';
import { cancellationIgnoredEvent, paidEvent, undoneEvent } from './events.js';

export interface Transition {
  readonly record: TransactionRecord;
  readonly changed: boolean;
  readonly event?: WebhookEventInput | undefined;
}

export const unchanged = (record: TransactionRecord): Transition => ({ record, changed: false });

export const isBoleto = (record: TransactionRecord): boolean =>
  record.payment_type === 'boleto' || record.payment_type === 'bolepix';

type HistoryFields = Partial<Omit<HistoryRecord, 'id' | 'transaction' | 'created_at' | 'operation_type' | 'status'>> &
  Pick<HistoryRecord, 'operation_type' | 'status'>;

export function historyEntry(record: TransactionRecord, at: Date, fields: HistoryFields): HistoryRecord {
  return {
    id: newId(),
    transaction: record.id,
    amount: fields.amount ?? record.amount,
    operation_type: fields.operation_type,
    status: fields.status,
    response_code: fields.response_code ?? null,
    response_message: fields.response_message ?? null,
    authorization_code: fields.authorization_code ?? null,
    authorization_nsu: fields.authorization_nsu ?? null,
    created_at: historyTimestamp(at),
  };
}

/** A copy of the record with `changes`, a new history entry and a new updated_at. */
export function withChange(
  record: TransactionRecord,
  at: Date,
  changes: Partial<TransactionRecord>,
  history: HistoryFields,
): TransactionRecord {
  const next: TransactionRecord = { ...record, ...changes, updated_at: offsetTimestamp(at) };
  next.history = [...record.history, historyEntry(next, at, history)];
  return next;
}

/** The chip accepted the issuer's answer: recorded once, nothing else changes. */
export function completeAccepted(record: TransactionRecord, at: Date): Transition {
  if (record.status === 'pending') throw conflict('Transaction has not been authorized yet');
  if (record.status === 'failed') return unchanged(record);
  if (record.status !== 'succeeded') throw conflict(`Transaction is ${record.status}; it cannot be completed`);
  if (record.history.some((entry) => entry.operation_type === 'completion')) return unchanged(record);
  return {
    record: withChange(
      record,
      at,
      {},
      { operation_type: 'completion', status: 'succeeded', response_message: 'Chip accepted' },
    ),
    changed: true,
  };
}

/**
 * Undoes an approved payment (the chip refused it, or the terminal lost track of it). Pending:
 * nothing was authorized, so the transaction is just canceled. Failed, reversed, canceled: no-op.
 */
export function reverse(record: TransactionRecord, reason: string, at: Date): Transition {
  if (record.status === 'succeeded') {
    const next = withChange(
      record,
      at,
      { status: 'reversed' },
      {
        operation_type: 'reversal',
        status: 'succeeded',
        response_message: `Reversed (${reason})`,
      },
    );
    return {
      record: next,
      changed: true,
      event: undoneEvent(next, { event: 'transaction.reversed', amount: next.amount, reason }, at),
    };
  }
  if (record.status === 'pending') {
    const next = withChange(
      record,
      at,
      { status: 'canceled' },
      {
        operation_type: 'canceled',
        status: 'succeeded',
        response_message: `Canceled before authorization (${reason})`,
      },
    );
    return {
      record: next,
      changed: true,
      event: undoneEvent(next, { event: 'transaction.canceled', amount: next.amount, reason }, at),
    };
  }
  return unchanged(record);
}

/**
 * Voids a card transaction (the service family's /void). Without an amount, or with the whole
 * remaining amount, it is canceled; a smaller amount is a partial void (captured credit only):
 * `amount` drops, `original_amount` stays, the status stays succeeded.
 */
export function voidTransaction(record: TransactionRecord, amount: number | undefined, at: Date): Transition {
  if (isBoleto(record)) throw badRequest('Use the boleto cancellation endpoint');
  if (record.status === 'canceled') return unchanged(record);
  if (record.status !== 'pending' && record.status !== 'succeeded') {
    throw conflict(`Transaction is ${record.status}; it cannot be voided`);
  }
  if (amount !== undefined && amount > record.amount) {
    throw badRequest(`Field amount must not exceed the transaction's remaining amount (${record.amount})`);
  }
  const partial = amount !== undefined && amount < record.amount;
  if (partial && (record.status !== 'succeeded' || record.payment_type !== 'credit' || !record.captured)) {
    throw badRequest('Partial void is allowed for captured credit transactions only');
  }
  if (partial) {
    const next = withChange(
      record,
      at,
      { amount: record.amount - amount },
      {
        operation_type: 'void_partial',
        status: 'succeeded',
        amount,
      },
    );
    return {
      record: next,
      changed: true,
      event: undoneEvent(next, { event: 'transaction.canceled', amount, reason: 'partial_void' }, at),
    };
  }
  const next = withChange(
    record,
    at,
    { status: 'canceled', voided: true, voided_at: offsetTimestamp(at) },
    {
      operation_type: 'void',
      status: 'succeeded',
    },
  );
  return {
    record: next,
    changed: true,
    event: undoneEvent(next, { event: 'transaction.canceled', amount: next.amount, reason: 'void' }, at),
  };
}

/** The ISPB the sandbox's Pix payments come from (no real institution's). */
export const SANDBOX_PAYER_ISPB = '99999999';

/** A Pix end-to-end id as the BCB lays it out: "E", the payer's ISPB, yyyyMMddHHmm (UTC), 11 letters or digits. */
export function endToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/[-T:]/g, '').slice(0, 12);
  return `E${SANDBOX_PAYER_ISPB}${stamp}${newId().slice(0, 11)}`;
}

/**
 * The boleto (or bolepix) was paid: at the bank (the barcode, until the payment limit date), or
 * by Pix (a bolepix's QR code, until the Pix code's expiry: `pix.paid_at` and `end_to_end_id`).
 */
export function markBoletoPaid(record: TransactionRecord, at: Date, via: 'boleto' | 'pix' = 'boleto'): Transition {
  if (!isBoleto(record) || !record.boleto) throw badRequest('Transaction is not a boleto');
  if (via === 'pix' && (record.payment_type !== 'bolepix' || !record.pix)) {
    throw badRequest('Only a bolepix can be paid by Pix');
  }
  if (record.boleto.status === 'canceled') throw conflict('Boleto was canceled; payment refused');
  if (record.boleto.status === 'paid') throw conflict('Boleto is already paid');
  if (via === 'pix' && record.pix && at.getTime() > Date.parse(record.pix.expiration_date_time)) {
    throw conflict(`The Pix code expired at ${record.pix.expiration_date_time}; payment refused`);
  }
  if (dateOnly(at) > record.boleto.payment_limit_date) {
    throw conflict(`Boleto is past its payment limit date (${record.boleto.payment_limit_date}); payment refused`);
  }
  const paidAt = offsetTimestamp(at);
  const pix =
    via === 'pix' && record.pix ? { ...record.pix, paid_at: paidAt, end_to_end_id: endToEndId(at) } : record.pix;
  const next = withChange(
    record,
    at,
    {
      status: 'succeeded',
      captured: true,
      boleto: { ...record.boleto, status: 'paid', paid_at: paidAt },
      ...(pix ? { pix } : {}),
    },
    { operation_type: 'paid', status: 'succeeded', ...(via === 'pix' ? { response_message: 'Paid by Pix' } : {}) },
  );
  return { record: next, changed: true, event: paidEvent(next, at) };
}

/** A requested cancellation reached the end of its processing delay. A paid boleto ignores it. */
export function applyBoletoCancellation(
  record: TransactionRecord,
  at: Date,
): Transition & { outcome: 'canceled' | 'ignored' } {
  if (!record.boleto || record.boleto.status === 'paid') {
    return { ...unchanged(record), outcome: 'ignored', event: cancellationIgnoredEvent(record, at) };
  }
  if (record.boleto.status === 'canceled') return { ...unchanged(record), outcome: 'canceled' };
  const next = withChange(
    record,
    at,
    { status: 'canceled', boleto: { ...record.boleto, status: 'canceled' } },
    { operation_type: 'canceled', status: 'succeeded' },
  );
  return {
    record: next,
    changed: true,
    outcome: 'canceled',
    event: undoneEvent(next, { event: 'transaction.canceled', amount: next.amount, reason: 'boleto_canceled' }, at),
  };
}
