/**
 * Writes docs/settings.schema.json from the agent's settings schema (main/settings/settings-file.ts).
 * Run: `npx tsx scripts/settings-schema.ts` (npm run docs:settings) after changing a setting; a
 * test fails while the file is stale.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { settingsJsonSchema } from '../main/settings/settings-schema.js';

const target = fileURLToPath(new URL('../docs/settings.schema.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(settingsJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${target}\n`);
