/**
 * Finding a past sale on the Vendas page: the search form (dates on the store's clock, amount,
 * NSU or authorization code, the card's last 4 digits), each field checked as the cashier left
 * it and said in pt-BR next to it, and the payment.list calls of the search applied. With the
 * dates on today and nothing else typed, the page is "Vendas de hoje" again. The dates are typed
 * dd/mm/aaaa whatever the browser's language (date-field.ts).
 *
 * On a short screen (800 × 480; window.css shows the toggle there only) the fields fold away
 * behind "Campos da busca" — folded at first, and again once a search is applied or cleared — so
 * the day's list, or what the search found, is in view under the form; "Vendas de hoje" there
 * goes back to the day's list without unfolding the fields.
 */
import type { ParamsOf, PaymentOutcome } from '../client/index.js';
import { dayBoundsIso, todayDate } from './context.js';
import { dateField, isoDate, typedDate } from './date-field.js';
import { byId } from './dom.js';
import { t, type MessageKey } from './i18n.js';
import { parseCentavos } from './money.js';

type ListParams = ParamsOf<'payment.list'>;
type Field = 'from' | 'to' | 'amount' | 'code' | 'last4';

/** What the POS API takes (methods.ts): an NSU is 1–20 letters or digits, an authorization code 1–12. */
const NSU_PATTERN = /^[0-9A-Za-z]{1,20}$/;
const AUTHORIZATION_CODE_MAX = 12;
const LAST4_PATTERN = /^[0-9]{4}$/;

/** The search the list shows; dates as the fields hold them ("2026-03-10"), '' for none. */
interface AppliedSearch {
  readonly from: string;
  readonly to: string;
  readonly amount: number | null;
  readonly code: string | null;
  readonly last4: string | null;
}

/** What one search found: the union of its calls, newest first, and how many match in all. */
export interface SearchResult {
  readonly items: PaymentOutcome[];
  readonly total: number;
}

export class SalesSearch {
  /** null: today's sales (no search). */
  #applied: AppliedSearch | null = null;
  readonly #errors = new Map<Field, MessageKey>();
  readonly #onChange: () => void;
  /** The date the fields were last set to by themselves (today, then), as they show it (dd/mm/aaaa). */
  #defaultDate = '';
  /** The fields folded away (on a short screen only: elsewhere they always show). */
  #folded = true;

