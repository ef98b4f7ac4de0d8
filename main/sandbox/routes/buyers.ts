/**
 * Buyers (error shape A): create, get, update (PATCH rules 1–6 of the contract), search by CPF or
 * CNPJ, and remove. Bodies are checked here rather than by Fastify (`attachValidation`), so the
 * order of the verdicts is the contract's: an immutable field is reported as such before any
 * other problem of the body, and an invalid e-mail is worded the same on POST and PATCH.
 */
import { Type } from 'typebox';
import {
  BUYER_IMMUTABLE_FIELDS,
  BUYER_UPDATABLE_FIELDS,
  Buyer,
  BuyerCreateRequest,
  BuyerDeleted,
  BuyerSearchQuery,
  BuyerUpdateRequest,
  ErrorA,
  buyerSearchViolation,
  isId,
  schemaViolations,
  taxpayerViolations,
  type Violation,
} from '../../contract/index.js';
import type { RouteRegistrar } from '../app.js';
import type { SandboxContext } from '../context.js';
import { AUTH_ERRORS, badRequest, conflict, notFound } from '../errors.js';
import { idempotent, markReplay } from '../idempotency.js';
import {
  applyBuyerUpdate,
  findBuyer,
  findBuyerByTaxId,
  insertBuyer,
  saveBuyer,
  softDeleteBuyer,
  type BuyerRecord,
} from '../store/buyers.js';
import { buyerDeletedView, buyerSearchView, buyerView } from '../views/buyer.js';

const MarketplaceParams = Type.Object({ marketplace_id: Type.String() });
const BuyerParams = Type.Object({
  marketplace_id: Type.String(),
  buyer_id: Type.String({ description: '32 hexadecimal characters; anything else is simply not found (404).' }),
});
const BuyerSearchResult = Type.Omit(Buyer, ['metadata'], {
  title: 'BuyerSearchResult',
  description: 'A buyer as the search returns it: without metadata; taxpayer_id for a person, ein for a company.',
});

const config = { errorShape: 'A' } as const;
const errors = { 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA, 409: ErrorA };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first violation, in the service's words; a malformed e-mail gets the contract's own 400. */
function violationMessage(violation: Violation, body: Record<string, unknown>): string {
  if (violation.field === 'email' && typeof body.email === 'string') return `Invalid email format: ${body.email}`;
  return violation.message;
}

function assertObjectBody(body: unknown): Record<string, unknown> {
  if (!isRecord(body)) throw badRequest('Body must be a JSON object');
  return body;
}

function checkCreateBody(raw: unknown): BuyerCreateRequest {
  const body = assertObjectBody(raw);
  const [first] = [...schemaViolations(BuyerCreateRequest, body), ...taxpayerViolations(body)];
  if (first) throw badRequest(violationMessage(first, body));
  return body as BuyerCreateRequest;
}

/** PATCH rules 1 (immutable fields first, so their message wins), unknown fields, then the schema (rule 2). */
function checkUpdateBody(raw: unknown): BuyerUpdateRequest {
  const body = assertObjectBody(raw);
  const keys = Object.keys(body);
  const immutable = BUYER_IMMUTABLE_FIELDS.filter((field) => keys.includes(field));
  if (immutable.length === 1) throw badRequest(`Field ${immutable[0]} cannot be modified`);
  if (immutable.length > 1) throw badRequest(`Fields ${immutable.join(', ')} cannot be modified`);
  const unexpected = keys.filter((key) => !(BUYER_UPDATABLE_FIELDS as readonly string[]).includes(key));
  if (unexpected.length > 0) throw badRequest(`Unexpected fields in request [${unexpected.join(', ')}]`);
  const [first] = schemaViolations(BuyerUpdateRequest, body);
  if (first) throw badRequest(violationMessage(first, body));
  return body;
}

function existingBuyer(ctx: SandboxContext, marketplaceId: string, buyerId: string): BuyerRecord {
  // A malformed id cannot name a buyer: the contract lists 404 for buyers, 400 only for bank account ids.
  const record = isId(buyerId) ? findBuyer(ctx.db, marketplaceId, buyerId) : undefined;
  if (!record) throw notFound('Buyer not found');
  return record;
}

