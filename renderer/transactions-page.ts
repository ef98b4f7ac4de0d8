/**
 * Today's sales: the journal's payments since the store's midnight (payment.list), or the sales a
 * search found (sales-search.ts: dates, amount, NSU or authorization code, last 4), filtered by status,
 * each with its amount, type, status, card and time; one sale opened (a modal dialog) shows its
 * details, its receipt (receipt.get as HTML in a sandboxed frame), reprint (receipt.print), and what can still
 * be done to it — confirm or undo an approval waiting for the POS, void a confirmed one
 * (payment.undo), stop one still running (payment.cancel) — each money move behind a
 * confirmation dialog. Approvals waiting for confirmation (payment.pending) are listed on top.
 * Where the store requires the supervisor for voids (operator.supervisor), the void and undo
 * dialogs ask for the supervisor's PIN and send it with the request; the agent checks it.
 */
import { isPinbridgeError, type PaymentOutcome, type ResultOf } from '../client/index.js';
import { errorText, todayStartIso, type WindowContext } from './context.js';
import { confirmAction, type Confirmation, type SupervisorAuthorization, type SupervisorRefusal } from './dialog.js';
import { button, byId, h, keepFocus } from './dom.js';
import { currentLanguage, formatDateTime, formatTime, plural, t, type MessageKey } from './i18n.js';
import {
  canVoid,
  cardLabel,
  isRunning,
  saleCategory,
  SALE_CATEGORIES,
  saleWords,
  stateLabel,
  typeLabel,
  type SaleCategory,
} from './labels.js';
import { formatCentavos } from './money.js';
import { PrintWatch } from './print-watch.js';
import { SalesSearch } from './sales-search.js';

type Filter = 'all' | SaleCategory;
type SupervisorView = ResultOf<'operator.supervisor'>;
type Copy = 'customer' | 'merchant';

/** The most a day's list loads (the API's page limit); a busier day says it shows the newest. */
const LIST_LIMIT = 1000;
/** payment.undo and payment.cancel answer once the void or the cancel is through. */
const MONEY_MOVE_TIMEOUT_MS = 120_000;
/** Result steps come in bursts: the list is read once they settle. */
const REFRESH_DEBOUNCE_MS = 400;
/** The supervisor's lock read as a void's dialog opens: past this, the dialog goes on with what it knew. */
const LOCK_READ_TIMEOUT_MS = 5_000;

const FILTER_LABELS: Readonly<Record<Filter, MessageKey>> = {
  all: 'filter.all',
  approved: 'filter.approved',
  declined: 'filter.declined',
  failed: 'filter.failed',
  cancelled: 'filter.cancelled',
  in_progress: 'filter.inProgress',
};

export class TransactionsPage {
  readonly #context: WindowContext;
  #items: PaymentOutcome[] = [];
  #total = 0;
  #confirmations: PaymentOutcome[] = [];
  #undos: PaymentOutcome[] = [];
  #filter: Filter = 'all';
  #selected: string | null = null;
  #copy: Copy = 'customer';
  #receiptLoaded = false;
  #receiptRequest = 0;
  #busy = false;
  /** When a void needs the supervisor (the settings in use); null: never, or unknown. */
  #supervisor: SupervisorView | null = null;
  /** The reprint asked for in the sale's dialog, followed to its end (printer.job). */
  readonly #print: PrintWatch;
  #refreshTimer: ReturnType<typeof setTimeout> | null = null;
  /** The last list asked for: an older answer arriving later is dropped. */
  #listRequest = 0;
  /** A search applied or cleared by the cashier: its result is brought into view and said. */
  readonly #search = new SalesSearch(() => void this.load({ reveal: true }));
  readonly #title = byId('transactions-title');
  readonly #caption = byId('transactions-caption');

  readonly #pending = byId('pending');
  readonly #pendingList = byId('pending-confirmations');
  readonly #pendingConfirmBlock = byId('pending-confirmations-block');
  readonly #undosBlock = byId('pending-undos-block');
  readonly #undosList = byId('pending-undos');
  readonly #filterSelect = byId<HTMLSelectElement>('transactions-filter');
  readonly #count = byId('transactions-count');
  readonly #body = byId('transactions-body');
  readonly #table = byId('transactions-table');
  readonly #empty = byId('transactions-empty');
  readonly #message = byId('transactions-message');
  readonly #error = byId('transactions-error');
  readonly #sale = byId<HTMLDialogElement>('sale');
  readonly #saleTitle = byId('sale-title');
  readonly #saleDetails = byId('sale-details');
  readonly #saleActions = byId('sale-actions');
  readonly #saleMessage = byId('sale-message');
  readonly #saleError = byId('sale-error');
  readonly #receipt = byId('receipt');
  readonly #receiptCustomer = byId<HTMLButtonElement>('receipt-customer');
  readonly #receiptMerchant = byId<HTMLButtonElement>('receipt-merchant');
  readonly #receiptNote = byId('receipt-note');
  readonly #receiptFrame = byId<HTMLIFrameElement>('receipt-frame');
  readonly #receiptPrint = byId<HTMLButtonElement>('receipt-print');

