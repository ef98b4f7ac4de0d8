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
 *
 * Too many wrong PINs lock the PIN (the agent keeps the lock, across its restarts): the dialog
 * then counts down to the lock's end (mm:ss) with the field, the confirm button and "Digitar no
 * PINPAD" disabled — only "Voltar" works — and gives them back when it ends. A lock already in
 * force when the dialog opens (a reload, a restart of the agent) is counted down the same way.
 */
import { byId } from './dom.js';
import { t } from './i18n.js';

/** What the supervisor typed: the PIN in the window, or "ask on the PINPAD". */
export type SupervisorAuthorization = { readonly pin: string } | { readonly pinpad: true };

/** Why an attempt did not go through: the cashier's sentence, and the lock's end when the PIN is now locked. */
export interface SupervisorRefusal {
  readonly message: string;
  /** When the lock ends (ms since the epoch): the dialog counts down to it instead of saying `message`. */
  readonly lockedUntil?: number;
}

export interface SupervisorStep {
  /** Where the PIN may be typed (the settings' supervisor.entry). */
  readonly entries: readonly ('window' | 'pinpad')[];
  /** A line under the field (training: which PIN practises). */
  readonly hint?: string;
  /** A lock in force as the dialog opens (ms since the epoch; operator.supervisor's locked_until, as last read). */
  readonly lockedUntil?: number;
  /**
   * The lock as the agent says it now, read as the dialog opens (another window, a restart):
   * applied when it comes — a lock's end counted down, or null for none (a countdown shown ends);
   * the promise gives null when the agent could not say.
   */
  readonly lockNow?: Promise<{ readonly lockedUntil: number | null } | null>;
  /** Does the action: null when done, else why not (the dialog stays open for another try). */
  readonly attempt: (authorization: SupervisorAuthorization) => Promise<SupervisorRefusal | null>;
}

