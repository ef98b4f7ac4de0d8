/**
 * Bank accounts of sellers: retrieve (detail view), list a seller's accounts (list view, paged),
 * create and delete. The service answers this family's errors in shape B; the client's errors
 * are the same classes either way.
 */
import type {
  BankAccount,
  BankAccountCreateRequest,
  BankAccountDeleted,
  BankAccountListItem,
} from '../../contract/index.js';
import type { CallOptions } from '../http.js';
import { bodyIdempotencyKey } from '../idempotency.js';
import { type List, normalizeDeleted, normalizeList, normalizeRecord } from '../normalize.js';
import { assertNoViolations, bankAccountCreateViolations, idViolation, listQueryViolations } from '../validate.js';
import { type ApiContext, callOptions, type CreateOptions } from './context.js';

export type { BankAccount, BankAccountDeleted, BankAccountListItem };
export type BankAccountCreateParams = BankAccountCreateRequest;

export interface ListParams {
  /** 1–100 (default 100). */
  readonly limit?: number;
  readonly offset?: number;
}

export class BankAccountsResource {
  readonly #ctx: ApiContext;

  constructor(ctx: ApiContext) {
    this.#ctx = ctx;
  }

  async retrieve(bankAccountId: string, options?: CallOptions): Promise<BankAccount> {
    const path = this.#ctx.path('bank_accounts', String(bankAccountId));
    assertNoViolations([idViolation('bank_account_id', bankAccountId)], { method: 'GET', path });
    return this.#ctx.send({ method: 'GET', path, ...callOptions(options) }, (body, origin) =>
      normalizeRecord<BankAccount>(body, 'bank_account', origin),
    );
  }

  /** One page of the seller's accounts (list view). */
  async list(sellerId: string, params: ListParams = {}, options?: CallOptions): Promise<List<BankAccountListItem>> {
    const path = this.#ctx.path('sellers', String(sellerId), 'bank_accounts');
    assertNoViolations([idViolation('seller_id', sellerId), ...listQueryViolations(params)], { method: 'GET', path });
    return this.#ctx.send(
      { method: 'GET', path, query: { limit: params.limit, offset: params.offset }, ...callOptions(options) },
      (body, origin) =>
        normalizeList(body, (item) => normalizeRecord<BankAccountListItem>(item, 'bank_account', origin), origin),
    );
  }

  async create(params: BankAccountCreateParams, options?: CreateOptions): Promise<BankAccount> {
    const path = this.#ctx.path('bank_accounts');
    assertNoViolations(bankAccountCreateViolations(params), { method: 'POST', path });
    return this.#ctx.send(
      {
        method: 'POST',
        path,
        body: params,
        idempotencyKey: options?.idempotencyKey ?? bodyIdempotencyKey(this.#ctx.marketplaceId, 'bank_account', params),
        ...callOptions(options),
      },
      (body, origin) => normalizeRecord<BankAccount>(body, 'bank_account', origin),
    );
  }

  async delete(bankAccountId: string, options?: CallOptions): Promise<BankAccountDeleted> {
    const path = this.#ctx.path('bank_accounts', String(bankAccountId));
    assertNoViolations([idViolation('bank_account_id', bankAccountId)], { method: 'DELETE', path });
    return this.#ctx.send({ method: 'DELETE', path, ...callOptions(options) }, (body, origin) =>
      normalizeDeleted<BankAccountDeleted>(body, 'bank_account', origin),
    );
  }
}
