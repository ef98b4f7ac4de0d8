/**
 * `pinbridge pos cert`: the certificate for the POS API's optional `wss://`, made on this
 * machine (main/pos/tls/local-certificate.ts), written beside the agent's files, with the
 * settings to use it and how to make this machine's browsers trust it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import { MAX_SERVER_DAYS } from '../../pos/tls/limits.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { emit } from '../output.js';
import { parsePositiveInteger } from '../parse.js';
import { defaultDataDir } from '../../paths.js';

interface CertOptions {
  dir?: string;
  days?: number;
  force?: boolean;
  json?: boolean;
}

export const CERT_FILES = { ca: 'pinbridge-local-ca.pem', cert: 'localhost.pem', key: 'localhost-key.pem' } as const;

/** How to make this machine trust the CA, by platform: the commands a technician runs once. */
export function trustSteps(caFile: string): Record<'linux' | 'windows' | 'macos' | 'firefox', readonly string[]> {
  return {
    linux: [
      `sudo cp '${caFile}' /usr/local/share/ca-certificates/pinbridge-local-ca.crt && sudo update-ca-certificates`,
      `certutil -d sql:$HOME/.pki/nssdb -A -t 'C,,' -n 'Pinbridge local CA' -i '${caFile}'   # Chrome and Chromium (package libnss3-tools)`,
    ],
    windows: [`certutil -user -addstore Root "${caFile}"   # Chrome and Edge use this store`],
    macos: [`sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain '${caFile}'`],
    firefox: [
      'Settings → Privacy & Security → Certificates → View Certificates → Authorities → Import, or the enterprise policy Certificates.Install',
    ],
  };
}

function platformKey(platform: NodeJS.Platform): 'linux' | 'windows' | 'macos' {
  if (platform === 'win32') return 'windows';
  if (platform === 'darwin') return 'macos';
  return 'linux';
}

function parseDays(value: string): number {
  const days = parsePositiveInteger(value);
  if (days > MAX_SERVER_DAYS)
    throw new UsageError(
      `--days must be at most ${MAX_SERVER_DAYS} (browsers on macOS refuse longer server certificates)`,
    );
  return days;
}

export function registerPosCommand(program: Command, io: CliIo): void {
  const pos = program.command('pos').description(COMMAND_LINES.pos.description);
  pos
    .command('cert')
    .description(
      'Make a certificate for wss://localhost and wss://127.0.0.1 (a local CA whose key is discarded after signing, and the server certificate), for web POS pages served over https.',
    )
    .option('--dir <dir>', 'where to write the files (default ~/.pinbridge/tls)')
    .option('--days <n>', `days the certificate is valid (1-${MAX_SERVER_DAYS}, default ${MAX_SERVER_DAYS})`, parseDays)
    .option(
      '--force',
      'replace certificate files that are already there (the old CA must then be removed from the trust stores)',
    )
    .option('--json', 'one JSON line instead of text')
    .action(async (options: CertOptions) => {
      const dir = resolve(options.dir ?? join(defaultDataDir(io.env.HOME), 'tls'));
      const files = { ca: join(dir, CERT_FILES.ca), cert: join(dir, CERT_FILES.cert), key: join(dir, CERT_FILES.key) };
      const present = Object.values(files).filter((file) => existsSync(file));
      if (present.length > 0 && options.force !== true) {
        throw new UsageError(
          `${present.join(', ')} already exists; pass --force to make a new certificate (and a new CA to trust)`,
        );
      }
      // The X.509 library loads only for this command, not at every start of the agent.
      const { createLocalCertificate } = await import('../../pos/tls/local-certificate.js');
      const made = await createLocalCertificate(options.days === undefined ? {} : { days: options.days });
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      // The key first and readable by this user only; the certificates are public.
      writeFileSync(files.key, made.key, { mode: 0o600 });
      writeFileSync(files.cert, made.cert, { mode: 0o644 });
      writeFileSync(files.ca, made.caCert, { mode: 0o644 });

      const settings = { pos: { tls: { cert_file: files.cert, key_file: files.key } } };
      const trust = trustSteps(files.ca);
      const here = platformKey(process.platform);
      const data = {
        ca_file: files.ca,
        cert_file: files.cert,
        key_file: files.key,
        names: made.names,
        not_after: made.notAfter.toISOString(),
        ca_fingerprint_sha256: made.caFingerprint256,
        settings,
        trust,
      };
      const human = [
        `Wrote the certificate for ${made.names.join(', ')} (valid until ${made.notAfter.toISOString().slice(0, 10)}):`,
        `  ${files.cert}`,
        `  ${files.key}   (private key, readable by you only)`,
        `  ${files.ca}   (the CA to trust; its private key was discarded after signing)`,
        '',
        'Add to the settings file (~/.pinbridge/settings.json), then restart the agent; it will serve wss:// and https:// only:',
        `  ${JSON.stringify(settings)}`,
        '',
        `Trust the CA on this machine (fingerprint SHA-256 ${made.caFingerprint256}):`,
        ...trust[here].map((step) => `  ${step}`),
        `  Firefox: ${trust.firefox.join('')}`,
      ].join('\n');
      emit(io, options.json, data, human);
    });
}
