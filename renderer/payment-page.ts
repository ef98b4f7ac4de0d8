/**
 * The payment in progress: every payment reaches the window (payment.progress), step by step,
 * with the same pt-BR texts the PINPAD shows, its amount, a Cancel button (payment.cancel) and
 * then its result (payment.result, or the answer of a sale started here): the outcome as the
 * page's title, the type with its installments, the card, NSU and authorization, and the
 * receipts (payment-receipts.ts). In training mode it also holds the "Venda de teste" form,
 * which starts a sale from the window itself: an amount, credit or debit, and for credit the
 * installments (à vista, 2x… up to the installments in use, which session.operator names) — sent
 * with the sale, so the PINPAD does not ask and the simulated customer pays as the cashier chose.
 * Esc asks before it cancels the sale on screen ("Cancelar a venda em andamento?", "Não" first).
 */
import type { PaymentOutcome, PaymentProgress } from '../client/index.js';
import { errorText, todayStartIso, type WindowContext } from './context.js';
import { confirmAction } from './dialog.js';
import { button, byId, h, keepFocus } from './dom.js';
import { currentLanguage, formatTime, t, type MessageKey } from './i18n.js';
import { cardLabel, confirmationLabel, isRunning, resultLabel, typeLabel } from './labels.js';
import { formatCentavos, parseCentavos } from './money.js';
import { PaymentReceipts } from './payment-receipts.js';

/** Steps after which the payment's result can be read (payment.status says Processed). */
const RESULT_STEPS: ReadonlySet<PaymentProgress['step']> = new Set<PaymentProgress['step']>([
  'awaiting_confirmation',
  'confirmed',
  'declined',
  'cancelled',
  'failed',
  'reversed',
  'undone',
]);

/** The page's title once the payment on screen is decided: what became of it. */
const OUTCOME_TITLES: Readonly<Record<PaymentOutcome['status'], MessageKey>> = {
  approved: 'payment.titleApproved',
  declined: 'payment.titleDeclined',
  failed: 'payment.titleFailed',
  cancelled: 'payment.titleCancelled',
  in_progress: 'payment.title',
};

/** Sent as the description of test sales (it is data for the payments API, not a screen text). */
const TRAINING_DESCRIPTION = 'Venda de teste (janela do Pinbridge)';
/** How long the window waits for payment.cancel, which answers when the payment has ended. */
const CANCEL_TIMEOUT_MS = 120_000;

interface TrackedPayment {
  readonly referenceId: string;
  terminal: string;
  readonly steps: PaymentProgress[];
  amount: number | null;
  paymentType: PaymentOutcome['payment_type'] | null;
  installments: number | null;
  outcome: PaymentOutcome | null;
  cancelling: boolean;
  error: string | null;
}

/** What the shell shows on the other pages while a payment runs. */
export interface RunningSummary {
  readonly amount: string;
  readonly message: string;
}

export class PaymentPage {
  readonly #context: WindowContext;
  readonly #payments = new Map<string, TrackedPayment>();
  /** The payment on screen: the newest one, or the one the cashier chose. */
  #focused: string | null = null;
  /** A test sale started here and not answered yet. */
  #trainingRunning = false;
  /** The payment Esc asked about while its question is on screen. */
  #asking: string | null = null;

  readonly #receipts: PaymentReceipts;

  readonly #title = byId('payment-title');
  readonly #empty = byId('payment-empty');
  readonly #current = byId('payment-current');
  readonly #amount = byId('payment-amount');
  readonly #summary = byId('payment-summary');
  readonly #message = byId('payment-message');
  readonly #result = byId('payment-result');
  readonly #resultStatus = byId('payment-result-status');
  readonly #resultReason = byId('payment-result-reason');
  readonly #resultDetails = byId('payment-result-details');
  readonly #cancel = byId<HTMLButtonElement>('payment-cancel');
  readonly #error = byId('payment-error');
  readonly #steps = byId('payment-steps');
  readonly #others = byId('payment-others');
  readonly #othersList = byId('payment-others-list');
  readonly #training = byId('training-sale');
  readonly #trainingForm = byId<HTMLFormElement>('training-form');
  readonly #trainingAmount = byId<HTMLInputElement>('training-amount');
  readonly #trainingStart = byId<HTMLButtonElement>('training-start');
  readonly #trainingError = byId('training-error');
  readonly #trainingInstallments = byId<HTMLSelectElement>('training-installments');
  readonly #trainingInstallmentsError = byId('training-installments-error');

