/**
 * Which payments API the agent runs against, from what it was given, strongest first: training
 * mode asked for (--training, or `training` in the settings) → the embedded sandbox; the command
 * line's --api/--token/--marketplace/--seller; the settings' `api` section with the stored token;
 * nothing → training mode.
 */
import { SettingsError } from '../core/settings.js';
import type { ApiOptions } from './payment-stack.js';
import type { AgentSettings } from './settings-file.js';

export interface ApiChoiceInput {
  readonly flags: ApiOptions;
  readonly trainingFlag: boolean;
  readonly settings: AgentSettings;
  /** The stored token (safeStorage, PINBRIDGE_API_TOKEN or the token file); read only when needed. */
  readonly storedToken: () => string | undefined;
}

export function chooseApi(input: ApiChoiceInput): ApiOptions {
  const { flags, settings } = input;
  if (input.trainingFlag || settings.training) return {};
  // A desktop shortcut may name the API and leave the token to the store.
  if (flags.api !== undefined) {
    const token = flags.token ?? input.storedToken();
    return token === undefined ? flags : { ...flags, token };
  }
  const api = settings.api;
  if (api === null) return {};
  const token = flags.token ?? input.storedToken();
  if (token === undefined || token === '') {
    throw new SettingsError(
      [{ field: 'api', message: 'is set, but no API token is stored: enter it in the Pinbridge window, or set PINBRIDGE_API_TOKEN (headless)' }],
      settings.path ?? '(settings)',
    );
  }
  return { api: api.base_url, token, marketplace: api.marketplace_id, seller: api.seller_id };
}
