/**
 * The settings the window shows, as their declarations say: what the page needs to fill, read and save
 * each control and to name its mistakes. The controls are index.html's (between the settings-fields
 * markers), their texts i18n/setting-texts.ts's.
 * Generated from main/core/settings-fields.ts by `npm run docs:settings` (scripts/settings-window.ts):
 * edit the declarations, not this file.
 */
import type { MessageKey } from '../i18n/pt-br.js';

/** A setting the window shows. */
export interface DeclaredField {
  /** Its dotted key in the settings file, and that key's path. */
  readonly key: string;
  readonly path: readonly string[];
  /** The card it is in (main/core/settings-fields.ts's WINDOW_SECTIONS). */
  readonly section: string;
  readonly label: MessageKey;
  /** The window's own sentence for its mistakes, said instead of the agent's (a value typed otherwise than the file keeps it). */
  readonly mistake?: MessageKey;
  /** The code the agent refuses its values with, whose sentence the window says next to it. */
  readonly code?: string;
  /** What the agent does when the file leaves it out. */
  readonly default?: string | number | boolean;
  readonly control:
    | { readonly kind: 'text'; readonly id: string; readonly value: 'text' | 'cnpj' | 'centavos' }
    | {
        readonly kind: 'lines';
        readonly id: string;
        readonly lines: readonly { readonly id: string; readonly label: MessageKey }[];
      }
    | { readonly kind: 'switch'; readonly id: string; readonly on: string | boolean; readonly off: string | boolean }
    | { readonly kind: 'choice'; readonly id: string; readonly options: readonly string[] };
}

export const DECLARED_FIELDS: readonly DeclaredField[] = [
  {
    key: 'api.base_url',
    path: ['api', 'base_url'],
    section: 'api',
    label: 'setting.api.base_url',
    code: 'INVALID_URL',
    control: { kind: 'text', id: 'settings-api-base-url', value: 'text' },
  },
  {
    key: 'api.marketplace_id',
    path: ['api', 'marketplace_id'],
    section: 'api',
    label: 'setting.api.marketplace_id',
    control: { kind: 'text', id: 'settings-api-marketplace-id', value: 'text' },
  },
  {
    key: 'api.seller_id',
    path: ['api', 'seller_id'],
    section: 'api',
    label: 'setting.api.seller_id',
    control: { kind: 'text', id: 'settings-api-seller-id', value: 'text' },
  },
  {
    key: 'pinpad.address',
    path: ['pinpad', 'address'],
    section: 'pinpad',
    label: 'setting.pinpad.address',
    code: 'INVALID_PINPAD_ADDRESS',
    control: { kind: 'text', id: 'settings-pinpad-address', value: 'text' },
  },
  {
    key: 'confirmation',
    path: ['confirmation'],
    section: 'sales',
    label: 'setting.confirmation',
    code: 'INVALID_CHOICE',
    default: 'auto',
    control: { kind: 'choice', id: 'settings-confirmation', options: ['auto', 'pos'] },
  },
  {
    key: 'training',
    path: ['training'],
    section: 'sales',
    label: 'setting.training',
    default: false,
    control: { kind: 'switch', id: 'settings-training', on: true, off: false },
  },
  {
    key: 'supervisor.required_for',
    path: ['supervisor', 'required_for'],
    section: 'supervisor',
    label: 'setting.supervisor.required_for',
    default: 'none',
    control: { kind: 'switch', id: 'settings-supervisor-required', on: 'voids', off: 'none' },
  },
  {
    key: 'supervisor.min_amount_centavos',
    path: ['supervisor', 'min_amount_centavos'],
    section: 'supervisor',
    label: 'setting.supervisor.min_amount_centavos',
    mistake: 'setting.supervisor.min_amount_centavos.mistake',
    default: 0,
    control: { kind: 'text', id: 'settings-supervisor-min-amount', value: 'centavos' },
  },
  {
    key: 'supervisor.entry',
    path: ['supervisor', 'entry'],
    section: 'supervisor',
    label: 'setting.supervisor.entry',
    code: 'INVALID_CHOICE',
    default: 'window',
    control: { kind: 'choice', id: 'settings-supervisor-entry', options: ['window', 'pinpad', 'either'] },
  },
  {
    key: 'supervisor.pos_voids',
    path: ['supervisor', 'pos_voids'],
    section: 'supervisor',
    label: 'setting.supervisor.pos_voids',
    default: 'trusted',
    control: { kind: 'switch', id: 'settings-supervisor-pos', on: 'pinpad', off: 'trusted' },
  },
  {
    key: 'receipts.merchant.name',
    path: ['receipts', 'merchant', 'name'],
    section: 'receipts',
    label: 'setting.receipts.merchant.name',
    control: { kind: 'text', id: 'settings-merchant-name', value: 'text' },
  },
  {
    key: 'receipts.merchant.cnpj',
    path: ['receipts', 'merchant', 'cnpj'],
    section: 'receipts',
    label: 'setting.receipts.merchant.cnpj',
    code: 'INVALID_CNPJ',
    control: { kind: 'text', id: 'settings-merchant-cnpj', value: 'cnpj' },
  },
  {
    key: 'receipts.merchant.address',
    path: ['receipts', 'merchant', 'address'],
    section: 'receipts',
    label: 'setting.receipts.merchant.address',
    control: {
      kind: 'lines',
      id: 'settings-merchant-address',
      lines: [
        { id: 'settings-merchant-address-0', label: 'setting.receipts.merchant.address.line1' },
        { id: 'settings-merchant-address-1', label: 'setting.receipts.merchant.address.line2' },
        { id: 'settings-merchant-address-2', label: 'setting.receipts.merchant.address.line3' },
        { id: 'settings-merchant-address-3', label: 'setting.receipts.merchant.address.line4' },
      ],
    },
  },
  {
    key: 'printers.default.address',
    path: ['printers', 'default', 'address'],
    section: 'printer',
    label: 'setting.printers.default.address',
    code: 'INVALID_PRINTER_ADDRESS',
    control: { kind: 'text', id: 'settings-printer-address', value: 'text' },
  },
];
