/**
 * The `updates` check (issue 37): how the settings set the desktop app's staged updates — the feed
 * this store reads, the channel, what picks this checkout in a staged release and its place there,
 * the maintenance window — and, asked from the window, what the running app knows: the version
 * downloaded and the last check. Updates off is not a fault (most stores deploy by hand): skip.
 * Nothing is asked of the network: the running app checks the feed, and says how it went.
 */
import type { AgentSettings } from '../settings/settings-file.js';
import { DEFAULT_CHANNEL } from '../settings/update-settings.js';
import type { UpdateState } from '../pos/server/agent.js';
import { feedUrl, rolloutPercent, stagingId } from '../updates/policy.js';
import { bilingual, checkResult, type CheckResult } from './check.js';

export interface UpdatesCheckOptions {
  /** The settings as loaded; undefined when the file does not load (the settings check says why). */
  readonly settings: AgentSettings | undefined;
  /** What the running desktop app reports (the window's doctor); absent from `pinbridge doctor`. */
  readonly running?: UpdateState;
}

export function checkUpdates(options: UpdatesCheckOptions): CheckResult {
  const section = options.settings?.updates;
  if (section?.enabled !== true || section.feed_url === undefined) {
    return checkResult({
      id: 'updates',
      status: 'skip',
      summary: bilingual(
        'Updates of the desktop app are off (settings updates.enabled): they are installed by hand',
        'As atualizações do aplicativo estão desligadas (updates.enabled nos ajustes): são instaladas à mão',
      ),
      details: { enabled: false },
    });
  }
  const identity = options.settings?.fleet ?? {};
  const staging = stagingId(identity, section.stage_by ?? 'store');
  const feed = feedUrl(section.feed_url, identity);
  const channel = section.channel ?? DEFAULT_CHANNEL;
  const position = staging === undefined ? null : rolloutPercent(staging.id);
  const running = options.running;
  const details = {
    enabled: true,
    feed_url: 'url' in feed ? feed.url : null,
    channel,
    staged_by: staging?.by ?? 'install',
    staging_name: staging?.name ?? null,
    rollout_position: position,
    install_window: section.install_window ?? null,
    ...(running === undefined
      ? {}
      : {
          state: running.state,
          version: running.version,
          last_check: running.lastCheck === null ? null : { ...running.lastCheck },
        }),
  };
  const where =
    position === null
      ? bilingual(
          'this installation is picked on its own in a staged release',
          'esta instalação é escolhida sozinha num lançamento escalonado',
        )
      : bilingual(
          `${staging!.by} ${staging!.name} at ${position} in a staged rollout`,
          `${staging!.by === 'store' ? 'loja' : 'caixa'} ${staging!.name} na posição ${position} do lançamento escalonado`,
        );
  const when =
    section.install_window === undefined
      ? bilingual('installs when Pinbridge quits', 'instala ao fechar o Pinbridge')
      : bilingual(
          `installs when Pinbridge quits or ${section.install_window} outside a sale`,
          `instala ao fechar o Pinbridge ou em ${section.install_window}, fora de uma venda`,
        );
  const pending =
    running?.version === null || running === undefined || running.state === 'none'
      ? bilingual('', '')
      : bilingual(`; ${running.version} ${running.state}`, `; ${running.version}: ${stateInPortuguese(running.state)}`);
  const summary = bilingual(
    `Channel ${channel}, ${where.en}; ${when.en}${pending.en}`,
    `Canal ${channel}, ${where.pt}; ${when.pt}${pending.pt}`,
  );
  if (running?.lastCheck?.error != null) {
    return checkResult({
      id: 'updates',
      status: 'warn',
      summary: bilingual(
        `The last update check failed (${running.lastCheck.error}); ${summary.en}`,
        `A última verificação de atualização falhou (${running.lastCheck.error}); ${summary.pt}`,
      ),
      details,
      fix: bilingual(
        `Open ${details.feed_url ?? section.feed_url} from this computer: it must answer with the ${channel}*.yml files; Pinbridge tries again by itself.`,
        `Abra ${details.feed_url ?? section.feed_url} neste computador: ele deve responder com os arquivos ${channel}*.yml; o Pinbridge tenta de novo sozinho.`,
      ),
    });
  }
  if (staging === undefined) {
    return checkResult({
      id: 'updates',
      status: 'warn',
      summary,
      details,
      fix: bilingual(
        'Set fleet.chain and fleet.store (and fleet.checkout when staged by checkout) so that all checkouts of the store take a staged release together.',
        'Preencha fleet.chain e fleet.store (e fleet.checkout quando escalonado por caixa) para que todos os caixas da loja recebam juntos um lançamento escalonado.',
      ),
    });
  }
  return checkResult({ id: 'updates', status: 'ok', summary, details });
}

function stateInPortuguese(state: UpdateState['state']): string {
  return state === 'downloading' ? 'baixando' : state === 'downloaded' ? 'baixada' : 'instalando';
}
