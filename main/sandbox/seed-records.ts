import type { SandboxContext } from './context.js';
import type { MarketplaceInfo } from './marketplaces.js';

/** Example buyers and bank accounts for a new marketplace. */
export function seedExampleRecords(_ctx: SandboxContext, _info: MarketplaceInfo): void {}
