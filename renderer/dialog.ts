/**
 * The one confirmation dialog of the window (cancel a sale, revoke a POS): a native modal
 * <dialog>, so the focus stays inside it and Escape closes it. The safe answer ("Voltar") has
 * the focus first: Enter pressed by habit never voids a sale.
 *
 * Where the store requires the supervisor (settings supervisor), the dialog also asks for the
 * supervisor's PIN — a password field (numeric keypad on a touch screen, never remembered by the
 * browser) or "Digitar no PINPAD" — and does the action itself: a wrong PIN is said in the dialog,
 * the field cleared and focused again, until it goes through or the cashier goes back. The focus
 * then starts in the PIN field: Enter in it with nothing typed asks for the PIN, never voids.
 */
import { byId } from './dom.js';
import { t } from './i18n.js';

/** What the supervisor typed: the PIN in the window, or "ask on the PINPAD". */
export type SupervisorAuthorization = { readonly pin: string } | { readonly pinpad: true };

export interface SupervisorStep {
  /** Where the PIN may be typed (the settings' supervisor.entry). */
  readonly entries: readonly ('window' | 'pinpad')[];
  /** A line under the field (training: which PIN practises). */
  readonly hint?: string;
  /** Does the action: null when done, else the cashier's sentence (the dialog stays open for another try). */
  readonly attempt: (authorization: SupervisorAuthorization) => Promise<string | null>;
}

export interface Confirmation {
  readonly title: string;
  readonly text: string;
  /** The label of the button that does it ("Sim, cancelar venda"). */
  readonly confirm: string;
  /** The supervisor's PIN before it is done (the dialog then does it through `attempt`). */
  readonly supervisor?: SupervisorStep;
}

/**
 * Resolves true when the cashier confirmed (with a supervisor step: once the action went
 * through), false on "Voltar", Escape or a click outside.
 */
export function confirmAction(question: Confirmation): Promise<boolean> {
  const dialog = byId<HTMLDialogElement>('confirm-dialog');
  const yes = byId<HTMLButtonElement>('confirm-yes');
  const no = byId<HTMLButtonElement>('confirm-no');
  const form = byId<HTMLFormElement>('confirm-supervisor');
  const windowEntry = byId('confirm-supervisor-window');
  const pin = byId<HTMLInputElement>('confirm-supervisor-pin');
  const pinpad = byId<HTMLButtonElement>('confirm-supervisor-pinpad');
  const hint = byId('confirm-supervisor-hint');
  const status = byId('confirm-supervisor-status');
  const error = byId('confirm-supervisor-error');
  byId('confirm-title').textContent = question.title;
  byId('confirm-text').textContent = question.text;
  yes.textContent = question.confirm;
  no.textContent = t('confirm.back');
  const supervisor = question.supervisor;
  const inWindow = supervisor?.entries.includes('window') === true;
  const onPinpad = supervisor?.entries.includes('pinpad') === true;
  form.hidden = supervisor === undefined;
  windowEntry.hidden = !inWindow;
  // "Digitar no PINPAD" beside the field; alone, the confirm button itself asks the PINPAD.
  pinpad.hidden = !(inWindow && onPinpad);
  hint.textContent = supervisor?.hint ?? '';
  hint.hidden = supervisor?.hint === undefined;
  for (const line of [status, error]) line.textContent = '';
  pin.value = '';
  pin.removeAttribute('aria-invalid');
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return new Promise((resolve) => {
    let working = false;
    const setWorking = (on: boolean): void => {
      working = on;
      for (const control of [yes, no, pin, pinpad]) control.disabled = on;
    };
    const finish = (answer: boolean): void => {
      yes.removeEventListener('click', onYes);
      no.removeEventListener('click', onNo);
      pinpad.removeEventListener('click', onPinpad);
      form.removeEventListener('submit', onSubmit);
      dialog.removeEventListener('close', onClose);
      dialog.removeEventListener('cancel', onCancel);
      setWorking(false);
      pin.value = '';
      if (dialog.open) dialog.close();
      // Back where the cashier was, unless that button is gone (the list was re-rendered).
      if (opener?.isConnected === true) opener.focus();
      resolve(answer);
    };
    const attempt = async (authorization: SupervisorAuthorization): Promise<void> => {
      if (supervisor === undefined || working) return;
      error.textContent = '';
      pin.removeAttribute('aria-invalid');
      status.textContent = 'pinpad' in authorization ? t('supervisor.waitingPinpad') : t('supervisor.checking');
      setWorking(true);
      let refused: string | null;
      try {
        refused = await supervisor.attempt(authorization);
      } finally {
        setWorking(false);
        status.textContent = '';
      }
      if (refused === null) {
        finish(true);
        return;
      }
      error.textContent = refused;
      // Another try: the field empty and focused (or the PINPAD's button when that is the way).
      pin.value = '';
      if (inWindow) {
        pin.setAttribute('aria-invalid', 'true');
        pin.focus();
      } else yes.focus();
    };
    const fromWindow = (): void => {
      const typed = pin.value.trim();
      if (typed === '') {
        error.textContent = t('supervisor.pinMissing');
        pin.setAttribute('aria-invalid', 'true');
        pin.focus();
        return;
      }
      if (!/^\d{4,8}$/.test(typed)) {
        error.textContent = t('supervisor.pinShape');
        pin.value = '';
        pin.setAttribute('aria-invalid', 'true');
        pin.focus();
        return;
      }
      void attempt({ pin: typed });
    };
    const onYes = (): void => {
      if (supervisor === undefined) finish(true);
      else if (inWindow) fromWindow();
      else void attempt({ pinpad: true });
    };
    const onSubmit = (event: SubmitEvent): void => {
      event.preventDefault();
      if (inWindow) fromWindow();
    };
    const onPinpad = (): void => void attempt({ pinpad: true });
    const onNo = (): void => finish(false);
    const onClose = (): void => finish(false);
    // While the agent checks the PIN (or waits for the PINPAD), Escape does not leave the answer unheard.
    const onCancel = (event: Event): void => {
      if (working) event.preventDefault();
    };
    yes.addEventListener('click', onYes);
    no.addEventListener('click', onNo);
    pinpad.addEventListener('click', onPinpad);
    form.addEventListener('submit', onSubmit);
    dialog.addEventListener('close', onClose);
    dialog.addEventListener('cancel', onCancel);
    dialog.showModal();
    if (inWindow) pin.focus();
    else no.focus();
  });
}
