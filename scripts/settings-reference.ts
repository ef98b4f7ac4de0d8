/**
 * The reference part of docs/settings.md, generated from the settings' JSON Schema (the one the
 * agent validates with, main/settings/settings-schema.ts): every setting, nested ones by their
 * dotted key, with its type, whether it is required and its description, so no setting is left
 * out of the documentation again. It sits between two markers in docs/settings.md; the prose
 * around them is hand-written and kept as it is. Likewise, between markers of their own, the
 * table of the settings the window shows, from their declarations (main/core/settings-fields.ts).
 * Written by scripts/settings-schema.ts (`npm run docs:settings`);
 * test/scripts/settings-reference.test.ts fails while either is stale.
 */
import { fileURLToPath } from 'node:url';
import type { DeclaredSetting } from '../main/core/settings-fields.js';

export const SETTINGS_DOC_FILE = fileURLToPath(new URL('../docs/settings.md', import.meta.url));

export const REFERENCE_START =
  '<!-- settings-reference:start — generated from the settings schema by `npm run docs:settings`; edit the schema (main/settings/settings-file.ts and the modules it names), not this part -->';
export const REFERENCE_END = '<!-- settings-reference:end -->';

/** The subset of JSON Schema the settings schema uses. */
export interface SchemaNode {
  readonly type?: string;
  readonly const?: unknown;
  readonly anyOf?: readonly SchemaNode[];
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly patternProperties?: Readonly<Record<string, SchemaNode>>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly default?: unknown;
  readonly description?: string;
}

/** One line of the reference: a setting by its dotted key. */
export interface SettingRow {
  readonly key: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

/** The name a `printers` entry (or any other map) is shown with, instead of its key pattern. */
const MAP_ENTRY = '<name>';

function range(min: number | undefined, max: number | undefined, unit = ''): string {
  if (min !== undefined && max !== undefined) return min === max ? `${min}${unit}` : `${min}–${max}${unit}`;
  if (min !== undefined) return `≥ ${min}${unit}`;
  if (max !== undefined) return `≤ ${max}${unit}`;
  return '';
}

const withRange = (word: string, bounds: string): string => (bounds === '' ? word : `${word} ${bounds}`);

function textType(min: number | undefined, max: number | undefined): string {
  const word = min === 1 ? 'non-empty text' : 'text';
  if (min !== undefined && min > 1) return withRange(word, range(min, max, ' characters'));
  return max === undefined ? word : `${word} up to ${max} characters`;
}

/** The setting's type in words: `integer 1–12`, `"auto" or "pos"`, `list of port (integer 1–65535), 1–10 items`. */
export function typeOf(node: SchemaNode): string {
  if (node.const !== undefined) return JSON.stringify(node.const);
  if (node.anyOf !== undefined) {
    const choices = node.anyOf.map(typeOf);
    return choices.length === 1 ? choices[0]! : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)!}`;
  }
  switch (node.type) {
    case 'string': {
      const text = textType(node.minLength, node.maxLength);
      return node.pattern === undefined ? text : `${text} matching \`${node.pattern}\``;
    }
    case 'integer':
      return withRange('integer', range(node.minimum, node.maximum));
    case 'number':
      return withRange('number', range(node.minimum, node.maximum));
    case 'boolean':
      return '`true` or `false`';
    case 'array': {
      const count = range(node.minItems, node.maxItems, ' items');
      const items = node.items === undefined ? 'values' : typeOf(node.items);
      return `list of ${items}${count === '' ? '' : `, ${count}`}`;
    }
    case 'object':
      return node.patternProperties !== undefined ? `object: ${MAP_ENTRY} → settings below` : 'object';
    default:
      return node.type ?? 'any';
  }
}

function describe(node: SchemaNode): string {
  const description = (node.description ?? '').replace(/\s*\n\s*/g, ' ').trim();
  const fallback =
    node.default === undefined ? '' : `${description === '' ? '' : ' '}Default ${JSON.stringify(node.default)}.`;
  return `${description}${/\bdefault\b/i.test(description) ? '' : fallback}`;
}

/** Every setting under `node`, depth first in the schema's own order, `node` itself first. */
export function settingRows(node: SchemaNode, key: string, required: boolean): SettingRow[] {
  const rows: SettingRow[] = [{ key, type: typeOf(node), required, description: describe(node) }];
  const needed = new Set(node.required ?? []);
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    rows.push(...settingRows(child, `${key}.${name}`, needed.has(name)));
  }
  // A map of named entries (printers): an entry and its settings, under `<name>`.
  for (const entry of Object.values(node.patternProperties ?? {})) {
    rows.push(...settingRows(entry, `${key}.${MAP_ENTRY}`, false));
  }
  return rows;
}

