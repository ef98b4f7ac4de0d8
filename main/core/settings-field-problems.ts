/**
 * What a declaration in settings-fields.ts must hold that its types cannot say: texts that are
 * not empty in either language, an English description (the documentation), ids the page can use
 * once, a default the schema takes, a switch's and a choice's values that are the setting's own
 * (every option of the schema offered, none it refuses), a control that fits its schema. A spec
 * runs it on the table, so a declaration that would show an empty label, miss an option or save
 * a value the agent refuses fails before the window ever shows it.
 */
import { schemaViolations } from '../contract/index.js';
import {
  declaredSettings,
  WINDOW_SECTIONS,
  type DeclaredSetting,
  type SettingsField,
  type WindowText,
} from './settings-fields.js';
import { SETTINGS_VIOLATION_CODES } from './settings-violations.js';

/** The JSON Schema words the checks read (TypeBox schemas are JSON Schema). */
interface SchemaWords {
  readonly type?: string;
  readonly description?: string;
  readonly maxLength?: number;
  readonly maxItems?: number;
  readonly items?: SchemaWords;
  readonly anyOf?: readonly { readonly const?: unknown }[];
}

const KEY = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$/;
const ID = /^settings-[a-z0-9]+(-[a-z0-9]+)*$/;

function textProblems(what: string, text: WindowText | undefined): string[] {
  if (text === undefined) return [`${what} is missing`];
  return (['pt-BR', 'en'] as const)
    .filter((language) => typeof text[language] !== 'string' || text[language].trim() === '')
    .map((language) => `${what} has no ${language} text`);
}

const accepts = (field: SettingsField, value: unknown): boolean => schemaViolations(field.schema, value).length === 0;

/** The problems of one declaration, each a sentence without the key. */
function problemsOf(field: DeclaredSetting): string[] {
  const problems: string[] = [];
  const schema = field.schema as SchemaWords;
  if (!KEY.test(field.key)) problems.push('its key is not a dotted path of snake_case names');
  if (typeof schema.description !== 'string' || schema.description.trim() === '')
    problems.push("its schema has no description (the setting's English documentation)");
  if (field.default !== undefined && !accepts(field, field.default))
    problems.push(`its default ${JSON.stringify(field.default)} is refused by its schema`);
  if (field.code !== undefined && !(SETTINGS_VIOLATION_CODES as readonly string[]).includes(field.code))
    problems.push(`its code ${JSON.stringify(field.code)} is not a settings violation code`);
  const window = field.window as Partial<DeclaredSetting['window']> | undefined;
  if (window === undefined) return [...problems, 'it says nothing of the window (declare it in its section alone)'];
  if (!(WINDOW_SECTIONS as readonly string[]).includes(window.section as string))
    problems.push(`its section ${JSON.stringify(window.section)} is not a card of the window`);
  problems.push(...textProblems('the label', window.label));
  if (window.help !== undefined) problems.push(...textProblems('the help', window.help));
  if (window.mistake !== undefined) problems.push(...textProblems('the mistake sentence', window.mistake));
  const control = window.control;
  if (control === undefined) return [...problems, 'it has no control'];
  if (typeof control.id !== 'string' || !ID.test(control.id))
    problems.push(`its control id ${JSON.stringify(control.id)} is not settings-… in lowercase words`);
  switch (control.kind) {
    case 'text':
      if (control.value === 'centavos' ? schema.type !== 'integer' : schema.type !== 'string')
        problems.push(
          `a ${control.value === 'centavos' ? 'centavos' : 'text'} control needs a ${control.value === 'centavos' ? 'integer' : 'string'} schema`,
        );
      if (control.capped === true && schema.maxLength === undefined)
        problems.push('a capped input needs a maxLength in its schema');
      break;
    case 'lines':
      if (schema.type !== 'array' || schema.items?.type !== 'string' || schema.maxItems === undefined)
        problems.push('a lines control needs an array of strings with a maxItems');
      else if (control.capped === true && schema.items.maxLength === undefined)
        problems.push('capped lines need a maxLength for an item');
      problems.push(...textProblems('the line label', control.line));
      if (control.line !== undefined && !control.line['pt-BR'].includes('{n}'))
        problems.push('the line label does not say its number ({n})');
      break;
    case 'switch':
      if (!accepts(field, control.on) || !accepts(field, control.off))
        problems.push('a switch saves a value its schema refuses');
      if (control.on === control.off) problems.push('a switch saves the same value on and off');
      // A file without the key shows the switch off: that must be what the agent does then.
      if (field.default !== control.off) problems.push('a switch is off by default: its default must be its off value');
      break;
    case 'choice': {
      const offered = control.options.map((option) => option.value);
      const values = (schema.anyOf ?? []).map((choice) => choice.const);
      for (const value of values)
        if (!offered.includes(value)) problems.push(`the choice offers no option for ${JSON.stringify(value)}`);
      for (const value of offered)
        if (!values.includes(value))
          problems.push(`the choice offers ${JSON.stringify(value)}, not a value of its schema`);
      if (new Set(offered).size !== offered.length) problems.push('the choice offers a value twice');
      control.options.forEach((option, index) =>
        problems.push(...textProblems(`option ${JSON.stringify(option.value ?? index)}`, option.label)),
      );
      // A file without the key checks the option the agent uses then.
      if (field.default === undefined) problems.push('a choice needs a default (checked when the file has none)');
      break;
    }
    default:
      problems.push(
        `its control kind ${JSON.stringify((control as { kind?: unknown }).kind)} is not one the window has`,
      );
  }
  return problems;
}

/** The ids a field's control takes in the page: a list of lines takes one per line. */
function idsOf(field: DeclaredSetting): string[] {
  const control = field.window.control;
  if (control.kind !== 'lines') return [control.id];
  const count = (field.schema as SchemaWords).maxItems ?? 0;
  return [control.id, ...Array.from({ length: count }, (_, line) => `${control.id}-${line}`)];
}

/**
 * Every problem of the declarations, as `key: sentence` (none for a complete table). Takes the
 * table itself by default; a spec hands it a planted one.
 */
export function declarationProblems(fields: Readonly<Record<string, SettingsField>> | undefined = undefined): string[] {
  const declared = declaredSettings(fields);
  const problems = declared.flatMap((field) => problemsOf(field).map((problem) => `${field.key}: ${problem}`));
  const owners = new Map<string, string>();
  for (const field of declared) {
    if (field.window?.control?.id === undefined) continue;
    for (const id of idsOf(field)) {
      const owner = owners.get(id);
      if (owner !== undefined) problems.push(`${field.key}: its control id ${id} is ${owner}'s already`);
      else owners.set(id, field.key);
    }
  }
  return problems;
}
