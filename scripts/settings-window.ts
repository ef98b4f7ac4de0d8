/**
 * The window's part of the settings it shows, generated from their declarations
 * (main/core/settings-fields.ts) — the window is a web page and cannot load that module:
 * - each card's controls in renderer/index.html, between its `settings-fields:<section>` markers
 *   (the card's heading, hint and everything that is not a setting stay hand-written around them;
 *   what sits beside a control is renderer/settings/field-tools.ts's);
 * - renderer/settings/declared-fields.ts, what the page needs to fill, read and save each control
 *   and to name its mistakes;
 * - renderer/i18n/setting-texts.ts, their labels, help and options in pt-BR and English, which the
 *   window's catalogs take in (keys `setting.<key>`, `setting.<key>.help`, `.<option>`, `.line<n>`,
 *   `.mistake`).
 * Written by scripts/settings-schema.ts (`npm run docs:settings`); test/scripts/settings-window.test.ts
 * fails while any of them is stale.
 */
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import {
  declaredSettings,
  WINDOW_SECTIONS,
  type DeclaredSetting,
  type WindowSection,
  type WindowText,
} from '../main/core/settings-fields.js';
import { FIELD_TOOLS, type FieldTools } from '../renderer/settings/field-tools.js';

const file = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));
export const WINDOW_PAGE_FILE = file('renderer/index.html');
export const DECLARED_FIELDS_FILE = file('renderer/settings/declared-fields.ts');
export const SETTING_TEXTS_FILE = file('renderer/i18n/setting-texts.ts');

/** The window's text keys of a setting: its label, and its help, options, lines and mistake sentence. */
export const settingKey = (field: Pick<DeclaredSetting, 'key'>, part?: string): string =>
  part === undefined ? `setting.${field.key}` : `setting.${field.key}.${part}`;

/** The JSON Schema words the window reads. */
interface SchemaWords {
  readonly maxLength?: number;
  readonly maxItems?: number;
  readonly items?: SchemaWords;
}

const lineCount = (field: DeclaredSetting): number => (field.schema as SchemaWords).maxItems ?? 0;
const lineText = (text: WindowText, n: number): WindowText => ({
  'pt-BR': text['pt-BR'].replaceAll('{n}', String(n)),
  en: text.en.replaceAll('{n}', String(n)),
});

/** Every text of the declared settings, key → text, in the window's order. */
export function windowTexts(fields: readonly DeclaredSetting[]): Record<string, WindowText> {
  const texts: Record<string, WindowText> = {};
  for (const field of fields) {
    const { label, help, mistake, control } = field.window;
    texts[settingKey(field)] = label;
    if (help !== undefined) texts[settingKey(field, 'help')] = help;
    if (control.kind === 'choice')
      for (const option of control.options) texts[settingKey(field, String(option.value))] = option.label;
    if (control.kind === 'lines')
      for (let n = 1; n <= lineCount(field); n++) texts[settingKey(field, `line${n}`)] = lineText(control.line, n);
    if (mistake !== undefined) texts[settingKey(field, 'mistake')] = mistake;
  }
  return texts;
}

/** Words wrapped into comment lines of at most `width` characters. */
function wrapped(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return line === '' ? lines : [...lines, line];
}

const GENERATED = (what: string): string =>
  [
    '/**',
    ...wrapped(what).map((line) => ` * ${line}`),
    ' * Generated from main/core/settings-fields.ts by `npm run docs:settings` (scripts/settings-window.ts):',
    ' * edit the declarations, not this file.',
    ' */',
  ].join('\n');

async function formatted(source: string, path: string): Promise<string> {
  const options = (await resolveConfig(path)) ?? {};
  return format(source, { ...options, filepath: path });
}

