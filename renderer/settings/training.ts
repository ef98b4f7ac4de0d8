/**
 * Configurações → the training switch: the settings file's `training`, saved with the rest. The
 * agent also trains with no payments service set up or when started with --training; that is
 * said beside the switch, so "off" does not read as "not training".
 */
import type { WindowContext } from '../context.js';
import { byId } from '../dom.js';
import { t } from '../i18n.js';
import { TRAINING_ID } from './fields.js';

export class TrainingSwitch {
  readonly #context: WindowContext;
  readonly #switch = byId<HTMLInputElement>(TRAINING_ID);
  readonly #now = byId('settings-training-now');
  /** What the file said when read: an unturned switch leaves the file's value as it was. */
  #shown = false;
  /** The agent trains though the file's switch is off. */
  #trainingAnyway = false;

  constructor(context: WindowContext) {
    this.#context = context;
  }

  /** Shows the file's `training` (anything but true is off), and whether the agent trains anyway. */
  fill(value: unknown): void {
    this.#shown = value === true;
    this.#switch.checked = this.#shown;
    this.#trainingAnyway = this.#context.mode() === 'training' && !this.#shown;
    this.render();
  }

  /** The file's `training` to save: the switch when the cashier turned it; undefined leaves the file's own. */
  draft(): boolean | undefined {
    return this.#switch.checked === this.#shown ? undefined : this.#switch.checked;
  }

  render(): void {
    this.#now.hidden = !this.#trainingAnyway;
    this.#now.textContent = this.#trainingAnyway ? t('settings.trainingNow') : '';
  }
}
