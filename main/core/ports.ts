/**
 * What the engine needs from the layers below, as plain interfaces whose types the core owns:
 * the payments API (`PaymentsPort`; the agent adapts the HTTP client to it, see
 * main/agent/payments-port.ts), a PINPAD driven through one sale at a time (`SaleDevice`;
 * main/pinpad's PinpadSale fits), a logger (pino fits). Tests and other channels can supply their own.
 *
 * The shapes below are what the engine reads and sends, in the payments contract's words
 * (snake_case fields): the API client's records fit them as they are, so an adapter only
 * classifies failures (`PaymentsPortFailure`).
 */
import type { Centavos } from './money.js';
import type { CardPresentAuthorization, TerminalIdentity } from '../contract/terminal-v2.js';
import type { MaskedCard } from './journal/record.js';

/** What every call may be given: the engine sets a per-call deadline. */
export interface PaymentsCallOptions {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

/**
 * What finds a payment's transactions by its reference where the provider cannot filter by it
 * (capability `find_by_reference` off): the seller whose list holds them, the metadata they were
 * created with (none: by reference_id alone), and the time before which they cannot have been
 * created (absent: as far back as the lookup reads).
 */
export interface ReferenceLookup {
  readonly sellerId: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly createdAfter?: string;
}

/** A PINPAD transaction to create, pending until the terminal channel authorizes it. */
export interface TransactionRequest {
  readonly payment_locale: 'pinpad';
  readonly payment_type: 'credit' | 'debit';
  readonly on_behalf_of: string;
  readonly description: string;
  /** Centavos. */
  readonly amount: number;
  readonly terminal: string;
  readonly reference_id: string;
  readonly metadata?: Readonly<Record<string, string>>;
  readonly notification?: string;
  readonly installment_plan?: { readonly number_installments: number };
}

/** The provider's statuses of a transaction (the contract's, plus the rest of the service family's). */
export type TransactionStatus =
  | 'new'
  | 'pending'
  | 'pre_authorized'
  | 'succeeded'
  | 'failed'
  | 'canceled'
  | 'reversed'
  | 'refunded'
  | 'partial_refunded'
  | 'dispute'
  | 'charged_back';

/** One operation in a transaction's history; the engine reads the authorization's. */
export interface TransactionHistoryEntry {
  readonly operation_type: string;
  readonly response_code: string | null;
  readonly response_message: string | null;
  readonly authorization_code: string | null;
  readonly authorization_nsu: string | null;
}

/** A transaction at the provider, reduced to what the engine reads. Amounts in centavos. */
export interface ProviderTransaction {
  readonly id: string;
  readonly status: TransactionStatus;
  readonly amount: number;
  readonly payment_type: string;
  readonly reference_id: string | null;
  readonly description: string | null;
  readonly notification: string | null;
  readonly installment_plan: { readonly number_installments: number } | null;
  readonly transaction_number: string | null;
  readonly gateway_authorizer: string | null;
  readonly payment_authorization: {
    readonly authorizer_id: string;
    readonly authorization_code: string;
    readonly authorization_nsu: string;
  } | null;
  /** Why the provider failed it (a declined card): its code and, when an issuer answered, its response code. */
  readonly error: { readonly code: string; readonly message: string; readonly response_code: string | null } | null;
  readonly history: readonly TransactionHistoryEntry[];
  /**
   * What its creator attached. A Pinbridge sale's carries `pinbridge_payment_id` (its journal id):
   * how a transaction is known to be some Pinbridge agent's sale rather than one created
   * elsewhere for the PINPAD to run (engine/pending-elsewhere.ts, the engine's runPendingFor).
   */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** When the provider created it, by its clock ("YYYY-MM-DD HH:mm:ss" UTC, or ISO). */
  readonly created_at: string;
}

/** The terminal channel's answer to an online authorization. */
export interface AuthorizationAnswer {
  readonly decision: 'approved' | 'declined';
  /** Two characters; "00" approves. */
  readonly response_code: string;
  readonly response_message: string;
  /** e.g. insufficient_funds; null when approved. */
  readonly decline_code: string | null;
  readonly authorization_code: string | null;
  readonly nsu: string | null;
  /** BER-TLV for the chip's second GENERATE AC (8A, 91…). */
  readonly issuer_emv_data: string | null;
  readonly transaction: ProviderTransaction;
}

/** Why a transaction is reversed (the terminal channel's reasons). */
export type ReversalReason = 'chip_refused' | 'timeout' | 'cancelled' | 'unknown_outcome' | 'other';

/**
 * The payments API as the engine uses it: transactions, and the terminal channel's calls of a
 * sale (the PINPAD's tables are the agent's business, not the engine's). Every call that
 * changes state is idempotent for the same transaction and operation, so the engine may repeat
 * a call whose answer it never saw.
 *
 * A call fails with a `PaymentsPortFailure` (an error carrying a `kind`, see
 * payments-failure.ts); anything else it throws counts as a lost answer, the one reading that
 * can never charge twice.
 */
export interface PaymentsPort {
  readonly transactions: {
    create(params: TransactionRequest, options?: PaymentsCallOptions): Promise<ProviderTransaction>;
    retrieve(transactionId: string, options?: PaymentsCallOptions): Promise<ProviderTransaction>;
    /**
     * Every transaction with this reference_id or carrying the lookup's metadata (none: an empty
     * list). Usually one; a gateway that sent a creation on twice leaves two.
     */
    listByReference(
      referenceId: string,
      options: PaymentsCallOptions & ReferenceLookup,
    ): Promise<readonly ProviderTransaction[]>;
  };
  readonly terminal: {
    /** The pending PINPAD transactions addressed to this serial (created by the POS back end). */
    pendingTransactions(serial: string, options?: PaymentsCallOptions): Promise<readonly ProviderTransaction[]>;
    authorize(
      transactionId: string,
      request: CardPresentAuthorization,
      options?: PaymentsCallOptions,
    ): Promise<AuthorizationAnswer>;
    /** The chip's final decision after an online approval. */
    complete(
      transactionId: string,
      request: { terminal: string; chip_result: 'accepted' | 'refused'; emv_data?: string },
      options?: PaymentsCallOptions,
    ): Promise<ProviderTransaction>;
    /** Technical undo when the outcome is unknown or the chip refused. */
    reverse(
      transactionId: string,
      request: { terminal: string; reason: ReversalReason },
      options?: PaymentsCallOptions,
    ): Promise<ProviderTransaction>;
    /** Cancels a pending or approved transaction. */
    void(
      transactionId: string,
      request: { on_behalf_of: string },
      options?: PaymentsCallOptions,
    ): Promise<ProviderTransaction>;
  };
}

/** The chip's final word (second GENERATE AC), with its EMV data for the completion report. */
export interface ChipFinish {
  readonly decision: 'accepted' | 'refused';
  /** BER-TLV hex (TC or AAC and friends), card-data tags removed; null when the PINPAD gave none. */
  readonly emvData: string | null;
}

/**
 * The card part of an authorization request (terminal channel v2): everything but the PINPAD's
 * serial number, which the payment's record holds. The PINPAD adds its model and table versions.
 */
export type CardAuthorization = Omit<CardPresentAuthorization, 'terminal'> & {
  readonly terminal: Omit<TerminalIdentity, 'serial_number'>;
};

export type ChipDecision = 'online' | 'offlineApproved' | 'offlineDeclined';

/** A card read and verified by the PINPAD, reduced to what a sale may hold. */
export interface CardRead {
  /** What the journal may keep: brand, masked PAN, entry mode. */
  readonly card: MaskedCard;
  /** The card part of the terminal channel's authorization request. */
  readonly authorization: CardAuthorization;
  /**
   * The card's first decision (GOX). A swiped card has no chip: always 'online'. Sales are run
   * with "force online", so 'offlineApproved' only comes from a PINPAD that ignores it.
   */
  readonly chipDecision: ChipDecision;
  /** A chip or contactless chip read that went online: call finishChip once the host answered. */
  readonly needsChipCompletion: boolean;
}

/** The time limits of a sale's PINPAD steps (settings `timeouts`). */
export interface SaleTimeouts {
  /** Waiting for the card (GCX), and for a contactless card presented again in FCX. */
  readonly cardMs: number;
  /** The chip and PIN step (GOX, or GPN for a swiped card). */
  readonly pinMs: number;
  /** The customer's keypad answers: installments menu (MNU), CPF (GCD). */
  readonly menuMs: number;
  /** Waiting for the card to leave the slot (RMC). */
  readonly removalMs: number;
}

export const DEFAULT_SALE_TIMEOUTS: SaleTimeouts = Object.freeze({
  cardMs: 60_000,
  pinMs: 60_000,
  menuMs: 30_000,
  removalMs: 30_000,
});

/**
 * One PINPAD, as the engine drives it through a sale (main/pinpad/sale-session.ts is the ABECS
 * one). Every failure is a SaleStepError (sale-failure.ts).
 */
export interface SaleDevice {
  /**
   * Checks, before the sale asks the customer or the API anything, that this PINPAD can run it
   * (its keys, its commands); throws a SaleStepError of step 'prepare' (KEYS_MISSING,
   * PINPAD_UNSUPPORTED…) when it cannot.
   */
  prepare(request: { paymentType: 'credit' | 'debit'; signal?: AbortSignal }): Promise<void>;
  /** The amount is Centavos: checked where the sale came in, never again below. */
  showAmount(amount: Centavos, notification: string | null): Promise<void>;
  chooseInstallments(
    amount: number,
    options: { max: number; minInstallmentAmount: number },
    signal?: AbortSignal,
  ): Promise<number>;
  readTaxId(signal?: AbortSignal): Promise<string>;
  /** `notification`: the POS's text (≤ 32 characters), kept readable while the card is asked for. */
  readCard(request: {
    amount: Centavos;
    paymentType: 'credit' | 'debit';
    notification?: string | null;
    signal?: AbortSignal;
  }): Promise<CardRead>;
  /**
   * The host's answer for the card's second GENERATE AC; `null` when the answer was lost (FCX
   * "no host response": the card declines, and the outcome at the host is found out elsewhere).
   */
  finishChip(
    answer: { approved: boolean; responseCode: string; issuerEmvData: string | null } | null,
    signal?: AbortSignal,
  ): Promise<ChipFinish>;
  removeCard(message: string, signal?: AbortSignal): Promise<void>;
  showResult(text: string): Promise<void>;
}

export interface EngineLogger {
  debug(obj: Record<string, unknown>, msg: string): void;
  info(obj: Record<string, unknown>, msg: string): void;
  warn(obj: Record<string, unknown>, msg: string): void;
  error(obj: Record<string, unknown>, msg: string): void;
}

export const silentEngineLogger: EngineLogger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
