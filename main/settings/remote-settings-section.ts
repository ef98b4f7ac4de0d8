/**
 * The `remote_settings` section of the settings file: which signed settings document this agent
 * follows (docs/remote-settings.md). Who this checkout is in the chain — which the document's scope
 * must name, and which fills the url's placeholders — is the `fleet` section's (fleet-settings.ts),
 * the same ids telemetry labels and staged updates stage by. Both sections are the checkout's own:
 * a remote document can never set them (it could otherwise point the agent elsewhere, or re-scope
 * itself), and the key is pinned apart, in ~/.pinbridge/remote-settings.pub
 * (`pinbridge remote-settings pin`), never in this file.
 */
import { Type, type Static } from 'typebox';
import type { FleetSettings, Place } from './fleet-settings.js';

export const DEFAULT_REMOTE_INTERVAL_MINUTES = 15;

export const RemoteSettingsSection = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'The HTTPS URL of the signed settings document this agent follows; {chain}, {store} and {checkout} are replaced by fleet.chain, fleet.store and fleet.checkout, e.g. https://config.example/pinbridge/{chain}/{store}.json.',
    }),
    interval_minutes: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1440,
        description: `Minutes between two checks of the url (default ${DEFAULT_REMOTE_INTERVAL_MINUTES}).`,
      }),
    ),
    ca: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          "PEM file of CA certificates to trust for the url's server beside the public ones (relative to this settings file's folder).",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "Follow a settings document signed with the chain's Ed25519 key (docs/remote-settings.md), whose scope must name fleet.chain (and fleet.store, fleet.checkout when it names a store, a checkout); absent: no remote settings. Never set by a remote document.",
  },
);
export type RemoteSettingsSection = Static<typeof RemoteSettingsSection>;

const PLACEHOLDER = /\{(chain|store|checkout)\}/g;

/**
 * Why the section cannot be followed with this fleet place, or undefined: a url that is not
 * https, no chain (every document's scope names one), a placeholder without its id. The field is
 * named from the settings' root (`remote_settings.url`, `fleet.store`).
 */
export function remoteSectionProblems(
  section: RemoteSettingsSection,
  fleet: FleetSettings,
): Array<{ field: string; code: 'INVALID_URL' | 'REQUIRED'; message: string }> {
  let parsed: URL;
  try {
    parsed = new URL(section.url.replace(PLACEHOLDER, 'x'));
  } catch {
    return [{ field: 'remote_settings.url', code: 'INVALID_URL', message: 'must be an absolute https:// URL' }];
  }
  if (parsed.protocol !== 'https:')
    return [
      {
        field: 'remote_settings.url',
        code: 'INVALID_URL',
        message: 'must be https:// (the document is fetched over TLS only)',
      },
    ];
  const problems: Array<{ field: string; code: 'REQUIRED'; message: string }> = [];
  if (fleet.chain === undefined)
    problems.push({
      field: 'fleet.chain',
      code: 'REQUIRED',
      message: "is required with remote_settings: a remote document's scope names its chain",
    });
  for (const place of new Set([...section.url.matchAll(PLACEHOLDER)].map((match) => match[1] as Place))) {
    if (place !== 'chain' && fleet[place] === undefined)
      problems.push({
        field: `fleet.${place}`,
        code: 'REQUIRED',
        message: `is required: remote_settings.url names {${place}}`,
      });
  }
  return problems;
}

/** The url with its placeholders filled from the fleet's ids (each URL-encoded). */
export function remoteUrlOf(section: RemoteSettingsSection, fleet: FleetSettings): string {
  return section.url.replace(PLACEHOLDER, (_all, place: Place) => encodeURIComponent(fleet[place] ?? ''));
}