  constructor(context: WindowContext) {
    this.#context = context;
    const { client } = context;
    for (const filter of ['all', ...SALE_CATEGORIES] as const)
      this.#filterSelect.append(h('option', { attrs: { value: filter } }, t(FILTER_LABELS[filter])));
    this.#filterSelect.addEventListener('change', () => {
      const value = this.#filterSelect.value;
      this.#filter =
        value === 'all' || (SALE_CATEGORIES as readonly string[]).includes(value) ? (value as Filter) : 'all';
      this.render();
    });
    byId('transactions-refresh').addEventListener('click', () => void this.load());
    byId('sale-close').addEventListener('click', () => this.#sale.close());
    // Closed by "Fechar" or Escape: back to the row the sale was opened from.
    this.#sale.addEventListener('close', () => this.#closed());
    this.#receiptCustomer.addEventListener('click', () => this.#showCopy('customer'));
    this.#receiptMerchant.addEventListener('click', () => this.#showCopy('merchant'));
    this.#receiptPrint.addEventListener('click', () => void this.#reprint());
    this.#print = new PrintWatch(context, () => this.#sayPrint());
    client.on('payment.result', () => this.#refreshSoon());
    client.on('payment.progress', (progress) => {
      if (progress.step === 'started' || !isRunning(progress)) this.#refreshSoon();
    });
  }

  /**
   * Reads today's sales (or the search's) and the pending confirmations again. `reveal`: the
   * cashier asked for this list (Buscar, Limpar, "Vendas de hoje"): its count and first rows are
   * brought into view, and the count is said again (a live region) even when it reads the same.
   */
  async load(options: { readonly reveal?: boolean } = {}): Promise<void> {
    const { client } = this.#context;
    const request = ++this.#listRequest;
    this.#search.followToday();
    if (options.reveal === true) this.#count.textContent = '';
    try {
      const [answers, pending, supervisor] = await Promise.all([
        Promise.all(
          this.#search.calls(LIST_LIMIT, todayStartIso()).map((params) => client.call('payment.list', params)),
        ),
        client.call('payment.pending', {}),
        // An agent without the supervisor's services answers with an error: no PIN is asked then
        // (the agent itself would still refuse a void that needs one, and the dialog says so).
        client.call('operator.supervisor', {}).catch(() => null),
      ]);
      if (request !== this.#listRequest) return;
      const list = SalesSearch.merge(answers, LIST_LIMIT);
      this.#supervisor = supervisor;
      this.#items = list.items;
      this.#total = list.total;
      this.#confirmations = pending.confirmations;
      this.#undos = pending.undos;
    } catch (error) {
      if (request === this.#listRequest) this.#count.textContent = errorText(error);
      return;
    }
    this.render();
    if (options.reveal === true) this.#reveal();
  }

  /**
   * The answer to a search in view, below the training banner (scroll-padding): the first row (or
   * "no sale found") at least wholly, and the count above it.
   */
  #reveal(): void {
    const first = this.#table.hidden ? this.#empty : this.#body.querySelector('tr');
    (first ?? this.#count).scrollIntoView({ block: 'nearest' });
    this.#count.scrollIntoView({ block: 'nearest' });
  }

  render(): void {
    for (const option of this.#filterSelect.options) {
      const filter = option.value as Filter;
      option.textContent = t(FILTER_LABELS[filter] ?? 'filter.all');
    }
    this.#renderPending();
    this.#search.render();
    const searching = this.#search.active;
    this.#title.textContent = t(searching ? 'search.resultTitle' : 'transactions.title');
    this.#caption.textContent = t(searching ? 'search.caption' : 'transactions.caption');
    const shown =
      this.#filter === 'all' ? this.#items : this.#items.filter((item) => saleCategory(item) === this.#filter);
    const truncated =
      this.#total > this.#items.length ? ` ${t('transactions.truncated', { n: this.#items.length })}` : '';
    const count =
      this.#filter === 'all'
        ? searching
          ? plural(this.#total, 'search.countOne', 'search.countMany', 'search.countNone')
          : plural(this.#total, 'transactions.countOne', 'transactions.countMany', 'transactions.countNone')
        : t(searching ? 'search.countFiltered' : 'transactions.countFiltered', {
            shown: shown.length,
            total: this.#total,
          });
    this.#count.textContent = count + truncated;
    this.#table.hidden = shown.length === 0;
    this.#empty.hidden = shown.length > 0;
    this.#empty.textContent = searching
      ? t(this.#filter === 'all' ? 'search.empty' : 'search.emptyFilter')
      : t(this.#filter === 'all' ? 'transactions.empty' : 'transactions.emptyFilter');
    keepFocus(this.#body, () => this.#body.replaceChildren(...shown.map((item) => this.#row(item))));
    this.#renderSale();
  }

  #row(item: PaymentOutcome): HTMLTableRowElement {
    const amount = formatCentavos(item.amount);
    // A search may reach other days: its rows say the date too.
    const time = this.#search.active ? formatDateTime(item.created_at) : formatTime(item.created_at);
    const category = saleCategory(item);
    return h(
      'tr',
      {
        attrs: {
          'data-reference': item.reference_id,
          'data-category': category,
          'aria-current': item.reference_id === this.#selected ? 'true' : null,
        },
      },
      h('td', { className: 'time-cell' }, h('time', { attrs: { datetime: item.created_at } }, time)),
      h('td', { className: 'num' }, amount),
      h('td', {}, typeLabel(item.payment_type, item.installments)),
      h('td', {}, h('span', { className: 'sale-status', attrs: { 'data-category': category } }, stateLabel(item))),
      h('td', { className: 'card-cell' }, cardLabel(item.card)),
      h(
        'td',
        {},
        button(t('transactions.open'), {
          label: t('transactions.openLabel', { amount, time }),
          focusKey: `open:${item.reference_id}`,
          onClick: () => this.#open(item.reference_id),
        }),
      ),
    );
  }

  #renderPending(): void {
    this.#pending.hidden = this.#confirmations.length === 0 && this.#undos.length === 0;
    this.#pendingConfirmBlock.hidden = this.#confirmations.length === 0;
    keepFocus(this.#pendingList, () =>
      this.#pendingList.replaceChildren(
        ...this.#confirmations.map((item) => {
          const amount = formatCentavos(item.amount);
          const time = formatTime(item.created_at);
          return h(
            'li',
            { attrs: { 'data-reference': item.reference_id } },
            h(
              'span',
              { className: 'pending-what' },
              `${amount} · ${typeLabel(item.payment_type, item.installments)} · ${time} · ${item.reference_id}`,
            ),
            h(
              'span',
              { className: 'row-actions' },
              button(t('pending.confirm'), {
                variant: 'primary',
                label: t('pending.confirmLabel', { amount, time }),
                focusKey: `confirm:${item.reference_id}`,
                disabled: this.#busy,
                onClick: () => void this.#confirm(item),
              }),
              button(t('pending.undo'), {
                variant: 'danger',
                label: t('pending.undoLabel', { amount, time }),
                focusKey: `undo:${item.reference_id}`,
                disabled: this.#busy,
                onClick: () => void this.#undo(item),
              }),
            ),
          );
        }),
      ),
    );
    this.#undosBlock.hidden = this.#undos.length === 0;
    this.#undosList.replaceChildren(
      ...this.#undos.map((item) =>
        h(
          'li',
          {},
          `${formatCentavos(item.amount)} · ${formatTime(item.created_at)} · ${item.reference_id} · ${stateLabel(item)}`,
        ),
      ),
    );
  }

  #selectedSale(): PaymentOutcome | undefined {
    return this.#selected === null
      ? undefined
      : (this.#items.find((item) => item.reference_id === this.#selected) ??
          this.#confirmations.find((item) => item.reference_id === this.#selected));
  }

  #renderSale(): void {
    const sale = this.#selectedSale();
    if (sale === undefined) {
      if (this.#sale.open) this.#sale.close();
      return;
    }
    this.#sale.dataset.reference = sale.reference_id;
    this.#saleTitle.textContent = t('sale.title', { amount: formatCentavos(sale.amount) });
    const problem =
      sale.problem === null ? null : currentLanguage() === 'en' ? sale.problem.message : sale.problem.cashier_message;
    const details: [string, string | null][] = [
      [t('payment.time'), formatTime(sale.created_at)],
      [t('col.status'), stateLabel(sale)],
      [t('payment.type'), typeLabel(sale.payment_type, sale.installments)],
      [t('payment.card'), cardLabel(sale.card)],
      [t('payment.nsu'), sale.nsu],
      [t('payment.authorization'), sale.authorization_code],
      [t('payment.reference'), sale.reference_id],
      [t('payment.terminal'), sale.terminal],
      [t('payment.reason'), problem],
    ];
    this.#saleDetails.replaceChildren(
      ...details
        .filter((entry): entry is [string, string] => entry[1] !== null)
        .flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]),
    );

    const actions: HTMLButtonElement[] = [];
    if (isRunning(sale)) {
      actions.push(
        button(t('sale.cancelRunning'), {
          variant: 'danger',
          focusKey: 'sale:cancel',
          disabled: this.#busy,
          onClick: () => void this.#cancelRunning(sale),
        }),
      );
    } else if (sale.state === 'awaiting_confirmation') {
      actions.push(
        button(t('sale.confirm'), {
          variant: 'primary',
          focusKey: 'sale:confirm',
          disabled: this.#busy,
          onClick: () => void this.#confirm(sale),
        }),
      );
      actions.push(
        button(t('sale.undo'), {
          variant: 'danger',
          focusKey: 'sale:undo',
          disabled: this.#busy,
          onClick: () => void this.#undo(sale),
        }),
      );
    } else if (canVoid(sale)) {
      actions.push(
        button(t('sale.void'), {
          variant: 'danger',
          focusKey: 'sale:void',
          disabled: this.#busy,
          onClick: () => void this.#void(sale),
        }),
      );
    }
    keepFocus(this.#saleActions, () => this.#saleActions.replaceChildren(...actions));
    this.#saleActions.hidden = actions.length === 0;

    this.#receipt.hidden = isRunning(sale);
    this.#receiptCustomer.setAttribute('aria-pressed', String(this.#copy === 'customer'));
    this.#receiptMerchant.setAttribute('aria-pressed', String(this.#copy === 'merchant'));
    this.#receiptFrame.title = t('receipt.frameTitle', {
      copy: t(this.#copy === 'customer' ? 'receipt.customer' : 'receipt.merchant'),
    });
    this.#receiptPrint.disabled = !this.#receiptLoaded || this.#busy;
  }

  #open(referenceId: string): void {
    this.#selected = referenceId;
    this.#copy = 'customer';
    this.#print.stop();
    this.#saleMessage.textContent = '';
    this.#saleError.textContent = '';
    this.render();
    if (!this.#sale.open) this.#sale.showModal();
    this.#saleTitle.focus();
    void this.#loadReceipt();
  }

  #closed(): void {
    const referenceId = this.#selected;
    this.#selected = null;
    this.#print.stop();
    this.#receiptRequest += 1;
    this.#receiptFrame.srcdoc = '';
    this.render();
    const opener = [...this.#body.querySelectorAll<HTMLElement>('[data-focus-key]')].find(
      (element) => element.dataset.focusKey === `open:${referenceId}`,
    );
    opener?.focus();
  }

  #showCopy(copy: Copy): void {
    if (this.#copy === copy) return;
    this.#copy = copy;
    this.#renderSale();
    void this.#loadReceipt();
  }

  async #loadReceipt(): Promise<void> {
    const sale = this.#selectedSale();
    const request = ++this.#receiptRequest;
    this.#receiptLoaded = false;
    this.#receiptFrame.srcdoc = '';
    if (sale === undefined || isRunning(sale)) return;
    this.#receiptNote.textContent = t('receipt.loading');
    this.#renderSale();
    try {
      const receipt = await this.#context.client.call('receipt.get', {
        reference_id: sale.reference_id,
        copy: this.#copy,
        format: 'html',
        // The receipt as its first paper reads: showing it prints nothing, so it is no reprint. A print
        // from the window (receipt.print) comes out marked when that copy was printed before.
        reprint: false,
      });
      if (request !== this.#receiptRequest) return;
      this.#receiptFrame.srcdoc =
        receipt.encoding === 'base64'
          ? new TextDecoder().decode(Uint8Array.from(atob(receipt.content), (char) => char.charCodeAt(0)))
          : receipt.content;
      this.#receiptNote.textContent = receipt.kind === 'cancellation' ? t('receipt.cancellation') : '';
      this.#receiptLoaded = true;
    } catch (error) {
      if (request !== this.#receiptRequest) return;
      const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
      this.#receiptNote.textContent =
        code === 'NO_RECEIPT' ? t('receipt.none') : t('receipt.error', { message: errorText(error) });
    }
    this.#renderSale();
  }

  async #reprint(): Promise<void> {
    const sale = this.#selectedSale();
    if (sale === undefined) return;
    this.#saleMessage.textContent = '';
    this.#saleError.textContent = '';
    this.#print.sending();
    try {
      const { jobs } = await this.#context.client.call('receipt.print', {
        reference_id: sale.reference_id,
        copies: [this.#copy],
      });
      if (this.#selected !== sale.reference_id) return;
      this.#print.follow(jobs[0]);
    } catch (error) {
      this.#print.follow(undefined);
      this.#sayInDialog(null, errorText(error));
    }
  }

  /** The reprint's progress: said as it happens; "not printed" in the failure style, with its reason. */
  #sayPrint(): void {
    const words = this.#print.words();
    if (words === null || !this.#sale.open) return;
    if (words.tone === 'bad') this.#sayInDialog(null, words.text);
    else this.#sayInDialog(words.text, null);
  }

  /** A line at the top of the sale's details, scrolled into view there (the column scrolls on a short screen). */
  #sayInDialog(message: string | null, error: string | null): void {
    if (this.#saleMessage.textContent !== (message ?? '')) this.#saleMessage.textContent = message ?? '';
    if (this.#saleError.textContent !== (error ?? '')) this.#saleError.textContent = error ?? '';
    (error === null ? this.#saleMessage : this.#saleError).scrollIntoView({ block: 'nearest' });
  }

  async #void(sale: PaymentOutcome): Promise<void> {
    await this.#voidOrUndo(
      sale,
      {
        title: t('void.title'),
        text: t('void.text', {
          amount: formatCentavos(sale.amount),
          type: typeLabel(sale.payment_type, sale.installments),
          card: cardLabel(sale.card),
        }),
        confirm: t('void.yes'),
      },
      'sale.voided',
    );
  }

  async #undo(sale: PaymentOutcome): Promise<void> {
    await this.#voidOrUndo(
      sale,
      { title: t('undo.title'), text: t('undo.text', { amount: formatCentavos(sale.amount) }), confirm: t('undo.yes') },
      'sale.undone',
    );
  }

  /** Where the supervisor may type the PIN for a void of this sale; null when none is needed. */
  #supervisorEntries(sale: PaymentOutcome): ('window' | 'pinpad')[] | null {
    const policy = this.#supervisor;
    if (
      policy === null ||
      policy.required_for !== 'voids' ||
      !canVoid(sale) ||
      sale.amount < policy.min_amount_centavos
    )
      return null;
    return policy.entry === 'either' ? ['window', 'pinpad'] : [policy.entry];
  }

  /**
   * payment.undo behind its dialog; where the supervisor is needed, the dialog asks for the PIN
   * and sends the request itself, saying a wrong PIN there, until it goes through or the cashier
   * goes back.
   */
  async #voidOrUndo(sale: PaymentOutcome, question: Confirmation, done: MessageKey): Promise<void> {
    const entries = this.#supervisorEntries(sale);
    if (entries === null) {
      if (await confirmAction(question)) await this.#moveMoney(sale, 'payment.undo', done);
      return;
    }
    const attempt = async (authorization: SupervisorAuthorization): Promise<SupervisorRefusal | null> => {
      const supervisor =
        'pin' in authorization ? { supervisor_pin: authorization.pin } : { supervisor_entry: 'pinpad' as const };
      try {
        await this.#context.client.call(
          'payment.undo',
          { reference_id: sale.reference_id, ...supervisor },
          { timeoutMs: MONEY_MOVE_TIMEOUT_MS },
        );
        return null;
      } catch (failure) {
        return refusalOf(failure);
      }
    };
    // A lock the agent keeps is counted down as the dialog opens: as last read, then as it is now
    // (another window locked it, the agent restarted, the PIN was set again).
    const lockedUntil = lockEnd(this.#supervisor?.locked_until);
    const lockNow = this.#readSupervisor().then((view) =>
      view === null ? null : { lockedUntil: lockEnd(view.locked_until) ?? null },
    );
    const hint = this.#supervisor?.training_pin === true ? t('supervisor.trainingHint') : undefined;
    const voided = await confirmAction({
      ...question,
      supervisor: {
        entries,
        attempt,
        lockNow,
        ...(hint === undefined ? {} : { hint }),
        ...(lockedUntil === undefined ? {} : { lockedUntil }),
      },
    });
    if (voided) await this.#moveMoney(sale, 'payment.undo', done, { done: true });
  }

  /** operator.supervisor read again; null when it cannot be (the agent checks the lock itself anyway). */
  async #readSupervisor(): Promise<SupervisorView | null> {
    try {
      this.#supervisor = await this.#context.client.call(
        'operator.supervisor',
        {},
        { timeoutMs: LOCK_READ_TIMEOUT_MS },
      );
      return this.#supervisor;
    } catch {
      return null;
    }
  }

  async #cancelRunning(sale: PaymentOutcome): Promise<void> {
    const confirmed = await confirmAction({
      title: t('cancelRunning.title'),
      text: t('cancelRunning.text', { amount: formatCentavos(sale.amount) }),
      confirm: t('cancelRunning.yes'),
    });
    if (confirmed) await this.#moveMoney(sale, 'payment.cancel', 'sale.cancelled');
  }

  async #confirm(sale: PaymentOutcome): Promise<void> {
    await this.#moveMoney(sale, 'payment.confirm', 'sale.confirmed');
  }

  /**
   * Confirm, undo, void or cancel; the outcome is said in the sale's dialog, or on the page
   * (pending list). `already.done`: the supervisor's dialog made the call; only the outcome is said.
   */
  async #moveMoney(
    sale: PaymentOutcome,
    method: 'payment.undo' | 'payment.cancel' | 'payment.confirm',
    done: MessageKey,
    already: { readonly done: boolean } = { done: false },
  ): Promise<void> {
    const inDialog = this.#sale.open && this.#selected === sale.reference_id;
    const [message, error] = inDialog ? [this.#saleMessage, this.#saleError] : [this.#message, this.#error];
    for (const element of [this.#saleMessage, this.#saleError, this.#message, this.#error]) element.textContent = '';
    this.#busy = true;
    this.render();
    try {
      if (!already.done)
        await this.#context.client.call(
          method,
          { reference_id: sale.reference_id },
          { timeoutMs: MONEY_MOVE_TIMEOUT_MS },
        );
      // The sale as the cashier knows it (amount, time, card, NSU), never its reference id.
      message.textContent = `${t(done)} (${saleWords(sale)})`;
    } catch (failure) {
      error.textContent = errorText(failure);
    } finally {
      this.#busy = false;
    }
    await this.load();
    // The answer where the cashier looks: on top of the sale's details, or on the page under the banner.
    for (const said of [message, error]) if (said.textContent !== '') said.scrollIntoView({ block: 'nearest' });
    if (!inDialog) return;
    void this.#loadReceipt();
    // The button pressed may be gone (a voided sale has no void button): keep the cashier on the sale.
    if (document.activeElement === null || document.activeElement === document.body) this.#saleTitle.focus();
  }

  #refreshSoon(): void {
    if (this.#refreshTimer !== null) clearTimeout(this.#refreshTimer);
    this.#refreshTimer = setTimeout(() => {
      this.#refreshTimer = null;
      void this.load();
    }, REFRESH_DEBOUNCE_MS);
  }
}

/** An ISO time still ahead, as ms since the epoch; undefined for none or one past. */
function lockEnd(iso: string | null | undefined): number | undefined {
  const until = iso === null || iso === undefined ? Number.NaN : Date.parse(iso);
  return Number.isFinite(until) && until > Date.now() ? until : undefined;
}

/**
 * A void refused, as the supervisor's dialog says it: a lock by wrong PINs comes with its end
 * (locked_until; retry_after_ms from now for an agent that does not send it), counted down there.
 */
function refusalOf(failure: unknown): SupervisorRefusal {
  const message = errorText(failure);
  if (!isPinbridgeError(failure) || failure.code !== 'SUPERVISOR_LOCKED' || failure.data?.reason !== 'WRONG_PINS')
    return { message };
  const { locked_until: until, retry_after_ms: retryAfterMs } = failure.data;
  const lockedUntil = lockEnd(until) ?? (retryAfterMs === undefined ? undefined : Date.now() + retryAfterMs);
  return lockedUntil === undefined ? { message } : { message, lockedUntil };
}
