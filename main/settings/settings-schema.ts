/**
 * The settings file's JSON Schema document (docs/settings.schema.json), from the same TypeBox
 * schema the agent validates with: editors check a hand-written file against it, and the
 * window's form is described by it.
 */
import { SettingsFile } from './settings-file.js';

export function settingsJsonSchema(): Record<string, unknown> {
  // TypeBox schemas are JSON Schema already; a round trip drops its symbol-keyed bookkeeping.
  const schema = JSON.parse(JSON.stringify(SettingsFile)) as Record<string, unknown>;
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://pinbridge.local/settings.schema.json',
    ...schema,
  };
}
