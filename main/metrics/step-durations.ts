/**
 * `pinbridge_payment_step_duration_seconds{step}`: how long each step of a sale took, timed from
 * the engine's progress events (core/events.ts), so a chain sees which step is slow — the API
 * creating the transaction, the customer with the card, the issuer, or the hand-over.
 *
 * Each step is a span between two progress events of one payment:
 *   create_transaction  creating_transaction → waiting_card (the API created the transaction)
 *   read_card           waiting_card → card_read (card, and PIN where asked: the customer's time)
 *   authorize           authorizing → the issuer's answer: approved, declined, or finishing_chip
 *                       (the chip hears an approval before it is journaled); a lost answer
 *                       resolved against the API counts until it is resolved
 *   confirm             the approval → confirmed: the chip's final word, the completion report,
 *                       the card's removal and the confirmation (under the "pos" policy, the
 *                       POS's wait)
 * A span the payment leaves any other way (cancelled, failed, reversed) is not observed: it
 * timed no step to its end. Times are the events' own (`at`), so the spans tile the sale.
 */
import { Histogram, type Registry } from 'prom-client';
import type { PaymentProgress, ProgressStep } from '../core/events.js';
import { isFinal } from '../core/states.js';

export const PAYMENT_STEPS = ['create_transaction', 'read_card', 'authorize', 'confirm'] as const;
export type PaymentStepLabel = (typeof PAYMENT_STEPS)[number];

/** The progress step that opens each span. */
const OPENED_BY: Readonly<Partial<Record<ProgressStep, PaymentStepLabel>>> = {
  creating_transaction: 'create_transaction',
  waiting_card: 'read_card',
  authorizing: 'authorize',
};

/** The progress steps that close each span. */
const CLOSED_BY: Readonly<Record<PaymentStepLabel, ReadonlySet<ProgressStep>>> = {
  create_transaction: new Set(['waiting_card']),
  read_card: new Set(['card_read']),
  authorize: new Set(['approved', 'declined', 'finishing_chip']),
  confirm: new Set(['confirmed']),
};

/** An authorization ending on these is an approval: the confirm span starts there. */
const APPROVAL_STEPS: ReadonlySet<ProgressStep> = new Set(['approved', 'finishing_chip']);

/**
 * From a second (the API, a quick card) to ten minutes (a "pos" confirmation's deadline): the
 * customer's steps take tens of seconds, the API's well under one.
 */
const STEP_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 120, 300, 600];

/**
 * Open spans kept at most: a payment whose run ended without a final progress event (the API
 * refused its transaction) leaves its span behind; the oldest goes first.
 */
const MAX_OPEN_SPANS = 256;

interface OpenSpan {
  readonly step: PaymentStepLabel;
  readonly startedAt: number;
}

export class StepDurations {
  readonly #histogram: Histogram<'step'>;
  /** The span each payment is in, by payment id (insertion order: oldest first). */
  readonly #open = new Map<string, OpenSpan>();

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
    const at = Date.parse(event.at);
    if (!Number.isFinite(at)) return;
    const open = this.#open.get(event.paymentId);
    let next: PaymentStepLabel | undefined = OPENED_BY[event.step];
    if (open !== undefined && CLOSED_BY[open.step].has(event.step)) {
      this.#histogram.observe({ step: open.step }, Math.max(0, at - open.startedAt) / 1000);
      this.#open.delete(event.paymentId);
      // One event can end a step and start the next (waiting_card; an approval starts confirm).
      if (open.step === 'authorize' && APPROVAL_STEPS.has(event.step)) next = 'confirm';
    }
    if (next !== undefined) this.#start(event.paymentId, next, at);
    else if (isFinal(event.state)) this.#open.delete(event.paymentId);
  }

  /** Forgets every open span (the metrics closed). */
  clear(): void {
    this.#open.clear();
  }

  /** How many spans are open now (for specs: none is left behind). */
  get openSpans(): number {
    return this.#open.size;
  }

  #start(paymentId: string, step: PaymentStepLabel, startedAt: number): void {
    this.#open.delete(paymentId);
    this.#open.set(paymentId, { step, startedAt });
    if (this.#open.size > MAX_OPEN_SPANS) {
      const oldest = this.#open.keys().next().value;
      if (oldest !== undefined) this.#open.delete(oldest);
    }
  }
}
