/**
 * Driver errors (ABECS statuses, link and transport failures, card data the PINPAD returned
 * unusable) turned into the core's SaleStepError. Driver errors never hold card data, and
 * neither does anything built here.
 */
import { AbecsStatusError } from '../../drivers/abecs/status.js';
import { DriverError } from '../../drivers/errors.js';
import { SaleStepError, type SaleStep } from '../core/sale-failure.js';
import { CardDataError } from './card-data.js';
import { driverCashierMessage } from './driver-failures.js';

export { SaleStepError, type SaleStep, type SaleStepErrorCode } from '../core/sale-failure.js';

/** Statuses saying the card has no application this PINPAD may use. */
const NO_APPLICATION = new Set(['ST_CARDAPPNAV', 'ST_CARDAPPNAUT', 'ST_CTLSAPPNAV', 'ST_CTLSAPPNAUT', 'PP_NOAPPLIC']);

/** Steps that talk to a chip card already read: an ICC error there means the card left the slot. */
const CHIP_STEPS: ReadonlySet<SaleStep> = new Set(['chip', 'finish_chip']);

function fromStatus(error: AbecsStatusError, step: SaleStep): SaleStepError {
  const { code } = error;
  if (code === 'ST_CANCEL') return new SaleStepError('CUSTOMER_CANCELLED', step, { cause: error });
  if (code === 'ST_TIMEOUT') return new SaleStepError('TIMEOUT', step, { cause: error });
  // A rate limit of the PINPAD's own, not the card's PIN being blocked.
  if (code === 'ST_PINBUSY') return new SaleStepError('PIN_ENTRY_BUSY', step, { cause: error });
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
      return new SaleStepError('UNSUPPORTED_CARD', step, {
        cause: error,
        cashierMessage: driverCashierMessage(error.code),
      });
    default:
      return new SaleStepError('PINPAD_ERROR', step, {
        cause: error,
        cashierMessage: driverCashierMessage(error.code),
      });
  }
}

/**
 * The SaleStepError for anything a PINPAD step threw:
 *
 * - ABECS statuses: ST_CANCEL → CUSTOMER_CANCELLED, ST_TIMEOUT → TIMEOUT, ST_PINBUSY →
 *   PIN_ENTRY_BUSY, no matching application → UNSUPPORTED_CARD, ICC errors during the chip steps →
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
        // The driver's own code says more than "erro no PINPAD": a cable, a refusal, a garbled answer.
        return new SaleStepError('PINPAD_ERROR', step, {
          cause: error,
          cashierMessage: driverCashierMessage(error.code),
        });
    }
  }
  return new SaleStepError('PINPAD_ERROR', step, { cause: error });
}
