/**
 * The PINPAD methods (handlers in main/pos/server/handlers/pinpad.ts): list, status, show text, read
 * what the customer types.
 * Assembled with the others into METHODS by ../methods.ts (see there for `access` and `cost`).
 */
import { Literals } from '../literals.js';
import { Type } from 'typebox';
import { PinpadView } from '../models.js';
import { method, NoParams, Empty, Terminal, Seconds } from '../method-spec.js';

/**
 * What the customer may type on the PINPAD for the POS. Card data (the last digits, the security
 * code) is deliberately absent: it must never leave Pinbridge.
 */
export const CUSTOMER_DATA_FOR_POS = ['cpf', 'cnpj', 'phone', 'areaCodeAndPhone', 'rg', 'birthDateDdmmyyyy'] as const;

export type CustomerDataForPos = (typeof CUSTOMER_DATA_FOR_POS)[number];

export const PINPAD_KEYS = ['enter', 'cancel', 'clear', 'f1', 'f2', 'f3', 'f4', 'up', 'down'] as const;

export const PINPAD_METHODS = {
  'pinpad.list': method({
    tag: 'pinpad',
    access: 'client',
    cost: 1,
    summary: 'The PINPADs Pinbridge knows, connected or not.',
    params: NoParams,
    result: Type.Object({ pinpads: Type.Array(PinpadView) }, { additionalProperties: false }),
  }),
  'pinpad.status': method({
    tag: 'pinpad',
    access: 'client',
    cost: 1,
    summary: 'One PINPAD: connected, busy, which payment.',
    params: Type.Object({ terminal: Terminal }, { additionalProperties: false }),
    result: PinpadView,
  }),
  'pinpad.display': method({
    tag: 'pinpad',
    access: 'client',
    cost: 5,
    summary: 'Shows a message on the idle PINPAD (≤ 32 characters: two lines of 16, split at "\\n" or after 16).',
    params: Type.Object(
      {
        terminal: Terminal,
        text: Type.String({
          minLength: 1,
          maxLength: 33,
          description: '≤ 32 characters plus an optional "\\n" between the lines.',
        }),
      },
      { additionalProperties: false },
    ),
    result: Empty,
  }),
  'pinpad.readCustomerData': method({
    tag: 'pinpad',
    access: 'client',
    cost: 10,
    waits: 'customer',
    summary: 'Asks the customer to type a CPF, CNPJ, phone… on the PINPAD keypad; returns the digits.',
    description:
      'Never card data: the last digits and the security code are not offered. CANCEL on the PINPAD is PINPAD_CANCELLED.',
    params: Type.Object(
      {
        terminal: Terminal,
        kind: Literals(CUSTOMER_DATA_FOR_POS),
        timeout_s: Seconds,
      },
      { additionalProperties: false },
    ),
    result: Type.Object(
      { kind: Type.String(), value: Type.String({ description: 'Digits only.' }) },
      { additionalProperties: false },
    ),
  }),
  'pinpad.readKey': method({
    tag: 'pinpad',
    access: 'client',
    cost: 10,
    waits: 'customer',
    summary:
      'Waits for the customer to press a function key (ENTRA, ANULA, LIMPA, F1–F4, arrows), with an optional prompt.',
    params: Type.Object(
      {
        terminal: Terminal,
        prompt: Type.Optional(Type.String({ minLength: 1, maxLength: 33 })),
        timeout_s: Seconds,
      },
      { additionalProperties: false },
    ),
    result: Type.Object({ key: Literals(PINPAD_KEYS) }, { additionalProperties: false }),
  }),
  'pinpad.abort': method({
    tag: 'pinpad',
    access: 'client',
    cost: 2,
    summary: 'Stops a pinpad.readKey or pinpad.readCustomerData in progress (not a payment: use payment.cancel).',
    params: Type.Object({ terminal: Terminal }, { additionalProperties: false }),
    result: Type.Object({ aborted: Type.Boolean() }, { additionalProperties: false }),
  }),
} as const;
