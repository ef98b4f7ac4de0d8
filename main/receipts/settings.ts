/**
 * What a receipt says about the store, as one TypeBox schema (validation, type and documentation
 * together): the merchant's name, CNPJ and address that the card rules ask every receipt to show
 * (anchors §6.3), the acquirer's CNPJ for the NFC-e payment group, the store's time zone.
 */
import { Type, type Static } from 'typebox';

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

export const ReceiptSettings = Type.Object(
  {
    merchant: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 96, description: 'Business name as printed on the receipt.' }),
        cnpj: Type.String({ pattern: '^[0-9]{14}$', description: "The store's CNPJ, 14 digits." }),
        address: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 96 }), { maxItems: 4, description: 'Address lines, printed as given.' })),
      },
      { additionalProperties: false },
    ),
    acquirer: Type.Optional(
      Type.Object(
        {
          name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Printed when the API does not name the acquirer.' })),
          cnpj: Type.Optional(Type.String({ pattern: '^[0-9]{14}$', description: "The acquirer's (or sub-acquirer's) CNPJ, for the NFC-e payment group." })),
        },
        { additionalProperties: false },
      ),
    ),
    time_zone: Type.Optional(Type.String({ minLength: 1, description: `IANA time zone of the store's clock on receipts (default ${DEFAULT_TIME_ZONE}).` })),
    footer: Type.Optional(Type.String({ maxLength: 200, description: 'A closing line of the customer copy.' })),
  },
  { additionalProperties: false, title: 'ReceiptSettings' },
);
export type ReceiptSettings = Static<typeof ReceiptSettings>;

/** Training mode's store: every receipt it prints also says TREINAMENTO. */
export const TRAINING_RECEIPT_SETTINGS: ReceiptSettings = {
  merchant: { name: 'LOJA DE TREINAMENTO', cnpj: '11222333000181', address: ['Rua do Exemplo, 100 - Centro', 'São Paulo - SP'] },
};
