/**
 * Transactions: the four creation requests (boleto, bolepix, tap to pay, PINPAD), the record
 * the service returns, lookup, void and the boleto cancellation. Field names follow the contract
 * and, where it is silent, the service family (`shared/payments-api-notes.md` §1–§3).
 */
import { Type, type Static, type TSchema } from 'typebox';
import {
  Address,
  Cnpj,
  Cpf,
  DateOnly,
  Id,
  ListEnvelope,
  Metadata,
  Nullable,
  TimestampOffset,
  WireAmount,
} from './common.js';

export const NOTIFICATION_MAX_PINPAD = 32;
/**
 * The largest amount a PINPAD sale can carry, in centavos: the PINPAD's amount fields are 12
 * digits (ABECS N12: GCX/GOX SPE_AMOUNT, GCR_AMOUNT, GOC_AMOUNT). The payments API shows no bound.
 */
export const PINPAD_AMOUNT_MAX = 999_999_999_999;
export const NOTIFICATION_MAX_TAP_TO_PAY = 200;
export const INSTALLMENTS_MIN = 1;
export const INSTALLMENTS_MAX = 12;
export const DESCRIPTION_MAX = 255;
export const REFERENCE_ID_MAX = 64;

const Amount = Type.Integer({ minimum: 1, description: 'Centavos, an integer > 0.' });
const Currency = Type.Literal('BRL');
const Description = Type.String({ minLength: 1, maxLength: DESCRIPTION_MAX });
const ReferenceId = Type.String({ minLength: 1, maxLength: REFERENCE_ID_MAX, description: 'External identifier.' });

export const InstallmentPlanRequest = Type.Object(
  {
    number_installments: Type.Integer({ minimum: INSTALLMENTS_MIN, maximum: INSTALLMENTS_MAX }),
  },
  { additionalProperties: false, description: 'Credit only; 1–12 installments.' },
);

// ---------------------------------------------------------------------------------------------
// Boleto

const FIXED_OR_PERCENTAGE = Type.Union([Type.Literal('FIXED'), Type.Literal('PERCENTAGE')]);
const INTEREST_MODES = Type.Union([
  Type.Literal('DAILY_AMOUNT'),
  Type.Literal('DAILY_PERCENTAGE'),
  Type.Literal('MONTHLY_PERCENTAGE'),
]);
// The dates are spelled out rather than a computed key, which would type the object as an index signature.
const FROM_DATE = { start_date: Type.Optional(Nullable(DateOnly)) };
const UNTIL_DATE = { limit_date: Type.Optional(Nullable(DateOnly)) };

/** A fixed amount (centavos) or a percentage, from a start date (late fee, interest) or until a limit date (discount). */
const billingCharge = <M extends TSchema, D extends Record<string, TSchema>>(mode: M, date: D) =>
  Type.Object(
    {
      mode,
      amount: Type.Optional(Type.Integer({ minimum: 0, description: 'Centavos (FIXED / DAILY_AMOUNT modes).' })),
      percentage: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Percent (PERCENTAGE modes).' })),
      ...date,
    },
    { additionalProperties: false },
  );

export const BillingInstructions = Type.Object(
  {
    late_fee: Type.Optional(billingCharge(FIXED_OR_PERCENTAGE, FROM_DATE)),
    interest: Type.Optional(billingCharge(INTEREST_MODES, FROM_DATE)),
    discount: Type.Optional(Type.Array(billingCharge(FIXED_OR_PERCENTAGE, { limit_date: DateOnly }), { maxItems: 3 })),
  },
  { additionalProperties: false, title: 'BillingInstructions', description: 'Late fee, interest and discounts.' },
);
export type BillingInstructions = Static<typeof BillingInstructions>;

/**
 * A charge of `billing_instructions` as a boleto record carries it. The service family answers
 * the numbers as strings ("300", "1"), so a digit string is taken beside the number; the sandbox
 * answers what it was sent. Extra fields are tolerated: this is a reader's schema.
 */
const billingChargeFields = <M extends TSchema>(mode: M) => ({
  mode,
  amount: Type.Optional(
    Type.Union([Type.Integer({ minimum: 0 }), Type.String({ pattern: '^[0-9]+$' })], {
      description:
        'Centavos (FIXED / DAILY_AMOUNT modes); an integer, or a digit string as the service family answers it.',
    }),
  ),
  percentage: Type.Optional(
    Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' })], {
      description: 'Percent (PERCENTAGE modes); a number, or a decimal string as the service family answers it.',
    }),
  ),
});
/** `billing_instructions` of a boleto record: the late fee, the interest and up to three discounts. */
export const BillingInstructionsRecord = Type.Object(
  {
    late_fee: Type.Optional(Type.Object({ ...billingChargeFields(FIXED_OR_PERCENTAGE), ...FROM_DATE })),
    interest: Type.Optional(Type.Object({ ...billingChargeFields(INTEREST_MODES), ...FROM_DATE })),
    discount: Type.Optional(Type.Array(Type.Object({ ...billingChargeFields(FIXED_OR_PERCENTAGE), ...UNTIL_DATE }))),
  },
  {
    title: 'BillingInstructionsRecord',
    description:
      'Collection instructions of a boleto as its record carries them: late_fee (fine), interest, discount (a list).',
  },
);
export type BillingInstructionsRecord = Static<typeof BillingInstructionsRecord>;

