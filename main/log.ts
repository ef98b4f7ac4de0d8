/**
 * The agent's structured logger (pino). Logs go to stderr so that stdout stays free for the
 * CLI's machine-readable output. Level from PINBRIDGE_LOG_LEVEL (default "info"; the CLI's
 * one-shot commands default to "warn").
 *
 * Bounded whatever happens: a line repeated over and over (a PINPAD answering the wrong command,
 * a port that is not there) is written once a minute with a count of the repeats in between, and
 * a log file is moved aside to `<file>.1` whenever it passes LOG_ROTATE_BYTES — not only at start.
 * A condition that lasts (a missing PINPAD, ports that cannot be listed) is better written once
 * when it starts and once when it ends: LoggedCondition.
 *
 * On stderr the lines are JSON for a program reading them (a supervisor, a pipe, a file) and
 * readable text (pino-pretty) when a person watches a terminal; PINBRIDGE_LOG_FORMAT=json|pretty
 * forces either. Log files are always JSON: the window's log export and support read them.
 *
 * Card data that reaches a line anyway is masked as the line is written (maskCardDataInLine).
 */
import { closeSync, fstatSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  destination,
  multistream,
  pino,
  type DestinationStream,
  type Level,
  type Logger,
  type LoggerOptions,
} from 'pino';
import pinoPretty from 'pino-pretty';
import { cardDataIn, maskCardData } from '../drivers/card-number.js';

