/**
 * The one place a value of the core becomes a value of the POS wire (and, for the states a POS
 * filters payment.list by, back). The core keeps its own lists (core/states.ts, core/declines.ts,
 * core/events.ts, core/settings-violations.ts, core/outcome.ts) and the protocol its own
 * (protocol/enums.ts, protocol/models.ts), so that a rename inside the core never changes the
 * published protocol by itself: each table below is typed `Record<core value, wire value>`, and a
 * core value renamed or added — or a wire value renamed or dropped — fails `tsc` here, where the
 * one who changed it decides what the wire says.
 *
 * views.ts builds the wire's records (outcomeView, progressView) with these; the handlers use them
 * for the values they pass on (payment.status's state, payment.list's filter, the settings'
 * mistakes). The other way, a payment.start's parameters become the core's SaleRequest here
 * (saleRequestFrom): the wire's snake_case stops at this file. test/main/pos/server/wire-adapter.test.ts holds every table to a one-to-one map onto
 * the wire's whole list.
 */
import type { DeclineCategory } from '../../core/declines.js';
import { centavos } from '../../core/money.js';
import type { SaleRequest } from '../../core/sale-request.js';
import type { ProgressStep } from '../../core/events.js';
import type { PaymentOutcome } from '../../core/outcome.js';
import type { SettingsViolationCode } from '../../core/settings-violations.js';
import type { PaymentState } from '../../core/states.js';
import type {
  PaymentOutcome as WireOutcome,
  WireDeclineCategory,
  WirePaymentState,
  WireProgressStep,
  WireSettingsViolationCode,
  ParamsOf,
} from '../protocol/index.js';
import { schemaViolations } from '../../contract/index.js';
import { METHODS, PosError } from '../protocol/index.js';
import { paramsViolation } from './errors.js';

export const WIRE_PAYMENT_STATES: Readonly<Record<PaymentState, WirePaymentState>> = {
  intent: 'intent',
  created: 'created',
  card_read: 'card_read',
  authorizing: 'authorizing',
  unknown: 'unknown',
  approved: 'approved',
  completing: 'completing',
  awaiting_confirmation: 'awaiting_confirmation',
  confirmed: 'confirmed',
  declined: 'declined',
  reversing: 'reversing',
  reversed: 'reversed',
  aborting: 'aborting',
  cancelled: 'cancelled',
  failed: 'failed',
  undoing: 'undoing',
  undone: 'undone',
};

export const WIRE_DECLINE_CATEGORIES: Readonly<Record<DeclineCategory, WireDeclineCategory>> = {
  insufficient_funds: 'insufficient_funds',
  incorrect_pin: 'incorrect_pin',
  pin_try_exceeded: 'pin_try_exceeded',
  expired_card: 'expired_card',
  do_not_honor: 'do_not_honor',
  try_again_later: 'try_again_later',
  contact_acquirer: 'contact_acquirer',
  invalid_card: 'invalid_card',
  invalid_amount: 'invalid_amount',
  invalid_installments: 'invalid_installments',
  transaction_not_allowed: 'transaction_not_allowed',
  merchant_not_allowed: 'merchant_not_allowed',
  suspected_fraud: 'suspected_fraud',
  security_violation: 'security_violation',
  lost_card: 'lost_card',
  stolen_card: 'stolen_card',
  restricted_card: 'restricted_card',
  card_blocked: 'card_blocked',
  closed_account: 'closed_account',
  card_velocity_exceeded: 'card_velocity_exceeded',
  issuer_unavailable: 'issuer_unavailable',
  processing_error: 'processing_error',
  generic_decline: 'generic_decline',
};

export const WIRE_PROGRESS_STEPS: Readonly<Record<ProgressStep, WireProgressStep>> = {
  started: 'started',
  choosing_installments: 'choosing_installments',
  typing_tax_id: 'typing_tax_id',
  creating_transaction: 'creating_transaction',
  waiting_card: 'waiting_card',
  card_read: 'card_read',
  entering_pin: 'entering_pin',
  authorizing: 'authorizing',
  resolving_unknown: 'resolving_unknown',
  approved: 'approved',
  declined: 'declined',
  finishing_chip: 'finishing_chip',
  removing_card: 'removing_card',
  awaiting_confirmation: 'awaiting_confirmation',
  confirmed: 'confirmed',
  cancelling: 'cancelling',
  cancelled: 'cancelled',
  reversing: 'reversing',
  reversed: 'reversed',
  undoing: 'undoing',
  undone: 'undone',
  undo_pending: 'undo_pending',
  failed: 'failed',
  result_pending: 'result_pending',
  pinpad_message: 'pinpad_message',
};

