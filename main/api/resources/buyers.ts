/**
 * Buyers: create, retrieve, update (PATCH: only the fields to change), search by CPF or CNPJ,
 * delete. Creation carries an Idempotency-Key derived from the body, so asking twice for the
 * same buyer creates one.
 */
import type { Buyer, BuyerCreateRequest, BuyerDeleted, BuyerUpdateRequest } from '../../contract/index.js';
import type { CallOptions } from '../http.js';
import { bodyIdempotencyKey } from '../idempotency.js';
import { normalizeDeleted, normalizeRecord } from '../normalize.js';
import {
  assertNoViolations,
  buyerCreateViolations,
  buyerSearchViolations,
  buyerUpdateViolations,
  idViolation,
} from '../validate.js';
import { type ApiContext, callOptions, type CreateOptions } from './context.js';

export type { Buyer, BuyerDeleted };
export type BuyerCreateParams = BuyerCreateRequest;
export type BuyerUpdateParams = BuyerUpdateRequest;
/**
 * Exactly one of them: CPF (11 digits) or CNPJ (14 characters: 12 digits or uppercase letters, then 2
 * digits, as the alphanumeric CNPJ has them), without punctuation.
 */
export type BuyerSearchParams =
  | { readonly taxpayer_id: string; readonly ein?: undefined }
  | { readonly ein: string; readonly taxpayer_id?: undefined };

export class BuyersResource {
  readonly #ctx: ApiContext;

  constructor(ctx: ApiContext) {
    this.#ctx = ctx;
  }

  async create(params: BuyerCreateParams, options?: CreateOptions): Promise<Buyer> {
    const path = this.#ctx.path('buyers');
    assertNoViolations(buyerCreateViolations(params), { method: 'POST', path });
    return this.#ctx.send(
      {
        method: 'POST',
        path,
        body: params,
        idempotencyKey: options?.idempotencyKey ?? bodyIdempotencyKey(this.#ctx.marketplaceId, 'buyer', params),
        ...callOptions(options),
      },
      (body, origin) => normalizeRecord<Buyer>(body, 'buyer', origin),
    );
  }

  async retrieve(buyerId: string, options?: CallOptions): Promise<Buyer> {
    const path = this.#ctx.path('buyers', String(buyerId));
    assertNoViolations([idViolation('buyer_id', buyerId)], { method: 'GET', path });
    return this.#ctx.send({ method: 'GET', path, ...callOptions(options) }, (body, origin) =>
      normalizeRecord<Buyer>(body, 'buyer', origin),
    );
  }

  /** PATCH. `address` and `metadata` replace the whole object; null or "" removes a value. */
  async update(buyerId: string, params: BuyerUpdateParams, options?: CallOptions): Promise<Buyer> {
    const path = this.#ctx.path('buyers', String(buyerId));
    assertNoViolations([idViolation('buyer_id', buyerId), ...buyerUpdateViolations(params)], { method: 'PATCH', path });
    // Not retried: a PATCH without a key could race a concurrent update on a second attempt.
    return this.#ctx.send({ method: 'PATCH', path, body: params, ...callOptions(options) }, (body, origin) =>
      normalizeRecord<Buyer>(body, 'buyer', origin),
    );
  }

  /** The buyer with that CPF or CNPJ (NotFoundError when there is none). */
  async search(params: BuyerSearchParams, options?: CallOptions): Promise<Buyer> {
    const path = this.#ctx.path('buyers', 'search');
    assertNoViolations(buyerSearchViolations(params), { method: 'GET', path });
    const query = params.taxpayer_id !== undefined ? { taxpayer_id: params.taxpayer_id } : { ein: params.ein };
    return this.#ctx.send({ method: 'GET', path, query, ...callOptions(options) }, (body, origin) =>
      normalizeRecord<Buyer>(body, 'buyer', origin),
    );
  }

  async delete(buyerId: string, options?: CallOptions): Promise<BuyerDeleted> {
    const path = this.#ctx.path('buyers', String(buyerId));
    assertNoViolations([idViolation('buyer_id', buyerId)], { method: 'DELETE', path });
    return this.#ctx.send({ method: 'DELETE', path, ...callOptions(options) }, (body, origin) =>
      normalizeDeleted<BuyerDeleted>(body, 'buyer', origin),
    );
  }
}
