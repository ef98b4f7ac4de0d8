/**
 * The settings page: a form over the settings file as operator.settings returns it (docs/settings.md)
 * for the fields a store sets up at the checkout — the payments API, the PINPAD (with the serial
 * ports operator.detectPinpads finds and the Bluetooth LE PINPADs operator.scanBle hears), the
 * confirmation policy, training mode, the store on the receipts and the default printer (with the
 * operating system's printers operator.systemPrinters lists as lp://NAME, and a test print,
 * operator.testPrint, followed to its end by the printer.job events). Saving (operator.saveSettings) writes the whole file back with
 * every other key as it was: a field the cashier did not touch keeps the file's value exactly.
 * The agent checks the file; each mistake it names is shown next to its field and nothing typed
 * is lost. The API token and the client certificate's passphrase are write-only
 * (operator.setApiToken, operator.setCertificatePassphrase; secret-field.ts): the page says whether
 * one is kept, never what it is. A file the agent started despite (`problem`) is a banner on top.
 */
import { isPinbridgeError, type ResultOf } from '../client/index.js';
import { errorText, type WindowContext } from './context.js';
import { confirmAction } from './dialog.js';
import { button, byId, fill, h, keepFocus } from './dom.js';
import { currentLanguage, t } from './i18n.js';
import { printErrorText } from './labels.js';
import { SecretField } from './secret-field.js';
import { SUPERVISOR_TARGETS, SupervisorSettings } from './supervisor-settings.js';

type SettingsRead = ResultOf<'operator.settings'>;
type DetectedPort = ResultOf<'operator.detectPinpads'>['ports'][number];
type BleDevice = ResultOf<'operator.scanBle'>['devices'][number];
type SystemPrinter = ResultOf<'operator.systemPrinters'>['printers'][number];
type PrintJobView = ResultOf<'operator.testPrint'>;
type Json = Record<string, unknown>;

/** A settings mistake as the agent names it: a stable code, English, and the cashier's pt-BR. */
interface Violation {
  readonly field: string;
  readonly code?: string;
  readonly message: string;
  readonly cashier_message?: string;
}

/** A text input and where its value lives in the file. */
interface TextField {
  readonly id: string;
  readonly path: readonly string[];
  /** What is compared and saved: the CNPJ without its dots, slash, dash and spaces, in uppercase. */
  readonly normalize?: (value: string) => string;
}

const TEXT_FIELDS: readonly TextField[] = [
  { id: 'settings-api-base-url', path: ['api', 'base_url'] },
  { id: 'settings-api-marketplace-id', path: ['api', 'marketplace_id'] },
  { id: 'settings-api-seller-id', path: ['api', 'seller_id'] },
  { id: 'settings-pinpad-address', path: ['pinpad', 'address'] },
  { id: 'settings-merchant-name', path: ['receipts', 'merchant', 'name'] },
  { id: 'settings-merchant-cnpj', path: ['receipts', 'merchant', 'cnpj'], normalize: normalizeCnpj },
  { id: 'settings-printer-address', path: ['printers', 'default', 'address'] },
];
/**
 * The CNPJ as the cashier types or pastes it, as the settings file keeps it: "12.abc.345/01de-35"
 * → "12ABC34501DE35" (an alphanumeric CNPJ has letters). Only the mask and spaces are dropped and
 * only a–z uppercased (as main/validation/taxpayer-id.ts normalizes); anything else stays for
 * the agent to refuse next to the field.
 */
function normalizeCnpj(value: string): string {
  return value.replace(/[.\-/\s]/g, '').replace(/[a-z]/g, (letter) => letter.toUpperCase());
}

const ADDRESS_PATH = ['receipts', 'merchant', 'address'] as const;
const ADDRESS_LINES = 4;
const addressLineId = (index: number): string => `settings-merchant-address-${index}`;
const CONFIRMATION_TARGET = 'settings-confirmation';
const TRAINING_ID = 'settings-training';
/** The schemas' shortest token and passphrase (operator.setApiToken, operator.setCertificatePassphrase). */
const TOKEN_MIN_LENGTH = 8;
const PASSPHRASE_MIN_LENGTH = 1;
/** How long a Bluetooth LE scan listens: long enough for a PINPAD advertising every second or two. */
const BLE_SCAN_SECONDS = 5;

/** The Bluetooth LE search, as the page shows it (kept to show it again in another language). */
type BleScan =
  | { readonly kind: 'idle' }
  | { readonly kind: 'scanning' }
  | { readonly kind: 'found'; readonly devices: readonly BleDevice[]; readonly chosen: string | null }
  | { readonly kind: 'failed'; readonly error: unknown };

