/**
 * The command-line options of every command that runs payments (`pay`, `start`): the API (or
 * training mode), the journal, the settings; and the API they run against, chosen as the agent
 * chooses it (main/agent/api-choice.ts) with the headless secrets. The stack itself is
 * main/agent/payment-stack.ts.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { apiTokenPath, certificatePassphrasePath } from '../paths.js';
import { chooseApi } from '../agent/api-choice.js';
import { apiOptionsProblem, type ApiOptions } from '../agent/payment-stack.js';
import { CERTIFICATE_PASSPHRASE, headlessTokenStore, type TokenStore } from '../agent/token-store.js';
import type { AuthScheme, ClientCertificateFiles } from '../api/index.js';
import type { AgentSettings } from '../settings/settings-file.js';
import { UsageError } from './errors.js';

/** The options of every command that runs payments: the API (or training mode), the journal, the settings. */
export function addPaymentStackOptions(command: Command): Command {
  return command
    .option(
      '--api <url>',
      'payments API base URL (with --marketplace and --seller, and the token); without them an embedded sandbox (training mode)',
    )
    .option(
      '--token <token>',
      'payments API key (sent as a Bearer token, or as Basic with --auth-scheme basic); better left out: other local users can read a command line, so by default it comes from PINBRIDGE_API_TOKEN or ~/.pinbridge/api-token',
    )
    .option('--marketplace <id>', 'marketplace id')
    .option('--seller <id>', 'seller id (on_behalf_of)')
    .option(
      '--auth-scheme <scheme>',
      'how --token is sent: bearer (the contract, default) or basic (the key as the HTTP Basic user name, as the Zoop API takes it)',
    )
    .option('--cert <file>', 'client certificate (PEM) every API call presents (mutual TLS), with --key')
    .option('--key <file>', 'private key (PEM, unencrypted) of --cert')
    .option(
      '--pfx <file>',
      'client certificate as PKCS#12 (.pfx/.p12) instead of --cert/--key; its passphrase from PINBRIDGE_CERT_PASSPHRASE',
    )
    .option(
      '--ca <file>',
      "PEM file of CA certificates to trust for the API's server (a homologation server, a sandbox on HTTPS)",
    )
    .option(
      '--journal <path>',
      'journal file (SQLite); default ~/.pinbridge/journal.db, or ~/.pinbridge/training/journal.db in training mode',
    )
    .option(
      '--settings <file>',
      'the settings file the window writes (payments, API, PINPAD, receipts, printers, POS ports: docs/settings.schema.json); default ~/.pinbridge/settings.json when it exists',
    );
}

/** The API options as commander parses them. */
export interface ApiFlags {
  api?: string;
  token?: string;
  marketplace?: string;
  seller?: string;
  authScheme?: string;
  cert?: string;
  key?: string;
  pfx?: string;
  ca?: string;
}

/** Refuses a partial or contradictory set of API options before anything is opened. */
export function checkApiOptions(options: ApiFlags): void {
  const { api, token, marketplace, seller } = options;
  // The token may come from PINBRIDGE_API_TOKEN or the stored file instead (apiOptionsOf): a
  // --token on the command line is visible to every local user in the process list.
  if (
    apiOptionsProblem({ api, token: token ?? (api === undefined ? undefined : 'stored'), marketplace, seller }) !==
    undefined
  ) {
    throw new UsageError(
      '--api, --marketplace and --seller go together, with the token in PINBRIDGE_API_TOKEN, ~/.pinbridge/api-token or --token (or none of them, for the embedded sandbox)',
    );
  }
  if (options.authScheme !== undefined && options.authScheme !== 'bearer' && options.authScheme !== 'basic') {
    throw new UsageError('--auth-scheme must be bearer or basic');
  }
  const connection = ['authScheme', 'cert', 'key', 'pfx', 'ca'].filter(
    (name) => options[name as keyof ApiFlags] !== undefined,
  );
  if (connection.length > 0 && options.api === undefined) {
    throw new UsageError(
      '--auth-scheme, --cert, --key, --pfx and --ca go with --api (the embedded sandbox needs none of them)',
    );
  }
  if (options.pfx !== undefined && (options.cert !== undefined || options.key !== undefined)) {
    throw new UsageError('give the client certificate as --pfx or as --cert with --key, not both');
  }
  if ((options.cert === undefined) !== (options.key === undefined))
    throw new UsageError('--cert and --key go together');
}

