/**
 * Configurações → the operating system's printers (operator.systemPrinters lists them as
 * lp://NAME, the system's default marked). The one the cashier picks goes into the default
 * printer's address field, unsaved.
 */
import type { ResultOf } from '../../client/index.js';
import { errorText, type WindowContext } from '../context.js';
import { button, byId, h, keepFocus } from '../dom.js';
import { t } from '../i18n.js';

type SystemPrinter = ResultOf<'operator.systemPrinters'>['printers'][number];

/** The operating system's printers, as the page shows them (kept to show them again in another language). */
type SystemPrinters =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'found'; readonly printers: readonly SystemPrinter[]; readonly chosen: string | null }
  | { readonly kind: 'failed'; readonly error: unknown };

export class PrinterFinder {
  readonly #context: WindowContext;
  /** Puts the address chosen in the printer's field. */
  readonly #choose: (address: string) => void;
  #printers: SystemPrinters = { kind: 'idle' };

  readonly #button = byId<HTMLButtonElement>('settings-printer-system');
  readonly #status = byId('settings-system-printers-status');
  readonly #list = byId('settings-system-printers');

  constructor(context: WindowContext, choose: (address: string) => void) {
    this.#context = context;
    this.#choose = choose;
    this.#button.addEventListener('click', () => void this.#listSystemPrinters());
  }

  render(): void {
    const shown = this.#printers;
    if (shown.kind === 'idle') return;
    if (shown.kind === 'failed') this.#status.dataset.level = 'bad';
    else delete this.#status.dataset.level;
    if (shown.kind !== 'found') {
      this.#list.replaceChildren();
      this.#status.textContent =
        shown.kind === 'loading' ? t('settings.systemPrintersLoading') : errorText(shown.error);
      return;
    }
    const { printers, chosen } = shown;
    this.#status.textContent =
      chosen !== null
        ? t('settings.systemPrinterChosen', { address: chosen })
        : printers.length === 0
          ? t('settings.systemPrintersNone')
          : printers.length === 1
            ? t('settings.systemPrintersOne')
            : t('settings.systemPrintersMany', { n: printers.length });
    keepFocus(this.#list, () =>
      this.#list.replaceChildren(
        ...printers.map((printer) =>
          h(
            'li',
            { attrs: { 'data-address': printer.address, 'data-default': String(printer.is_default) } },
            h(
              'span',
              { className: 'port-name' },
              printer.name,
              printer.is_default ? h('strong', {}, ` (${t('settings.systemPrinterDefault')})`) : null,
              ' — ',
              h('code', {}, printer.address),
            ),
            button(t('settings.portUse'), {
              label: t('settings.systemPrinterUseLabel', { name: printer.name }),
              focusKey: `printer:${printer.address}`,
              onClick: () => this.#use(printer.address),
            }),
          ),
        ),
      ),
    );
  }

  async #listSystemPrinters(): Promise<void> {
    this.#button.disabled = true;
    this.#printers = { kind: 'loading' };
    this.render();
    try {
      const { printers } = await this.#context.client.call('operator.systemPrinters', {});
      this.#printers = { kind: 'found', printers, chosen: null };
    } catch (error) {
      this.#printers = { kind: 'failed', error };
    } finally {
      this.#button.disabled = false;
      this.render();
    }
  }

  /** Like a PINPAD found: the address goes into the printer field, unsaved, and the cashier lands there to check it. */
  #use(address: string): void {
    if (this.#printers.kind === 'found') this.#printers = { ...this.#printers, chosen: address };
    this.render();
    this.#choose(address);
  }
}