/** The operating system's printers, as the page shows them (kept to show them again in another language). */
type SystemPrinters =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'found'; readonly printers: readonly SystemPrinter[]; readonly chosen: string | null }
  | { readonly kind: 'failed'; readonly error: unknown };

/** The last test print: being sent, its job as the agent last told, or why there was none. */
type TestPrint =
  | { readonly kind: 'idle' }
  | { readonly kind: 'sending' }
  | { readonly kind: 'job'; readonly job: PrintJobView }
  | { readonly kind: 'off' }
  | { readonly kind: 'failed'; readonly error: unknown };

/** A job in one of these states will not change again. */
const FINAL_JOB_STATES: ReadonlySet<PrintJobView['state']> = new Set(['printed', 'failed', 'cancelled']);

/** The signal strength in words (a cashier does not read dBm): about a metre away is strong. */
function signalWords(rssi: number): string {
  const words =
    rssi >= -65
      ? t('settings.bleSignalStrong')
      : rssi >= -80
        ? t('settings.bleSignalMedium')
        : t('settings.bleSignalWeak');
  return t('settings.bleSignal', { signal: words, rssi });
}

/**
 * Which control a mistake belongs to, by the field's path in the file: the exact field, else the
 * control that stands for the section the mistake names (a missing `receipts.merchant` is the
 * store's name). A mistake elsewhere in the file (a key this page does not edit) has none.
 */
function targetOf(path: string): string | null {
  const exact = TEXT_FIELDS.find((field) => field.path.join('.') === path);
  if (exact !== undefined) return exact.id;
  const line = /^receipts\.merchant\.address\.(\d+)$/.exec(path)?.[1];
  if (line !== undefined) return addressLineId(Math.min(Number(line), ADDRESS_LINES - 1));
  const sections: Readonly<Record<string, string>> = {
    confirmation: CONFIRMATION_TARGET,
    training: TRAINING_ID,
    api: 'settings-api-base-url',
    'api.client_certificate': 'settings-cert-passphrase',
    pinpad: 'settings-pinpad-address',
    receipts: 'settings-merchant-name',
    'receipts.merchant': 'settings-merchant-name',
    'receipts.merchant.address': addressLineId(0),
    printers: 'settings-printer-address',
    'printers.default': 'settings-printer-address',
    ...SUPERVISOR_TARGETS,
  };
  return sections[path] ?? null;
}

/**
 * The cashier's sentence for a refused field, where the page has one of its own — for a mistake
 * the agent sent no pt-BR sentence for (the agent names every rule's code and sentence).
 */
function knownFieldMessage(path: string, message: string): string | null {
  if (path === 'api' && /no API token is stored/.test(message)) return t('settings.violationNoToken');
  if (path === 'api.client_certificate')
    return /passphrase/i.test(message) ? t('settings.violationPassphrase') : t('settings.violationCertificate');
  if (/is required|must not be empty/.test(message)) return t('settings.violationRequired');
  if (path === 'api.base_url') return t('settings.violationUrl');
  if (path === 'receipts.merchant.cnpj')
    return /check digits/.test(message) ? t('settings.violationCnpjDigits') : t('settings.violationCnpj');
  if (path === 'confirmation') return t('settings.violationChoice');
  if (path === 'pinpad.address') return t('settings.violationPinpadAddress');
  if (path === 'receipts.time_zone') return t('settings.violationTimeZone');
  if (path === 'supervisor.min_amount_centavos') return t('settings.violationAmount');
  if (/^printers\.[^.]+\.address$/.test(path)) return t('settings.violationPrinterAddress');
  return null;
}

/**
 * Fields the page converts before sending (an amount typed in reais goes to the file in centavos):
 * the agent's sentence speaks of the file's value, the page's of what the cashier typed.
 */
const CONVERTED_FIELDS: ReadonlySet<string> = new Set(['supervisor.min_amount_centavos']);

/** A refused field in the cashier's words; a rule the page has no words for is "not accepted", the agent's English as the detail. */
function fieldMessage(violation: Violation): string {
  const known = knownFieldMessage(violation.field, violation.message);
  if (currentLanguage() === 'en') return known ?? violation.message;
  const agentWords = CONVERTED_FIELDS.has(violation.field) ? undefined : violation.cashier_message;
  return agentWords ?? known ?? t('settings.violationOther', { message: violation.message });
}

