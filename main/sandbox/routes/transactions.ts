/**
 * Transactions: create any of the four kinds, look one up, list them (the marketplace's list
 * filters by reference_id; the seller's list is the one GoPag documents). Both lists sort as the
 * provider the sandbox plays documents it (sortOrder). The creation body is checked by the contract's rules rather than by Ajv:
 * Ajv's errors for a union of four schemas name no field, the rules name the broken one in the
 * service's words.
 */
import { Type, type Static } from 'typebox';
import {
  ErrorA,
  Transaction,
  TransactionList,
  TransactionListQuery,
  TransactionRequest,
  transactionRequestViolations,
  TransactionStatus,
} from '../../contract/index.js';
import type { RouteRegistrar } from '../app.js';
import type { SandboxContext } from '../context.js';
import { AUTH_ERRORS, badRequest, notFound } from '../errors.js';
import { findSeller } from '../marketplaces.js';
import { idempotent, markReplay } from '../idempotency.js';
import { cancellationSweeper } from '../payments/boleto-cancellation.js';
import { loadTransaction } from '../payments/change.js';
import { createTransaction } from '../payments/create.js';
import { listTransactions, type TransactionRecord } from '../store/transactions.js';
import { transactionListView, transactionView } from '../views/transaction.js';

export const MarketplaceParams = Type.Object({ marketplace_id: Type.String() });
export const TransactionParams = Type.Object({ marketplace_id: Type.String(), transaction_id: Type.String() });

/**
 * The listings' `sort`: GoPag's values (`created_at`, `-created_at`; G transacoes/listar.md) and
 * the Zoop API's (`time-ascending`, `time-descending`; payments-api-notes.md §7). Which are taken
 * follows the provider the sandbox plays, told by how it takes the key: the contract's Bearer
 * (GoPag) takes GoPag's only and refuses Zoop's with 400, as a provider refuses a value it does
 * not document; Basic or either (`--auth basic|any`, the Zoop API underneath) takes both, Zoop's
 * own values and the ones GoPag's front passes on.
 */
const SORT_DESCRIPTION =
  'Order by creation: `-created_at` or `time-descending` newest first (the default), `created_at` or `time-ascending` ' +
  "oldest first. `created_at`/`-created_at` are GoPag's values; `time-descending`/`time-ascending` the Zoop API's, " +
  "taken when the sandbox takes the key as Zoop does (`--auth basic` or `any`) and refused (400) with the contract's " +
  'Bearer only, as GoPag documents only its own.';

const ListSort = Type.Union(
  [
    Type.Literal('-created_at'),
    Type.Literal('created_at'),
    Type.Literal('time-descending'),
    Type.Literal('time-ascending'),
  ],
  { description: SORT_DESCRIPTION },
);
type ListSort = Static<typeof ListSort>;

/** The order a listing's `sort` asks for, if the provider the sandbox plays takes that value. */
function sortOrder(ctx: SandboxContext, sort: ListSort | undefined): 'newest_first' | 'oldest_first' {
  if ((sort === 'time-descending' || sort === 'time-ascending') && ctx.settings.authScheme === 'bearer') {
    throw badRequest(
      `Query parameter sort must be created_at or -created_at (${sort} is the Zoop API's value, taken when the sandbox takes the key as Zoop does: --auth basic or any)`,
    );
  }
  return sort === 'created_at' || sort === 'time-ascending' ? 'oldest_first' : 'newest_first';
}

/** The marketplace listing's query: the contract's, and the sort the providers document. */
const MarketplaceTransactionListQuery = Type.Object({
  ...TransactionListQuery.properties,
  sort: Type.Optional(ListSort),
});

/** The request's path without its query string (the list envelope's `uri`). */
export const requestPath = (url: string): string => url.split('?')[0] ?? url;

