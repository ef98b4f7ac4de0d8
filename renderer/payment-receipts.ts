/**
 * The receipts of the sale on the payment page, once it is decided: the customer copy previewed
 * (receipt.get as HTML in a sandboxed frame, as on the day's list), a print button per copy
 * (receipt.print) and what became of each print, said as it happens (printer.job) — including
 * the copies Pinbridge prints by itself when a sale is approved. A print that has not printed is
 * said in the failure style, with its reason.
 */
import type { PaymentOutcome } from '../client/index.js';
import { errorText, type WindowContext } from './context.js';
import { byId } from './dom.js';
import { t } from './i18n.js';
import { isRunning } from './labels.js';
import { printWords, type PrintJob } from './print-watch.js';

type Copy = 'customer' | 'merchant';

export class PaymentReceipts {
  readonly #context: WindowContext;
  /** The payment whose receipt is loaded (or loading); null when none is shown. */
  #reference: string | null = null;
  /** Its state when loaded: a void changes the receipt (a cancellation receipt), so it is read again. */
  #state: PaymentOutcome['state'] | null = null;
  #request = 0;
  #loaded = false;
  /** The print jobs of the sale shown as their events last told. */
  readonly #seen = new Map<string, PrintJob>();

  readonly #section = byId('payment-receipt');
  readonly #note = byId('payment-receipt-note');
  readonly #frame = byId<HTMLIFrameElement>('payment-receipt-frame');
  readonly #printCustomer = byId<HTMLButtonElement>('payment-print-customer');
  readonly #printMerchant = byId<HTMLButtonElement>('payment-print-merchant');
  readonly #printMessage = byId('payment-print-message');
  readonly #printError = byId('payment-print-error');

  constructor(context: WindowContext) {
    this.#context = context;
    this.#printCustomer.addEventListener('click', () => void this.#print('customer'));
    this.#printMerchant.addEventListener('click', () => void this.#print('merchant'));
    context.client.on('printer.job', (job) => {
      // "payment:<reference_id>:sale:customer": the jobs of the sale on screen, whoever started them.
      if (this.#reference === null || !job.subject.startsWith(`payment:${this.#reference}:`)) return;
      this.#seen.set(job.id, job);
      this.#sayJob(job);
    });
  }

  /** Shows the receipts of this outcome (null, or a payment still running: none). */
  show(outcome: PaymentOutcome | null): void {
    const decided = outcome !== null && !isRunning(outcome);
    this.#section.hidden = !decided;
    if (!decided) {
      if (this.#reference !== null) this.#clear();
      return;
    }
    this.#frame.title = t('receipt.frameTitle', { copy: t('receipt.customer') });
    if (outcome.reference_id !== this.#reference) {
      this.#seen.clear();
      this.#printMessage.textContent = '';
      this.#printError.textContent = '';
    }
    if (outcome.reference_id !== this.#reference || outcome.state !== this.#state) {
      this.#reference = outcome.reference_id;
      this.#state = outcome.state;
      void this.#load(outcome.reference_id);
    }
    this.#renderButtons();
  }

  #clear(): void {
    this.#seen.clear();
    this.#reference = null;
    this.#state = null;
    this.#request += 1;
    this.#loaded = false;
    this.#frame.srcdoc = '';
    this.#note.textContent = '';
    this.#printMessage.textContent = '';
    this.#printError.textContent = '';
  }

  #renderButtons(): void {
    this.#printCustomer.disabled = !this.#loaded;
    this.#printMerchant.disabled = !this.#loaded;
  }

  async #load(referenceId: string): Promise<void> {
    const request = ++this.#request;
    this.#loaded = false;
    this.#frame.srcdoc = '';
    this.#frame.hidden = false;
    this.#note.textContent = t('receipt.loading');
    this.#renderButtons();
    try {
      const receipt = await this.#context.client.call('receipt.get', {
        reference_id: referenceId,
        copy: 'customer',
        format: 'html',
        // The receipt as its first paper reads: showing it prints nothing, so it is no reprint. A print
        // from the window (receipt.print) comes out marked when that copy was printed before.
        reprint: false,
      });
      if (request !== this.#request) return;
      this.#frame.srcdoc =
        receipt.encoding === 'base64'
          ? new TextDecoder().decode(Uint8Array.from(atob(receipt.content), (char) => char.charCodeAt(0)))
          : receipt.content;
      this.#note.textContent = receipt.kind === 'cancellation' ? t('receipt.cancellation') : '';
      this.#loaded = true;
    } catch (error) {
      if (request !== this.#request) return;
      const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
      this.#note.textContent =
        code === 'NO_RECEIPT' ? t('receipt.none') : t('receipt.error', { message: errorText(error) });
      this.#frame.hidden = true;
    }
    this.#renderButtons();
  }

  async #print(copy: Copy): Promise<void> {
    const referenceId = this.#reference;
    if (referenceId === null) return;
    this.#say('');
    try {
      const { jobs } = await this.#context.client.call('receipt.print', { reference_id: referenceId, copies: [copy] });
      if (referenceId !== this.#reference) return;
      // Its events may have come before this answer: the newest word on the job stands.
      const latest = jobs.map((job) => this.#seen.get(job.id) ?? job);
      const job = latest.find((each) => each.state === 'printed') ?? latest[0];
      if (job !== undefined) this.#sayJob(job);
    } catch (error) {
      if (referenceId === this.#reference) this.#fail(errorText(error));
    }
  }

  /** A print that has not printed is said as a failure, with its reason (the printer's, when known). */
  #sayJob(job: PrintJob): void {
    const words = printWords(job, this.#context.printer(job.printer));
    if (words.tone === 'bad') this.#fail(words.text);
    else this.#say(words.text);
  }

  #say(message: string): void {
    this.#printMessage.textContent = message;
    this.#printError.textContent = '';
  }

  #fail(message: string): void {
    this.#printMessage.textContent = '';
    this.#printError.textContent = message;
  }
}