/** A start-up mistake in the cashier's words where the page knows them, with the agent's English sentence as the technical detail. */
function problemText(violation: Violation): (HTMLElement | string)[] {
  const said =
    currentLanguage() === 'en'
      ? knownFieldMessage(violation.field, violation.message)
      : (violation.cashier_message ??
        knownFieldMessage(violation.field, violation.message) ??
        t('settings.violationOtherShort'));
  const english = h('span', { attrs: { lang: 'en' } }, violation.message);
  return said === null ? [english] : [said, ' (', english, ')'];
}

/** The name the cashier sees on the control a mistake belongs to. */
function labelOf(target: string): string | null {
  if (target === CONFIRMATION_TARGET) return t('settings.confirmation');
  if (target === TRAINING_ID) return t('settings.training');
  return document.querySelector(`label[for="${target}"]`)?.textContent?.trim() ?? null;
}

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function valueAt(root: Json | null, path: readonly string[]): unknown {
  let node: unknown = root;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return node;
}

/** Sets (or, for undefined, removes) a value, creating the sections on the way; a section left empty by a removal goes too. */
function setAt(root: Json, path: readonly string[], value: unknown): void {
  const parents: Json[] = [];
  let node = root;
  for (const key of path.slice(0, -1)) {
    parents.push(node);
    const next = node[key];
    if (isObject(next)) node = next;
    else if (value === undefined) return;
    else node = node[key] = {};
  }
  const last = path[path.length - 1] ?? '';
  if (value !== undefined) {
    node[last] = value;
    return;
  }
  delete node[last];
  for (let depth = parents.length - 1; depth >= 0; depth--) {
    const parent = parents[depth];
    const key = path[depth] ?? '';
    if (parent === undefined || !isObject(parent[key]) || Object.keys(parent[key]).length > 0) break;
    delete parent[key];
  }
}

/** A file value as the text a field shows (anything not a string or a number shows blank). */
function shownText(value: unknown): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : '';
}

/**
 * The restart that applies what was saved: asked (the call in flight), under way (answered, or the
 * connection already gone), back (the connection returned; the settings read next tell whether the
 * saved ones run), restarted, not applied (the agent fell back to the previous ones, with the
 * reason), or refused (with the error, said in the language shown).
 */
type RestartState =
  | { readonly kind: 'idle' | 'asking' | 'restarting' | 'lost' | 'back' | 'restarted' }
  | { readonly kind: 'refused'; readonly error: unknown }
  | { readonly kind: 'notApplied'; readonly reason: string };

/** What the restart's status line says, in the language shown. */
function restartText(restart: RestartState): string {
  switch (restart.kind) {
    case 'refused':
      if (isPinbridgeError(restart.error, 'BUSY')) return t('settings.restartBusy');
      if (isPinbridgeError(restart.error, 'INVALID_STATE')) return t('settings.restartByHand');
      return errorText(restart.error);
    case 'notApplied':
      return t('settings.notApplied', { reason: restart.reason });
    case 'restarting':
    case 'lost':
    case 'back':
      return t('settings.restarting');
    case 'restarted':
      return t('settings.restarted');
    default:
      return '';
  }
}