/** renderer/i18n/setting-texts.ts. */
export async function settingTextsModule(fields: readonly DeclaredSetting[]): Promise<string> {
  const texts = Object.entries(windowTexts(fields));
  const catalog = (language: keyof WindowText): string =>
    texts.map(([key, text]) => `  ${JSON.stringify(key)}: ${JSON.stringify(text[language])},`).join('\n');
  const source = [
    GENERATED(
      "The window's texts of the settings it shows — labels, help, options, lines, mistake sentences — in both languages; the catalogs (pt-br.ts, en.ts) take them in.",
    ),
    '',
    `export const SETTING_TEXTS_PT_BR = {\n${catalog('pt-BR')}\n} as const;`,
    '',
    'export const SETTING_TEXTS_EN: Readonly<Record<keyof typeof SETTING_TEXTS_PT_BR, string>> = {',
    catalog('en'),
    '};',
    '',
  ].join('\n');
  return formatted(source, SETTING_TEXTS_FILE);
}

/** A declared setting as the page's scripts see it (the generated module's element type). */
const DECLARED_FIELD_TYPE = `/** A setting the window shows. */
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
    | { readonly kind: 'lines'; readonly id: string; readonly lines: readonly { readonly id: string; readonly label: MessageKey }[] }
    | { readonly kind: 'switch'; readonly id: string; readonly on: string | boolean; readonly off: string | boolean }
    | { readonly kind: 'choice'; readonly id: string; readonly options: readonly string[] };
}`;

/** One declaration as the page needs it. */
function pageField(field: DeclaredSetting): Record<string, unknown> {
  const { control, section, mistake } = field.window;
  const controlOf = (): Record<string, unknown> => {
    switch (control.kind) {
      case 'text':
        return { kind: 'text', id: control.id, value: control.value ?? 'text' };
      case 'lines':
        return {
          kind: 'lines',
          id: control.id,
          lines: Array.from({ length: lineCount(field) }, (_, index) => ({
            id: `${control.id}-${index}`,
            label: settingKey(field, `line${index + 1}`),
          })),
        };
      case 'switch':
        return { kind: 'switch', id: control.id, on: control.on, off: control.off };
      case 'choice':
        return { kind: 'choice', id: control.id, options: control.options.map((option) => option.value) };
    }
  };
  return {
    key: field.key,
    path: field.path,
    section,
    label: settingKey(field),
    ...(mistake === undefined ? {} : { mistake: settingKey(field, 'mistake') }),
    ...(field.code === undefined ? {} : { code: field.code }),
    ...(field.default === undefined ? {} : { default: field.default }),
    control: controlOf(),
  };
}

/** renderer/settings/declared-fields.ts. */
export async function declaredFieldsModule(fields: readonly DeclaredSetting[]): Promise<string> {
  const source = [
    GENERATED(
      "The settings the window shows, as their declarations say: what the page needs to fill, read and save each control and to name its mistakes. The controls are index.html's (between the settings-fields markers), their texts i18n/setting-texts.ts's.",
    ),
    "import type { MessageKey } from '../i18n/pt-br.js';",
    '',
    DECLARED_FIELD_TYPE,
    '',
    `export const DECLARED_FIELDS: readonly DeclaredField[] = ${JSON.stringify(fields.map(pageField))};`,
    '',
  ].join('\n');
  return formatted(source, DECLARED_FIELDS_FILE);
}

const escapeText = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const escapeAttribute = (text: string): string => escapeText(text).replaceAll('"', '&quot;');

/** An element's attributes, in the order given, those without a value left out. */
function attributes(pairs: readonly [string, string | true | undefined][]): string {
  return pairs
    .filter((pair): pair is [string, string | true] => pair[1] !== undefined)
    .map(([name, value]) => (value === true ? ` ${name}` : ` ${name}="${escapeAttribute(value)}"`))
    .join('');
}

/** A window text as the page says it before its script runs: the pt-BR, named by its key. */
type Said = (key: string) => string;

