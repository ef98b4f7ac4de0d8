/**
 * Reading a transaction for a request, and applying a transition to it atomically: the read,
 * the decision and the write run in one database transaction, and the webhook is emitted only
 * after the commit (a request that throws changes nothing and tells nobody).
 */
import { isId } from '../../contract/index.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { findTransaction, updateTransaction, type TransactionRecord } from '../store/transactions.js';
import type { Transition } from './transitions.js';

/** The transaction, or 404 "Transaction not found" (also for an id that is not 32 hex characters). */
export function loadTransaction(ctx: SandboxContext, marketplaceId: string, id: string): TransactionRecord {
  const record = isId(id) ? findTransaction(ctx.db, marketplaceId, id) : undefined;
  if (!record) throw notFound('Transaction not found');
  return record;
}

export function changeTransaction(
  ctx: SandboxContext,
  marketplaceId: string,
  id: string,
  decide: (record: TransactionRecord) => Transition,
): Transition {
  const run = ctx.db.transaction((): Transition => {
    const transition = decide(loadTransaction(ctx, marketplaceId, id));
    if (transition.changed) updateTransaction(ctx.db, marketplaceId, transition.record);
    return transition;
  });
  const transition = run();
  if (transition.event) ctx.webhooks.emit(marketplaceId, transition.event);
  return transition;
}