export class SettingsPage {
  readonly #context: WindowContext;
  /** The file as last read: what a save starts from. */
  #file: Json | null = null;
  #loaded = false;
  #filePath = '';
  #fileExists = false;
  #problem: SettingsRead['problem'] = null;
  /** Saved from this window since the agent started: the start-up mistakes are no longer in the file. */
  #savedSinceStart = false;
  /** What each control showed when the file was read: an unchanged control leaves the file's value as it was. */
  #shown = new Map<string, string>();
  #shownConfirmation: string | null = null;
  #shownTraining = false;
  /** The cashier typed since the last read: a new read must not throw it away. */
  #dirty = false;
  #saving = false;
  #ports: DetectedPort[] | null = null;
  #ble: BleScan = { kind: 'idle' };
  #systemPrinters: SystemPrinters = { kind: 'idle' };
  #testPrint: TestPrint = { kind: 'idle' };
  #restart: RestartState = { kind: 'idle' };
  /**
   * printer.job events that came while the test print's call was in flight: the job can change
   * state before its answer arrives, and the answer must not take it back to "queued".
   */
  readonly #jobsWhileSending = new Map<string, PrintJobView>();
  /** The mistakes shown next to the fields, and whether a save was refused for them (kept to re-render them in another language). */
  #shownErrors: { readonly violations: readonly Violation[]; readonly refusedSave: boolean } = {
    violations: [],
    refusedSave: false,
  };

  readonly #form = byId<HTMLFormElement>('settings-form');
  readonly #loading = byId('settings-loading');
  readonly #loadError = byId('settings-load-error');
  readonly #path = byId('settings-path');
  readonly #problemBox = byId('settings-problem');
  readonly #problemList = byId('settings-problem-list');
  readonly #problemSaved = byId('settings-problem-saved');
  readonly #save = byId<HTMLButtonElement>('settings-save');
  readonly #message = byId('settings-message');
  readonly #error = byId('settings-error');
  readonly #token: SecretField;
  readonly #passphrase: SecretField;
  readonly #supervisor: SupervisorSettings;
  readonly #detect = byId<HTMLButtonElement>('settings-pinpad-detect');
  readonly #portsStatus = byId('settings-ports-status');
  readonly #portsList = byId('settings-ports');
  readonly #bleScan = byId<HTMLButtonElement>('settings-pinpad-ble');
  readonly #bleStatus = byId('settings-ble-status');
  readonly #bleList = byId('settings-ble-devices');
  readonly #systemPrintersButton = byId<HTMLButtonElement>('settings-printer-system');
  readonly #systemPrintersStatus = byId('settings-system-printers-status');
  readonly #systemPrintersList = byId('settings-system-printers');
  readonly #testPrintButton = byId<HTMLButtonElement>('settings-test-print');
  readonly #testPrintStatus = byId('settings-test-print-status');
  readonly #training = byId<HTMLInputElement>(TRAINING_ID);
  readonly #trainingNow = byId('settings-training-now');
  readonly #restartBox = byId('settings-restart');
  readonly #restartTitle = byId('settings-restart-title');
  readonly #restartText = byId('settings-restart-text');
  readonly #restartButton = byId<HTMLButtonElement>('settings-restart-now');
  readonly #restartStatus = byId('settings-restart-status');

  constructor(context: WindowContext) {
    this.#context = context;
    const secret = {
      reread: () => context.client.call('operator.settings', {}),
      onStored: () => this.#renderRestart(),
    };
    this.#token = new SecretField({
      ...secret,
      ids: 'settings-token',
      inputId: 'settings-api-token',
      minLength: TOKEN_MIN_LENGTH,
      trim: true,
      messages: 'settings.token',
      send: (token) => context.client.call('operator.setApiToken', { token }),
      stateOf: (read) => read.api_token,
    });
    this.#passphrase = new SecretField({
      ...secret,
      ids: 'settings-passphrase',
      inputId: 'settings-cert-passphrase',
      minLength: PASSPHRASE_MIN_LENGTH,
      trim: false,
      messages: 'settings.passphrase',
      send: (passphrase) => context.client.call('operator.setCertificatePassphrase', { passphrase }),
      stateOf: (read) => read.certificate_passphrase,
    });
    this.#supervisor = new SupervisorSettings(context);
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#saveSettings();
    });
    this.#form.addEventListener('input', (event) => {
      // The secrets' fields belong to forms of their own: typing one is not an unsaved setting.
      if (
        !this.#token.owns(event.target) &&
        !this.#passphrase.owns(event.target) &&
        !this.#supervisor.owns(event.target)
      )
        this.#dirty = true;
    });
    this.#detect.addEventListener('click', () => void this.#detectPinpads());
    this.#bleScan.addEventListener('click', () => void this.#scanBle());
    this.#systemPrintersButton.addEventListener('click', () => void this.#listSystemPrinters());
    this.#testPrintButton.addEventListener('click', () => void this.#printTest());
    context.client.on('printer.job', (job) => this.#onPrintJob(job));
    this.#restartButton.addEventListener('click', () => void this.#restartAgent());
    context.client.on('state', (state) => this.#onConnection(state));
  }

  /** Reads the file; what the cashier has typed and not saved stays on screen. */
  async load(): Promise<void> {
    let read: SettingsRead;
    try {
      read = await this.#context.client.call('operator.settings', {});
    } catch (error) {
      if (!this.#loaded) {
        this.#loading.hidden = true;
        this.#loadError.textContent = errorText(error);
      }
      return;
    }
    this.#loadError.textContent = '';
    if (this.#restart.kind === 'back') this.#restartDone(read.not_applied);
    this.#problem = read.problem;
    this.#token.state = read.api_token;
    this.#passphrase.state = read.certificate_passphrase;
    this.#supervisor.pinStored = read.supervisor_pin.stored;
    this.#filePath = read.path;
    this.#fileExists = read.settings !== null;
    if (!this.#dirty) {
      this.#file = read.settings;
      this.#fillForm();
      this.#showErrors(this.#savedSinceStart ? [] : (read.problem?.violations ?? []), false);
    }
    this.#loaded = true;
    this.#loading.hidden = true;
    this.#form.hidden = false;
    this.render();
  }

  render(): void {
    if (!this.#loaded) return;
    this.#path.textContent = this.#fileExists
      ? t('settings.path', { path: this.#filePath })
      : t('settings.noFile', { path: this.#filePath });
    this.#renderProblem();
    this.#token.render();
    this.#passphrase.render();
    this.#supervisor.render();
    this.#renderPorts();
    this.#renderBle();
    this.#renderSystemPrinters();
    this.#renderTestPrint();
    this.#renderRestart();
    this.#showErrors(this.#shownErrors.violations, this.#shownErrors.refusedSave);
    this.#save.disabled = this.#saving;
  }

  #renderProblem(): void {
    const problem = this.#problem;
    this.#problemBox.hidden = problem === null;
    fill(
      this.#problemList,
      ...(problem?.violations ?? []).map((violation) => {
        const target = targetOf(violation.field);
        const label = target === null ? null : labelOf(target);
        return h(
          'li',
          { attrs: { 'data-field': violation.field } },
          h('code', {}, violation.field),
          label === null ? null : ` (${label})`,
          ': ',
          ...problemText(violation),
        );
      }),
    );
    this.#problemSaved.hidden = !this.#savedSinceStart;
  }

  #fillForm(): void {
    const file = this.#file;
    this.#shown.clear();
    for (const field of TEXT_FIELDS) {
      const text = shownText(valueAt(file, field.path));
      byId<HTMLInputElement>(field.id).value = text;
      this.#shown.set(field.id, text);
    }
    const address = valueAt(file, ADDRESS_PATH);
    const lines = Array.isArray(address) ? address.map(shownText) : [];
    for (let index = 0; index < ADDRESS_LINES; index++) {
      const text = lines[index] ?? '';
      byId<HTMLInputElement>(addressLineId(index)).value = text;
      this.#shown.set(addressLineId(index), text);
    }
    // No key in the file is the default ("auto"); a value the schema refuses checks neither.
    const confirmation = valueAt(file, ['confirmation']);
    this.#shownConfirmation =
      confirmation === undefined ? 'auto' : confirmation === 'auto' || confirmation === 'pos' ? confirmation : null;
    for (const radio of this.#confirmationRadios()) radio.checked = radio.value === this.#shownConfirmation;
    this.#shownTraining = valueAt(file, ['training']) === true;
    this.#training.checked = this.#shownTraining;
    // The switch is the file's setting; the agent also trains with no payments service set up or when
    // started with --training. Said beside the switch, so "off" does not read as "not training".
    const trainingNow = this.#context.mode() === 'training' && !this.#shownTraining;
    this.#trainingNow.hidden = !trainingNow;
    this.#trainingNow.textContent = trainingNow ? t('settings.trainingNow') : '';
    this.#supervisor.fill(valueAt(file, ['supervisor']));
    this.#dirty = false;
  }

  #confirmationRadios(): HTMLInputElement[] {
    return [...this.#form.querySelectorAll<HTMLInputElement>('input[name="settings-confirmation"]')];
  }

  /** The file to save: the one read, with what the cashier changed. */
  #draft(): Json {
    const draft: Json = structuredClone(this.#file ?? {});
    for (const field of TEXT_FIELDS) {
      const normalize = field.normalize ?? ((value: string) => value);
      const value = normalize(byId<HTMLInputElement>(field.id).value.trim());
      if (value === normalize((this.#shown.get(field.id) ?? '').trim())) continue;
      setAt(draft, field.path, value === '' ? undefined : value);
    }
    const lineIds = Array.from({ length: ADDRESS_LINES }, (_, index) => addressLineId(index));
    const changed = lineIds.some(
      (id) => byId<HTMLInputElement>(id).value.trim() !== (this.#shown.get(id) ?? '').trim(),
    );
    if (changed) {
      const lines = lineIds.map((id) => byId<HTMLInputElement>(id).value.trim()).filter((line) => line !== '');
      setAt(draft, ADDRESS_PATH, lines.length === 0 ? undefined : lines);
    }
    const confirmation = this.#confirmationRadios().find((radio) => radio.checked)?.value ?? null;
    if (confirmation !== null && confirmation !== this.#shownConfirmation) draft.confirmation = confirmation;
    if (this.#training.checked !== this.#shownTraining) draft.training = this.#training.checked;
    setAt(draft, ['supervisor'], this.#supervisor.draft());
    return draft;
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
      await this.load();
      this.#message.textContent = t('settings.saved');
      // A new save starts afresh: the last restart's outcome is about other settings.
      if (this.#restart.kind === 'restarted' || this.#restart.kind === 'refused' || this.#restart.kind === 'notApplied')
        this.#restart = { kind: 'idle' };
      this.#renderRestart();
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
    const targets = [
      ...TEXT_FIELDS.map((field) => field.id),
      ...Array.from({ length: ADDRESS_LINES }, (_, index) => addressLineId(index)),
      CONFIRMATION_TARGET,
      TRAINING_ID,
      ...new Set(Object.values(SUPERVISOR_TARGETS)),
    ];
    for (const target of targets) {
      const messages = byTarget.get(target) ?? [];
      byId(`${target}-error`).textContent = [...new Set(messages)].join(' ');
      // A choice's mistake marks its options (a fieldset is no control).
      const radios =
        target === CONFIRMATION_TARGET
          ? this.#confirmationRadios()
          : [...byId(target).querySelectorAll<HTMLInputElement>('input[type="radio"]')];
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

  /** Read afresh after an await: the connection's events change it meanwhile. */
  #restartKind(): RestartState['kind'] {
    return this.#restart.kind;
  }

  /** Something saved here waits for a restart to apply. */
  get #restartPending(): boolean {
    return this.#savedSinceStart || this.#token.justStored || this.#passphrase.justStored;
  }

  #renderRestart(): void {
    const restart = this.#restart;
    this.#restartBox.hidden = !this.#restartPending && restart.kind !== 'restarted';
    // Once back with the new settings, only the outcome is left to say.
    this.#restartButton.hidden = restart.kind === 'restarted';
    this.#restartText.hidden = restart.kind === 'restarted';
    this.#restartButton.disabled =
      restart.kind === 'asking' || restart.kind === 'restarting' || restart.kind === 'lost' || restart.kind === 'back';
    this.#restartStatus.dataset.state = restart.kind;
    this.#restartStatus.textContent = restartText(restart);
  }

  async #restartAgent(): Promise<void> {
    const confirmed = await confirmAction({
      title: t('settings.restartConfirmTitle'),
      text: t('settings.restartConfirmText'),
      confirm: t('settings.restartConfirm'),
    });
    if (!confirmed) return;
    this.#restart = { kind: 'asking' };
    this.#renderRestart();
    try {
      await this.#context.client.call('operator.restart', {});
      // The connection may already be gone (and back) by the time the answer is read.
      if (this.#restartKind() === 'asking') this.#restart = { kind: 'restarting' };
    } catch (error) {
      // The answer lost with the connection the restart closed: the restart is under way.
      if (this.#restartKind() === 'lost') return;
      this.#restart = { kind: 'refused', error };
    }
    this.#renderRestart();
  }

  /** The agent went away after the restart asked, and came back: the next settings read tells how. */
  #onConnection(state: string): void {
    const kind = this.#restart.kind;
    if (state !== 'ready' && (kind === 'asking' || kind === 'restarting')) this.#restart = { kind: 'lost' };
    // The window reads the settings on every reconnection (main.ts): load() ends the restart.
    else if (state === 'ready' && kind === 'lost') this.#restart = { kind: 'back' };
    this.#renderRestart();
  }

  /** Back after the restart: the saved settings run, or the agent fell back to the previous ones. */
  #restartDone(notApplied: string | null): void {
    if (notApplied !== null) {
      this.#restart = { kind: 'notApplied', reason: notApplied };
    } else {
      this.#restart = { kind: 'restarted' };
      this.#savedSinceStart = false;
      this.#token.applied();
      this.#passphrase.applied();
      // "Saved, applies when Pinbridge restarts" is no longer true: it has.
      this.#message.textContent = '';
    }
    this.#renderRestart();
    this.#token.render();
    this.#passphrase.render();
    this.#restartTitle.focus();
  }

  async #detectPinpads(): Promise<void> {
    this.#detect.disabled = true;
    this.#ports = null;
    this.#portsList.replaceChildren();
    this.#portsStatus.textContent = t('settings.detecting');
    try {
      this.#ports = (await this.#context.client.call('operator.detectPinpads', {})).ports;
      this.#renderPorts();
    } catch (error) {
      this.#portsStatus.textContent = errorText(error);
    } finally {
      this.#detect.disabled = false;
    }
  }

  #renderPorts(): void {
    const ports = this.#ports;
    if (ports === null) return;
    this.#portsStatus.textContent =
      ports.length === 0
        ? t('settings.portsNone')
        : ports.length === 1
          ? t('settings.portsOne')
          : t('settings.portsMany', { n: ports.length });
    this.#portsList.replaceChildren(
      ...ports.map((port) => {
        const device =
          [port.maker, port.model].filter((part): part is string => part !== null && part !== '').join(' ') ||
          port.manufacturer ||
          t('settings.portUnknown');
        return h(
          'li',
          { attrs: { 'data-address': port.address, 'data-likely': String(port.likely_pinpad) } },
          h(
            'span',
            { className: 'port-name' },
            h('code', {}, port.address),
            ' — ',
            device,
            port.likely_pinpad ? h('strong', {}, ` (${t('settings.portLikely')})`) : null,
          ),
          button(t('settings.portUse'), {
            label: t('settings.portUseLabel', { address: port.address }),
            onClick: () => this.#usePort(port.address),
          }),
        );
      }),
    );
  }

  #usePort(address: string): void {
    this.#fillPinpadAddress(address);
    this.#portsStatus.textContent = t('settings.portChosen', { address });
  }

  /** The address chosen goes into the PINPAD field, unsaved, and the cashier lands there to check it. */
  #fillPinpadAddress(address: string): void {
    const input = byId<HTMLInputElement>('settings-pinpad-address');
    input.value = address;
    this.#dirty = true;
    input.focus();
  }

  async #scanBle(): Promise<void> {
    this.#bleScan.disabled = true;
    this.#ble = { kind: 'scanning' };
    this.#renderBle();
    try {
      const { devices } = await this.#context.client.call('operator.scanBle', { seconds: BLE_SCAN_SECONDS });
      this.#ble = { kind: 'found', devices, chosen: null };
    } catch (error) {
      this.#ble = { kind: 'failed', error };
    } finally {
      this.#bleScan.disabled = false;
      this.#renderBle();
    }
  }

  #renderBle(): void {
    const scan = this.#ble;
    if (scan.kind === 'idle') return;
    // A search that failed says so in colour too.
    if (scan.kind === 'failed') this.#bleStatus.dataset.level = 'bad';
    else delete this.#bleStatus.dataset.level;
    if (scan.kind !== 'found') {
      this.#bleList.replaceChildren();
      if (scan.kind === 'scanning')
        this.#bleStatus.textContent = t('settings.bleScanning', { seconds: BLE_SCAN_SECONDS });
      // No adapter, Bluetooth off, or no native Bluetooth module: all the same to the cashier.
      else
        this.#bleStatus.textContent =
          isPinbridgeError(scan.error, 'PINPAD_ERROR') && scan.error.data?.reason === 'BLE_UNAVAILABLE'
            ? t('settings.bleUnavailable')
            : errorText(scan.error);
      return;
    }
    const { devices, chosen } = scan;
    this.#bleStatus.textContent =
      chosen !== null
        ? t('settings.bleChosen', { address: chosen })
        : devices.length === 0
          ? t('settings.bleNone')
          : devices.length === 1
            ? t('settings.bleOne')
            : t('settings.bleMany', { n: devices.length });
    keepFocus(this.#bleList, () =>
      this.#bleList.replaceChildren(
        ...devices.map((device) => {
          const name = device.name ?? t('settings.bleNoName');
          return h(
            'li',
            { attrs: { 'data-address': device.address, 'data-rssi': String(device.rssi) } },
            h(
              'span',
              { className: 'port-name' },
              h('code', {}, device.address),
              ' — ',
              name,
              ', ',
              signalWords(device.rssi),
            ),
            button(t('settings.portUse'), {
              label: t('settings.bleUseLabel', { name, address: device.address }),
              focusKey: `ble:${device.address}`,
              onClick: () => this.#useBle(device.address),
            }),
          );
        }),
      ),
    );
  }

  #useBle(address: string): void {
    if (this.#ble.kind === 'found') this.#ble = { ...this.#ble, chosen: address };
    this.#renderBle();
    this.#fillPinpadAddress(address);
  }

  async #listSystemPrinters(): Promise<void> {
    this.#systemPrintersButton.disabled = true;
    this.#systemPrinters = { kind: 'loading' };
    this.#renderSystemPrinters();
    try {
      const { printers } = await this.#context.client.call('operator.systemPrinters', {});
      this.#systemPrinters = { kind: 'found', printers, chosen: null };
    } catch (error) {
      this.#systemPrinters = { kind: 'failed', error };
    } finally {
      this.#systemPrintersButton.disabled = false;
      this.#renderSystemPrinters();
    }
  }

  #renderSystemPrinters(): void {
    const shown = this.#systemPrinters;
    if (shown.kind === 'idle') return;
    if (shown.kind === 'failed') this.#systemPrintersStatus.dataset.level = 'bad';
    else delete this.#systemPrintersStatus.dataset.level;
    if (shown.kind !== 'found') {
      this.#systemPrintersList.replaceChildren();
      this.#systemPrintersStatus.textContent =
        shown.kind === 'loading' ? t('settings.systemPrintersLoading') : errorText(shown.error);
      return;
    }
    const { printers, chosen } = shown;
    this.#systemPrintersStatus.textContent =
      chosen !== null
        ? t('settings.systemPrinterChosen', { address: chosen })
        : printers.length === 0
          ? t('settings.systemPrintersNone')
          : printers.length === 1
            ? t('settings.systemPrintersOne')
            : t('settings.systemPrintersMany', { n: printers.length });
    keepFocus(this.#systemPrintersList, () =>
      this.#systemPrintersList.replaceChildren(
        ...printers.map((printer) =>
          h(
            'li',
            { attrs: { 'data-address': printer.address, 'data-default': String(printer.is_default) } },
            h(
              'span',
              { className: 'port-name' },
              printer.name,
              printer.is_default ? h('strong', {}, ` (${t('settings.systemPrinterDefault')})`) : null,
              ' — ',
              h('code', {}, printer.address),
            ),
            button(t('settings.portUse'), {
              label: t('settings.systemPrinterUseLabel', { name: printer.name }),
              focusKey: `printer:${printer.address}`,
              onClick: () => this.#useSystemPrinter(printer.address),
            }),
          ),
        ),
      ),
    );
  }

  /** Like a PINPAD found: the address goes into the printer field, unsaved, and the cashier lands there to check it. */
  #useSystemPrinter(address: string): void {
    if (this.#systemPrinters.kind === 'found') this.#systemPrinters = { ...this.#systemPrinters, chosen: address };
    this.#renderSystemPrinters();
    const input = byId<HTMLInputElement>('settings-printer-address');
    input.value = address;
    this.#dirty = true;
    input.focus();
  }

  async #printTest(): Promise<void> {
    this.#testPrintButton.disabled = true;
    this.#testPrint = { kind: 'sending' };
    this.#jobsWhileSending.clear();
    this.#renderTestPrint();
    try {
      const job = await this.#context.client.call('operator.testPrint', {});
      this.#testPrint = { kind: 'job', job: this.#jobsWhileSending.get(job.id) ?? job };
    } catch (error) {
      // Receipts off (no store data) or no default printer: the agent prints only with both, as it started.
      this.#testPrint = isPinbridgeError(error, 'PRINTING_OFF', 'NOT_FOUND')
        ? { kind: 'off' }
        : { kind: 'failed', error };
    } finally {
      this.#jobsWhileSending.clear();
      this.#testPrintButton.disabled = false;
      this.#renderTestPrint();
    }
  }

  #onPrintJob(job: PrintJobView): void {
    const shown = this.#testPrint;
    if (shown.kind === 'sending') {
      this.#jobsWhileSending.set(job.id, job);
      return;
    }
    if (shown.kind !== 'job' || shown.job.id !== job.id || FINAL_JOB_STATES.has(shown.job.state)) return;
    this.#testPrint = { kind: 'job', job };
    this.#renderTestPrint();
  }

  #renderTestPrint(): void {
    const shown = this.#testPrint;
    const status = this.#testPrintStatus;
    let level: 'ok' | 'warn' | 'bad' | null = null;
    let state: string = shown.kind;
    let message = '';
    switch (shown.kind) {
      case 'idle':
        break;
      case 'sending':
        message = t('settings.testPrintSending');
        break;
      case 'off':
        level = 'bad';
        message = t('settings.testPrintOff');
        break;
      case 'failed':
        level = 'bad';
        message = errorText(shown.error);
        break;
      case 'job': {
        const { job } = shown;
        state = job.state;
        if (job.state === 'printed') {
          level = 'ok';
          message = t('settings.testPrintPrinted');
        } else if (job.state === 'failed') {
          level = 'bad';
          message = t('settings.testPrintFailed', { error: printErrorText(job.error?.code ?? 'PRINTER_ERROR') });
        } else if (job.state === 'cancelled') {
          level = 'bad';
          message = t('settings.testPrintCancelled');
        } else if (job.state === 'printing') {
          message = t('settings.testPrintPrinting');
        } else if (job.error !== null) {
          // Queued after a failed attempt: the queue retries by itself.
          level = 'warn';
          message = t('settings.testPrintRetrying', { error: printErrorText(job.error.code) });
        } else {
          message = t('settings.testPrintQueued');
        }
        break;
      }
    }
    status.dataset.state = state;
    if (level === null) delete status.dataset.level;
    else status.dataset.level = level;
    status.textContent = message;
  }
}
