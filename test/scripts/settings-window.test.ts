/**
 * The window's part of the settings it shows is generated from their declarations
 * (scripts/settings-window.ts, run by `npm run docs:settings`): the controls in
 * renderer/index.html, the page's copy of the table and the texts the catalogs take in are
 * current (each check fails once a declaration changes and they do not), a setting declared
 * anew gets its control, its texts and its entry, and the hand-written page around the markers
 * is kept.
 */
import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { declaredSettings, SETTINGS_FIELDS, type SettingsField } from '../../main/core/settings-fields.js';
import { EN } from '../../renderer/i18n/en.js';
import { PT_BR } from '../../renderer/i18n/pt-br.js';
import {
  DECLARED_FIELDS_FILE,
  declaredFieldsModule,
  sectionHtml,
  SETTING_TEXTS_FILE,
  settingTextsModule,
  WINDOW_PAGE_FILE,
  windowFields,
  windowTexts,
  withSettingsFields,
} from '../../scripts/settings-window.js';

const read = (path: string): string => readFileSync(path, 'utf8');
const said = (key: string): string => (PT_BR as Readonly<Record<string, string>>)[key] ?? `(no text ${key})`;

/** The table with one setting more, declared as a store would add it. */
const grown = declaredSettings({
  ...SETTINGS_FIELDS,
  'receipts.footer': {
    schema: Type.Optional(Type.String({ maxLength: 200, description: 'A closing line of the customer copy.' })),
    window: {
      section: 'receipts',
      control: { kind: 'text', id: 'settings-receipts-footer', capped: true, placeholder: 'Volte sempre!' },
      label: { 'pt-BR': 'Rodapé do comprovante', en: 'Receipt footer' },
      help: { 'pt-BR': 'Uma linha no fim da via do cliente.', en: "A line at the end of the customer's copy." },
    },
  } satisfies SettingsField,
});

describe("the window's part of the settings it shows", () => {
  it('is current: the page’s controls, its copy of the table and its texts (regenerate them: npm run docs:settings)', async () => {
    const fields = windowFields();
    const page = read(WINDOW_PAGE_FILE);
    expect(withSettingsFields(page, fields, said)).toBe(page);
    expect(await declaredFieldsModule(fields)).toBe(read(DECLARED_FIELDS_FILE));
    expect(await settingTextsModule(fields)).toBe(read(SETTING_TEXTS_FILE));
  });

  it('gives the catalogs every label, help, option and line of the declarations, in both languages', () => {
    const texts = Object.entries(windowTexts(windowFields()));
    expect(texts.length).toBeGreaterThan(30);
    for (const [key, text] of texts) {
      expect((PT_BR as Readonly<Record<string, string>>)[key], key).toBe(text['pt-BR']);
      expect((EN as Readonly<Record<string, string>>)[key], key).toBe(text.en);
    }
    expect(PT_BR['setting.receipts.merchant.address.line3']).toBe('Endereço, linha 3');
    expect(EN['setting.confirmation.pos']).toBe(
      'By the POS: the POS confirms or undoes it; without a confirmation in time, the sale is undone',
    );
  });

  it('writes a control for each declaration, in the card it names, with its label, hint and mistake', () => {
    const page = read(WINDOW_PAGE_FILE);
    for (const field of windowFields()) {
      const control = field.window.control;
      const id = control.kind === 'lines' ? `${control.id}-0` : control.id;
      expect(page, field.key).toContain(`id="${id}"`);
      expect(page, field.key).toContain(`id="${id}-error" class="field-error"`);
      expect(page, field.key).toContain(`data-i18n="setting.${field.key}"`);
    }
    const card = (section: string): string =>
      page.slice(
        page.indexOf(`<!-- settings-fields:${section} `),
        page.indexOf(`<!-- /settings-fields:${section} -->`),
      );
    expect(card('sales')).toContain('<input id="settings-training" type="checkbox" role="switch"');
    expect(card('supervisor')).toContain('name="settings-supervisor-entry" value="either"');
    // What sits beside a control is the page's own (renderer/settings/field-tools.ts).
    expect(card('pinpad')).toContain(
      '<button id="settings-pinpad-ble" type="button" class="secondary" data-i18n="settings.bleScan">Procurar Bluetooth</button>',
    );
  });

  it('goes stale, and the check fails, when a setting is declared and not generated; the new one gets its control and texts', async () => {
    const page = read(WINDOW_PAGE_FILE);
    const regenerated = withSettingsFields(page, grown, said);
    expect(regenerated).not.toBe(page);
    expect(sectionHtml(grown, 'receipts', said).join('\n')).toContain(
      [
        '<div class="field">',
        '  <label for="settings-receipts-footer" data-i18n="setting.receipts.footer">Rodapé do comprovante</label>',
        '  <input id="settings-receipts-footer" type="text" autocomplete="off" placeholder="Volte sempre!" maxlength="200" aria-describedby="settings-receipts-footer-hint settings-receipts-footer-error">',
        '  <p id="settings-receipts-footer-hint" class="hint" data-i18n="setting.receipts.footer.help">Uma linha no fim da via do cliente.</p>',
        '  <p id="settings-receipts-footer-error" class="field-error"></p>',
        '</div>',
      ].join('\n'),
    );
    // Only the receipts card changed: every other line of the page is as it was.
    const removed = page.split('\n').filter((line) => !regenerated.split('\n').includes(line));
    expect(removed).toEqual([]);
    expect(await declaredFieldsModule(grown)).toContain("key: 'receipts.footer'");
    expect(await settingTextsModule(grown)).toContain(
      "'setting.receipts.footer.help': 'Uma linha no fim da via do cliente.'",
    );
    expect(await settingTextsModule(grown)).not.toBe(read(SETTING_TEXTS_FILE));
  });

  it('keeps the page around the markers, and refuses a page without a card’s markers', () => {
    const page = read(WINDOW_PAGE_FILE);
    const without = page.replace('<!-- /settings-fields:printer -->', '');
    expect(() => withSettingsFields(without, windowFields(), said)).toThrow(
      /must hold the markers .*settings-fields:printer/,
    );
    // Whatever stood between the markers is replaced, indented as the marker is.
    const emptied = page.replace(
      /(<!-- settings-fields:pinpad [^\n]*-->)[\s\S]*?(\n\s*<!-- \/settings-fields:pinpad -->)/,
      '$1\n                <p>old</p>$2',
    );
    expect(emptied).not.toBe(page);
    expect(withSettingsFields(emptied, windowFields(), said)).toBe(page);
  });
});
