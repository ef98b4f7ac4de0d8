/**
 * `pinbridge doctor`: the checks a technician runs with a store on the phone — serial port
 * permissions, PINPADs, printers, the payments API, the POS API ports and the settings file —
 * one line each, with the command that fixes what is wrong. It takes the same options as
 * `pinbridge start`, so the store's start line can be pasted as it is. Exit code 1 when any
 * check failed (warnings do not count).
 */
import type { Command } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import { createLogger, logFormat } from '../../log.js';
import type { CheckResult, CheckStatus, DoctorReport } from '../../doctor/check.js';
import { DEFAULT_CHECK_TIMEOUT_MS, runDoctor } from '../../doctor/runner.js';
import { CommandExit, EXIT_FAILURE, UsageError } from '../errors.js';
import { parsePort } from '../parse.js';
import type { CliIo } from '../io.js';
import { emit } from '../output.js';
import { loadSettings, type AgentSettings } from '../../settings/settings-file.js';
import { TokenStoreError } from '../../agent/token-store.js';
import { SettingsError } from '../../core/settings.js';
import { doctorTarget, type PaymentsApiTarget } from '../../doctor/payments-api.js';
import { addPaymentStackOptions, apiOptionsOf, type ApiFlags, checkApiOptions, commandApi } from '../payment-stack.js';

export interface DoctorOptions extends ApiFlags {
  port?: string;
  settings?: string;
  config?: string;
  posPort?: number;
  training?: boolean;
  headless?: boolean;
  journal?: string;
  json?: boolean;
  probeCapabilities?: boolean;
  timeout: number;
}

const MARKS: Readonly<Record<CheckStatus, string>> = { ok: '✓', warn: '!', fail: '✗', skip: '-' };

/** Seconds, fractions allowed (0.5), up to 10 minutes. */
export function parseTimeoutSeconds(value: string): number {
  const seconds = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || !(seconds > 0) || seconds > 600) {
    throw new UsageError(`"${value}" is not a number of seconds between 0 and 600 (e.g. 5 or 0.5)`);
  }
  return seconds;
}

/** One line per check, the fix indented below it, and a closing line. */
export function formatDoctorReport(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((check) => check.id.length));
  const lines: string[] = [];
  for (const check of report.checks) {
    lines.push(`${MARKS[check.status]} ${check.id.padEnd(width)}  ${check.summary}`);
    if (check.fix !== undefined) lines.push(`  ${' '.repeat(width)}  fix: ${check.fix}`);
  }
  const failed = report.checks.filter((check) => check.status === 'fail');
  const warned = report.checks.filter((check) => check.status === 'warn');
  const names = (checks: readonly CheckResult[]): string => checks.map((check) => check.id).join(', ');
  lines.push(
    failed.length > 0
      ? `${failed.length} check(s) failed: ${names(failed)}.`
      : warned.length > 0
        ? `No check failed; look at: ${names(warned)}.`
        : 'Everything checked is working.',
  );
  return lines.join('\n');
}

/**
 * The payments API to check: the flags' when --api is given, else the one the settings name with
 * the stored token and passphrase, as `pinbridge start` would run against — or why it cannot be
 * used. Nothing (training mode) when neither names one; a settings file that cannot be read is the
 * settings check's to report.
 */
function apiToCheck(
  options: DoctorOptions,
  settingsPath: string | undefined,
  env: NodeJS.ProcessEnv,
): { api?: PaymentsApiTarget; apiProblem?: string } {
  // `start --training` runs against the embedded sandbox: there is no payments API to check.
  if (options.training === true) return {};
  if (options.api !== undefined) {
    const target = doctorTarget(apiOptionsOf(options, env));
    return target === undefined ? {} : { api: target };
  }
  let settings: AgentSettings;
  try {
    settings = loadSettings(settingsPath, env.HOME);
  } catch {
    return {};
  }
  try {
    const chosen = commandApi({}, settings, env, false);
    const target = doctorTarget(chosen);
    return target === undefined ? {} : { api: target };
  } catch (error) {
    if (error instanceof SettingsError)
      return { apiProblem: error.violations.map((v) => `${v.field} ${v.message}`).join('; ') };
    if (error instanceof TokenStoreError) return { apiProblem: error.message };
    throw error;
  }
}

