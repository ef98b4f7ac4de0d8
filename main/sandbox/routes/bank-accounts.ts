/**
 * Bank accounts of sellers (error shape B: status_code / type / message): get one, list a
 * seller's accounts, create and remove. An id that is not 32 hexadecimal characters is a
 * validation_error (400); an account that does not exist, was removed or belongs to another
 * marketplace is not_found (404), so a marketplace cannot learn about another's accounts.
 */
import { Type } from 'typebox';
import {
  BankAccount,
  BankAccountCreateRequest,
  BankAccountDeleted,
  BankAccountList,
  ErrorB,
  LIST_LIMIT_MAX,
  ListQuery,
  isId,
  taxpayerViolations,
  type BankAccountListItem,
  type ListEnvelope,
} from '../../contract/index.js';
import type { RouteRegistrar } from '../app.js';
import { AUTH_ERRORS, badRequest, notFound } from '../errors.js';
import { idempotent, markReplay } from '../idempotency.js';
import { findSeller } from '../marketplaces.js';
import { newId } from '../time.js';
import { findBankAccount, insertBankAccount, listBankAccounts, softDeleteBankAccount } from '../store/bank-accounts.js';
import { bankAccountDeletedView, bankAccountListItemView, bankAccountView } from '../views/bank-account.js';

const MarketplaceParams = Type.Object({ marketplace_id: Type.String() });
const BankAccountParams = Type.Object({
  marketplace_id: Type.String(),
  bank_account_id: Type.String({ description: '32 hexadecimal characters (anything else is 400).' }),
});
const SellerParams = Type.Object({
  marketplace_id: Type.String(),
  seller_id: Type.String({ description: '32 hexadecimal characters (anything else is 400).' }),
});

const config = { errorShape: 'B' } as const;
const errors = { 400: ErrorB, ...AUTH_ERRORS.B, 404: ErrorB, 409: ErrorB };

function checkId(name: 'bank_account_id' | 'seller_id', value: string): string {
  if (!isId(value)) throw badRequest(`${name} must be 32 hexadecimal characters`);
  return value;
}

export const registerBankAccountRoutes: RouteRegistrar = (app, ctx) => {
  app.get(
    '/v1/marketplaces/:marketplace_id/bank_accounts/:bank_account_id',
    {
      config,
      schema: {
        tags: ['bank accounts'],
        operationId: 'getBankAccount',
        summary: 'Get a bank account (detail view)',
        params: BankAccountParams,
        response: { 200: BankAccount, ...errors },
      },
    },
    async (request, reply) => {
      const id = checkId('bank_account_id', request.params.bank_account_id);
      const record = findBankAccount(ctx.db, request.marketplaceId, id);
      if (!record) throw notFound(`Bank account not found: ${id}`);
      return reply.send(bankAccountView(record));
    },
  );

  app.get(
    '/v1/marketplaces/:marketplace_id/sellers/:seller_id/bank_accounts',
    {
      config,
      schema: {
        tags: ['bank accounts'],
        operationId: 'listSellerBankAccounts',
        summary: "List a seller's bank accounts (list view)",
        description:
          `Paged by limit (1–${LIST_LIMIT_MAX}, default ${LIST_LIMIT_MAX}) and offset (default 0), oldest first. ` +
          'A seller without accounts, and an id that names no seller of the marketplace, get an empty list.',
        params: SellerParams,
        querystring: ListQuery,
        response: { 200: BankAccountList, ...errors },
      },
    },
    async (request, reply) => {
      const sellerId = checkId('seller_id', request.params.seller_id);
      const limit = request.query.limit ?? LIST_LIMIT_MAX;
      const offset = request.query.offset ?? 0;
      // The contract defines only the empty case ("a seller with no accounts gets items = []"). An id
      // that names no seller of this marketplace gets that same empty list rather than a 404: the
      // answer reveals nothing, and it is what a seller with no accounts looks like from outside.
      const page = listBankAccounts(ctx.db, request.marketplaceId, sellerId, { limit, offset });
      const body: ListEnvelope<BankAccountListItem> = {
        resource: 'list',
        uri: request.url,
        items: page.records.map(bankAccountListItemView),
        has_more: offset + page.records.length < page.total,
        limit,
        offset,
        total: page.total,
      };
      return reply.send(body);
    },
  );

  app.post(
    '/v1/marketplaces/:marketplace_id/bank_accounts',
    {
      config,
      schema: {
        tags: ['bank accounts'],
        operationId: 'createBankAccount',
        summary: 'Create a bank account for a seller',
        description:
          'customer is the id of a seller of the marketplace; exactly one of taxpayer_id (CPF) or ein (CNPJ, numeric or alphanumeric) of the holder, with ' +
          'valid check digits. The full account number is kept but never returned. Honors Idempotency-Key.',
        params: MarketplaceParams,
        body: BankAccountCreateRequest,
        response: { 201: BankAccount, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const [violation] = taxpayerViolations(body);
      if (violation) throw badRequest(violation.message);
      const marketplaceId = request.marketplaceId;
      const result = idempotent(ctx, request, () => {
        if (!findSeller(ctx, marketplaceId, body.customer)) throw notFound(`Seller not found: ${body.customer}`);
        const record = insertBankAccount(
          ctx.db,
          marketplaceId,
          {
            customer: body.customer,
            holder_name: body.holder_name,
            taxpayer_id: body.taxpayer_id ?? body.ein ?? '',
            bank_code: body.bank_code,
            type: body.type,
            account_number: body.account_number,
            routing_number: body.routing_number,
            // What a real service keeps beside the account and must never show.
            metadata: { full_account_number: body.account_number, verification_token: newId() },
          },
          ctx.now(),
        );
        return { statusCode: 201, body: bankAccountView(record) };
      });
      return markReplay(reply, result).code(result.statusCode).send(result.body);
    },
  );

  app.delete(
    '/v1/marketplaces/:marketplace_id/bank_accounts/:bank_account_id',
    {
      config,
      schema: {
        tags: ['bank accounts'],
        operationId: 'deleteBankAccount',
        summary: 'Remove a bank account',
        description: "Afterwards the account is not found and is left out of its seller's list.",
        params: BankAccountParams,
        response: { 200: BankAccountDeleted, ...errors },
      },
    },
    async (request, reply) => {
      const id = checkId('bank_account_id', request.params.bank_account_id);
      const removed = softDeleteBankAccount(ctx.db, request.marketplaceId, id, ctx.now());
      if (!removed) throw notFound(`Bank account not found: ${id}`);
      return reply.send(bankAccountDeletedView(removed));
    },
  );
};
