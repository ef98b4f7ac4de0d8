/**
 * Terminal channel v2: the authorization request an acquirer's host can authorize from, and its
 * answer. Version 1 (terminal.ts) carried the card as brand and masked digits with optional,
 * unspecified blobs; v2 says what each entry mode must carry and in which format, so a provider
 * can implement it (docs/terminal-channel.md; docs/terminal-channel-openapi.json is generated
 * from these schemas, the same ones the sandbox validates with).
 *
 *   POST /v2/marketplaces/{mid}/transactions/{id}/authorization
 *
 * What each entry mode carries (the sandbox refuses a request that breaks a rule with 400 and
 * the field's name):
 *
 * | entry_mode            | pos_entry_mode | emv_data | encrypted_card_data | pin_block           |
 * |-----------------------|----------------|----------|---------------------|---------------------|
 * | chip                  | 051            | required | required (track 2)  | with online_pin     |
 * | contactless_chip      | 071            | required | required (track 2)  | with online_pin     |
 * | contactless_magstripe | 911            | —        | required (track 2)  | with online_pin     |
 * | magstripe             | 901            | —        | required (track 2)  | with online_pin     |
 * | magstripe_fallback    | 801            | —        | required (track 2)  | with online_pin     |
 *
 * pos_entry_mode is ISO 8583 field 22 as Brazilian acquirers read it: the PAN entry mode (05
 * chip, 07 contactless chip, 91 contactless magstripe, 90 magstripe read whole, 80 magstripe after
 * a chip failure) and the terminal's PIN capability (1: it can take a PIN — every PINPAD can).
 *
 * Card data is never in clear: the PAN and track 2 travel as the PINPAD encrypted them (ABECS GTK,
 * TDES ECB, S220 §5.4.2) by one of the three methods the spec defines — under the DUKPT data key of
 * a slot (with its KSN), under a working key the host issued for a data master key slot (MK/WK),
 * or under a random key the PINPAD made for this card and returned RSA-encrypted under the host's
 * public key — and the PIN as an ISO 9564 format 0 block under a DUKPT PIN key (with its KSN) or
 * an MK/WK PIN working key. Each carries what the host needs to open it (`method` and its fields).
 * Only ECB: Pinbridge asks GTK for ECB, and CBC would add nothing the host needs.
 */
import { Type, type Static } from 'typebox';
import { Nullable } from './common.js';
import { CardholderVerification, type TerminalAuthorizationRequest } from './terminal.js';
import { Transaction } from './transactions.js';

export const TERMINAL_CHANNEL_VERSION = 2;

const Hex = (description: string, maxLength = 4096) =>
  Type.String({ pattern: '^([0-9A-F]{2})*$', maxLength, description: `${description} Upper-case hex.` });
const Ksn = Type.String({
  pattern: '^[0-9A-F]{20}$',
  description: 'DUKPT key serial number (10 bytes, upper-case hex): the host derives the key from it and its BDK.',
});
const KeySlot = (description: string) => Type.Integer({ minimum: 0, maximum: 99, description });
const WorkingKey = (kind: string) =>
  Type.String({
    pattern: '^[0-9A-F]{32}$',
    description: `SPE_WKENC: the ${kind} working key the host issued (its EMV tables' \`keys\`), encrypted under the master key of \`key_slot\`, as the PINPAD was given it. Upper-case hex.`,
  });

export const CardEntryMode = Type.Union(
  [
    Type.Literal('chip'),
    Type.Literal('contactless_chip'),
    Type.Literal('contactless_magstripe'),
    Type.Literal('magstripe'),
    Type.Literal('magstripe_fallback'),
  ],
  { description: 'How the PINPAD read the card.' },
);
export type CardEntryMode = Static<typeof CardEntryMode>;

/** ISO 8583 field 22 for each entry mode, with the PINPAD's PIN capability (1). */
export const POS_ENTRY_MODES: Readonly<Record<CardEntryMode, string>> = {
  chip: '051',
  contactless_chip: '071',
  contactless_magstripe: '911',
  magstripe: '901',
  magstripe_fallback: '801',
};

export const TerminalIdentity = Type.Object(
  {
    serial_number: Type.String({
      minLength: 1,
      maxLength: 64,
      description: "The PINPAD serial number (ABECS PP_SERNUM): the transaction's `terminal`.",
    }),
    model: Type.Optional(
      Type.String({
        maxLength: 64,
        description: "Manufacturer and model (PP_MODEL), for the host's risk rules and support.",
      }),
    ),
    table_versions: Type.Record(Type.String({ pattern: '^[0-9]{2}$' }), Type.String({ pattern: '^[0-9]{10}$' }), {
      description:
        'The EMV table version the PINPAD holds per acquirer index (ABECS PP_TABVERnn, "AAMMDDxxxx"): the host can tell a PINPAD with outdated keys or AIDs.',
    }),
  },
  { additionalProperties: false, title: 'TerminalIdentity' },
);
export type TerminalIdentity = Static<typeof TerminalIdentity>;

