/**
 * Configurações → beside the training switch (the settings file's `training`, a declared setting
 * the form fills and saves): the agent also trains with no payments service set up or when
 * started with --training; that is said beside the switch, so "off" does not read as "not
 * training".
 */
import type { WindowContext } from '../context.js';
import { byId } from '../dom.js';
import { t } from '../i18n.js';

export class TrainingNote {
  readonly #context: WindowContext;
  readonly #now = byId('settings-training-now');
  /** The agent trains though the file's switch is off. */
  #trainingAnyway = false;

  constructor(context: WindowContext) {
    this.#context = context;
  }

  /** The file's `training` as read (anything but true is off): whether the agent trains anyway. */
  fill(value: unknown): void {
    this.#trainingAnyway = this.#context.mode() === 'training' && value !== true;
    this.render();
  }

  render(): void {
    this.#now.hidden = !this.#trainingAnyway;
    this.#now.textContent = this.#trainingAnyway ? t('settings.trainingNow') : '';
  }
}