  readonly #form = byId<HTMLFormElement>('search-form');
  readonly #toggle = byId<HTMLButtonElement>('search-toggle');
  readonly #today = byId<HTMLButtonElement>('search-today');
  readonly #inputs: Readonly<Record<Field, HTMLInputElement>> = {
    from: byId<HTMLInputElement>('search-from'),
    to: byId<HTMLInputElement>('search-to'),
    amount: byId<HTMLInputElement>('search-amount'),
    code: byId<HTMLInputElement>('search-code'),
    last4: byId<HTMLInputElement>('search-last4'),
  };

  /** `onChange`: a search was applied or cleared (the page reads the list again). */
  constructor(onChange: () => void) {
    this.#onChange = onChange;
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#submit();
    });
    byId('search-clear').addEventListener('click', () => this.clear());
    for (const field of ['from', 'to'] as const) dateField(this.#inputs[field]);
    this.#today.addEventListener('click', () => this.clear());
    this.#toggle.addEventListener('click', () => {
      this.#folded = !this.#folded;
      this.#renderFold();
    });
    this.#resetDates();
    this.#renderFold();
  }

  /** Whether the list shows a search (not today's sales). */
  get active(): boolean {
    return this.#applied !== null;
  }

  /**
   * The payment.list calls of the search applied (today's when none). A code the cashier typed
   * may be an NSU or an authorization code: one call for each, merged by `merge`.
   */
  calls(limit: number, today: string): ListParams[] {
    const applied = this.#applied;
    if (applied === null) return [{ from: today, limit }];
    const base: ListParams = { limit };
    const from = applied.from === '' ? null : dayBoundsIso(applied.from);
    const to = applied.to === '' ? null : dayBoundsIso(applied.to);
    if (from !== null) base.from = from.start;
    if (to !== null) base.to = to.end;
    if (applied.amount !== null) base.amount = applied.amount;
    if (applied.last4 !== null) base.card_last4 = applied.last4;
    if (applied.code === null) return [base];
    const calls: ListParams[] = [{ ...base, nsu: applied.code }];
    if (applied.code.length <= AUTHORIZATION_CODE_MAX) calls.push({ ...base, authorization_code: applied.code });
    return calls;
  }

  /** One list from the answers of `calls`: each sale once, newest first, at most `limit`. */
  static merge(answers: readonly SearchResult[], limit: number): SearchResult {
    if (answers.length === 1) return answers[0]!;
    const seen = new Map<string, PaymentOutcome>();
    let twice = 0;
    for (const answer of answers) {
      for (const item of answer.items) {
        if (seen.has(item.reference_id)) twice += 1;
        else seen.set(item.reference_id, item);
      }
    }
    const items = [...seen.values()]
      .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0))
      .slice(0, limit);
    const total = answers.reduce((sum, answer) => sum + answer.total, 0) - twice;
    return { items, total };
  }

  /** Back to today's sales: the dates on today, the other fields empty. */
  clear(): void {
    for (const field of ['amount', 'code', 'last4'] as const) this.#inputs[field].value = '';
    this.#resetDates();
    this.#errors.clear();
    this.#applied = null;
    this.#fold();
    this.render();
    this.#onChange();
  }

  /** The field errors in the current language, and whether the fields show. */
  render(): void {
    this.#renderFold();
    for (const field of Object.keys(this.#inputs) as Field[]) {
      const key = this.#errors.get(field);
      const input = this.#inputs[field];
      byId(`search-${field}-error`).textContent = key === undefined ? '' : t(key);
      if (key === undefined) input.removeAttribute('aria-invalid');
      else input.setAttribute('aria-invalid', 'true');
    }
  }

  /**
   * With no search applied, date fields the cashier left alone follow today: the store's time
   * zone is known only once logged in, and a window left open past midnight moves to the new day.
   */
  followToday(): void {
    if (
      this.#applied !== null ||
      this.#inputs.from.value !== this.#defaultDate ||
      this.#inputs.to.value !== this.#defaultDate
    )
      return;
    this.#resetDates();
  }

  #resetDates(): void {
    const today = typedDate(todayDate());
    this.#defaultDate = today;
    this.#inputs.from.value = today;
    this.#inputs.to.value = today;
  }

  #submit(): void {
    this.#errors.clear();
    const value = (field: Field): string => this.#inputs[field].value.trim();
    const amountText = value('amount');
    const amount = amountText === '' ? null : parseCentavos(amountText);
    if (amountText !== '' && amount === null) this.#errors.set('amount', 'search.badAmount');
    const code = value('code') === '' ? null : value('code');
    if (code !== null && !NSU_PATTERN.test(code)) this.#errors.set('code', 'search.badCode');
    const last4 = value('last4') === '' ? null : value('last4');
    if (last4 !== null && !LAST4_PATTERN.test(last4)) this.#errors.set('last4', 'search.badLast4');
    // A date field holds a whole date (dd/mm/aaaa, on the calendar) or nothing.
    const date = (field: 'from' | 'to'): string => {
      if (value(field) === '') return '';
      const iso = isoDate(value(field));
      if (iso === null) this.#errors.set(field, 'search.badDate');
      return iso ?? '';
    };
    const from = date('from');
    const to = date('to');
    if (from !== '' && to !== '' && to < from) this.#errors.set('to', 'search.badDates');
    this.render();
    const firstBad = (['from', 'to', 'amount', 'code', 'last4'] as const).find((field) => this.#errors.has(field));
    if (firstBad !== undefined) {
      this.#inputs[firstBad].focus();
      return;
    }
    const today = todayDate();
    const onlyToday = from === today && to === today && amount === null && code === null && last4 === null;
    this.#applied = onlyToday ? null : { from, to, amount, code, last4 };
    this.#fold();
    this.#onChange();
  }

  /** Folds the fields away where they fold (the results get the room); the focus stays on screen. */
  #fold(): void {
    this.#folded = true;
    this.#renderFold();
    const focused = document.activeElement;
    const hidden =
      focused instanceof HTMLElement && this.#form.contains(focused) && focused.getClientRects().length === 0;
    if (hidden && this.#toggle.getClientRects().length > 0) this.#toggle.focus();
  }

  #renderFold(): void {
    this.#form.dataset.folded = String(this.#folded);
    this.#toggle.setAttribute('aria-expanded', String(!this.#folded));
    // Back to the day's list from a folded search: only while a search is shown.
    this.#today.hidden = this.#applied === null;
  }
}
