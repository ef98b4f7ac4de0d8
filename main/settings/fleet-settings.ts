/**
 * The settings file's `fleet` section: this checkout's place in the chain — its chain, store and
 * checkout ids — declared once, and read by every feature that needs it:
 * - telemetry labels every pushed series with them and names them in the OTLP resource
 *   (main/telemetry; required when telemetry is enabled);
 * - remote settings: the signed document's scope must name them, and the url's {chain}, {store}
 *   and {checkout} are filled from them (main/remote-settings; a remote document can never set
 *   this section: it would re-scope the checkout);
 * - staged updates stage the store (or the checkout) by them, and fill a feed_url's placeholders
 *   (main/updates, main/app/updates.ts).
 * One declaration, so the store the dashboards show is the store the remote document addresses
 * and the store the rollout moves. Here, in main/settings, because the features below this floor
 * (telemetry, updates) are given the ids as plain data and never need the schema.
 *
 * The ids once lived in `telemetry` and in `remote_settings`: a file still carrying them there is
 * told where they went (MOVED), rather than having them silently ignored or refused as unknown.
 */
import { Type, type Static } from 'typebox';
import { settingsViolation, type SettingsViolation } from '../core/settings-violations.js';

/** The three ids, from the widest to the narrowest. */
export const PLACES = ['chain', 'store', 'checkout'] as const;
export type Place = (typeof PLACES)[number];

/** What a place id is: short, printable, no spaces — a code, never a person's data. */
export const PLACE_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._:-]*$';
export const PLACE_ID_MAX_LENGTH = 64;

/** One place id's schema (the only one: every feature's id is this). */
export const PlaceId = (description: string) =>
  Type.String({ minLength: 1, maxLength: PLACE_ID_MAX_LENGTH, pattern: PLACE_ID_PATTERN, description });

/** Why `value` is not a place id (for ids typed on a command line), or undefined. */
export function placeIdProblem(value: string): string | undefined {
  return value.length >= 1 && value.length <= PLACE_ID_MAX_LENGTH && new RegExp(PLACE_ID_PATTERN).test(value)
    ? undefined
    : 'must be 1 to 64 letters, digits or . _ : - (starting with a letter or digit), as fleet.chain and fleet.store';
}

export const FleetSettings = Type.Object(
  {
    chain: Type.Optional(
      PlaceId(
        "The chain id (letters, digits, . _ : -), e.g. rede-sul: the `chain` label of every pushed series, the chain a remote document's scope must name, {chain} in remote_settings.url and updates.feed_url; with store, the staged rollout's place.",
      ),
    ),
    store: Type.Optional(
      PlaceId(
        "The store id within the chain, e.g. loja-042: the `store` label, the store a remote document scoped to a store must name, {store} in the urls; with chain, what a staged release picks (all the store's checkouts together).",
      ),
    ),
    checkout: Type.Optional(
      PlaceId(
        'The checkout id within the store, e.g. caixa-03: the `checkout` label, the checkout a remote document scoped to a checkout must name, {checkout} in the urls; what a release staged by checkout picks.',
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      "This checkout's place in the chain: the ids telemetry labels, remote settings scope and staged updates stage by (docs/fleet.md). Codes, never a person's data. Set on the checkout only: a remote document can never set it.",
  },
);
export type FleetSettings = Static<typeof FleetSettings>;

/** The sections that once held the ids. */
const FORMER_SECTIONS = ['telemetry', 'remote_settings'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The ids a file still declares in their former sections, each a MOVED violation naming the
 * field it moved to, and those sections without them (so the section's own check does not add a
 * second, vaguer "unknown field" for the same key).
 */
export function movedPlaceIds<J extends Record<string, unknown>>(
  json: J,
): { violations: SettingsViolation[]; json: J } {
  const violations: SettingsViolation[] = [];
  const rest: Record<string, unknown> = { ...json };
  for (const name of FORMER_SECTIONS) {
    const section = json[name];
    if (!isObject(section)) continue;
    const kept = { ...section };
    for (const place of PLACES) {
      if (!(place in section)) continue;
      delete kept[place];
      violations.push(
        settingsViolation(
          `${name}.${place}`,
          'MOVED',
          `has moved to fleet.${place}: this checkout's place in the chain is declared once, in the fleet section, and read by telemetry, remote settings and staged updates alike (move the value there)`,
          `Este campo mudou de lugar: agora é fleet.${place}, a identificação única deste caixa na rede. Chame o suporte técnico.`,
        ),
      );
    }
    rest[name] = kept;
  }
  return { violations, json: rest as J };
}
