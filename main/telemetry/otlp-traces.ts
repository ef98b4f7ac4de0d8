/**
 * The payment traces as OTLP spans: the core's PaymentTraceSink (core/payment-traces.ts), kept
 * in memory until the pusher's next round turns them into one `/v1/traces` batch (so a sale's
 * end costs a few objects, never a write or a request).
 *
 * A trace is a root span `payment` from the intent to the final state, and one child span per
 * step (`create_transaction`, `read_card`, `authorize`, `confirm`) with the step's own times. Ids
 * are random (never derived from the payment's): the agent logs which payment got which trace id
 * (info, on its own log), so support can go from a support bundle to the trace and back, and
 * nothing in the trace names the sale.
 *
 * Attributes — what a chain filters and groups by:
 *   payment: pinbridge.payment.type (credit, debit), .source (pos, remote), .state (the final
 *            state: confirmed, declined, cancelled, failed, reversed, undone), .decline_category
 *            (declined only), .problem (the journal problem's code: PINPAD_TIMEOUT,
 *            API_UNAVAILABLE…); status ERROR when it failed
 *   step:    pinbridge.step.completed (false: the payment left it by a cancel or a failure),
 *            pinbridge.step.ended_by (the progress step that ended it)
 * Never the card, the CPF, the amount, the POS's reference or the transaction id: a chain's
 * tracing backend is no place for a customer's data, and a trace needs none of them to show a
 * slow or failing step.
 */
import { randomBytes } from 'node:crypto';
import type { PaymentTrace, PaymentTraceSink } from '../core/payment-traces.js';
import { resourceOf, scopeOf, type OtlpIdentity } from './otlp-resource.js';
import {
  encodeTraceRequest,
  keyValues,
  SPAN_KIND_INTERNAL,
  STATUS_CODE_ERROR,
  unixNanos,
  type OtlpSpan,
  type ResourceSpansInput,
} from './otlp-wire.js';

export interface TraceLogger {
  info(obj: Record<string, unknown>, msg: string): void;
}

export interface PaymentSpansOptions {
  readonly identity: OtlpIdentity;
  /** Traces kept in memory between two batches at most; past it the oldest is dropped (default 1000). */
  readonly maxPending?: number | undefined;
  /** Told of each trace dropped from memory unsent. */
  readonly onDrop?: (() => void) | undefined;
  readonly logger?: TraceLogger | undefined;
}

/** The states a payment fails in: its span's status is ERROR. */
const FAILED_STATES: ReadonlySet<string> = new Set(['failed']);

export class PaymentSpans implements PaymentTraceSink {
  readonly #options: PaymentSpansOptions;
  #pending: OtlpSpanGroup[] = [];

  constructor(options: PaymentSpansOptions) {
    this.#options = options;
  }

  /** Traces waiting for the next batch. */
  get pending(): number {
    return this.#pending.length;
  }

  /** The port: a payment ended. Cheap and never throws past the recorder (which catches anyway). */
  paymentTraced(trace: PaymentTrace): void {
    const traceId = randomBytes(16);
    const spans = spansOf(trace, traceId);
    this.#pending.push({ terminal: trace.terminal, spans });
    const max = this.#options.maxPending ?? 1_000;
    while (this.#pending.length > max) {
      this.#pending.shift();
      this.#options.onDrop?.();
    }
    this.#options.logger?.info(
      { payment: trace.paymentId, trace_id: traceId.toString('hex') },
      'payment traced (sent by OTLP with the next batch)',
    );
  }

  /** The pending traces as one /v1/traces body (grouped by PINPAD), or undefined when none waits. */
  take(): Uint8Array | undefined {
    if (this.#pending.length === 0) return undefined;
    const byTerminal = new Map<string, OtlpSpan[]>();
    for (const group of this.#pending) {
      const list = byTerminal.get(group.terminal) ?? [];
      list.push(...group.spans);
      byTerminal.set(group.terminal, list);
    }
    this.#pending = [];
    const { identity } = this.#options;
    const groups: ResourceSpansInput[] = [...byTerminal].map(([terminal, spans]) => ({
      resource: resourceOf(identity, [terminal]),
      scope: scopeOf(identity),
      spans,
    }));
    return encodeTraceRequest(groups);
  }
}

interface OtlpSpanGroup {
  readonly terminal: string;
  readonly spans: readonly OtlpSpan[];
}

/** The root span and its step spans. */
export function spansOf(trace: PaymentTrace, traceId: Uint8Array): OtlpSpan[] {
  const rootId = randomBytes(8);
  const failed = FAILED_STATES.has(trace.state);
  const root: OtlpSpan = {
    traceId,
    spanId: rootId,
    name: 'payment',
    kind: SPAN_KIND_INTERNAL,
    startTimeUnixNano: unixNanos(trace.startedAt),
    endTimeUnixNano: unixNanos(trace.endedAt),
    attributes: keyValues({
      'pinbridge.payment.type': trace.paymentType,
      'pinbridge.payment.source': trace.source,
      'pinbridge.payment.state': trace.state,
      'pinbridge.payment.decline_category': trace.declineCategory ?? undefined,
      'pinbridge.payment.problem': trace.problemCode ?? undefined,
    }),
    status: failed ? { code: STATUS_CODE_ERROR, message: trace.problemCode ?? 'failed' } : undefined,
  };
  const steps = trace.steps.map((step): OtlpSpan => ({
    traceId,
    spanId: randomBytes(8),
    parentSpanId: rootId,
    name: step.step,
    kind: SPAN_KIND_INTERNAL,
    startTimeUnixNano: unixNanos(step.startedAt),
    endTimeUnixNano: unixNanos(step.endedAt),
    attributes: keyValues({ 'pinbridge.step.completed': step.completed, 'pinbridge.step.ended_by': step.endedBy }),
    status: !step.completed && failed ? { code: STATUS_CODE_ERROR, message: step.endedBy } : undefined,
  }));
  return [root, ...steps];
}
