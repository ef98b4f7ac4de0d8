/**
 * The payment settings a store can change, as one TypeBox schema: it validates a settings file
 * (or the window's settings form), gives the TypeScript type and documents every field. Every
 * time limit of a payment is here — the API's, each PINPAD prompt's, the lost-answer lookups',
 * the undo queue's backoff — with the engine's defaults for whatever is left out.
 *
 * Keys are snake_case like the rest of the published documents; `resolveSettings` turns them into
 * the engine's and the PINPAD session's own configuration. The one the window shows
 * (`confirmation`) is declared in settings-fields.ts, with its default and its window texts.
 */
import { Type, type Static } from 'typebox';
import { CodedError } from '../../lib/errors.js';
import { INSTALLMENTS_MAX, schemaViolations } from '../contract/index.js';
import { DEFAULT_ENGINE_CONFIG, type EngineConfig } from './engine/config.js';
import { SETTINGS_FIELDS } from './settings-fields.js';
import { fromSchemaViolation, settingsViolation, type SettingsViolation } from './settings-violations.js';
import { DEFAULT_SALE_TIMEOUTS, type SaleTimeouts } from './ports.js';

/** The agent polls for pending transactions created elsewhere unless told otherwise. */
export const DEFAULT_PENDING_POLL_MS = 5_000;

const Ms = (description: string, minimum: number, maximum: number) =>
  Type.Integer({ minimum, maximum, description: `${description} (milliseconds).` });