export const CardV2 = Type.Object(
  {
    brand: Type.String({ minLength: 1, maxLength: 32, description: 'Card brand, e.g. visa, mastercard, elo.' }),
    first6_digits: Type.String({ pattern: '^[0-9]{6}$' }),
    last4_digits: Type.String({ pattern: '^[0-9]{4}$' }),
    pan_length: Type.Integer({ minimum: 12, maximum: 19 }),
    expiration: Type.Optional(Type.String({ pattern: '^[0-9]{4}$', description: 'YYMM.' })),
    pan_sequence_number: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: 'Chip: EMV tag 5F34.' })),
    service_code: Type.Optional(
      Type.String({
        pattern: '^[0-9]{3}$',
        description: 'Magnetic stripe: the three digits after the expiry on track 2.',
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'CardV2',
    description: 'What may travel in clear: masked digits, brand, expiry.',
  },
);
export type CardV2 = Static<typeof CardV2>;

const CardDataFormat = Type.Union([Type.Literal('track2'), Type.Literal('pan')], {
  description: 'What was encrypted: track 2 (PAN=YYMM service code and discretionary data) or the PAN alone.',
});
const Payload = Hex(
  'The digits packed two a byte ("=" as the nibble D), padded with F nibbles to a multiple of 8 bytes, encrypted TDES ECB (ABECS S220 §5.4.2).',
  64,
);

export const DukptCardDataV2 = Type.Object(
  {
    format: CardDataFormat,
    method: Type.Literal('dukpt_tdes_ecb', {
      description: 'DUKPT data key (X9.24-1:2009, request direction), TDES ECB (GTK SPE_MTHDDAT "50").',
    }),
    key_slot: KeySlot('The PINPAD slot (ABECS SPE_KEYIDX) of the DUKPT data key used.'),
    ksn: Ksn,
    payload: Payload,
  },
  { additionalProperties: false, title: 'DukptCardDataV2' },
);

export const MkwkCardDataV2 = Type.Object(
  {
    format: CardDataFormat,
    method: Type.Literal('mkwk_tdes_ecb', {
      description: 'A working key under a data master key (MK/WK), TDES ECB (GTK SPE_MTHDDAT "10").',
    }),
    key_slot: KeySlot('The PINPAD slot (ABECS SPE_KEYIDX) of the data master key the working key was opened under.'),
    working_key: WorkingKey('data'),
    payload: Payload,
  },
  { additionalProperties: false, title: 'MkwkCardDataV2' },
);

export const RandomKeyCardDataV2 = Type.Object(
  {
    format: CardDataFormat,
    method: Type.Literal('random_key_tdes_ecb', {
      description:
        'A TDES key the PINPAD made for this card alone (KRAND), TDES ECB (GTK SPE_MTHDDAT "90"); the key travels RSA-encrypted in `encrypted_key`.',
    }),
    encrypted_key: Type.String({
      pattern: '^[0-9A-F]{512}$',
      description:
        "PP_ENCKRAND: the 16-byte random key as a PKCS #1 v1.5 type 2 block (00 02, non-zero random bytes, 00, the key) encrypted under the host's RSA-2048 public key (S220 §5.2.1). Upper-case hex.",
    }),
    key_id: Type.String({
      pattern: '^[\\x21-\\x7e]{1,64}$',
      description:
        "The host's name of the RSA key pair (its EMV tables' `keys`) whose public key sealed the random key.",
    }),
    payload: Payload,
  },
  { additionalProperties: false, title: 'RandomKeyCardDataV2' },
);

export const EncryptedCardDataV2 = Type.Union([DukptCardDataV2, MkwkCardDataV2, RandomKeyCardDataV2], {
  title: 'EncryptedCardDataV2',
  description: 'The track 2 (or PAN) as the PINPAD sealed it, with what the host needs to open it (by `method`).',
});
export type EncryptedCardDataV2 = Static<typeof EncryptedCardDataV2>;

const PinFormat = Type.Literal('iso_0', {
  description: "ISO 9564-1 format 0 (the PIN XOR the PAN's 12 digits before the check digit).",
});
const PinBlock = (key: string) =>
  Type.String({ pattern: '^[0-9A-F]{16}$', description: `The PIN block encrypted under ${key}. Upper-case hex.` });

export const DukptPinBlockV2 = Type.Object(
  {
    format: PinFormat,
    method: Type.Optional(
      Type.Literal('dukpt', {
        description: 'DUKPT PIN key (GOX/GPN method 3). Absent in requests of older agents: absent means dukpt.',
      }),
    ),
    key_slot: KeySlot('The PINPAD slot (ABECS SPE_KEYIDX) of the DUKPT PIN key used.'),
    ksn: Ksn,
    block: PinBlock('the DUKPT PIN key of the KSN'),
  },
  { additionalProperties: false, title: 'DukptPinBlockV2' },
);

export const MkwkPinBlockV2 = Type.Object(
  {
    format: PinFormat,
    method: Type.Literal('mkwk', { description: 'A working key under a PIN master key (GOX/GPN method 1).' }),
    key_slot: KeySlot('The PINPAD slot (ABECS SPE_KEYIDX) of the PIN master key the working key was opened under.'),
    working_key: WorkingKey('PIN'),
    block: PinBlock('the PIN working key'),
  },
  { additionalProperties: false, title: 'MkwkPinBlockV2' },
);

export const PinBlockV2 = Type.Union([DukptPinBlockV2, MkwkPinBlockV2], {
  title: 'PinBlockV2',
  description: 'The online PIN as the PINPAD encrypted it, with what the host needs to open it (by `method`).',
});
export type PinBlockV2 = Static<typeof PinBlockV2>;

export const TerminalAuthorizationRequestV2 = Type.Object(
  {
    terminal: TerminalIdentity,
    entry_mode: CardEntryMode,
    pos_entry_mode: Type.String({
      pattern: '^[0-9]{3}$',
      description: 'ISO 8583 field 22, as the table of entry modes says (051 for chip…).',
    }),
    acquirer: Type.Optional(
      Type.String({
        pattern: '^[0-9]{2}$',
        description: 'The acquirer index whose AID table took the card (ABECS PP_AIDTABINFO).',
      }),
    ),
    card: CardV2,
    cardholder_verification: CardholderVerification,
    encrypted_card_data: EncryptedCardDataV2,
    pin_block: Type.Optional(PinBlockV2),
    emv_data: Type.Optional(
      Hex(
        'BER-TLV of the first GENERATE AC: 9F26 (ARQC), 9F27, 9F10, 9F37, 9F36, 95, 9A, 9C, 9F02, 5F2A, 82, 9F1A at least; never 5A, 57 or 5F20.',
      ),
    ),
  },
  { additionalProperties: false, title: 'TerminalAuthorizationRequestV2' },
);
export type TerminalAuthorizationRequestV2 = Static<typeof TerminalAuthorizationRequestV2>;

/**
 * What a PINPAD agent hands its terminal channel: a v2 request in which only the sealed card data
 * may be missing — from a legacy (BibComp 1.08) PINPAD, which has no GTK to seal it. Such a read
 * can only go to a provider that still serves v1; the v2 channel refuses it before sending.
 */
export type CardPresentAuthorization = Omit<TerminalAuthorizationRequestV2, 'encrypted_card_data'> & {
  encrypted_card_data?: EncryptedCardDataV2;
};

/**
 * The same authorization for a provider that serves only v1: the card as brand, masked digits,
 * expiry and sequence number, the blobs without their formats and key slots, the terminal as its
 * serial number. What v1 has no field for (pos_entry_mode, acquirer, pan_length, service_code,
 * model, table versions) is dropped — and so are card data and PIN blocks sealed other than by
 * DUKPT: v1's blobs are a KSN and bytes, nothing else could be opened from them.
 */
export function toV1Authorization(request: CardPresentAuthorization): TerminalAuthorizationRequest {
  const { card, encrypted_card_data: sealed, pin_block: pin } = request;
  return {
    terminal: request.terminal.serial_number,
    entry_mode: request.entry_mode,
    card: {
      brand: card.brand,
      first6_digits: card.first6_digits,
      last4_digits: card.last4_digits,
      ...(card.expiration !== undefined ? { expiration: card.expiration } : {}),
      ...(card.pan_sequence_number !== undefined ? { pan_sequence_number: card.pan_sequence_number } : {}),
    },
    cardholder_verification: request.cardholder_verification,
    ...(sealed?.method === 'dukpt_tdes_ecb'
      ? { encrypted_card_data: { ksn: sealed.ksn, payload: sealed.payload } }
      : {}),
    ...(pin !== undefined && pin.method !== 'mkwk' ? { pin_block: { ksn: pin.ksn, block: pin.block } } : {}),
    ...(request.emv_data !== undefined ? { emv_data: request.emv_data } : {}),
  };
}

export const TerminalAuthorizationResultV2 = Type.Object(
  {
    decision: Type.Union([Type.Literal('approved'), Type.Literal('declined')]),
    response_code: Type.String({
      description: 'The issuer\'s two-character response code ("00" approves; ABECS Normativo 21 codes on a decline).',
    }),
    response_message: Type.String(),
    decline_code: Nullable(
      Type.String({
        description:
          'A stable category of the decline (insufficient_funds, incorrect_pin, expired_card…); null when approved.',
      }),
    ),
    authorization_code: Nullable(Type.String()),
    nsu: Nullable(Type.String()),
    issuer_emv_data: Nullable(
      Hex(
        "BER-TLV for the chip's second GENERATE AC (ABECS FCX): 8A (the response code in ASCII), 91 (issuer authentication data) and issuer scripts 71/72 when the issuer sent them.",
      ),
    ),
    transaction: Transaction,
  },
  { title: 'TerminalAuthorizationResultV2' },
);
export type TerminalAuthorizationResultV2 = Static<typeof TerminalAuthorizationResultV2>;
