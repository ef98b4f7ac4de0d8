/**
 * Configurações → Supervisor: the PIN itself, in a form of its own (Enter stores the PIN, not the
 * file): sent once (operator.setSupervisorPin), in use at once, never shown again; the page only
 * says whether one is set. (The card's settings — whether cancelling a sale needs the PIN, from
 * what amount, where it is typed, whether the POS's own cancellations need it too — are the
 * settings form's, declared in main/core/settings-fields.ts and saved with the rest.)
 */
import { errorText, type WindowContext } from '../context.js';
import { byId } from '../dom.js';
import { t } from '../i18n.js';

const PIN_PATTERN = /^\d{4,8}$/;

export class SupervisorPin {
  readonly #context: WindowContext;
  readonly #pinForm = byId<HTMLFormElement>('settings-supervisor-pin-form');
  readonly #pin = byId<HTMLInputElement>('settings-supervisor-pin');
  readonly #pinSave = byId<HTMLButtonElement>('settings-supervisor-pin-save');
  readonly #pinStatus = byId('settings-supervisor-pin-status');
  readonly #pinError = byId('settings-supervisor-pin-error');
  #pinStored: boolean | null = null;
  #pinTampered = false;
  #justStored = false;

  constructor(context: WindowContext) {
    this.#context = context;
    this.#pinForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#storePin();
    });
  }

  /** Whether a PIN is stored (operator.settings). */
  set pinStored(stored: boolean) {
    this.#pinStored = stored;
  }

  /** Whether the PIN's file was changed outside Pinbridge (operator.settings): no PIN is taken until it is set again. */
  set pinTampered(tampered: boolean) {
    this.#pinTampered = tampered;
  }

  render(): void {
    if (this.#pinStored === null) return;
    const said = this.#pinTampered
      ? t('supervisor.pinTampered')
      : this.#pinStored
        ? t('supervisor.pinStored')
        : t('supervisor.pinNone');
    this.#pinStatus.textContent = this.#justStored ? `${said} ${t('supervisor.pinNow')}` : said;
    this.#pinStatus.dataset.stored = String(this.#pinStored);
    this.#pinStatus.dataset.tampered = String(this.#pinTampered);
  }

  async #storePin(): Promise<void> {
    this.#pinError.textContent = '';
    this.#pin.removeAttribute('aria-invalid');
    const pin = this.#pin.value.trim();
    if (!PIN_PATTERN.test(pin)) {
      this.#pinError.textContent = t('supervisor.pinInvalid');
      this.#pin.setAttribute('aria-invalid', 'true');
      this.#pin.focus();
      return;
    }
    this.#pinSave.disabled = true;
    try {
      await this.#context.client.call('operator.setSupervisorPin', { pin });
      // Gone from the page at once: the PIN is never shown again.
      this.#pin.value = '';
      this.#pinStored = true;
      this.#pinTampered = false;
      this.#justStored = true;
    } catch (error) {
      this.#pinError.textContent = errorText(error);
      this.#pin.setAttribute('aria-invalid', 'true');
    } finally {
      this.#pinSave.disabled = false;
      this.render();
    }
  }
}