export interface Confirmation {
  readonly title: string;
  readonly text: string;
  /** The label of the button that does it ("Sim, cancelar venda"). */
  readonly confirm: string;
  /** The label of the safe answer, which has the focus first (default "Voltar"). */
  readonly back?: string;
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
  const lockLine = byId('confirm-supervisor-lock');
  byId('confirm-title').textContent = question.title;
  byId('confirm-text').textContent = question.text;
  yes.textContent = question.confirm;
  no.textContent = question.back ?? t('confirm.back');
  const supervisor = question.supervisor;
  const inWindow = supervisor?.entries.includes('window') === true;
  const onPinpad = supervisor?.entries.includes('pinpad') === true;
  form.hidden = supervisor === undefined;
  windowEntry.hidden = !inWindow;
  // "Digitar no PINPAD" beside the field; alone, the confirm button itself asks the PINPAD.
  pinpad.hidden = !(inWindow && onPinpad);
  hint.textContent = supervisor?.hint ?? '';
  hint.hidden = supervisor?.hint === undefined;
  for (const line of [status, error, lockLine]) line.textContent = '';
  pin.value = '';
  pin.removeAttribute('aria-invalid');
  const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  return new Promise((resolve) => {
    let working = false;
    let settled = false;
    const lock = new LockCountdown(lockLine, () => {
      // The lock is over: the PIN may be typed again, where it is typed.
      refreshControls();
      status.textContent = t('supervisor.unlocked');
      if (inWindow) pin.focus();
      else yes.focus();
    });
    /** Nothing but "Voltar" while the agent answers; while locked, "Voltar" and nothing that sends a PIN. */
    const refreshControls = (): void => {
      no.disabled = working;
      for (const control of [yes, pin, pinpad]) control.disabled = working || lock.running;
    };
    const setWorking = (on: boolean): void => {
      working = on;
      refreshControls();
    };
    const locked = (until: number): void => {
      error.textContent = '';
      status.textContent = '';
      pin.value = '';
      pin.removeAttribute('aria-invalid');
      lock.start(until);
      refreshControls();
      // The focus cannot stay on a disabled control: "Voltar" is the one answer left.
      if (lock.running) no.focus();
    };
    const finish = (answer: boolean): void => {
      settled = true;
      yes.removeEventListener('click', onYes);
      no.removeEventListener('click', onNo);
      pinpad.removeEventListener('click', onPinpad);
      form.removeEventListener('submit', onSubmit);
      dialog.removeEventListener('close', onClose);
      dialog.removeEventListener('cancel', onCancel);
      lock.stop();
      setWorking(false);
      pin.value = '';
      if (dialog.open) dialog.close();
      // Back where the cashier was, unless that button is gone (the list was re-rendered).
      if (opener?.isConnected === true) opener.focus();
      resolve(answer);
    };
    const attempt = async (authorization: SupervisorAuthorization): Promise<void> => {
      if (supervisor === undefined || working || lock.running) return;
      error.textContent = '';
      pin.removeAttribute('aria-invalid');
      status.textContent = 'pinpad' in authorization ? t('supervisor.waitingPinpad') : t('supervisor.checking');
      setWorking(true);
      let refused: SupervisorRefusal | null;
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
      if (refused.lockedUntil !== undefined && refused.lockedUntil > Date.now()) {
        locked(refused.lockedUntil);
        return;
      }
      error.textContent = refused.message;
      // Another try: the field empty and focused (or the PINPAD's button when that is the way).
      pin.value = '';
      if (inWindow) {
        pin.setAttribute('aria-invalid', 'true');
        pin.focus();
      } else yes.focus();
    };
    const fromWindow = (): void => {
      if (lock.running) return;
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
    if (supervisor?.lockedUntil !== undefined && supervisor.lockedUntil > Date.now()) locked(supervisor.lockedUntil);
    else if (inWindow) pin.focus();
    else no.focus();
    void supervisor?.lockNow?.then((now) => {
      if (now === null || settled || working) return;
      if (now.lockedUntil !== null && now.lockedUntil > Date.now()) locked(now.lockedUntil);
      else lock.finish();
    });
  });
}

/** How often the countdown is redrawn: often enough that a second never shows late. */
const TICK_MS = 250;

/** "04:59": minutes and seconds left, rounded up (it shows 00:01 until the lock is over). */
export function countdownText(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const pad = (value: number): string => String(value).padStart(2, '0');
  return `${pad(Math.floor(seconds / 60))}:${pad(seconds % 60)}`;
}

/**
 * The lock's line in the dialog: "Senha do supervisor bloqueada … Tente de novo em 04:59.", the
 * time in a role="timer" element (announced once as the line appears, not every second), counted
 * down against the lock's end — never a number of minutes said once.
 */
class LockCountdown {
  readonly #line: HTMLElement;
  readonly #ended: () => void;
  #until = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #clock: HTMLElement | undefined;

  constructor(line: HTMLElement, ended: () => void) {
    this.#line = line;
    this.#ended = ended;
  }

  get running(): boolean {
    return this.#timer !== undefined;
  }

  start(until: number): void {
    this.#until = until;
    const clock = document.createElement('span');
    clock.setAttribute('role', 'timer');
    clock.id = 'confirm-supervisor-countdown';
    const [before = '', after = ''] = t('supervisor.locked').split('{time}');
    this.#line.replaceChildren(before, clock, after);
    this.#clock = clock;
    this.#tick();
    if (this.#timer === undefined && this.#until > Date.now()) this.#timer = setInterval(() => this.#tick(), TICK_MS);
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#line.textContent = '';
  }

  /** Over before its time (the agent says there is no lock): as if the countdown had ended. */
  finish(): void {
    if (!this.running) return;
    this.stop();
    this.#ended();
  }

  #tick(): void {
    const left = this.#until - Date.now();
    if (left <= 0) {
      this.finish();
      return;
    }
    if (this.#clock !== undefined) this.#clock.textContent = countdownText(left);
  }
}
