/**
 * The agent's Prometheus metrics: payments by outcome and decline category, each sale step's
 * time, undecided payments, PINPADs up and busy, the payments API's latency and health, print
 * jobs, POS sessions, the journal's disk, certificates' expiry, the agent's version and mode, and
 * Node's process metrics — so a store chain can watch every checkout with the monitoring it
 * already runs (docs/metrics.md lists them).
 *
 * `AgentMetrics` keeps its own registry (never prom-client's global one) and is fed by plain
 * sources: the payment engine's events and journal, the PINPAD registry, the API health monitor,
 * the print queue, the journal's room, the certificates, and `recordApiAttempt` (given to the
 * payments client as its `onAttempt`). Gauges that describe "now" (PINPAD up, busy, API up,
 * sessions, pending undos, undecided payments, disk) are read at scrape time, so they cannot
 * drift from the truth; counters and histograms are fed by events as they happen. The smaller
 * families live in modules of their own beside this one (step-durations.ts, undecided.ts,
 * disk.ts, certificates.ts).
 *
 * Labels never hold card data, reference ids, payment or transaction ids, or API paths (they
 * hold ids): only closed sets (outcome, payment type, decline category, step, HTTP method and
 * status class, job state, certificate) and the PINPADs' serial numbers and models, a handful
 * per checkout.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ApiHealthMonitor, ApiHealthSnapshot } from '../api/health.js';
import type { AttemptReport } from '../api/http.js';
import type { PaymentEngine, TerminalState } from '../core/engine.js';
import type { PaymentProgress } from '../core/events.js';
import type { PaymentRecord, PaymentType } from '../core/journal/record.js';
import type { PinpadEntry, PinpadRegistry } from '../pinpad/registry.js';
import { isFinal, type PaymentState } from '../core/states.js';
import type { PrintJob, PrintJobState } from '../receipts/print-jobs.js';
import type { PrintQueue } from '../receipts/print-queue.js';
import { DECLINE_CATEGORIES, type DeclineCategory } from '../core/declines.js';
import { outcomeOf } from '../core/outcome.js';
import { registerCertificateGauge, type CertificatesSource } from './certificates.js';
import { registerDiskGauges, type DiskSource } from './disk.js';
import { OptionalGauge } from './optional-gauge.js';
import { StepDurations } from './step-durations.js';
import { registerUndecidedGauges } from './undecided.js';

/** The engine as the metrics read it: its events, its PINPADs and its journal. */
export type MetricsEngine = Pick<PaymentEngine, 'on' | 'off' | 'terminals' | 'journal'>;
export type MetricsPinpads = Pick<PinpadRegistry, 'on' | 'off' | 'list'>;
export type MetricsApiHealth = Pick<ApiHealthMonitor, 'on' | 'off' | 'snapshot'>;
export type MetricsPrintQueue = Pick<PrintQueue, 'on' | 'off'>;

/** Where the metrics' own troubles go (a pino logger fits); never a payment's. */
export interface MetricsLogger {
  warn(obj: Record<string, unknown>, msg: string): void;
}

export interface AgentMetricsSources {
  readonly engine: MetricsEngine;
  readonly pinpads: MetricsPinpads;
  readonly apiHealth: MetricsApiHealth;
  /** Absent when no printer is configured: `pinbridge_print_jobs_total` is then not exposed. */
  readonly printQueue?: MetricsPrintQueue | undefined;
  /** The POS sessions connected now; absent: `pinbridge_pos_sessions` is not exposed. */
  readonly posSessions?: (() => number) | undefined;
  /** The journal's room (Journal.room fits); absent: the disk and reserve gauges are not exposed. */
  readonly disk?: DiskSource | undefined;
  /** The certificates the agent presents; absent (or an empty list): no certificate series. */
  readonly certificates?: CertificatesSource | undefined;
  readonly mode: 'training' | 'live';
  readonly version: string;
  /** The clock of the undecided payments' age (tests give their own). Default Date.now. */
  readonly now?: (() => number) | undefined;
  readonly logger?: MetricsLogger | undefined;
}

/** How a payment ended, as `pinbridge_payments_total` counts it (one per payment). */
export const PAYMENT_OUTCOMES = ['approved', 'declined', 'reversed', 'cancelled', 'failed', 'voided'] as const;
export type PaymentOutcomeLabel = (typeof PAYMENT_OUTCOMES)[number];

