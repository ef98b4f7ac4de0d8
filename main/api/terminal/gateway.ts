/**
 * The client's terminal channel: the calls a PINPAD agent makes to finish a card-present
 * transaction that was created pending. One interface, so another channel of the client (an
 * SDK, a TEF bridge) can replace the HTTP implementation; the engine sees it through its own
 * PaymentsPort (main/core/ports.ts, adapted in main/agent/payments-port.ts). Results carry
 * integer centavos, like every result of the client.
 *
 *   pendingTransactions  the pending pinpad transactions addressed to a PINPAD serial
 *   emvTables            the EMV tables (AIDs, CAPKs, key slots) the provider has for a PINPAD,
 *                        or only their version when the caller holds it; null: it serves none
 *   authorize            the card as the PINPAD sealed it (terminal channel v2: entry mode,
 *                        masked digits, encrypted track 2, PIN block, ARQC data, the terminal's
 *                        identity) → approved / declined, with the issuer data for the chip
 *   complete             the chip's final decision after an online approval (accepted / refused)
 *   reverse              technical undo when the outcome is unknown or the chip refused
 *   void                 cancel a pending or approved transaction
 *
 * Every call that changes state is idempotent for the same transaction and operation (see
 * idempotency.ts), so an engine may repeat a call whose answer it never saw.
 */
import type {
  CardPresentAuthorization,
  EmvTablesAnswer,
  TerminalCompletionRequest,
  TerminalReversalRequest,
  VoidRequest,
} from '../../contract/index.js';
import type { CallOptions } from '../http.js';
import type { TerminalAuthorizationResult, Transaction } from '../normalize.js';

export type {
  CardPresentAuthorization,
  EmvTablesAnswer,
  TerminalAuthorizationResult,
  TerminalCompletionRequest,
  TerminalReversalRequest,
  VoidRequest,
};

export interface TerminalCallOptions extends CallOptions {
  /** Replaces the derived Idempotency-Key. */
  readonly idempotencyKey?: string;
  /** A token that makes a deliberate repeat of the same operation a new request (e.g. re-authorizing with another card). */
  readonly attempt?: string;
}

export interface TerminalGateway {
  pendingTransactions(serial: string, options?: CallOptions): Promise<readonly Transaction[]>;
  /** Null when the provider serves no tables for this PINPAD (404). */
  emvTables(serial: string, knownVersion: string | undefined, options?: CallOptions): Promise<EmvTablesAnswer | null>;
  /** The provider's channel version decides the route; a request v2 cannot carry fails before it is sent (invalid_request). */
  authorize(
    transactionId: string,
    request: CardPresentAuthorization,
    options?: TerminalCallOptions,
  ): Promise<TerminalAuthorizationResult>;
  complete(
    transactionId: string,
    request: TerminalCompletionRequest,
    options?: TerminalCallOptions,
  ): Promise<Transaction>;
  reverse(transactionId: string, request: TerminalReversalRequest, options?: TerminalCallOptions): Promise<Transaction>;
  void(transactionId: string, request: VoidRequest, options?: TerminalCallOptions): Promise<Transaction>;
}