export type { Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A log file past this size is moved to `<file>.1` (one old file is kept): at start and while running. */
export const LOG_ROTATE_BYTES = 5 * 1024 * 1024;
/** How long a run of identical lines is folded into one count before the line is written again. */
export const REPEAT_WINDOW_MS = 60_000;
/** Fields that differ between otherwise identical lines (timings, attempt numbers). */
const VOLATILE_FIELDS = new Set(['durationMs', 'attempt', 'retryInMs', 'elapsedMs']);

/**
 * A log file written synchronously (a crash loses no line) and moved aside to `<file>.1` once it
 * passes `maxBytes`. Written by hand: pino-roll builds its stream asynchronously, and the
 * logger is made synchronously everywhere it is needed.
 */
export class RotatingFile implements DestinationStream {
  readonly #path: string;
  readonly #maxBytes: number;
  #fd: number;
  #size: number;

  constructor(path: string, maxBytes = LOG_ROTATE_BYTES) {
    this.#path = path;
    this.#maxBytes = maxBytes;
    // Private from the start: the logger is made before the agent sets its umask, and a folder
    // created 0755 here was "repaired" at once with a warning on every first start.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    rotate(path, maxBytes);
    this.#fd = openSync(path, 'a', 0o600);
    this.#size = fstatSync(this.#fd).size;
  }

  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.#size > 0 && this.#size + bytes > this.#maxBytes) {
      closeSync(this.#fd);
      renameSync(this.#path, `${this.#path}.1`);
      this.#fd = openSync(this.#path, 'a', 0o600);
      this.#size = 0;
    }
    writeSync(this.#fd, line);
    this.#size += bytes;
  }
}

function rotate(file: string, maxBytes = LOG_ROTATE_BYTES): void {
  try {
    if (statSync(file).size > maxBytes) renameSync(file, `${file}.1`);
  } catch {
    // No file yet: nothing to rotate.
  }
}

export type LogFormat = 'json' | 'pretty';

/**
 * How stderr's lines are written: PINBRIDGE_LOG_FORMAT when it says json or pretty, else pretty
 * on a terminal and JSON otherwise.
 */
export function logFormat(
  env: NodeJS.ProcessEnv = process.env,
  isTerminal: boolean = process.stderr.isTTY === true,
): LogFormat {
  const forced = env.PINBRIDGE_LOG_FORMAT?.trim().toLowerCase();
  if (forced === 'json' || forced === 'pretty') return forced;
  return isTerminal ? 'pretty' : 'json';
}

/** stderr, as JSON lines or as pino-pretty's text (synchronous either way: a crash loses no line). */
function stderrStream(format: LogFormat): DestinationStream {
  if (format === 'json') return destination({ fd: 2, sync: true });
  return pinoPretty({
    destination: 2,
    sync: true,
    colorize: process.stderr.isTTY === true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,name',
    singleLine: true,
  });
}

/** Where the lines go: a file alone, stderr alone, or stderr (from `stderrLevel` up) with a copy of everything in a (rotated) file. */
function logDestination(options: {
  file?: string;
  copyTo?: string;
  rotateBytes?: number;
  format: LogFormat;
  stderrLevel: Level;
}): DestinationStream {
  if (options.file !== undefined) return new RotatingFile(options.file, options.rotateBytes);
  if (options.copyTo === undefined) return stderrStream(options.format);
  return multistream([
    { level: options.stderrLevel, stream: stderrStream(options.format) },
    { level: 'trace', stream: new RotatingFile(options.copyTo, options.rotateBytes) },
  ]);
}

/** What makes two log calls the same line: the level, the message and the fields but timings. */
function lineKey(level: number, args: readonly unknown[], bindings: object): string | undefined {
  try {
    return JSON.stringify([level, bindings, args], (key, value: unknown) =>
      VOLATILE_FIELDS.has(key) ? undefined : value,
    );
  } catch {
    return undefined;
  }
}

/**
 * Folds runs of the same line: the first is written, the repeats within REPEAT_WINDOW_MS are
 * counted, and the count is written (at the line's level) before the next different line or the
 * first repeat after the window.
 */
function collapsingRepeats(): NonNullable<LoggerOptions['hooks']> {
  let last: { key: string; level: number; message: string; since: number } | undefined;
  let repeats = 0;
  return {
    logMethod(args, method, level) {
      const key = lineKey(level, args, this.bindings());
      const now = Date.now();
      if (key !== undefined && last?.key === key && now - last.since < REPEAT_WINDOW_MS) {
        repeats++;
        return;
      }
      if (repeats > 0 && last !== undefined) {
        const folded = repeats;
        repeats = 0;
        const label = this.levels.labels[last.level] ?? 'info';
        const previous = last.message;
        last = undefined;
        (this[label as 'info'] as (obj: object, msg: string) => void).call(
          this,
          { repeated: folded },
          `previous line repeated ${folded} more times: ${previous}`,
        );
      }
      const message = args.find((arg): arg is string => typeof arg === 'string') ?? '';
      last = key === undefined ? undefined : { key, level, message, since: now };
      method.apply(this, args);
    },
  };
}

/**
 * `file`: append to that file instead of stderr (tests keep their logs for the card-data scan).
 * `copyTo`: stderr and also that file (the agent's, for the window's log export and support).
 * `rotateBytes`: where a log file is moved aside (default LOG_ROTATE_BYTES).
 * `format`: stderr's (default logFormat()). `stderrLevel`: with `copyTo`, the lowest level that
 * also reaches stderr (default `level`): the file keeps everything, the terminal what matters.
 */
export function createLogger(
  options: {
    level?: string;
    name?: string;
    file?: string;
    copyTo?: string;
    rotateBytes?: number;
    format?: LogFormat;
    stderrLevel?: string;
  } = {},
): Logger {
  const requested = options.level ?? process.env.PINBRIDGE_LOG_LEVEL ?? 'info';
  const level = (LEVELS as readonly string[]).includes(requested) ? requested : 'info';
  const quieter =
    options.stderrLevel !== undefined &&
    LEVELS.indexOf(options.stderrLevel as (typeof LEVELS)[number]) >= 0 &&
    LEVELS.indexOf(options.stderrLevel as (typeof LEVELS)[number]) < LEVELS.indexOf(level as (typeof LEVELS)[number]);
  // 'silent' is not a stream level: a terminal that should show nothing gets only fatal lines.
  const stderrLevel = (quieter ? options.stderrLevel : level === 'silent' ? 'fatal' : level) as Level;
  return pino(
    {
      name: options.name ?? 'pinbridge',
      level,
      // Defence in depth: the drivers never log card data, but if a field with one of these
      // names ever reaches a log line it is censored.
      redact: { paths: ['pan', 'track1', 'track2', 'track3', 'pinBlock', '*.pan', '*.pinBlock'], censor: '[redacted]' },
      // And if card data reaches a line anyway, it is masked as the line is written (maskCardDataInLine).
      hooks: { ...collapsingRepeats(), streamWrite: maskCardDataInLine },
    },
    logDestination({ ...options, format: options.format ?? logFormat(), stderrLevel }),
  );
}

/**
 * A condition that may last (a PINPAD that is not there, ports that cannot be listed) logged once
 * when it starts, as a warning, and once when it ends, as info with how long it lasted — not at
 * every attempt: the attempts in between go to debug. What the condition is (`key`, e.g. the
 * error code) changing is news and is warned again.
 */
export class LoggedCondition {
  readonly #logger: Pick<Logger, 'warn' | 'info' | 'debug'>;
  readonly #now: () => number;
  #since: number | undefined;
  #key: string | undefined;
  #attempts = 0;

  constructor(logger: Pick<Logger, 'warn' | 'info' | 'debug'>, now: () => number = Date.now) {
    this.#logger = logger;
    this.#now = now;
  }

  /** True between a `holds` and the `ended` after it. */
  get active(): boolean {
    return this.#since !== undefined;
  }

  /** How many times it was found holding since it started (0 when not active). */
  get attempts(): number {
    return this.#attempts;
  }

  /** The condition holds (again): a warning when it starts or `key` changed, debug otherwise. Returns true when warned. */
  holds(key: string, fields: object, message: string): boolean {
    this.#attempts += 1;
    if (this.#since !== undefined && this.#key === key) {
      // `attempt` is a volatile field: a run of these folds into one line even at debug level.
      this.#logger.debug({ ...fields, attempt: this.#attempts }, message);
      return false;
    }
    this.#since ??= this.#now();
    this.#key = key;
    this.#logger.warn(fields, message);
    return true;
  }

  /** The condition is over: one info line with how long it held and how many attempts found it; nothing when it did not hold. */
  ended(fields: object, message: string): boolean {
    if (this.#since === undefined) return false;
    const lastedSeconds = Math.round((this.#now() - this.#since) / 1000);
    this.#logger.info({ ...fields, lastedSeconds, attempts: this.#attempts }, message);
    this.#since = undefined;
    this.#key = undefined;
    this.#attempts = 0;
    return true;
  }
}

/**
 * The log's last resort against card data: the drivers never log it, names that could hold it are
 * redacted (`redact` in createLogger), and the POS API refuses it at the door — yet if a card number or a track ever
 * reaches a log line (in the message, a field, a child logger's bindings, an error's text), it is
 * masked just before the line is written, with the POS API's search (drivers/card-number.ts:
 * normalised digits, any grouping, decoded base64/hex): a number keeps its first 6 and last 4
 * digits, a track or an encoded number is removed. The line stays JSON: it is parsed, its strings
 * (and numbers) masked, and written again — only when the search found something in it, so every
 * other line is written as pino made it.
 */
const JSON_CONTROL_ESCAPE = /\\[bfnrt]|\\u00[01][0-9a-fA-F]/g;

function masked(value: unknown): unknown {
  if (typeof value === 'string') return maskCardData(value).text;
  if (typeof value === 'number') {
    const text = String(value);
    return cardDataIn(text) === undefined ? value : maskCardData(text).text;
  }
  if (Array.isArray(value)) return value.map(masked);
  if (value !== null && typeof value === 'object') {
    // Keys too: a field named by what a POS sent.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [maskCardData(key).text, masked(item)]));
  }
  return value;
}

/** One stringified log line (pino's, JSON with its newline) with any card data in it masked. */
export function maskCardDataInLine(line: string): string {
  // JSON writes a tab or a newline inside a string as "\t", "\n": read as the separators they are.
  if (cardDataIn(line.replace(JSON_CONTROL_ESCAPE, ' ')) === undefined) return line;
  const newline = line.endsWith('\n') ? '\n' : '';
  try {
    return `${JSON.stringify(masked(JSON.parse(line)))}${newline}`;
  } catch {
    // Not JSON after all: masked as text (separators and the rest of the line are kept).
    return maskCardData(line).text;
  }
}
