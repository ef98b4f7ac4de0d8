/**
 * First-start seed: one marketplace, its seller (the store) with bank accounts, a few buyers,
 * and a token that does not expire. The ids are kept in the meta table, so a restart with the
 * same data directory prints the same marketplace, seller and token.
 */
import type { SandboxContext } from './context.js';
import { createMarketplace, type MarketplaceInfo } from './marketplaces.js';
import { seedExampleRecords } from './seed-records.js';
import { readMeta, writeMeta } from './store/database.js';

export function ensureSeed(ctx: SandboxContext): MarketplaceInfo {
  const existing = readMeta(ctx.db, 'seed');
  if (existing !== undefined) return JSON.parse(existing) as MarketplaceInfo;
  const seeded = ctx.db.transaction(() => {
    const info = createMarketplace(ctx);
    seedExampleRecords(ctx, info);
    writeMeta(ctx.db, 'seed', JSON.stringify(info));
    return info;
  });
  return seeded();
}
