/**
 * The settings file's `supervisor` section: whether voiding an approved sale (or undoing an
 * approval waiting for confirmation) needs the supervisor's PIN, from what amount, where the PIN
 * is typed, and whether the POS's own voids need it too. The PIN itself is never in this file
 * (supervisor-pin.ts keeps its hash; the window sets it with operator.setSupervisorPin).
 */
import { Type, type Static } from 'typebox';
import type { SupervisorPolicy } from '../pos/server/supervisor.js';

export const SupervisorSettings = Type.Object(
  {
    required_for: Type.Optional(
      Type.Union([Type.Literal('none'), Type.Literal('voids')], {
        description:
          '"voids": voiding an approved sale and undoing an approval waiting for confirmation from the window need the supervisor PIN (set in the window: Configurações → Supervisor). Default "none".',
      }),
    ),
    min_amount_centavos: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 100_000_000,
        description: 'Only sales of this amount (centavos) or more need the supervisor; default 0: every one.',
      }),
    ),
    entry: Type.Optional(
      Type.Union([Type.Literal('window'), Type.Literal('pinpad'), Type.Literal('either')], {
        description:
          'Where the supervisor types the PIN: "window" (a password field in the void dialog, the default), "pinpad" (the PINPAD keypad, under its fixed IDENTIFICACAO prompt: the digits show in clear there) or "either".',
      }),
    ),
    pos_voids: Type.Optional(
      Type.Union([Type.Literal('trusted'), Type.Literal('pinpad')], {
        description:
          'Voids a POS asks for (payment.undo, payment.cancel of an approval): "trusted" (the default: the POS has its own supervisor step) or "pinpad" (the supervisor types the PIN on the PINPAD too, when required_for and min_amount_centavos say so).',
      }),
    ),
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
    requiredFor: settings?.required_for ?? 'none',
    minAmountCentavos: settings?.min_amount_centavos ?? 0,
    entry: settings?.entry ?? 'window',
    posVoids: settings?.pos_voids ?? 'trusted',
  };
}
