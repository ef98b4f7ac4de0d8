/**
 * Bearer authentication. Every /v1 route needs a token unless its config says `auth: false`;
 * a missing, unknown or expired token is 401 (shape B, `type: "unauthorized"`). A token
 * belongs to one marketplace: a path naming another marketplace answers 404 "Marketplace not
 * found", so one marketplace cannot even learn that another exists.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from './context.js';
import { SandboxHttpError, unauthorized } from './errors.js';

interface TokenRow {
  marketplace_id: string;
  expires_at_ms: number | null;
}

export async function authenticate(ctx: SandboxContext, request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  // Unknown routes fall through to the 404 handler; documents and helpers may opt out.
  if (request.routeOptions.url === undefined || !request.routeOptions.url.startsWith('/v1/')) return;
  if (request.routeOptions.config?.auth === false) return;

  const header = request.headers.authorization;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header ?? '');
  if (!match) {
    throw unauthorized(header === undefined ? 'Missing Authorization header (Bearer token)' : 'Authorization header must be "Bearer <token>"');
  }
  const row = ctx.db.prepare('SELECT marketplace_id, expires_at_ms FROM tokens WHERE token = ?').get(match[1]) as
    | TokenRow
    | undefined;
  if (!row) throw unauthorized('Invalid access token');
  if (row.expires_at_ms !== null && row.expires_at_ms <= ctx.now().getTime()) throw unauthorized('Access token expired');

  const params = request.params as { marketplace_id?: string } | undefined;
  const named = params?.marketplace_id;
  if (named !== undefined && named !== row.marketplace_id) {
    throw new SandboxHttpError(404, `Marketplace not found: ${named}`);
  }
  request.marketplaceId = row.marketplace_id;
  await Promise.resolve();
}
