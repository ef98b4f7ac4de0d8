/**
 * `pinbridge updates`: the staged updates of the desktop app seen from a terminal (docs/fleet.md,
 * Update server and staged rollout). `show` says how this checkout's settings file sets them —
 * the feed it reads (placeholders filled), the channel, what picks it in a staged release and its
 * place there, the maintenance window. `rollout` plans a release for a chain: each store's place,
 * and with --percentage which stores a release staged at that percentage reaches. Nothing is
 * asked of the network: the decisions are main/updates/policy.ts's, the same the app makes.
 */
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { COMMAND_LINES } from '../command-list.js';
import { UsageError } from '../errors.js';
import type { CliIo } from '../io.js';
import { emit, table } from '../output.js';
import { loadSettings } from '../../settings/settings-file.js';
import { DEFAULT_CHANNEL, DEFAULT_CHECK_INTERVAL_HOURS } from '../../settings/update-settings.js';
import { placeIdProblem } from '../../settings/fleet-settings.js';
import { feedUrl, rolloutPercent, stagingId, withinRollout } from '../../updates/policy.js';

/** A chain or store id as the fleet section takes them (main/settings/fleet-settings.ts). */
function placeId(value: string): string {
  const problem = placeIdProblem(value);
  if (problem !== undefined) throw new InvalidArgumentError(problem);
  return value;
}

function percentage(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 100) throw new InvalidArgumentError('must be a whole number from 0 to 100');
  return n;
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, placeId(value)];

interface ShowOptions {
  settings?: string;
  json?: boolean;
}

interface RolloutOptions {
  chain: string;
  store?: string[];
  stores?: string;
  percentage?: number;
  json?: boolean;
}

/** The stores of --store and of --stores FILE (one id a line; blank lines and # comments skipped). */
function storesOf(options: RolloutOptions): string[] {
  const listed = options.store ?? [];
  if (options.stores === undefined) return listed;
  let text: string;
  try {
    text = readFileSync(options.stores, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${options.stores}: ${(error as Error).message}`);
  }
  const fromFile = text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '');
  for (const store of fromFile)
    if (placeIdProblem(store) !== undefined)
      throw new UsageError(`${options.stores}: "${store.slice(0, 70)}" is not a store id`);
  return [...listed, ...fromFile];
}

export function registerUpdatesCommand(program: Command, io: CliIo): void {
  const updates = program.command('updates').description(COMMAND_LINES.updates.description);
  updates
    .command('show')
    .description(
      "How this checkout's settings set its updates: the feed it reads, the channel, what picks it in a staged release and its place there (a release staged above it reaches it), the maintenance window.",
    )
    .option('--settings <file>', 'the settings file (default ~/.pinbridge/settings.json)')
    .option('--json', 'one JSON line')
    .action((options: ShowOptions) => {
      const settings = loadSettings(options.settings, io.env.HOME);
      const section = settings.updates;
      const identity = settings.fleet;
      const staging = stagingId(identity, section.stage_by ?? 'store');
      const feed = section.feed_url === undefined ? undefined : feedUrl(section.feed_url, identity);
      const shown = {
        enabled: section.enabled === true,
        feed_url: feed === undefined || 'missing' in feed ? null : feed.url,
        channel: section.channel ?? DEFAULT_CHANNEL,
        staged_by: staging?.by ?? 'install',
        staging_name: staging?.name ?? null,
        staging_id: staging?.id ?? null,
        rollout_position: staging === undefined ? null : rolloutPercent(staging.id),
        install_window: section.install_window ?? null,
        check_interval_hours: section.check_interval_hours ?? DEFAULT_CHECK_INTERVAL_HOURS,
      };
      emit(
        io,
        options.json,
        shown,
        table([
          ['updates', shown.enabled ? 'on (desktop app)' : 'off'],
          ['feed', shown.feed_url ?? '(none)'],
          ['channel', shown.channel],
          [
            'staged by',
            staging === undefined
              ? "this installation's own random id (no fleet.chain/fleet.store)"
              : `${staging.by} ${staging.name}`,
          ],
          [
            'rollout position',
            shown.rollout_position === null
              ? undefined
              : `${shown.rollout_position} (a release staged above ${shown.rollout_position} % reaches it)`,
          ],
          [
            'installs',
            shown.install_window === null
              ? 'when Pinbridge quits'
              : `when Pinbridge quits, or ${shown.install_window} outside a sale`,
          ],
          ['checks every', `${shown.check_interval_hours} h`],
        ]),
      );
    });
  updates
    .command('rollout')
    .description(
      "Plan a staged release for a chain: each store's place in the rollout, lowest first (the stores a release reaches first), and with --percentage which stores a release staged at that percentage reaches. All checkouts of a store share its place.",
    )
    .requiredOption('--chain <id>', 'the chain, as its checkouts set fleet.chain', placeId)
    .option('--store <id>', 'a store, as its checkouts set fleet.store (repeatable)', collect)
    .option('--stores <file>', 'a file of store ids, one a line (# comments)')
    .option('--percentage <n>', "the feed's stagingPercentage to plan for (0-100)", percentage)
    .option('--json', 'one JSON line: {"chain", "percentage", "reached", "stores": [{"store", "position", "reached"}]}')
    .action((options: RolloutOptions) => {
      const stores = [...new Set(storesOf(options))];
      if (stores.length === 0) throw new UsageError('name the stores: --store ID (repeatable) or --stores FILE');
      const planned = stores
        .map((store) => {
          const id = stagingId({ chain: options.chain, store })!.id;
          return {
            store,
            position: rolloutPercent(id),
            ...(options.percentage === undefined ? {} : { reached: withinRollout(options.percentage, id) }),
          };
        })
        .sort((a, b) => a.position - b.position || a.store.localeCompare(b.store));
      const reached = planned.filter((store) => store.reached === true).length;
      emit(
        io,
        options.json,
        {
          chain: options.chain,
          percentage: options.percentage ?? null,
          reached: options.percentage === undefined ? null : reached,
          stores: planned,
        },
        [
          ...planned.map(
            (store) =>
              `${store.position.toFixed(2).padStart(6)}  ${store.store}${store.reached === undefined ? '' : store.reached ? '  reached' : ''}`,
          ),
          ...(options.percentage === undefined
            ? []
            : [`${reached} of ${planned.length} stores reached at stagingPercentage ${options.percentage}`]),
        ].join('\n'),
      );
    });
}
