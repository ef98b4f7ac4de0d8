/**
 * A payment's transactions as the provider holds them: which are a Pinbridge sale's (the metadata
 * a sale creates its transaction with), finding the payment's own by its reference (and
 * cancelling a second one a gateway created), and cancelling one until the API shows it gone.
 */
import { createdAtMs } from '../../contract/index.js';
import type { PaymentRecord } from '../journal/record.js';
import type { ProviderTransaction, ReferenceLookup, TransactionStatus } from '../ports.js';
import { paymentsFailureOf } from '../payments-failure.js';
import { errorText, type ReversalReason, type StepsDeps } from './context.js';

/**
 * The metadata key a Pinbridge sale's transaction is created with, holding the payment's journal
 * id: it finds the transaction again where reference_id cannot, and tells any agent that the
 * transaction is some Pinbridge agent's sale, never one to run as created elsewhere (engine/pending-elsewhere.ts).
 */
const PAYMENT_ID_METADATA = 'pinbridge_payment_id';

export const paymentMetadata = (record: PaymentRecord): Record<string, string> => ({
  [PAYMENT_ID_METADATA]: record.id,
});

/** The journal id of the Pinbridge sale a transaction was created for; undefined: not a Pinbridge sale's. */
export function pinbridgePaymentOf(transaction: ProviderTransaction): string | undefined {
  const id = transaction.metadata[PAYMENT_ID_METADATA];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * Whether a transaction found by the payment's reference is the payment's own: created with its
 * journal id, or — at a provider that does not echo metadata — with its reference and no other
 * Pinbridge payment's id. One carrying another payment's id (another journal's sale under the
 * same reference) is that payment's, never adopted or cancelled here.
 */
function isOwnTransaction(transaction: ProviderTransaction, record: PaymentRecord): boolean {
  const owner = pinbridgePaymentOf(transaction);
  return owner === undefined ? transaction.reference_id === record.referenceId : owner === record.id;
}

/** Oldest first; the id breaks a tie, so every reader keeps the same one. */
const oldestFirst = (a: ProviderTransaction, b: ProviderTransaction): number =>
  createdAtMs(a) - createdAtMs(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Still waiting for its card: a cancel (a reversal of a pending transaction) leaves nothing to charge. */
const isPendingStatus = (status: TransactionStatus): boolean => status === 'pending' || status === 'new';

/** Transactions that hold no charge and never will: what does not stop another from being run. */
const ENDED_WITHOUT_CHARGE: ReadonlySet<TransactionStatus> = new Set([
  'failed',
  'canceled',
  'reversed',
  'refunded',
  'charged_back',
]);

/**
 * How to find the payment's transaction by its reference: with what a provider that cannot
 * filter by reference_id needs to find it in the seller's list (the metadata the creation
 * carried, and when it cannot have been created before).
 */
function lookup(deps: StepsDeps, record: PaymentRecord): { timeoutMs: number } & ReferenceLookup {
  return {
    timeoutMs: deps.config.apiTimeoutMs,
    sellerId: deps.sellerId,
    metadata: paymentMetadata(record),
    createdAfter: record.createdAt,
  };
}

/**
 * The payment's own transaction at the provider, found by its reference (after a lost creation,
 * at recovery, before cancelling one whose id the journal never heard), or undefined.
 *
 * Normally there is one. A gateway that sent the creation on twice (it retried upstream after
 * its own timeout) leaves two: the oldest is kept — the creation that reached the provider
 * first, the one an answer that did arrive would have named, and the same one whichever agent
 * or restart looks — and every other pending one is cancelled at once (a reversal of a pending
 * transaction), so nothing can ever charge it. Such a cancel that does not land is logged; the
 * pending poll cancels the transaction once this payment has ended (engine/pending-elsewhere.ts).
 */
export async function findOwn(deps: StepsDeps, record: PaymentRecord): Promise<ProviderTransaction | undefined> {
  const found = await deps.payments.transactions.listByReference(record.referenceId, lookup(deps, record));
  const [kept, ...extras] = found.filter((transaction) => isOwnTransaction(transaction, record)).sort(oldestFirst);
  if (kept === undefined) return undefined;
  for (const extra of extras) await cancelExtra(deps, record, extra, kept);
  return kept;
}

/** Cancels a second transaction of one payment (see findOwn), and says so in the journal and the log. */
async function cancelExtra(
  deps: StepsDeps,
  record: PaymentRecord,
  extra: ProviderTransaction,
  kept: ProviderTransaction,
): Promise<void> {
  const fields = { payment: record.id, reference: record.referenceId, kept: kept.id, extra: extra.id };
  if (!isPendingStatus(extra.status)) {
    // Decided already: cancelled (nothing to do), or charged by something other than this
    // payment's run — not undone behind anyone's back; a person looks at it.
    if (extra.status === 'canceled' || extra.status === 'failed' || extra.status === 'reversed') return;
    deps.logger.error(
      { ...fields, status: extra.status },
      'a second transaction for this payment is not pending; left as it is',
    );
    deps.journal.annotate(
      record.id,
      `second transaction ${extra.id} for this reference is ${extra.status}; left as it is (kept ${kept.id})`,
    );
    return;
  }
  try {
    await reverseOrConfirmGone(deps, extra.id, record.terminal, 'other');
    deps.logger.warn(fields, 'a second transaction for this payment was cancelled');
    deps.journal.annotate(record.id, `second transaction ${extra.id} for this reference cancelled (kept ${kept.id})`);
  } catch (error) {
    deps.logger.warn(
      { ...fields, error: errorText(error) },
      'a second transaction for this payment could not be cancelled; the pending poll cancels it once the payment ends',
    );
  }
}

/**
 * The other transactions at the provider under a transaction's reference_id that may still be
 * charged or hold a charge (all but failed, canceled, reversed, refunded and charged back):
 * what stops a pending transaction created elsewhere from being run (engine/pending-elsewhere.ts). A declined or
 * cancelled earlier attempt under the same reference does not: a POS back end may try again.
 */
export async function liveOthersWithReference(
  deps: StepsDeps,
  transaction: ProviderTransaction,
): Promise<readonly ProviderTransaction[]> {
  if (transaction.reference_id === null) return [];
  const found = await deps.payments.transactions.listByReference(transaction.reference_id, {
    timeoutMs: deps.config.apiTimeoutMs,
    sellerId: deps.sellerId,
    metadata: {},
  });
  return found.filter((other) => other.id !== transaction.id && !ENDED_WITHOUT_CHARGE.has(other.status));
}

export async function reverseOrConfirmGone(
  deps: StepsDeps,
  transactionId: string,
  terminal: string,
  reason: ReversalReason,
): Promise<void> {
  try {
    await deps.payments.terminal.reverse(transactionId, { terminal, reason }, { timeoutMs: deps.config.apiTimeoutMs });
  } catch (error) {
    if (!(await isGone(deps, transactionId))) throw error;
  }
}

/** True when the API shows the transaction with nothing charged (or does not know it at all). */
export async function isGone(deps: StepsDeps, transactionId: string): Promise<boolean> {
  try {
    const transaction = await deps.payments.transactions.retrieve(transactionId, {
      timeoutMs: deps.config.apiTimeoutMs,
    });
    return transaction.status === 'canceled' || transaction.status === 'reversed' || transaction.status === 'failed';
  } catch (error) {
    return paymentsFailureOf(error).kind === 'not_found';
  }
}
