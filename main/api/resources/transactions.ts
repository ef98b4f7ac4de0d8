/**
 * Transactions of every kind: create (boleto, bolepix, PINPAD, tap to pay), retrieve, list and
 * look up by reference_id, void, and wait for a pending one to finish.
 *
 * `currency` may be omitted by the caller: the contract allows only "BRL", so the client fills
 * it in (any other value is still refused before sending). Creation carries an Idempotency-Key
 * derived from the marketplace, the kind and `reference_id` (see idempotency.ts) where the
 * provider honours one (capability `idempotencyKey`): the same sale sent twice — by a retry, or
 * after a restart — is then one transaction. Note that a replay answers with the record as it
 * was created; read it again for its current state. Without the capability no key is sent and a
 * creation is never sent again by the client (http.ts).
 */
import {
  createdAtMs,
  type BolepixTransactionRequest,
  type BoletoTransactionRequest,
  type PinpadTransactionRequest,
  type TapToPayTransactionRequest,
  type TransactionRequest,
  type VoidRequest,
} from '../../contract/index.js';
import { ConnectionError, RateLimitError, ServerError, TimeoutError } from '../errors.js';
import { type AuthScheme, type CallOptions, sleep } from '../http.js';
import {
  randomIdempotencyKey,
  terminalIdempotencyKey,
  transactionIdempotencyKey,
  type TransactionKind,
} from '../idempotency.js';
import {
  type List,
  normalizeList,
  normalizeTransaction,
  type Transaction,
  type TransactionStatus,
} from '../normalize.js';
import {
  assertNoViolations,
  idViolation,
  listQueryViolations,
  transactionViolations,
  voidViolations,
} from '../validate.js';
import { type ApiContext, callOptions, type CreateOptions } from './context.js';

export type { Transaction, TransactionStatus };
export type VoidParams = VoidRequest;

/** A creation request whose `currency` may be left out (it can only be BRL). */
export type CurrencyOptional<T extends { currency: 'BRL' }> = Omit<T, 'currency'> & { readonly currency?: 'BRL' };

export type BoletoParams = CurrencyOptional<BoletoTransactionRequest>;
export type BolepixParams = CurrencyOptional<BolepixTransactionRequest>;
export type PinpadParams = CurrencyOptional<PinpadTransactionRequest>;
export type TapToPayParams = CurrencyOptional<TapToPayTransactionRequest>;
export type TransactionCreateParams = BoletoParams | BolepixParams | PinpadParams | TapToPayParams;

export interface TransactionListParams {
  readonly reference_id?: string;
  readonly status?: TransactionStatus;
  readonly terminal?: string;
  readonly payment_type?: string;
  /** 1–100 (default 100). */
  readonly limit?: number;
  readonly offset?: number;
}

export interface VoidOptions extends CreateOptions {
  /** Distinguishes a deliberate second void of the same amount (see idempotency.ts). */
  readonly attempt?: string;
}

export interface WaitOptions {
  /** Give up (TimeoutError) after this long (default 120 s). */
  readonly timeoutMs?: number;
  /** First pause between polls (default 1 s); it grows ×1.5 up to `maxIntervalMs` (default 5 s). */
  readonly intervalMs?: number;
  readonly maxIntervalMs?: number;
  readonly signal?: AbortSignal;
}

const WAIT_DEFAULTS = { timeoutMs: 120_000, intervalMs: 1_000, maxIntervalMs: 5_000 } as const;

/**
 * What the provider offers beyond the calls it documents (neither GoPag nor Zoop documents
 * either): `idempotencyKey`, a repeated POST with the same Idempotency-Key answers the first
 * result; `findByReference`, its marketplace transaction list filters by reference_id. Both
 * default to false — nothing is assumed that the provider has not documented — and are used
 * only where the store's settings say the provider has them.
 * `terminalChannel`: the terminal channel version it serves (docs/terminal-channel.md), 2 by
 * default; 1 for a provider that has not moved on from the deprecated version.
 */
export interface ProviderCapabilities {
  readonly idempotencyKey: boolean;
  readonly findByReference: boolean;
  readonly terminalChannel: 1 | 2;
}

export interface SellerTransactionListParams {
  readonly status?: TransactionStatus;
  readonly payment_type?: string;
  /** 1–100 (default 100). */
  readonly limit?: number;
  readonly offset?: number;
}

/** What helps find a transaction by its reference when the provider cannot filter by it. */
export interface ReferenceLookupOptions extends CallOptions {
  /** The seller (on_behalf_of) whose list is read. */
  readonly sellerId?: string;
  /** The metadata the creation carried: a transaction whose reference_id is not echoed still matches by it. */
  readonly metadata?: Readonly<Record<string, string>>;
  /** ISO time before which the transaction cannot have been created: the scan stops there. */
  readonly createdAfter?: string;
}

