/**
 * Webhooks: registration (the service family's `/webhooks` resource), the event bodies (the
 * flat shapes GoPag documents) and the signature (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`).
 */
import { Type, type Static } from 'typebox';
import { Id, Nullable, TimestampOffset } from './common.js';
import { CardPaymentType, EntryMode, PaymentLocale } from './transactions.js';

export const WEBHOOK_EVENTS = [
  'transaction.succeeded',
  'transaction.failed',
  'transaction.canceled',
  'transaction.reversed',
  'transaction.cancellation.ignored',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

export const WebhookEventName = Type.Union([
  Type.Literal('transaction.succeeded'),
  Type.Literal('transaction.failed'),
  Type.Literal('transaction.canceled'),
  Type.Literal('transaction.reversed'),
  Type.Literal('transaction.cancellation.ignored'),
]);

export const WebhookCreateRequest = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048 }),
    event: Type.Array(Type.Union([WebhookEventName, Type.Literal('all')]), {
      minItems: 1,
      description: 'Event names, or ["all"].',
    }),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    method: Type.Optional(Type.Literal('POST')),
  },
  { title: 'WebhookCreateRequest', additionalProperties: false },
);
export type WebhookCreateRequest = Static<typeof WebhookCreateRequest>;

export const Webhook = Type.Object(
  {
    id: Id,
    resource: Type.Literal('webhook'),
    uri: Type.String(),
    method: Type.Literal('POST'),
    url: Type.String(),
    description: Nullable(Type.String()),
    events: Type.Array(Type.String()),
    status: Type.Union([Type.Literal('active'), Type.Literal('deleted')]),
    events_sent: Type.Integer(),
    last_sent_at: Nullable(TimestampOffset),
    secret: Type.Optional(
      Type.String({ description: 'Signing secret (whsec_…); returned only when the webhook is created.' }),
    ),
    marketplace_id: Type.String(),
    created_at: TimestampOffset,
    updated_at: TimestampOffset,
  },
  { title: 'Webhook' },
);
export type Webhook = Static<typeof Webhook>;

export const WebhookDelivery = Type.Object(
  {
    id: Id,
    resource: Type.Literal('webhook_delivery'),
    webhook_id: Id,
    event_id: Type.String(),
    event: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
    attempts: Type.Integer(),
    last_response_status: Nullable(Type.Integer()),
    last_error: Nullable(Type.String()),
    next_attempt_at: Nullable(TimestampOffset),
    created_at: TimestampOffset,
    delivered_at: Nullable(TimestampOffset),
  },
  { title: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

// Event bodies -------------------------------------------------------------------------------

export const TransactionSucceededEvent = Type.Object(
  {
    id: Type.String({ description: 'Event id (also the webhook-id header).' }),
    event: Type.Literal('transaction.succeeded'),
    transaction_id: Id,
    payment_locale: PaymentLocale,
    payment_type: Type.Union([CardPaymentType, Type.Literal('boleto'), Type.Literal('bolepix')]),
    status: Type.Literal('succeeded'),
    amount: Type.Integer(),
    installment_plan: Type.Optional(Type.Object({ number_installments: Type.Integer() })),
    authorization_code: Type.Optional(Type.String()),
    nsu: Type.Optional(Type.String()),
    terminal: Type.Optional(Type.String()),
    card: Type.Optional(Type.Object({ brand: Type.String(), last4: Type.String(), entry_mode: EntryMode })),
    reference_id: Nullable(Type.String()),
    approved_at: Type.Optional(TimestampOffset),
    paid_at: Type.Optional(TimestampOffset),
    end_to_end_id: Type.Optional(Type.String({ description: 'A bolepix paid by Pix: the Pix end-to-end id.' })),
  },
  { title: 'TransactionSucceededEvent', description: 'A terminal payment approved, or a boleto/bolepix paid.' },
);
export type TransactionSucceededEvent = Static<typeof TransactionSucceededEvent>;

export const TransactionFailedEvent = Type.Object(
  {
    id: Type.String(),
    event: Type.Literal('transaction.failed'),
    transaction_id: Id,
    payment_locale: PaymentLocale,
    payment_type: CardPaymentType,
    status: Type.Literal('failed'),
    error_code: Type.String(),
    error_message: Type.String(),
    terminal: Type.Optional(Type.String()),
    reference_id: Nullable(Type.String()),
    failed_at: TimestampOffset,
  },
  { title: 'TransactionFailedEvent', description: 'A terminal payment declined or failed.' },
);
export type TransactionFailedEvent = Static<typeof TransactionFailedEvent>;

export const TransactionUndoneEvent = Type.Object(
  {
    id: Type.String(),
    event: Type.Union([Type.Literal('transaction.canceled'), Type.Literal('transaction.reversed')]),
    transaction_id: Id,
    payment_locale: PaymentLocale,
    payment_type: Type.Union([CardPaymentType, Type.Literal('boleto'), Type.Literal('bolepix')]),
    status: Type.Union([Type.Literal('canceled'), Type.Literal('reversed')]),
    amount: Type.Integer(),
    reference_id: Nullable(Type.String()),
    reason: Type.Optional(Type.String()),
    canceled_at: TimestampOffset,
  },
  {
    title: 'TransactionUndoneEvent',
    description: 'A payment voided or reversed, or a boleto cancellation applied (after its processing delay).',
  },
);
export type TransactionUndoneEvent = Static<typeof TransactionUndoneEvent>;

export const CancellationIgnoredEvent = Type.Object(
  {
    id: Type.String(),
    event: Type.Literal('transaction.cancellation.ignored'),
    transaction_id: Id,
    payment_type: Type.Union([Type.Literal('boleto'), Type.Literal('bolepix')]),
    status: Type.String({ description: "The boleto's status, unchanged (succeeded: it was paid)." }),
    reference_id: Nullable(Type.String()),
    reason: Type.String(),
    ignored_at: TimestampOffset,
  },
  { title: 'CancellationIgnoredEvent', description: 'A boleto cancellation that had no effect because it was paid.' },
);
export type CancellationIgnoredEvent = Static<typeof CancellationIgnoredEvent>;

export type WebhookEvent =
  TransactionSucceededEvent | TransactionFailedEvent | TransactionUndoneEvent | CancellationIgnoredEvent;

export const WebhookEvent = Type.Union([
  TransactionSucceededEvent,
  TransactionFailedEvent,
  TransactionUndoneEvent,
  CancellationIgnoredEvent,
]);

/** Header names of a signed delivery (Standard Webhooks). */
export const WEBHOOK_HEADERS = {
  id: 'webhook-id',
  timestamp: 'webhook-timestamp',
  signature: 'webhook-signature',
} as const;
