/**
 * Idempotency-Key derivation. Every creating POST carries a key, so a retry — by this client
 * after a timeout, or by the payment engine after a crash and restart — is answered with the
 * first response instead of doing the thing twice. Keys are derived, not random, so they
 * survive a restart:
 *
 *   transactions   "pinbridge:txn:"  + sha256(marketplace, kind, reference_id)   kind = boleto,
 *                  bolepix, pinpad or tap_to_pay. The same sale (same reference) can never create
 *                  two transactions; sending it again with another body is a 409 (ConflictError).
 *                  A card transaction WITHOUT reference_id gets a random key per call instead:
 *                  its retries are safe, but two identical sales on one terminal must not be
 *                  folded into one by a body hash. Pass reference_id to be restart-safe.
 *   terminal       "pinbridge:term:" + sha256(marketplace, transaction id, operation, attempt)
 *                  operation = authorization, completion, reversal or void (+ the void amount).
 *                  `attempt` is the caller's token for a deliberate second try of the same
 *                  operation (e.g. a second partial void of the same amount).
 *   cancellations  "pinbridge:cancel:" + sha256(marketplace, transaction id) (cancelling twice is
 *                  harmless, so the request may be retried).
 *   others         "pinbridge:<resource>:" + sha256(marketplace, canonical JSON of the body) for
 *                  buyers, bank accounts and webhooks: the same record asked twice is one record.
 *
 * A caller can always pass `{ idempotencyKey }` to use its own key. Derived keys are a prefix
 * and 40 hex characters of SHA-256 (under 70 characters; the service accepts up to 255).
 */
import { createHash, randomUUID } from 'node:crypto';
import { canonicalJson } from '../contract/index.js';

const HASH_CHARS = 40;

const digest = (parts: readonly string[]): string =>
  // The unit separator cannot occur in ids or references, so ("ab","c") and ("a","bc") differ.
  createHash('sha256').update(parts.join('\u001f')).digest('hex').slice(0, HASH_CHARS);

export type TransactionKind = 'boleto' | 'bolepix' | 'pinpad' | 'tap_to_pay';

export function transactionIdempotencyKey(marketplaceId: string, kind: TransactionKind, referenceId: string): string {
  return `pinbridge:txn:${digest([marketplaceId, kind, referenceId])}`;
}

/** For a transaction with no reference: unique per call (see the module comment). */
export function randomIdempotencyKey(): string {
  return `pinbridge:once:${randomUUID()}`;
}

export type TerminalOperation = 'authorization' | 'completion' | 'reversal' | 'void';

export function terminalIdempotencyKey(
  marketplaceId: string,
  transactionId: string,
  operation: TerminalOperation,
  attempt = '',
  detail = '',
): string {
  return `pinbridge:term:${digest([marketplaceId, transactionId.toLowerCase(), operation, detail, attempt])}`;
}

export function cancellationIdempotencyKey(marketplaceId: string, transactionId: string): string {
  return `pinbridge:cancel:${digest([marketplaceId, transactionId.toLowerCase()])}`;
}

export function bodyIdempotencyKey(marketplaceId: string, resource: string, body: unknown): string {
  return `pinbridge:${resource}:${digest([marketplaceId, resource, canonicalJson(body)])}`;
}
