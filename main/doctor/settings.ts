/**
 * The `settings` check: the settings file loads as `pinbridge start` would load it. A bad file
 * stops the agent before anything else, so the fix names the file and each field the validation
 * refused.
 */
import { SettingsError } from '../core/settings.js';
import { defaultSettingsPath, loadSettings, type AgentSettings } from '../agent/settings-file.js';
import { messageOf, shellQuote, type CheckResult } from './check.js';

export interface SettingsCheckOptions {
  /** `--settings`; without it `~/.pinbridge/settings.json` when it exists. */
  readonly settingsPath?: string;
  /** The home folder the default settings file is under. */
  readonly home?: string;
}

export interface SettingsCheckOutcome {
  readonly result: CheckResult;
  /** The settings as loaded; undefined when the file did not load. */
  readonly settings: AgentSettings | undefined;
  /** The file looked at (the default path when none was given). */
  readonly path: string;
}

export function checkSettings(options: SettingsCheckOptions): SettingsCheckOutcome {
  const path = options.settingsPath ?? defaultSettingsPath(options.home);
  const rerun = `pinbridge doctor${options.settingsPath === undefined ? '' : ` --settings ${shellQuote(options.settingsPath)}`}`;
  try {
    const settings = loadSettings(options.settingsPath, options.home);
    const summary =
      settings.path === null
        ? `No settings file (${path}): the defaults apply`
        : `Settings loaded from ${settings.path} (${Object.keys(settings.printers).length} printer(s), receipts ${settings.receipts === null ? 'without' : 'with'} the store's name and CNPJ)`;
    return {
      settings,
      path,
      result: {
        id: 'settings',
        status: 'ok',
        summary,
        details: {
          path: settings.path,
          printers: Object.keys(settings.printers),
          pos_ports: settings.pos.ports ?? null,
          pos_tls: settings.pos.tls !== undefined,
          receipts_merchant: settings.receipts !== null,
        },
      },
    };
  } catch (error) {
    if (!(error instanceof SettingsError)) {
      return {
        settings: undefined,
        path,
        result: {
          id: 'settings',
          status: 'fail',
          summary: `The settings file ${path} could not be loaded: ${messageOf(error)}`,
          details: { path, error: messageOf(error) },
          fix: `Check that ${path} is a readable JSON file, then run \`${rerun}\` again.`,
        },
      };
    }
    const violations = error.violations.map((v) => ({ field: v.field, message: v.message }));
    const fileProblem = violations.find((v) => v.field === '(file)');
    const fix = fileProblem
      ? `${path}: ${fileProblem.message}; correct the file${options.settingsPath === undefined ? '' : ' (or give the right one with --settings)'}, then run \`${rerun}\` again.`
      : `Edit ${path} and correct ${violations.map((v) => `\`${v.field}\` (${v.message})`).join(', ')}; then run \`${rerun}\` again.`;
    return {
      settings: undefined,
      path,
      result: {
        id: 'settings',
        status: 'fail',
        summary: `The settings file ${path} is invalid: ${violations.map((v) => `${v.field}: ${v.message}`).join('; ')}`,
        details: { path, violations },
        fix,
      },
    };
  }
}
