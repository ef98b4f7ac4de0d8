/**
 * The terminal channel over the payments API's HTTP routes (docs/terminal-channel.md):
 *
 *   GET  …/terminals/{serial}/pending_transactions
 *   GET  …/terminals/{serial}/emv_tables
 *   POST …/transactions/{id}/authorization | completion | reversal | void
 *
 * Bodies are checked against the contract before sending. Card data goes only into the request
 * body; it is never logged (the request core logs method, path and status only).
 */
import type {
  EmvTablesAnswer,
  TerminalAuthorizationRequest,
  TerminalCompletionRequest,
  TerminalReversalRequest,
  Violation,
  VoidRequest,
} from '../../contract/index.js';
import { NotFoundError } from '../errors.js';
import type { CallOptions } from '../http.js';
import { terminalIdempotencyKey, type TerminalOperation } from '../idempotency.js';
import {
  normalizeAuthorizationResult,
  normalizeEmvTablesAnswer,
  normalizeList,
  normalizeTransaction,
  type ResponseOrigin,
  type TerminalAuthorizationResult,
  type Transaction,
} from '../normalize.js';
import { type ApiContext, callOptions } from '../resources/context.js';
import { voidTransaction } from '../resources/transactions.js';
import {
  assertNoViolations,
  authorizationViolations,
  completionViolations,
  idViolation,
  reversalViolations,
  serialViolation,
} from '../validate.js';
import type { TerminalCallOptions, TerminalGateway } from './gateway.js';

export class HttpTerminalGateway implements TerminalGateway {
  constructor(private readonly ctx: ApiContext) {}

  async pendingTransactions(serial: string, options?: CallOptions): Promise<readonly Transaction[]> {
    const path = this.ctx.path('terminals', String(serial), 'pending_transactions');
    assertNoViolations([serialViolation('terminal', serial)], { method: 'GET', path });
    const page = await this.ctx.send({ method: 'GET', path, ...callOptions(options) }, (body, origin) =>
      normalizeList(body, (item) => normalizeTransaction(item, origin), origin),
    );
    return page.items;
  }

  async emvTables(serial: string, knownVersion: string | undefined, options?: CallOptions): Promise<EmvTablesAnswer | null> {
    const path = this.ctx.path('terminals', String(serial), 'emv_tables');
    assertNoViolations([serialViolation('terminal', serial)], { method: 'GET', path });
    try {
      return await this.ctx.send(
        { method: 'GET', path, ...(knownVersion === undefined ? {} : { query: { known_version: knownVersion } }), ...callOptions(options) },
        normalizeEmvTablesAnswer,
      );
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  async authorize(
    transactionId: string,
    request: TerminalAuthorizationRequest,
    options?: TerminalCallOptions,
  ): Promise<TerminalAuthorizationResult> {
    return this.#post(transactionId, 'authorization', request, authorizationViolations(request), options, normalizeAuthorizationResult);
  }

  async complete(transactionId: string, request: TerminalCompletionRequest, options?: TerminalCallOptions): Promise<Transaction> {
    return this.#post(transactionId, 'completion', request, completionViolations(request), options, normalizeTransaction);
  }

  async reverse(transactionId: string, request: TerminalReversalRequest, options?: TerminalCallOptions): Promise<Transaction> {
    return this.#post(transactionId, 'reversal', request, reversalViolations(request), options, normalizeTransaction);
  }

  async void(transactionId: string, request: VoidRequest, options?: TerminalCallOptions): Promise<Transaction> {
    return voidTransaction(this.ctx, transactionId, request, options);
  }

  async #post<T>(
    transactionId: string,
    operation: Exclude<TerminalOperation, 'void'>,
    body: object,
    violations: Violation[],
    options: TerminalCallOptions | undefined,
    parse: (body: unknown, origin: ResponseOrigin) => T,
  ): Promise<T> {
    const path = this.ctx.path('transactions', String(transactionId), operation);
    assertNoViolations([idViolation('transaction_id', transactionId), ...violations], { method: 'POST', path });
    const idempotencyKey =
      options?.idempotencyKey ?? terminalIdempotencyKey(this.ctx.marketplaceId, transactionId, operation, options?.attempt);
    return this.ctx.send({ method: 'POST', path, body, idempotencyKey, ...callOptions(options) }, parse);
  }
}
