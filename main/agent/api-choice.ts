/**
 * Which payments API the agent runs against, from what it was given, strongest first: training
 * mode asked for (--training, or `training` in the settings) → the embedded sandbox; the command
 * line's --api/--token/--marketplace/--seller; the settings' `api` section with the stored token;
 * nothing → training mode.
 */
import { dirname, resolve } from 'node:path';
import type { ClientCertificateFiles } from '../api/index.js';
import { SettingsError } from '../core/settings.js';
import { settingsViolation } from '../core/settings-violations.js';
import type { ApiOptions } from './payment-stack.js';
import type { AgentSettings, ApiSettings } from '../settings/settings-file.js';

export interface ApiChoiceInput {
  readonly flags: ApiOptions;
  readonly trainingFlag: boolean;
  readonly settings: AgentSettings;
  /** The stored token (safeStorage, PINBRIDGE_API_TOKEN or the token file); read only when needed. */
  readonly storedToken: () => string | undefined;
  /**
   * The PKCS#12 certificate's stored passphrase (safeStorage, PINBRIDGE_CERT_PASSPHRASE or its
   * private file); read only when the settings name a PKCS#12 file.
   */
  readonly storedPassphrase?: () => string | undefined;
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
      [
        settingsViolation(
          'api',
          'NO_API_TOKEN',
          'is set, but no API token is stored: enter it in the Pinbridge window, or set PINBRIDGE_API_TOKEN (headless)',
        ),
      ],
      settings.path ?? '(settings)',
    );
  }
  const certificate = certificateFiles(
    api,
    settings.path,
    api.client_certificate?.pfx === undefined ? undefined : input.storedPassphrase?.(),
  );
  return {
    api: api.base_url,
    token,
    marketplace: api.marketplace_id,
    seller: api.seller_id,
    ...(api.auth_scheme === undefined ? {} : { authScheme: api.auth_scheme }),
    ...(certificate === undefined ? {} : { certificate }),
    ...(api.capabilities === undefined
      ? {}
      : {
          capabilities: {
            ...(api.capabilities.idempotency_key === undefined
              ? {}
              : { idempotencyKey: api.capabilities.idempotency_key }),
            ...(api.capabilities.find_by_reference === undefined
              ? {}
              : { findByReference: api.capabilities.find_by_reference }),
            ...(api.capabilities.terminal_channel === undefined
              ? {}
              : { terminalChannel: api.capabilities.terminal_channel }),
          },
        }),
  };
}

/** The settings' certificate files, resolved against the settings file's folder; undefined when none is named. */
function certificateFiles(
  api: ApiSettings,
  settingsPath: string | null,
  passphrase: string | undefined,
): ClientCertificateFiles | undefined {
  const named = { ...api.client_certificate, ...(api.ca === undefined ? {} : { ca: api.ca }) };
  if (Object.keys(named).length === 0) return undefined;
  const folder = settingsPath === null ? process.cwd() : dirname(settingsPath);
  const files: Record<string, string> = {};
  for (const [name, path] of Object.entries(named)) if (path !== undefined) files[name] = resolve(folder, path);
  return { ...files, ...(passphrase === undefined || passphrase === '' ? {} : { passphrase }) };
}
