/**
 * Pix at the counter in the window (issue 38): while a bolepix's QR is shown with pix.show, a
 * panel over the page the cashier is on, to turn toward the customer — the QR large, the amount,
 * how to pay, until when — and, beside it, the PINPAD's screen as the agent put it there (the
 * very image file it loaded, or its two lines of text). On a text-only PINPAD ("PAGUE COM PIX /
 * QR NA TELA") this panel is where the customer scans the code.
 *
 * It follows the agent's events: pix.shown opens it, pix.paid turns it into "Pix recebido" (also
 * for a Pix whose QR a card sale took off the PINPAD meanwhile), pix.ended closes it — or says the
 * code expired. A window opened (or reconnected) mid-show reads the shows with pix.list.
 * "Ocultar" puts it away (a notice on top brings it back); "Cancelar Pix" stops showing it (the
 * bolepix itself stays, as pix.cancel says); "Imprimir QR" prints it on the receipt printer
 * (pix.print) for a customer who scans better from paper. In training, "Simular pagamento" plays the
 * customer's bank (operator.trainingPayPix); the training form on Pagamento starts a practice Pix. What became of that print — or of the
 * receipt the agent printed by itself once the Pix was received (pix.paid's print_job) — is said
 * under the buttons, in two live regions kept from one render to the next.
 */
import type { EventPayload } from '../client/index.js';
import { errorText, type WindowContext } from './context.js';
import { button, byId, fill, h, keepFocus } from './dom.js';
import { formatDateTime, formatTime, t } from './i18n.js';
import { formatCentavos } from './money.js';
import { PrintWatch, type PrintJob } from './print-watch.js';
import type { Toast } from './toast.js';

type PixShow = EventPayload<'pix.shown'>;
type PixPaid = EventPayload<'pix.paid'>;

/** "Pix recebido" (or "expirou") stays this long before the panel closes by itself. */
const OUTCOME_SHOWN_MS = 20_000;

/** What the panel shows: the QR waiting, or how it ended. */
type Panel =
  | { readonly kind: 'waiting'; readonly show: PixShow }
  | { readonly kind: 'paid'; readonly paid: PixPaid }
  | { readonly kind: 'expired'; readonly show: PixShow };

export class PixPanel {
  readonly #context: WindowContext;
  /** The QRs on the PINPADs, by transaction id, newest last. */
  readonly #shows = new Map<string, PixShow>();
  #panel: Panel | null = null;
  /** The cashier put the panel away ("Ocultar"): the notice on top brings it back. */
  #tucked = false;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** A cancel or print failed: said under the buttons until the panel changes. */
  #problem: string | null = null;
  /** The print followed: the QR asked for here, or the receipt of the Pix received. */
  readonly #print: PrintWatch;
  #printing: 'qr' | 'receipt' | null = null;
  #printBusy = false;
  readonly #printMessage = h('p', { id: 'pix-print-message', className: 'message', attrs: { role: 'status' } });
  readonly #printError = h('p', { id: 'pix-print-error', className: 'error', attrs: { role: 'alert' } });

  readonly #section = byId('pix-panel');
  readonly #notice = byId('notice-pix');
  readonly #noticeText = byId('notice-pix-text');

  readonly #toast: Toast;
  readonly #saleRunning: () => boolean;