export const WIRE_SETTINGS_VIOLATION_CODES: Readonly<Record<SettingsViolationCode, WireSettingsViolationCode>> = {
  REQUIRED: 'REQUIRED',
  UNKNOWN_FIELD: 'UNKNOWN_FIELD',
  INVALID_TYPE: 'INVALID_TYPE',
  INVALID_FORMAT: 'INVALID_FORMAT',
  INVALID_VALUE: 'INVALID_VALUE',
  INVALID_CHOICE: 'INVALID_CHOICE',
  TOO_LONG: 'TOO_LONG',
  TOO_SHORT: 'TOO_SHORT',
  OUT_OF_RANGE: 'OUT_OF_RANGE',
  NOT_ALLOWED: 'NOT_ALLOWED',
  INCONSISTENT: 'INCONSISTENT',
  INVALID_CNPJ: 'INVALID_CNPJ',
  INVALID_CNPJ_CHECK_DIGITS: 'INVALID_CNPJ_CHECK_DIGITS',
  INVALID_URL: 'INVALID_URL',
  INVALID_TIME_ZONE: 'INVALID_TIME_ZONE',
  INVALID_PINPAD_ADDRESS: 'INVALID_PINPAD_ADDRESS',
  INVALID_PRINTER_ADDRESS: 'INVALID_PRINTER_ADDRESS',
  UNKNOWN_PRINTER_MODEL: 'UNKNOWN_PRINTER_MODEL',
  INVALID_CODEPAGE: 'INVALID_CODEPAGE',
  NO_API_TOKEN: 'NO_API_TOKEN',
  CERTIFICATE_PASSPHRASE: 'CERTIFICATE_PASSPHRASE',
  CERTIFICATE_UNUSABLE: 'CERTIFICATE_UNUSABLE',
  FILE_UNREADABLE: 'FILE_UNREADABLE',
  FILE_INVALID: 'FILE_INVALID',
  GOVERNED_REMOTELY: 'GOVERNED_REMOTELY',
  MOVED: 'MOVED',
};

/** A payment's result (core/outcome.ts) as `status` says it. */
export const WIRE_RESULT_STATUSES: Readonly<Record<PaymentOutcome['status'], WireOutcome['status']>> = {
  approved: 'approved',
  declined: 'declined',
  failed: 'failed',
  cancelled: 'cancelled',
  in_progress: 'in_progress',
};

/** An approval's confirmation (core/outcome.ts) as `confirmation` says it. */
export const WIRE_CONFIRMATIONS: Readonly<
  Record<NonNullable<PaymentOutcome['confirmation']>, NonNullable<WireOutcome['confirmation']>>
> = {
  pending: 'pending',
  confirmed: 'confirmed',
  undone: 'undone',
};

export const wirePaymentState = (state: PaymentState): WirePaymentState => WIRE_PAYMENT_STATES[state];
export const wireDeclineCategory = (category: DeclineCategory): WireDeclineCategory =>
  WIRE_DECLINE_CATEGORIES[category];
export const wireProgressStep = (step: ProgressStep): WireProgressStep => WIRE_PROGRESS_STEPS[step];
export const wireSettingsViolationCode = (code: SettingsViolationCode): WireSettingsViolationCode =>
  WIRE_SETTINGS_VIOLATION_CODES[code];
export const wireResultStatus = (status: PaymentOutcome['status']): WireOutcome['status'] =>
  WIRE_RESULT_STATUSES[status];
export const wireConfirmation = (confirmation: PaymentOutcome['confirmation']): WireOutcome['confirmation'] =>
  confirmation === null ? null : WIRE_CONFIRMATIONS[confirmation];

/** The core state behind each wire state: the state table read backwards (one-to-one, by its spec). */
const CORE_PAYMENT_STATES: ReadonlyMap<WirePaymentState, PaymentState> = new Map(
  (Object.entries(WIRE_PAYMENT_STATES) as [PaymentState, WirePaymentState][]).map(([core, wire]) => [wire, core]),
);

/**
 * The core states a payment.list filter names. A wire state no core state maps to (none today)
 * matches no payment, as the journal holds none in it.
 */
export const corePaymentStates = (states: readonly WirePaymentState[]): PaymentState[] =>
  states.flatMap((state) => CORE_PAYMENT_STATES.get(state) ?? []);

/**
 * A payment.start's parameters, which the dispatcher has checked against PaymentStartParams, as
 * the sale the core takes: the one place they are checked and converted. The rule the schema
 * cannot say (a notification is one line: the PINPAD shows one) is checked here; the amount,
 * bounded by the schema, becomes Centavos; the core then checks only the store's installment rules.
 */
export function saleRequestFrom(params: ParamsOf<'payment.start'>): SaleRequest {
  if (params.notification !== undefined && /[\r\n]/.test(params.notification)) {
    const violation = paramsViolation({ field: 'notification', message: 'Field notification must be one line' });
    throw new PosError('INVALID_PARAMS', violation.message, { violations: [violation] });
  }
  return {
    referenceId: params.reference_id,
    amount: centavos(params.amount),
    paymentType: params.payment_type,
    description: params.description,
    ...(params.installments === undefined ? {} : { installments: params.installments }),
    ...(params.notification === undefined ? {} : { notification: params.notification }),
    ...(params.terminal === undefined ? {} : { terminal: params.terminal }),
    ...(params.ask_tax_id === undefined ? {} : { askTaxId: params.ask_tax_id }),
  };
}

/**
 * payment.start's parameters from outside the dispatcher (the `pinbridge pay` command): checked
 * against the same schema, in the same words, then as saleRequestFrom.
 */
export function checkedSaleRequest(input: unknown): SaleRequest {
  const violations = schemaViolations(METHODS['payment.start'].params, input).map(paramsViolation);
  if (violations.length > 0) {
    throw new PosError('INVALID_PARAMS', violations.map((v) => v.message).join('; '), { violations });
  }
  return saleRequestFrom(input as ParamsOf<'payment.start'>);
}
