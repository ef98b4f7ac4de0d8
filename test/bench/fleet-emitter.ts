/**
 * One simulated checkout of the fleet benchmark (fleet.bench.ts): a prom-client Registry shaped
 * like an agent's — every pinbridge_* series main/metrics exports, with the same names, label
 * names, label values and histogram buckets, plausible values and counters that move as sales go
 * by — pushed by the real telemetry code (main/telemetry: startTelemetry's on-disk queue and
 * pusher, seriesOf, remoteWriteBody).
 *
 * Not a real AgentMetrics: that one is driven by a payment engine's events, and a thousand
 * engines in one process would measure the engines. The shape is checked against main/metrics by
 * test/bench/fleet-emitter.test.ts, so it cannot drift from what an agent exports.
 *
 * The agent's default process metrics (`collectDefaultMetrics` with the pinbridge_ prefix) are
 * registered once, in a registry the emitters share (a thousand event-loop monitors in one
 * process would measure themselves), and each emitter registers those same metric objects: every
 * checkout pushes them, as an agent does.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { DECLINE_CATEGORIES } from '../../main/core/declines.js';
import { CERTIFICATE_NAMES } from '../../main/metrics/certificates.js';
import { PAYMENT_OUTCOMES } from '../../main/metrics/metrics.js';
import { PAYMENT_STEPS } from '../../main/metrics/step-durations.js';

/** main/metrics/metrics.ts's buckets and label values (not exported there: copied, and checked by the spec). */
export const PAYMENT_DURATION_BUCKETS = [2, 5, 10, 15, 20, 30, 45, 60, 90, 120, 300, 600];
export const API_DURATION_BUCKETS = [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];
export const STEP_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 15, 20, 30, 45, 60, 120, 300, 600];
const PAYMENT_TYPES = ['credit', 'debit'] as const;
const PRINT_JOB_STATES = ['queued', 'printing', 'printed', 'failed', 'cancelled'] as const;
/** The API calls a sale makes, by the outcome seen most (the agent labels method and outcome). */
const API_CALLS = [
  { method: 'POST', outcome: 'ok' },
  { method: 'GET', outcome: 'ok' },
  { method: 'POST', outcome: '5xx' },
  { method: 'POST', outcome: 'timeout' },
] as const;

let sharedDefaults: Registry | undefined;

/** The default process metrics, once per process. */
function defaultMetrics(): Registry {
  if (sharedDefaults === undefined) {
    sharedDefaults = new Registry();
    collectDefaultMetrics({ register: sharedDefaults, prefix: 'pinbridge_' });
  }
  return sharedDefaults;
}

