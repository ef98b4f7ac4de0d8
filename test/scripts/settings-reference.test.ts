/**
 * docs/settings.md's reference part is generated from the settings schema the agent validates
 * with, so no setting is left out of the documentation again: it names every setting (nested
 * ones by their dotted key) with its type and description, it is current (the check fails once
 * the schema changes and the document does not), and the hand-written prose around it is kept.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsJsonSchema } from '../../main/settings/settings-schema.js';
import {
  REFERENCE_END,
  REFERENCE_START,
  SETTINGS_DOC_FILE,
  settingsReference,
  typeOf,
  windowReference,
  withSettingsReference,
  withWindowReference,
  type SchemaNode,
} from '../../scripts/settings-reference.js';
import { declaredSettings } from '../../main/core/settings-fields.js';

const schema = settingsJsonSchema() as SchemaNode;
const document = (): string => readFileSync(SETTINGS_DOC_FILE, 'utf8');

/** Every setting's dotted key, walked here apart from the generator (a map's entries as `<name>`). */
function keysOf(node: SchemaNode, prefix = ''): string[] {
  const children = [
    ...Object.entries(node.properties ?? {}),
    ...Object.values(node.patternProperties ?? {}).map((entry): [string, SchemaNode] => ['<name>', entry]),
  ];
  return children.flatMap(([name, child]) => {
    const key = prefix === '' ? name : `${prefix}.${name}`;
    return [key, ...keysOf(child, key)];
  });
}

describe('docs/settings.md', () => {
  it('holds the reference generated from the settings schema (regenerate it: npm run docs:settings)', () => {
    const current = document();
    expect(withSettingsReference(current, settingsReference(schema))).toBe(current);
  });

  it('holds the table of the settings the window shows, generated from their declarations (npm run docs:settings)', () => {
    const current = document();
    const fields = declaredSettings();
    expect(withWindowReference(current, fields)).toBe(current);
    for (const field of fields) expect(current, field.key).toContain(`| \`${field.key}\` | ${field.window.section} |`);
    expect(windowReference(fields)).toContain(
      '| `confirmation` | sales | choice of "auto", "pos" | Confirmação das vendas aprovadas | Confirming approved sales | `INVALID_CHOICE` |',
    );
  });

  it('names every setting of the schema, nested ones by their dotted key', () => {
    const current = document();
    const keys = keysOf(schema);
    expect(keys.length).toBeGreaterThan(60);
    // A section (a top-level object) is a heading; every other setting is a row of its section's table.
    const section = (key: string): boolean =>
      !key.includes('.') && typeOf(schema.properties![key]!).startsWith('object');
    for (const key of keys) expect(current, key).toContain(section(key) ? `### \`${key}\`\n` : `| \`${key}\` |`);
  });

  it('names the API settings a store configures for its provider: auth scheme, certificate, CA, capabilities', () => {
    const current = document();
    for (const key of [
      'api.auth_scheme',
      'api.client_certificate.cert',
      'api.client_certificate.key',
      'api.client_certificate.pfx',
      'api.ca',
      'api.capabilities.idempotency_key',
      'api.capabilities.find_by_reference',
      'api.capabilities.terminal_channel',
    ]) {
      expect(current).toContain(`| \`${key}\` |`);
    }
    expect(current).toMatch(/\| `api\.auth_scheme` \| "bearer" or "basic" \| How the key is sent/);
  });

  it('goes stale, and the check fails, when a setting is added to the schema and not to the document', () => {
    const grown: SchemaNode = {
      ...schema,
      properties: {
        ...schema.properties,
        api: {
          ...schema.properties!.api!,
          properties: {
            ...schema.properties!.api!.properties,
            region: { type: 'string', description: 'A setting the document does not have yet.' },
          },
        },
      },
    };
    const current = document();
    const regenerated = withSettingsReference(current, settingsReference(grown));
    expect(regenerated).not.toBe(current);
    expect(regenerated).toContain('| `api.region` | text | A setting the document does not have yet. |');
  });

  it('keeps the hand-written prose around the markers, and refuses a document without them', () => {
    const written = `# Title\n\nBefore.\n\n${REFERENCE_START}\n\nold\n\n${REFERENCE_END}\n\nAfter.\n`;
    expect(withSettingsReference(written, 'new')).toBe(
      `# Title\n\nBefore.\n\n${REFERENCE_START}\n\nnew\n\n${REFERENCE_END}\n\nAfter.\n`,
    );
    expect(() => withSettingsReference('# Title\n', 'new')).toThrow(/must hold the markers/);
  });
});

describe('a setting’s type in words', () => {
  it.each([
    [{ anyOf: [{ const: 'auto' }, { const: 'pos' }] }, '"auto" or "pos"'],
    [{ anyOf: [{ const: 32 }, { const: 42 }, { const: 48 }] }, '32, 42 or 48'],
    [{ type: 'integer', minimum: 1, maximum: 12 }, 'integer 1–12'],
    [{ type: 'integer', minimum: 0 }, 'integer ≥ 0'],
    [{ type: 'string', minLength: 1, maxLength: 64 }, 'non-empty text up to 64 characters'],
    [{ type: 'string', maxLength: 500, pattern: '^https?://' }, 'text up to 500 characters matching `^https?://`'],
    [{ type: 'boolean' }, '`true` or `false`'],
    [
      { type: 'array', items: { type: 'integer', minimum: 1, maximum: 65535 }, minItems: 1, maxItems: 10 },
      'list of integer 1–65535, 1–10 items',
    ],
    [{ type: 'object', patternProperties: { '^x$': { type: 'object' } } }, 'object: <name> → settings below'],
  ] satisfies Array<[SchemaNode, string]>)('%j reads %s', (node, words) => {
    expect(typeOf(node)).toBe(words);
  });
});
