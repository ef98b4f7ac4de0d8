/**
 * The supervisor's policy and PIN keeper as the POS server sees them (settings `supervisor`,
 * main/agent/supervisor-pin.ts): what the agent provides, with no files in sight. The check of a
 * void itself is supervisor.ts.
 */

export interface SupervisorPolicy {
  /** "voids": voids and undos of approvals need the supervisor. */
  readonly requiredFor: 'none' | 'voids';
  /** Sales below this amount (centavos) need nothing. */
  readonly minAmountCentavos: number;
  /** Where the window's supervisor types the PIN. */
  readonly entry: 'window' | 'pinpad' | 'either';
  /** A POS's voids: trusted, or the PIN on the PINPAD. */
  readonly posVoids: 'trusted' | 'pinpad';
}

/** The answer to a PIN typed (main/agent/supervisor-pin.ts). */
export type SupervisorPinCheck =
  | { readonly ok: true; readonly training: boolean }
  | { readonly ok: false; readonly reason: 'NOT_SET' }
  | { readonly ok: false; readonly reason: 'WRONG'; readonly attemptsLeft: number }
  | { readonly ok: false; readonly reason: 'LOCKED'; readonly retryAfterMs: number };

/** The policy in use and the PIN's keeper: what the POS server needs, with no files in sight. */
export interface SupervisorGuard {
  readonly policy: SupervisorPolicy;
  /** A PIN can be checked (one is stored; in training, its own PIN always can). */
  isSet(): boolean;
  /** A PIN is stored (the window's Configurações says so). */
  isStored(): boolean;
  /** The lock after too many wrong PINs: when it ends (ISO) and in how long; null when not locked. */
  lock(): { readonly until: string; readonly retryAfterMs: number } | null;
  check(pin: string): SupervisorPinCheck;
  set(pin: string): void;
}
