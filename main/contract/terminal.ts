/**
 * The terminal channel: what a PINPAD agent calls to complete a pinpad transaction that was
 * created pending (architecture §3 leaves it to us; `docs/terminal-channel.md` documents it).
 *
 *   GET  /v1/marketplaces/{mid}/terminals/{terminal}/pending_transactions   pending work for a PINPAD
 *   POST /v1/marketplaces/{mid}/transactions/{id}/authorization             card data → approved / declined
 *   POST /v1/marketplaces/{mid}/transactions/{id}/completion                the chip's final decision
 *   POST /v1/marketplaces/{mid}/transactions/{id}/reversal                  technical undo (any state)
 *   POST /v1/marketplaces/{mid}/transactions/{id}/void                      cancel (pending or approved)
 *
 * Card data travels only to the API: the brand, first 6 / last 4 digits, the entry mode and
 * the opaque blobs the PINPAD produced (encrypted card data, PIN block, EMV data). The service
 * stores the brand, masked digits and entry mode only.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from './common.js';
import { EntryMode, Transaction } from './transactions.js';

const Hex = (description: string) => Type.String({ pattern: '^([0-9A-Fa-f]{2})*$', maxLength: 4096, description });

export const TerminalCard = Type.Object(
  {
    brand: Type.String({ minLength: 1, maxLength: 32, description: 'Card brand, e.g. visa, mastercard, elo.' }),
    first6_digits: Type.String({ pattern: '^[0-9]{6}$' }),
    last4_digits: Type.String({ pattern: '^[0-9]{4}$' }),
    holder_name: Type.Optional(Type.String({ maxLength: 26 })),
    expiration: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', description: 'YYMM.' })),
    pan_sequence_number: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
  },
  { additionalProperties: false, title: 'TerminalCard' },
);
export type TerminalCard = Static<typeof TerminalCard>;

export const CardholderVerification = Type.Union([
  Type.Literal('online_pin'),
  Type.Literal('offline_pin'),
  Type.Literal('signature'),
  Type.Literal('none'),
]);

export const TerminalAuthorizationRequest = Type.Object(
  {
    terminal: Type.String({ minLength: 1, maxLength: 64, description: 'Serial number of the PINPAD.' }),
    entry_mode: EntryMode,
    card: TerminalCard,
    cardholder_verification: Type.Optional(CardholderVerification),
    encrypted_card_data: Type.Optional(
      Type.Object(
        { ksn: Hex('DUKPT key serial number.'), payload: Hex('Encrypted PAN or track 2.') },
        { additionalProperties: false },
      ),
    ),
    pin_block: Type.Optional(
      Type.Object(
        { ksn: Hex('DUKPT key serial number.'), block: Hex('Encrypted PIN block.') },
        { additionalProperties: false },
      ),
    ),
    emv_data: Type.Optional(Hex('BER-TLV chip data for the authorization request (ARQC and friends).')),
  },
  { title: 'TerminalAuthorizationRequest', additionalProperties: false },
);
export type TerminalAuthorizationRequest = Static<typeof TerminalAuthorizationRequest>;

export const AuthorizationDecision = Type.Union([Type.Literal('approved'), Type.Literal('declined')]);
export type AuthorizationDecision = Static<typeof AuthorizationDecision>;

export const TerminalAuthorizationResult = Type.Object(
  {
    decision: AuthorizationDecision,
    response_code: Type.String({ description: 'Two-character issuer response code ("00" approves).' }),
    response_message: Type.String(),
    decline_code: Nullable(Type.String({ description: 'e.g. insufficient_funds; null when approved.' })),
    authorization_code: Nullable(Type.String()),
    nsu: Nullable(Type.String()),
    issuer_emv_data: Nullable(
      Type.String({
        description: "BER-TLV for the chip's second GENERATE AC: 8A (response code), 91 (issuer authentication data).",
      }),
    ),
    transaction: Transaction,
  },
  { title: 'TerminalAuthorizationResult' },
);
export type TerminalAuthorizationResult = Static<typeof TerminalAuthorizationResult>;

export const ChipResult = Type.Union([Type.Literal('accepted'), Type.Literal('refused')]);
export type ChipResult = Static<typeof ChipResult>;

export const TerminalCompletionRequest = Type.Object(
  {
    terminal: Type.String({ minLength: 1, maxLength: 64 }),
    chip_result: ChipResult,
    emv_data: Type.Optional(Hex('BER-TLV from the second GENERATE AC (TC or AAC).')),
  },
  { title: 'TerminalCompletionRequest', additionalProperties: false },
);
export type TerminalCompletionRequest = Static<typeof TerminalCompletionRequest>;

export const ReversalReason = Type.Union([
  Type.Literal('chip_refused'),
  Type.Literal('timeout'),
  Type.Literal('cancelled'),
  Type.Literal('unknown_outcome'),
  Type.Literal('other'),
]);
export type ReversalReason = Static<typeof ReversalReason>;

export const TerminalReversalRequest = Type.Object(
  {
    terminal: Type.String({ minLength: 1, maxLength: 64 }),
    reason: ReversalReason,
  },
  { title: 'TerminalReversalRequest', additionalProperties: false },
);
export type TerminalReversalRequest = Static<typeof TerminalReversalRequest>;
