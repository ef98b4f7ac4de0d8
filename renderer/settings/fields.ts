/**
 * The controls of the settings form and where each one's value lives in the file; and, for a
 * mistake the agent names by its path in the file, the control it belongs to.
 */
import { SUPERVISOR_TARGETS } from './supervisor.js';

/** A text input and where its value lives in the file. */
export interface TextField {
  readonly id: string;
  readonly path: readonly string[];
  /** What is compared and saved: the CNPJ without its dots, slash, dash and spaces, in uppercase. */
  readonly normalize?: (value: string) => string;
}

export const PINPAD_ADDRESS_ID = 'settings-pinpad-address';
export const PRINTER_ADDRESS_ID = 'settings-printer-address';

export const TEXT_FIELDS: readonly TextField[] = [
  { id: 'settings-api-base-url', path: ['api', 'base_url'] },
  { id: 'settings-api-marketplace-id', path: ['api', 'marketplace_id'] },
  { id: 'settings-api-seller-id', path: ['api', 'seller_id'] },
  { id: PINPAD_ADDRESS_ID, path: ['pinpad', 'address'] },
  { id: 'settings-merchant-name', path: ['receipts', 'merchant', 'name'] },
  { id: 'settings-merchant-cnpj', path: ['receipts', 'merchant', 'cnpj'], normalize: normalizeCnpj },
  { id: PRINTER_ADDRESS_ID, path: ['printers', 'default', 'address'] },
];

/**
 * The CNPJ as the cashier types or pastes it, as the settings file keeps it: "12.abc.345/01de-35"
 * → "12ABC34501DE35" (an alphanumeric CNPJ has letters). Only the mask and spaces are dropped and
 * only a–z uppercased (as main/validation/taxpayer-id.ts normalizes); anything else stays for
 * the agent to refuse next to the field.
 */
function normalizeCnpj(value: string): string {
  return value.replace(/[.\-/\s]/g, '').replace(/[a-z]/g, (letter) => letter.toUpperCase());
}

export const ADDRESS_PATH = ['receipts', 'merchant', 'address'] as const;
export const ADDRESS_LINES = 4;
export const addressLineId = (index: number): string => `settings-merchant-address-${index}`;
export const CONFIRMATION_TARGET = 'settings-confirmation';
export const TRAINING_ID = 'settings-training';

/** Every control a mistake can be shown at (each has a `${id}-error` beside it). */
export const ERROR_TARGETS: readonly string[] = [
  ...TEXT_FIELDS.map((field) => field.id),
  ...Array.from({ length: ADDRESS_LINES }, (_, index) => addressLineId(index)),
  CONFIRMATION_TARGET,
  TRAINING_ID,
  ...new Set(Object.values(SUPERVISOR_TARGETS)),
];

/**
 * Which control a mistake belongs to, by the field's path in the file: the exact field, else the
 * control that stands for the section the mistake names (a missing `receipts.merchant` is the
 * store's name). A mistake elsewhere in the file (a key this page does not edit) has none.
 */
export function targetOf(path: string): string | null {
  const exact = TEXT_FIELDS.find((field) => field.path.join('.') === path);
  if (exact !== undefined) return exact.id;
  const line = /^receipts\.merchant\.address\.(\d+)$/.exec(path)?.[1];
  if (line !== undefined) return addressLineId(Math.min(Number(line), ADDRESS_LINES - 1));
  const sections: Readonly<Record<string, string>> = {
    confirmation: CONFIRMATION_TARGET,
    training: TRAINING_ID,
    api: 'settings-api-base-url',
    'api.client_certificate': 'settings-cert-passphrase',
    pinpad: PINPAD_ADDRESS_ID,
    receipts: 'settings-merchant-name',
    'receipts.merchant': 'settings-merchant-name',
    'receipts.merchant.address': addressLineId(0),
    printers: PRINTER_ADDRESS_ID,
    'printers.default': PRINTER_ADDRESS_ID,
    ...SUPERVISOR_TARGETS,
  };
  return sections[path] ?? null;
}
