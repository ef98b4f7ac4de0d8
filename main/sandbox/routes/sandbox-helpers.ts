/**
 * Sandbox-only helpers that mint credentials: `POST /v1/sandbox/tokens` (a token with a chosen
 * lifetime, so expiry can be tested) and `POST /v1/sandbox/marketplaces` (a fresh marketplace
 * with a seller, for isolation tests and for parallel test suites), and the EMV tables the
 * terminal channel serves a marketplace's PINPADs (`PUT`/`DELETE /v1/sandbox/marketplaces/{mid}/
 * emv_tables`, so a new tables version or a provider without tables can be rehearsed).
 */
import { Type } from 'typebox';
import { EmvTablesDocument, ErrorA, SandboxToken, SandboxTokenRequest } from '../../contract/index.js';
import type { RouteRegistrar } from '../app.js';
import { AUTH_ERRORS, notFound } from '../errors.js';
import { createMarketplace, issueToken, marketplaceExists } from '../marketplaces.js';
import { serveTables } from '../payments/emv-tables.js';
import { utcTimestamp } from '../time.js';

const SandboxMarketplace = Type.Object(
  {
    marketplace_id: Type.String(),
    seller_id: Type.String(),
    access_token: Type.String(),
  },
  { title: 'SandboxMarketplace' },
);

export const registerSandboxHelperRoutes: RouteRegistrar = (app, ctx) => {
  app.post(
    '/v1/sandbox/tokens',
    {
      config: { auth: false },
      schema: {
        tags: ['sandbox'],
        operationId: 'createSandboxToken',
        summary: 'Mint an access token for a marketplace (sandbox only)',
        description: '`expires_in` seconds from now (0: already expired). No Authorization header needed.',
        security: [],
        body: SandboxTokenRequest,
        response: { 201: SandboxToken, 400: ErrorA, 404: ErrorA },
      },
    },
    async (request, reply) => {
      const { marketplace_id: marketplaceId, expires_in: expiresIn = 3600 } = request.body;
      if (!marketplaceExists(ctx, marketplaceId)) throw notFound(`Marketplace not found: ${marketplaceId}`);
      const { token, expiresAt } = issueToken(ctx, marketplaceId, expiresIn);
      return reply.code(201).send({
        access_token: token,
        token_type: 'Bearer' as const,
        marketplace_id: marketplaceId,
        expires_at: utcTimestamp(expiresAt ?? ctx.now()),
      });
    },
  );

  app.post(
    '/v1/sandbox/marketplaces',
    {
      config: { auth: false },
      schema: {
        tags: ['sandbox'],
        operationId: 'createSandboxMarketplace',
        summary: 'Create a fresh marketplace with one seller and a token (sandbox only)',
        security: [],
        response: { 201: SandboxMarketplace, 400: ErrorA, 415: ErrorA },
      },
    },
    async (_request, reply) => {
      const info = createMarketplace(ctx);
      return reply
        .code(201)
        .send({ marketplace_id: info.marketplaceId, seller_id: info.sellerId, access_token: info.token });
    },
  );

  app.put(
    '/v1/sandbox/marketplaces/:marketplace_id/emv_tables',
    {
      schema: {
        tags: ['sandbox'],
        operationId: 'replaceSandboxEmvTables',
        summary: "Replace the EMV tables the terminal channel serves this marketplace's PINPADs (sandbox only)",
        description:
          'Kept until the sandbox restarts (then the test set again). A new `version` makes every PINPAD load them.',
        params: Type.Object({ marketplace_id: Type.String() }),
        body: EmvTablesDocument,
        response: { 200: EmvTablesDocument, 400: ErrorA, ...AUTH_ERRORS.A },
      },
    },
    (request) => {
      serveTables(ctx, request.marketplaceId, request.body);
      return request.body;
    },
  );

  app.delete(
    '/v1/sandbox/marketplaces/:marketplace_id/emv_tables',
    {
      schema: {
        tags: ['sandbox'],
        operationId: 'deleteSandboxEmvTables',
        summary: "Serve no EMV tables to this marketplace's PINPADs (sandbox only): the terminal channel answers 404",
        params: Type.Object({ marketplace_id: Type.String() }),
        response: {
          200: Type.Object(
            { resource: Type.Literal('emv_tables'), deleted: Type.Literal(true) },
            { title: 'SandboxEmvTablesDeleted' },
          ),
          ...AUTH_ERRORS.A,
        },
      },
    },
    (request) => {
      serveTables(ctx, request.marketplaceId, null);
      return { resource: 'emv_tables' as const, deleted: true as const };
    },
  );
};
