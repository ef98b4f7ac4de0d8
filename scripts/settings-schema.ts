/**
 * Writes docs/settings.schema.json from the agent's settings schema (main/settings/settings-file.ts),
 * the reference part of docs/settings.md from the same schema (scripts/settings-reference.ts:
 * every setting with its type and description, between the markers; the prose around them is
 * kept), and the window's part of the settings it shows from their declarations
 * (main/core/settings-fields.ts, scripts/settings-window.ts: the controls in renderer/index.html,
 * renderer/settings/declared-fields.ts and renderer/i18n/setting-texts.ts). Run:
 * `npx tsx scripts/settings-schema.ts` (npm run docs:settings) after changing a setting; specs
 * fail while any of these files is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { settingsJsonSchema } from '../main/settings/settings-schema.js';
import { PT_BR } from '../renderer/i18n/pt-br.js';
import {
  SETTINGS_DOC_FILE,
  settingsReference,
  withSettingsReference,
  withWindowReference,
} from './settings-reference.js';
import {
  DECLARED_FIELDS_FILE,
  declaredFieldsModule,
  SETTING_TEXTS_FILE,
  settingTextsModule,
  WINDOW_PAGE_FILE,
  windowFields,
  withSettingsFields,
} from './settings-window.js';

const wrote = (path: string): void => void process.stdout.write(`wrote ${path}\n`);

const schema = settingsJsonSchema();
const target = fileURLToPath(new URL('../docs/settings.schema.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
wrote(target);
const fields = windowFields();
const markdown = readFileSync(SETTINGS_DOC_FILE, 'utf8');
writeFileSync(
  SETTINGS_DOC_FILE,
  withWindowReference(withSettingsReference(markdown, settingsReference(schema)), fields),
);
wrote(SETTINGS_DOC_FILE);
writeFileSync(SETTING_TEXTS_FILE, await settingTextsModule(fields));
wrote(SETTING_TEXTS_FILE);
writeFileSync(DECLARED_FIELDS_FILE, await declaredFieldsModule(fields));
wrote(DECLARED_FIELDS_FILE);
const said = (key: string): string => {
  const text = (PT_BR as Readonly<Record<string, string>>)[key];
  if (text === undefined) throw new Error(`renderer/settings/field-tools.ts names "${key}", not a text of the window`);
  return text;
};
writeFileSync(WINDOW_PAGE_FILE, withSettingsFields(readFileSync(WINDOW_PAGE_FILE, 'utf8'), fields, said));
wrote(WINDOW_PAGE_FILE);
