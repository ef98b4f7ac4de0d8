/** Sandbox-only helpers (not part of the real service): tokens, paying a boleto, the phone of tap to pay. */
import { Type, type Static } from 'typebox';
import { TimestampUtc } from './common.js';

export const SandboxTokenRequest = Type.Object(
  {
    marketplace_id: Type.String({ minLength: 1 }),
    expires_in: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 31_536_000,
        default: 3600,
        description: 'Seconds; 0 gives an already expired token.',
      }),
    ),
  },
  { title: 'SandboxTokenRequest', additionalProperties: false },
);
export type SandboxTokenRequest = Static<typeof SandboxTokenRequest>;

export const SandboxToken = Type.Object(
  {
    access_token: Type.String(),
    token_type: Type.Literal('Bearer'),
    marketplace_id: Type.String(),
    expires_at: TimestampUtc,
  },
  { title: 'SandboxToken' },
);
export type SandboxToken = Static<typeof SandboxToken>;

/**
 * The payer of a boleto or bolepix: at a bank (the barcode; the default) or by Pix (a bolepix's
 * QR code, until its expiration_date_time).
 */
export const SandboxPayRequest = Type.Object(
  { via: Type.Optional(Type.Union([Type.Literal('boleto'), Type.Literal('pix')])) },
  { title: 'SandboxPayRequest', additionalProperties: false },
);
export type SandboxPayRequest = Static<typeof SandboxPayRequest>;

/** The phone's side of a tap-to-pay payment. Without `outcome`, the amount table decides. */
export const SandboxTapToPayRequest = Type.Object(
  {
    outcome: Type.Optional(
      Type.Union([Type.Literal('approved'), Type.Literal('declined'), Type.Literal('nfc_read_error')]),
    ),
    card_brand: Type.Optional(Type.String({ maxLength: 32 })),
    last4_digits: Type.Optional(Type.String({ pattern: '^[0-9]{4}$' })),
  },
  { title: 'SandboxTapToPayRequest', additionalProperties: false },
);
export type SandboxTapToPayRequest = Static<typeof SandboxTapToPayRequest>;
