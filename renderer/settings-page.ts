/**
 * The settings page (Configurações): panels that each own their part of the page and its state
 * (renderer/settings/), read together from operator.settings and rendered again together in
 * another language —
 * - the settings form over the file (settings/form.ts: the payments API, the PINPAD's address,
 *   the confirmation policy, training mode, the supervisor, the store on the receipts, the
 *   default printer), each mistake the agent names next to its field;
 * - the payments API's write-only secrets, its token and the certificate's passphrase
 *   (settings/api-secrets.ts): the page says whether one is kept, never what it is;
 * - the PINPAD finder (serial ports and Bluetooth LE) and the printer finder (the operating
 *   system's printers), whose choice goes into the form's field;
 * - the test print, followed to its end;
 * - the restart that applies what was saved;
 * - and, on top, the banner of a file the agent started despite (`problem`).
 */
import type { ResultOf } from '../client/index.js';
import { errorText, type WindowContext } from './context.js';
import { byId } from './dom.js';
import { ApiSecrets } from './settings/api-secrets.js';
import { PINPAD_ADDRESS_ID, PRINTER_ADDRESS_ID } from './settings/fields.js';
import { SettingsForm } from './settings/form.js';
import { PinpadFinder } from './settings/pinpad-finder.js';
import { PrinterFinder } from './settings/printer-finder.js';
import { ProblemBanner } from './settings/problem.js';
import { RestartPanel } from './settings/restart.js';
import { TestPrint } from './settings/test-print.js';

type SettingsRead = ResultOf<'operator.settings'>;

export class SettingsPage {
  readonly #context: WindowContext;
  /** The settings were read once: the panels have something to show. */
  #loaded = false;

  readonly #loading = byId('settings-loading');
  readonly #loadError = byId('settings-load-error');
  readonly #problem = new ProblemBanner();
  readonly #form: SettingsForm;
  readonly #secrets: ApiSecrets;
  readonly #pinpads: PinpadFinder;
  readonly #printers: PrinterFinder;
  readonly #testPrint: TestPrint;
  readonly #restart: RestartPanel;

  constructor(context: WindowContext) {
    this.#context = context;
    this.#restart = new RestartPanel(context, {
      pending: () => this.#form.savedSinceStart || this.#secrets.justStored,
      onRestarted: () => {
        this.#form.restarted();
        this.#secrets.applied();
      },
    });
    this.#form = new SettingsForm(context, { reload: () => this.load(), onSaved: () => this.#restart.saved() });
    this.#secrets = new ApiSecrets(context, () => this.#restart.render());
    this.#pinpads = new PinpadFinder(context, (address) => this.#form.enter(PINPAD_ADDRESS_ID, address));
    this.#printers = new PrinterFinder(context, (address) => this.#form.enter(PRINTER_ADDRESS_ID, address));
    this.#testPrint = new TestPrint(context);
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
    // First: back after a restart, it says whether what was saved now runs (and nothing waits).
    this.#restart.settingsRead(read.not_applied);
    this.#problem.problem = read.problem;
    this.#secrets.read(read);
    this.#form.read(read);
    this.#loaded = true;
    this.#loading.hidden = true;
    this.render();
  }

  render(): void {
    if (!this.#loaded) return;
    this.#form.render();
    this.#problem.render(this.#form.savedSinceStart);
    this.#secrets.render();
    this.#pinpads.render();
    this.#printers.render();
    this.#testPrint.render();
    this.#restart.render();
  }
}
