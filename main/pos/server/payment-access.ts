/**
 * Which payments a session may see and act on. A POS client sees the payments it started (their
 * status, list, receipts, events) and acts on those only (cancel, confirm, undo); another
 * client's payment answers as if it did not exist, so one POS cannot void, cancel, join or read
 * another's sale. The cashier's window sees all. A store whose POS clients are one system (two
 * tills of the same software) may let them share: `pos.share_payments` in the settings.
 */
import { PosError } from '../protocol/index.js';
import type { PosAgent } from './agent.js';
import type { Session } from './session.js';

/** The owner a session's payment queries are limited to; undefined: it sees all. */
export function ownerScope(agent: PosAgent, session: Session): string | undefined {
  if (session.operator || agent.sharePayments === true) return undefined;
  // A session that said hello has a client; only the window works without one (above).
  return session.client?.id ?? '';
}

/** Whether the payment with this reference (if any) is one this session may see. */
export function maySee(agent: PosAgent, session: Session, referenceId: string): boolean {
  const scope = ownerScope(agent, session);
  if (scope === undefined) return true;
  const owner = agent.engine.ownerOf(referenceId);
  return owner === undefined || owner === scope;
}

/** NOT_FOUND for another client's payment, as for one that does not exist. */
export function assertMaySee(agent: PosAgent, session: Session, referenceId: string): void {
  if (!maySee(agent, session, referenceId)) throw new PosError('NOT_FOUND', `No payment with reference ${referenceId}`);
}
