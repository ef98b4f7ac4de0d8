/**
 * "Reimprimir último comprovante", one key away: a button on the Pagamento and Vendas pages and
 * the F8 key anywhere in the window (F8 is free in Chromium and Electron; Ctrl+R would reload the
 * window). It prints the customer's copy of the newest sale with a receipt — approved, or voided
 * (its cancellation receipt) — on this agent, and says how the print goes as it happens (the
 * printer.job events) in the toast at the bottom of the window, on whatever page the cashier is:
 * a print that has not printed is said as a failure, with its reason. With no such sale it says
 * so, and asks nothing.
 */
import type { ParamsOf } from '../client/index.js';
import { errorText, type WindowContext } from './context.js';
import { byId } from './dom.js';
import { formatTime, t } from './i18n.js';
import { formatCentavos } from './money.js';
import { PrintWatch } from './print-watch.js';
import type { Toast, ToastWords } from './toast.js';

/** The key, as aria-keyshortcuts and KeyboardEvent.key name it. */
export const REPRINT_LAST_KEY = 'F8';

/** Payments whose receipt is a sale the cashier made: approved (confirmed or not yet) or voided. */
const WITH_RECEIPT: NonNullable<ParamsOf<'payment.list'>['states']> = [
  'awaiting_confirmation',
  'confirmed',
  'undoing',
  'undone',
];

/** Where the button is. */
const PLACES = ['payment', 'transactions'] as const;

export class ReprintLast {
  readonly #context: WindowContext;
  readonly #toast: Toast;
  readonly #watch: PrintWatch;
  /** The sale printed, as the cashier knows it ("Último comprovante: venda de R$ 12,34 às 10:02:03."). */
  #which = '';
  /** Said when no job is followed: no sale to reprint, or the call failed. */
  #said: ToastWords | null = null;
  #busy = false;

  constructor(context: WindowContext, toast: Toast) {
    this.#context = context;
    this.#toast = toast;
    this.#watch = new PrintWatch(context, () => this.#render());
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
  }

  /** Finds the newest sale with a receipt and prints its customer copy. */
  async reprint(): Promise<void> {
    if (this.#busy) return;
    this.#busy = true;
    this.#which = '';
    this.#said = { tone: 'pending', text: t('reprintLast.looking') };
    this.#watch.stop();
    this.#render();
    const { client } = this.#context;
    try {
      const { items } = await client.call('payment.list', { states: [...WITH_RECEIPT], limit: 1 });
      const sale = items[0];
      if (sale === undefined) {
        this.#said = { tone: 'pending', text: t('reprintLast.none') };
        return;
      }
      this.#which = t('reprintLast.which', { amount: formatCentavos(sale.amount), time: formatTime(sale.created_at) });
      this.#watch.sending();
      const { jobs } = await client.call('receipt.print', { reference_id: sale.reference_id, copies: ['customer'] });
      this.#said = null;
      this.#watch.follow(jobs[0]);
    } catch (error) {
      this.#watch.follow(undefined);
      this.#said = { tone: 'bad', text: errorText(error) };
    } finally {
      this.#busy = false;
      this.#render();
    }
  }

  #render(): void {
    for (const place of PLACES) {
      // Not disabled while it looks (a disabled button loses the keyboard focus): #busy ignores a second press.
      byId(`${place}-reprint-last`).setAttribute('aria-busy', String(this.#busy));
    }
    const words = this.#watch.words() ?? this.#said;
    this.#toast.say(words === null ? null : { tone: words.tone, text: [this.#which, words.text].join(' ').trim() });
  }
}