/** A text input's `<div class="field">`, with the tools beside it. */
function textField(field: DeclaredSetting, tools: FieldTools, said: Said): string[] {
  const { control, help } = field.window;
  if (control.kind !== 'text') throw new Error(`${field.key} is no text field`);
  const notes = tools.notes ?? [];
  const describedBy = [
    ...notes.filter((note) => note.beforeHelp === true).map((note) => note.id),
    ...(help === undefined ? [] : [`${control.id}-hint`]),
    `${control.id}-error`,
  ];
  const maxLength = control.capped === true ? (field.schema as SchemaWords).maxLength : undefined;
  const input = `<input${attributes([
    ['id', control.id],
    ['type', 'text'],
    ['inputmode', control.inputMode],
    ['autocapitalize', control.autocapitalize],
    ['autocomplete', 'off'],
    ['spellcheck', control.spellcheck === false ? 'false' : undefined],
    ['placeholder', control.placeholder],
    ['maxlength', maxLength === undefined ? undefined : String(maxLength)],
    ['aria-describedby', describedBy.join(' ')],
  ])}>`;
  const buttons = (tools.buttons ?? []).map(
    (button) =>
      `<button${attributes([
        ['id', button.id],
        ['type', 'button'],
        ['class', 'secondary'],
        ['aria-describedby', button.describedBy],
        ['data-i18n', button.text],
      ])}>${escapeText(said(button.text))}</button>`,
  );
  return [
    '<div class="field">',
    `  <label for="${control.id}" data-i18n="${settingKey(field)}">${escapeText(field.window.label['pt-BR'])}</label>`,
    ...(buttons.length === 0
      ? [`  ${input}`]
      : ['  <div class="field-row">', `    ${input}`, ...buttons.map((b) => `    ${b}`), '  </div>']),
    ...notesAndHelp(field, control.id, notes, said).map((line) => `  ${line}`),
    '</div>',
  ];
}

/** The notes before the hint, the hint, the notes after it and the mistake's paragraph. */
function notesAndHelp(field: DeclaredSetting, id: string, notes: FieldTools['notes'] = [], said: Said): string[] {
  const note = (tool: NonNullable<FieldTools['notes']>[number]): string =>
    `<p${attributes([
      ['id', tool.id],
      ['class', tool.className],
      ['data-i18n', tool.text],
      ['hidden', tool.hidden],
    ])}>${tool.text === undefined ? '' : escapeText(said(tool.text))}</p>`;
  const help = field.window.help;
  return [
    ...notes.filter((tool) => tool.beforeHelp === true).map(note),
    ...(help === undefined
      ? []
      : [`<p id="${id}-hint" class="hint" data-i18n="${settingKey(field, 'help')}">${escapeText(help['pt-BR'])}</p>`]),
    ...notes.filter((tool) => tool.beforeHelp !== true).map(note),
    `<p id="${id}-error" class="field-error"></p>`,
  ];
}

function switchField(field: DeclaredSetting, tools: FieldTools, said: Said): string[] {
  const { control, help } = field.window;
  const notes = tools.notes ?? [];
  const describedBy = [
    ...notes.filter((note) => note.beforeHelp === true).map((note) => note.id),
    ...(help === undefined ? [] : [`${control.id}-hint`]),
    `${control.id}-error`,
  ];
  return [
    '<label class="choice-option switch-option">',
    `  <input id="${control.id}" type="checkbox" role="switch" aria-describedby="${describedBy.join(' ')}">`,
    `  <span data-i18n="${settingKey(field)}">${escapeText(field.window.label['pt-BR'])}</span>`,
    '</label>',
    ...notesAndHelp(field, control.id, notes, said),
  ];
}

function choiceField(field: DeclaredSetting, tools: FieldTools, said: Said): string[] {
  const { control, help } = field.window;
  if (control.kind !== 'choice') throw new Error(`${field.key} is no choice`);
  const describedBy = [...(help === undefined ? [] : [`${control.id}-hint`]), `${control.id}-error`];
  return [
    `<fieldset id="${control.id}" class="choice choice-stack" aria-describedby="${describedBy.join(' ')}">`,
    `  <legend data-i18n="${settingKey(field)}">${escapeText(field.window.label['pt-BR'])}</legend>`,
    ...control.options.map(
      (option) =>
        `  <label class="choice-option"><input type="radio" name="${control.id}" value="${escapeAttribute(String(option.value))}"> <span data-i18n="${settingKey(field, String(option.value))}">${escapeText(option.label['pt-BR'])}</span></label>`,
    ),
    '</fieldset>',
    ...notesAndHelp(field, control.id, tools.notes, said),
  ];
}

