/**
 * The `remote_settings` section of the settings file: which signed settings document this agent
 * follows (docs/remote-settings.md) and who it is in the chain, which the document's scope must
 * name. This section is the checkout's own: a remote document can never set it (it could otherwise
 * point the agent elsewhere, or re-scope itself), and its key is pinned apart, in
 * ~/.pinbridge/remote-settings.pub (`pinbridge remote-settings pin`), never in this file.
 */
import { Type, type Static } from 'typebox';

export const DEFAULT_REMOTE_INTERVAL_MINUTES = 15;

const PlaceId = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]*$',
    description: `This checkout's ${what} id (letters, digits, . _ : -): the document's scope must name it, and {${what}} in the url is replaced by it.`,
  });

export const RemoteSettingsSection = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      description:
        'The HTTPS URL of the signed settings document this agent follows; {chain}, {store} and {checkout} are replaced by the ids below, e.g. https://config.example/pinbridge/{chain}/{store}.json.',
    }),
    chain: PlaceId('chain'),
    store: Type.Optional(PlaceId('store')),
    checkout: Type.Optional(PlaceId('checkout')),
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
      "Follow a settings document signed with the chain's Ed25519 key (docs/remote-settings.md); absent: no remote settings. Never set by a remote document.",
  },
);
export type RemoteSettingsSection = Static<typeof RemoteSettingsSection>;

const PLACEHOLDER = /\{(chain|store|checkout)\}/g;

/** Why `section.url` cannot be followed (not https, a placeholder without its id), or undefined. */
export function remoteUrlProblem(section: RemoteSettingsSection): { field: string; message: string } | undefined {
  let parsed: URL;
  try {
    parsed = new URL(section.url.replace(PLACEHOLDER, 'x'));
  } catch {
    return { field: 'url', message: 'must be an absolute https:// URL' };
  }
  if (parsed.protocol !== 'https:')
    return { field: 'url', message: 'must be https:// (the document is fetched over TLS only)' };
  for (const match of section.url.matchAll(PLACEHOLDER)) {
    const place = match[1] as 'chain' | 'store' | 'checkout';
    if (section[place] === undefined) return { field: place, message: `is required: the url names {${place}}` };
  }
  return undefined;
}

/** The url with its placeholders filled (each id URL-encoded). */
export function remoteUrlOf(section: RemoteSettingsSection): string {
  return section.url.replace(PLACEHOLDER, (_all, place: 'chain' | 'store' | 'checkout') =>
    encodeURIComponent(section[place] ?? ''),
  );
}
