/** Buyer records: the view, creation, PATCH update, search and deletion. */
import { Type, type Static } from 'typebox';
import {
  Address,
  Cnpj,
  CNPJ_DESCRIPTION,
  Cpf,
  DateOnly,
  Deleted,
  Id,
  Metadata,
  Nullable,
  TimestampUtc,
} from './common.js';

export const Buyer = Type.Object(
  {
    id: Id,
    resource: Type.Literal('buyer'),
    first_name: Nullable(Type.String()),
    last_name: Nullable(Type.String()),
    email: Nullable(Type.String()),
    phone_number: Nullable(Type.String({ description: 'Digits only.' })),
    taxpayer_id: Type.Optional(Cpf),
    ein: Type.Optional(Cnpj),
    birthdate: Nullable(DateOnly),
    address: Nullable(Address),
    metadata: Type.Optional(Metadata),
    created_at: TimestampUtc,
    updated_at: TimestampUtc,
  },
  {
    title: 'Buyer',
    description:
      'A buyer. `taxpayer_id` is present for a person, `ein` for a company; `metadata` is `{}` when unset and absent in search results.',
  },
);
export type Buyer = Static<typeof Buyer>;

const Email = Type.String({ format: 'email', maxLength: 254, description: 'A valid e-mail address.' });
const PhoneNumber = Type.String({ pattern: '^[0-9]{8,15}$', description: 'Digits only.' });

/** POST /buyers: exactly one of taxpayer_id (CPF) or ein (CNPJ). */
export const BuyerCreateRequest = Type.Object(
  {
    first_name: Type.String({ minLength: 1, maxLength: 100 }),
    last_name: Type.Optional(Type.String({ maxLength: 100 })),
    email: Type.Optional(Email),
    phone_number: Type.Optional(PhoneNumber),
    taxpayer_id: Type.Optional(Cpf),
    ein: Type.Optional(Cnpj),
    birthdate: Type.Optional(DateOnly),
    address: Type.Optional(Address),
    metadata: Type.Optional(Metadata),
  },
  { title: 'BuyerCreateRequest', additionalProperties: false },
);
export type BuyerCreateRequest = Static<typeof BuyerCreateRequest>;

/**
 * PATCH /buyers/{id}: only the fields to change. `address` replaces the whole address and
 * `metadata` the whole metadata object; empty or null values remove data.
 */
export const BuyerUpdateRequest = Type.Object(
  {
    first_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    last_name: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
    email: Type.Optional(Nullable(Type.Union([Email, Type.Literal('')]))),
    phone_number: Type.Optional(Nullable(Type.Union([PhoneNumber, Type.Literal('')]))),
    birthdate: Type.Optional(Nullable(Type.Union([DateOnly, Type.Literal('')]))),
    address: Type.Optional(Nullable(Address)),
    metadata: Type.Optional(Nullable(Metadata)),
  },
  { title: 'BuyerUpdateRequest' },
);
export type BuyerUpdateRequest = Static<typeof BuyerUpdateRequest>;

/** Fields a PATCH may not carry (rule 1 of Update buyer). */
export const BUYER_IMMUTABLE_FIELDS = ['taxpayer_id', 'ein', 'id', 'resource', 'created_at', 'updated_at'] as const;
export const BUYER_UPDATABLE_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone_number',
  'birthdate',
  'address',
  'metadata',
] as const;

export const BuyerSearchQuery = Type.Object(
  {
    taxpayer_id: Type.Optional(Type.String({ description: 'CPF: 11 digits, digits only.' })),
    ein: Type.Optional(Type.String({ description: CNPJ_DESCRIPTION })),
  },
  { description: 'Exactly one of taxpayer_id or ein.' },
);
export type BuyerSearchQuery = Static<typeof BuyerSearchQuery>;

export const BuyerDeleted = Deleted('buyer');
export type BuyerDeleted = Static<typeof BuyerDeleted>;
