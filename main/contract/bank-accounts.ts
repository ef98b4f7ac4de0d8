/** Bank accounts of sellers: detail view, list view, creation and deletion. */
import { Type, type Static } from 'typebox';
import { Cnpj, Cpf, Deleted, Id, ListEnvelope, Nullable, TimestampOffset } from './common.js';

/** bank_code → bank_name for the codes the contract names. */
export const BANK_NAMES: Readonly<Record<string, string>> = {
  '001': 'Banco do Brasil S.A.',
  '033': 'Banco Santander (Brasil) S.A.',
  '104': 'Caixa Econômica Federal',
  '237': 'Banco Bradesco S.A.',
  '341': 'Itaú Unibanco S.A.',
  '748': 'Banco Cooperativo Sicredi S.A.',
  '756': 'Banco Cooperativo do Brasil S.A. - Bancoob (Sicoob)',
};

export const BankAccountType = Type.Union([Type.Literal('checking'), Type.Literal('savings')]);
export type BankAccountType = Static<typeof BankAccountType>;

export const BankAccount = Type.Object(
  {
    id: Id,
    resource: Type.Literal('bank_account'),
    holder_name: Type.String(),
    taxpayer_id: Type.Optional(
      Type.Union([Cpf, Cnpj], { description: 'Present when that document was the one used.' }),
    ),
    bank_code: Type.String({ pattern: '^[0-9]{3}$' }),
    bank_name: Nullable(Type.String()),
    type: BankAccountType,
    last4_digits: Type.String(),
    account_number: Type.String({ description: 'Partly masked; never the full number.' }),
    routing_number: Type.String({ description: 'Branch number.' }),
    is_active: Type.Boolean(),
    is_verified: Type.Boolean(),
    customer: Id,
    uri: Type.String(),
    created_at: TimestampOffset,
    updated_at: TimestampOffset,
  },
  { title: 'BankAccount', description: 'Bank account, detail view.' },
);
export type BankAccount = Static<typeof BankAccount>;

export const BankAccountListItem = Type.Object(
  {
    id: Id,
    resource: Type.Literal('bank_account'),
    holder_name: Type.String(),
    bank_code: Type.String(),
    bank_name: Nullable(Type.String()),
    type: BankAccountType,
    last4_digits: Type.String(),
    routing_number: Type.String(),
    is_verified: Type.Boolean(),
    created_at: TimestampOffset,
  },
  { title: 'BankAccountListItem', description: 'Bank account, list view.' },
);
export type BankAccountListItem = Static<typeof BankAccountListItem>;

export const BankAccountList = ListEnvelope(BankAccountListItem, 'The bank accounts of one seller.');

/** POST /bank_accounts: exactly one of taxpayer_id or ein. */
export const BankAccountCreateRequest = Type.Object(
  {
    customer: Id,
    holder_name: Type.String({ minLength: 1, maxLength: 100 }),
    taxpayer_id: Type.Optional(Cpf),
    ein: Type.Optional(Cnpj),
    bank_code: Type.String({ pattern: '^[0-9]{3}$' }),
    type: BankAccountType,
    account_number: Type.String({ pattern: '^[0-9]{1,20}(-?[0-9Xx])?$' }),
    routing_number: Type.String({ pattern: '^[0-9]{1,5}(-?[0-9Xx])?$' }),
  },
  { title: 'BankAccountCreateRequest', additionalProperties: false },
);
export type BankAccountCreateRequest = Static<typeof BankAccountCreateRequest>;

export const BankAccountDeleted = Deleted('bank_account');
export type BankAccountDeleted = Static<typeof BankAccountDeleted>;
