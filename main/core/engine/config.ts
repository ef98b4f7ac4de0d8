/** How the payment engine behaves: its settings (settings.ts maps the agent's onto them) and their defaults. */
import type { ConfirmationPolicy } from '../journal/record.js';
import type { InstallmentRules } from '../sale-request.js';
import type { StepsConfig } from '../steps/context.js';

export interface EngineConfig extends StepsConfig {
  readonly confirmation: ConfirmationPolicy;
  readonly installments: InstallmentRules;
  /**
   * How often each idle PINPAD asks the API for pending transactions created elsewhere; 0 leaves
   * it to explicit `runPendingFor` calls (the agent's settings turn it on, see settings.ts).
   */
  readonly pendingPollMs: number;
  /**
   * How often recovery tries again a payment it could not decide (the API unreachable, the disk
   * full): from `baseMs`, doubling to `maxMs`. The cap bounds how long a payment stays undecided
   * once the API and the disk are back.
   */
  readonly recoveryRetry: { readonly baseMs: number; readonly maxMs: number };
  /**
   * How long a pending transaction of another Pinbridge agent's sale (another journal: a second
   * PC on the same PINPAD, a reinstall, `pay --journal`) must have been seen pending here before
   * this agent cancels it as an orphan (see runPendingFor). Longer than any sale holds its
   * transaction pending: under the settings' largest limits the card (10 min, twice for a
   * contactless card presented again), the PIN (10 min) and the authorization's deadline (2 min)
   * come to under 35 minutes.
   */
  readonly orphanAfterMs: number;
}

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  confirmation: 'auto',
  confirmationDeadlineMs: 10 * 60_000,
  installments: { max: 12, minInstallmentAmount: 500 },
  apiTimeoutMs: 20_000,
  unknownResolution: { attempts: 3, delayMs: 1_000 },
  undoRetry: { baseMs: 2_000, maxMs: 5 * 60_000 },
  pendingPollMs: 0,
  recoveryRetry: { baseMs: 1_000, maxMs: 30_000 },
  orphanAfterMs: 60 * 60_000,
};
