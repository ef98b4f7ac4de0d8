/**
 * "Reimprimir último comprovante", one key away: a button on the Pagamento and Vendas pages and
 * the F8 key anywhere in the window (F8 is free in Chromium and Electron; Ctrl+R would reload the
 * window). It prints the customer's copy of the newest sale with a receipt — approved, or voided
 * (its cancellation receipt) — on this agent, and says how the print goes as it happens (the
 * printer.job events), next to each button. With no such sale it says so, and asks nothing.
 */
import type { ParamsOf } from '../client/index.js';
import { errorText, type WindowContext } from './context.js';
import { byId } from './dom.js';
import { formatTime, t, type MessageKey } from './i18n.js';
import { printErrorText } from './labels.js';
import { formatCentavos } from './money.js';

/** The key, as aria-keyshortcuts and KeyboardEvent.key name it. */
export const REPRINT_LAST_KEY = 'F8';

/** Payments whose receipt is a sale the cashier made: approved (confirmed or not yet) or voided. */
const WITH_RECEIPT: NonNullable<ParamsOf<'payment.list'>['states']> = [
  'awaiting_confirmation',
  'confirmed',
  'undoing',
  'undone',
];

/** Where the button is, and where its outcome is said. */
const PLACES = ['payment', 'transactions'] as const;

type Said =
  { readonly kind: 'status'; readonly text: string } | { readonly kind: 'error'; readonly text: string } | null;

export class ReprintLast {
  readonly #context: WindowContext;
  /** The job printing now (its printer.job events are told), and the sale it belongs to. */
  #job: string | null = null;
  #which = '';
  #said: Said = null;
  #busy = false;

  constructor(context: WindowContext) {
    this.#context = context;
    for (const place of PLACES) byId(`${place}-reprint-last`).addEventListener('click', () => void this.reprint());
    document.addEventListener('keydown', (event) => {
      if (
        event.key !== REPRINT_LAST_KEY ||
        event.repeat ||
        event.defaultPrevented ||
        event.ctrlKey ||
        event.altKey ||
        event.metaKey ||
        event.shiftKey
      )
        return;
      // Logged in only; a dialog open (a sale's own reprint, a confirmation) keeps its keys.
      if (byId('app').hidden || document.querySelector('dialog[open]') !== null) return;
      event.preventDefault();
      void this.reprint();
    });
    context.client.on('printer.job', (job) => {
      if (job.id !== this.#job) return;
      if (job.state === 'printed') this.#status('sale.printPrinted');
      else if (job.state === 'printing') this.#status('sale.printPrinting');
      else if (job.state === 'queued' && job.error !== null)
        this.#status('sale.printRetrying', { error: printErrorText(job.error.code) });
      else if (job.state === 'failed')
        this.#error(
          `${this.#which} ${t('sale.printFailed', { error: printErrorText(job.error?.code ?? 'PRINTER_ERROR') })}`,
        );
      if (job.state === 'printed' || job.state === 'failed' || job.state === 'cancelled') this.#job = null;
    });
  }

  /** Finds the newest sale with a receipt and prints its customer copy. */
  async reprint(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    this.#render();
    const { client } = this.#context;
    try {
      const { items } = await client.call('payment.list', { states: [...WITH_RECEIPT], limit: 1 });
      const sale = items[0];
      if (sale === undefined) {
        this.#which = '';
        this.#said = { kind: 'status', text: t('reprintLast.none') };
        return;
      }
      this.#which = t('reprintLast.which', { amount: formatCentavos(sale.amount), time: formatTime(sale.created_at) });
      const { jobs } = await client.call('receipt.print', { reference_id: sale.reference_id, copies: ['customer'] });
      const job = jobs[0];
      this.#job = job?.id ?? null;
      this.#status(job?.state === 'printed' ? 'sale.printPrinted' : 'sale.printQueued');
    } catch (error) {
      this.#error(this.#which === '' ? errorText(error) : `${this.#which} ${errorText(error)}`);
    } finally {
      this.#busy = false;
      this.#render();
    }
  }

  #status(key: MessageKey, values: Record<string, string> = {}): void {
    this.#said = { kind: 'status', text: `${this.#which} ${t(key, values)}` };
    this.#render();
  }

  #error(text: string): void {
    this.#said = { kind: 'error', text };
    this.#render();
  }

  #render(): void {
    for (const place of PLACES) {
      // Not disabled while it looks (a disabled button loses the keyboard focus): #busy ignores a second press.
      byId(`${place}-reprint-last`).setAttribute('aria-busy', String(this.#busy));
      byId(`${place}-reprint-status`).textContent = this.#said?.kind === 'status' ? this.#said.text : '';
      byId(`${place}-reprint-error`).textContent = this.#said?.kind === 'error' ? this.#said.text : '';
    }
  }
}
