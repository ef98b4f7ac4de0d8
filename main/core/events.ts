/**
 * Progress of a payment, step by step, for the POS and the cashier's window. Each event says
 * where the payment is (`step`, and the journal `state`), in English for logs and the POS
 * developer and in pt-BR for the cashier.
 */
import type { PaymentState } from './states.js';

export const PROGRESS_STEPS = {
  started: ['Payment started', 'Iniciando pagamento'],
  choosing_installments: ['Customer is choosing installments on the PINPAD', 'Cliente escolhendo parcelas no PINPAD'],
  typing_tax_id: ['Customer is typing the CPF on the PINPAD', 'Cliente digitando o CPF no PINPAD'],
  creating_transaction: ['Creating the transaction', 'Registrando a transação'],
  waiting_card: ['Waiting for the card', 'Aguardando o cartão'],
  card_read: ['Card read', 'Cartão lido'],
  entering_pin: ['Customer is entering the PIN', 'Cliente digitando a senha'],
  authorizing: ['Authorizing', 'Autorizando'],
  resolving_unknown: [
    'Authorization answer lost; asking the payments API',
    'Resposta da autorização perdida; consultando',
  ],
  approved: ['Approved', 'Aprovada'],
  declined: ['Declined', 'Não autorizada'],
  finishing_chip: ['Finishing the chip transaction', 'Finalizando com o chip'],
  removing_card: ['Waiting for the card to be removed', 'Aguardando a retirada do cartão'],
  awaiting_confirmation: ['Approved; waiting for the POS to confirm', 'Aprovada; aguardando confirmação'],
  confirmed: ['Confirmed', 'Venda confirmada'],
  cancelling: ['Cancelling', 'Cancelando'],
  cancelled: ['Cancelled', 'Cancelada'],
  reversing: ['Reversing the approval', 'Desfazendo a autorização'],
  reversed: ['Approval reversed; nothing was charged', 'Autorização desfeita; nada foi cobrado'],
  undoing: ['Voiding the sale', 'Cancelando a venda'],
  undone: ['Sale voided', 'Venda cancelada'],
  undo_pending: [
    'Could not reach the payments API; the undo will be retried',
    'Sem comunicação; o Pinbridge tenta de novo sozinho',
  ],
  failed: ['Payment failed', 'Pagamento não realizado'],
  result_pending: [
    'The payment stopped before its result (disk full or an internal error); Pinbridge is confirming it with the payments API',
    'Não cobre de novo: o resultado está sendo confirmado.',
  ],
  pinpad_message: ['Message from the PINPAD', 'Mensagem do PINPAD'],
} as const satisfies Record<string, readonly [string, string]>;

export type ProgressStep = keyof typeof PROGRESS_STEPS;
/** A step's two sentences: English (logs, the POS developer), then pt-BR (the cashier). */
export type StepText = readonly [message: string, cashierMessage: string];

/**
 * The cashier's words for `undoing` / `undone` when the approval had not been confirmed: TEF's
 * *desfazimento* ("desfeita"), not the *cancelamento* ("cancelada") of a confirmed sale.
 */
export const UNDONE_BEFORE_CONFIRMATION_CODES: ReadonlySet<string> = new Set(['UNDONE_BY_POS', 'NOT_CONFIRMED']);
export const UNCONFIRMED_UNDO_TEXTS: Readonly<Partial<Record<ProgressStep, string>>> = {
  undoing: 'Desfazendo a venda',
  undone: 'Venda desfeita; nada foi cobrado',
};

export interface PaymentProgress {
  readonly paymentId: string;
  readonly referenceId: string;
  readonly terminal: string;
  readonly step: ProgressStep;
  /** The journal state when the event was sent. */
  readonly state: PaymentState;
  readonly message: string;
  /** pt-BR, for the cashier; for `pinpad_message` it is the PINPAD's own text. */
  readonly cashierMessage: string;
  /** ISO time. */
  readonly at: string;
}
