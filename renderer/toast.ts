/**
 * The message that follows the cashier: the answer to something that can be done from any page
 * (F8, "Reimprimir último comprovante", on Situação as on Vendas), kept at the bottom of the
 * window over every page, so it is seen wherever the cashier is, and said to screen readers as it
 * changes — politely while it goes well (role=status), at once and in the failure style when it
 * went wrong (role=alert). "Fechar" takes it away; a success goes by itself after a while. Both
 * live regions stay in the page (empty when nothing is said): a region added with its text is
 * not reliably read.
 */
import { byId } from './dom.js';
import type { PrintTone } from './print-watch.js';

/** A success stays this long; a failure or a print on its way stays until it changes or is closed. */
const SUCCESS_SHOWN_MS = 10_000;

export interface ToastWords {
  readonly tone: PrintTone;
  readonly text: string;
}

export class Toast {
  readonly #box = byId('toast');
  readonly #status = byId('toast-status');
  readonly #error = byId('toast-error');
  readonly #close = byId<HTMLButtonElement>('toast-close');
  #timer: ReturnType<typeof setTimeout> | null = null;

  constructor() {
    this.#close.addEventListener('click', () => this.say(null));
    // What the page scrolls to is kept clear of it (window.css reads --toast-height).
    new ResizeObserver(() => {
      document.documentElement.style.setProperty('--toast-height', `${this.#box.offsetHeight}px`);
    }).observe(this.#box);
  }

  /** Shows `words` (null: nothing). The same words again are left as they are: not read twice. */
  say(words: ToastWords | null): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    const failure = words?.tone === 'bad';
    const status = words === null || failure ? '' : words.text;
    const error = words !== null && failure ? words.text : '';
    if (this.#status.textContent !== status) this.#status.textContent = status;
    if (this.#error.textContent !== error) this.#error.textContent = error;
    this.#close.hidden = words === null;
    if (words === null) delete this.#box.dataset.tone;
    else this.#box.dataset.tone = words.tone;
    if (words?.tone === 'ok') this.#timer = setTimeout(() => this.say(null), SUCCESS_SHOWN_MS);
    // The control the cashier just used (a reprint button low on the page) must not end up under
    // the answer: once the toast has its size (and --toast-height its value), it is scrolled clear.
    if (words !== null) requestAnimationFrame(() => requestAnimationFrame(() => this.#keepFocusClear()));
  }

  #keepFocusClear(): void {
    const focused = document.activeElement;
    if (!(focused instanceof HTMLElement) || focused === document.body || this.#box.contains(focused)) return;
    const toastTop = this.#box.getBoundingClientRect().top;
    if (focused.getBoundingClientRect().bottom > toastTop) focused.scrollIntoView({ block: 'nearest' });
  }
}
