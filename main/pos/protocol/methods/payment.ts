/**
 * The payment methods (handlers in main/pos/server/handlers/payment.ts): start, cancel, status,
 * confirm, undo, list.
 * Assembled with the others into METHODS by ../methods.ts (see there for `access` and `cost`).
 */
import { Literals } from '../literals.js';
import { Type, type Static } from 'typebox';
import {
  DESCRIPTION_MAX,
  INSTALLMENTS_MAX,
  INSTALLMENTS_MIN,
  NOTIFICATION_MAX_PINPAD,
  PINPAD_AMOUNT_MAX,
  REFERENCE_ID_MAX,
} from '../../../contract/index.js';
import { PAYMENT_STATES } from '../enums.js';
import { PaymentOutcome, PaymentStatus } from '../models.js';
import { method, NoParams, Terminal, Reference } from '../method-spec.js';

/**
 * The parameters of a PINPAD payment as the POS sends them (snake_case). The dispatcher validates
 * a request with it; the engine checks them again as it starts, with the rules a schema cannot say
 * (installments only for credit, the minimum installment value: main/core/params.ts).
 */
export const PaymentStartParams = Type.Object(
  {
    reference_id: Type.String({
      minLength: 1,
      maxLength: REFERENCE_ID_MAX,
      description: "The POS's own id of this sale: repeating `start` with it returns the same payment.",
    }),
    amount: Type.Integer({
      minimum: 1,
      maximum: PINPAD_AMOUNT_MAX,
      description: 'Centavos, an integer > 0 of at most 12 digits (what a PINPAD can show and send).',
    }),
    payment_type: Type.Union([Type.Literal('credit'), Type.Literal('debit')]),
    installments: Type.Optional(
      Type.Integer({
        minimum: INSTALLMENTS_MIN,
        maximum: INSTALLMENTS_MAX,
        description:
          'Credit only, 1–12. Left out for credit: the customer chooses on the PINPAD (1 when the amount is too small to split).',
      }),
    ),
    description: Type.String({ minLength: 1, maxLength: DESCRIPTION_MAX }),
    notification: Type.Optional(
      Type.String({
        maxLength: NOTIFICATION_MAX_PINPAD,
        description: 'Shown on the PINPAD while it waits for the card (≤ 32).',
      }),
    ),
    terminal: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'Serial number of the PINPAD; needed when several are attached.',
      }),
    ),
    ask_tax_id: Type.Optional(
      Type.Boolean({ description: 'Ask the customer to type a CPF on the PINPAD (for the receipt).' }),
    ),
  },
  { additionalProperties: false, title: 'PaymentStartParams' },
);
export type PaymentStartParams = Static<typeof PaymentStartParams>;

