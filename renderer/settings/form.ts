/**
 * Configurações → the settings form: the settings a store sets up at the checkout — the payments
 * API, the PINPAD's address, the confirmation policy, training mode, the supervisor, the store on
 * the receipts and the default printer's address, each declared in main/core/settings-fields.ts
 * (a control each, controls.ts) — over the settings file as operator.settings returns it
 * (docs/settings.md). Saving (operator.saveSettings) writes the whole file back with every other
 * key as it was: a setting the cashier did not touch keeps the file's value exactly. The agent
 * checks the file; each mistake it names is shown next to its control and nothing typed is lost.
 * Beside them: the supervisor's PIN (supervisor-pin.ts) and the "training anyway" note (training.ts).
 */
import { isPinbridgeError, type ResultOf } from '../../client/index.js';
import { errorText, type WindowContext } from '../context.js';
import { byId, fill, h } from '../dom.js';
import { currentLanguage, t } from '../i18n.js';
import { controlOf, type SettingControl } from './controls.js';
import { DECLARED_FIELDS } from './declared-fields.js';
import { ERROR_TARGETS, targetOf } from './fields.js';
import { isObject, setAt, valueAt, type Json } from './json.js';
import { GovernedFields } from './governed.js';
import { SupervisorPin } from './supervisor-pin.js';
import { TrainingNote } from './training.js';
import { fieldMessage, type Violation } from './violations.js';

type SettingsRead = ResultOf<'operator.settings'>;

/**
 * Sections of the file saved whole rather than setting by setting: the supervisor's four settings
 * are one policy, written without its defaults (no section at all: no supervisor), and left as
 * the file has it while the cashier changes none of them.
 */
const SAVED_WHOLE: ReadonlySet<string> = new Set(['supervisor']);

export interface SettingsFormOptions {
  /** Reads the settings again after a save: the whole page's, which the saved file changes. */
  readonly reload: () => Promise<void>;
  /** A save went through and was read back (the restart panel offers to apply it). */
  readonly onSaved: () => void;
}

