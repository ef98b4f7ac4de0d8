/**
 * Configurações → "Aplicar as mudanças": what was saved here (the file, the API's secrets) applies
 * when the agent restarts; this card offers the restart (operator.restart, behind a confirmation)
 * and follows it — the connection goes, comes back, and the settings read then tell whether the
 * saved ones run or the agent fell back to the previous ones.
 */
import { isPinbridgeError } from '../../client/index.js';
import { errorText, type WindowContext } from '../context.js';
import { confirmAction } from '../dialog.js';
import { byId } from '../dom.js';
import { t } from '../i18n.js';

/**
 * The restart that applies what was saved: asked (the call in flight), under way (answered, or the
 * connection already gone), back (the connection returned; the settings read next tell whether the
 * saved ones run), restarted, not applied (the agent fell back to the previous ones, with the
 * reason), or refused (with the error, said in the language shown).
 */
type RestartState =
  | { readonly kind: 'idle' | 'asking' | 'restarting' | 'lost' | 'back' | 'restarted' }
  | { readonly kind: 'refused'; readonly error: unknown }
  | { readonly kind: 'notApplied'; readonly reason: string };

/** What the restart's status line says, in the language shown. */
function restartText(restart: RestartState): string {
  switch (restart.kind) {
    case 'refused':
      if (isPinbridgeError(restart.error, 'BUSY')) return t('settings.restartBusy');
      if (isPinbridgeError(restart.error, 'INVALID_STATE')) return t('settings.restartByHand');
      return errorText(restart.error);
    case 'notApplied':
      return t('settings.notApplied', { reason: restart.reason });
    case 'restarting':
    case 'lost':
    case 'back':
      return t('settings.restarting');
    case 'restarted':
      return t('settings.restarted');
    default:
      return '';
  }
}

export interface RestartPanelOptions {
  /** Something saved here waits for a restart to apply. */
  readonly pending: () => boolean;
  /** Back after the restart with the saved settings running: nothing waits any more. */
  readonly onRestarted: () => void;
}

export class RestartPanel {
  readonly #context: WindowContext;
  readonly #options: RestartPanelOptions;
  #restart: RestartState = { kind: 'idle' };

  readonly #box = byId('settings-restart');
  readonly #title = byId('settings-restart-title');
  readonly #text = byId('settings-restart-text');
  readonly #button = byId<HTMLButtonElement>('settings-restart-now');
  readonly #status = byId('settings-restart-status');

  constructor(context: WindowContext, options: RestartPanelOptions) {
    this.#context = context;
    this.#options = options;
    this.#button.addEventListener('click', () => void this.#restartAgent());
    context.client.on('state', (state) => this.#onConnection(state));
  }

  /**
   * The settings were read (the window reads them on every reconnection, main.ts): back after the
   * restart, `notApplied` (operator.settings `not_applied`) ends it.
   */
  settingsRead(notApplied: string | null): void {
    if (this.#restart.kind === 'back') this.#restartDone(notApplied);
  }

  /** A new save starts afresh: the last restart's outcome is about other settings. */
  saved(): void {
    const kind = this.#restart.kind;
    if (kind === 'restarted' || kind === 'refused' || kind === 'notApplied') this.#restart = { kind: 'idle' };
    this.render();
  }

  render(): void {
    const restart = this.#restart;
    this.#box.hidden = !this.#options.pending() && restart.kind !== 'restarted';
    // Once back with the new settings, only the outcome is left to say.
    this.#button.hidden = restart.kind === 'restarted';
    this.#text.hidden = restart.kind === 'restarted';
    this.#button.disabled =
      restart.kind === 'asking' || restart.kind === 'restarting' || restart.kind === 'lost' || restart.kind === 'back';
    this.#status.dataset.state = restart.kind;
    this.#status.textContent = restartText(restart);
  }

  /** Read afresh after an await: the connection's events change it meanwhile. */
  #restartKind(): RestartState['kind'] {
    return this.#restart.kind;
  }

  async #restartAgent(): Promise<void> {
    const confirmed = await confirmAction({
      title: t('settings.restartConfirmTitle'),
      text: t('settings.restartConfirmText'),
      confirm: t('settings.restartConfirm'),
    });
    if (!confirmed) return;
    this.#restart = { kind: 'asking' };
    this.render();
    try {
      await this.#context.client.call('operator.restart', {});
      // The connection may already be gone (and back) by the time the answer is read.
      if (this.#restartKind() === 'asking') this.#restart = { kind: 'restarting' };
    } catch (error) {
      // The answer lost with the connection the restart closed: the restart is under way.
      if (this.#restartKind() === 'lost') return;
      this.#restart = { kind: 'refused', error };
    }
    this.render();
  }

  /** The agent went away after the restart asked, and came back: the next settings read tells how. */
  #onConnection(state: string): void {
    const kind = this.#restart.kind;
    if (state !== 'ready' && (kind === 'asking' || kind === 'restarting')) this.#restart = { kind: 'lost' };
    // The window reads the settings on every reconnection (main.ts): load() ends the restart.
    else if (state === 'ready' && kind === 'lost') this.#restart = { kind: 'back' };
    this.render();
  }

  /** Back after the restart: the saved settings run, or the agent fell back to the previous ones. */
  #restartDone(notApplied: string | null): void {
    if (notApplied !== null) {
      this.#restart = { kind: 'notApplied', reason: notApplied };
    } else {
      this.#restart = { kind: 'restarted' };
      this.#options.onRestarted();
    }
    this.render();
    this.#title.focus();
  }
}
