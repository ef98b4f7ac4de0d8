/**
 * The terminal channel over the payments API's HTTP routes (docs/terminal-channel.md):
 *
 *   GET  …/terminals/{serial}/pending_transactions
 *   GET  …/terminals/{serial}/emv_tables
 *   POST …/transactions/{id}/authorization | completion | reversal | void
 *   POST /v2/…/transactions/{id}/authorization    (v2, unless the provider serves only v1)
 *
 * Bodies are checked against the contract before sending. Card data goes only into the request
 * body; it is never logged (the request core logs method, path and status only).
 */
import {
  toV1Authorization,
  type CardPresentAuthorization,
  type EmvTablesAnswer,
  type TerminalCompletionRequest,
  type TerminalReversalRequest,
  type Violation,
  type VoidRequest,
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
  authorizationV2Violations,
  authorizationViolations,
  completionViolations,
  idViolation,
  reversalViolations,
  serialViolation,
} from '../validate.js';
import type { TerminalCallOptions, TerminalGateway } from './gateway.js';

/** Which terminal channel the provider serves: 2 (the default) or only the deprecated 1. */
export type TerminalChannelVersion = 1 | 2;

export class HttpTerminalGateway implements TerminalGateway {
  readonly #version: TerminalChannelVersion;
  readonly #ctx: ApiContext;

  constructor(ctx: ApiContext, options: { version?: TerminalChannelVersion } = {}) {
    this.#ctx = ctx;
    this.#version = options.version ?? 2;
  }

  async pendingTransactions(serial: string, options?: CallOptions): Promise<readonly Transaction[]> {
    const path = this.#ctx.path('terminals', String(serial), 'pending_transactions');
    assertNoViolations([serialViolation('terminal', serial)], { method: 'GET', path });
    const page = await this.#ctx.send({ method: 'GET', path, ...callOptions(options) }, (body, origin) =>
      normalizeList(body, (item) => normalizeTransaction(item, origin), origin),
    );
    return page.items;
  }

  async emvTables(
    serial: string,
    knownVersion: string | undefined,
    options?: CallOptions,
  ): Promise<EmvTablesAnswer | null> {
    const path = this.#ctx.path('terminals', String(serial), 'emv_tables');
    assertNoViolations([serialViolation('terminal', serial)], { method: 'GET', path });
    try {
      return await this.#ctx.send(
        {
          method: 'GET',
          path,
          ...(knownVersion === undefined ? {} : { query: { known_version: knownVersion } }),
          ...callOptions(options),
        },
        normalizeEmvTablesAnswer,
      );
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }

  async authorize(
    transactionId: string,
    request: CardPresentAuthorization,
    options?: TerminalCallOptions,
  ): Promise<TerminalAuthorizationResult> {
    if (this.#version === 1) {
      const v1 = toV1Authorization(request);
      return this.#post(
        transactionId,
        'authorization',
        v1,
        authorizationViolations(v1),
        options,
        normalizeAuthorizationResult,
      );
    }
    // v2 requires the sealed card data: a read without it (a legacy PINPAD) is refused here, by field.
    return this.#post(
      transactionId,
      'authorization',
      request,
      authorizationV2Violations(request),
      options,
      normalizeAuthorizationResult,
      2,
    );
  }

  async complete(
    transactionId: string,
    request: TerminalCompletionRequest,
    options?: TerminalCallOptions,
  ): Promise<Transaction> {
    return this.#post(
      transactionId,
      'completion',
      request,
      completionViolations(request),
      options,
      normalizeTransaction,
    );
  }

  async reverse(
    transactionId: string,
    request: TerminalReversalRequest,
    options?: TerminalCallOptions,
  ): Promise<Transaction> {
    return this.#post(transactionId, 'reversal', request, reversalViolations(request), options, normalizeTransaction);
  }

  async void(transactionId: string, request: VoidRequest, options?: TerminalCallOptions): Promise<Transaction> {
    return voidTransaction(this.#ctx, transactionId, request, options);
  }

  async #post<T>(
    transactionId: string,
    operation: Exclude<TerminalOperation, 'void'>,
    body: object,
    violations: Violation[],
    options: TerminalCallOptions | undefined,
    parse: (body: unknown, origin: ResponseOrigin) => T,
    version: TerminalChannelVersion = 1,
  ): Promise<T> {
    const path = this.#ctx.versionedPath(version, 'transactions', String(transactionId), operation);
    assertNoViolations([idViolation('transaction_id', transactionId), ...violations], { method: 'POST', path });
    const idempotencyKey =
      options?.idempotencyKey ??
      terminalIdempotencyKey(this.#ctx.marketplaceId, transactionId, operation, options?.attempt);
    // A reversal is an undo: it goes out even within the client's cool-down after a 401 (http.ts).
    return this.#ctx.send(
      { method: 'POST', path, body, idempotencyKey, undo: operation === 'reversal', ...callOptions(options) },
      parse,
    );
  }
}
