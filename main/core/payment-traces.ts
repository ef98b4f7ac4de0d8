/**
 * One trace per payment, for the chain's monitoring: the payment from its intent to its outcome
 * and, inside it, its steps (payment-steps.ts: create_transaction, read_card, authorize,
 * confirm), cut out of the engine's progress events like the step-duration metric.
 *
 * The core owns the port (`PaymentTraceSink`) and nothing else: what a trace becomes on the wire
 * (OTLP, main/telemetry) is the layer above's business. A trace carries what a chain needs to
 * tell a slow or failing checkout from a healthy one — the PINPAD, the payment type, the final
 * state, the decline category, the problem's code, the steps' times — and nothing of the
 * customer: no card, no CPF, no amount, no reference, no transaction id. The journal's payment id
 * comes along for the agent's own log (it links its lines to the trace) and is never exported.
 *
 * It runs inside the engine's event emission: it only keeps a few numbers per payment and hands
 * the finished trace to the sink, whose failure is caught here — a trace never delays nor
 * breaks a sale.
 */
import type { PaymentEngine, TerminalState } from './engine.js';
import type { DeclineCategory } from './declines.js';
import type { PaymentProgress } from './events.js';
import type { PaymentRecord, PaymentSource, PaymentType } from './journal/record.js';
import { outcomeOf } from './outcome.js';
import { StepTimeline, type EndedStep, type PaymentStep } from './payment-steps.js';
import { isFinal, type PaymentState } from './states.js';

/** One step of a traced payment. */
export interface TracedStep {
  readonly step: PaymentStep;
  /** Milliseconds since the epoch. */
  readonly startedAt: number;
  readonly endedAt: number;
  /** False when the payment left the step another way (a cancel, a failure). */
  readonly completed: boolean;
  /** The progress step that ended it (`card_read`, `declined`, `cancelled`…). */
  readonly endedBy: string;
}

/** A payment, finished. */
export interface PaymentTrace {
  /** The journal's id: for the agent's own log only, never exported. */
  readonly paymentId: string;
  /** The PINPAD's serial number. */
  readonly terminal: string;
  readonly paymentType: PaymentType;
  /** `pos` (started through Pinbridge) or `remote` (a pending transaction created elsewhere). */
  readonly source: PaymentSource;
  /** Milliseconds since the epoch: the intent… */
  readonly startedAt: number;
  /** …and the final state. */
  readonly endedAt: number;
  readonly state: PaymentState;
  /** Set for a declined payment: why the issuer said no (core/declines.ts). */
  readonly declineCategory: DeclineCategory | null;
  /** The journal problem's code (CARD_DECLINED, PINPAD_TIMEOUT, API_UNAVAILABLE…), when there is one. */
  readonly problemCode: string | null;
  /** Oldest first. */
  readonly steps: readonly TracedStep[];
}

/** The port: where finished payment traces go (the OTLP exporter, main/telemetry). */
export interface PaymentTraceSink {
  paymentTraced(trace: PaymentTrace): void;
}

export type TracedEngine = Pick<PaymentEngine, 'on' | 'off' | 'journal'>;

export interface PaymentTraceRecorderOptions {
  /** Told when the sink threw (a bug of the layer above): the sale goes on. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/** Payments followed at most (a run that ended without a final event leaves one behind; the oldest goes). */
const MAX_OPEN = 256;

interface OpenPayment {
  readonly firstAt: number;
  readonly steps: EndedStep[];
}

/** Follows the engine and hands each payment's trace to the sink when the payment ends. */
export class PaymentTraceRecorder {
  readonly #engine: TracedEngine;
  readonly #sink: PaymentTraceSink;
  readonly #options: PaymentTraceRecorderOptions;
  readonly #timeline = new StepTimeline();
  readonly #open = new Map<string, OpenPayment>();
  /** Payments already traced: a later event of theirs (a void of the confirmed sale) opens no new trace. */
  readonly #done = new Set<string>();
  /** The payment each PINPAD runs: a run that ends on a final state without a final event is traced from the journal. */
  readonly #running = new Map<string, string>();
  readonly #onProgress = (event: PaymentProgress): void => this.#guard(() => this.#progress(event));
  readonly #onTerminal = (state: TerminalState): void => this.#guard(() => this.#terminal(state));
  #closed = false;