/** The sort value that lists newest first, by how the key is presented (GoPag: Bearer, Zoop: Basic). */
const NEWEST_FIRST: Readonly<Record<AuthScheme, string>> = { bearer: '-created_at', basic: 'time-descending' };

/** Pages of the seller's list read at most (100 transactions each) before the lookup gives up. */
export const SELLER_SCAN_PAGES = 5;
/** The provider's clock may be behind ours. */
const CLOCK_SKEW_MS = 10 * 60_000;

/** Still waiting for the card (or the boleto payer). */
export const isPending = (status: TransactionStatus): boolean => status === 'pending' || status === 'new';

export function kindOf(params: TransactionCreateParams): TransactionKind {
  return 'payment_locale' in params ? params.payment_locale : params.payment_type;
}

/** POST …/transactions/{id}/void — shared by `transactions.void` and the terminal channel. */
export async function voidTransaction(
  ctx: ApiContext,
  transactionId: string,
  params: VoidParams,
  options?: VoidOptions,
): Promise<Transaction> {
  const path = ctx.path('transactions', String(transactionId), 'void');
  assertNoViolations([idViolation('transaction_id', transactionId), ...voidViolations(params)], {
    method: 'POST',
    path,
  });
  const idempotencyKey =
    options?.idempotencyKey ??
    terminalIdempotencyKey(ctx.marketplaceId, transactionId, 'void', options?.attempt, String(params.amount ?? 'full'));
  // An undo: it goes out even within the client's cool-down after a 401 (http.ts).
  return ctx.send(
    { method: 'POST', path, body: params, idempotencyKey, undo: true, ...callOptions(options) },
    normalizeTransaction,
  );
}

export class TransactionsResource {
  readonly #findByReference: boolean;
  readonly #ctx: ApiContext;

  /** `capabilities.findByReference` true: the provider's marketplace list filters by reference_id (default false). */
  constructor(ctx: ApiContext, capabilities: Partial<ProviderCapabilities> = {}) {
    this.#ctx = ctx;
    this.#findByReference = capabilities.findByReference ?? false;
  }

  /** Creates a transaction of any kind; validated against the contract before sending. */
  async create(params: TransactionCreateParams, options?: CreateOptions): Promise<Transaction> {
    const path = this.#ctx.path('transactions');
    const body = { ...params, currency: params.currency ?? 'BRL' } as TransactionRequest;
    assertNoViolations(transactionViolations(body), { method: 'POST', path });
    const idempotencyKey =
      options?.idempotencyKey ??
      (body.reference_id !== undefined
        ? transactionIdempotencyKey(this.#ctx.marketplaceId, kindOf(params), body.reference_id)
        : randomIdempotencyKey());
    return this.#ctx.send(
      { method: 'POST', path, body, idempotencyKey, ...callOptions(options) },
      normalizeTransaction,
    );
  }

  async retrieve(transactionId: string, options?: CallOptions): Promise<Transaction> {
    const path = this.#ctx.path('transactions', String(transactionId));
    assertNoViolations([idViolation('transaction_id', transactionId)], { method: 'GET', path });
    return this.#ctx.send({ method: 'GET', path, ...callOptions(options) }, normalizeTransaction);
  }