/** payment.undo and payment.cancel: the reference, and the supervisor's PIN when the store asks for it (settings supervisor). */
const VoidParams = Type.Object(
  {
    reference_id: Reference.properties.reference_id,
    supervisor_pin: Type.Optional(
      Type.String({
        pattern: '^[0-9]{4,8}$',
        description:
          "The supervisor's PIN (4–8 digits) typed in Pinbridge's window, when the store requires the supervisor for voids (settings supervisor; operator.supervisor says when). Never logged nor journaled.",
      }),
    ),
    supervisor_entry: Type.Optional(
      Type.Union([Type.Literal('window'), Type.Literal('pinpad')], {
        description:
          '"pinpad": the supervisor types the PIN on the PINPAD keypad instead (the request answers once it is typed, or with PINPAD_CANCELLED / PINPAD_TIMEOUT).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PAYMENT_METHODS = {
  'payment.start': method({
    tag: 'payment',
    access: 'client',
    cost: 20,
    waits: 'outcome',
    summary: 'Runs a PINPAD payment to its result. Idempotent by reference_id: repeat it after any doubt.',
    description:
      'Answers when the payment ends (approved, declined, failed or cancelled); payment.progress events arrive meanwhile. ' +
      'The same reference_id with the same parameters returns the same payment (running or finished); with others, REFERENCE_CONFLICT.',
    params: PaymentStartParams,
    result: PaymentOutcome,
  }),
  'payment.cancel': method({
    tag: 'payment',
    access: 'client',
    cost: 5,
    waits: 'customer',
    summary:
      'Cancels: before the card is read the PINPAD is stopped; after an approval it becomes a void (which may need the supervisor: see payment.undo).',
    params: VoidParams,
    result: PaymentOutcome,
  }),
  'payment.status': method({
    tag: 'payment',
    access: 'client',
    cost: 1,
    summary:
      'Processed (with the result and both receipts) / InProgress / NotFound: how a POS recovers after losing the connection.',
    params: Reference,
    result: PaymentStatus,
  }),
  'payment.confirm': method({
    tag: 'payment',
    access: 'client',
    cost: 5,
    summary: 'Confirms an approval (confirmation policy "pos"); harmless when already confirmed.',
    params: Reference,
    result: PaymentOutcome,
  }),
  'payment.undo': method({
    tag: 'payment',
    access: 'client',
    cost: 10,
    waits: 'customer',
    summary: 'Voids an approval, confirmed or not; harmless when already undone.',
    description:
      'A confirmed sale is voided (problem VOIDED_BY_POS, "cancelada"); an approval still waiting for confirmation is undone (UNDONE_BY_POS, "desfeita"). ' +
      'When the store requires the supervisor (settings supervisor), a request from the window carries supervisor_pin or supervisor_entry "pinpad", ' +
      'and a POS\'s request needs the PIN on the PINPAD only where supervisor.pos_voids is "pinpad" (the agent then asks for it there by itself). ' +
      'Refused with SUPERVISOR_REQUIRED, SUPERVISOR_PIN_WRONG (data.attempts_left) or SUPERVISOR_LOCKED (data.locked_until, data.retry_after_ms); nothing is voided then.',
    params: VoidParams,
    result: PaymentOutcome,
  }),
  'payment.list': method({
    tag: 'payment',
    access: 'client',
    cost: 2,
    summary:
      'Payments from the journal, newest first; finds a past sale by date range, amount, NSU, authorization code or the last 4 digits of the card.',
    params: Type.Object(
      {
        from: Type.Optional(
          Type.String({ minLength: 10, maxLength: 40, description: 'Created at or after (ISO time).' }),
        ),
        to: Type.Optional(Type.String({ minLength: 10, maxLength: 40, description: 'Created before (ISO time).' })),
        states: Type.Optional(Type.Array(Literals(PAYMENT_STATES), { maxItems: PAYMENT_STATES.length })),
        terminal: Terminal,
        amount: Type.Optional(
          Type.Integer({ minimum: 1, description: 'Only payments of exactly this amount: centavos, an integer > 0.' }),
        ),
        nsu: Type.Optional(
          Type.String({
            pattern: '^[0-9A-Za-z]{1,20}$',
            description:
              'Only the payment with this NSU, exactly as printed (leading zeros count): 1–20 letters or digits.',
          }),
        ),
        authorization_code: Type.Optional(
          Type.String({
            pattern: '^[0-9A-Za-z]{1,12}$',
            description: 'Only the payment with this authorization code (letters in any case): 1–12 letters or digits.',
          }),
        ),
        card_last4: Type.Optional(
          Type.String({ pattern: '^[0-9]{4}$', description: 'Only payments by a card ending in these 4 digits.' }),
        ),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
        offset: Type.Optional(Type.Integer({ minimum: 0 })),
      },
      { additionalProperties: false },
    ),
    result: Type.Object({ items: Type.Array(PaymentOutcome), total: Type.Integer() }, { additionalProperties: false }),
  }),
  'payment.pending': method({
    tag: 'payment',
    access: 'client',
    cost: 2,
    summary: 'Approvals waiting for confirmation, and voids waiting for the payments API.',
    params: NoParams,
    result: Type.Object(
      { confirmations: Type.Array(PaymentOutcome), undos: Type.Array(PaymentOutcome) },
      { additionalProperties: false },
    ),
  }),
} as const;
