/**
 * Webhook event bodies (the flat shapes of main/contract/webhooks.ts) built from a stored
 * transaction after a state change. Amounts in events are always integer centavos.
 */
import type { CardPaymentType, EntryMode } from '../../contract/index.js';
import type { WebhookEventInput } from '../context.js';
import type { TransactionRecord } from '../store/transactions.js';
import { offsetTimestamp } from '../time.js';

const isCard = (type: TransactionRecord['payment_type']): type is CardPaymentType =>
  type === 'credit' || type === 'debit';

/** A card payment approved (terminal or phone). */
export function approvedEvent(record: TransactionRecord, at: Date): WebhookEventInput {
  const card = record.payment_method;
  const entryMode: EntryMode | undefined = record.point_of_sale?.entry_mode;
  return {
    event: 'transaction.succeeded',
    transaction_id: record.id,
    payment_locale: record.payment_locale,
    payment_type: record.payment_type,
    status: 'succeeded',
    amount: record.amount,
    ...(record.installment_plan
      ? { installment_plan: { number_installments: record.installment_plan.number_installments } }
      : {}),
    ...(record.payment_authorization
      ? {
          authorization_code: record.payment_authorization.authorization_code,
          nsu: record.payment_authorization.authorization_nsu,
        }
      : {}),
    ...(record.terminal !== null ? { terminal: record.terminal } : {}),
    ...(card && entryMode ? { card: { brand: card.card_brand, last4: card.last4_digits, entry_mode: entryMode } } : {}),
    reference_id: record.reference_id,
    approved_at: offsetTimestamp(at),
  };
}

/** A card payment declined, or not read at all. */
export function failedEvent(record: TransactionRecord, at: Date): WebhookEventInput | undefined {
  if (!isCard(record.payment_type) || record.error === null) return undefined;
  return {
    event: 'transaction.failed',
    transaction_id: record.id,
    payment_locale: record.payment_locale,
    payment_type: record.payment_type,
    status: 'failed',
    error_code: record.error.code,
    error_message: record.error.message,
    ...(record.terminal !== null ? { terminal: record.terminal } : {}),
    reference_id: record.reference_id,
    failed_at: offsetTimestamp(at),
  };
}

/** A boleto or bolepix paid. */
export function paidEvent(record: TransactionRecord, at: Date): WebhookEventInput {
  return {
    event: 'transaction.succeeded',
    transaction_id: record.id,
    payment_locale: record.payment_locale,
    payment_type: record.payment_type,
    status: 'succeeded',
    amount: record.amount,
    reference_id: record.reference_id,
    paid_at: offsetTimestamp(at),
    ...(record.pix?.end_to_end_id !== undefined ? { end_to_end_id: record.pix.end_to_end_id } : {}),
  };
}

/**
 * A void, a reversal or an applied boleto cancellation. `amount` is what was undone (a partial
 * void reports the voided part; the transaction itself stays succeeded).
 */
export function undoneEvent(
  record: TransactionRecord,
  change: { event: 'transaction.canceled' | 'transaction.reversed'; amount: number; reason: string },
  at: Date,
): WebhookEventInput {
  return {
    event: change.event,
    transaction_id: record.id,
    payment_locale: record.payment_locale,
    payment_type: record.payment_type,
    status: change.event === 'transaction.canceled' ? 'canceled' : 'reversed',
    amount: change.amount,
    reference_id: record.reference_id,
    reason: change.reason,
    canceled_at: offsetTimestamp(at),
  };
}

/** A boleto cancellation that had no effect because the boleto was paid. */
export function cancellationIgnoredEvent(record: TransactionRecord, at: Date): WebhookEventInput | undefined {
  if (record.payment_type !== 'boleto' && record.payment_type !== 'bolepix') return undefined;
  return {
    event: 'transaction.cancellation.ignored',
    transaction_id: record.id,
    payment_type: record.payment_type,
    status: record.status,
    reference_id: record.reference_id,
    reason: 'Boleto was already paid',
    ignored_at: offsetTimestamp(at),
  };
}
