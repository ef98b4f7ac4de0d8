/**
 * A sale's four steps, as a chain watches them, cut out of the engine's progress events
 * (events.ts) — one definition for the step-duration metric (main/metrics/step-durations.ts) and
 * the payment traces (payment-traces.ts), so a slow step reads the same in both:
 *
 *   create_transaction  creating_transaction → waiting_card (the API created the transaction)
 *   read_card           waiting_card → card_read (card, and PIN where asked: the customer's time)
 *   authorize           authorizing → the issuer's answer: approved, declined, or finishing_chip
 *                       (the chip hears an approval before it is journaled); a lost answer
 *                       resolved against the API counts until it is resolved
 *   confirm             the approval → confirmed: the chip's final word, the completion report,
 *                       the card's removal and the confirmation (under the "pos" policy, the
 *                       POS's wait)
 *
 * A step is `completed` when the event that ends it is one of the above; a step the payment leaves
 * any other way (a cancel, a failure, a reversal: a final state) ends there, not completed. Times
 * are the events' own (`at`), so the steps tile the sale.
 */
import type { PaymentProgress, ProgressStep } from './events.js';
import { isFinal } from './states.js';

export const PAYMENT_STEPS = ['create_transaction', 'read_card', 'authorize', 'confirm'] as const;
export type PaymentStep = (typeof PAYMENT_STEPS)[number];

/** The progress step that opens each step. */
const OPENED_BY: Readonly<Partial<Record<ProgressStep, PaymentStep>>> = {
  creating_transaction: 'create_transaction',
  waiting_card: 'read_card',
  authorizing: 'authorize',
};

/** The progress steps that complete each step. */
const CLOSED_BY: Readonly<Record<PaymentStep, ReadonlySet<ProgressStep>>> = {
  create_transaction: new Set(['waiting_card']),
  read_card: new Set(['card_read']),
  authorize: new Set(['approved', 'declined', 'finishing_chip']),
  confirm: new Set(['confirmed']),
};

/** An authorization ending on these is an approval: the confirm step starts there. */
const APPROVAL_STEPS: ReadonlySet<ProgressStep> = new Set(['approved', 'finishing_chip']);

/**
 * Open steps kept at most: a payment whose run ended without a final progress event (the API
 * refused its transaction) leaves its step behind; the oldest goes first.
 */
const MAX_OPEN_STEPS = 256;

/** One step of one payment, ended. */
export interface EndedStep {
  readonly paymentId: string;
  readonly step: PaymentStep;
  /** Milliseconds since the epoch, from the progress events' `at`. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** True when the step ended the way it should; false when the payment left it (cancel, failure). */
  readonly completed: boolean;
  /** The progress step that ended it (`card_read`, `declined`, `cancelled`…). */
  readonly endedBy: ProgressStep;
}

interface OpenStep {
  readonly step: PaymentStep;
  readonly startedAt: number;
}

/** Follows the progress events of every payment and says which steps each event ended. */
export class StepTimeline {
  /** The step each payment is in, by payment id (insertion order: oldest first). */
  readonly #open = new Map<string, OpenStep>();

  /** One progress event of the engine; the steps it ended (none, or one). */
  progress(event: PaymentProgress): EndedStep[] {
    const at = Date.parse(event.at);
    if (!Number.isFinite(at)) return [];
    const ended: EndedStep[] = [];
    const open = this.#open.get(event.paymentId);
    let next: PaymentStep | undefined = OPENED_BY[event.step];
    const base = { paymentId: event.paymentId, endedAt: 0, endedBy: event.step };
    if (open !== undefined && CLOSED_BY[open.step].has(event.step)) {
      ended.push({
        ...base,
        step: open.step,
        startedAt: open.startedAt,
        endedAt: Math.max(at, open.startedAt),
        completed: true,
      });
      this.#open.delete(event.paymentId);
      // One event can end a step and start the next (waiting_card; an approval starts confirm).
      if (open.step === 'authorize' && APPROVAL_STEPS.has(event.step)) next = 'confirm';
    }
    if (next !== undefined) this.#start(event.paymentId, next, at);
    else if (isFinal(event.state)) {
      const left = this.#open.get(event.paymentId);
      if (left !== undefined && event.step === event.state)
        ended.push({
          ...base,
          step: left.step,
          startedAt: left.startedAt,
          endedAt: Math.max(at, left.startedAt),
          completed: false,
        });
      this.#open.delete(event.paymentId);
    }
    return ended;
  }

  /** Forgets every open step. */
  clear(): void {
    this.#open.clear();
  }

  /** How many steps are open now (for specs: none is left behind). */
  get openSteps(): number {
    return this.#open.size;
  }

  #start(paymentId: string, step: PaymentStep, startedAt: number): void {
    this.#open.delete(paymentId);
    this.#open.set(paymentId, { step, startedAt });
    if (this.#open.size > MAX_OPEN_STEPS) {
      const oldest = this.#open.keys().next().value;
      if (oldest !== undefined) this.#open.delete(oldest);
    }
  }
}
