/**
 * The one confirmation dialog of the window (cancel a sale, revoke a POS): a native modal
 * <dialog>, so the focus stays inside it and Escape closes it. The safe answer ("Voltar") has
 * the focus first: Enter pressed by habit never voids a sale.
 */
import { byId } from './dom.js';
import { t } from './i18n.js';

export interface Confirmation {
  readonly title: string;
  readonly text: string;
  /** The label of the button that does it ("Sim, cancelar venda"). */
  readonly confirm: string;
}

/** Resolves true when the cashier confirmed, false on "Voltar", Escape or a click outside. */
export function confirmAction(question: Confirmation): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>('confirm-dialog');
  const yes = byId<HTMLButtonElement>('confirm-yes');
  const no = byId<HTMLButtonElement>('confirm-no');
  byId('confirm-title').textContent = question.title;
  byId('confirm-text').textContent = question.text;
  yes.textContent = question.confirm;
  no.textContent = t('confirm.back');
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return new Promise((resolve) => {
    const finish = (answer: boolean): void => {
      yes.removeEventListener('click', onYes);
      no.removeEventListener('click', onNo);
      dialog.removeEventListener('close', onClose);
      if (dialog.open) dialog.close();
      // Back where the cashier was, unless that button is gone (the list was re-rendered).
      if (opener?.isConnected === true) opener.focus();
      resolve(answer);
    };
    const onYes = (): void => finish(true);
    const onNo = (): void => finish(false);
    const onClose = (): void => finish(false);
    yes.addEventListener('click', onYes);
    no.addEventListener('click', onNo);
    dialog.addEventListener('close', onClose);
    dialog.showModal();
    no.focus();
  });
}
