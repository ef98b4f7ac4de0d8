/**
 * What the engine needs from the layers below, as plain interfaces: the payments API (the
 * PaymentsClient fits), a PINPAD driven through one sale at a time (PinpadSale fits), a logger
 * (pino fits). Tests and other channels can supply their own.
 */
import type { CallOptions, PinpadParams, Transaction } from '../api/index.js';
import type { TerminalGateway } from '../api/terminal/gateway.js';
import type { CardPresentAuthorization, TerminalIdentity } from '../contract/terminal-v2.js';
import type { MaskedCard } from './journal/record.js';

/**
 * What finds a payment's transaction by its reference where the provider cannot filter by it
 * (capability `find_by_reference` off): the seller whose list holds it, the metadata it was
 * created with, and the time before which it cannot have been created.
 */
export interface ReferenceLookup {
  readonly sellerId: string;
  readonly metadata: Readonly<Record<string, string>>;
  readonly createdAfter: string;
}

export interface PaymentsPort {
  readonly transactions: {
    create(params: PinpadParams, options?: CallOptions & { idempotencyKey?: string }): Promise<Transaction>;
    retrieve(transactionId: string, options?: CallOptions): Promise<Transaction>;
    findByReference(referenceId: string, options?: CallOptions & ReferenceLookup): Promise<Transaction | undefined>;
  };
  /** The calls of a sale (the PINPAD's tables are the agent's business, not the engine's). */
  readonly terminal: Omit<TerminalGateway, 'emvTables'>;
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
  showAmount(amount: number, notification: string | null): Promise<void>;
  chooseInstallments(
    amount: number,
    options: { max: number; minInstallmentAmount: number },
    signal?: AbortSignal,
  ): Promise<number>;
  readTaxId(signal?: AbortSignal): Promise<string>;
  /** `notification`: the POS's text (≤ 32 characters), kept readable while the card is asked for. */
  readCard(request: {
    amount: number;
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