const cell = (text: string): string => text.replaceAll('|', '\\|');

function table(rows: readonly SettingRow[]): string[] {
  return [
    '| Setting | Type | Description |',
    '| --- | --- | --- |',
    ...rows.map((row) => {
      const type = `${row.type}${row.required ? ' (required)' : ''}`;
      return `| \`${row.key}\` | ${cell(type)} | ${cell(row.description)} |`;
    }),
  ];
}

const isSection = (node: SchemaNode): boolean => node.properties !== undefined || node.patternProperties !== undefined;

/**
 * The generated reference: the top-level settings in one table, then each section (an object)
 * with its description and a table of everything in it, in the schema's order.
 */
export function settingsReference(schema: SchemaNode): string {
  const needed = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  const topLevel = entries
    .filter(([, node]) => !isSection(node))
    .map(([name, node]) => settingRows(node, name, needed.has(name))[0]!);
  const parts = [['### Top level', '', ...table(topLevel)].join('\n')];
  for (const [name, node] of entries.filter(([, child]) => isSection(child))) {
    const [own, ...nested] = settingRows(node, name, needed.has(name));
    const lines = [`### \`${name}\``, ''];
    if (own!.description !== '') lines.push(own!.description, '');
    const names = Object.keys(node.patternProperties ?? {});
    if (names.length > 0) {
      lines.push(
        `Named entries: each \`${MAP_ENTRY}\` matches ${names.map((name) => `\`${name}\``).join(' or ')}.`,
        '',
      );
    }
    parts.push([...lines, ...table(nested)].join('\n'));
  }
  return parts.join('\n\n');
}

/** `markdown` with what lies between `start` and `end` replaced by `content`; throws when the markers are missing or out of order. */
function between(markdown: string, start: string, end: string, content: string): string {
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(end);
  if (from < 0 || to < from) {
    throw new Error(`docs/settings.md must hold the markers ${start} and ${end}, in that order`);
  }
  return `${markdown.slice(0, from + start.length)}\n\n${content}\n\n${markdown.slice(to)}`;
}

/**
 * docs/settings.md with its generated part replaced by `reference`, the hand-written rest as it
 * is. Throws when the markers are missing or out of order (someone edited them away).
 */
export function withSettingsReference(markdown: string, reference: string): string {
  return between(markdown, REFERENCE_START, REFERENCE_END, reference);
}

export const WINDOW_START =
  '<!-- settings-window:start — generated from main/core/settings-fields.ts by `npm run docs:settings`; edit the declarations, not this part -->';
export const WINDOW_END = '<!-- settings-window:end -->';

/** A control in words: `text`, `switch (on: true)`, `choice of "auto", "pos"`, `4 lines`. */
function controlOf(field: DeclaredSetting): string {
  const control = field.window.control;
  switch (control.kind) {
    case 'text':
      return control.value === 'centavos' ? 'amount in reais (kept in centavos)' : 'text';
    case 'lines':
      return `${(field.schema as SchemaNode).maxItems ?? 0} lines`;
    case 'switch':
      return `switch (on: ${JSON.stringify(control.on)}, off: ${JSON.stringify(control.off)})`;
    case 'choice':
      return `choice of ${control.options.map((option) => JSON.stringify(option.value)).join(', ')}`;
  }
}

/** The table of the settings the window shows: key, card, control, labels, the code of its mistakes. */
export function windowReference(fields: readonly DeclaredSetting[]): string {
  return [
    '| Setting | Card | Control | Label (pt-BR) | Label (English) | Mistake code |',
    '| --- | --- | --- | --- | --- | --- |',
    ...fields
      .map((field) =>
        [
          `\`${field.key}\``,
          field.window.section,
          controlOf(field),
          field.window.label['pt-BR'],
          field.window.label.en,
          field.code === undefined ? '—' : `\`${field.code}\``,
        ]
          .map(cell)
          .join(' | '),
      )
      .map((row) => `| ${row} |`),
  ].join('\n');
}

/** docs/settings.md with its table of the window's settings replaced, the rest as it is. */
export function withWindowReference(markdown: string, fields: readonly DeclaredSetting[]): string {
  return between(markdown, WINDOW_START, WINDOW_END, windowReference(fields));
}