export const registerBuyerRoutes: RouteRegistrar = (app, ctx) => {
  app.post(
    '/v1/marketplaces/:marketplace_id/buyers',
    {
      config,
      attachValidation: true,
      schema: {
        tags: ['buyers'],
        operationId: 'createBuyer',
        summary: 'Create a buyer',
        description:
          'Exactly one of taxpayer_id (CPF) or ein (CNPJ, numeric or alphanumeric), with valid check digits. A second buyer with the same document in ' +
          'the marketplace is 409. Honors Idempotency-Key.',
        params: MarketplaceParams,
        body: BuyerCreateRequest,
        response: { 201: Buyer, ...errors },
      },
    },
    async (request, reply) => {
      const body = checkCreateBody(request.body);
      const marketplaceId = request.marketplaceId;
      const result = idempotent(ctx, request, () => {
        const taxId = body.taxpayer_id !== undefined ? { taxpayer_id: body.taxpayer_id } : { ein: body.ein ?? '' };
        if (findBuyerByTaxId(ctx.db, marketplaceId, taxId)) {
          throw conflict(
            'taxpayer_id' in taxId
              ? `Buyer already exists with taxpayer_id: ${taxId.taxpayer_id}`
              : `Buyer already exists with ein: ${taxId.ein}`,
          );
        }
        return { statusCode: 201, body: buyerView(insertBuyer(ctx.db, marketplaceId, body, ctx.now())) };
      });
      return markReplay(reply, result).code(result.statusCode).send(result.body);
    },
  );

  // A static path: find-my-way matches it before the parametric /buyers/:buyer_id.
  app.get(
    '/v1/marketplaces/:marketplace_id/buyers/search',
    {
      config,
      schema: {
        tags: ['buyers'],
        operationId: 'searchBuyer',
        summary: 'Search a buyer by CPF (taxpayer_id) or CNPJ (ein)',
        description:
          'ein is the CNPJ as the buyer was created with it: 14 digits, or the alphanumeric CNPJ in uppercase (12ABC34501DE35).',
        params: MarketplaceParams,
        querystring: BuyerSearchQuery,
        response: { 200: BuyerSearchResult, ...errors },
      },
    },
    async (request, reply) => {
      const violation = buyerSearchViolation(request.query);
      if (violation) throw badRequest(violation.message);
      const { taxpayer_id: cpf, ein: cnpj } = request.query;
      const taxId = cpf !== undefined ? { taxpayer_id: cpf } : { ein: cnpj ?? '' };
      const record = findBuyerByTaxId(ctx.db, request.marketplaceId, taxId);
      if (!record)
        throw notFound(
          cpf !== undefined ? `Buyer not found with taxpayer_id: ${cpf}` : `Buyer not found with ein: ${cnpj}`,
        );
      return reply.send(buyerSearchView(record));
    },
  );

  app.get(
    '/v1/marketplaces/:marketplace_id/buyers/:buyer_id',
    {
      config,
      schema: {
        tags: ['buyers'],
        operationId: 'getBuyer',
        summary: 'Get a buyer',
        params: BuyerParams,
        response: { 200: Buyer, ...errors },
      },
    },
    async (request, reply) => reply.send(buyerView(existingBuyer(ctx, request.marketplaceId, request.params.buyer_id))),
  );

  app.patch(
    '/v1/marketplaces/:marketplace_id/buyers/:buyer_id',
    {
      config,
      attachValidation: true,
      schema: {
        tags: ['buyers'],
        operationId: 'updateBuyer',
        summary: 'Update a buyer',
        description:
          'Only the fields to change. taxpayer_id, ein, id, resource, created_at and updated_at cannot be modified (400); ' +
          'address and metadata replace the whole object; "" or null removes a value. Answers the full buyer with a new updated_at.',
        params: BuyerParams,
        body: BuyerUpdateRequest,
        response: { 200: Buyer, ...errors },
      },
    },
    async (request, reply) => {
      const record = existingBuyer(ctx, request.marketplaceId, request.params.buyer_id);
      const patch = checkUpdateBody(request.body);
      const updated = applyBuyerUpdate(record, patch, ctx.now());
      saveBuyer(ctx.db, updated);
      return reply.send(buyerView(updated));
    },
  );

  app.delete(
    '/v1/marketplaces/:marketplace_id/buyers/:buyer_id',
    {
      config,
      schema: {
        tags: ['buyers'],
        operationId: 'deleteBuyer',
        summary: 'Remove a buyer',
        description: 'Afterwards the buyer is not found by id or by search; its document may be registered again.',
        params: BuyerParams,
        response: { 200: BuyerDeleted, ...errors },
      },
    },
    async (request, reply) => {
      const { buyer_id: buyerId } = request.params;
      const removed = isId(buyerId) ? softDeleteBuyer(ctx.db, request.marketplaceId, buyerId, ctx.now()) : undefined;
      if (!removed) throw notFound('Buyer not found');
      return reply.send(buyerDeletedView(removed));
    },
  );
};