/** Payer data given inline (overrides `customer`). */
export const BoletoPayer = Type.Object(
  {
    first_name: Type.String({ minLength: 1 }),
    last_name: Type.Optional(Type.String()),
    email: Type.Optional(Type.String({ format: 'email' })),
    phone_number: Type.Optional(Type.String({ pattern: '^[0-9]{8,15}$' })),
    taxpayer_id: Type.Optional(Cpf),
    ein: Type.Optional(Cnpj),
    birthdate: Type.Optional(DateOnly),
    address: Type.Optional(Address),
  },
  { additionalProperties: false },
);

export const BoletoTransactionRequest = Type.Object(
  {
    payment_type: Type.Literal('boleto'),
    on_behalf_of: Id,
    customer: Id,
    amount: Amount,
    currency: Currency,
    description: Description,
    reference_id: ReferenceId,
    payment_method: Type.Optional(
      Type.Object(
        {
          buyer: Type.Optional(BoletoPayer),
          billing_instructions: Type.Optional(BillingInstructions),
          expiration_date: Type.Optional(DateOnly),
          payment_limit_date: Type.Optional(DateOnly),
          body_instructions: Type.Optional(Type.Array(Type.String({ maxLength: 80 }), { maxItems: 4 })),
        },
        { additionalProperties: false },
      ),
    ),
    metadata: Type.Optional(Metadata),
  },
  { title: 'BoletoTransactionRequest', additionalProperties: false, description: 'Create a boleto.' },
);
export type BoletoTransactionRequest = Static<typeof BoletoTransactionRequest>;

// ---------------------------------------------------------------------------------------------
// Bolepix: requested with payment_type "bolepix" and the service family's payment_method shape.

const StringOrNumber = Type.Union([Type.String({ pattern: '^[0-9]+(\\.[0-9]+)?$' }), Type.Number({ minimum: 0 })]);

