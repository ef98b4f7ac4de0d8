/** The payment engine's public shapes: how it is built, what it announces, what its operations take and report. */
import type { PaymentProgress } from '../events.js';
import type { Journal } from '../journal/journal.js';
import type { PaymentOutcome } from '../outcome.js';
import type { EngineLogger, PaymentsPort } from '../ports.js';
import type { Scheduler } from '../scheduler.js';
import type { EngineConfig } from './config.js';

export interface PaymentEngineOptions {
  readonly journal: Journal;
  readonly payments: PaymentsPort;
  /** The seller the sales are made for (`on_behalf_of`). */
  readonly sellerId: string;
  readonly config?: Partial<EngineConfig>;
  readonly logger?: EngineLogger;
  readonly now?: () => Date;
  /** Its timers and the monotonic clock they are measured on (default: Node's). */
  readonly scheduler?: Scheduler;
}

/** A PINPAD as the engine holds it: whether something runs on it, and which payment. */
export interface TerminalState {
  readonly serial: string;
  readonly busy: boolean;
  /** The payment it runs; null when free or busy with another operation (a message, a key…). */
  readonly payment: { readonly id: string; readonly referenceId: string } | null;
}

export interface EngineEvents {
  progress: [event: PaymentProgress];
  /** A PINPAD became busy or free. */
  terminal: [state: TerminalState];
  /**
   * A payment no run was driving got its result (recovery decided it): the answer its POS did
   * not get from `start` — that one said `in_progress`, or the POS was away.
   */
  result: [outcome: PaymentOutcome];
}

export interface StartOptions {
  /** Who starts it (the POS client's id), kept with the payment: see PaymentRecord.owner. */
  readonly owner?: string;
}

/** What a void (undo, or a cancel that becomes one) carries beside the reference. */
export interface VoidOptions {
  /** A line for the void's journal entry, e.g. who authorized it ("authorized by the supervisor (…)"). */
  readonly note?: string;
}

export interface RecoveryReport {
  /** Unfinished payments found. */
  readonly found: number;
  /** Of those, how many reached a final state (or a confirmed/awaiting one). */
  readonly settled: number;
  /** Still waiting for the API (queued undos, lookups that failed). */
  readonly pending: number;
}
