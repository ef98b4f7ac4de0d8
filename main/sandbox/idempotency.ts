/**
 * `Idempotency-Key` on creating POSTs: the first request with a key runs; a repeat with the same
 * key and the same body gets the first response again (same status, same record); the same key
 * with a different body is 409. Keys are per marketplace. Only successful creations are kept,
 * so a request that failed validation can be corrected and retried under the same key.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canonicalJson } from '../contract/index.js';
import type { SandboxContext } from './context.js';
import { badRequest, conflict } from './errors.js';
import { utcTimestamp } from './time.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const MAX_KEY_LENGTH = 255;

export interface StoredResponse<T = unknown> {
  readonly statusCode: number;
  readonly body: T;
  /** True when this is a replay of an earlier request. */
  readonly replayed: boolean;
}

export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined) return undefined;
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) {
    throw badRequest(`Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} characters`);
  }
  return key;
}

/**
 * Runs `create` (synchronous: it writes through better-sqlite3) at most once per key. Must be
 * called after authentication (it uses `request.marketplaceId`).
 */
export function idempotent<T>(
  ctx: SandboxContext,
  request: FastifyRequest,
  create: () => { statusCode: number; body: T },
): StoredResponse<T> {
  // A provider without the feature ignores the header: a repeat does it again.
  const key = ctx.settings.idempotencyKeys ? idempotencyKeyOf(request) : undefined;
  if (key === undefined) return { ...create(), replayed: false };
  const hash = createHash('sha256')
    .update(
      `${request.method} ${request.routeOptions.url ?? request.url}\n${canonicalJson(request.params)}\n${canonicalJson(request.body)}`,
    )
    .digest('hex');
  const run = ctx.db.transaction((): StoredResponse<T> => {
    const row = ctx.db
      .statement(
        'SELECT request_hash, status_code, response FROM idempotency_keys WHERE marketplace_id = ? AND key = ?',
      )
      .get(request.marketplaceId, key) as { request_hash: string; status_code: number; response: string } | undefined;
    if (row) {
      if (row.request_hash !== hash) {
        throw conflict(`Idempotency-Key "${key}" was already used with a different request`);
      }
      return { statusCode: row.status_code, body: JSON.parse(row.response) as T, replayed: true };
    }
    const result = create();
    ctx.db
      .statement(
        'INSERT INTO idempotency_keys (marketplace_id, key, request_hash, status_code, response, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(request.marketplaceId, key, hash, result.statusCode, JSON.stringify(result.body), utcTimestamp(ctx.now()));
    return { ...result, replayed: false };
  });
  return run();
}

/** Marks a replayed answer with `Idempotent-Replayed: true` (as Stripe does), so a client can tell. */
export function markReplay(reply: FastifyReply, result: { readonly replayed: boolean }): FastifyReply {
  if (result.replayed) void reply.header('idempotent-replayed', 'true');
  return reply;
}