  constructor(context: WindowContext) {
    this.#context = context;
    this.#receipts = new PaymentReceipts(context);
    const { client } = context;
    client.on('payment.progress', (progress) => this.#onProgress(progress));
    client.on('payment.result', (outcome) => this.#onOutcome(outcome));
    this.#cancel.addEventListener('click', () => void this.#cancelFocused());
    this.#trainingForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.#startTrainingSale();
    });
    // Each installment's value follows the amount typed; debit has none.
    this.#trainingAmount.addEventListener('input', () => this.#renderInstallments());
    this.#trainingForm.addEventListener('change', () => this.#renderInstallments());
    // Esc cancels the sale on screen, as on a TEF screen, after a question (a key pressed by mistake
    // must not cost the customer the sale) — unless a dialog takes the key first.
    document.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || event.defaultPrevented || byId('page-payment').hidden) return;
      if (document.querySelector('dialog[open]') !== null) return;
      const tracked = this.#focused === null ? undefined : this.#payments.get(this.#focused);
      if (tracked === undefined || !this.#isRunning(tracked)) return;
      event.preventDefault();
      void this.#askCancel(tracked);
    });
  }

  /** After each (re)connection: payments still running that this window has not seen start. */
  async load(): Promise<void> {
    try {
      const { items } = await this.#context.client.call('payment.list', { from: todayStartIso(), limit: 50 });
      for (const outcome of items) {
        if (!isRunning(outcome) && !this.#payments.has(outcome.reference_id)) continue;
        const tracked = this.#track(outcome.reference_id, outcome.terminal);
        this.#learnDetails(tracked, outcome);
        if (!isRunning(outcome)) tracked.outcome = outcome;
      }
    } catch {
      // The list is a convenience here: the next progress event brings the payment anyway.
    }
    this.render();
  }

  /** The payment running now (for the notice on the other pages), or null. */
  runningSummary(): RunningSummary | null {
    const running = this.#running();
    const tracked = running.find((payment) => payment.referenceId === this.#focused) ?? running[0];
    if (tracked === undefined) return null;
    return {
      amount: tracked.amount === null ? '—' : formatCentavos(tracked.amount),
      message: this.#currentMessage(tracked),
    };
  }

  render(): void {
    const training = this.#context.mode() === 'training';
    this.#training.hidden = !training;
    this.#trainingStart.disabled = this.#trainingRunning;
    this.#renderInstallments();
    this.#endQuestionIfOver();
    const tracked = this.#focused === null ? undefined : this.#payments.get(this.#focused);
    this.#empty.hidden = tracked !== undefined;
    this.#current.hidden = tracked === undefined;
    if (tracked !== undefined) this.#renderPayment(tracked);
    const decided = tracked === undefined || this.#isRunning(tracked) ? null : tracked.outcome;
    // Nothing on screen is no payment "in progress": the page is just Pagamento then.
    this.#title.textContent = t(
      tracked === undefined ? 'nav.payment' : decided === null ? 'payment.title' : OUTCOME_TITLES[decided.status],
    );
    this.#receipts.show(decided);
    this.#renderOthers();
  }

  #renderPayment(tracked: TrackedPayment): void {
    const outcome = tracked.outcome;
    const running = this.#isRunning(tracked);
    this.#current.dataset.status = running ? 'running' : (outcome?.status ?? 'running');
    this.#current.dataset.reference = tracked.referenceId;
    this.#amount.textContent = tracked.amount === null ? '—' : formatCentavos(tracked.amount);
    // Once decided, the type (with its installments) is in the result's details.
    const kind =
      tracked.paymentType === null || (outcome !== null && !running)
        ? null
        : typeLabel(tracked.paymentType, tracked.installments);
    const terminal = tracked.terminal === '' ? null : `${t('payment.terminal')} ${tracked.terminal}`;
    this.#summary.textContent = [kind, `${t('payment.reference')} ${tracked.referenceId}`, terminal]
      .filter((part) => part !== null)
      .join(' · ');
    const decided = outcome !== null && !running;
    // Once decided, the last step ("Venda confirmada") would repeat the result: the line goes
    // quiet, and the result's own live region (its status and reason) says the outcome.
    this.#message.textContent = decided ? '' : this.#currentMessage(tracked);
    this.#message.classList.toggle('visually-hidden', decided);

    this.#result.hidden = !decided;
    // A decline or a failure is marked as one (the failure style), not only coloured.
    if (decided && (outcome.status === 'declined' || outcome.status === 'failed')) this.#result.dataset.level = 'bad';
    else delete this.#result.dataset.level;
    if (decided) {
      // "confirmada" is said once, by the steps; only a confirmation still due or undone is news here.
      const confirmation =
        outcome.status === 'approved' && (outcome.confirmation === 'pending' || outcome.confirmation === 'undone')
          ? ` — ${confirmationLabel(outcome.confirmation)}`
          : '';
      this.#resultStatus.textContent = `${resultLabel(outcome.status)}${confirmation}`;
      const problem = outcome.problem;
      this.#resultReason.textContent =
        problem === null ? '' : currentLanguage() === 'en' ? problem.message : problem.cashier_message;
      this.#resultReason.hidden = problem === null;
      // Only what the payment has: a sale that never reached the card has no card, NSU or authorization.
      const details = [
        [t('payment.type'), typeLabel(outcome.payment_type, outcome.installments)],
        [t('payment.card'), outcome.card === null ? null : cardLabel(outcome.card)],
        [t('payment.nsu'), outcome.nsu],
        [t('payment.authorization'), outcome.authorization_code],
      ].filter((entry): entry is [string, string] => entry[1] !== null);
      this.#resultDetails.replaceChildren(
        ...details.flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]),
      );
    }

    this.#cancel.hidden = !running;
    this.#cancel.disabled = tracked.cancelling;
    this.#cancel.textContent = tracked.cancelling ? t('payment.cancelling') : t('payment.cancel');
    this.#error.textContent = tracked.error ?? '';

    this.#steps.replaceChildren(
      ...this.#listedSteps(tracked).map((step) =>
        h(
          'li',
          { attrs: { 'data-step': step.step } },
          h('time', { attrs: { datetime: step.at } }, formatTime(step.at)),
          ' ',
          h('span', {}, this.#stepText(step, true)),
        ),
      ),
    );
  }

  #renderOthers(): void {
    const others = this.#running().filter((payment) => payment.referenceId !== this.#focused);
    this.#others.hidden = others.length === 0;
    keepFocus(this.#othersList, () =>
      this.#othersList.replaceChildren(
        ...others.map((payment) =>
          h(
            'li',
            {},
            button(
              t('payment.show', {
                amount: payment.amount === null ? '—' : formatCentavos(payment.amount),
                message: this.#currentMessage(payment),
              }),
              {
                focusKey: `show:${payment.referenceId}`,
                onClick: () => {
                  this.#focused = payment.referenceId;
                  this.render();
                  this.#amount.focus();
                },
              },
            ),
          ),
        ),
      ),
    );
  }

  /**
   * The steps as listed: one that only repeats what an earlier one said — the automatic
   * confirmation's "Aprovada" right after the issuer's — is not listed twice. The PINPAD's own
   * messages are all listed (the same text twice there is two things the customer saw).
   */
  #listedSteps(tracked: TrackedPayment): PaymentProgress[] {
    const said = new Set<string>();
    return tracked.steps.filter((step) => {
      if (step.step === 'pinpad_message') return true;
      const text = this.#stepText(step, true);
      if (said.has(text)) return false;
      said.add(text);
      return true;
    });
  }

  /** The text of a step in the current language; the PINPAD's own text stays as the PINPAD shows it. */
  #stepText(step: PaymentProgress, inLog: boolean): string {
    if (step.step === 'pinpad_message')
      return inLog ? t('payment.pinpadSays', { text: step.cashier_message }) : step.cashier_message;
    return currentLanguage() === 'en' ? step.message : step.cashier_message;
  }

  #currentMessage(tracked: TrackedPayment): string {
    const last = tracked.steps.at(-1);
    if (last !== undefined) return this.#stepText(last, false);
    return tracked.outcome === null ? '…' : resultLabel(tracked.outcome.status);
  }

  #isRunning(tracked: TrackedPayment): boolean {
    if (tracked.outcome !== null) return false;
    const last = tracked.steps.at(-1);
    return last === undefined || isRunning(last);
  }

  #running(): TrackedPayment[] {
    return [...this.#payments.values()].filter((payment) => this.#isRunning(payment));
  }

  #track(referenceId: string, terminal: string): TrackedPayment {
    let tracked = this.#payments.get(referenceId);
    if (tracked === undefined) {
      tracked = {
        referenceId,
        terminal,
        steps: [],
        amount: null,
        paymentType: null,
        installments: null,
        outcome: null,
        cancelling: false,
        error: null,
      };
      this.#payments.set(referenceId, tracked);
      // A new payment takes the screen unless the one shown is still running.
      const shown = this.#focused === null ? undefined : this.#payments.get(this.#focused);
      if (shown === undefined || !this.#isRunning(shown)) {
        this.#focused = referenceId;
        // After this render (the new payment's first step): in view, not under the banner.
        queueMicrotask(() => this.#reveal());
      }
    }
    return tracked;
  }

  #learnDetails(tracked: TrackedPayment, outcome: PaymentOutcome): void {
    tracked.terminal = outcome.terminal;
    tracked.amount = outcome.amount;
    tracked.paymentType = outcome.payment_type;
    tracked.installments = outcome.installments;
  }

  #onProgress(progress: PaymentProgress): void {
    const known = this.#payments.has(progress.reference_id);
    const tracked = this.#track(progress.reference_id, progress.terminal);
    if (progress.step === 'started' && tracked.outcome !== null) {
      // The same reference started again (a POS repeating a finished sale): show it afresh.
      tracked.outcome = null;
      tracked.steps.length = 0;
    }
    tracked.steps.push(progress);
    if (!known || tracked.amount === null) void this.#fetchDetails(tracked);
    if (RESULT_STEPS.has(progress.step)) void this.#fetchOutcome(tracked);
    this.render();
    this.#context.changed();
  }

  #onOutcome(outcome: PaymentOutcome): void {
    const tracked = this.#track(outcome.reference_id, outcome.terminal);
    this.#learnDetails(tracked, outcome);
    tracked.outcome = outcome;
    this.render();
    this.#context.changed();
  }

  /** Progress events carry no amount: the journal has it. */
  async #fetchDetails(tracked: TrackedPayment): Promise<void> {
    try {
      const { items } = await this.#context.client.call('payment.list', { from: todayStartIso(), limit: 50 });
      const found = items.find((item) => item.reference_id === tracked.referenceId);
      if (found === undefined) return;
      this.#learnDetails(tracked, found);
      this.render();
      this.#context.changed();
    } catch {
      // Shown without its amount until the result brings it.
    }
  }

  /**
   * The result, read back once the steps say it is there: a payment nobody here started (or the
   * window's own, answered by payment.start) brings no payment.result event to the window.
   */
  async #fetchOutcome(tracked: TrackedPayment): Promise<void> {
    try {
      const status = await this.#context.client.call('payment.status', { reference_id: tracked.referenceId });
      if (status.status === 'Processed') this.#onOutcome(status.result);
    } catch {
      // The payment.result event or the next step brings it.
    }
  }

  /** Esc: "Cancelar a venda em andamento?", with "Não" focused; only "Sim" cancels, and only a sale still running. */
  async #askCancel(tracked: TrackedPayment): Promise<void> {
    if (tracked.cancelling || this.#asking !== null) return;
    this.#asking = tracked.referenceId;
    let confirmed: boolean;
    try {
      confirmed = await confirmAction({
        title: t('escCancel.title'),
        text: t('escCancel.text', { amount: tracked.amount === null ? '—' : formatCentavos(tracked.amount) }),
        confirm: t('escCancel.yes'),
        back: t('escCancel.no'),
      });
    } finally {
      this.#asking = null;
    }
    // Decided while the question was on screen: a "Sim" must not turn into the void of an approval.
    if (confirmed && this.#isRunning(tracked) && this.#focused === tracked.referenceId) await this.#cancelFocused();
  }

  /** The sale Esc asked about ended meanwhile (approved, declined…): the question is moot, and goes. */
  #endQuestionIfOver(): void {
    if (this.#asking === null) return;
    const asked = this.#payments.get(this.#asking);
    if (asked !== undefined && this.#isRunning(asked)) return;
    const dialog = byId<HTMLDialogElement>('confirm-dialog');
    if (dialog.open) dialog.close();
  }

  async #cancelFocused(): Promise<void> {
    const tracked = this.#focused === null ? undefined : this.#payments.get(this.#focused);
    if (tracked === undefined || tracked.cancelling) return;
    tracked.cancelling = true;
    tracked.error = null;
    this.render();
    try {
      // Answers with the final outcome once the PINPAD has stopped (or the void went through).
      const outcome = await this.#context.client.call(
        'payment.cancel',
        { reference_id: tracked.referenceId },
        { timeoutMs: CANCEL_TIMEOUT_MS },
      );
      this.#onOutcome(outcome);
    } catch (error) {
      tracked.error = errorText(error);
    } finally {
      tracked.cancelling = false;
      this.render();
    }
  }

  /** Credit, debit or Pix, as the form says. */
  #trainingType(): 'credit' | 'debit' | 'pix' {
    const checked = this.#trainingForm.querySelector<HTMLInputElement>('input[name="training-type"]:checked');
    return checked?.value === 'debit' ? 'debit' : checked?.value === 'pix' ? 'pix' : 'credit';
  }

  /**
   * The installments choice: "À vista", then "2x" up to the most in use — "2x de R$ 6,17" once the
   * amount can be read, and greyed where an installment would be below the smallest one; disabled
   * for debit. The options are rewritten in place, so the choice stays.
   */
  #renderInstallments(): void {
    const select = this.#trainingInstallments;
    const max = this.#context.client.operator?.installments.max ?? 1;
    const amount = parseCentavos(this.#trainingAmount.value);
    const allowed = amount === null ? max : this.#allowedInstallments(amount);
    while (select.options.length > max) select.options[select.options.length - 1]?.remove();
    for (let n = 1; n <= max; n++) {
      const label =
        n === 1
          ? t('training.installmentsSingle')
          : amount === null
            ? t('training.installmentsN', { n })
            : t('training.installmentsEach', { n, amount: formatCentavos(Math.floor(amount / n)) });
      const option = select.options[n - 1] ?? select.appendChild(h('option', { attrs: { value: String(n) } }));
      if (option.textContent !== label) option.textContent = label;
      option.disabled = n > allowed;
    }
    select.disabled = this.#trainingType() !== 'credit';
  }

  /** The most installments `amount` allows: what the agent takes (main/core/params.ts), each at least the smallest. */
  #allowedInstallments(amount: number): number {
    const rules = this.#context.client.operator?.installments;
    if (rules === undefined) return 1;
    return Math.max(1, Math.min(rules.max, Math.floor(amount / Math.max(1, rules.min_installment_amount))));
  }

  /** The installments chosen for a credit sale of `amount`, or null (said at the field) when the amount does not allow them. */
  #chosenInstallments(amount: number): number | null {
    const rules = this.#context.client.operator?.installments;
    const chosen = Number(this.#trainingInstallments.value) || 1;
    if (rules === undefined || chosen === 1) return chosen;
    const allowed = this.#allowedInstallments(amount);
    if (chosen <= allowed) return chosen;
    this.#trainingInstallmentsError.textContent = t('training.tooManyInstallments', {
      amount: formatCentavos(amount),
      n: allowed,
      min: formatCentavos(rules.min_installment_amount),
    });
    this.#trainingInstallments.setAttribute('aria-invalid', 'true');
    this.#trainingInstallments.focus();
    return null;
  }

  async #startTrainingSale(): Promise<void> {
    this.#trainingError.textContent = '';
    this.#trainingInstallmentsError.textContent = '';
    this.#trainingAmount.removeAttribute('aria-invalid');
    this.#trainingInstallments.removeAttribute('aria-invalid');
    const amount = parseCentavos(this.#trainingAmount.value);
    if (amount === null) {
      this.#trainingError.textContent = t('training.badAmount');
      this.#trainingAmount.setAttribute('aria-invalid', 'true');
      this.#trainingAmount.focus();
      return;
    }
    const chosen = this.#trainingType();
    if (chosen === 'pix') return this.#startTrainingPix(amount);
    const paymentType = chosen;
    const installments = paymentType === 'credit' ? this.#chosenInstallments(amount) : null;
    if (paymentType === 'credit' && installments === null) return;
    const referenceId = newTestReference();
    const tracked = this.#track(referenceId, '');
    tracked.amount = amount;
    tracked.paymentType = paymentType;
    tracked.installments = installments;
    this.#focused = referenceId;
    this.#trainingRunning = true;
    this.render();
    this.#reveal();
    try {
      const outcome = await this.#context.client.pay({
        reference_id: referenceId,
        amount,
        payment_type: paymentType,
        // Sent with the sale: the PINPAD does not ask, and the simulated customer pays it as chosen.
        ...(installments === null ? {} : { installments }),
        description: TRAINING_DESCRIPTION,
      });
      // The sale is over: an Enter in a still-filled amount would start the same sale again.
      this.#trainingAmount.value = '';
      this.#onOutcome(outcome);
    } catch (error) {
      this.#trainingError.textContent = errorText(error);
      // Refused before it began (BUSY, no PINPAD…): nothing to show for it.
      if (tracked.steps.length === 0 && tracked.outcome === null) this.#forget(referenceId);
    } finally {
      this.#trainingRunning = false;
      this.render();
      this.#context.changed();
    }
  }

  /** A practice Pix (operator.trainingPix): the Pix panel opens with it (pix.shown); a refusal is said at the amount. */
  async #startTrainingPix(amount: number): Promise<void> {
    this.#trainingRunning = true;
    this.render();
    try {
      await this.#context.client.call('operator.trainingPix', { amount });
      this.#trainingAmount.value = '';
    } catch (error) {
      this.#trainingError.textContent = errorText(error);
      this.#trainingAmount.focus();
    } finally {
      this.#trainingRunning = false;
      this.render();
    }
  }

  /**
   * Brings the sale on screen into view (below the training banner: scroll-padding in window.css)
   * when it is not: on a short screen the "Iniciar" button sits below it, and the sale must not
   * start out of sight.
   */
  #reveal(): void {
    if (byId('page-payment').hidden) return;
    const box = this.#current.getBoundingClientRect();
    const banner = byId('training-banner');
    const top = banner.hidden ? 0 : banner.getBoundingClientRect().bottom;
    if (box.top < top || box.top > window.innerHeight - 120) this.#current.scrollIntoView({ block: 'start' });
  }

  #forget(referenceId: string): void {
    this.#payments.delete(referenceId);
    if (this.#focused === referenceId) this.#focused = [...this.#payments.keys()].at(-1) ?? null;
  }
}

/** "teste-20261121-140509-k3x9": readable, and unique enough for one window's test sales. */
function newTestReference(now = new Date()): string {
  const pad = (value: number): string => String(value).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  const random = crypto.getRandomValues(new Uint32Array(1))[0] ?? 0;
  return `teste-${stamp}-${random.toString(36).padStart(7, '0').slice(0, 7)}`;
}
