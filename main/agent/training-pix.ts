/**
 * Pix at the counter in training mode (issue 38: "the sandbox can mark a bolepix paid … so tests
 * and training show the whole flow"): a cashier practises a Pix from the window without a POS —
 * a bolepix of the amount typed, for a training buyer — and the customer's payment is played by
 * the embedded sandbox's own pay route, as the bank would report it. The bolepix goes through the
 * same payments API client as a real one; only its payment is the sandbox's.
 */
import { NotFoundError, type PaymentsClient } from '../api/index.js';
import { TrainingPixError, type TrainingPix } from '../pos/server/agent.js';
import { BOLETO_AMOUNT_MIN } from '../sandbox/payments/boleto.js';
import type { RunningSandbox } from '../sandbox/server.js';

/** The training buyer: a valid CPF (check digits right) that is nobody's, created once. */
export const TRAINING_BUYER = {
  first_name: 'Cliente',
  last_name: 'Treinamento',
  taxpayer_id: '52998224725',
  email: 'treinamento@pinbridge.invalid',
} as const;

export function trainingPix(options: {
  readonly api: PaymentsClient;
  readonly sandbox: RunningSandbox;
  readonly sellerId: string;
}): TrainingPix {
  const { api, sandbox, sellerId } = options;
  let counter = 0;
  const buyerId = async (): Promise<string> => {
    try {
      return (await api.buyers.search({ taxpayer_id: TRAINING_BUYER.taxpayer_id })).id;
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      return (await api.buyers.create({ ...TRAINING_BUYER })).id;
    }
  };
  return {
    async createBolepix(amount) {
      // The training sandbox's own rule (a boleto's smallest amount), said before asking it.
      if (amount < BOLETO_AMOUNT_MIN) {
        throw new TrainingPixError(
          'TOO_SMALL',
          `A practice Pix must be of at least ${BOLETO_AMOUNT_MIN} centavos (a boleto's minimum); got ${amount}.`,
          BOLETO_AMOUNT_MIN,
        );
      }
      const transaction = await api.boletos.createBolepix({
        customer: await buyerId(),
        amount,
        description: 'Pix de teste (treinamento)',
        reference_id: `training-pix-${Date.now()}-${++counter}`,
        on_behalf_of: sellerId,
      });
      return transaction.id;
    },
    async pay(transactionId, via) {
      // The sandbox's own route, in process: what a bank's payment looks like to the provider.
      const answer = await sandbox.app.inject({
        method: 'POST',
        url: `/v1/sandbox/marketplaces/${sandbox.marketplaceId}/transactions/${encodeURIComponent(transactionId)}/pay`,
        headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ via }),
      });
      if (answer.statusCode === 200) return;
      const detail = answer.json<{ detail?: unknown }>().detail;
      const said = typeof detail === 'string' ? detail : `HTTP ${answer.statusCode}`;
      throw new TrainingPixError(
        answer.statusCode === 404 ? 'NOT_FOUND' : 'REFUSED',
        `The training sandbox did not pay ${transactionId}: ${said}`,
      );
    },
  };
}
