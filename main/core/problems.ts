/**
 * Why a payment ended without a sale, as the journal keeps it and the POS receives it: a code,
 * an English sentence and a pt-BR one for the cashier.
 */
import type { DeclineReason } from './declines.js';
import type { PaymentProblem } from './journal/record.js';

const PROBLEMS = {
  CANCELLED_BY_POS: ['The POS cancelled the payment', 'Pagamento cancelado pelo caixa'],
  CANCELLED_BY_CUSTOMER: ['The customer cancelled on the PINPAD', 'Pagamento cancelado pelo cliente'],
  CARD_TIMEOUT: ['No card was presented in time', 'Tempo esgotado aguardando o cartão'],
  PIN_TIMEOUT: ['The PIN was not entered in time', 'Tempo esgotado aguardando a senha'],
  PINPAD_TIMEOUT: ['The PINPAD did not answer in time', 'O PINPAD não respondeu a tempo'],
  CARD_REMOVED: ['The card was removed too early', 'Cartão removido antes do fim'],
  CARD_ERROR: ['The card could not be read', 'Não foi possível ler o cartão'],
  UNSUPPORTED_CARD: ['The card does not support this payment type', 'Cartão não aceito para esta modalidade'],
  PIN_BLOCKED: ['The card PIN is blocked', 'Senha bloqueada'],
  PINPAD_PIN_BUSY: [
    'The PINPAD refuses PIN entry for a while (too many PINs in a short time)',
    'O PINPAD bloqueou a digitação de senha por alguns minutos',
  ],
  PINPAD_DISCONNECTED: ['The PINPAD was disconnected', 'PINPAD desconectado'],
  PINPAD_ERROR: ['The PINPAD reported an error', 'Erro no PINPAD'],
  PINPAD_KEYS_MISSING: [
    'The PINPAD lacks the DUKPT keys this store sells with; nothing was charged',
    'O PINPAD não tem as chaves de segurança; nada foi cobrado. Chame o suporte.',
  ],
  PINPAD_TABLES: [
    "The PINPAD's EMV tables could not be read or loaded; nothing was charged",
    'As tabelas do PINPAD não puderam ser atualizadas; nada foi cobrado. Chame o suporte.',
  ],
  PINPAD_UNSUPPORTED: [
    'This PINPAD cannot run the sale; nothing was charged',
    'Este PINPAD não é compatível; nada foi cobrado. Chame o suporte.',
  ],
  CARD_DECLINED: ['The issuer declined the card', 'Transação não autorizada'],
  CARD_DECLINED_OFFLINE: ['The card declined the payment', 'Transação negada pelo cartão'],
  CHIP_REFUSED: [
    'The card refused after the approval; the approval was reversed',
    'Cartão recusou após a aprovação; autorização desfeita, nada foi cobrado',
  ],
  API_UNAVAILABLE: ['The payments API could not be reached', 'Sem comunicação com o sistema de pagamentos'],
  // A 5xx: the API (or its gateway) was reached and answered with an error of its own, so what it
  // did was unknown until Pinbridge looked; it ends a payment only once nothing is charged.
  API_ERROR: [
    'The payments API answered with an error of its own (HTTP 5xx), so the outcome was unknown; Pinbridge checked: nothing was charged',
    'O sistema de pagamentos respondeu com erro; nada foi cobrado. Tente de novo.',
  ],
  // A 409: the provider understood the request and explained why it refused it.
  API_CONFLICT: [
    "The payments API refused the operation as a conflict with the transaction's state (HTTP 409); nothing was charged",
    'O sistema de pagamentos recusou a operação (conflito com a situação da transação); nada foi cobrado.',
  ],
  API_REJECTED: ['The payments API refused the request', 'O sistema de pagamentos recusou a operação'],
  API_ACCESS_DENIED: [
    "The payments API refused Pinbridge's key or client certificate; nothing was charged",
    'O sistema de pagamentos recusou o acesso do Pinbridge (chave ou certificado); nada foi cobrado. Chame o suporte.',
  ],
  API_NOT_ENABLED: [
    'PINPAD payments are not enabled for this store at the payments provider; nothing was charged',
    'Pagamento com PINPAD não habilitado no sistema de pagamentos; nada foi cobrado. Chame o suporte.',
  ],
  API_BUSY: [
    'The payments API asked to wait before trying again; nothing was charged',
    'Sistema de pagamentos ocupado; nada foi cobrado. Tente de novo em instantes.',
  ],
  AUTHORIZATION_UNKNOWN: [
    'The authorization answer was lost and could not be confirmed; the payment is reversed',
    'Resposta da autorização não recebida; a operação será desfeita',
  ],
  AUTHORIZATION_NOT_RECEIVED: [
    'The authorization never reached the payments API',
    'A autorização não chegou ao sistema de pagamentos',
  ],
  RESULT_PENDING: [
    'The result is not known yet: Pinbridge is confirming it with the payments API (payment.result follows); do not charge again',
    'Não cobre de novo: o resultado está sendo confirmado.',
  ],
  DISK_FULL: [
    "The journal could not be written (the computer's disk is full); the payment was undone once it could be",
    'Disco do computador cheio; a operação foi desfeita. Libere espaço.',
  ],
  INTERRUPTED: [
    'Pinbridge stopped in the middle of the payment; it was undone',
    'Pagamento interrompido; a operação foi desfeita',
  ],
  // TEF's words: an approval undone before it was confirmed is "desfeita" (desfazimento); a
  // confirmed sale voided is "cancelada" (cancelamento). One word for one thing, everywhere.
  NOT_CONFIRMED: [
    'The POS did not confirm the sale before the deadline; the approval was undone',
    'Venda não confirmada no prazo; desfeita, nada foi cobrado',
  ],
  UNDONE_BY_POS: ['The POS undid the approval before confirming it', 'Venda desfeita pelo caixa antes da confirmação'],
  VOIDED_BY_POS: ['The confirmed sale was voided', 'Venda cancelada pelo caixa'],
} as const satisfies Record<string, readonly [string, string]>;

export type ProblemCode = keyof typeof PROBLEMS;
/** Every problem a payment can end with (the specs prove each has its pt-BR sentence). */
export const PROBLEM_CODES = Object.keys(PROBLEMS) as readonly ProblemCode[];

export function problem(code: ProblemCode, detail?: string): PaymentProblem {
  const [message, cashierMessage] = PROBLEMS[code];
  return { code, message: detail === undefined ? message : `${message}: ${detail}`, cashierMessage };
}

/**
 * An issuer's decline: CARD_DECLINED with the reason's own pt-BR sentence ("Saldo insuficiente"),
 * its category and the issuer's code. `providerMessage` (the API's response_message) goes into
 * the English message when it says more than the category does.
 */
export function declinedProblem(reason: DeclineReason, providerMessage?: string | null): PaymentProblem {
  const code = reason.issuerCode === null ? '' : ` (${reason.issuerCode})`;
  const said = providerMessage?.trim();
  const detail =
    said && said.toLowerCase() !== reason.message.toLowerCase()
      ? `${reason.message}${code}; the provider said "${said}"`
      : `${reason.message}${code}`;
  return {
    code: 'CARD_DECLINED',
    message: `${PROBLEMS.CARD_DECLINED[0]}: ${detail}`,
    cashierMessage: reason.cashierMessage,
    declineCode: reason.category,
    ...(reason.issuerCode === null ? {} : { issuerCode: reason.issuerCode }),
  };
}