export const registerTransactionRoutes: RouteRegistrar = (app, ctx) => {
  const sweeper = cancellationSweeper(ctx);

  app.post(
    '/v1/marketplaces/:marketplace_id/transactions',
    {
      schema: {
        tags: ['transactions'],
        operationId: 'createTransaction',
        summary: 'Create a transaction (boleto, bolepix, PINPAD or tap to pay)',
        description:
          'The kind is told by payment_type and payment_locale. Card payments (pinpad, tap_to_pay) are created `pending` and ' +
          'completed by the terminal channel (PINPAD) or the phone (tap to pay, sandbox helper). Boleto and bolepix are ' +
          'created `pending` with their barcode, digitable line and PDF (bolepix also with a Pix payload); amount R$ 3,00 to ' +
          'R$ 10.000,00 (R$ 30,00 minimum with a late fee or interest). The seller (on_behalf_of) must belong to the ' +
          'marketplace, and so must the boleto customer unless payment_method.buyer is given. An Idempotency-Key header makes ' +
          'a retry return the first response (same key with another body: 409).',
        params: MarketplaceParams,
        body: TransactionRequest,
        response: { 201: Transaction, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA, 409: ErrorA },
      },
      // The body schema is for the document only; transactionRequestViolations checks it below.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      const body: unknown = request.body;
      const violation = transactionRequestViolations(body)[0];
      if (violation) throw badRequest(violation.message);
      const created = idempotent<TransactionRecord>(ctx, request, () => ({
        statusCode: 201,
        body: createTransaction(ctx, request.marketplaceId, body as TransactionRequest, ctx.now()),
      }));
      return markReplay(reply, created).code(201).send(transactionView(ctx, created.body));
    },
  );

  app.get(
    '/v1/marketplaces/:marketplace_id/transactions/:transaction_id',
    {
      schema: {
        tags: ['transactions'],
        operationId: 'getTransaction',
        summary: 'Get a transaction',
        description: 'Unknown ids, ids of another marketplace and ids that are not 32 hexadecimal characters are 404.',
        params: TransactionParams,
        response: { 200: Transaction, ...AUTH_ERRORS.A, 404: ErrorA },
      },
    },
    async (request, reply) => {
      sweeper.applyDue();
      return reply.send(
        transactionView(ctx, loadTransaction(ctx, request.marketplaceId, request.params.transaction_id)),
      );
    },
  );

  app.get(
    '/v1/marketplaces/:marketplace_id/transactions',
    {
      schema: {
        tags: ['transactions'],
        operationId: 'listTransactions',
        summary: 'List transactions, newest first (filter by reference_id, status, terminal, payment_type)',
        description:
          'The way to find a transaction by its reference_id. limit defaults to 100 (the maximum). Newest first unless ' +
          '`sort` says otherwise (GoPag: `created_at`/`-created_at`; Zoop: `time-ascending`/`time-descending`, with ' +
          '`--auth basic` or `any`).',
        params: MarketplaceParams,
        querystring: MarketplaceTransactionListQuery,
        response: { 200: TransactionList, 400: ErrorA, ...AUTH_ERRORS.A },
      },
    },
    async (request, reply) => {
      if (!ctx.settings.marketplaceTransactionList) {
        throw notFound(
          'Endpoint not found: list the transactions of a seller (GET /v1/marketplaces/{mid}/sellers/{sid}/transactions)',
        );
      }
      sweeper.applyDue();
      const { limit = 100, offset = 0, reference_id, status, terminal, payment_type, sort } = request.query;
      const order = sortOrder(ctx, sort);
      const page = listTransactions(
        ctx.db,
        request.marketplaceId,
        { reference_id, status, terminal, payment_type },
        { limit, offset, order },
      );
      return reply.send(transactionListView(ctx, page, { path: requestPath(request.url), limit, offset }));
    },
  );

  app.get(
    '/v1/marketplaces/:marketplace_id/sellers/:seller_id/transactions',
    {
      schema: {
        tags: ['transactions'],
        operationId: 'listSellerTransactions',
        summary: "List a seller's transactions (the listing GoPag documents)",
        description:
          'Newest first unless `sort=created_at` (`-created_at` is the default; with `--auth basic` or `any` also the Zoop ' +
          "API's `time-ascending`/`time-descending`); filter by status and payment_type. limit " +
          'defaults to 100 (the maximum). An unknown seller is 404. No reference_id filter: a client that lost the answer of ' +
          'a creation finds it here by its reference_id or metadata, page by page.',
        params: SellerParams,
        querystring: SellerTransactionListQuery,
        response: { 200: TransactionList, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA },
      },
    },
    async (request, reply) => {
      sweeper.applyDue();
      if (findSeller(ctx, request.marketplaceId, request.params.seller_id) === undefined) {
        throw notFound(`Seller not found: ${request.params.seller_id}`);
      }
      const { limit = 100, offset = 0, status, payment_type, sort } = request.query;
      const order = sortOrder(ctx, sort);
      const page = listTransactions(
        ctx.db,
        request.marketplaceId,
        { seller_id: request.params.seller_id, status, payment_type },
        { limit, offset, order },
      );
      return reply.send(transactionListView(ctx, page, { path: requestPath(request.url), limit, offset }));
    },
  );
};

const SellerParams = Type.Object({ marketplace_id: Type.String(), seller_id: Type.String() });

const SellerTransactionListQuery = Type.Object({
  status: Type.Optional(TransactionStatus),
  payment_type: Type.Optional(Type.String()),
  sort: Type.Optional(ListSort),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