/** A deterministic generator (mulberry32): the same seed, the same checkout. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export class FleetEmitter {
  readonly registry = new Registry();
  readonly #random: () => number;
  readonly #payments: Counter<'outcome' | 'payment_type'>;
  readonly #amount: Counter<'payment_type'>;
  readonly #declines: Counter<'category'>;
  readonly #duration: Histogram;
  readonly #steps: Histogram<'step'>;
  readonly #api: Histogram<'method' | 'outcome'>;
  readonly #printJobs: Counter<'state'>;
  readonly #busy: Gauge<'serial'>;
  readonly #serial: string;
  readonly #disk: Gauge;
  /** Its pace: sales per hour of simulated time. */
  readonly salesPerHour: number;
  /** Fractional sales carried to the next advance. */
  #owed = 0;

  /** `seed` makes each checkout's sales its own. */
  constructor(seed: number, salesPerHour = 30) {
    this.salesPerHour = salesPerHour;
    this.#random = random(seed);
    const registers = [this.registry];
    this.#serial = `SIM${String(seed).padStart(7, '0')}`;
    this.#payments = new Counter({
      name: 'pinbridge_payments_total',
      help: 'Payments by outcome and type.',
      labelNames: ['outcome', 'payment_type'],
      registers,
    });
    this.#amount = new Counter({
      name: 'pinbridge_payment_amount_centavos_total',
      help: 'Approved centavos.',
      labelNames: ['payment_type'],
      registers,
    });
    const voids = new Counter({
      name: 'pinbridge_payment_voids_total',
      help: 'Voids.',
      labelNames: ['payment_type'],
      registers,
    });
    const voided = new Counter({
      name: 'pinbridge_payment_voided_amount_centavos_total',
      help: 'Voided centavos.',
      labelNames: ['payment_type'],
      registers,
    });
    for (const paymentType of PAYMENT_TYPES) {
      for (const outcome of PAYMENT_OUTCOMES) this.#payments.inc({ outcome, payment_type: paymentType }, 0);
      this.#amount.inc({ payment_type: paymentType }, 0);
      voids.inc({ payment_type: paymentType }, 0);
      voided.inc({ payment_type: paymentType }, 0);
    }
    this.#declines = new Counter({
      name: 'pinbridge_payment_declines_total',
      help: 'Declines by category.',
      labelNames: ['category'],
      registers,
    });
    for (const category of DECLINE_CATEGORIES) this.#declines.inc({ category }, 0);
    this.#steps = new Histogram({
      name: 'pinbridge_payment_step_duration_seconds',
      help: 'Seconds per step.',
      labelNames: ['step'],
      buckets: STEP_BUCKETS,
      registers,
    });
    for (const step of PAYMENT_STEPS) this.#steps.zero({ step });
    this.#duration = new Histogram({
      name: 'pinbridge_payment_duration_seconds',
      help: 'Seconds per payment.',
      buckets: PAYMENT_DURATION_BUCKETS,
      registers,
    });
    new Gauge({ name: 'pinbridge_payment_undos_pending', help: 'Undos pending.', registers }).set(0);
    new Gauge({ name: 'pinbridge_payment_confirmations_pending', help: 'Confirmations pending.', registers }).set(0);
    new Gauge({ name: 'pinbridge_payments_undecided', help: 'Undecided payments.', registers }).set(0);
    new Gauge({ name: 'pinbridge_payment_undecided_oldest_age_seconds', help: 'Oldest undecided.', registers }).set(0);
    new Gauge({
      name: 'pinbridge_pinpad_up',
      help: 'PINPAD up.',
      labelNames: ['serial', 'model'],
      registers,
    }).set({ serial: this.#serial, model: 'PPC930' }, 1);
    this.#busy = new Gauge({ name: 'pinbridge_pinpad_busy', help: 'PINPAD busy.', labelNames: ['serial'], registers });
    this.#busy.set({ serial: this.#serial }, 0);
    new Counter({
      name: 'pinbridge_pinpad_disconnects_total',
      help: 'PINPAD disconnects.',
      labelNames: ['serial'],
      registers,
    }).inc({ serial: this.#serial }, 0);
    this.#api = new Histogram({
      name: 'pinbridge_api_request_duration_seconds',
      help: 'API seconds.',
      labelNames: ['method', 'outcome'],
      buckets: API_DURATION_BUCKETS,
      registers,
    });
    for (const call of API_CALLS) this.#api.zero(call);
    new Gauge({ name: 'pinbridge_api_up', help: 'API up.', registers }).set(1);
    new Counter({ name: 'pinbridge_api_outages_total', help: 'API outages.', registers }).inc(0);
    this.#printJobs = new Counter({
      name: 'pinbridge_print_jobs_total',
      help: 'Print jobs.',
      labelNames: ['state'],
      registers,
    });
    for (const state of PRINT_JOB_STATES) this.#printJobs.inc({ state }, 0);
    new Gauge({ name: 'pinbridge_pos_sessions', help: 'POS sessions.', registers }).set(1);
    this.#disk = new Gauge({ name: 'pinbridge_disk_free_bytes', help: 'Free bytes.', registers });
    this.#disk.set(40e9 + this.#random() * 80e9);
    new Gauge({ name: 'pinbridge_journal_reserve_bytes', help: 'Reserve bytes.', registers }).set(64 * 1024 * 1024);
    const expiry = new Gauge({
      name: 'pinbridge_certificate_expiry_timestamp_seconds',
      help: 'Certificate notAfter.',
      labelNames: ['certificate'],
      registers,
    });
    for (const certificate of CERTIFICATE_NAMES)
      expiry.set(
        { certificate },
        Math.floor(Date.now() / 1000) + 30 * 86_400 + Math.floor(this.#random() * 300 * 86_400),
      );
    new Gauge({ name: 'pinbridge_info', help: 'Version and mode.', labelNames: ['version', 'mode'], registers }).set(
      { version: '0.1.0', mode: 'live' },
      1,
    );
    const defaults = defaultMetrics();
    for (const { name } of defaults.getMetricsAsArray()) this.registry.registerMetric(defaults.getSingleMetric(name)!);
  }

  /** The sales `seconds` of this checkout's life bring (at its pace), counted as the agent counts them. */
  advance(seconds: number): void {
    this.#owed += (seconds * this.salesPerHour) / 3600;
    const next = this.#random;
    for (; this.#owed >= 1; this.#owed -= 1) {
      const paymentType = next() < 0.6 ? 'credit' : 'debit';
      const roll = next();
      const outcome = roll < 0.9 ? 'approved' : roll < 0.97 ? 'declined' : roll < 0.99 ? 'cancelled' : 'failed';
      this.#payments.inc({ outcome, payment_type: paymentType });
      if (outcome === 'approved') this.#amount.inc({ payment_type: paymentType }, 500 + Math.floor(next() * 30_000));
      if (outcome === 'declined')
        this.#declines.inc({ category: DECLINE_CATEGORIES[Math.floor(next() * DECLINE_CATEGORIES.length)]! });
      const readCard = 3 + next() * 20;
      const authorize = 0.4 + next() * 2;
      this.#steps.observe({ step: 'create_transaction' }, 0.05 + next() * 0.3);
      this.#steps.observe({ step: 'read_card' }, readCard);
      this.#steps.observe({ step: 'authorize' }, authorize);
      this.#steps.observe({ step: 'confirm' }, 0.05 + next() * 0.2);
      this.#duration.observe(readCard + authorize + 1);
      this.#api.observe({ method: 'POST', outcome: 'ok' }, authorize);
      this.#api.observe({ method: 'GET', outcome: 'ok' }, 0.03 + next() * 0.2);
      if (next() < 0.02) this.#api.observe({ method: 'POST', outcome: '5xx' }, 0.1 + next());
      this.#printJobs.inc({ state: 'printed' });
    }
    this.#busy.set({ serial: this.#serial }, next() < 0.3 ? 1 : 0);
    this.#disk.dec(seconds * 2_000);
  }
}
