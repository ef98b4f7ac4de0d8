/**
 * How a PINPAD step of a sale fails, as the engine sees it: a machine code the payment engine
 * switches on, the step it happened in, a pt-BR sentence for the cashier, and the device's own
 * error as `cause`. The core owns this type; a SaleDevice (main/pinpad, or a provider's own)
 * turns its driver's errors into it. Nothing built here holds card data.
 */
import { CodedError } from '../../lib/errors.js';

export type SaleStep =
  /** Before anything is asked of the customer or the API: is this PINPAD able to run the sale? */
  | 'prepare'
  | 'show_amount'
  | 'installments'
  | 'tax_id'
  | 'read_card'
  | 'chip'
  | 'finish_chip'
  | 'remove_card'
  | 'show_result';

export type SaleStepErrorCode =
  /** Our AbortSignal ended the step (CAN sent to the PINPAD). */
  | 'CANCELLED'
  /** The PINPAD's time limit or ours ran out. */
  | 'TIMEOUT'
  /** The chip card left the slot before the chip steps were over. */
  | 'CARD_REMOVED'
  /** The card could not be read or used (bad stripe, mute chip, blocked card…). */
  | 'CARD_ERROR'
  | 'PINPAD_DISCONNECTED'
  /** Another command is running on the PINPAD. */
  | 'PINPAD_BUSY'
  /** Anything else the PINPAD or the link did wrong. */
  | 'PINPAD_ERROR'
  /** The customer pressed CANCEL on the PINPAD. */
  | 'CUSTOMER_CANCELLED'
  /** The card's PIN is blocked (too many wrong PINs). */
  | 'PIN_BLOCKED'
  /** The PINPAD refuses PIN entry for a while (ST_PINBUSY: too many PINs in a short time). */
  | 'PIN_ENTRY_BUSY'
  /** The card has no application for this sale (credit / debit) or is of a kind not accepted. */
  | 'UNSUPPORTED_CARD'
  /** The PINPAD lacks the cryptographic keys the sale needs (an empty DUKPT slot). */
  | 'KEYS_MISSING'
  /** The PINPAD cannot run this kind of sale at all (e.g. a PINPAD that only knows the legacy commands). */
  | 'PINPAD_UNSUPPORTED'
  /** The store's EMV tables could not be read or loaded into the PINPAD. */
  | 'TABLES_UNAVAILABLE';

const STEP_NAMES: Readonly<Record<SaleStep, string>> = {
  prepare: 'Preparing the PINPAD for the sale',
  show_amount: 'Showing the amount',
  installments: 'The installments menu',
  tax_id: 'Reading the CPF',
  read_card: 'Reading the card',
  chip: 'The chip and PIN step',
  finish_chip: 'Finishing the chip',
  remove_card: 'Waiting for the card to be removed',
  show_result: 'Showing the result',
};

const CASHIER_MESSAGES: Readonly<Record<SaleStepErrorCode, string>> = {
  CANCELLED: 'Operação cancelada no PINPAD.',
  TIMEOUT: 'Tempo esgotado no PINPAD.',
  CARD_REMOVED: 'O cartão foi retirado antes do fim da operação.',
  CARD_ERROR: 'Não foi possível usar o cartão.',
  PINPAD_DISCONNECTED: 'O PINPAD foi desconectado. Verifique o cabo ou a conexão.',
  PINPAD_BUSY: 'O PINPAD está ocupado com outra operação.',
  PINPAD_ERROR: 'Erro de comunicação com o PINPAD.',
  CUSTOMER_CANCELLED: 'Operação cancelada pelo cliente no PINPAD.',
  PIN_BLOCKED: 'Senha bloqueada. O cliente deve procurar o banco emissor do cartão.',
  PIN_ENTRY_BUSY: 'O PINPAD bloqueou temporariamente a digitação de senha. Aguarde alguns minutos e tente novamente.',
  UNSUPPORTED_CARD: 'Cartão não aceito para esta operação.',
  KEYS_MISSING: 'O PINPAD não tem as chaves de segurança desta loja. Chame o suporte técnico.',
  PINPAD_UNSUPPORTED: 'Este modelo de PINPAD não é compatível com esta venda. Chame o suporte técnico.',
  TABLES_UNAVAILABLE: 'Não foi possível atualizar as tabelas do PINPAD. Chame o suporte técnico.',
};

const TIMEOUT_MESSAGES: Readonly<Partial<Record<SaleStep, string>>> = {
  installments: 'Tempo esgotado aguardando a escolha das parcelas.',
  tax_id: 'Tempo esgotado aguardando o CPF.',
  read_card: 'Tempo esgotado aguardando o cartão.',
  chip: 'Tempo esgotado aguardando a senha.',
  finish_chip: 'Tempo esgotado aguardando o cartão.',
  remove_card: 'O cartão não foi retirado do PINPAD a tempo.',
};

export class SaleStepError extends CodedError<SaleStepErrorCode> {
  readonly step: SaleStep;
  /** One pt-BR sentence for the cashier's window. */
  readonly cashierMessage: string;
  /** True when `cashierMessage` names this failure's own cause (the driver's code, the PINPAD's status), not only its code. */
  readonly specific: boolean;

  constructor(
    code: SaleStepErrorCode,
    step: SaleStep,
    options: { message?: string; cashierMessage?: string; cause?: unknown } = {},
  ) {
    const detail = options.message ?? (options.cause instanceof Error ? options.cause.message : code);
    super(code, `${STEP_NAMES[step]} failed (${code}): ${detail}`, options);
    this.step = step;
    this.cashierMessage =
      options.cashierMessage ?? (code === 'TIMEOUT' ? TIMEOUT_MESSAGES[step] : undefined) ?? CASHIER_MESSAGES[code];
    this.specific = options.cashierMessage !== undefined;
  }

  toJSON(): { name: string; code: SaleStepErrorCode; step: SaleStep; message: string; cashierMessage: string } {
    return {
      name: this.name,
      code: this.code,
      step: this.step,
      message: this.message,
      cashierMessage: this.cashierMessage,
    };
  }
}
