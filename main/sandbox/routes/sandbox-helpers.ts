/**
 * Sandbox-only helpers that mint credentials: `POST /v1/sandbox/tokens` (a token with a chosen
 * lifetime, so expiry can be tested) and `POST /v1/sandbox/marketplaces` (a fresh marketplace
 * with a seller, for isolation tests and for parallel test suites).
 */
import { Type } from 'typebox';
import { ErrorA, SandboxToken, SandboxTokenRequest } from '../../contract/index.js';
import type { RouteRegistrar } from '../app.js';
import { notFound } from '../errors.js';
import { createMarketplace, issueToken, marketplaceExists } from '../marketplaces.js';
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
        summary: 'Create a fresh marketplace with one seller and a token (sandbox only)',
        security: [],
        response: { 201: SandboxMarketplace },
      },
    },
    async (_request, reply) => {
      const info = createMarketplace(ctx);
      return reply.code(201).send({ marketplace_id: info.marketplaceId, seller_id: info.sellerId, access_token: info.token });
    },
  );
};