  async list(params: TransactionListParams = {}, options?: CallOptions): Promise<List<Transaction>> {
    const path = this.#ctx.path('transactions');
    assertNoViolations(listQueryViolations(params), { method: 'GET', path });
    const { reference_id, status, terminal, payment_type, limit, offset } = params;
    return this.#ctx.send(
      {
        method: 'GET',
        path,
        query: { reference_id, status, terminal, payment_type, limit, offset },
        ...callOptions(options),
      },
      (body, origin) => normalizeList(body, (item) => normalizeTransaction(item, origin), origin),
    );
  }

  /**
   * A seller's transactions, newest first: the listing GoPag documents (no reference_id filter).
   * "Newest first" in the dialect of the service the key is presented to: GoPag's `-created_at`
   * with a Bearer token, Zoop's own `time-descending` with HTTP Basic (payments-api-notes §7).
   */
  async listBySeller(
    sellerId: string,
    params: SellerTransactionListParams = {},
    options?: CallOptions,
  ): Promise<List<Transaction>> {
    const path = this.#ctx.path('sellers', String(sellerId), 'transactions');
    assertNoViolations([idViolation('seller_id', sellerId), ...listQueryViolations(params)], { method: 'GET', path });
    const { status, payment_type, limit, offset } = params;
    return this.#ctx.send(
      {
        method: 'GET',
        path,
        query: { status, payment_type, sort: NEWEST_FIRST[this.#ctx.http.authScheme], limit, offset },
        ...callOptions(options),
      },
      (body, origin) => normalizeList(body, (item) => normalizeTransaction(item, origin), origin),
    );
  }

  /**
   * The transaction created with this reference_id, or undefined (how a restart finds its sale):
   * the first of `listByReference`'s matches.
   */
  async findByReference(referenceId: string, options?: ReferenceLookupOptions): Promise<Transaction | undefined> {
    return (await this.listByReference(referenceId, options))[0];
  }

  /**
   * Every transaction created with this reference_id, or carrying the `metadata` the lookup names
   * (newest first where the provider lists newest first). With the `findByReference` capability,
   * the marketplace's list filtered by reference_id; without it, the seller's list read newest
   * first until a page reaches before `createdAfter` (or SELLER_SCAN_PAGES pages): a gateway that
   * created a sale twice shows both, so the caller can keep one and cancel the other.
   */
  async listByReference(referenceId: string, options?: ReferenceLookupOptions): Promise<Transaction[]> {
    const wanted = Object.entries(options?.metadata ?? {});
    const matches = (transaction: Transaction): boolean =>
      transaction.reference_id === referenceId ||
      (wanted.length > 0 && wanted.every(([key, value]) => transaction.metadata[key] === value));
    if (this.#findByReference) {
      const page = await this.list({ reference_id: referenceId }, options);
      // Filtered again here: a service that ignored the filter must not hand back someone else's sale.
      return page.items.filter((transaction) => transaction.reference_id === referenceId);
    }
    const sellerId = options?.sellerId;
    if (sellerId === undefined) {
      throw new TypeError('findByReference needs the seller id when the provider cannot filter by reference_id');
    }
    const since = options?.createdAfter === undefined ? undefined : Date.parse(options.createdAfter) - CLOCK_SKEW_MS;
    const found: Transaction[] = [];
    const seen = new Set<string>();
    for (let page = 0; page < SELLER_SCAN_PAGES; page++) {
      const { items } = await this.listBySeller(sellerId, { limit: 100, offset: page * 100 }, options);
      // A page boundary that moved under a new sale shows a transaction twice: once is enough.
      for (const transaction of items) {
        if (matches(transaction) && !seen.has(transaction.id)) {
          seen.add(transaction.id);
          found.push(transaction);
        }
      }
      const oldest = items.at(-1);
      const reachedBefore = since !== undefined && oldest !== undefined && createdAtMs(oldest) < since;
      if (items.length < 100 || reachedBefore) break;
    }
    return found;
  }

  /** Full void without `amount`; partial void (captured credit only) with it. */
  async void(transactionId: string, params: VoidParams, options?: VoidOptions): Promise<Transaction> {
    return voidTransaction(this.#ctx, transactionId, params, options);
  }

  /**
   * Polls the transaction until it is no longer pending (the phone completed a tap to pay, the
   * PINPAD agent finished, …) and returns it. Transient failures of a poll (network, timeout,
   * 5xx, 429) are ridden out until the deadline; anything else is thrown. Rejects with
   * `TimeoutError` at the deadline and with the signal's reason when aborted.
   */
  async waitForCompletion(transactionId: string, options: WaitOptions = {}): Promise<Transaction> {
    const path = this.#ctx.path('transactions', String(transactionId));
    assertNoViolations([idViolation('transaction_id', transactionId)], { method: 'GET', path });
    const timeoutMs = options.timeoutMs ?? WAIT_DEFAULTS.timeoutMs;
    const maxIntervalMs = options.maxIntervalMs ?? WAIT_DEFAULTS.maxIntervalMs;
    let intervalMs = Math.min(options.intervalMs ?? WAIT_DEFAULTS.intervalMs, maxIntervalMs);
    const deadline = performance.now() + timeoutMs;
    const remaining = (): number => Math.max(0, deadline - performance.now());
    let lastStatus: string | undefined;
    let lastFailure: string | undefined;

    for (;;) {
      try {
        const transaction = await this.retrieve(transactionId, {
          signal: options.signal,
          timeoutMs: Math.max(1, Math.min(this.#ctx.http.timeoutMs, remaining())),
        });
        if (!isPending(transaction.status)) return transaction;
        lastStatus = transaction.status;
        lastFailure = undefined;
      } catch (error) {
        const transient =
          error instanceof ConnectionError ||
          error instanceof TimeoutError ||
          error instanceof ServerError ||
          error instanceof RateLimitError;
        if (!transient) throw error;
        lastFailure = error.message;
      }
      const left = remaining();
      if (left <= 0) {
        throw new TimeoutError({
          message:
            `Transaction ${transactionId} was still ${lastStatus ?? 'not known'} after ${timeoutMs} ms` +
            (lastFailure === undefined ? '' : ` (last poll failed: ${lastFailure})`),
          timeoutMs,
          method: 'GET',
          path,
        });
      }
      await sleep(Math.min(intervalMs, left), options.signal);
      intervalMs = Math.min(maxIntervalMs, Math.ceil(intervalMs * 1.5));
    }
  }
}
