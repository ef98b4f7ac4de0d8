/**
 * Which EMV tables the sandbox's terminal channel serves to each marketplace's PINPADs: the test
 * set (test-emv-tables.ts) until a test or a trainer replaces it (`PUT /v1/sandbox/marketplaces/
 * {mid}/emv_tables`) or withdraws it (`DELETE`, then the channel answers 404 like a provider that
 * serves no tables). Kept in memory: a restarted sandbox serves the test set again.
 */
import type { EmvTablesDocument } from '../../contract/emv-tables.js';
import type { SandboxContext } from '../context.js';
import { TEST_EMV_TABLES } from './test-emv-tables.js';

const served = new WeakMap<SandboxContext, Map<string, EmvTablesDocument | null>>();

function tablesOf(ctx: SandboxContext): Map<string, EmvTablesDocument | null> {
  let byMarketplace = served.get(ctx);
  if (byMarketplace === undefined) {
    byMarketplace = new Map();
    served.set(ctx, byMarketplace);
  }
  return byMarketplace;
}

/** The tables a marketplace's PINPADs get; null when it serves none. */
export function servedTables(ctx: SandboxContext, marketplaceId: string): EmvTablesDocument | null {
  const tables = tablesOf(ctx).get(marketplaceId);
  return tables === undefined ? TEST_EMV_TABLES : tables;
}

/** Replaces (a document) or withdraws (null) a marketplace's tables. */
export function serveTables(ctx: SandboxContext, marketplaceId: string, tables: EmvTablesDocument | null): void {
  tablesOf(ctx).set(marketplaceId, tables);
}
