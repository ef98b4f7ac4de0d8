/**
 * One write-only secret on the settings page — the payments API token, the client certificate's
 * passphrase: a field of its own form (Enter stores the secret, not the whole file), a save
 * button, a line saying whether one is kept and how (never what it is), and its mistake. The
 * agent keeps it (safeStorage in the desktop app, a private file or an environment variable
 * headless); a stored secret leaves the page at once and applies when the agent restarts.
 */
import type { ResultOf } from '../../client/index.js';
import { errorText } from '../context.js';
import { byId } from '../dom.js';
import { t, type MessageKey } from '../i18n.js';

type SettingsRead = ResultOf<'operator.settings'>;

/** How the agent keeps a secret, and whether one is (operator.settings). */
export type StoredSecret = SettingsRead['api_token'];

/**
 * The catalog keys of a secret's sentences, `${prefix}None`, `StoredSafe`, `StoredFile`,
 * `Environment`, `Restart` and `Short` (which takes `{n}`, the shortest length).
 */
type MessagePrefix = 'settings.token' | 'settings.passphrase';

export interface SecretFieldOptions {
  /** The ids of its controls: `${ids}-form`, `-save`, `-status`, `-error`; the input's own id apart. */
  readonly ids: string;
  readonly inputId: string;
  /** The schema's shortest value. */
  readonly minLength: number;
  /** A token's spaces are noise; a passphrase's are part of it. */
  readonly trim: boolean;
  readonly messages: MessagePrefix;
  /** Sends the secret to the agent (its operator method). */
  readonly send: (value: string) => Promise<unknown>;
  /** Reads operator.settings again (how the secret is kept now). */
  readonly reread: () => Promise<SettingsRead>;
  /** This secret's state in operator.settings. */
  readonly stateOf: (read: SettingsRead) => StoredSecret;
  /** Told once a secret is stored (the page then offers the restart). */
  readonly onStored: () => void;
}

export class SecretField {
  readonly #options: SecretFieldOptions;
  readonly #form: HTMLFormElement;
  readonly #input: HTMLInputElement;
  readonly #save: HTMLButtonElement;
  readonly #status: HTMLElement;
  readonly #error: HTMLElement;
  #state: StoredSecret | null = null;
  #justStored = false;

  constructor(options: SecretFieldOptions) {
    this.#options = options;
    this.#form = byId<HTMLFormElement>(`${options.ids}-form`);
    this.#input = byId<HTMLInputElement>(options.inputId);
    this.#save = byId<HTMLButtonElement>(`${options.ids}-save`);
    this.#status = byId(`${options.ids}-status`);
    this.#error = byId(`${options.ids}-error`);
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#store();
    });
  }

  /** Stored since the agent started: it applies at the next restart. */
  get justStored(): boolean {
    return this.#justStored;
  }

  /** How the agent keeps it, as operator.settings said. */
  set state(state: StoredSecret) {
    this.#state = state;
  }

  /** The agent restarted: what was stored is in use. */
  applied(): void {
    this.#justStored = false;
  }

  render(): void {
    const state = this.#state;
    if (state === null) return;
    const prefix = this.#options.messages;
    const fromEnvironment = state.kind === 'environment';
    this.#input.disabled = fromEnvironment;
    this.#save.disabled = fromEnvironment;
    this.#status.dataset.stored = String(state.stored);
    const said: MessageKey = fromEnvironment
      ? `${prefix}Environment`
      : !state.stored
        ? `${prefix}None`
        : state.kind === 'safeStorage'
          ? `${prefix}StoredSafe`
          : `${prefix}StoredFile`;
    this.#status.textContent = this.#justStored ? `${t(said)} ${t(`${prefix}Restart`)}` : t(said);
  }

  async #store(): Promise<void> {
    const { minLength, messages: prefix } = this.#options;
    this.#error.textContent = '';
    this.#input.removeAttribute('aria-invalid');
    const value = this.#options.trim ? this.#input.value.trim() : this.#input.value;
    if (value.length < minLength) {
      this.#error.textContent = t(`${prefix}Short`, { n: minLength });
      this.#input.setAttribute('aria-invalid', 'true');
      this.#input.focus();
      return;
    }
    this.#save.disabled = true;
    try {
      await this.#options.send(value);
      this.#state = this.#options.stateOf(await this.#options.reread());
      // Gone from the page at once: the secret is never shown again, not even to this cashier.
      this.#input.value = '';
      this.#justStored = true;
      this.#options.onStored();
    } catch (error) {
      this.#error.textContent = errorText(error);
      this.#input.setAttribute('aria-invalid', 'true');
    } finally {
      this.#save.disabled = false;
      this.render();
    }
  }
}
