/**
 * The settings file's `supervisor` section: whether voiding an approved sale (or undoing an
 * approval waiting for confirmation) needs the supervisor's PIN, from what amount, where the PIN
 * is typed, and whether the POS's own voids need it too. The PIN itself is never in this file
 * (supervisor-pin.ts keeps its hash; the window sets it with operator.setSupervisorPin). The
 * window shows every field of it: each is declared, with its default, in main/core/settings-fields.ts.
 */
import { Type, type Static } from 'typebox';
import { SETTINGS_FIELDS } from '../core/settings-fields.js';
import type { SupervisorPolicy } from '../pos/server/supervisor.js';

export const SupervisorSettings = Type.Object(
  {
    required_for: SETTINGS_FIELDS['supervisor.required_for'].schema,
    min_amount_centavos: SETTINGS_FIELDS['supervisor.min_amount_centavos'].schema,
    entry: SETTINGS_FIELDS['supervisor.entry'].schema,
    pos_voids: SETTINGS_FIELDS['supervisor.pos_voids'].schema,
  },
  {
    additionalProperties: false,
    description: "The supervisor's authorization for voids (the PIN itself is never in this file).",
  },
);
export type SupervisorSettings = Static<typeof SupervisorSettings>;

/** The section with its defaults. */
export function resolveSupervisorSettings(settings: SupervisorSettings | undefined): SupervisorPolicy {
  return {
    requiredFor: settings?.required_for ?? SETTINGS_FIELDS['supervisor.required_for'].default,
    minAmountCentavos: settings?.min_amount_centavos ?? SETTINGS_FIELDS['supervisor.min_amount_centavos'].default,
    entry: settings?.entry ?? SETTINGS_FIELDS['supervisor.entry'].default,
    posVoids: settings?.pos_voids ?? SETTINGS_FIELDS['supervisor.pos_voids'].default,
  };
}
