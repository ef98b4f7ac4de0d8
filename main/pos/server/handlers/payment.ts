/**
 * Payments: start (idempotent by reference_id), cancel, status (Processed with the result and
 * both receipts / InProgress / NotFound), confirm, undo, list, pending. The engine does the
 * work; this layer records which client started a payment, so its events and its result reach
 * that client — now, on its other sessions, or at its next hello.
 */
import { EngineError } from '../../../core/errors.js';
import { ReceiptError } from '../../../receipts/errors.js';
import type { PosAgent } from '../agent.js';
import type { Handlers } from '../dispatch.js';
import { outcomeView } from '../views.js';
import { assertMaySee, maySee, ownerScope } from '../payment-access.js';
import { PosError } from '../../protocol/index.js';
import type { ReceiptTexts } from '../../protocol/index.js';
import { authorizeVoid } from '../supervisor.js';
import { corePaymentStates, saleRequestFrom, wirePaymentState } from '../wire-adapter.js';

/**
 * The one answer to a reference_id that cannot start this payment, whether this POS used it with
 * other parameters or another POS used it at all: whose it was is not told (nor its amount or
 * state). A POS recovers a sale of its own by payment.status, which another POS's sale answers
 * NotFound.
 */
export const REFERENCE_CONFLICT_MESSAGE =
  'This reference_id was used before for another payment (other parameters, or another POS client): use a new reference_id for a new sale, and payment.status to follow a sale of your own.';

/** The width of the receipts payment.status returns, the common 80 mm paper's. */
const STATUS_COLUMNS = 48;

/** Both copies as text, or null when the payment has none (it never reached a card) or receipts are off. */
export function receiptTexts(agent: PosAgent, referenceId: string): ReceiptTexts | null {
  const service = agent.receipts;
  if (service === undefined) return null;
  try {
    return {
      customer: service.text(referenceId, 'customer', STATUS_COLUMNS),
      merchant: service.text(referenceId, 'merchant', STATUS_COLUMNS),
    };
  } catch (error) {
    if (error instanceof ReceiptError && (error.code === 'NO_RECEIPT' || error.code === 'NOT_READY')) return null;
    throw error;
  }
}

export const paymentHandlers: Handlers<
  | 'payment.start'
  | 'payment.cancel'
  | 'payment.status'
  | 'payment.confirm'
  | 'payment.undo'
  | 'payment.list'
  | 'payment.pending'
> = {
  'payment.start': async (params, { agent, hub, session }) => {
    // The window (a training sale) owns nothing: its payments' events go to every session.
    const clientId = session.client?.id;
    // Another client's reference is not joined, and the refusal is the one a POS gets for its own
    // reference with other parameters: nothing says whose it was.
    if (!maySee(agent, session, params.reference_id))
      throw new PosError('REFERENCE_CONFLICT', REFERENCE_CONFLICT_MESSAGE);
    const known = agent.engine.status(params.reference_id).kind !== 'not_found';
    if (clientId !== undefined) hub.own(params.reference_id, clientId);
    try {
      const outcome = await agent.engine.start(
        saleRequestFrom(params),
        clientId === undefined ? {} : { owner: clientId },
      );
      hub.deliverResult(outcome, session);
      return outcomeView(outcome);
    } catch (error) {
      // Refused before anything was journaled (BUSY, bad params…): nobody owns it yet.
      if (clientId !== undefined && !known && agent.engine.status(params.reference_id).kind === 'not_found')
        hub.disown(params.reference_id, clientId);
      // No room for a sale: the window and every POS hear it now (agent.disk), not at the next look.
      if ((error as { code?: unknown }).code === 'DISK_FULL') agent.disk?.check();
      if (error instanceof EngineError && error.code === 'REFERENCE_CONFLICT')
        throw new PosError('REFERENCE_CONFLICT', REFERENCE_CONFLICT_MESSAGE);
      throw error;
    }
  },

  'payment.cancel': async ({ reference_id, ...supervisor }, context) => {
    const { agent, session } = context;
    assertMaySee(agent, session, reference_id);
    // An approval being cancelled is a void: the supervisor first, where the store asks for one.
    const note = await authorizeVoid(context, reference_id, supervisor);
    return outcomeView(await agent.engine.cancel(reference_id, note === undefined ? {} : { note }));
  },

  'payment.status': ({ reference_id }, { agent, hub, session }) => {
    if (!maySee(agent, session, reference_id)) return { status: 'NotFound' as const };
    const answer = agent.engine.status(reference_id);
    // The owner heard the result this way: its next hello does not give it again.
    if (answer.kind === 'processed' && session.client !== undefined) hub.heard(reference_id, session.client.id);
    switch (answer.kind) {
      case 'not_found':
        return { status: 'NotFound' as const };
      case 'in_progress':
        return {
          status: 'InProgress' as const,
          payment_id: answer.paymentId,
          state: wirePaymentState(answer.state),
          ...(answer.stalled === undefined ? {} : { result: outcomeView(answer.stalled) }),
        };
      case 'processed':
        return {
          status: 'Processed' as const,
          result: outcomeView(answer.outcome),
          receipts: receiptTexts(agent, reference_id),
        };
    }
  },

  'payment.confirm': async ({ reference_id }, { agent, session }) => {
    assertMaySee(agent, session, reference_id);
    return outcomeView(await agent.engine.confirm(reference_id));
  },

  'payment.undo': async ({ reference_id, ...supervisor }, context) => {
    const { agent, session } = context;
    assertMaySee(agent, session, reference_id);
    const note = await authorizeVoid(context, reference_id, supervisor);
    return outcomeView(await agent.engine.undo(reference_id, note === undefined ? {} : { note }));
  },

  'payment.list': (
    { from, to, states, terminal, amount, nsu, authorization_code, card_last4, limit, offset },
    { agent, session },
  ) => {
    // The owner scope applies to every search too: a POS finds only its own sales.
    const owner = ownerScope(agent, session);
    const { items, total } = agent.engine.list({
      ...(owner === undefined ? {} : { owner }),
      ...(amount === undefined ? {} : { amount }),
      ...(nsu === undefined ? {} : { nsu }),
      ...(authorization_code === undefined ? {} : { authorizationCode: authorization_code }),
      ...(card_last4 === undefined ? {} : { cardLast4: card_last4 }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
      ...(states === undefined ? {} : { states: corePaymentStates(states) }),
      ...(terminal === undefined ? {} : { terminal }),
      ...(limit === undefined ? {} : { limit }),
      ...(offset === undefined ? {} : { offset }),
    });
    return { items: items.map(outcomeView), total };
  },

  'payment.pending': (_params, { agent, session }) => {
    const { confirmations, undos } = agent.engine.pending();
    const mine = (outcome: { referenceId: string }): boolean => maySee(agent, session, outcome.referenceId);
    return { confirmations: confirmations.filter(mine).map(outcomeView), undos: undos.filter(mine).map(outcomeView) };
  },
};
