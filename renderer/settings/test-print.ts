/**
 * Configurações → "Imprimir teste": a test page on the default printer the agent started with
 * (operator.testPrint), followed to its end by the printer.job events — queued, printing, retrying
 * after a failed attempt, printed, failed or cancelled.
 */
import { isPinbridgeError, type ResultOf } from '../../client/index.js';
import { errorText, type WindowContext } from '../context.js';
import { byId } from '../dom.js';
import { t } from '../i18n.js';
import { printErrorText } from '../labels.js';

type PrintJobView = ResultOf<'operator.testPrint'>;

/** The last test print: being sent, its job as the agent last told, or why there was none. */
type TestPrintState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'sending' }
  | { readonly kind: 'job'; readonly job: PrintJobView }
  | { readonly kind: 'off' }
  | { readonly kind: 'failed'; readonly error: unknown };

/** A job in one of these states will not change again. */
const FINAL_JOB_STATES: ReadonlySet<PrintJobView['state']> = new Set(['printed', 'failed', 'cancelled']);

export class TestPrint {
  readonly #context: WindowContext;
  #testPrint: TestPrintState = { kind: 'idle' };
  /**
   * printer.job events that came while the test print's call was in flight: the job can change
   * state before its answer arrives, and the answer must not take it back to "queued".
   */
  readonly #jobsWhileSending = new Map<string, PrintJobView>();

  readonly #button = byId<HTMLButtonElement>('settings-test-print');
  readonly #status = byId('settings-test-print-status');

  constructor(context: WindowContext) {
    this.#context = context;
    this.#button.addEventListener('click', () => void this.#printTest());
    context.client.on('printer.job', (job) => this.#onPrintJob(job));
  }

  render(): void {
    const shown = this.#testPrint;
    const status = this.#status;
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

  async #printTest(): Promise<void> {
    this.#button.disabled = true;
    this.#testPrint = { kind: 'sending' };
    this.#jobsWhileSending.clear();
    this.render();
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
      this.#button.disabled = false;
      this.render();
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
    this.render();
  }
}