const PAYMENT_TYPES: readonly PaymentType[] = ['credit', 'debit'];
const PRINT_JOB_STATES: readonly PrintJobState[] = ['queued', 'printing', 'printed', 'failed', 'cancelled'];
const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PATCH', 'DELETE']);

/**
 * The final state a payment reaches, and the outcome it counts as. `undone` is `voided` only for
 * an approval never confirmed (the POS undid it, or its confirmation deadline passed); a
 * confirmed sale voided later stays `approved` and counts in `pinbridge_payment_voids_total`.
 */
const OUTCOME_OF_FINAL_STATE: Readonly<Partial<Record<PaymentState, PaymentOutcomeLabel>>> = {
  confirmed: 'approved',
  declined: 'declined',
  reversed: 'reversed',
  cancelled: 'cancelled',
  failed: 'failed',
  undone: 'voided',
};

/**
 * Seconds from the intent to the outcome: a checkout takes tens of seconds (card, PIN, the
 * issuer); an approval under the `pos` policy counts until the POS confirms it (default
 * deadline 10 minutes).
 */
const PAYMENT_DURATION_BUCKETS = [2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 300, 600];
/** Seconds per API attempt: most answer in well under a second; authorizations wait for the issuer. */
const API_DURATION_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];

/**
 * The `outcome` label of one API attempt: `ok`, the HTTP status class of a refusal (`4xx`,
 * `5xx`), or the client's error code when no usable answer came (`timeout`,
 * `connection_error`, `invalid_response`…). Never the path: it holds ids.
 */
export function apiAttemptOutcome(report: Pick<AttemptReport, 'ok' | 'status' | 'code'>): string {
  if (report.ok) return 'ok';
  const status = report.status;
  if (status !== null && Number.isInteger(status) && status >= 300 && status <= 599)
    return `${Math.floor(status / 100)}xx`;
  // The client's codes are a closed set of snake_case words; anything else is not a label value.
  return report.code !== null && /^[a-z][a-z_]{0,39}$/.test(report.code) ? report.code : 'error';
}

export class AgentMetrics {
  readonly registry: Registry;
  readonly #sources: AgentMetricsSources;
  readonly #payments: Counter<'outcome' | 'payment_type'>;
  readonly #approvedAmount: Counter<'payment_type'>;
  readonly #voids: Counter<'payment_type'>;
  readonly #voidedAmount: Counter<'payment_type'>;
  readonly #paymentDuration: Histogram;
  readonly #declines: Counter<'category'>;
  readonly #steps: StepDurations;
  readonly #pinpadDisconnects: Counter<'serial'>;
  readonly #apiDuration: Histogram<'method' | 'outcome'>;
  readonly #apiOutages: Counter;
  /** The payment each PINPAD runs now, by serial (from the engine's `terminal` events). */
  readonly #running = new Map<string, string>();
  /** Payments of a live run whose outcome was already counted from a progress event. */
  readonly #countedInRun = new Set<string>();
  readonly #unsubscribe: Array<() => void> = [];
  #closed = false;

