/**
 * What the journal keeps about one payment. Card data never gets here beyond the masked PAN
 * (first 6 / last 4), the brand and the entry mode: the journal is the first place a support
 * technician reads, and it outlives every process.
 */
import type { Centavos } from '../money.js';
import type { PaymentState } from '../states.js';

export type PaymentType = 'credit' | 'debit';

/** Who asked for the payment: the POS through Pinbridge, or a pending transaction created elsewhere. */
export type PaymentSource = 'pos' | 'remote';

/** `auto`: an approval is confirmed at once. `pos`: the POS confirms; undone after the deadline. */
export type ConfirmationPolicy = 'auto' | 'pos';

export type EntryMode =
  'chip' | 'contactless_chip' | 'contactless_magstripe' | 'magstripe' | 'magstripe_fallback' | 'manually_keyed';

/** How the cardholder proved who they are: a receipt asks for a signature when nothing else did. */
export type CardholderVerification = 'online_pin' | 'offline_pin' | 'signature' | 'none';

/** The card as Pinbridge may keep it. */
export interface MaskedCard {
  readonly brand: string;
  /** First 6 and last 4 digits, the rest as '*': "411111******1111". */
  readonly maskedPan: string;
  readonly entryMode: EntryMode;
  /** Absent in records journaled before it was kept. */
  readonly verification?: CardholderVerification;
}

/** The issuer's answer, as the receipts and the POS (NFC-e: cAut, NSU) need it. */
export interface AuthorizationData {
  readonly authorizationCode: string | null;
  readonly nsu: string | null;
  readonly responseCode: string;
  readonly responseMessage: string;
  /** The API's transaction number (receipts print it beside the id); absent in older records. */
  readonly transactionNumber?: string | null;
  /** Who authorized it (the API's gateway_authorizer / authorizer_id: the acquirer), for receipts and NFC-e. */
  readonly acquirer?: string | null;
}

/** Why a payment ended without a sale, or what went wrong on the way: machine code + English + pt-BR. */
export interface PaymentProblem {
  /** e.g. "CARD_DECLINED", "PINPAD_TIMEOUT", "API_UNAVAILABLE", "CANCELLED_BY_POS". */
  readonly code: string;
  readonly message: string;
  /** For the cashier's window and the PINPAD. */
  readonly cashierMessage: string;
  /**
   * Why the issuer declined, as a stable category (core/declines.ts: insufficient_funds,
   * incorrect_pin…). Records journaled before the categories hold the provider's own string.
   */
  readonly declineCode?: string;
  /** The issuer's response code of a decline ("51"), when the answer carried one. */
  readonly issuerCode?: string;
}

/** The retry state of an API call that must land (cancel, reverse, void): the undo queue. */
export interface PendingUndo {
  readonly attempts: number;
  /** ISO time of the next attempt. */
  readonly nextAttemptAt: string;
  readonly lastError: string | null;
  /** For `aborting`: the final state once the API transaction is cancelled (default "failed"). */
  readonly abortAs?: 'cancelled' | 'failed' | 'declined';
  /** For `reversing`: the reason sent to the terminal channel. */
  readonly reason?: 'chip_refused' | 'timeout' | 'cancelled' | 'unknown_outcome' | 'other';
}

export interface PaymentRecord {
  /** The journal's id: 32 lowercase hex. */
  readonly id: string;
  /** The POS's reference (unique in the journal): the key of `start` and `status`. */
  readonly referenceId: string;
  readonly source: PaymentSource;
  /** The PINPAD's serial number: the transaction's `terminal`. */
  readonly terminal: string;
  /** Integer centavos > 0, ≤ 12 digits: checked where the sale came in. */
  readonly amount: Centavos;
  readonly paymentType: PaymentType;
  /** Credit only: 1–12; null for debit or until chosen on the PINPAD. */
  readonly installments: number | null;
  readonly description: string;
  readonly notification: string | null;
  /** Hash of the parameters of `start`, so a repeated start can be told from a conflicting one. */
  readonly paramsHash: string;
  readonly confirmation: ConfirmationPolicy;
  readonly state: PaymentState;
  readonly transactionId: string | null;
  readonly card: MaskedCard | null;
  readonly authorization: AuthorizationData | null;
  /** Set when the payment ended without a sale (or a step failed and was recovered). */
  readonly problem: PaymentProblem | null;
  /**
   * CPF or CNPJ of the customer, without punctuation. Typed on the PINPAD it is digits only (the
   * keypad has no letters); the journal also keeps an alphanumeric CNPJ (12ABC34501DE35).
   */
  readonly customerTaxId: string | null;
  /** `pos` policy: ISO time after which an unconfirmed approval is undone. */
  readonly confirmDeadline: string | null;
  readonly pendingUndo: PendingUndo | null;
  /** ISO times (UTC, milliseconds, Z). */
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly finishedAt: string | null;
  /**
   * Who started it, as the layer above names its clients (the POS client's id), so each sees and
   * acts on its own payments only; null for the window, the CLI and remote pending transactions.
   */
  readonly owner: string | null;
}

/** Fields a transition may change (everything else is fixed at the intent). */
export type PaymentPatch = Partial<
  Pick<
    PaymentRecord,
    | 'installments'
    | 'transactionId'
    | 'card'
    | 'authorization'
    | 'problem'
    | 'customerTaxId'
    | 'confirmDeadline'
    | 'pendingUndo'
  >
>;

/** One line of a payment's history: every transition and notable step, for support. */
export interface JournalEvent {
  readonly paymentId: string;
  /** Increasing per payment, from 1. */
  readonly seq: number;
  readonly at: string;
  readonly from: PaymentState | null;
  readonly to: PaymentState;
  /** A short English note: "transaction created", "chip refused after approval"… */
  readonly note: string;
}

/** What `createIntent` needs: the fields fixed at the intent. */
export type NewPayment = Pick<
  PaymentRecord,
  | 'referenceId'
  | 'source'
  | 'terminal'
  | 'amount'
  | 'paymentType'
  | 'installments'
  | 'description'
  | 'notification'
  | 'paramsHash'
  | 'confirmation'
> & {
  /** Set for a pending transaction picked up from the API (source "remote"). */
  readonly transactionId?: string | null;
  /** See PaymentRecord.owner; default null. */
  readonly owner?: string | null;
};

export interface ListQuery {
  /** ISO times, inclusive from / exclusive to, on createdAt. */
  readonly from?: string;
  readonly to?: string;
  readonly states?: readonly PaymentState[];
  readonly terminal?: string;
  /** Only the payments this owner started (PaymentRecord.owner). */
  readonly owner?: string;
  /** Only payments of exactly this amount (integer centavos). */
  readonly amount?: number;
  /** Only the payment(s) with this NSU (authorization.nsu, exactly as the acquirer gave it). */
  readonly nsu?: string;
  /** Only the payment(s) with this authorization code (authorization.authorizationCode; letters in any case). */
  readonly authorizationCode?: string;
  /** Only payments by a card ending in these 4 digits (the masked PAN's last 4). */
  readonly cardLast4?: string;
  /** Newest first; default 100, at most 1000. */
  readonly limit?: number;
  readonly offset?: number;
}
