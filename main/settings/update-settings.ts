/**
 * The settings file's `updates` section: updates of the desktop app (main/app/updates.ts runs
 * them, main/updates/policy.ts decides). Here, beside the other settings, because the agent reads
 * and validates the file.
 *
 * The store's identity for staging and for a per-store feed is the `fleet` section's chain, store
 * and checkout (fleet-settings.ts: one identity for the fleet, the labels telemetry pushes too, so
 * the store Grafana shows is the store the rollout moves).
 */
import { Type, type Static } from 'typebox';

export const UpdateSettings = Type.Object(
  {
    enabled: Type.Optional(
      Type.Boolean({
        description: 'Check for and install updates of the desktop app (default false: updates are deployed by hand).',
      }),
    ),
    feed_url: Type.Optional(
      Type.String({
        pattern: '^https://[^\\s]+$',
        maxLength: 1000,
        description:
          'HTTPS folder holding the installers and the latest*.yml files electron-builder writes (a "generic" feed). Required when enabled. May hold {chain}, {store} and {checkout}, replaced by fleet.chain, fleet.store and fleet.checkout, for a folder per store.',
      }),
    ),
    channel: Type.Optional(
      Type.String({
        pattern: '^[a-z][a-z0-9_-]{0,31}$',
        description:
          'The release channel: the feed file read is CHANNEL.yml (CHANNEL-linux.yml, CHANNEL-mac.yml), e.g. beta or a pilot channel of the chain (default latest: the stable releases).',
      }),
    ),
    stage_by: Type.Optional(
      Type.Union([Type.Literal('store'), Type.Literal('checkout')], {
        description:
          "What a staged release (the feed's stagingPercentage) picks: whole stores, all their checkouts together (default, from fleet.chain and fleet.store), or checkouts one by one (also fleet.checkout). Without those ids each installation is picked on its own.",
      }),
    ),
    install_window: Type.Optional(
      Type.String({
        pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]-([01][0-9]|2[0-3]):[0-5][0-9]$',
        description:
          "Daily maintenance window on the store's clock, HH:MM-HH:MM (e.g. 02:00-05:00; 22:00-02:00 crosses midnight): a downloaded update is also installed then, when no sale is in progress, and Pinbridge starts again. Without it, updates install only when Pinbridge quits.",
      }),
    ),
    check_interval_hours: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 168, description: 'Hours between checks (default 6).' }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Updates of the desktop app (electron-updater, generic feed); not used headless.',
  },
);
export type UpdateSettings = Static<typeof UpdateSettings>;

export const DEFAULT_CHECK_INTERVAL_HOURS = 6;
/** electron-builder's channel of stable releases (latest.yml). */
export const DEFAULT_CHANNEL = 'latest';

export interface UpdateProblem {
  /** The field, from the settings' root (`updates.feed_url`, `fleet.store`…). */
  readonly field: string;
  readonly code: 'REQUIRED' | 'INVALID_VALUE';
  readonly message: string;
}

/**
 * What the schema alone cannot say: a feed when enabled, the fleet ids a feed's placeholders need,
 * a window that is not empty.
 */
export function updateViolations(
  updates: UpdateSettings,
  /** The fleet section: this checkout's place in the chain. */
  identity: { readonly chain?: string; readonly store?: string; readonly checkout?: string },
): UpdateProblem[] {
  const problems: UpdateProblem[] = [];
  if (updates.enabled === true && updates.feed_url === undefined)
    problems.push({ field: 'updates.feed_url', code: 'REQUIRED', message: 'is required when updates are enabled' });
  for (const name of ['chain', 'store', 'checkout'] as const) {
    if (updates.feed_url?.includes(`{${name}}`) === true && identity[name] === undefined)
      problems.push({
        field: `fleet.${name}`,
        code: 'REQUIRED',
        message: `is required: updates.feed_url uses {${name}}`,
      });
  }
  const window = updates.install_window;
  if (window !== undefined && window.slice(0, 5) === window.slice(6))
    problems.push({
      field: 'updates.install_window',
      code: 'INVALID_VALUE',
      message: 'must not start and end at the same time',
    });
  return problems;
}
