/**
 * Building blocks of the payments API contract (`shared/payments-api.md`): ids, tax ids,
 * dates, addresses, metadata, list envelopes and the error bodies. One schema source gives the
 * sandbox its validation and OpenAPI document and the client its types.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { CNPJ_PATTERN } from '../validation/taxpayer-id.js';

/** "32 hexadecimal characters" (ids of buyers, bank accounts, sellers, transactions). */
export const ID_PATTERN = '^[0-9a-fA-F]{32}$';
export const Id = Type.String({ pattern: ID_PATTERN, description: '32 hexadecimal characters.' });

/** CPF as the contract takes it: 11 digits, digits only. */
export const Cpf = Type.String({ pattern: '^[0-9]{11}$', description: 'CPF: 11 digits, digits only.' });
/** What a CNPJ is, where the API takes or answers one. */
export const CNPJ_DESCRIPTION =
  'CNPJ: 14 characters, no punctuation: 12 digits or uppercase letters A-Z (root and order), then 2 numeric check digits. ' +
  'The alphanumeric CNPJ (IN RFB 2.229/2024, issued from July 2026, e.g. 12ABC34501DE35) is taken although the contract ' +
  'says "14 digits, digits only"; a numeric CNPJ is as before.';
/**
 * CNPJ as the API takes it: the contract's "14 digits, digits only", widened to the alphanumeric
 * CNPJ the law brought in (a store or buyer registered since July 2026 has one); check digits
 * are `taxIdViolation`'s.
 */
export const Cnpj = Type.String({ pattern: CNPJ_PATTERN, description: CNPJ_DESCRIPTION });

export const DateOnly = Type.String({
  pattern: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
  description: 'A calendar date, YYYY-MM-DD.',
});

/** Buyer timestamps: ISO 8601 UTC with the `Z` suffix, e.g. 2026-11-21T13:05:09.123Z. */
export const TimestampUtc = Type.String({ description: 'ISO 8601 UTC timestamp with the Z suffix.' });
/** Bank account and transaction timestamps: ISO 8601 with a numeric offset, e.g. 2026-11-21T10:05:09-03:00. */
export const TimestampOffset = Type.String({ description: 'ISO 8601 timestamp with a numeric UTC offset (+00:00).' });

/**
 * A provider's timestamp in ms since the epoch: ISO 8601, or the service family's
 * "YYYY-MM-DD HH:mm:ss" (UTC, no zone); NaN when it is neither.
 */
export function serviceTimeMs(text: string): number {
  return Date.parse(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(text) ? `${text.replace(' ', 'T')}Z` : text);
}

/** A record's created_at in ms (serviceTimeMs); one that does not parse counts as the newest. */
export function createdAtMs(record: { readonly created_at: string }): number {
  const parsed = serviceTimeMs(record.created_at);
  return Number.isNaN(parsed) ? Number.POSITIVE_INFINITY : parsed;
}

/**
 * `T` or null. A schema with one JSON type becomes `type: [T, "null"]` rather than
 * `anyOf: [T, {type: "null"}]`: the same meaning, but fast-json-stringify serializes it without
 * running a validator per field on every response.
 */
export const Nullable = <T extends TSchema>(schema: T) => {
  const type = (schema as { type?: unknown }).type;
  return typeof type === 'string'
    ? Type.Unsafe<Static<T> | null>({ ...schema, type: [type, 'null'] })
    : Type.Union([schema, Type.Null()]);
};

/**
 * Free-form key/value data. Values are kept as sent. Written as `additionalProperties: true`
 * (OpenAPI's own words for "any keys, any JSON values") rather than a record of an empty schema,
 * which documents read as a schema nobody filled in.
 */
export const Metadata = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  description: 'Free-form custom key/value data: any keys, any JSON values, kept as sent.',
});

export const Address = Type.Object(
  {
    line1: Type.Optional(Type.String({ description: 'Street and number.' })),
    line2: Type.Optional(Nullable(Type.String({ description: 'Complement.' }))),
    line3: Type.Optional(Nullable(Type.String())),
    neighborhood: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    state: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Two-letter state code.' })),
    postal_code: Type.Optional(Type.String({ pattern: '^[0-9]{8}$', description: 'CEP: 8 digits.' })),
    country_code: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Two-letter country code.' })),
  },
  { additionalProperties: false, title: 'Address' },
);
export type Address = Static<typeof Address>;

