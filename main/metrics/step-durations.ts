/**
 * `pinbridge_payment_step_duration_seconds{step}`: how long each step of a sale took, timed from
 * the engine's progress events (core/events.ts), so a chain sees which step is slow — the API
 * creating the transaction, the customer with the card, the issuer, or the hand-over.
 *
 * The steps are cut out of the events by the core's StepTimeline (core/payment-steps.ts), which
 * the payment traces use too: one definition of a step for both. A step the payment leaves any
 * other way (cancelled, failed, reversed) is not observed here: it timed no step to its end.
 */
import { Histogram, type Registry } from 'prom-client';
import type { PaymentProgress } from '../core/events.js';
import { PAYMENT_STEPS, StepTimeline, type PaymentStep } from '../core/payment-steps.js';

export { PAYMENT_STEPS };
export type PaymentStepLabel = PaymentStep;

/**
 * From a second (the API, a quick card) to ten minutes (a "pos" confirmation's deadline): the
 * customer's steps take tens of seconds, the API's well under one.
 */
const STEP_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 120, 300, 600];

export class StepDurations {
  readonly #histogram: Histogram<'step'>;
  readonly #timeline = new StepTimeline();

  constructor(registers: Registry[]) {
    this.#histogram = new Histogram({
      name: 'pinbridge_payment_step_duration_seconds',
      help:
        "Seconds each step of a sale took, from the engine's progress events: create_transaction (the API creates the " +
        'transaction), read_card (the customer inserts, taps or swipes the card and types the PIN), authorize (until the ' +
        "issuer's answer), confirm (from the approval to the confirmation: chip, completion, card removal, and the POS's wait " +
        'under the "pos" policy). A step the payment left by a cancel or a failure is not counted.',
      labelNames: ['step'],
      buckets: STEP_BUCKETS,
      registers,
    });
    // Every step's series from the start, so rate() and histogram_quantile() work before the first sale.
    for (const step of PAYMENT_STEPS) this.#histogram.zero({ step });
  }

  /** One progress event of the engine. */
  progress(event: PaymentProgress): void {
    for (const ended of this.#timeline.progress(event)) {
      if (ended.completed)
        this.#histogram.observe({ step: ended.step }, Math.max(0, ended.endedAt - ended.startedAt) / 1000);
    }
  }

  /** Forgets every open span (the metrics closed). */
  clear(): void {
    this.#timeline.clear();
  }

  /** How many spans are open now (for specs: none is left behind). */
  get openSpans(): number {
    return this.#timeline.openSteps;
  }
}
