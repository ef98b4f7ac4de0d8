/**
 * What the POS learns about a payment: the outcome of `start`, and the three answers of
 * `status` (Processed with the result, InProgress, NotFound). Built from the journal record
 * only, so it is the same before and after a restart.
 *
 * These are the core's own words (camelCase, domain names): the POS wire's snake_case names
 * belong to pos/server/views.ts `outcomeView`, which maps this object field by field (and its
 * values through pos/server/wire-adapter.ts), so the core never builds the protocol and a wire
 * rename never reaches the engine.
 */
import { declineReasonOf, type DeclineCategory } from './declines.js';
import type { PaymentProblem, PaymentRecord } from './journal/record.js';
import { problem } from './problems.js';
import { isDecided, type PaymentState } from './states.js';

/**
 * `in_progress`: the payment is not decided yet — running, or (answered to payment.start with the
 * problem RESULT_PENDING) its run stopped on a full disk or a bug and the agent is confirming the
 * result with the API, to send `payment.result` when it knows. The card may be charged: never
 * `failed` for a payment that could still stand.
 */
export type PaymentResultStatus = 'approved' | 'declined' | 'failed' | 'cancelled' | 'in_progress';

export interface PaymentOutcome {
  readonly status: PaymentResultStatus;
  readonly referenceId: string;
  readonly paymentId: string;
  readonly transactionId: string | null;
  readonly terminal: string;
  readonly amount: number;
  readonly paymentType: 'credit' | 'debit';
  readonly installments: number | null;
  readonly authorizationCode: string | null;
  readonly nsu: string | null;
  readonly card: { readonly brand: string; readonly maskedPan: string; readonly entryMode: string } | null;
  /** For an approval: "pending" until the POS (or the policy) confirms; "undone" once voided. */
  readonly confirmation: 'pending' | 'confirmed' | 'undone' | null;
  readonly state: PaymentState;
  readonly problem: { readonly code: string; readonly message: string; readonly cashierMessage: string } | null;
  /** Why the issuer declined (core/declines.ts), for a CARD_DECLINED payment; null otherwise. */
  readonly declineCode: DeclineCategory | null;
  /** The issuer's response code: "00" on an approval, e.g. "51" on a decline; null when no issuer answered. */
  readonly issuerResponseCode: string | null;
  readonly customerTaxId: string | null;
  readonly createdAt: string;
  readonly finishedAt: string | null;
}

export type PaymentStatusAnswer =
  | { readonly kind: 'processed'; readonly outcome: PaymentOutcome }
  | {
      readonly kind: 'in_progress';
      readonly state: PaymentState;
      readonly paymentId: string;
      /**
       * Set when nothing is driving the payment right now (no sale runs it, no recovery attempt is
       * in flight: the next one waits on its timer): `stalledOutcome` of its record.
       */
      readonly stalled?: PaymentOutcome;
    }
  | { readonly kind: 'not_found' };

function resultStatus(record: PaymentRecord): PaymentResultStatus {
  switch (record.state) {
    case 'awaiting_confirmation':
    case 'confirmed':
      return 'approved';
    case 'declined':
      return 'declined';
    case 'cancelled':
    case 'undone':
    case 'undoing':
      return 'cancelled';
    case 'aborting':
      // The cancel is queued: the result is already decided.
      return record.pendingUndo?.abortAs ?? 'failed';
    case 'reversed':
    case 'reversing':
      return record.problem?.code === 'CHIP_REFUSED' ? 'declined' : 'failed';
    case 'failed':
      return 'failed';
    default:
      // intent … completing: not decided.
      return 'in_progress';
  }
}

function problemView(problem: PaymentProblem | null): PaymentOutcome['problem'] {
  return problem === null
    ? null
    : { code: problem.code, message: problem.message, cashierMessage: problem.cashierMessage };
}

/** The decline's category and the issuer's code, read back from the journal record. */
function issuerAnswerOf(record: PaymentRecord): Pick<PaymentOutcome, 'declineCode' | 'issuerResponseCode'> {
  const answered = record.authorization?.responseCode ?? null;
  if (record.problem?.code !== 'CARD_DECLINED') return { declineCode: null, issuerResponseCode: answered };
  const reason = declineReasonOf(record.problem.issuerCode ?? answered, record.problem.declineCode);
  return { declineCode: reason.category, issuerResponseCode: reason.issuerCode };
}

export function outcomeOf(record: PaymentRecord): PaymentOutcome {
  return {
    status: resultStatus(record),
    referenceId: record.referenceId,
    paymentId: record.id,
    transactionId: record.transactionId,
    terminal: record.terminal,
    amount: record.amount,
    paymentType: record.paymentType,
    installments: record.installments,
    authorizationCode: record.authorization?.authorizationCode ?? null,
    nsu: record.authorization?.nsu ?? null,
    card:
      record.card === null
        ? null
        : { brand: record.card.brand, maskedPan: record.card.maskedPan, entryMode: record.card.entryMode },
    confirmation:
      record.state === 'awaiting_confirmation'
        ? 'pending'
        : record.state === 'confirmed'
          ? 'confirmed'
          : record.state === 'undone' || (record.state === 'undoing' && record.authorization !== null)
            ? 'undone'
            : null,
    state: record.state,
    problem: problemView(record.problem),
    ...issuerAnswerOf(record),
    customerTaxId: record.customerTaxId,
    createdAt: record.createdAt,
    finishedAt: record.finishedAt,
  };
}

/**
 * A payment no run drives any more and recovery has not decided yet: `in_progress` with the
 * problem RESULT_PENDING, which tells the cashier not to charge again.
 */
export function stalledOutcome(record: PaymentRecord): PaymentOutcome {
  const outcome = outcomeOf(record);
  return isDecided(record.state) ? outcome : { ...outcome, problem: problemView(problem('RESULT_PENDING')) };
}

export function statusOf(record: PaymentRecord | undefined): PaymentStatusAnswer {
  if (record === undefined) return { kind: 'not_found' };
  if (isDecided(record.state)) return { kind: 'processed', outcome: outcomeOf(record) };
  return { kind: 'in_progress', state: record.state, paymentId: record.id };
}