export class SettingsForm {
  readonly #context: WindowContext;
  readonly #options: SettingsFormOptions;
  /** The file as last read: what a save starts from. */
  #file: Json | null = null;
  #filePath = '';
  #fileExists = false;
  /** Saved from this window since the agent started: the start-up mistakes are no longer in the file. */
  #savedSinceStart = false;
  /** A control per declared setting: an unchanged control leaves the file's value as it was. */
  readonly #controls: readonly SettingControl[] = DECLARED_FIELDS.map(controlOf);
  /** The cashier typed since the last read: a new read must not throw it away. */
  #dirty = false;
  #saving = false;
  /** The mistakes shown next to the fields, and whether a save was refused for them (kept to re-render them in another language). */
  #shownErrors: { readonly violations: readonly Violation[]; readonly refusedSave: boolean } = {
    violations: [],
    refusedSave: false,
  };

  readonly #form = byId<HTMLFormElement>('settings-form');
  readonly #path = byId('settings-path');
  readonly #save = byId<HTMLButtonElement>('settings-save');
  readonly #message = byId('settings-message');
  readonly #error = byId('settings-error');
  readonly #training: TrainingNote;
  readonly #supervisor: SupervisorPin;
  /** The fields the chain's signed settings set: locked, with a note. */
  readonly #governed: GovernedFields;

  constructor(context: WindowContext, options: SettingsFormOptions) {
    this.#context = context;
    this.#options = options;
    this.#training = new TrainingNote(context);
    this.#supervisor = new SupervisorPin(context);
    this.#governed = new GovernedFields(this.#form);
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#saveSettings();
    });
    this.#form.addEventListener('input', (event) => {
      // The secrets' and the supervisor PIN's fields sit in this form's cards but belong to forms of
      // their own (form="…"): typing one is not an unsaved setting.
      const target = event.target;
      if (!(target instanceof HTMLInputElement) || target.form === this.#form) this.#dirty = true;
    });
  }

  /** Saved from this window since the agent started (a restart will use it). */
  get savedSinceStart(): boolean {
    return this.#savedSinceStart;
  }

  /** The settings as read; what the cashier has typed and not saved stays on screen. */
  read(read: SettingsRead): void {
    this.#supervisor.pinStored = read.supervisor_pin.stored;
    this.#supervisor.pinTampered = read.supervisor_pin.tampered;
    this.#filePath = read.path;
    this.#fileExists = read.settings !== null;
    this.#governed.read(read.remote);
    if (!this.#dirty) {
      this.#file = read.settings;
      this.#fillForm();
      this.#showErrors(this.#savedSinceStart ? [] : (read.problem?.violations ?? []), false);
    }
    this.#form.hidden = false;
  }

  render(): void {
    // Words first; the file's path is a detail, on a line of its own, for whoever edits the file.
    fill(
      this.#path,
      this.#fileExists ? null : h('span', { className: 'settings-path-sentence' }, t('settings.noFile')),
      h('span', { className: 'settings-path-file' }, t('settings.path', { path: this.#filePath })),
    );
    this.#training.render();
    this.#supervisor.render();
    this.#governed.render(this.#controls);
    this.#showErrors(this.#shownErrors.violations, this.#shownErrors.refusedSave);
    this.#save.disabled = this.#saving;
  }

  /** The agent restarted with what was saved: nothing waits any more. */
  restarted(): void {
    this.#savedSinceStart = false;
    // "Saved, applies when Pinbridge restarts" is no longer true: it has.
    this.#message.textContent = '';
  }

  /** A value chosen elsewhere on the page (a PINPAD or printer found) goes into its field, unsaved, and the cashier lands there to check it. */
  enter(fieldId: string, value: string): void {
    const input = byId<HTMLInputElement>(fieldId);
    input.value = value;
    this.#dirty = true;
    input.focus();
  }

  #fillForm(): void {
    const file = this.#file;
    for (const control of this.#controls) control.fill(valueAt(file, control.field.path));
    // A field the chain's document sets shows its value, locked (a save keeps the file's own).
    this.#governed.apply(this.#controls);
    this.#training.fill(valueAt(file, ['training']));
    this.#dirty = false;
  }

  /** The file to save: the one read, with what the cashier changed. */
  #draft(): Json {
    const draft: Json = structuredClone(this.#file ?? {});
    for (const control of this.#controls) {
      if (SAVED_WHOLE.has(control.field.path[0] ?? '')) continue;
      if (control.changed()) setAt(draft, control.field.path, control.value());
    }
    for (const section of SAVED_WHOLE) setAt(draft, [section], this.#wholeSection(section));
    return draft;
  }

  /**
   * A section saved whole: as the file has it while none of its controls changed, else with every
   * control's value and its defaults left out (and its other keys kept); an empty one goes.
   */
  #wholeSection(section: string): Json | undefined {
    const read = valueAt(this.#file, [section]);
    const kept: Json = isObject(read) ? read : {};
    const controls = this.#controls.filter((control) => control.field.path[0] === section);
    if (!controls.some((control) => control.changed())) return Object.keys(kept).length === 0 ? undefined : kept;
    const written: Json = { ...kept };
    for (const control of controls) {
      const value = control.value();
      setAt(written, control.field.path.slice(1), value === control.field.default ? undefined : value);
    }
    return Object.keys(written).length === 0 ? undefined : written;
  }

  async #saveSettings(): Promise<void> {
    if (this.#saving) return;
    this.#message.textContent = '';
    this.#error.textContent = '';
    this.#showErrors([], false);
    this.#saving = true;
    this.#save.disabled = true;
    try {
      await this.#context.client.call('operator.saveSettings', { settings: this.#draft() });
      this.#dirty = false;
      this.#savedSinceStart = true;
      await this.#options.reload();
      this.#message.textContent = t('settings.saved');
      this.#options.onSaved();
    } catch (error) {
      const violations = isPinbridgeError(error, 'INVALID_PARAMS') ? (error.data?.violations ?? []) : [];
      if (violations.length === 0) {
        this.#error.textContent = errorText(error);
      } else {
        this.#showErrors(
          violations.map((violation) => ({ ...violation, field: violation.field.replace(/^settings\.?/, '') })),
          true,
        );
        this.#focusFirstError();
      }
    } finally {
      this.#saving = false;
      this.#save.disabled = false;
    }
  }

  /**
   * Each mistake next to its field. When they refused a save, the button says nothing was saved
   * and lists those about keys this page does not edit.
   */
  #showErrors(violations: readonly Violation[], refusedSave: boolean): void {
    this.#shownErrors = { violations: [...violations], refusedSave };
    const byTarget = new Map<string, string[]>();
    const elsewhere: Violation[] = [];
    for (const violation of violations) {
      const target = targetOf(violation.field);
      if (target === null) elsewhere.push(violation);
      else byTarget.set(target, [...(byTarget.get(target) ?? []), fieldMessage(violation)]);
    }
    for (const target of ERROR_TARGETS) {
      const messages = byTarget.get(target) ?? [];
      byId(`${target}-error`).textContent = [...new Set(messages)].join(' ');
      // A choice's mistake marks its options (a fieldset is no control).
      const radios = [...byId(target).querySelectorAll<HTMLInputElement>('input[type="radio"]')];
      const controls = radios.length > 0 ? radios : [byId(target)];
      for (const control of controls) {
        if (messages.length > 0) control.setAttribute('aria-invalid', 'true');
        else control.removeAttribute('aria-invalid');
      }
    }
    if (!refusedSave || violations.length === 0) return;
    fill(
      this.#error,
      h(
        'p',
        {},
        violations.length === 1 ? t('settings.notSavedOne') : t('settings.notSavedMany', { n: violations.length }),
      ),
      elsewhere.length === 0
        ? null
        : h(
            'ul',
            { className: 'violation-list' },
            ...elsewhere.map((violation) =>
              h(
                'li',
                { attrs: { 'data-code': violation.code ?? null } },
                h('code', {}, violation.field),
                ': ',
                currentLanguage() === 'en' || violation.cashier_message === undefined
                  ? h('span', { attrs: { lang: 'en' } }, violation.message)
                  : violation.cashier_message,
              ),
            ),
          ),
    );
  }

  #focusFirstError(): void {
    const first = this.#form.querySelector<HTMLElement>('[aria-invalid="true"]');
    if (first !== null) first.focus();
    else this.#save.focus();
  }
}
