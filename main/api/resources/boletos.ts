/**
 * Boletos and bolepix: create (a transaction with payment_type "boleto" or "bolepix"; the
 * answer carries the barcode, digitable line and PDF url, and for bolepix the Pix QR code) and
 * cancel. Cancellation is asynchronous: the service answers REQUESTED at once and applies it
 * after a processing delay, or IGNORED when the boleto is already paid; follow the outcome with
 * `transactions.retrieve` or the webhook.
 */
import { cancellationIdempotencyKey } from '../idempotency.js';
import { type BoletoCancellation, normalizeCancellation, type Transaction } from '../normalize.js';
import { assertNoViolations, idViolation } from '../validate.js';
import { type ApiContext, callOptions, type CreateOptions } from './context.js';
import type { BolepixParams, BoletoParams, TransactionsResource } from './transactions.js';

export type { BoletoCancellation };
/** A boleto without payment_type (this module sets it); reference_id is required. */
export type BoletoCreateParams = Omit<BoletoParams, 'payment_type'>;
export type BolepixCreateParams = Omit<BolepixParams, 'payment_type'>;

export class BoletosResource {
  readonly #ctx: ApiContext;
  readonly #transactions: TransactionsResource;

  constructor(ctx: ApiContext, transactions: TransactionsResource) {
    this.#ctx = ctx;
    this.#transactions = transactions;
  }

  async create(params: BoletoCreateParams, options?: CreateOptions): Promise<Transaction> {
    return this.#transactions.create({ ...params, payment_type: 'boleto' }, options);
  }

  async createBolepix(params: BolepixCreateParams, options?: CreateOptions): Promise<Transaction> {
    return this.#transactions.create({ ...params, payment_type: 'bolepix' }, options);
  }

  /** POST /v1/cancellation/marketplaces/{mid}/transactions/{id} with `{}`. */
  async cancel(transactionId: string, options?: CreateOptions): Promise<BoletoCancellation> {
    const path = `/v1/cancellation/marketplaces/${encodeURIComponent(this.#ctx.marketplaceId)}/transactions/${encodeURIComponent(String(transactionId))}`;
    assertNoViolations([idViolation('transaction_id', transactionId)], { method: 'POST', path });
    return this.#ctx.send(
      {
        method: 'POST',
        path,
        body: {},
        // Cancelling twice changes nothing more, so the request may carry a key and be retried.
        idempotencyKey: options?.idempotencyKey ?? cancellationIdempotencyKey(this.#ctx.marketplaceId, transactionId),
        ...callOptions(options),
      },
      normalizeCancellation,
    );
  }
}
