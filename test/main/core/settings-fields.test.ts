/**
 * The settings the window shows, each declared once (main/core/settings-fields.ts): the table is
 * complete, the settings file's schema is made of its declarations (not copies of them), the
 * agent's defaults are the declared ones, and each declared code is the one the agent refuses a
 * bad value with. A declaration planted incomplete fails — the types refuse most of it, and
 * declarationProblems the rest.
 */
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENGINE_CONFIG } from '../../../main/core/engine.js';
import { declarationProblems } from '../../../main/core/settings-field-problems.js';
import {
  declaredSettings,
  declareSetting,
  SETTINGS_FIELDS,
  WINDOW_SECTIONS,
  type SettingsField,
} from '../../../main/core/settings-fields.js';
import { resolveSettings, SettingsError } from '../../../main/core/settings.js';
import { parseSettings, SettingsFile } from '../../../main/settings/settings-file.js';
import { resolveSupervisorSettings } from '../../../main/settings/supervisor-settings.js';
import { thrown } from '../../helpers/thrown.js';

/** The JSON Schema words the walk below reads. */
interface Node {
  readonly properties?: Readonly<Record<string, Node>>;
  readonly patternProperties?: Readonly<Record<string, Node>>;
}

/** The node of `schema` at a path: a property, or a named entry of a map (printers.<name>). */
function nodeAt(schema: Node, path: readonly string[]): unknown {
  let node: Node | undefined = schema;
  for (const key of path) {
    const entries: [string, Node][] = Object.entries(node?.patternProperties ?? {});
    node = node?.properties?.[key] ?? entries.find(([pattern]) => new RegExp(pattern).test(key))?.[1];
  }
  return node;
}

/** A complete declaration to plant broken copies of. */
const REGION = {
  schema: Type.Optional(Type.Union([Type.Literal('north'), Type.Literal('south')], { description: 'The region.' })),
  default: 'north',
  window: {
    section: 'sales',
    control: {
      kind: 'choice',
      id: 'settings-region',
      options: [
        { value: 'north', label: { 'pt-BR': 'Norte', en: 'North' } },
        { value: 'south', label: { 'pt-BR': 'Sul', en: 'South' } },
      ],
    },
    label: { 'pt-BR': 'Região', en: 'Region' },
  },
} as const;

/** The problems of the table with `key` declared as `field` (cast: the types would refuse most of these). */
const problemsWith = (key: string, field: unknown): string[] =>
  declarationProblems({ ...SETTINGS_FIELDS, [key]: field as SettingsField });

describe('the settings the window shows', () => {
  it('are declared completely: texts in both languages, documentation, ids used once, values of their schemas', () => {
    expect(declarationProblems()).toEqual([]);
    expect(declarationProblems({ region: REGION as unknown as SettingsField })).toEqual([]);
    const keys = declaredSettings().map((field) => field.key);
    expect(keys).toContain('api.base_url');
    expect(keys).toContain('supervisor.entry');
    // Every card of the window holds at least one, and the table runs card by card in the page's order.
    const sections = declaredSettings().map((field) => field.window.section);
    expect([...new Set(sections)]).toEqual([...WINDOW_SECTIONS]);
  });

  it('make the settings file’s schema: each section names the declared schema itself, not a copy', () => {
    for (const field of declaredSettings()) {
      expect(nodeAt(SettingsFile as Node, field.path), field.key).toBe(field.schema);
    }
    // Every printer's address is the default printer's declaration.
    expect(nodeAt(SettingsFile as Node, ['printers', 'caixa2', 'address'])).toBe(
      SETTINGS_FIELDS['printers.default.address'].schema,
    );
  });

  it('give the agent its defaults: the engine’s confirmation, no training, no supervisor', () => {
    expect(SETTINGS_FIELDS.confirmation.default).toBe(DEFAULT_ENGINE_CONFIG.confirmation);
    expect(resolveSettings({}).engine.confirmation).toBe(SETTINGS_FIELDS.confirmation.default);
    expect(parseSettings({}, null).training).toBe(SETTINGS_FIELDS.training.default);
    expect(resolveSupervisorSettings(undefined)).toEqual({
      requiredFor: SETTINGS_FIELDS['supervisor.required_for'].default,
      minAmountCentavos: SETTINGS_FIELDS['supervisor.min_amount_centavos'].default,
      entry: SETTINGS_FIELDS['supervisor.entry'].default,
      posVoids: SETTINGS_FIELDS['supervisor.pos_voids'].default,
    });
  });

  it('name the code the agent refuses a bad value with', () => {
    const api = { base_url: 'https://api.example.com', marketplace_id: 'm', seller_id: 's' };
    const merchant = { name: 'Loja', cnpj: '11222333000181' };
    /** A file whose only mistake is the declared field's, by the code it declares. */
    const BAD: Readonly<Record<string, unknown>> = {
      'api.base_url': { api: { ...api, base_url: 'api.example.com' } },
      'pinpad.address': { pinpad: { address: 'pinpad da loja' } },
      confirmation: { confirmation: 'sometimes' },
      'supervisor.entry': { supervisor: { entry: 'keyboard' } },
      'receipts.merchant.cnpj': { receipts: { merchant: { ...merchant, cnpj: '11.222.333/0001-81' } } },
      'printers.default.address': { printers: { default: { address: 'impressora da loja' } } },
    };
    const declared = declaredSettings().filter((field) => field.code !== undefined);
    expect(declared.map((field) => field.key).sort()).toEqual(Object.keys(BAD).sort());
    for (const field of declared) {
      const error = thrown(() => parseSettings(BAD[field.key], null));
      expect(error, field.key).toBeInstanceOf(SettingsError);
      expect(
        (error as SettingsError).violations.map((violation) => [violation.field, violation.code]),
        field.key,
      ).toEqual([[field.key, field.code]]);
    }
  });
});