/** Paging query of list endpoints (limit default and maximum 100, as the service family documents). */
export const LIST_LIMIT_MAX = 100;
export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_MAX })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});
export type ListQuery = Static<typeof ListQuery>;

export const ListEnvelope = <T extends TSchema>(item: T, description: string) =>
  Type.Object(
    {
      resource: Type.Literal('list'),
      uri: Type.String({ description: 'Path of the request.' }),
      items: Type.Array(item),
      has_more: Type.Boolean(),
      limit: Type.Integer(),
      offset: Type.Integer(),
      total: Type.Integer(),
    },
    { description },
  );
export interface ListEnvelope<T> {
  resource: 'list';
  uri: string;
  items: T[];
  has_more: boolean;
  limit: number;
  offset: number;
  total: number;
}

/** The answer to a DELETE: `{id, resource, deleted: true}`. */
export const Deleted = <R extends string>(resource: R) =>
  Type.Object({
    id: Type.String(),
    resource: Type.Literal(resource),
    deleted: Type.Literal(true),
    deleted_at: Type.Optional(TimestampUtc),
  });

/** Error body shape A (buyers, transactions): status / detail / trace_id. */
export const ErrorA = Type.Object(
  {
    status: Type.Integer({ description: 'HTTP status.' }),
    detail: Type.String({ description: 'Human-readable reason.' }),
    trace_id: Type.String({ description: 'Correlation id.' }),
  },
  {
    title: 'ErrorA',
    description: 'Error shape A (buyers, transactions, terminal channel, webhooks, sandbox helpers).',
  },
);
export type ErrorA = Static<typeof ErrorA>;

/**
 * A 401 in shape A: the contract's Authentication section names the 401's type `unauthorized`,
 * and shape A has no field for it, so the type rides beside status/detail/trace_id (as RFC 7807,
 * which this shape comes from, carries a `type`). A reader of plain shape A loses nothing.
 */
export const ErrorAUnauthorized = Type.Object(
  {
    status: Type.Unsafe<401>({ type: 'integer', const: 401, description: 'HTTP status: 401.' }),
    type: Type.Literal('unauthorized'),
    detail: Type.String({
      description: 'Human-readable reason: the header missing or malformed, the token unknown or expired.',
    }),
    trace_id: Type.String({ description: 'Correlation id.' }),
  },
  {
    title: 'ErrorAUnauthorized',
    description: 'A 401 in error shape A (every family but bank accounts): a missing, invalid or expired token.',
  },
);
export type ErrorAUnauthorized = Static<typeof ErrorAUnauthorized>;

export const ErrorBType = Type.Union([
  Type.Literal('not_found'),
  Type.Literal('validation_error'),
  Type.Literal('unauthorized'),
  Type.Literal('conflict'),
  Type.Literal('payload_too_large'),
  Type.Literal('rate_limited'),
  Type.Literal('server_error'),
]);

/** Error body shape B (bank accounts, their 401 included): status_code / type / message. */
export const ErrorB = Type.Object(
  {
    status_code: Type.Integer({ description: 'HTTP status.' }),
    type: ErrorBType,
    message: Type.String({ description: 'Human-readable reason.' }),
  },
  { title: 'ErrorB', description: 'Error shape B (bank accounts).' },
);
export type ErrorB = Static<typeof ErrorB>;

/**
 * A money amount as a response may carry it: integer centavos (the contract) or a decimal
 * string in reais ("30.00", as the service family's responses do). The client always exposes
 * integer centavos.
 */
export const WireAmount = Type.Union([
  Type.Integer({ description: 'Centavos.' }),
  Type.String({ pattern: '^-?[0-9]+(\\.[0-9]{1,2})?$', description: 'Reais as a decimal string, e.g. "30.00".' }),
]);
export type WireAmount = Static<typeof WireAmount>;
