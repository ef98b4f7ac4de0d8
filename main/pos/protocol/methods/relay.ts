/**
 * Relays of the payments API with Pinbridge's credentials and seller (handlers in
 * main/pos/server/handlers/relay.ts): buyers, bank accounts, boletos and bolepix, tap to pay.
 * Assembled with the others into METHODS by ../methods.ts (see there for `access` and `cost`).
 */
import { Type } from 'typebox';
import {
  BillingInstructions,
  BoletoCancellation,
  BoletoPayer,
  BolepixPaymentMethod,
} from '../../../contract/transactions.js';
import { BuyerUpdateRequest } from '../../../contract/buyers.js';
import { Address } from '../../../contract/common.js';
import { CNPJ_PATTERN } from '../../../validation/taxpayer-id.js';
import {
  DESCRIPTION_MAX,
  INSTALLMENTS_MAX,
  INSTALLMENTS_MIN,
  NOTIFICATION_MAX_TAP_TO_PAY,
  REFERENCE_ID_MAX,
} from '../../../contract/index.js';
import { BankAccount, BankAccountListItem, Buyer, PrintJobView, RelayTransaction } from '../models.js';
import { method, Terminal, Seconds } from '../method-spec.js';

const ApiId = (name: string) =>
  Type.String({ pattern: '^[0-9a-fA-F]{32}$', description: `The ${name}: 32 hexadecimal characters.` });

const BoletoBody = {
  customer: ApiId('buyer (customer) id'),
  amount: Type.Integer({ minimum: 1, description: 'Centavos, an integer > 0.' }),
  description: Type.String({ minLength: 1, maxLength: DESCRIPTION_MAX }),
  reference_id: Type.String({
    minLength: 1,
    maxLength: REFERENCE_ID_MAX,
    description: 'The POS’s id: repeating it returns the same boleto.',
  }),
  metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  print: Type.Optional(
    Type.Boolean({ description: 'Also print the slip (digitable line, barcode, Pix QR) on the receipt printer.' }),
  ),
};