  constructor(sources: AgentMetricsSources) {
    this.#sources = sources;
    const registry = new Registry();
    this.registry = registry;
    const registers = [registry];
    const { engine, pinpads, apiHealth } = sources;
    const guard = <T>(what: string, work: () => T): T | undefined => this.#guard(what, work);

    // --- Payments -------------------------------------------------------------------------------
    this.#payments = new Counter({
      name: 'pinbridge_payments_total',
      help:
        'PINPAD payments by final outcome, counted once per payment when it reaches its final state: approved (the sale stands: ' +
        'confirmed), declined (by the issuer or the card), reversed (approved, then reversed: nothing charged), cancelled, ' +
        'failed, voided (approved but undone before it was confirmed).',
      labelNames: ['outcome', 'payment_type'],
      registers,
    });
    this.#approvedAmount = new Counter({
      name: 'pinbridge_payment_amount_centavos_total',
      help: 'Amount of the approved payments (outcome="approved"), in integer centavos (BRL).',
      labelNames: ['payment_type'],
      registers,
    });
    this.#voids = new Counter({
      name: 'pinbridge_payment_voids_total',
      help: 'Confirmed sales voided afterwards (they stay counted as approved in pinbridge_payments_total).',
      labelNames: ['payment_type'],
      registers,
    });
    this.#voidedAmount = new Counter({
      name: 'pinbridge_payment_voided_amount_centavos_total',
      help: 'Amount of the confirmed sales voided afterwards, in integer centavos (BRL); net sales = approved amount minus this.',
      labelNames: ['payment_type'],
      registers,
    });
    // Every series from the start, so rate() and absence alerts work before the first sale.
    for (const paymentType of PAYMENT_TYPES) {
      for (const outcome of PAYMENT_OUTCOMES) this.#payments.inc({ outcome, payment_type: paymentType }, 0);
      this.#approvedAmount.inc({ payment_type: paymentType }, 0);
      this.#voids.inc({ payment_type: paymentType }, 0);
      this.#voidedAmount.inc({ payment_type: paymentType }, 0);
    }
    this.#declines = new Counter({
      name: 'pinbridge_payment_declines_total',
      help:
        "Declined payments by the core's decline category (insufficient_funds, incorrect_pin, expired_card, do_not_honor…; " +
        'generic_decline when the issuer gave no known reason or the chip declined offline); they sum to ' +
        'pinbridge_payments_total{outcome="declined"}.',
      labelNames: ['category'],
      registers,
    });
    for (const category of DECLINE_CATEGORIES) this.#declines.inc({ category }, 0);
    this.#steps = new StepDurations(registers);
    this.#paymentDuration = new Histogram({
      name: 'pinbridge_payment_duration_seconds',
      help: 'Seconds from a payment\'s start (its intent journaled) to its final outcome; an approval under the "pos" confirmation policy ends when the POS confirms it.',
      buckets: PAYMENT_DURATION_BUCKETS,
      registers,
    });
    new OptionalGauge(
      {
        name: 'pinbridge_payment_undos_pending',
        help: 'Payments whose cancel, reversal or void has not reached the payments API yet (retried until it lands); staying above 0 means a customer may see a hold on the card.',
        registers,
      },
      () => this.#guard('pending undos', () => engine.journal.pendingUndos().length),
    );
    new OptionalGauge(
      {
        name: 'pinbridge_payment_confirmations_pending',
        help: 'Approved payments waiting for the POS to confirm them ("pos" confirmation policy); voided at their deadline.',
        registers,
      },
      () => this.#guard('pending confirmations', () => engine.journal.pendingConfirmations().length),
    );

    registerUndecidedGauges(registers, engine.journal, guard, sources.now ?? Date.now);

    // --- PINPADs --------------------------------------------------------------------------------
    const pinpadUp = new Gauge({
      name: 'pinbridge_pinpad_up',
      help: 'Whether each known PINPAD is connected (1) or was seen and is now disconnected (0).',
      labelNames: ['serial', 'model'],
      registers,
      collect: () => {
        pinpadUp.reset();
        for (const entry of this.#pinpadList())
          pinpadUp.set({ serial: entry.serialNumber, model: entry.model }, entry.connected ? 1 : 0);
      },
    });
    const pinpadBusy = new Gauge({
      name: 'pinbridge_pinpad_busy',
      help: 'Whether each known PINPAD is running a payment or another operation (1) or is free (0).',
      labelNames: ['serial'],
      registers,
      collect: () => {
        pinpadBusy.reset();
        for (const entry of this.#pinpadList()) pinpadBusy.set({ serial: entry.serialNumber }, entry.busy ? 1 : 0);
      },
    });
    this.#pinpadDisconnects = new Counter({
      name: 'pinbridge_pinpad_disconnects_total',
      help: 'Times each PINPAD went away (unplugged, out of range, powered off) while the agent ran.',
      labelNames: ['serial'],
      registers,
    });

    // --- Payments API ---------------------------------------------------------------------------
    this.#apiDuration = new Histogram({
      name: 'pinbridge_api_request_duration_seconds',
      help:
        'Seconds per payments API attempt (each retry is an attempt), by HTTP method and outcome: ok, the status class of a ' +
        "refusal (4xx, 5xx), or the client's error code when no usable answer came (timeout, connection_error, invalid_response).",
      labelNames: ['method', 'outcome'],
      buckets: API_DURATION_BUCKETS,
      registers,
    });
    new OptionalGauge(
      {
        name: 'pinbridge_api_up',
        help: 'Whether the payments API answered the last attempt (1: any answer below 500) or not (0: no answer, a timeout or a 5xx); no sample until the first attempt (unknown).',
        registers,
      },
      () => {
        const state = this.#guard<ApiHealthSnapshot['state']>('api health', () => apiHealth.snapshot().state);
        return state === 'up' ? 1 : state === 'down' ? 0 : undefined;
      },
    );
    this.#apiOutages = new Counter({
      name: 'pinbridge_api_outages_total',
      help: 'Times the payments API went from reachable (or unknown) to unreachable: counts outages shorter than a scrape interval too.',
      registers,
    });
    const onApiChange = (snapshot: ApiHealthSnapshot): void => {
      if (snapshot.state === 'down') this.#apiOutages.inc();
    };
    apiHealth.on('change', onApiChange);
    this.#unsubscribe.push(() => apiHealth.off('change', onApiChange));

    // --- Receipts, POS, agent ------------------------------------------------------------------
    if (sources.printQueue !== undefined) {
      const queue = sources.printQueue;
      const printJobs = new Counter({
        name: 'pinbridge_print_jobs_total',
        help:
          'Print job state changes, by the state entered: queued (a new job, one asked for again, or one waiting for another attempt after ' +
          'the printer refused it), printing (an attempt started), printed, failed (given up after the last attempt), cancelled.',
        labelNames: ['state'],
        registers,
      });
      for (const state of PRINT_JOB_STATES) printJobs.inc({ state }, 0);
      const onJob = (job: PrintJob): void => {
        if ((PRINT_JOB_STATES as readonly string[]).includes(job.state)) printJobs.inc({ state: job.state });
      };
      queue.on('job', onJob);
      this.#unsubscribe.push(() => queue.off('job', onJob));
    }
    if (sources.posSessions !== undefined) {
      const sessions = sources.posSessions;
      new OptionalGauge(
        { name: 'pinbridge_pos_sessions', help: 'POS connections open on the local WebSocket API now.', registers },
        () => this.#guard('pos sessions', sessions),
      );
    }
    if (sources.disk !== undefined) registerDiskGauges(registers, sources.disk, guard);
    if (sources.certificates !== undefined) registerCertificateGauge(registers, sources.certificates, guard);
    new Gauge({
      name: 'pinbridge_info',
      help: "The agent's version and mode (training: embedded sandbox and simulated PINPAD; live: the real payments API); always 1.",
      labelNames: ['version', 'mode'],
      registers,
    }).set({ version: sources.version, mode: sources.mode }, 1);
    collectDefaultMetrics({ register: registry, prefix: 'pinbridge_' });

    // --- Engine and PINPAD events ------------------------------------------------------------------
    const onProgress = (event: PaymentProgress): void => {
      this.#guard('payment progress', () => this.#progress(event));
      this.#guard('payment step', () => this.#steps.progress(event));
    };
    const onTerminal = (state: TerminalState): void => {
      this.#guard('terminal state', () => this.#terminal(state));
    };
    engine.on('progress', onProgress);
    engine.on('terminal', onTerminal);
    this.#unsubscribe.push(
      () => engine.off('progress', onProgress),
      () => engine.off('terminal', onTerminal),
    );
    // Payments running when the metrics start: their run's end is watched like any other.
    for (const terminal of engine.terminals())
      if (terminal.payment !== null) this.#running.set(terminal.serial, terminal.payment.id);
    const onDisconnected = (entry: PinpadEntry): void => {
      this.#pinpadDisconnects.inc({ serial: entry.serialNumber });
    };
    pinpads.on('disconnected', onDisconnected);
    this.#unsubscribe.push(() => pinpads.off('disconnected', onDisconnected));
  }

  /** The exposition's content type (Prometheus text format 0.0.4). */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text, for a scrape. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /**
   * One payments API attempt (pass as the client's `onAttempt`, beside the health monitor's
   * `record`). Bound, so it can be passed as it is; never throws.
   */
  readonly recordApiAttempt = (report: AttemptReport): void => {
    if (this.#closed) return;
    this.#guard('api attempt', () => {
      const method = HTTP_METHODS.has(report.method) ? report.method : 'OTHER';
      const seconds = Number.isFinite(report.durationMs) ? Math.max(0, report.durationMs) / 1000 : 0;
      this.#apiDuration.observe({ method, outcome: apiAttemptOutcome(report) }, seconds);
    });
  };

  /**
   * Stops listening to every source. The registry keeps its last values (a final scrape still
   * reads them); Node's GC and event-loop observers of the process metrics live as long as the
   * process (prom-client gives no way to stop them).
   */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
    this.#running.clear();
    this.#countedInRun.clear();
    this.#steps.clear();
  }

  // ----------------------------------------------------------------------------------------------

  /**
   * A final progress event counts its payment. Its step names the state it announces (the
   * final states and their steps share names); a PINPAD message relayed after the payment ended
   * carries a final state too, under another step, and is not an outcome.
   */
  #progress(event: PaymentProgress): void {
    if (!isFinal(event.state) || event.step !== event.state) return;
    if ([...this.#running.values()].includes(event.paymentId)) this.#countedInRun.add(event.paymentId);
    const record = this.#sources.engine.journal.get(event.paymentId);
    if (record !== undefined) this.#count(record, event.state, event.at);
  }

  /**
   * The engine says which payment each PINPAD runs. When a run ends, a payment that reached its
   * final state without a final progress event (the API refused the transaction; a cancel
   * before any transaction existed) is counted from the journal.
   */
  #terminal(state: TerminalState): void {
    const previous = this.#running.get(state.serial);
    const current = state.payment?.id;
    if (previous !== undefined && previous !== current) {
      this.#running.delete(state.serial);
      if (!this.#countedInRun.delete(previous)) {
        const record = this.#sources.engine.journal.get(previous);
        if (record !== undefined && isFinal(record.state)) this.#count(record, record.state, record.finishedAt);
      }
    }
    if (current !== undefined) this.#running.set(state.serial, current);
  }

  #count(record: PaymentRecord, finalState: PaymentState, endedAt: string | null): void {
    const outcome = OUTCOME_OF_FINAL_STATE[finalState];
    if (outcome === undefined) return;
    const paymentType = record.paymentType;
    if (outcome === 'voided' && this.#wasConfirmed(record.id)) {
      // Already counted as approved when it was confirmed (in this run of the agent or an earlier one).
      this.#voids.inc({ payment_type: paymentType });
      this.#voidedAmount.inc({ payment_type: paymentType }, record.amount);
      return;
    }
    this.#payments.inc({ outcome, payment_type: paymentType });
    if (outcome === 'declined') this.#declines.inc({ category: declineCategoryOf(record) });
    if (outcome === 'approved') this.#approvedAmount.inc({ payment_type: paymentType }, record.amount);
    const seconds = (Date.parse(endedAt ?? '') - Date.parse(record.createdAt)) / 1000;
    if (Number.isFinite(seconds)) this.#paymentDuration.observe(Math.max(0, seconds));
  }

  #wasConfirmed(paymentId: string): boolean {
    return this.#sources.engine.journal.events(paymentId).some((event) => event.to === 'confirmed');
  }

  #pinpadList(): PinpadEntry[] {
    return this.#guard('pinpad list', () => this.#sources.pinpads.list()) ?? [];
  }

  /**
   * Runs a piece of bookkeeping: a metrics bug (or a journal closed under a scrape) is logged,
   * never thrown into the engine's event emission or a scrape.
   */
  #guard<T>(what: string, work: () => T): T | undefined {
    try {
      return work();
    } catch (error) {
      this.#sources.logger?.warn(
        { metric: what, err: error instanceof Error ? error.message : String(error) },
        'metrics: could not read a source',
      );
      return undefined;
    }
  }
}

/**
 * The decline category of a declined payment, as the POS is told it (core/outcome.ts
 * `declineCode`); a decline with no issuer answer (the chip declined offline) is generic_decline.
 */
function declineCategoryOf(record: PaymentRecord): DeclineCategory {
  return outcomeOf(record).declineCode ?? 'generic_decline';
}
