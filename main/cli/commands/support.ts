/**
 * `pinbridge support bundle`: the one file a store sends its support desk (main/support/bundle.ts)
 * — the doctor's report (the checks `pinbridge doctor --json` runs), the recent logs, the last
 * PINPAD trace (--trace, else the newest the agent kept: main/support/trace-folder.ts), the settings without secrets and the versions, masked and scanned for card data.
 * With --upload it is sent to the settings' support.upload_url, only once the person at the
 * keyboard said yes (or --yes); with no terminal to ask on and no --yes, it is not sent.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import type { CliIo } from '../io.js';
import { emit } from '../output.js';
import { parseTimeoutSeconds, doctorReport } from './doctor.js';
import { DEFAULT_CHECK_TIMEOUT_MS } from '../../doctor/runner.js';
import { buildBundle, SupportBundleError, type Manifest } from '../../support/bundle.js';
import { collectSupportFiles } from '../../support/collect.js';
import { uploadBundle } from '../../support/upload.js';
import { loadSettings } from '../../settings/settings-file.js';

interface BundleOptions {
  out?: string;
  upload?: boolean;
  yes?: boolean;
  settings?: string;
  trace?: string;
  timeout: number;
  json?: boolean;
}

function defaultOut(now: Date): string {
  return `pinbridge-support-${now.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
}

/** The upload's URL, refused before anything is made when --upload cannot be honoured. */
function uploadTarget(options: BundleOptions, io: CliIo): string | undefined {
  if (options.upload !== true) return undefined;
  const url = loadSettings(options.settings, io.env.HOME).support.upload_url;
  if (url === undefined)
    throw new SupportBundleError(
      'UPLOAD_URL_MISSING',
      'no support.upload_url in the settings: set it, or send the bundle some other way (without --upload)',
    );
  if (options.yes !== true && io.confirm === undefined)
    throw new SupportBundleError(
      'UPLOAD_NOT_CONFIRMED',
      'sending the bundle needs a yes from the person at the keyboard and there is no terminal to ask on: add --yes, or run without --upload',
    );
  return url;
}

export function registerSupportCommand(program: Command, io: CliIo): void {
  const support = program.command('support').description(COMMAND_LINES.support.description);
  support
    .command('bundle')
    .description(
      'Write the support bundle (.tar.gz with a manifest.json of sizes and SHA-256s); card data and CPFs are masked and a bundle in which card data is still found is not written.',
    )
    .option('--out <file>', 'the archive to write (default pinbridge-support-<time>.tar.gz in this folder)')
    .option('--upload', "also send it to the settings' support.upload_url (HTTP PUT), after a y/N confirmation")
    .option('--yes', 'with --upload: send without asking')
    .option('--settings <file>', 'the settings file (default ~/.pinbridge/settings.json)')
    .option(
      '--trace <file>',
      'a PINPAD trace (`pinbridge pinpad trace --out`) to include (default: the newest the agent kept in ~/.pinbridge/traces/)',
    )
    .option(
      '--timeout <seconds>',
      'time limit of each doctor check',
      parseTimeoutSeconds,
      DEFAULT_CHECK_TIMEOUT_MS / 1000,
    )
    .option('--json', 'one JSON line: {"file", "bytes", "sha256", "files": [...], "uploaded"}')
    .action(async (options: BundleOptions) => {
      const url = uploadTarget(options, io);
      const now = new Date();
      const report = await doctorReport(
        {
          timeout: options.timeout,
          json: true,
          ...(options.settings === undefined ? {} : { settings: options.settings }),
        },
        io,
      );
      const files = [
        { name: 'doctor.json', text: `${JSON.stringify(report, null, 2)}\n` },
        ...collectSupportFiles({
          ...(io.env.HOME === undefined ? {} : { home: io.env.HOME }),
          ...(options.settings === undefined ? {} : { settingsPath: options.settings }),
          ...(options.trace === undefined ? {} : { tracePath: options.trace }),
        }),
      ];
      const { archive, manifest } = buildBundle(files, { now });
      const out = resolve(options.out ?? defaultOut(now));
      try {
        writeFileSync(out, archive, { mode: 0o600 });
      } catch (error) {
        throw new SupportBundleError('BUNDLE_WRITE_FAILED', `cannot write ${out}: ${(error as Error).message}`);
      }
      let uploaded: { url: string; status: number } | undefined;
      if (url !== undefined) {
        const origin = new URL(url).origin;
        const yes = options.yes === true || (await io.confirm!(`Send ${out} (${archive.length} bytes) to ${origin}?`));
        if (!yes) throw new SupportBundleError('UPLOAD_NOT_CONFIRMED', `not sent: the bundle stays in ${out}`);
        uploaded = { url: origin, ...(await uploadBundle(url, archive)) };
      }
      emit(io, options.json, summary(out, archive, manifest, uploaded), human(out, archive, manifest, uploaded));
    });
}

function summary(
  out: string,
  archive: Buffer,
  manifest: Manifest,
  uploaded: { url: string; status: number } | undefined,
) {
  return {
    file: out,
    bytes: archive.length,
    sha256: createSha256(archive),
    files: manifest.files,
    uploaded: uploaded ?? null,
  };
}

function human(
  out: string,
  archive: Buffer,
  manifest: Manifest,
  uploaded: { url: string; status: number } | undefined,
): string {
  const sent = uploaded === undefined ? '' : ` Sent to ${uploaded.url} (HTTP ${uploaded.status}).`;
  return `Wrote ${out} (${archive.length} bytes, ${manifest.files.length + 1} files, card data and CPFs masked).${sent}`;
}

function createSha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