export const RELAY_METHODS = {
  'buyer.get': method({
    tag: 'relay',
    access: 'client',
    cost: 2,
    summary: 'A buyer by id.',
    params: Type.Object({ buyer_id: ApiId('buyer id') }, { additionalProperties: false }),
    result: Buyer,
  }),
  'buyer.update': method({
    tag: 'relay',
    access: 'client',
    cost: 5,
    summary: "Changes a buyer's name, e-mail, phone, birth date, address or metadata (never the CPF/CNPJ).",
    params: Type.Object(
      {
        buyer_id: ApiId('buyer id'),
        // Closed here: the POS may not send fields the API would refuse (the CPF/CNPJ cannot change).
        changes: Type.Object(BuyerUpdateRequest.properties, { additionalProperties: false }),
      },
      { additionalProperties: false },
    ),
    result: Buyer,
  }),
  'buyer.search': method({
    tag: 'relay',
    access: 'client',
    cost: 5,
    waits: 'customer',
    summary:
      'Finds a buyer by CPF or CNPJ (numeric or alphanumeric) — given, or typed by the customer on the PINPAD (`from_pinpad`: digits only).',
    description:
      'Exactly one of taxpayer_id, ein or from_pinpad. No such buyer is API_NOT_FOUND. With from_pinpad, a CPF/CNPJ typed with wrong ' +
      'check digits (a typo) is not the POS\'s mistake: the PINPAD shows "CPF INVALIDO / DIGITE NOVAMENTE" (or CNPJ) and asks again ' +
      '("REDIGITE O CPF"), 3 attempts in all; then CUSTOMER_DATA_INVALID. CANCEL on the PINPAD is PINPAD_CANCELLED.',
    params: Type.Object(
      {
        taxpayer_id: Type.Optional(Type.String({ pattern: '^[0-9]{11}$', description: 'CPF, 11 digits.' })),
        ein: Type.Optional(
          Type.String({
            pattern: CNPJ_PATTERN,
            description:
              'CNPJ, 14 characters without punctuation: 14 digits, or the alphanumeric CNPJ in uppercase (12ABC34501DE35).',
          }),
        ),
        from_pinpad: Type.Optional(
          Type.Union([Type.Literal('cpf'), Type.Literal('cnpj')], {
            description:
              'The customer types it on the PINPAD. Its keypad has digits only: a company with an alphanumeric CNPJ is searched with `ein`.',
          }),
        ),
        terminal: Terminal,
        timeout_s: Seconds,
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        buyer: Buyer,
        searched: Type.Object({ taxpayer_id: Type.Optional(Type.String()), ein: Type.Optional(Type.String()) }),
      },
      { additionalProperties: false },
    ),
  }),
  'bankAccount.get': method({
    tag: 'relay',
    access: 'client',
    cost: 2,
    summary: 'One of the seller’s bank accounts.',
    params: Type.Object({ bank_account_id: ApiId('bank account id') }, { additionalProperties: false }),
    result: BankAccount,
  }),
  'bankAccount.list': method({
    tag: 'relay',
    access: 'client',
    cost: 2,
    summary: "One page of the seller's bank accounts (list view), in the payments API's list envelope.",
    description:
      'Page with limit (accounts per page, 1–100; the API answers 100 when not given) and offset (how many to skip); ' +
      'has_more says whether another page follows, total how many accounts the seller has.',
    params: Type.Object(
      {
        limit: Type.Optional(
          Type.Integer({ minimum: 1, maximum: 100, description: 'Accounts per page (1–100; 100 when not given).' }),
        ),
        offset: Type.Optional(
          Type.Integer({ minimum: 0, description: 'How many accounts to skip (0 when not given).' }),
        ),
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      {
        resource: Type.Literal('list'),
        uri: Type.String({ description: "The payments API's path of the request." }),
        items: Type.Array(BankAccountListItem),
        has_more: Type.Boolean({ description: 'Whether more accounts follow this page.' }),
        limit: Type.Integer({ description: 'Accounts per page.' }),
        offset: Type.Integer({ description: 'The offset of this page.' }),
        total: Type.Integer({ description: 'How many accounts the seller has.' }),
      },
      { additionalProperties: false, title: 'BankAccountList' },
    ),
  }),
  'boleto.create': method({
    tag: 'relay',
    access: 'client',
    cost: 10,
    summary: 'Issues a boleto for the seller (idempotent by reference_id); `print` prints its slip.',
    params: Type.Object(
      {
        ...BoletoBody,
        expiration_date: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })),
        payment_limit_date: Type.Optional(Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' })),
        body_instructions: Type.Optional(Type.Array(Type.String({ maxLength: 80 }), { maxItems: 4 })),
        billing_instructions: Type.Optional(
          Type.Object(BillingInstructions.properties, {
            additionalProperties: false,
            description:
              'Late fee (late_fee: FIXED amount in centavos or PERCENTAGE, from start_date), interest (interest: DAILY_AMOUNT in centavos, ' +
              'DAILY_PERCENTAGE or MONTHLY_PERCENTAGE, from start_date) and up to 3 discounts (discount: FIXED or PERCENTAGE, until limit_date). ' +
              'Sent as payment_method.billing_instructions.',
          }),
        ),
        buyer: Type.Optional(
          Type.Object(
            {
              ...BoletoPayer.properties,
              // The buyer record's address is nullable under the same title; the documents need one name per shape.
              address: Type.Optional(
                Type.Object(Address.properties, {
                  additionalProperties: false,
                  title: 'PayerAddress',
                  description: 'The payer’s address.',
                }),
              ),
            },
            {
              additionalProperties: false,
              description:
                'The payer given inline (name, CPF or CNPJ, e-mail, phone, birth date, address): overrides `customer` on the slip. Sent as payment_method.buyer.',
            },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      { transaction: RelayTransaction, print_jobs: Type.Array(PrintJobView) },
      { additionalProperties: false },
    ),
  }),
  'bolepix.create': method({
    tag: 'relay',
    access: 'client',
    cost: 10,
    summary:
      'Issues a bolepix (a boleto that can also be paid by Pix) for the seller; `print` prints its slip with the QR code.',
    params: Type.Object(
      { ...BoletoBody, payment_method: Type.Optional(BolepixPaymentMethod) },
      { additionalProperties: false },
    ),
    result: Type.Object(
      { transaction: RelayTransaction, print_jobs: Type.Array(PrintJobView) },
      { additionalProperties: false },
    ),
  }),
  'boleto.cancel': method({
    tag: 'relay',
    access: 'client',
    cost: 5,
    summary: 'Asks to cancel a boleto or bolepix: REQUESTED (applied shortly) or IGNORED (already paid).',
    params: Type.Object({ transaction_id: ApiId('transaction id') }, { additionalProperties: false }),
    result: BoletoCancellation,
  }),
  'tapToPay.create': method({
    tag: 'relay',
    access: 'client',
    cost: 10,
    summary:
      "Pushes a charge to a seller's phone (tap to pay); a tapToPay.updated event follows when the phone completes it.",
    params: Type.Object(
      {
        terminal: Type.String({ minLength: 1, maxLength: 64, description: 'Id of the phone (NFC device).' }),
        payment_type: Type.Union([Type.Literal('credit'), Type.Literal('debit')]),
        amount: Type.Integer({ minimum: 1, description: 'Centavos.' }),
        description: Type.String({ minLength: 1, maxLength: DESCRIPTION_MAX }),
        reference_id: Type.String({ minLength: 1, maxLength: REFERENCE_ID_MAX }),
        notification: Type.Optional(Type.String({ maxLength: NOTIFICATION_MAX_TAP_TO_PAY })),
        installments: Type.Optional(Type.Integer({ minimum: INSTALLMENTS_MIN, maximum: INSTALLMENTS_MAX })),
      },
      { additionalProperties: false },
    ),
    result: RelayTransaction,
  }),
  'tapToPay.status': method({
    tag: 'relay',
    access: 'client',
    cost: 2,
    summary: 'A tap-to-pay charge as the payments API has it now.',
    params: Type.Object({ transaction_id: ApiId('transaction id') }, { additionalProperties: false }),
    result: RelayTransaction,
  }),
} as const;
