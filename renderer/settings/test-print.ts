/**
 * Configurações → "Imprimir teste": a test page on the default printer the agent started with
 * (operator.testPrint), followed to its end by the printer.job events — queued, printing, printed,
 * failed or cancelled. A test that has not printed is said as a failure with its reason as soon as
 * it is known (its first attempt failed, or the printer is known to be off): the agent keeps
 * trying by itself, and the page keeps following it until it prints or fails for good.
 */
import { isPinbridgeError } from '../../client/index.js';
import { errorText, type WindowContext } from '../context.js';
import { byId } from '../dom.js';
import { t } from '../i18n.js';
import { PrintWatch, type PrintTexts } from '../print-watch.js';

const TEST_PRINT_TEXTS: PrintTexts = {
  queued: 'settings.testPrintQueued',
  printing: 'settings.testPrintPrinting',
  printed: 'settings.testPrintPrinted',
  notYet: 'settings.testPrintRetrying',
  failed: 'settings.testPrintFailed',
  cancelled: 'settings.testPrintCancelled',
};

/** The last test print when no job is followed: never asked, being sent, or why there was none. */
type TestPrintState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'sending' }
  | { readonly kind: 'job' }
  | { readonly kind: 'off' }
  | { readonly kind: 'failed'; readonly error: unknown };

export class TestPrint {
  #testPrint: TestPrintState = { kind: 'idle' };
  readonly #context: WindowContext;
  readonly #watch: PrintWatch;

  readonly #button = byId<HTMLButtonElement>('settings-test-print');
  readonly #status = byId('settings-test-print-status');

  constructor(context: WindowContext) {
    this.#context = context;
    this.#watch = new PrintWatch(context, () => this.render(), TEST_PRINT_TEXTS);
    this.#button.addEventListener('click', () => void this.#printTest());
  }

  render(): void {
    const shown = this.#testPrint;
    const status = this.#status;
    let level: 'ok' | 'bad' | null = null;
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
        const job = this.#watch.job;
        const words = this.#watch.words();
        if (job === null || words === null) break;
        state = job.state;
        // Not printed (yet) is a failure on screen: the cashier must not take it for done.
        level = words.tone === 'ok' ? 'ok' : words.tone === 'bad' ? 'bad' : null;
        message = words.text;
        break;
      }
    }
    status.dataset.state = state;
    if (level === null) delete status.dataset.level;
    else status.dataset.level = level;
    status.textContent = message;
  }

  async #printTest(): Promise<void> {
    this.#button.disabled = true;
    this.#testPrint = { kind: 'sending' };
    this.#watch.sending();
    this.render();
    try {
      const job = await this.#context.client.call('operator.testPrint', {});
      this.#testPrint = { kind: 'job' };
      this.#watch.follow(job);
    } catch (error) {
      this.#watch.follow(undefined);
      // Receipts off (no store data) or no default printer: the agent prints only with both, as it started.
      this.#testPrint = isPinbridgeError(error, 'PRINTING_OFF', 'NOT_FOUND')
        ? { kind: 'off' }
        : { kind: 'failed', error };
    } finally {
      this.#button.disabled = false;
      this.render();
    }
  }
}