/**
 * The checks `pinbridge doctor` runs for these options (the support bundle runs them too, so its
 * report is the one `pinbridge doctor --json` prints).
 */
export async function doctorReport(options: DoctorOptions, io: CliIo): Promise<DoctorReport> {
  const settingsPath = options.config ?? options.settings;
  const fromEnvironment =
    options.port === undefined && io.env.PINBRIDGE_PINPAD !== undefined && io.env.PINBRIDGE_PINPAD !== '';
  const address = options.port ?? (fromEnvironment ? io.env.PINBRIDGE_PINPAD : undefined);
  return runDoctor({
    timeoutMs: Math.round(options.timeout * 1000),
    logger: createLogger({ format: logFormat(io.env), level: io.env.PINBRIDGE_LOG_LEVEL ?? 'warn' }),
    ...(address === undefined
      ? {}
      : { pinpadAddress: address, ...(fromEnvironment ? { pinpadAddressFrom: 'PINBRIDGE_PINPAD' } : {}) }),
    ...(options.posPort === undefined ? {} : { posPorts: [options.posPort] }),
    ...(settingsPath === undefined ? {} : { settingsPath }),
    ...(io.env.HOME === undefined ? {} : { home: io.env.HOME }),
    ...apiToCheck(options, settingsPath, io.env),
    ...(options.probeCapabilities === true ? { probeCapabilities: true } : {}),
  });
}

export function registerDoctorCommand(program: Command, io: CliIo): void {
  const command = program.command('doctor');
  addPaymentStackOptions(command)
    .description(COMMAND_LINES.doctor.description)
    .option(
      '--port <address>',
      'the PINPAD to open and identify: a serial port, tcp://host:port, ble:<id>, or "sim" (default: $PINBRIDGE_PINPAD, else the settings\' pinpad.address; without any the serial ports are only listed)',
    )
    .option('--config <file>', 'the settings file (same as --settings)')
    .option(
      '--pos-port <port>',
      'the POS API port to check, as `start --pos-port` takes it (default: settings pos.ports, else 17301, 17302, 17303)',
      parsePort,
    )
    .option(
      '--training',
      'as `start --training`: the payments API is not checked (training mode runs against the embedded sandbox)',
    )
    .option('--headless', 'accepted as `start` takes it; the doctor never opens a window')
    .option('--timeout <seconds>', 'time limit of each check', parseTimeoutSeconds, DEFAULT_CHECK_TIMEOUT_MS / 1000)
    .option('--json', 'one JSON line: {"checks": [...], "ok": boolean}')
    .option(
      '--probe-capabilities',
      'also try whether the payments API honours Idempotency-Key and the reference_id filter, and say what api.capabilities should be; it creates test transactions and cancels them at once, so only against a sandbox or homologation API',
    )
    .action(async (options: DoctorOptions) => {
      if (options.config !== undefined && options.settings !== undefined && options.config !== options.settings) {
        throw new UsageError('--config and --settings name the same file: give one of them');
      }
      checkApiOptions(options);
      if (options.probeCapabilities === true && options.training === true) {
        throw new UsageError('--probe-capabilities tries a payments API: it has nothing to try with --training');
      }
      if (options.training === true && options.api !== undefined) {
        throw new UsageError(
          '--training runs against the embedded sandbox: drop --api, --token, --marketplace and --seller',
        );
      }
      const report = await doctorReport(options, io);
      emit(io, options.json, report, formatDoctorReport(report));
      if (!report.ok) throw new CommandExit(EXIT_FAILURE);
    });
}
