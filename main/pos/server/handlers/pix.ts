/**
 * Pix at the counter: a bolepix the POS created (bolepix.create) shown as a QR on the PINPAD while
 * Pinbridge watches for its payment (main/pinpad/pix-counter.ts, owned by the hub, which sends
 * its pix.paid and pix.ended to whoever asked — the window hears them too).
 */
import { pendingBolepix, PixShowError } from '../../../pinpad/pix-counter.js';
import { PosError } from '../../protocol/index.js';
import type { CallContext, Handlers } from '../dispatch.js';
import { formatBrl } from '../../../locale/br-format.js';
import { TrainingPixError, type TrainingPix } from '../agent.js';
import { pixShowAnswerView, pixShowView, printJobView } from '../views.js';

/** The show's refusals, as INVALID_STATE with the reason the POS branches on. */
function refusal(error: unknown): never {
  if (error instanceof PixShowError) {
    throw new PosError(
      'INVALID_STATE',
      error.message,
      { reason: error.code },
      error.code === 'NOT_PENDING' ? 'Este Pix já foi pago ou cancelado.' : 'Esta transação não tem um Pix válido.',
    );
  }
  throw error;
}

/** Training's practice Pix, or INVALID_STATE NOT_TRAINING in live mode. */
function practice(agent: CallContext['agent']): TrainingPix {
  if (agent.trainingPix !== undefined) return agent.trainingPix;
  throw new PosError(
    'INVALID_STATE',
    'A practice Pix is for training mode only.',
    { reason: 'NOT_TRAINING' },
    'Só no modo de treinamento.',
  );
}

export const pixHandlers: Handlers<
  'pix.show' | 'pix.list' | 'pix.cancel' | 'pix.print' | 'operator.trainingPix' | 'operator.trainingPayPix'
> = {
  'pix.show': async ({ transaction_id, terminal }, { hub, session }) => {
    // The window (no client of its own) gets the events as the operator; a POS, as the owner.
    const owner = session.client?.id ?? null;
    const shown = await hub.pix.show(transaction_id.toLowerCase(), terminal, owner).catch(refusal);
    return pixShowAnswerView(shown);
  },

  'pix.list': (_params, { hub, session }) => ({
    shows: hub.pix
      .list()
      .filter((shown) => hub.mayKnowOwner(session, shown.owner))
      .map(pixShowView),
  }),

  'pix.cancel': ({ transaction_id }, { hub }) => ({ cancelled: hub.pix.cancel(transaction_id.toLowerCase()) }),

  // The same checks as pix.show (a pending bolepix whose BR Code asks for its amount), then the slip.
  'pix.print': async ({ transaction_id, printer }, { agent, hub, session }) => {
    if (printer !== undefined && !agent.printers.has(printer)) {
      const message = `No printer named "${printer}" is configured (settings: printers).`;
      throw new PosError('INVALID_PARAMS', message, { violations: [{ field: 'printer', message }] });
    }
    const receipts = agent.receipts;
    if (receipts === undefined)
      throw new PosError(
        'PRINTING_OFF',
        'Receipts are off: the settings have no store data ("receipts": {"merchant": …}).',
      );
    const transaction = await agent.api.transactions.retrieve(transaction_id.toLowerCase());
    try {
      pendingBolepix(transaction);
    } catch (error) {
      refusal(error);
    }
    hub.notePixJobOwner(transaction.id, session.client?.id ?? null);
    const job = receipts.printPixSlip(transaction, printer === undefined ? {} : { printer });
    return { print_jobs: [printJobView(job)] };
  },

  'operator.trainingPix': async ({ amount, terminal }, { agent, hub }) => {
    const transactionId = await practice(agent)
      .createBolepix(amount)
      .catch((error: unknown) => {
        if (!(error instanceof TrainingPixError) || error.code !== 'TOO_SMALL') throw error;
        const minimum = formatBrl(error.minimum ?? 0);
        throw new PosError(
          'INVALID_PARAMS',
          error.message,
          { violations: [{ field: 'amount', message: error.message }] },
          `O Pix de teste precisa ser de pelo menos ${minimum} (o mínimo de um boleto).`,
        );
      });
    // The window's own show: its events reach the window only.
    const shown = await hub.pix.show(transactionId, terminal, null).catch(refusal);
    return pixShowAnswerView(shown);
  },

  'operator.trainingPayPix': async ({ transaction_id, via }, { agent, hub }) => {
    const id = transaction_id.toLowerCase();
    try {
      await practice(agent).pay(id, via ?? 'pix');
    } catch (error) {
      if (!(error instanceof TrainingPixError)) throw error;
      if (error.code === 'NOT_FOUND') throw new PosError('NOT_FOUND', error.message);
      throw new PosError('INVALID_STATE', error.message, { reason: 'NOT_PAYABLE' }, 'Este Pix não pode mais ser pago.');
    }
    // "Paid, seen at once": the show reads it now rather than at its next poll.
    hub.pix.checkNow(id);
    return { paid: true as const };
  },
};
