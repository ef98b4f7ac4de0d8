/**
 * The `remote-settings` check: whether this checkout follows the chain's signed settings
 * (docs/remote-settings.md), which version it runs and from where, when it last checked, and the
 * last document it refused. Skipped when the settings follow none; failed when they do but no key
 * is pinned (nothing is then followed); a warning when the last check found nothing it could use.
 */
import { remoteStatusOnDisk } from '../remote-settings/remote-settings.js';
import type { RemoteSettingsSection } from '../settings/remote-settings-section.js';
import type { FleetSettings } from '../settings/fleet-settings.js';
import { bilingual, checkResult, type CheckResult } from './check.js';

export interface RemoteSettingsCheckOptions {
  /** The settings' remote_settings (null: none; undefined: the settings did not load). */
  readonly section: RemoteSettingsSection | null | undefined;
  /** The settings' fleet section: the ids the url's placeholders are filled with. */
  readonly fleet?: FleetSettings;
  readonly home?: string;
}

const OUTCOMES_PT: Readonly<Record<string, string>> = {
  new: 'versão nova recebida',
  unchanged: 'sem mudança',
  refused: 'documento recusado',
  unreachable: 'endereço inacessível',
  no_key: 'sem chave fixada',
  not_saved: 'não gravado no disco',
};

export function checkRemoteSettings(options: RemoteSettingsCheckOptions): CheckResult {
  const id = 'remote-settings' as const;
  if (options.section === undefined)
    return checkResult({
      id,
      status: 'skip',
      summary: bilingual(
        'not checked: the settings file did not load',
        'não verificado: o arquivo de configurações não pôde ser lido',
      ),
      details: {},
    });
  const status = remoteStatusOnDisk(options.section, options.fleet ?? {}, options.home);
  const details = {
    url: status.url,
    key: status.key,
    key_problem: status.key_problem,
    running: status.running === null ? null : { ...status.running },
    pending: status.pending === null ? null : { ...status.pending },
    last_check: status.last_check === null ? null : { ...status.last_check },
    last_refusal: status.last_refusal === null ? null : { ...status.last_refusal },
  };
  if (!status.configured)
    return checkResult({
      id,
      status: 'skip',
      summary: bilingual(
        'no remote settings: the settings have no remote_settings section',
        'sem configuração da rede: as configurações não têm a seção remote_settings',
      ),
      details,
    });
  const url = status.url ?? '';
  if (status.key !== 'pinned')
    return checkResult({
      id,
      status: 'fail',
      summary: bilingual(
        `remote settings at ${url} are not followed: ${status.key === 'missing' ? 'no key is pinned' : status.key_problem}`,
        `a configuração da rede em ${url} não é seguida: ${status.key === 'missing' ? 'nenhuma chave fixada' : status.key_problem}`,
      ),
      details,
      fix: bilingual(
        "pin the chain's public key: pinbridge remote-settings pin remote-settings.pub",
        'fixe a chave pública da rede: pinbridge remote-settings pin remote-settings.pub',
      ),
    });
  const running = status.running;
  const runs =
    running === null
      ? bilingual('no document runs (local settings only)', 'nenhum documento em uso (só as configurações locais)')
      : bilingual(
          `version ${running.version} runs (from ${running.url}, fetched ${running.fetched_at})`,
          `versão ${running.version} em uso (de ${running.url}, obtida em ${running.fetched_at})`,
        );
  const check = status.last_check;
  const checked =
    check === null
      ? bilingual('never checked yet', 'ainda não verificado')
      : bilingual(
          `last checked ${check.at}: ${check.outcome}`,
          `última verificação ${check.at}: ${OUTCOMES_PT[check.outcome] ?? check.outcome}`,
        );
  const refusal = status.last_refusal;
  const refused =
    refusal === null
      ? undefined
      : bilingual(
          `last refusal ${refusal.at}: ${refusal.code}${refusal.version === null ? '' : ` (version ${refusal.version})`}: ${refusal.message}`,
          `última recusa ${refusal.at}: ${refusal.code}${refusal.version === null ? '' : ` (versão ${refusal.version})`}: ${refusal.message}`,
        );
  const summary = bilingual(
    [`follows ${url}`, runs.en, checked.en, ...(refused === undefined ? [] : [refused.en])].join('; '),
    [`segue ${url}`, runs.pt, checked.pt, ...(refused === undefined ? [] : [refused.pt])].join('; '),
  );
  const trouble = check !== null && check.outcome !== 'new' && check.outcome !== 'unchanged';
  return checkResult({
    id,
    status: trouble ? 'warn' : 'ok',
    summary,
    details,
    ...(trouble
      ? {
          fix: bilingual(
            `see the last check's message (${check.message ?? check.outcome}); a refused document needs a new version signed with the pinned key (docs/remote-settings.md)`,
            `veja a mensagem da última verificação (${check.message ?? check.outcome}); um documento recusado precisa de uma nova versão assinada com a chave fixada (docs/remote-settings.md)`,
          ),
        }
      : {}),
  });
}
