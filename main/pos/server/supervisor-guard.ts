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

/**
 * Whose void a PIN is typed for: the window's, or a POS system's (typed on the PINPAD). Each has its
 * own count of wrong PINs and its own lock, so a POS cannot lock the store's window out.
 */
export type SupervisorChannel = 'window' | 'pos';

/** The answer to a PIN typed (main/agent/supervisor-pin.ts). */
export type SupervisorPinCheck =
  | { readonly ok: true; readonly training: boolean }
  | { readonly ok: false; readonly reason: 'NOT_SET' }
  | { readonly ok: false; readonly reason: 'WRONG'; readonly attemptsLeft: number }
  | { readonly ok: false; readonly reason: 'LOCKED'; readonly until: string; readonly retryAfterMs: number }
  | { readonly ok: false; readonly reason: 'TAMPERED' };

/**
 * A lock in force: too many wrong PINs (until when, and in how long), or the PIN's file changed
 * outside Pinbridge (until the PIN is set again in the window).
 */
export type SupervisorLock =
  | { readonly reason: 'WRONG_PINS'; readonly until: string; readonly retryAfterMs: number }
  | { readonly reason: 'TAMPERED' };

/** The policy in use and the PIN's keeper: what the POS server needs, with no files in sight. */
export interface SupervisorGuard {
  readonly policy: SupervisorPolicy;
  /** A PIN can be checked (one is stored; in training, its own PIN always can; a tampered file counts, locked). */
  isSet(): boolean;
  /** A PIN is stored, its seal good (the window's Configurações says so). */
  isStored(): boolean;
  /** The PIN's file was changed outside Pinbridge: every PIN is refused until it is set again. */
  tampered(): boolean;
  /** The lock in force on a channel; null when not locked. */
  lock(channel: SupervisorChannel): SupervisorLock | null;
  check(pin: string, channel: SupervisorChannel): SupervisorPinCheck;
  set(pin: string): void;
}