/**
 * The API to run against as the flags name it: the four ids, the auth scheme and the certificate
 * files (relative to the working folder; the PKCS#12 passphrase from PINBRIDGE_CERT_PASSPHRASE, else
 * the private file the window stores it in headless, ~/.pinbridge/cert-passphrase).
 */
export function apiOptionsOf(options: ApiFlags, env: NodeJS.ProcessEnv): ApiOptions {
  const { api, token, marketplace, seller } = options;
  const files: ClientCertificateFiles = {
    ...(options.cert === undefined ? {} : { cert: resolve(options.cert) }),
    ...(options.key === undefined ? {} : { key: resolve(options.key) }),
    ...(options.pfx === undefined ? {} : { pfx: resolve(options.pfx) }),
    ...(options.ca === undefined ? {} : { ca: resolve(options.ca) }),
  };
  const passphrase =
    options.pfx === undefined
      ? undefined
      : headlessTokenStore(certificatePassphrasePath(env.HOME), env, CERTIFICATE_PASSPHRASE).read();
  // Kept off the command line: PINBRIDGE_API_TOKEN, else the private file the window stores it in.
  const stored =
    api !== undefined && token === undefined ? headlessTokenStore(apiTokenPath(env.HOME), env).read() : undefined;
  if (api !== undefined && token === undefined && (stored === undefined || stored === '')) {
    throw new UsageError(
      `--api needs the API token: set PINBRIDGE_API_TOKEN, or keep it in ${apiTokenPath(env.HOME)} (readable by you only), or give --token`,
    );
  }
  return {
    ...(api === undefined ? {} : { api }),
    ...((token ?? stored) === undefined ? {} : { token: token ?? stored }),
    ...(marketplace === undefined ? {} : { marketplace }),
    ...(seller === undefined ? {} : { seller }),
    ...(options.authScheme === undefined ? {} : { authScheme: options.authScheme as AuthScheme }),
    ...(Object.keys(files).length === 0 ? {} : { certificate: { ...files, ...(passphrase ? { passphrase } : {}) } }),
  };
}

/**
 * Where a command without the desktop keeps the secrets the settings' API needs: the API token in
 * PINBRIDGE_API_TOKEN or ~/.pinbridge/api-token, the PKCS#12 passphrase in
 * PINBRIDGE_CERT_PASSPHRASE or ~/.pinbridge/cert-passphrase.
 */
export function headlessSecrets(env: NodeJS.ProcessEnv): { tokens: TokenStore; passphrases: TokenStore } {
  return {
    tokens: headlessTokenStore(apiTokenPath(env.HOME), env),
    passphrases: headlessTokenStore(certificatePassphrasePath(env.HOME), env, CERTIFICATE_PASSPHRASE),
  };
}

/**
 * The API a command runs against, as the agent chooses it: training asked for → the embedded
 * sandbox; the flags' API; else the settings' `api` section (base URL, ids, auth scheme, client
 * certificate, CA, capabilities) with the headless secrets; else training mode. Throws the
 * SettingsError chooseApi throws when the settings name an API and no token is stored.
 */
export function commandApi(
  flags: ApiOptions,
  settings: AgentSettings,
  env: NodeJS.ProcessEnv,
  training: boolean,
  secrets: { tokens: TokenStore; passphrases: TokenStore } = headlessSecrets(env),
): ApiOptions {
  return chooseApi({
    flags,
    trainingFlag: training,
    settings,
    storedToken: () => secrets.tokens.read(),
    storedPassphrase: () => secrets.passphrases.read(),
  });
}
