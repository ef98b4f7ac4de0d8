/**
 * The `settings` check: the settings file loads as `pinbridge start` would load it. A bad file
 * stops the agent before anything else, so the fix names the file and each field the validation
 * refused.
 */
import { SettingsError } from '../core/settings.js';
import { defaultSettingsPath, loadSettings, type AgentSettings } from '../settings/settings-file.js';
import { bilingual, checkResult, messageOf, shellQuote, type CheckResult } from './check.js';

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
  const again = bilingual(`then run \`${rerun}\` again.`, `depois execute \`${rerun}\` de novo.`);
  try {
    const settings = loadSettings(options.settingsPath, options.home);
    const printers = Object.keys(settings.printers).length;
    const merchant = settings.receipts !== null;
    const summary =
      settings.path === null
        ? bilingual(
            `No settings file (${path}): the defaults apply`,
            `Nenhum arquivo de configurações (${path}): valem as configurações padrão`,
          )
        : bilingual(
            `Settings loaded from ${settings.path} (${printers} printer(s), receipts ${merchant ? 'with' : 'without'} the store's name and CNPJ)`,
            `Configurações carregadas de ${settings.path} (${printers} impressora(s), comprovantes ${merchant ? 'com' : 'sem'} o nome e o CNPJ da loja)`,
          );
    return {
      settings,
      path,
      result: checkResult({
        id: 'settings',
        status: 'ok',
        summary,
        details: {
          path: settings.path,
          printers: Object.keys(settings.printers),
          pos_ports: settings.pos.ports ?? null,
          pos_tls: settings.pos.tls !== undefined,
          receipts_merchant: merchant,
        },
      }),
    };
  } catch (error) {
    if (!(error instanceof SettingsError)) {
      return {
        settings: undefined,
        path,
        result: checkResult({
          id: 'settings',
          status: 'fail',
          summary: bilingual(
            `The settings file ${path} could not be loaded: ${messageOf(error)}`,
            `O arquivo de configurações ${path} não pôde ser carregado: ${messageOf(error)}`,
          ),
          details: { path, error: messageOf(error) },
          fix: bilingual(
            `Check that ${path} is a readable JSON file, ${again.en}`,
            `Verifique se ${path} é um arquivo JSON legível e ${again.pt}`,
          ),
        }),
      };
    }
    const violations = error.violations.map(({ field, code, message }) => ({ field, code, message }));
    // Every rule has its pt-BR sentence (main/core/settings-violations.ts): the Portuguese report quotes no English.
    const foundPt = error.violations.map((v) => `${v.field}: ${v.cashier_message}`).join('; ');
    const addressHint = error.violations.some((v) => v.code === 'INVALID_PINPAD_ADDRESS')
      ? bilingual(
          ' (the PINPAD address is also set in the window: Configurações → PINPAD; `pinbridge pinpad list` shows the serial ports present)',
          ' (o endereço do PINPAD também se corrige na janela: Configurações → PINPAD; `pinbridge pinpad list` mostra as portas seriais presentes)',
        )
      : bilingual('', '');
    const fileProblem = error.violations.find((v) => v.field === '(file)');
    const given = options.settingsPath !== undefined;
    const fields = violations.map((v) => `\`${v.field}\` (${v.message})`).join(', ');
    const fieldsPt = error.violations.map((v) => `\`${v.field}\` (${v.cashier_message})`).join(', ');
    const filePt = error.violations.find((v) => v.field === '(file)')?.cashier_message;
    const fix = fileProblem
      ? bilingual(
          `${path}: ${fileProblem.message}; correct the file${given ? ' (or give the right one with --settings)' : ''}, ${again.en}`,
          `${path}: ${(filePt ?? fileProblem.message).replace(/\.$/, '')}; corrija o arquivo${given ? ' (ou informe o certo com --settings)' : ''} e ${again.pt}`,
        )
      : bilingual(
          `Edit ${path} and correct ${fields}${addressHint.en}; ${again.en}`,
          `Edite ${path} e corrija ${fieldsPt}${addressHint.pt}; ${again.pt}`,
        );
    const found = violations.map((v) => `${v.field}: ${v.message}`).join('; ');
    return {
      settings: undefined,
      path,
      result: checkResult({
        id: 'settings',
        status: 'fail',
        summary: bilingual(
          `The settings file ${path} is invalid: ${found}`,
          `O arquivo de configurações ${path} é inválido: ${foundPt}`,
        ),
        details: { path, violations },
        fix,
      }),
    };
  }
}