describe('a declaration planted incomplete', () => {
  it('does not type-check: a label without its pt-BR text, a switch saving a value its schema refuses, an option that is no value of it', () => {
    const planted = [
      declareSetting({
        schema: Type.Optional(Type.String({ maxLength: 20, description: 'A region.' })),
        window: {
          section: 'sales',
          control: { kind: 'text', id: 'settings-region' },
          // @ts-expect-error -- the label has no pt-BR text
          label: { en: 'Region' },
        },
      }),
      declareSetting({
        schema: Type.Optional(Type.Boolean({ description: 'Night mode.' })),
        default: false,
        window: {
          section: 'sales',
          // @ts-expect-error -- "yes" is no boolean
          control: { kind: 'switch', id: 'settings-night', on: 'yes', off: false },
          label: { 'pt-BR': 'Noite', en: 'Night' },
        },
      }),
      declareSetting({
        ...REGION,
        window: {
          ...REGION.window,
          control: {
            kind: 'choice',
            id: 'settings-region',
            // @ts-expect-error -- "east" is no value of the schema
            options: [{ value: 'east', label: { 'pt-BR': 'Leste', en: 'East' } }],
          },
        },
      }),
    ];
    // The declarations still run: what the types refused, the completeness check names.
    expect(declarationProblems({ region: planted[0]! })).toEqual(['region: the label has no pt-BR text']);
    expect(declarationProblems({ night: planted[1]! })).toEqual(['night: a switch saves a value its schema refuses']);
    expect(declarationProblems({ region: planted[2]! })).toEqual([
      'region: the choice offers no option for "north"',
      'region: the choice offers no option for "south"',
      'region: the choice offers "east", not a value of its schema',
    ]);
  });

  it('is named by the completeness check, with its key and what it lacks', () => {
    const { window } = REGION;
    expect(problemsWith('region', { ...REGION, window: { ...window, label: { 'pt-BR': ' ', en: 'Region' } } })).toEqual(
      ['region: the label has no pt-BR text'],
    );
    expect(
      problemsWith('region', { ...REGION, window: { ...window, help: { 'pt-BR': 'Onde fica a loja.', en: '' } } }),
    ).toEqual(['region: the help has no en text']);
    expect(
      problemsWith('region', { ...REGION, schema: Type.Union([Type.Literal('north'), Type.Literal('south')]) }),
    ).toEqual(["region: its schema has no description (the setting's English documentation)"]);
    expect(problemsWith('region', { ...REGION, default: undefined })).toEqual([
      'region: a choice needs a default (checked when the file has none)',
    ]);
    expect(problemsWith('region', { ...REGION, default: 'east' })).toEqual([
      'region: its default "east" is refused by its schema',
    ]);
    expect(
      problemsWith('region', {
        ...REGION,
        window: { ...window, control: { ...window.control, options: window.control.options.slice(0, 1) } },
      }),
    ).toEqual(['region: the choice offers no option for "south"']);
    expect(problemsWith('region', { ...REGION, code: 'WRONG' })).toEqual([
      'region: its code "WRONG" is not a settings violation code',
    ]);
    expect(problemsWith('region', { ...REGION, window: undefined })).toEqual([
      'region: it says nothing of the window (declare it in its section alone)',
    ]);
    expect(problemsWith('region', { ...REGION, window: { ...window, section: 'footer' } })).toEqual([
      'region: its section "footer" is not a card of the window',
    ]);
    // The page finds every control by its id: one a setting already has is refused.
    expect(
      problemsWith('region', {
        ...REGION,
        window: { ...window, control: { ...window.control, id: 'settings-training' } },
      }),
    ).toEqual(["region: its control id settings-training is training's already"]);
    expect(
      problemsWith('night', {
        schema: Type.Optional(Type.Boolean({ description: 'Night mode.' })),
        default: true,
        window: {
          section: 'sales',
          control: { kind: 'switch', id: 'settings-night', on: true, off: false },
          label: { 'pt-BR': 'Noite', en: 'Night' },
        },
      }),
    ).toEqual(['night: a switch is off by default: its default must be its off value']);
    expect(
      problemsWith('receipts.lines', {
        schema: Type.Array(Type.String(), { description: 'Lines.' }),
        window: {
          section: 'receipts',
          control: { kind: 'lines', id: 'settings-lines', line: { 'pt-BR': 'Linha', en: 'Line {n}' }, capped: true },
          label: { 'pt-BR': 'Linhas', en: 'Lines' },
        },
      }),
    ).toEqual([
      'receipts.lines: a lines control needs an array of strings with a maxItems',
      'receipts.lines: the line label does not say its number ({n})',
    ]);
  });
});