  constructor(engine: TracedEngine, sink: PaymentTraceSink, options: PaymentTraceRecorderOptions = {}) {
    this.#engine = engine;
    this.#sink = sink;
    this.#options = options;
    engine.on('progress', this.#onProgress);
    engine.on('terminal', this.#onTerminal);
  }

  /** Stops following the engine; payments not finished are not traced. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#engine.off('progress', this.#onProgress);
    this.#engine.off('terminal', this.#onTerminal);
    this.#open.clear();
    this.#timeline.clear();
  }

  /** Payments followed now (for specs: none is left behind). */
  get openPayments(): number {
    return this.#open.size;
  }

  #progress(event: PaymentProgress): void {
    if (this.#done.has(event.paymentId)) return;
    const at = Date.parse(event.at);
    if (!Number.isFinite(at)) return;
    let open = this.#open.get(event.paymentId);
    if (open === undefined) {
      if (isFinal(event.state) && event.step !== event.state) return; // a PINPAD message after the end
      open = { firstAt: at, steps: [] };
      this.#open.set(event.paymentId, open);
      if (this.#open.size > MAX_OPEN) this.#open.delete(this.#open.keys().next().value!);
    }
    open.steps.push(...this.#timeline.progress(event));
    if (isFinal(event.state) && event.step === event.state) this.#finish(event.paymentId, at);
  }

  #terminal(state: TerminalState): void {
    const previous = this.#running.get(state.serial);
    const current = state.payment?.id;
    if (previous !== undefined && previous !== current) {
      this.#running.delete(state.serial);
      if (this.#open.has(previous)) {
        const record = this.#engine.journal.get(previous);
        if (record !== undefined && isFinal(record.state)) this.#finish(previous, Date.parse(record.finishedAt ?? ''));
      }
    }
    if (current !== undefined) this.#running.set(state.serial, current);
  }

  #finish(paymentId: string, endedAt: number): void {
    const open = this.#open.get(paymentId);
    this.#open.delete(paymentId);
    this.#done.add(paymentId);
    if (this.#done.size > MAX_OPEN) this.#done.delete(this.#done.values().next().value!);
    const record = this.#engine.journal.get(paymentId);
    if (open === undefined || record === undefined || !isFinal(record.state)) return;
    const trace = traceOf(record, open, Number.isFinite(endedAt) ? endedAt : Date.now());
    this.#sink.paymentTraced(trace);
  }

  #guard(work: () => void): void {
    if (this.#closed) return;
    try {
      work();
    } catch (error) {
      this.#options.onError?.(error);
    }
  }
}

function traceOf(record: PaymentRecord, open: OpenPayment, endedAt: number): PaymentTrace {
  const created = Date.parse(record.createdAt);
  const startedAt = Math.min(Number.isFinite(created) ? created : open.firstAt, open.firstAt);
  return {
    paymentId: record.id,
    terminal: record.terminal,
    paymentType: record.paymentType,
    source: record.source,
    startedAt,
    endedAt: Math.max(endedAt, startedAt, ...open.steps.map((step) => step.endedAt)),
    state: record.state,
    declineCategory: record.state === 'declined' ? (outcomeOf(record).declineCode ?? 'generic_decline') : null,
    problemCode: record.problem?.code ?? null,
    steps: open.steps.map(({ step, startedAt: from, endedAt: to, completed, endedBy }) => ({
      step,
      startedAt: from,
      endedAt: to,
      completed,
      endedBy,
    })),
  };
}
