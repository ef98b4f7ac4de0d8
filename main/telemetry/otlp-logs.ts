/**
 * The agent's warning and error lines as OTLP log records. The logger hands each line to
 * `write` (a pino stream added beside the log's own: main/log.ts teeLogLines) after its masking —
 * card data is already masked in the line it gets — and the line is only kept, as text, in a
 * bounded buffer: parsing and encoding happen on the pusher's round, never in the caller of
 * `logger.warn` (a payment's code among them).
 *
 * Each record: the line's time, its severity (pino's warn → WARN, error → ERROR, fatal → FATAL),
 * its message as the body, and its fields as attributes (objects as JSON text). On the way every
 * text goes through `mask` (the agent passes the support bundle's: card data, then CPFs), and
 * fields that name a sale at the provider or a person are left out (FIELDS_LEFT_OUT). The
 * computer's host name and process id are left out too: the resource says which checkout it is.
 *
 * The pushers' lines about the log push itself (`pushing: "OTLP logs"`) are not sent by it: while
 * the receiver refuses the logs, each such line would make the next batch, refused in turn, and
 * so on every interval. The metrics' and traces' push troubles are sent like any warning.
 */
import { resourceOf, scopeOf, type OtlpIdentity } from './otlp-resource.js';
import {
  encodeLogsRequest,
  keyValues,
  SEVERITY_ERROR,
  SEVERITY_FATAL,
  SEVERITY_WARN,
  textValue,
  unixNanos,
  type AttributeValue,
  type OtlpLogRecord,
} from './otlp-wire.js';

/**
 * Fields never sent: pino's own (the host name and pid say nothing a chain needs; time, level and
 * msg become the record's own fields), and ids of a sale at the provider or of a customer — the
 * journal's payment id stays, the link to the agent's own log and support bundle.
 */
const FIELDS_LEFT_OUT: ReadonlySet<string> = new Set([
  'hostname',
  'pid',
  'time',
  'level',
  'msg',
  'reference',
  'referenceId',
  'reference_id',
  'transaction',
  'transactionId',
  'transaction_id',
  'nsu',
  'authorizationCode',
  'authorization_code',
  'customerTaxId',
  'taxId',
  'tax_id',
  'cpf',
]);

/** The `pushing` field of the log pusher's own lines (otlp-exporter.ts names it so). */
export const OWN_PUSHER = 'OTLP logs';

/** Characters of one attribute or message at most (a stack trace is cut). */
const MAX_TEXT = 4_000;

export interface LogLinesOptions {
  readonly identity: OtlpIdentity;
  /** The lowest pino level sent (40 warn, 50 error). */
  readonly minLevel: number;
  /** Card data and CPFs masked out of a text (the agent passes main/support/mask.ts's). */
  readonly mask: (text: string) => string;
  /** The PINPADs attached now, for the resource. */
  readonly pinpads?: (() => readonly string[]) | undefined;
  /** Lines kept between two batches at most; past it the oldest is dropped (default 1000). */
  readonly maxPending?: number | undefined;
  readonly onDrop?: (() => void) | undefined;
  readonly now?: (() => number) | undefined;
}

export class LogLines {
  readonly #options: LogLinesOptions;
  #pending: Array<{ readonly line: string; readonly observedAt: number }> = [];

  constructor(options: LogLinesOptions) {
    this.#options = options;
  }

  get pending(): number {
    return this.#pending.length;
  }

  /** A pino stream's write: one JSON line. Keeps it for the next batch; nothing else. */
  write(line: string): void {
    this.#pending.push({ line, observedAt: (this.#options.now ?? Date.now)() });
    const max = this.#options.maxPending ?? 1_000;
    while (this.#pending.length > max) {
      this.#pending.shift();
      this.#options.onDrop?.();
    }
  }

  /** The pending lines as one /v1/logs body, or undefined when none waits. */
  take(): Uint8Array | undefined {
    const lines = this.#pending;
    this.#pending = [];
    const records: OtlpLogRecord[] = [];
    for (const { line, observedAt } of lines) {
      const record = this.#recordOf(line, observedAt);
      if (record !== undefined) records.push(record);
    }
    if (records.length === 0) return undefined;
    const { identity } = this.#options;
    let pinpads: readonly string[] = [];
    try {
      pinpads = this.#options.pinpads?.() ?? [];
    } catch {
      // The PINPAD list is a nicety of the resource: the records go without it.
    }
    return encodeLogsRequest([{ resource: resourceOf(identity, pinpads), scope: scopeOf(identity), records }]);
  }

  #recordOf(line: string, observedAt: number): OtlpLogRecord | undefined {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return undefined; // Not a JSON line (a pretty-printed stream): nothing to read fields from.
    }
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const fields = parsed as Record<string, unknown>;
    const level = typeof fields.level === 'number' ? fields.level : 0;
    if (level < this.#options.minLevel || fields.pushing === OWN_PUSHER) return undefined;
    const time = typeof fields.time === 'number' ? fields.time : observedAt;
    const { mask } = this.#options;
    const attributes: Record<string, AttributeValue> = {};
    for (const [key, value] of Object.entries(fields)) {
      if (FIELDS_LEFT_OUT.has(key) || value === null || value === undefined) continue;
      const name = key === 'name' ? 'pinbridge.logger' : key;
      if (typeof value === 'number' || typeof value === 'boolean') attributes[name] = value;
      else attributes[name] = mask(clip(typeof value === 'string' ? value : JSON.stringify(value)));
    }
    const [severityNumber, severityText] =
      level >= 60 ? [SEVERITY_FATAL, 'FATAL'] : level >= 50 ? [SEVERITY_ERROR, 'ERROR'] : [SEVERITY_WARN, 'WARN'];
    return {
      timeUnixNano: unixNanos(time),
      observedTimeUnixNano: unixNanos(observedAt),
      severityNumber,
      severityText,
      body: textValue(mask(clip(typeof fields.msg === 'string' ? fields.msg : ''))),
      attributes: keyValues(attributes),
    };
  }
}

const clip = (text: string): string => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text);
