/**
 * The settings file's `updates` section: updates of the desktop app (main/app/updates.ts runs
 * them). Here, beside the other settings, because the agent reads and validates the file.
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
          'HTTPS folder holding the installers and the latest*.yml files electron-builder writes (a "generic" feed). Required when enabled.',
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
