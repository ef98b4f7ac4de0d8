/**
 * Configurações → Supervisor: whether cancelling a sale (or undoing one waiting for confirmation)
 * needs the supervisor's PIN, from what amount, where it is typed, and whether the POS's own
 * cancellations need it too — the `supervisor` section of the settings file, saved with the rest
 * and in use after the restart — and the PIN itself, in a form of its own (Enter stores the PIN,
 * not the file): sent once (operator.setSupervisorPin), in use at once, never shown again; the
 * page only says whether one is set.
 */
import { errorText, type WindowContext } from '../context.js';
import { byId } from '../dom.js';
import { t } from '../i18n.js';
import { formatCentavos, parseCentavos } from '../money.js';
import { isObject, type Json } from './json.js';

type Entry = 'window' | 'pinpad' | 'either';

/** The controls a settings mistake under `supervisor` belongs to. */
export const SUPERVISOR_TARGETS: Readonly<Record<string, string>> = {
  supervisor: 'settings-supervisor-required',
  'supervisor.required_for': 'settings-supervisor-required',
  'supervisor.min_amount_centavos': 'settings-supervisor-min-amount',
  'supervisor.entry': 'settings-supervisor-entry',
  'supervisor.pos_voids': 'settings-supervisor-pos',
};

const PIN_PATTERN = /^\d{4,8}$/;

/** The section as the controls show it: what the file says, with the defaults where it says nothing. */
interface Shown {
  readonly required: boolean;
  readonly minAmount: string;
  readonly entry: Entry | null;
  readonly posPinpad: boolean;
}

export class SupervisorSettings {
  readonly #context: WindowContext;
  readonly #required = byId<HTMLInputElement>('settings-supervisor-required');
  readonly #minAmount = byId<HTMLInputElement>('settings-supervisor-min-amount');
  readonly #pos = byId<HTMLInputElement>('settings-supervisor-pos');
  readonly #pinForm = byId<HTMLFormElement>('settings-supervisor-pin-form');
  readonly #pin = byId<HTMLInputElement>('settings-supervisor-pin');
  readonly #pinSave = byId<HTMLButtonElement>('settings-supervisor-pin-save');
  readonly #pinStatus = byId('settings-supervisor-pin-status');
  readonly #pinError = byId('settings-supervisor-pin-error');
  #shown: Shown = { required: false, minAmount: '', entry: 'window', posPinpad: false };
  /** The file's section as read (its keys this card does not edit are kept). */
  #section: Json = {};
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

  /** Shows the file's section (absent: the defaults, no supervisor). */
  fill(section: unknown): void {
    this.#section = isObject(section) ? section : {};
    const { required_for: requiredFor, min_amount_centavos: minAmount, entry, pos_voids: posVoids } = this.#section;
    const shownEntry: Entry | null =
      entry === undefined ? 'window' : entry === 'window' || entry === 'pinpad' || entry === 'either' ? entry : null;
    this.#shown = {
      required: requiredFor === 'voids',
      minAmount: typeof minAmount === 'number' && minAmount > 0 ? formatCentavos(minAmount).replace(/^R\$\s*/, '') : '',
      entry: shownEntry,
      posPinpad: posVoids === 'pinpad',
    };
    this.#required.checked = this.#shown.required;
    this.#minAmount.value = this.#shown.minAmount;
    for (const radio of this.#entryRadios()) radio.checked = radio.value === this.#shown.entry;
    this.#pos.checked = this.#shown.posPinpad;
  }

  /** The section to save, or undefined for "no section" (the defaults); the file's own when nothing changed. */
  draft(): Json | undefined {
    const entry = (this.#entryRadios().find((radio) => radio.checked)?.value ?? this.#shown.entry) as Entry | null;
    const typed = this.#minAmount.value.trim();
    const unchanged =
      this.#required.checked === this.#shown.required &&
      typed === this.#shown.minAmount &&
      entry === this.#shown.entry &&
      this.#pos.checked === this.#shown.posPinpad;
    if (unchanged) return Object.keys(this.#section).length === 0 ? undefined : this.#section;
    const section: Json = { ...this.#section };
    const set = (key: string, value: unknown, byDefault: unknown): void => {
      if (value === byDefault) delete section[key];
      else section[key] = value;
    };
    set('required_for', this.#required.checked ? 'voids' : 'none', 'none');
    // A blank amount is every sale; what is not an amount goes as typed, and the agent's refusal is said at the field.
    set('min_amount_centavos', typed === '' ? 0 : (parseCentavos(typed) ?? typed), 0);
    set('entry', entry ?? 'window', 'window');
    set('pos_voids', this.#pos.checked ? 'pinpad' : 'trusted', 'trusted');
    return Object.keys(section).length === 0 ? undefined : section;
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

  #entryRadios(): HTMLInputElement[] {
    return [...document.querySelectorAll<HTMLInputElement>('input[name="settings-supervisor-entry"]')];
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
