/**
 * `pinbridge remote-settings`: the chain's key and documents (keygen, sign), pinning the chain's
 * public key on a checkout at install (pin), and what a checkout follows (status).
 * docs/remote-settings.md says how they fit together.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import type { CliIo } from '../io.js';
import { emit, table } from '../output.js';
import { remoteSettingsKeyPath } from '../../paths.js';
import { pinKey, RemoteSettingsError, writeKeyPair } from '../../remote-settings/keys.js';
import { remoteStatusOnDisk, type RemoteStatus } from '../../remote-settings/remote-settings.js';
import { signDocument } from '../../remote-settings/sign.js';
import { loadSettings } from '../../settings/settings-file.js';

function readText(file: string, what: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new RemoteSettingsError('FILE_UNREADABLE', `cannot read ${what} ${file}: ${(error as Error).message}`);
  }
}

function humanStatus(status: RemoteStatus): string {
  if (!status.configured) return 'No remote settings: the settings have no remote_settings section.';
  const refusal = status.last_refusal;
  return table([
    ['url', status.url ?? ''],
    ['key', status.key === 'unusable' ? `unusable (${status.key_problem})` : status.key],
    ['running', status.running === null ? 'none (local settings only)' : `version ${status.running.version}`],
    ['pending', status.pending === null ? undefined : `version ${status.pending.version}`],
    [
      'last check',
      status.last_check === null
        ? 'never'
        : `${status.last_check.at} ${status.last_check.outcome}${status.last_check.message === null ? '' : `: ${status.last_check.message}`}`,
    ],
    [
      'last refusal',
      refusal === null
        ? undefined
        : `${refusal.at} ${refusal.code}${refusal.version === null ? '' : ` (version ${refusal.version})`}: ${refusal.message}`,
    ],
  ]);
}

export function registerRemoteSettingsCommand(program: Command, io: CliIo): void {
  const command = program.command('remote-settings').description(COMMAND_LINES['remote-settings'].description);
  command
    .command('keygen')
    .description(
      "Make the chain's Ed25519 key pair: DIR/remote-settings.key (private: keep it with whoever signs, never on a checkout) and DIR/remote-settings.pub (pinned on every checkout). Never overwrites a key.",
    )
    .requiredOption('--out <dir>', 'the folder to write both files in')
    .option('--json', 'one JSON line: {"private_key", "public_key"}')
    .action((options: { out: string; json?: boolean }) => {
      const files = writeKeyPair(resolve(options.out));
      emit(
        io,
        options.json,
        { private_key: files.privateKey, public_key: files.publicKey },
        `Wrote ${files.privateKey} (private: keep it safe) and ${files.publicKey} (pin it on each checkout: pinbridge remote-settings pin ${files.publicKey}).`,
      );
    });
  command
    .command('sign')
    .description(
      'Sign a settings document: a JSON file {"version", "scope": {"chain", "store"?, "checkout"?}, "settings": {…}, "expires_at"?}, checked as agents check it; writes the envelope agents fetch.',
    )
    .requiredOption('--key <file>', "the chain's private key (PEM, from keygen)")
    .requiredOption('--in <file>', 'the document to sign')
    .option('--out <file>', 'where to write the envelope (default: stdout)')
    .action((options: { key: string; in: string; out?: string }) => {
      let json: unknown;
      try {
        json = JSON.parse(readText(options.in, 'the document'));
      } catch (error) {
        if (error instanceof RemoteSettingsError) throw error;
        throw new RemoteSettingsError('INVALID_DOCUMENT', `${options.in} is not JSON: ${(error as Error).message}`);
      }
      const envelope = `${JSON.stringify(signDocument(json, readText(options.key, 'the private key')))}\n`;
      if (options.out === undefined) {
        io.stdout(envelope);
        return;
      }
      try {
        writeFileSync(options.out, envelope);
      } catch (error) {
        throw new RemoteSettingsError('WRITE_FAILED', `cannot write ${options.out}: ${(error as Error).message}`);
      }
      io.stderr(`Wrote ${options.out}: serve it at the url the checkouts follow.\n`);
    });
  command
    .command('pin')
    .description(
      "Pin the chain's public key on this checkout (~/.pinbridge/remote-settings.pub): only documents it signed are followed. Refuses to replace a pinned key without --replace.",
    )
    .argument('<file>', 'the public key (PEM from keygen, or its 32 bytes in base64)')
    .option('--replace', 'replace a key already pinned')
    .action((file: string, options: { replace?: boolean }) => {
      const path = remoteSettingsKeyPath(io.env.HOME);
      pinKey(path, readText(file, 'the public key'), { replace: options.replace === true });
      io.stdout(`Pinned the key of ${file} at ${path}.\n`);
    });
  command
    .command('status')
    .description(
      'What this checkout follows: the url, whether a key is pinned, the version running, one waiting, the last check and the last refusal.',
    )
    .option('--settings <file>', 'the settings file (default ~/.pinbridge/settings.json)')
    .option('--json', 'one JSON line')
    .action((options: { settings?: string; json?: boolean }) => {
      const settings = loadSettings(options.settings, io.env.HOME);
      const status = remoteStatusOnDisk(settings.remoteSettings, settings.fleet, io.env.HOME);
      emit(io, options.json, status, humanStatus(status));
    });
}
