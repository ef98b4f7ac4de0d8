/**
 * What a receipt says about the store, as one TypeBox schema (validation, type and documentation
 * together): the merchant's name, CNPJ and address that the card rules ask every receipt to show
 * (anchors §6.3), the acquirer's CNPJ for the NFC-e payment group, the store's time zone.
 *
 * A CNPJ here is numeric or alphanumeric (a store registered since July 2026 has one:
 * 12ABC34501DE35, printed 12.ABC.345/01DE-35), written as the API takes it: uppercase, without
 * punctuation (the window removes what the cashier types around it). Its check digits are
 * `receiptSettingsViolations`'s: a receipt must not print a mistyped CNPJ.
 */
import { Type, type Static } from 'typebox';
import { CNPJ_PATTERN, isValidCnpj } from '../validation/taxpayer-id.js';
import { isTimeZone } from '../locale/store-time.js';
import { SETTINGS_FIELDS } from '../core/settings-fields.js';
import { settingsViolation, type SettingsViolation } from '../core/settings-violations.js';

export const ReceiptSettings = Type.Object(
  {
    merchant: Type.Object(
      {
        // Shown in the window: declared, with their texts, in main/core/settings-fields.ts.
        name: SETTINGS_FIELDS['receipts.merchant.name'].schema,
        cnpj: SETTINGS_FIELDS['receipts.merchant.cnpj'].schema,
        address: SETTINGS_FIELDS['receipts.merchant.address'].schema,
      },
      { additionalProperties: false },
    ),
    acquirer: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(
            Type.String({
              minLength: 1,
              maxLength: 64,
              description: 'Printed when the API does not name the acquirer.',
            }),
          ),
          cnpj: Type.Optional(
            Type.String({
              pattern: CNPJ_PATTERN,
              description:
                "The acquirer's (or sub-acquirer's) CNPJ, for the NFC-e payment group: numeric or alphanumeric, as the store's.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    time_zone: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "IANA time zone of the store's clock (receipts, the window, today's sales), e.g. America/Manaus. Default: the computer's zone when it is a Brazilian one, else America/Sao_Paulo.",
      }),
    ),
    footer: Type.Optional(Type.String({ maxLength: 200, description: 'A closing line of the customer copy.' })),
  },
  { additionalProperties: false, title: 'ReceiptSettings' },
);
export type ReceiptSettings = Static<typeof ReceiptSettings>;

/**
 * What the schema cannot say: each CNPJ's check digits, and whether the time zone exists. Fields are named within the receipts
 * settings ("merchant.cnpj"); the message is a sentence for the field.
 */
export function receiptSettingsViolations(settings: ReceiptSettings): SettingsViolation[] {
  const violations: SettingsViolation[] = [];
  const cnpjs: [string, string | undefined][] = [
    ['merchant.cnpj', settings.merchant.cnpj],
    ['acquirer.cnpj', settings.acquirer?.cnpj],
  ];
  for (const [field, cnpj] of cnpjs) {
    if (cnpj !== undefined && !isValidCnpj(cnpj))
      violations.push(
        settingsViolation(field, 'INVALID_CNPJ_CHECK_DIGITS', 'is not a valid CNPJ (check digits do not match)'),
      );
  }
  if (settings.time_zone !== undefined && !isTimeZone(settings.time_zone)) {
    violations.push(
      settingsViolation(
        'time_zone',
        'INVALID_TIME_ZONE',
        'is not an IANA time zone (for example America/Sao_Paulo or America/Manaus)',
      ),
    );
  }
  return violations;
}

/** Training mode's store: every receipt it prints also says TREINAMENTO. */
export const TRAINING_RECEIPT_SETTINGS: ReceiptSettings = {
  merchant: {
    name: 'LOJA DE TREINAMENTO',
    cnpj: '11222333000181',
    address: ['Rua do Exemplo, 100 - Centro', 'São Paulo - SP'],
  },
};
