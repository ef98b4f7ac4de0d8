/**
 * One error type for every PINPAD step of a sale: a machine code the payment engine switches on,
 * the step it happened in, a pt-BR sentence for the cashier, and the driver error as `cause`.
 * Driver errors never hold card data, and neither does anything built here.
 */
import { AbecsStatusError } from '../../../drivers/abecs/status.js';
import { DriverError } from '../../../drivers/errors.js';
import { CardDataError } from './card-data.js';

export type SaleStep =
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
  /** The PINPAD refuses PIN entry for now (ST_PINBUSY). */
  | 'PIN_BLOCKED'
  /** The card has no application for this sale (credit / debit) or is of a kind not accepted. */
  | 'UNSUPPORTED_CARD';

const STEP_NAMES: Readonly<Record<SaleStep, string>> = {
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
  PIN_BLOCKED: 'O PINPAD bloqueou temporariamente a digitação de senha. Aguarde e tente novamente.',
  UNSUPPORTED_CARD: 'Cartão não aceito para esta operação.',
};

const TIMEOUT_MESSAGES: Readonly<Partial<Record<SaleStep, string>>> = {
  installments: 'Tempo esgotado aguardando a escolha das parcelas.',
  tax_id: 'Tempo esgotado aguardando o CPF.',
  read_card: 'Tempo esgotado aguardando o cartão.',
  chip: 'Tempo esgotado aguardando a senha.',
  finish_chip: 'Tempo esgotado aguardando o cartão.',
  remove_card: 'O cartão não foi retirado do PINPAD a tempo.',
};

export class SaleStepError extends Error {
  readonly code: SaleStepErrorCode;
  readonly step: SaleStep;
  /** One pt-BR sentence for the cashier's window. */
  readonly cashierMessage: string;

  constructor(
    code: SaleStepErrorCode,
    step: SaleStep,
    options: { message?: string; cashierMessage?: string; cause?: unknown } = {},
  ) {
    const detail = options.message ?? (options.cause instanceof Error ? options.cause.message : code);
    super(`${STEP_NAMES[step]} failed (${code}): ${detail}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SaleStepError';
    this.code = code;
    this.step = step;
    this.cashierMessage =
      options.cashierMessage ?? (code === 'TIMEOUT' ? TIMEOUT_MESSAGES[step] : undefined) ?? CASHIER_MESSAGES[code];
  }

  toJSON(): { name: string; code: SaleStepErrorCode; step: SaleStep; message: string; cashierMessage: string } {
    return { name: this.name, code: this.code, step: this.step, message: this.message, cashierMessage: this.cashierMessage };
  }
}

/** Statuses saying the card has no application this PINPAD may use. */
const NO_APPLICATION = new Set(['ST_CARDAPPNAV', 'ST_CARDAPPNAUT', 'ST_CTLSAPPNAV', 'ST_CTLSAPPNAUT', 'PP_NOAPPLIC']);

/** Steps that talk to a chip card already read: an ICC error there means the card left the slot. */
const CHIP_STEPS: ReadonlySet<SaleStep> = new Set(['chip', 'finish_chip']);

function fromStatus(error: AbecsStatusError, step: SaleStep): SaleStepError {
  const { code } = error;
  if (code === 'ST_CANCEL') return new SaleStepError('CUSTOMER_CANCELLED', step, { cause: error });
  if (code === 'ST_TIMEOUT') return new SaleStepError('TIMEOUT', step, { cause: error });
  if (code === 'ST_PINBUSY') return new SaleStepError('PIN_BLOCKED', step, { cause: error });
  if (NO_APPLICATION.has(code)) {
    return new SaleStepError('UNSUPPORTED_CARD', step, { cause: error, cashierMessage: error.cashierMessage });
  }
  // The PINPAD cannot tell a pulled card from a mute one; mid-transaction, pulled is the usual cause.
  if (CHIP_STEPS.has(step) && (code === 'ST_ERRCARD' || code === 'ST_NOCARD')) {
    return new SaleStepError('CARD_REMOVED', step, { cause: error });
  }
  if (error.category === 'card' || error.category === 'contactless') {
    return new SaleStepError('CARD_ERROR', step, { cause: error, cashierMessage: error.cashierMessage });
  }
  return new SaleStepError('PINPAD_ERROR', step, { cause: error, cashierMessage: error.cashierMessage });
}

function fromCardData(error: CardDataError, step: SaleStep): SaleStepError {
  switch (error.code) {
    case 'UNREADABLE_CARD':
      return new SaleStepError('CARD_ERROR', step, {
        cause: error,
        cashierMessage: 'Não foi possível ler o número do cartão. Tente novamente.',
      });
    case 'UNSUPPORTED_CARD_TYPE':
      return new SaleStepError('UNSUPPORTED_CARD', step, { cause: error });
    default:
      return new SaleStepError('PINPAD_ERROR', step, { cause: error });
  }
}

/**
 * The SaleStepError for anything a PINPAD step threw:
 *
 * - ABECS statuses: ST_CANCEL → CUSTOMER_CANCELLED, ST_TIMEOUT → TIMEOUT, ST_PINBUSY →
 *   PIN_BLOCKED, no matching application → UNSUPPORTED_CARD, ICC errors during the chip steps →
 *   CARD_REMOVED, other card / contactless statuses → CARD_ERROR, the rest → PINPAD_ERROR;
 * - link and transport: CANCELLED (our signal) → CANCELLED, TIMEOUT / RESPONSE_TIMEOUT →
 *   TIMEOUT, DISCONNECTED / NOT_OPEN → PINPAD_DISCONNECTED, BUSY → PINPAD_BUSY, the rest
 *   (ACK_TIMEOUT, NAK_LIMIT, BAD_RESPONSE, a malformed answer…) → PINPAD_ERROR.
 */
export function saleStepErrorOf(error: unknown, step: SaleStep): SaleStepError {
  if (error instanceof SaleStepError) return error;
  if (error instanceof AbecsStatusError) return fromStatus(error, step);
  if (error instanceof CardDataError) return fromCardData(error, step);
  if (error instanceof DriverError) {
    switch (error.code) {
      case 'CANCELLED':
        return new SaleStepError('CANCELLED', step, { cause: error });
      case 'TIMEOUT':
      case 'RESPONSE_TIMEOUT':
        return new SaleStepError('TIMEOUT', step, { cause: error });
      case 'DISCONNECTED':
      case 'NOT_OPEN':
        return new SaleStepError('PINPAD_DISCONNECTED', step, { cause: error });
      case 'BUSY':
        return new SaleStepError('PINPAD_BUSY', step, { cause: error });
      default:
        return new SaleStepError('PINPAD_ERROR', step, { cause: error });
    }
  }
  return new SaleStepError('PINPAD_ERROR', step, { cause: error });
}
