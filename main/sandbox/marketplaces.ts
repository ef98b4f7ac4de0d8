/**
 * Marketplaces, their sellers and access tokens. The sandbox has no public endpoints for these
 * (the contract does not either); they are made by the seed and by the sandbox helpers.
 */
import { randomBytes } from 'node:crypto';
import type { SandboxContext } from './context.js';
import { newId, offsetTimestamp, utcTimestamp } from './time.js';

export interface MarketplaceInfo {
  readonly marketplaceId: string;
  readonly sellerId: string;
  readonly token: string;
}

export interface SellerRecord {
  id: string;
  resource: 'seller';
  type: 'business';
  business_name: string;
  ein: string;
  statement_descriptor: string;
  created_at: string;
}

export function marketplaceExists(ctx: SandboxContext, marketplaceId: string): boolean {
  return ctx.db.statement('SELECT 1 FROM marketplaces WHERE id = ?').get(marketplaceId) !== undefined;
}

export function findSeller(ctx: SandboxContext, marketplaceId: string, sellerId: string): SellerRecord | undefined {
  const row = ctx.db
    .statement('SELECT data FROM sellers WHERE id = ? AND marketplace_id = ?')
    .get(sellerId, marketplaceId) as { data: string } | undefined;
  return row ? (JSON.parse(row.data) as SellerRecord) : undefined;
}

/** A token for the marketplace; `expiresInSeconds` undefined means it never expires. */
export function issueToken(
  ctx: SandboxContext,
  marketplaceId: string,
  expiresInSeconds?: number,
): { token: string; expiresAt: Date | null } {
  const token = `sbx_${randomBytes(24).toString('base64url')}`;
  const now = ctx.now();
  const expiresAt = expiresInSeconds === undefined ? null : new Date(now.getTime() + expiresInSeconds * 1000);
  ctx.db
    .statement('INSERT INTO tokens (token, marketplace_id, expires_at_ms, created_at) VALUES (?, ?, ?, ?)')
    .run(token, marketplaceId, expiresAt?.getTime() ?? null, utcTimestamp(now));
  return { token, expiresAt };
}

/** A new marketplace with one seller (the store) and a token that does not expire. */
export function createMarketplace(
  ctx: SandboxContext,
  seller: { businessName: string; ein: string } = { businessName: 'Loja Exemplo Ltda', ein: '11222333000181' },
  name = 'Pinbridge sandbox marketplace',
): MarketplaceInfo {
  const marketplaceId = newId();
  const sellerId = newId();
  const now = ctx.now();
  const record: SellerRecord = {
    id: sellerId,
    resource: 'seller',
    type: 'business',
    business_name: seller.businessName,
    ein: seller.ein,
    statement_descriptor: seller.businessName.slice(0, 22),
    created_at: offsetTimestamp(now),
  };
  const create = ctx.db.transaction(() => {
    ctx.db
      .statement('INSERT INTO marketplaces (id, name, created_at) VALUES (?, ?, ?)')
      .run(marketplaceId, name, utcTimestamp(now));
    ctx.db
      .statement('INSERT INTO sellers (id, marketplace_id, data, created_at) VALUES (?, ?, ?, ?)')
      .run(sellerId, marketplaceId, JSON.stringify(record), record.created_at);
    return issueToken(ctx, marketplaceId).token;
  });
  return { marketplaceId, sellerId, token: create() };
}
