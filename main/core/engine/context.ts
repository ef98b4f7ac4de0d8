/**
 * What every part of the engine works with: its journal, settings and ports, the API side of the
 * payment steps, its clock and timers, whether it is closing, and its progress events.
 */
import { EngineError } from '../errors.js';
import type { Journal } from '../journal/journal.js';
import type { EngineLogger, PaymentsPort } from '../ports.js';
import type { Scheduler } from '../scheduler.js';
import type { StepsDeps } from '../steps/context.js';
import type { EngineConfig } from './config.js';
import type { Announce } from './progress.js';

export interface EngineContext {
  readonly journal: Journal;
  readonly config: EngineConfig;
  readonly payments: PaymentsPort;
  /** The API side of each payment step (steps/), on the same journal, clock and progress events. */
  readonly steps: StepsDeps;
  readonly log: EngineLogger;
  readonly now: () => Date;
  readonly scheduler: Scheduler;
  /** True from `close()` on: no timer is set and no new work starts. */
  readonly closed: () => boolean;
  /** Announces a payment's step (progress.ts). */
  readonly progress: Announce;
}

/** CLOSED once the engine is closing: no new payment or operation starts. */
export function assertOpen(ctx: EngineContext): void {
  if (ctx.closed()) throw new EngineError('CLOSED', 'The payment engine is closed');
}
