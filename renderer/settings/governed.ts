/**
 * The fields the chain's signed settings set (operator.settings' remote, docs/remote-settings.md):
 * shown with the document's value, locked, and a note saying who sets them and which version —
 * the agent refuses a change to them anyway (GOVERNED_REMOTELY). Above the form, one line says
 * which version of the chain's settings runs, from where, when it was last checked and what was
 * last refused.
 */
import type { ResultOf } from '../../client/index.js';
import { byId, fill, h } from '../dom.js';
import { currentLanguage, t } from '../i18n.js';
import type { SettingControl } from './controls.js';
import type { DeclaredField } from './declared-fields.js';

type RemoteRead = ResultOf<'operator.settings'>['remote'];

/** The page ids of a field's inputs (a list of lines has one per line). */
function idsOf(field: DeclaredField): readonly string[] {
  const control = field.control;
  return control.kind === 'lines' ? control.lines.map((line) => line.id) : [control.id];
}

export class GovernedFields {
  #remote: RemoteRead = null;
  readonly #summary: HTMLElement;

  constructor(form: HTMLElement) {
    this.#summary = h('p', { className: 'settings-remote', attrs: { id: 'settings-remote', role: 'note' } });
    this.#summary.hidden = true;
    form.prepend(this.#summary);
  }

  read(remote: RemoteRead): void {
    this.#remote = remote;
  }

  /** The document's value of a field it sets (undefined when it sets none). */
  valueOf(field: DeclaredField): { value: unknown } | undefined {
    const governed = this.#remote?.governed ?? {};
    return Object.hasOwn(governed, field.key) ? { value: governed[field.key] } : undefined;
  }

  /** Fills the governed controls with the document's values, locks them and notes why; the others are unlocked. */
  apply(controls: readonly SettingControl[]): void {
    for (const control of controls) {
      const governed = this.valueOf(control.field);
      if (governed !== undefined) control.fill(governed.value);
      for (const id of idsOf(control.field)) {
        const input = byId<HTMLInputElement | HTMLFieldSetElement>(id);
        input.disabled = governed !== undefined;
      }
    }
    this.render(controls);
  }

  /** The notes and the summary, in the language now shown. */
  render(controls: readonly SettingControl[]): void {
    const version = this.#remote?.version ?? null;
    for (const control of controls) {
      const id = idsOf(control.field).at(-1)!;
      const noteId = `${id}-governed`;
      const existing = document.getElementById(noteId);
      if (this.valueOf(control.field) === undefined || version === null) {
        existing?.remove();
        continue;
      }
      const note = existing ?? h('p', { className: 'field-governed', attrs: { id: noteId } });
      note.textContent = t('settings.governed', { version });
      if (existing === null) byId(`${id}-error`).before(note);
      // The note is read with the field, as its description.
      const input = byId(idsOf(control.field)[0]!);
      input.setAttribute('aria-describedby', [noteId, `${id}-error`].join(' '));
    }
    const remote = this.#remote;
    this.#summary.hidden = remote === null;
    if (remote === null) return;
    const check = remote.last_check;
    const refusal = remote.last_refusal;
    fill(
      this.#summary,
      remote.version === null
        ? t('settings.remoteNone', { url: remote.url })
        : t('settings.remoteRuns', { version: remote.version, url: remote.document_url ?? remote.url }),
      check === null
        ? null
        : ` ${t('settings.remoteChecked', { at: new Date(check.at).toLocaleString(currentLanguage() === 'en' ? 'en' : 'pt-BR') })}`,
      refusal === null
        ? null
        : ` ${t('settings.remoteRefused', { code: refusal.code, version: refusal.version ?? '–' })}`,
    );
  }
}
