/**
 * The wire's own lists: the values a POS reads and branches on — a payment's state, a decline's
 * category, a progress step, a settings mistake's code — written out here rather than taken from
 * the core, so the published protocol (client/protocol.ts, docs/pos-asyncapi.json) changes only
 * when this file does, never because something inside the core was renamed.
 *
 * The core keeps its own lists (core/states.ts, core/declines.ts, core/events.ts,
 * core/settings-violations.ts). main/pos/server/wire-adapter.ts maps each core value to one of
 * these through a table typed `Record<core value, wire value>`: a core value renamed or added fails
 * `tsc` there, and test/main/pos/server/wire-adapter.test.ts holds every table to a one-to-one map.
 *
 * Each list's order is the documents' (the order of the enum in client/protocol.ts and the
 * AsyncAPI document): keep it.
 */

/** The journal states of a payment (what each means: docs/architecture.md, main/core/states.ts). */
export const PAYMENT_STATES = [
  'intent',
  'created',
  'card_read',
  'authorizing',
  'unknown',
  'approved',
  'completing',
  'awaiting_confirmation',
  'confirmed',
  'declined',
  'reversing',
  'reversed',
  'aborting',
  'cancelled',
  'failed',
  'undoing',
  'undone',
] as const;
export type WirePaymentState = (typeof PAYMENT_STATES)[number];

/** Why an issuer declined, as a stable category (docs/pos-api.md, "Declines"). */
export const DECLINE_CATEGORIES = [
  'insufficient_funds',
  'incorrect_pin',
  'pin_try_exceeded',
  'expired_card',
  'do_not_honor',
  'try_again_later',
  'contact_acquirer',
  'invalid_card',
  'invalid_amount',
  'invalid_installments',
  'transaction_not_allowed',
  'merchant_not_allowed',
  'suspected_fraud',
  'security_violation',
  'lost_card',
  'stolen_card',
  'restricted_card',
  'card_blocked',
  'closed_account',
  'card_velocity_exceeded',
  'issuer_unavailable',
  'processing_error',
  'generic_decline',
] as const;
export type WireDeclineCategory = (typeof DECLINE_CATEGORIES)[number];

/** Where a payment is, in its `payment.progress` events. */
export const PROGRESS_STEPS = [
  'started',
  'choosing_installments',
  'typing_tax_id',
  'creating_transaction',
  'waiting_card',
  'card_read',
  'entering_pin',
  'authorizing',
  'resolving_unknown',
  'approved',
  'declined',
  'finishing_chip',
  'removing_card',
  'awaiting_confirmation',
  'confirmed',
  'cancelling',
  'cancelled',
  'reversing',
  'reversed',
  'undoing',
  'undone',
  'undo_pending',
  'failed',
  'result_pending',
  'pinpad_message',
] as const;
export type WireProgressStep = (typeof PROGRESS_STEPS)[number];

/** The stable codes of a settings file's mistakes (operator.settings; docs/settings.md). */
export const SETTINGS_VIOLATION_CODES = [
  'REQUIRED',
  'UNKNOWN_FIELD',
  'INVALID_TYPE',
  'INVALID_FORMAT',
  'INVALID_VALUE',
  'INVALID_CHOICE',
  'TOO_LONG',
  'TOO_SHORT',
  'OUT_OF_RANGE',
  'NOT_ALLOWED',
  'INCONSISTENT',
  'INVALID_CNPJ',
  'INVALID_CNPJ_CHECK_DIGITS',
  'INVALID_URL',
  'INVALID_TIME_ZONE',
  'INVALID_PINPAD_ADDRESS',
  'INVALID_PRINTER_ADDRESS',
  'UNKNOWN_PRINTER_MODEL',
  'INVALID_CODEPAGE',
  'NO_API_TOKEN',
  'CERTIFICATE_PASSPHRASE',
  'CERTIFICATE_UNUSABLE',
  'FILE_UNREADABLE',
  'FILE_INVALID',
  'GOVERNED_REMOTELY',
  'MOVED',
] as const;
export type WireSettingsViolationCode = (typeof SETTINGS_VIOLATION_CODES)[number];
