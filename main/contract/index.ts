/** The payments API contract: schemas, types and rules shared by main/api and main/sandbox. */
export * from './common.js';
export * from './buyers.js';
export * from './bank-accounts.js';
export * from './transactions.js';
export * from './terminal.js';
export * from './terminal-v2.js';
export * from './webhooks.js';
export * from './sandbox.js';
export * from './rules.js';
export * from './canonical-json.js';
export * from './emv-tables.js';
