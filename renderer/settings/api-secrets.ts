/**
 * Configurações → the payments API's secrets: its token (operator.setApiToken) and the client
 * certificate's passphrase (operator.setCertificatePassphrase), each a write-only field of its own
 * (secret-field.ts). The page says whether one is kept, never what it is; one stored here applies
 * when the agent restarts.
 */
import type { ResultOf } from '../../client/index.js';
import type { WindowContext } from '../context.js';
import { SecretField } from './secret-field.js';

type SettingsRead = ResultOf<'operator.settings'>;

/** The schemas' shortest token and passphrase (operator.setApiToken, operator.setCertificatePassphrase). */
const TOKEN_MIN_LENGTH = 8;
const PASSPHRASE_MIN_LENGTH = 1;

export class ApiSecrets {
  readonly #token: SecretField;
  readonly #passphrase: SecretField;

  /** `onStored`: a secret was stored (the page then offers the restart). */
  constructor(context: WindowContext, onStored: () => void) {
    const secret = { reread: () => context.client.call('operator.settings', {}), onStored };
    this.#token = new SecretField({
      ...secret,
      ids: 'settings-token',
      inputId: 'settings-api-token',
      minLength: TOKEN_MIN_LENGTH,
      trim: true,
      messages: 'settings.token',
      send: (token) => context.client.call('operator.setApiToken', { token }),
      stateOf: (read) => read.api_token,
    });
    this.#passphrase = new SecretField({
      ...secret,
      ids: 'settings-passphrase',
      inputId: 'settings-cert-passphrase',
      minLength: PASSPHRASE_MIN_LENGTH,
      trim: false,
      messages: 'settings.passphrase',
      send: (passphrase) => context.client.call('operator.setCertificatePassphrase', { passphrase }),
      stateOf: (read) => read.certificate_passphrase,
    });
  }

  /** How the agent keeps each one now (operator.settings). */
  read(read: SettingsRead): void {
    this.#token.state = read.api_token;
    this.#passphrase.state = read.certificate_passphrase;
  }

  /** One was stored since the agent started: it waits for a restart. */
  get justStored(): boolean {
    return this.#token.justStored || this.#passphrase.justStored;
  }

  /** The agent restarted: what was stored is in use. */
  applied(): void {
    this.#token.applied();
    this.#passphrase.applied();
    this.render();
  }

  render(): void {
    this.#token.render();
    this.#passphrase.render();
  }
}