function linesField(field: DeclaredSetting): string[] {
  const { control } = field.window;
  if (control.kind !== 'lines') throw new Error(`${field.key} is no list of lines`);
  const itemLength = control.capped === true ? (field.schema as SchemaWords).items?.maxLength : undefined;
  const lines = Array.from({ length: lineCount(field) }, (_, index) => {
    const id = `${control.id}-${index}`;
    return [
      '<div class="field">',
      `  <label for="${id}" data-i18n="${settingKey(field, `line${index + 1}`)}">${escapeText(lineText(control.line, index + 1)['pt-BR'])}</label>`,
      `  <input${attributes([
        ['id', id],
        ['type', 'text'],
        ['autocomplete', 'off'],
        ['maxlength', itemLength === undefined ? undefined : String(itemLength)],
        ['aria-describedby', `${id}-error`],
      ])}>`,
      `  <p id="${id}-error" class="field-error"></p>`,
      '</div>',
    ];
  });
  return [
    `<fieldset id="${control.id}" class="setting-lines">`,
    `  <legend data-i18n="${settingKey(field)}">${escapeText(field.window.label['pt-BR'])}</legend>`,
    '  <div class="settings-grid">',
    ...lines.flat().map((line) => `    ${line}`),
    '  </div>',
    '</fieldset>',
  ];
}

/** A text field with nothing beside it: two or more of them in a row sit side by side, in a grid. */
const inGrid = (field: DeclaredSetting): boolean =>
  field.window.control.kind === 'text' && (FIELD_TOOLS[field.key]?.buttons ?? []).length === 0;

/** The controls of one card, in the declarations' order, as lines without indentation. */
export function sectionHtml(fields: readonly DeclaredSetting[], section: WindowSection, said: Said): string[] {
  const inSection = fields.filter((field) => field.window.section === section);
  const html: string[] = [];
  for (let index = 0; index < inSection.length;) {
    let end = index;
    while (end < inSection.length && inGrid(inSection[end]!)) end++;
    if (end - index >= 2) {
      const grid = inSection.slice(index, end).flatMap((field) => textField(field, FIELD_TOOLS[field.key] ?? {}, said));
      html.push('<div class="settings-grid">', ...grid.map((line) => `  ${line}`), '</div>');
      index = end;
      continue;
    }
    const field = inSection[index]!;
    const tools = FIELD_TOOLS[field.key] ?? {};
    const kind = field.window.control.kind;
    html.push(
      ...(kind === 'text'
        ? textField(field, tools, said)
        : kind === 'switch'
          ? switchField(field, tools, said)
          : kind === 'choice'
            ? choiceField(field, tools, said)
            : linesField(field)),
    );
    index++;
  }
  return html;
}

const startMarker = (section: string): string =>
  `<!-- settings-fields:${section} — generated from main/core/settings-fields.ts by \`npm run docs:settings\`; edit the declarations, not this part -->`;
const endMarker = (section: string): string => `<!-- /settings-fields:${section} -->`;

/**
 * The page with every card's controls written between its markers, indented as the start marker
 * is; the rest of the page as it is. Throws when a card's markers are missing or out of order.
 */
export function withSettingsFields(page: string, fields: readonly DeclaredSetting[], said: Said): string {
  let result = page;
  for (const section of WINDOW_SECTIONS) {
    const start = result.indexOf(startMarker(section));
    const end = result.indexOf(endMarker(section));
    if (start < 0 || end < start)
      throw new Error(
        `renderer/index.html must hold the markers ${startMarker(section)} and ${endMarker(section)}, in that order`,
      );
    const lineStart = result.lastIndexOf('\n', start) + 1;
    const indent = result.slice(lineStart, start);
    const body = sectionHtml(fields, section, said).map((line) => `${indent}${line}\n`);
    result = `${result.slice(0, start + startMarker(section).length)}\n${body.join('')}${indent}${result.slice(end)}`;
  }
  return result;
}

/** The declarations, for the generator and its spec. */
export const windowFields = (): readonly DeclaredSetting[] => declaredSettings();