export const PaymentSettings = Type.Object(
  {
    confirmation: SETTINGS_FIELDS.confirmation.schema,
    confirmation_deadline_ms: Type.Optional(
      Ms('How long an approval waits for the POS under the "pos" policy before it is voided', 10_000, 24 * 3_600_000),
    ),
    installments: Type.Optional(
      Type.Object(
        {
          max: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: INSTALLMENTS_MAX,
              description:
                "Most installments a credit sale may have: offered on the PINPAD, and in the window's test sale.",
            }),
          ),
          min_installment_amount: Type.Optional(
            Type.Integer({ minimum: 1, description: 'Smallest installment, in centavos.' }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    pending_poll_ms: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 3_600_000,
        description:
          'How often each idle PINPAD asks the API for pending transactions created elsewhere (milliseconds; 5000 by default, 0 turns it off).',
      }),
    ),
    timeouts: Type.Optional(
      Type.Object(
        {
          api_ms: Type.Optional(Ms('Deadline of each payments API call', 1_000, 120_000)),
          card_ms: Type.Optional(Ms('Waiting for the card', 5_000, 600_000)),
          pin_ms: Type.Optional(Ms('The chip and PIN step', 5_000, 600_000)),
          menu_ms: Type.Optional(Ms("The customer's keypad answers: installments, CPF", 5_000, 600_000)),
          removal_ms: Type.Optional(Ms('Waiting for the card to leave the slot', 5_000, 600_000)),
          unknown_attempts: Type.Optional(
            Type.Integer({
              minimum: 1,
              maximum: 20,
              description: 'Reads of the transaction after a lost authorization answer, before it is reversed.',
            }),
          ),
          unknown_delay_ms: Type.Optional(Ms('Pause between those reads', 0, 60_000)),
          undo_retry_base_ms: Type.Optional(
            Ms('First wait before a queued cancel, reversal or void is sent again (doubles each time)', 100, 600_000),
          ),
          undo_retry_max_ms: Type.Optional(Ms('Longest wait between two attempts of a queued undo', 1_000, 3_600_000)),
          recovery_retry_base_ms: Type.Optional(
            Ms(
              'First wait before recovery tries again a payment it could not decide (disk full, API unreachable; doubles each time)',
              100,
              60_000,
            ),
          ),
          recovery_retry_max_ms: Type.Optional(
            Ms(
              'Longest wait between two recovery attempts: how long an undecided payment can wait once the disk and the API are back',
              1_000,
              300_000,
            ),
          ),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, title: 'PaymentSettings' },
);
export type PaymentSettings = Static<typeof PaymentSettings>;

/** What the settings give each part: the engine, every PINPAD's sale session, the pending poll. */
export interface ResolvedSettings {
  readonly engine: EngineConfig;
  readonly sale: SaleTimeouts;
}

export { type SettingsViolation, type SettingsViolationCode } from './settings-violations.js';

export class SettingsError extends CodedError<'INVALID_SETTINGS'> {
  readonly violations: readonly SettingsViolation[];

  constructor(violations: readonly SettingsViolation[], source: string) {
    super(
      'INVALID_SETTINGS',
      `Invalid settings in ${source}: ${violations.map((v) => `${v.field}: ${v.message}`).join('; ')}`,
    );
    this.violations = violations;
  }
}

export function settingsViolations(input: unknown): SettingsViolation[] {
  const violations: SettingsViolation[] = schemaViolations(PaymentSettings, input).map((violation) =>
    fromSchemaViolation(violation.field, violation),
  );
  if (violations.length > 0) return violations;
  const t = (input as PaymentSettings).timeouts;
  if (
    t?.undo_retry_base_ms !== undefined &&
    t.undo_retry_max_ms !== undefined &&
    t.undo_retry_base_ms > t.undo_retry_max_ms
  ) {
    violations.push(
      settingsViolation(
        'timeouts.undo_retry_base_ms',
        'INCONSISTENT',
        'must not be greater than timeouts.undo_retry_max_ms',
      ),
    );
  }
  if (
    t?.recovery_retry_base_ms !== undefined &&
    t.recovery_retry_max_ms !== undefined &&
    t.recovery_retry_base_ms > t.recovery_retry_max_ms
  ) {
    violations.push(
      settingsViolation(
        'timeouts.recovery_retry_base_ms',
        'INCONSISTENT',
        'must not be greater than timeouts.recovery_retry_max_ms',
      ),
    );
  }
  return violations;
}

/**
 * Validates settings (`source` names them in the error: a file path, "the settings form") and
 * fills in the defaults. Throws SettingsError with every violation.
 */
export function resolveSettings(input: unknown, source = 'the settings'): ResolvedSettings {
  const violations = settingsViolations(input);
  if (violations.length > 0) throw new SettingsError(violations, source);
  const s = input as PaymentSettings;
  const t = s.timeouts ?? {};
  const d = DEFAULT_ENGINE_CONFIG;
  return {
    engine: {
      confirmation: s.confirmation ?? SETTINGS_FIELDS.confirmation.default,
      confirmationDeadlineMs: s.confirmation_deadline_ms ?? d.confirmationDeadlineMs,
      installments: {
        max: s.installments?.max ?? d.installments.max,
        minInstallmentAmount: s.installments?.min_installment_amount ?? d.installments.minInstallmentAmount,
      },
      apiTimeoutMs: t.api_ms ?? d.apiTimeoutMs,
      unknownResolution: {
        attempts: t.unknown_attempts ?? d.unknownResolution.attempts,
        delayMs: t.unknown_delay_ms ?? d.unknownResolution.delayMs,
      },
      undoRetry: {
        baseMs: t.undo_retry_base_ms ?? d.undoRetry.baseMs,
        maxMs: t.undo_retry_max_ms ?? d.undoRetry.maxMs,
      },
      pendingPollMs: s.pending_poll_ms ?? DEFAULT_PENDING_POLL_MS,
      recoveryRetry: {
        baseMs:
          t.recovery_retry_base_ms ??
          Math.min(d.recoveryRetry.baseMs, t.recovery_retry_max_ms ?? d.recoveryRetry.baseMs),
        maxMs: t.recovery_retry_max_ms ?? Math.max(d.recoveryRetry.maxMs, t.recovery_retry_base_ms ?? 0),
      },
      // Not a setting: derived from the largest sale limits the settings allow (engine/config.ts).
      orphanAfterMs: d.orphanAfterMs,
    },
    sale: {
      cardMs: t.card_ms ?? DEFAULT_SALE_TIMEOUTS.cardMs,
      pinMs: t.pin_ms ?? DEFAULT_SALE_TIMEOUTS.pinMs,
      menuMs: t.menu_ms ?? DEFAULT_SALE_TIMEOUTS.menuMs,
      removalMs: t.removal_ms ?? DEFAULT_SALE_TIMEOUTS.removalMs,
    },
  };
}
