/**
 * Every rule of the settings file has a stable code and a Portuguese sentence for the window;
 * the English stays in `message` (logs, the CLI). A schema's wording is turned into the code of
 * its rule, sharpened by the field (a CNPJ, a URL, a choice among options).
 */
import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../../main/settings/settings-file.js';
import { SettingsError } from '../../../main/core/settings.js';
import { SETTINGS_CASHIER_MESSAGES, SETTINGS_VIOLATION_CODES } from '../../../main/core/settings-violations.js';
import { englishWordsIn } from '../../helpers/english-words.js';
import { thrown } from '../../helpers/thrown.js';

describe('settings mistakes', () => {
  it.each(SETTINGS_VIOLATION_CODES)('%s has a Portuguese sentence with no English in it', (code) => {
    const sentence = SETTINGS_CASHIER_MESSAGES[code];
    expect(sentence).toMatch(/^[A-ZÀ-Ú].*\.$/);
    expect(englishWordsIn(sentence), sentence).toEqual([]);
  });

  it('names each rule a mistyped file breaks by its code, in English and in Portuguese', () => {
    const error = thrown(() =>
      parseSettings(
        {
          confirmation: 'sometimes',
          installments: { max: 99 },
          pinpad: { address: 'COM' },
          receipts: { merchant: { name: '', cnpj: '12.345.678/0001-00' } },
          api: { base_url: 'ftp://x', seller_id: 'f'.repeat(32) },
          training: 'yes',
        },
        null,
      ),
    ) as SettingsError;
    expect(error).toBeInstanceOf(SettingsError);
    const byField = Object.fromEntries(error.violations.map((v) => [v.field, v.code]));
    expect(byField).toEqual({
      'receipts.merchant.name': 'REQUIRED',
      'receipts.merchant.cnpj': 'INVALID_CNPJ',
      'api.marketplace_id': 'REQUIRED',
      'api.base_url': 'INVALID_URL',
      'pinpad.address': 'INVALID_PINPAD_ADDRESS',
      training: 'INVALID_TYPE',
      confirmation: 'INVALID_CHOICE',
      'installments.max': 'OUT_OF_RANGE',
    });
    for (const violation of error.violations) {
      expect(violation.cashier_message, violation.field).not.toBe(violation.message);
      expect(englishWordsIn(violation.cashier_message), violation.cashier_message).toEqual([]);
      expect(englishWordsIn(violation.message).length, violation.message).toBeGreaterThan(0);
    }
    // The address's own sentence names what was typed.
    expect(error.violations.find((v) => v.code === 'INVALID_PINPAD_ADDRESS')?.cashier_message).toContain('“COM”');
  });
});
