/**
 * The settings form's controls as the declarations give them (renderer/settings/fields.ts over
 * declared-fields.ts): where a mistake the agent names by its path is shown, every control a
 * mistake can be shown at, and the name each control is read by in the banner of a start-up
 * mistake.
 */
import { describe, expect, it } from 'vitest';
import {
  ERROR_TARGETS,
  labelKeyOf,
  normalizeCnpj,
  PINPAD_ADDRESS_ID,
  PRINTER_ADDRESS_ID,
  targetOf,
  TRAINING_ID,
} from '../../../renderer/settings/fields.js';

describe("the settings form's controls", () => {
  it('shows a mistake at its setting, a line of a list at its line, a section at its first setting', () => {
    expect(targetOf('api.base_url')).toBe('settings-api-base-url');
    expect(targetOf('receipts.merchant.cnpj')).toBe('settings-merchant-cnpj');
    expect(targetOf('confirmation')).toBe('settings-confirmation');
    expect(targetOf('training')).toBe(TRAINING_ID);
    expect(targetOf('supervisor.min_amount_centavos')).toBe('settings-supervisor-min-amount');
    expect(targetOf('supervisor.entry')).toBe('settings-supervisor-entry');
    expect(targetOf('printers.default.address')).toBe(PRINTER_ADDRESS_ID);
    // A line by its index; a line beyond the page's four, at the last.
    expect(targetOf('receipts.merchant.address')).toBe('settings-merchant-address-0');
    expect(targetOf('receipts.merchant.address.2')).toBe('settings-merchant-address-2');
    expect(targetOf('receipts.merchant.address.7')).toBe('settings-merchant-address-3');
    // A whole section (missing, or not an object): its first setting on the page.
    expect(targetOf('api')).toBe('settings-api-base-url');
    expect(targetOf('pinpad')).toBe(PINPAD_ADDRESS_ID);
    expect(targetOf('receipts')).toBe('settings-merchant-name');
    expect(targetOf('receipts.merchant')).toBe('settings-merchant-name');
    expect(targetOf('printers')).toBe(PRINTER_ADDRESS_ID);
    expect(targetOf('printers.default')).toBe(PRINTER_ADDRESS_ID);
    expect(targetOf('supervisor')).toBe('settings-supervisor-required');
    // The certificate's mistakes belong to its passphrase's field.
    expect(targetOf('api.client_certificate')).toBe('settings-cert-passphrase');
  });

  it('has no control for a key the page does not edit', () => {
    for (const path of [
      'api.auth_scheme',
      'api.capabilities',
      'receipts.time_zone',
      'receipts.acquirer',
      'printers.caixa2.address',
      'supervisor.unknown',
      'timeouts.api_ms',
      '(file)',
      '',
    ]) {
      expect(targetOf(path), path).toBeNull();
    }
  });

  it('shows mistakes at every setting’s control, each line of a list apart', () => {
    expect(ERROR_TARGETS).toEqual([
      'settings-api-base-url',
      'settings-api-marketplace-id',
      'settings-api-seller-id',
      'settings-pinpad-address',
      'settings-confirmation',
      'settings-training',
      'settings-supervisor-required',
      'settings-supervisor-min-amount',
      'settings-supervisor-entry',
      'settings-supervisor-pos',
      'settings-merchant-name',
      'settings-merchant-cnpj',
      'settings-merchant-address-0',
      'settings-merchant-address-1',
      'settings-merchant-address-2',
      'settings-merchant-address-3',
      'settings-printer-address',
    ]);
  });

  it('reads each control by its setting’s label, a switch and a choice too (they have no label element)', () => {
    expect(labelKeyOf('settings-confirmation')).toBe('setting.confirmation');
    expect(labelKeyOf(TRAINING_ID)).toBe('setting.training');
    expect(labelKeyOf('settings-supervisor-required')).toBe('setting.supervisor.required_for');
    expect(labelKeyOf('settings-supervisor-entry')).toBe('setting.supervisor.entry');
    expect(labelKeyOf('settings-merchant-address-1')).toBe('setting.receipts.merchant.address.line2');
    // Not a setting: the page's own label names it.
    expect(labelKeyOf('settings-cert-passphrase')).toBeNull();
  });

  it('keeps a CNPJ typed with its mask as the file keeps it', () => {
    expect(normalizeCnpj('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(normalizeCnpj(' 11.222.333/0001-81 ')).toBe('11222333000181');
  });
});
