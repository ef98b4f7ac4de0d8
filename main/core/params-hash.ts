/**
 * The fingerprint of a payment's parameters, apart from params.ts so that the protocol schemas
 * (which browsers load through the POS client's types) never pull in node:crypto.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../contract/index.js';
import type { StartParams } from './params.js';

/**
 * What makes two starts "the same payment": every parameter but the PINPAD (a retry after a
 * PINPAD swap is still the same sale). SHA-256 of the canonical JSON.
 */
export function paramsHash(params: StartParams): string {
  const { terminal: _terminal, ...rest } = params;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}
