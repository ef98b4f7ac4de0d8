/**
 * Writes docs/settings.schema.json from the agent's settings schema (main/settings/settings-file.ts),
 * and the reference part of docs/settings.md from the same schema (scripts/settings-reference.ts:
 * every setting with its type and description, between the markers; the prose around them is
 * kept). Run: `npx tsx scripts/settings-schema.ts` (npm run docs:settings) after changing a
 * setting; a test fails while either file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { settingsJsonSchema } from '../main/settings/settings-schema.js';
import { SETTINGS_DOC_FILE, settingsReference, withSettingsReference } from './settings-reference.js';

const schema = settingsJsonSchema();
const target = fileURLToPath(new URL('../docs/settings.schema.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(schema, null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
const markdown = readFileSync(SETTINGS_DOC_FILE, 'utf8');
writeFileSync(SETTINGS_DOC_FILE, withSettingsReference(markdown, settingsReference(schema)));
process.stdout.write(`wrote ${SETTINGS_DOC_FILE}\n`);