export const BolepixPaymentMethod = Type.Object(
  {
    due_at: Type.Optional(DateOnly),
    payment_limit_at: Type.Optional(DateOnly),
    billing_message_list: Type.Optional(
      Type.Array(Type.Object({ message: Type.String({ maxLength: 80 }) }, { additionalProperties: false }), {
        maxItems: 4,
      }),
    ),
    interest: Type.Optional(
      Type.Object(
        {
          mode: Type.Union([Type.Literal('PERCENTAGE'), Type.Literal('FIXED')]),
          frequency: Type.Union([Type.Literal('DAILY'), Type.Literal('MONTHLY'), Type.Literal('ANNUALLY')]),
          value: StringOrNumber,
          start_at: Type.Optional(DateOnly),
        },
        { additionalProperties: false },
      ),
    ),
    late_fee: Type.Optional(
      Type.Object(
        {
          mode: Type.Union([Type.Literal('PERCENTAGE'), Type.Literal('FIXED')]),
          value: StringOrNumber,
          start_at: Type.Optional(DateOnly),
        },
        { additionalProperties: false },
      ),
    ),
    discount: Type.Optional(
      Type.Object(
        {
          mode: Type.Union([Type.Literal('PERCENTAGE'), Type.Literal('FIXED')]),
          value: StringOrNumber,
          limit_at: DateOnly,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const BolepixTransactionRequest = Type.Object(
  {
    payment_type: Type.Literal('bolepix'),
    on_behalf_of: Id,
    customer: Id,
    amount: Amount,
    currency: Currency,
    description: Description,
    reference_id: ReferenceId,
    payment_method: Type.Optional(BolepixPaymentMethod),
    metadata: Type.Optional(Metadata),
  },
  {
    title: 'BolepixTransactionRequest',
    additionalProperties: false,
    description: 'Create a bolepix: a boleto that can also be paid by Pix.',
  },
);
export type BolepixTransactionRequest = Static<typeof BolepixTransactionRequest>;

// ---------------------------------------------------------------------------------------------
// Terminal payments

export const CardPaymentType = Type.Union([Type.Literal('credit'), Type.Literal('debit')]);
export type CardPaymentType = Static<typeof CardPaymentType>;

const terminalRequest = <L extends 'pinpad' | 'tap_to_pay'>(
  locale: L,
  notificationMax: number,
  terminal: string,
  options: { title: string; description: string },
) =>
  Type.Object(
    {
      payment_locale: Type.Literal(locale),
      payment_type: CardPaymentType,
      on_behalf_of: Id,
      description: Description,
      notification: Type.Optional(Type.String({ maxLength: notificationMax })),
      installment_plan: Type.Optional(InstallmentPlanRequest),
      currency: Currency,
      amount: Amount,
      terminal: Type.String({ minLength: 1, maxLength: 64, description: terminal }),
      reference_id: Type.Optional(ReferenceId),
      metadata: Type.Optional(Metadata),
    },
    { additionalProperties: false, ...options },
  );

export const PinpadTransactionRequest = terminalRequest(
  'pinpad',
  NOTIFICATION_MAX_PINPAD,
  'Serial number of the PINPAD.',
  {
    title: 'PinpadTransactionRequest',
    description: 'Create a PINPAD transaction (created pending; completed through the terminal channel).',
  },
);
export type PinpadTransactionRequest = Static<typeof PinpadTransactionRequest>;

export const TapToPayTransactionRequest = terminalRequest(
  'tap_to_pay',
  NOTIFICATION_MAX_TAP_TO_PAY,
  'Id of the NFC device.',
  {
    title: 'TapToPayTransactionRequest',
    description: "Create a tap-to-pay transaction (created pending; completed on the seller's phone).",
  },
);
export type TapToPayTransactionRequest = Static<typeof TapToPayTransactionRequest>;

export type TransactionRequest =
  BoletoTransactionRequest | BolepixTransactionRequest | PinpadTransactionRequest | TapToPayTransactionRequest;

export const TransactionRequest = Type.Union(
  [BoletoTransactionRequest, BolepixTransactionRequest, PinpadTransactionRequest, TapToPayTransactionRequest],
  { description: 'One of the four kinds, told apart by payment_type and payment_locale.' },
);

// ---------------------------------------------------------------------------------------------
// The transaction record

export const TransactionStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('succeeded'),
  Type.Literal('failed'),
  Type.Literal('canceled'),
  Type.Literal('reversed'),
]);
export type TransactionStatus = Static<typeof TransactionStatus>;

export const EntryMode = Type.Union([
  Type.Literal('chip'),
  Type.Literal('contactless_chip'),
  Type.Literal('contactless_magstripe'),
  Type.Literal('magstripe'),
  Type.Literal('magstripe_fallback'),
  Type.Literal('manually_keyed'),
  Type.Literal('barcode'),
]);
export type EntryMode = Static<typeof EntryMode>;

export const PaymentLocale = Type.Union([Type.Literal('api'), Type.Literal('pinpad'), Type.Literal('tap_to_pay')]);
export type PaymentLocale = Static<typeof PaymentLocale>;

export const CardDetails = Type.Object(
  {
    resource: Type.Literal('card'),
    card_brand: Type.String({ description: 'Visa, MasterCard, Elo, …' }),
    first4_digits: Type.String(),
    first6_digits: Type.Optional(Type.String()),
    last4_digits: Type.String(),
    holder_name: Nullable(Type.String()),
  },
  { title: 'CardDetails', description: 'The card as a receipt may show it: never more than first 6 / last 4 digits.' },
);
export type CardDetails = Static<typeof CardDetails>;

export const BoletoDetails = Type.Object(
  {
    barcode: Type.String({ pattern: '^[0-9]{44}$', description: '44-digit FEBRABAN barcode.' }),
    digitable_line: Type.String({ description: 'The 47-digit digitable line, formatted.' }),
    url: Type.String({ description: 'PDF of the boleto.' }),
    expiration_date: DateOnly,
    payment_limit_date: DateOnly,
    // A union rather than Nullable: the named schema stays an object in the documents, null beside it.
    billing_instructions: Type.Union([BillingInstructionsRecord, Type.Null()]),
    status: Type.Union([Type.Literal('not_paid'), Type.Literal('paid'), Type.Literal('canceled')]),
    paid_at: Nullable(TimestampOffset),
  },
  { title: 'BoletoDetails' },
);
export type BoletoDetails = Static<typeof BoletoDetails>;

export const PixDetails = Type.Object(
  {
    qr_code: Type.String({ description: 'Pix "copia e cola" payload (EMV BR Code with CRC16).' }),
    qr_code_url: Type.String({ description: 'PNG image of the QR code.' }),
    expiration_date_time: TimestampOffset,
    paid_at: Type.Optional(TimestampOffset),
    end_to_end_id: Type.Optional(
      Type.String({
        pattern: '^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$',
        description:
          'The Pix end-to-end id (BCB: "E", the paying institution\'s ISPB, yyyyMMddHHmm in UTC, 11 letters or digits).',
      }),
    ),
  },
  {
    title: 'PixDetails',
    description: '`paid_at` and `end_to_end_id` appear once the bolepix is paid by Pix (not when paid at a bank).',
  },
);
export type PixDetails = Static<typeof PixDetails>;

export const PaymentAuthorization = Type.Object(
  {
    authorizer_id: Type.String(),
    authorization_code: Type.String(),
    authorization_nsu: Type.String(),
  },
  { title: 'PaymentAuthorization' },
);

export const TransactionError = Type.Object(
  {
    code: Type.String({ description: 'Machine-readable reason, e.g. insufficient_funds.' }),
    message: Type.String(),
    response_code: Nullable(Type.String({ description: 'Two-character issuer response code, e.g. "51".' })),
  },
  { title: 'TransactionError' },
);
export type TransactionError = Static<typeof TransactionError>;

export const HistoryEntry = Type.Object({
  id: Type.String(),
  transaction: Type.String(),
  amount: WireAmount,
  operation_type: Type.String({ description: 'created, authorization, void, reversal, paid, canceled…' }),
  status: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]),
  response_code: Nullable(Type.String()),
  response_message: Nullable(Type.String()),
  authorization_code: Nullable(Type.String()),
  authorization_nsu: Nullable(Type.String()),
  created_at: Type.String({ description: '"YYYY-MM-DD HH:mm:ss" (UTC), as the service family writes it.' }),
});

export const Transaction = Type.Object(
  {
    id: Id,
    resource: Type.Literal('transaction'),
    status: TransactionStatus,
    amount: WireAmount,
    original_amount: WireAmount,
    currency: Type.Literal('BRL'),
    description: Nullable(Type.String()),
    payment_type: Type.Union([CardPaymentType, Type.Literal('boleto'), Type.Literal('bolepix')]),
    payment_locale: PaymentLocale,
    reference_id: Nullable(Type.String()),
    on_behalf_of: Id,
    customer: Nullable(Type.String()),
    terminal: Nullable(Type.String()),
    notification: Nullable(Type.String()),
    installment_plan: Nullable(
      Type.Object({
        number_installments: Type.Union([Type.Integer(), Type.String({ pattern: '^[0-9]+$' })]),
        mode: Type.Optional(Type.Union([Type.Literal('interest_free'), Type.Literal('with_interest')])),
      }),
    ),
    transaction_number: Nullable(Type.String()),
    gateway_authorizer: Nullable(Type.String()),
    payment_authorization: Nullable(PaymentAuthorization),
    point_of_sale: Nullable(Type.Object({ entry_mode: EntryMode, identification_number: Nullable(Type.String()) })),
    payment_method: Nullable(CardDetails),
    boleto: Type.Optional(BoletoDetails),
    pix: Type.Optional(PixDetails),
    error: Nullable(TransactionError),
    captured: Type.Boolean(),
    voided: Type.Boolean(),
    voided_at: Nullable(TimestampOffset),
    refunded: Type.Boolean(),
    history: Type.Array(HistoryEntry),
    metadata: Metadata,
    uri: Type.String(),
    created_at: TimestampOffset,
    updated_at: TimestampOffset,
  },
  {
    title: 'Transaction',
    description:
      'A transaction. Amounts are integer centavos (the sandbox can also answer with decimal reais strings, as the service family does).',
  },
);
export type Transaction = Static<typeof Transaction>;

export const TransactionList = ListEnvelope(Transaction, 'Transactions.');

/** GET /transactions?reference_id=… (and other filters) */
export const TransactionListQuery = Type.Object({
  reference_id: Type.Optional(Type.String({ minLength: 1, maxLength: REFERENCE_ID_MAX })),
  status: Type.Optional(TransactionStatus),
  payment_type: Type.Optional(Type.String()),
  terminal: Type.Optional(Type.String()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
export type TransactionListQuery = Static<typeof TransactionListQuery>;

/** POST /transactions/{id}/void (the service family's path): a full void when amount is omitted. */
export const VoidRequest = Type.Object(
  {
    on_behalf_of: Id,
    amount: Type.Optional(Amount),
  },
  { title: 'VoidRequest', additionalProperties: false },
);
export type VoidRequest = Static<typeof VoidRequest>;

/** POST /v1/cancellation/marketplaces/{mid}/transactions/{id} → this (the service family's route). */
export const BoletoCancellation = Type.Object(
  {
    resource: Type.Literal('cancellation'),
    status: Type.Union([Type.Literal('REQUESTED'), Type.Literal('IGNORED')]),
    message: Type.String(),
    transaction_id: Id,
  },
  { title: 'BoletoCancellation' },
);
export type BoletoCancellation = Static<typeof BoletoCancellation>;

export const EmptyObject = Type.Object({}, { additionalProperties: false, description: 'An empty JSON object.' });
