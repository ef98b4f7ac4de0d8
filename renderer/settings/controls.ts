/**
 * The settings form's controls, one per declared setting (declared-fields.ts, generated from
 * main/core/settings-fields.ts), each by its kind: it shows the file's value, says whether the
 * cashier changed it, and gives what to save. The controls themselves are index.html's, written
 * from the same declarations.
 */
import { byId } from '../dom.js';
import { formatCentavos, parseCentavos } from '../money.js';
import type { DeclaredField } from './declared-fields.js';
import { normalizeCnpj } from './fields.js';
import { shownText } from './json.js';

export interface SettingControl {
  readonly field: DeclaredField;
  /** Shows the file's value (undefined: the file leaves it out). */
  fill(value: unknown): void;
  /** The cashier changed it since it was filled. */
  changed(): boolean;
  /** What the file gets (undefined: the key is left out). */
  value(): unknown;
}

type Control<K extends DeclaredField['control']['kind']> = Extract<DeclaredField['control'], { kind: K }>;

/** A line of text: what is typed, trimmed (a CNPJ without its mask); blank leaves the key out. */
class TextInput implements SettingControl {
  readonly field: DeclaredField;
  readonly #input: HTMLInputElement;
  readonly #normalize: (value: string) => string;
  #shown = '';

  constructor(field: DeclaredField, control: Control<'text'>) {
    this.field = field;
    this.#input = byId<HTMLInputElement>(control.id);
    this.#normalize = control.value === 'cnpj' ? normalizeCnpj : (value) => value;
  }

  fill(value: unknown): void {
    this.#shown = shownText(value);
    this.#input.value = this.#shown;
  }

  changed(): boolean {
    return this.value() !== (this.#normalize(this.#shown.trim()) || undefined);
  }

  value(): string | undefined {
    const typed = this.#normalize(this.#input.value.trim());
    return typed === '' ? undefined : typed;
  }
}

/**
 * An amount typed in reais and kept in centavos ("100,00" → 10000); blank leaves the key out.
 * What is not an amount goes as typed, and the agent's refusal is said at the field.
 */
class CentavosInput implements SettingControl {
  readonly field: DeclaredField;
  readonly #input: HTMLInputElement;
  #shown = '';

  constructor(field: DeclaredField, control: Control<'text'>) {
    this.field = field;
    this.#input = byId<HTMLInputElement>(control.id);
  }

  fill(value: unknown): void {
    this.#shown = typeof value === 'number' && value > 0 ? formatCentavos(value).replace(/^R\$\s*/, '') : '';
    this.#input.value = this.#shown;
  }

  changed(): boolean {
    return this.#input.value.trim() !== this.#shown;
  }

  value(): number | string | undefined {
    const typed = this.#input.value.trim();
    return typed === '' ? undefined : (parseCentavos(typed) ?? typed);
  }
}

/** Lines (the store's address): those not blank, in order; none leaves the key out. */
class LinesInput implements SettingControl {
  readonly field: DeclaredField;
  readonly #inputs: readonly HTMLInputElement[];
  #shown: readonly string[] = [];

  constructor(field: DeclaredField, control: Control<'lines'>) {
    this.field = field;
    this.#inputs = control.lines.map((line) => byId<HTMLInputElement>(line.id));
  }

  fill(value: unknown): void {
    const lines = Array.isArray(value) ? value.map(shownText) : [];
    this.#shown = this.#inputs.map((_, index) => lines[index] ?? '');
    this.#inputs.forEach((input, index) => (input.value = this.#shown[index] ?? ''));
  }

  changed(): boolean {
    return this.#inputs.some((input, index) => input.value.trim() !== (this.#shown[index] ?? '').trim());
  }

  value(): string[] | undefined {
    const lines = this.#inputs.map((input) => input.value.trim()).filter((line) => line !== '');
    return lines.length === 0 ? undefined : lines;
  }
}

/** An on/off switch: on is the declared `on` value; anything else in the file shows off. */
class Switch implements SettingControl {
  readonly field: DeclaredField;
  readonly #control: Control<'switch'>;
  readonly #input: HTMLInputElement;
  #shown = false;

  constructor(field: DeclaredField, control: Control<'switch'>) {
    this.field = field;
    this.#control = control;
    this.#input = byId<HTMLInputElement>(control.id);
  }

  fill(value: unknown): void {
    this.#shown = value === this.#control.on;
    this.#input.checked = this.#shown;
  }

  changed(): boolean {
    return this.#input.checked !== this.#shown;
  }

  value(): string | boolean {
    return this.#input.checked ? this.#control.on : this.#control.off;
  }
}

/**
 * Radio buttons: no key in the file checks the default; a value the schema refuses checks none,
 * and stays as it is until the cashier picks one.
 */
class Choice implements SettingControl {
  readonly field: DeclaredField;
  readonly #control: Control<'choice'>;
  #shown: string | null = null;

  constructor(field: DeclaredField, control: Control<'choice'>) {
    this.field = field;
    this.#control = control;
  }

  fill(value: unknown): void {
    const shown = value === undefined ? this.field.default : value;
    this.#shown = typeof shown === 'string' && this.#control.options.includes(shown) ? shown : null;
    for (const radio of this.#radios()) radio.checked = radio.value === this.#shown;
  }

  changed(): boolean {
    const checked = this.#checked();
    return checked !== null && checked !== this.#shown;
  }

  value(): string | undefined {
    return this.#checked() ?? this.#shown ?? (this.field.default as string | undefined);
  }

  #checked(): string | null {
    return this.#radios().find((radio) => radio.checked)?.value ?? null;
  }

  #radios(): HTMLInputElement[] {
    return [...byId(this.#control.id).querySelectorAll<HTMLInputElement>('input[type="radio"]')];
  }
}

/** The control of a declared setting, over its elements in the page. */
export function controlOf(field: DeclaredField): SettingControl {
  const control = field.control;
  switch (control.kind) {
    case 'text':
      return control.value === 'centavos' ? new CentavosInput(field, control) : new TextInput(field, control);
    case 'lines':
      return new LinesInput(field, control);
    case 'switch':
      return new Switch(field, control);
    case 'choice':
      return new Choice(field, control);
  }
}