  /** `saleRunning`: a card sale is on the Pagamento page now (the panel must not cover it). */
  constructor(context: WindowContext, toast: Toast, saleRunning: () => boolean) {
    this.#context = context;
    this.#toast = toast;
    this.#saleRunning = saleRunning;
    this.#print = new PrintWatch(context, () => this.#sayPrint());
    const { client } = context;
    client.on('pix.shown', (show) => {
      this.#shows.delete(show.transaction_id);
      this.#shows.set(show.transaction_id, show);
      this.#open({ kind: 'waiting', show }, true);
    });
    client.on('pix.paid', (paid) => {
      this.#shows.delete(paid.transaction_id);
      const current = this.#panel;
      const onScreen = current?.kind === 'waiting' && current.show.transaction_id === paid.transaction_id;
      // A Pix a card sale took off the PINPAD, paid while that sale runs: said in the toast, not over the sale.
      if (!onScreen && this.#saleRunning()) {
        this.#toast.say({ tone: 'ok', text: t('pix.paidToast', { amount: formatCentavos(paid.amount) }) });
        return;
      }
      this.#open({ kind: 'paid', paid }, true);
    });
    client.on('pix.ended', (ended) => {
      // Taken by a card sale (`watching`), its payment is still told here by pix.paid.
      this.#shows.delete(ended.transaction_id);
      const current = this.#panel;
      if (current === null || current.kind === 'paid') return this.#changed();
      if (current.show.transaction_id !== ended.transaction_id) return this.#changed();
      if (ended.reason === 'expired') return this.#open({ kind: 'expired', show: current.show }, false);
      // Paid: pix.paid came first. Cancelled, replaced (a pix.shown follows), taken by a sale, stopped: it goes.
      this.#next();
    });
    byId('notice-pix-show').addEventListener('click', () => {
      this.#tucked = false;
      this.render();
      this.#focusTitle();
    });
    this.#section.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.#panel !== null) {
        event.preventDefault();
        this.#tuckOrClose();
      }
    });
  }

  /** Reads the shows on (a window opened, or reconnected, mid-show). */
  async load(): Promise<void> {
    try {
      const { shows } = await this.#context.client.call('pix.list', {});
      this.#shows.clear();
      for (const show of shows) this.#shows.set(show.transaction_id, show);
      const current = this.#panel;
      if (current === null || current.kind === 'waiting') this.#next();
    } catch {
      // Not answered (the connection went again): the next connection reads it.
    }
  }

  /** The cashier went to a page: a QR waiting is put away (the notice brings it back), an outcome closed. */
  tuck(): void {
    if (this.isOpen()) this.#tuckOrClose(false);
  }

  /** Whether the panel covers the page now (main.ts hides the page under it). */
  isOpen(): boolean {
    return this.#panel !== null && !this.#tucked;
  }

  render(): void {
    const panel = this.#panel;
    this.#section.hidden = !this.isOpen();
    document.body.dataset.pixPanel = this.isOpen() ? 'open' : 'closed';
    const waiting = panel?.kind === 'waiting' ? panel.show : undefined;
    this.#notice.hidden = waiting === undefined || !this.#tucked;
    if (waiting !== undefined)
      this.#noticeText.textContent = t('pix.notice', { amount: formatCentavos(waiting.amount) });
    if (panel === null || this.#tucked) return;
    this.#section.dataset.state = panel.kind;
    // A refusal said (a failed cancel, print or simulation) keeps the focus on the button pressed.
    keepFocus(this.#section, () =>
      fill(
        this.#section,
        panel.kind === 'waiting'
          ? this.#waiting(panel.show)
          : panel.kind === 'paid'
            ? this.#paid(panel.paid)
            : this.#expired(panel.show),
      ),
    );
  }

  #waiting(show: PixShow): HTMLElement {
    const amount = formatCentavos(show.amount);
    return h(
      'div',
      { className: 'pix-layout' },
      h(
        'div',
        { className: 'pix-code' },
        h('img', {
          id: 'pix-qr',
          className: 'pix-qr',
          attrs: { src: show.qr_data_url, alt: t('pix.qrAlt', { amount }) },
        }),
      ),
      h(
        'div',
        { className: 'pix-info' },
        h('h1', { id: 'pix-title', attrs: { tabindex: '-1' } }, t('pix.title')),
        h('p', { id: 'pix-amount', className: 'pix-amount' }, amount),
        h('p', { className: 'pix-how' }, t('pix.how')),
        show.expires_at === null
          ? null
          : h('p', { className: 'hint' }, t('pix.validUntil', { time: formatDateTime(show.expires_at) })),
        h('p', { id: 'pix-status', className: 'pix-status', attrs: { role: 'status' } }, t('pix.waiting')),
        this.#mirror(show.pinpad_screen),
        this.#problemLine(),
        h(
          'div',
          { className: 'actions' },
          // Training: the customer's bank is the training sandbox; the cashier plays it.
          this.#context.mode() === 'training'
            ? button(t('pix.simulate'), {
                variant: 'primary',
                focusKey: 'pix-simulate',
                onClick: () => void this.#simulatePayment(show.transaction_id),
              })
            : null,
          button(t('pix.print'), {
            focusKey: 'pix-print',
            onClick: () => void this.#printQr(show.transaction_id),
          }),
          button(t('pix.cancel'), {
            variant: 'danger',
            focusKey: 'pix-cancel',
            onClick: () => void this.#cancel(show.transaction_id),
          }),
          button(t('pix.tuck'), { focusKey: 'pix-tuck', onClick: () => this.#tuckOrClose() }),
        ),
        this.#printMessage,
        this.#printError,
      ),
    );
  }

  #paid(paid: PixPaid): HTMLElement {
    const amount = formatCentavos(paid.amount);
    return h(
      'div',
      { className: 'pix-layout' },
      h('div', { className: 'pix-code pix-check', attrs: { 'aria-hidden': 'true' } }, '✓'),
      h(
        'div',
        { className: 'pix-info' },
        h('h1', { id: 'pix-title', attrs: { tabindex: '-1' } }, t('pix.paidTitle')),
        h('p', { id: 'pix-amount', className: 'pix-amount' }, amount),
        h(
          'p',
          { id: 'pix-status', className: 'pix-status', attrs: { role: 'status' } },
          paid.paid_at === null ? t('pix.paid') : t('pix.paidAt', { time: formatTime(paid.paid_at) }),
        ),
        paid.pinpad_lines === null ? null : this.#mirror({ kind: 'text', lines: paid.pinpad_lines }),
        h(
          'div',
          { className: 'actions' },
          button(t('pix.close'), { variant: 'primary', focusKey: 'pix-close', onClick: () => this.#next() }),
        ),
        this.#printMessage,
        this.#printError,
      ),
    );
  }

  #expired(show: PixShow): HTMLElement {
    return h(
      'div',
      { className: 'pix-layout' },
      h(
        'div',
        { className: 'pix-info' },
        h('h1', { id: 'pix-title', attrs: { tabindex: '-1' } }, t('pix.expiredTitle')),
        h('p', { id: 'pix-amount', className: 'pix-amount' }, formatCentavos(show.amount)),
        h('p', { id: 'pix-status', className: 'pix-status', attrs: { role: 'status' } }, t('pix.expired')),
        h(
          'div',
          { className: 'actions' },
          button(t('pix.close'), { variant: 'primary', focusKey: 'pix-close', onClick: () => this.#next() }),
        ),
      ),
    );
  }

  /** The PINPAD's screen as the agent put it: the image file it loaded, or its lines. */
  #mirror(screen: PixShow['pinpad_screen']): HTMLElement {
    const shown =
      screen.kind === 'image'
        ? h('img', {
            id: 'pix-pinpad-image',
            className: 'pinpad-mirror-image',
            attrs: {
              src: screen.data_url,
              alt: t('pix.mirrorImage'),
              width: String(screen.width),
              height: String(screen.height),
            },
          })
        : h(
            'p',
            { id: 'pix-pinpad-text', className: 'pinpad-mirror-text' },
            ...screen.lines.flatMap((line, index) => (index === 0 ? [line] : [h('br'), line])),
          );
    return h(
      'figure',
      { id: 'pix-pinpad', className: 'pinpad-mirror', attrs: { 'data-kind': screen.kind } },
      h('figcaption', {}, t('pix.mirror')),
      shown,
    );
  }

  #problemLine(): HTMLElement | null {
    if (this.#problem === null) return null;
    return h('p', { id: 'pix-problem', className: 'field-error', attrs: { role: 'alert' } }, this.#problem);
  }

  /** "Imprimir QR": the slip of pix.print, followed to its end. */
  async #printQr(transactionId: string): Promise<void> {
    if (this.#printBusy) return;
    this.#printBusy = true;
    this.#printing = 'qr';
    this.#say(t('pix.printSending'), null);
    this.#print.sending();
    try {
      const { print_jobs: jobs } = await this.#context.client.call('pix.print', { transaction_id: transactionId });
      this.#print.follow(jobs[0]);
    } catch (error) {
      this.#print.follow(undefined);
      this.#say(null, t('pix.printFailed', { reason: errorText(error) }));
    } finally {
      this.#printBusy = false;
    }
  }

  /** Follows a print (the receipt pix.paid names); null: nothing to say. */
  #follow(what: 'qr' | 'receipt', job: PrintJob | null): void {
    this.#print.stop();
    this.#printing = job === null ? null : what;
    this.#say(null, null);
    if (job !== null) this.#print.follow(job);
  }

  #sayPrint(): void {
    const words = this.#print.words();
    if (words === null || this.#printing === null) return;
    const text = t(this.#printing === 'qr' ? 'pix.printQr' : 'pix.printReceipt', { words: words.text });
    if (words.tone === 'bad') this.#say(null, text);
    else this.#say(text, null);
  }

  /** The print's line: a message (polite) or a failure (an alert), each in its own live region. */
  #say(message: string | null, error: string | null): void {
    if (this.#printMessage.textContent !== (message ?? '')) this.#printMessage.textContent = message ?? '';
    if (this.#printError.textContent !== (error ?? '')) this.#printError.textContent = error ?? '';
  }

  /** Training: the bank's payment, played by the training sandbox (pix.paid then turns the panel). */
  async #simulatePayment(transactionId: string): Promise<void> {
    try {
      await this.#context.client.call('operator.trainingPayPix', { transaction_id: transactionId });
    } catch (error) {
      this.#problem = t('pix.simulateFailed', { reason: errorText(error) });
      this.render();
    }
  }

  async #cancel(transactionId: string): Promise<void> {
    try {
      await this.#context.client.call('pix.cancel', { transaction_id: transactionId });
      // pix.ended (cancelled) closes the panel.
    } catch (error) {
      this.#problem = t('pix.cancelFailed', { reason: errorText(error) });
      this.render();
    }
  }

  /** Escape or "Ocultar": a QR waiting is put away (still shown on the PINPAD); an outcome is closed. */
  #tuckOrClose(moveFocus = true): void {
    if (this.#panel?.kind === 'waiting') {
      this.#tucked = true;
      this.#changed();
      if (moveFocus) byId('notice-pix-show').focus();
    } else this.#next();
  }

  /** Shows `panel`; `fresh`: something new the cashier and customer must see (it comes out of hiding). */
  #open(panel: Panel, fresh: boolean): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const sameShow =
      panel.kind === 'waiting' &&
      this.#panel?.kind === 'waiting' &&
      this.#panel.show.transaction_id === panel.show.transaction_id;
    this.#panel = panel;
    this.#problem = null;
    // A print of this QR goes on being told; a new panel starts with what it calls for.
    if (!sameShow) this.#follow('receipt', panel.kind === 'paid' ? panel.paid.print_job : null);
    if (fresh) this.#tucked = false;
    if (panel.kind !== 'waiting') this.#timer = setTimeout(() => this.#next(), OUTCOME_SHOWN_MS);
    this.#changed();
    if (this.isOpen()) this.#focusTitle();
  }

  /** The newest QR still on a PINPAD, or nothing. */
  #next(): void {
    const newest = [...this.#shows.values()].at(-1);
    if (newest === undefined) {
      if (this.#timer !== null) clearTimeout(this.#timer);
      this.#timer = null;
      this.#panel = null;
      this.#problem = null;
      this.#tucked = false;
      this.#follow('receipt', null);
      this.#changed();
      return;
    }
    this.#open({ kind: 'waiting', show: newest }, false);
  }

  #changed(): void {
    this.render();
    this.#context.changed();
  }

  #focusTitle(): void {
    document.getElementById('pix-title')?.focus();
  }
}
