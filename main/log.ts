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
 *
 * A log line never stops the agent (issue 33): a log file that cannot be written (a full or
 * read-only disk) sends its lines to stderr and keeps the newest in memory, for the window and
 * `doctor` (logFileOf), and is tried again after a back-off.
 */
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import {
  destination,
  levels,
  multistream,
  pino,
  symbols,
  type DestinationStream,
  type Level,
  type Logger,
  type LoggerOptions,
} from 'pino';
import type pinoPretty from 'pino-pretty';
import { cardDataIn, maskCardData } from '../drivers/card-number.js';

export type { Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A log file past this size is moved to `<file>.1` (one old file is kept): at start and while running. */
export const LOG_ROTATE_BYTES = 5 * 1024 * 1024;
/** How long a run of identical lines is folded into one count before the line is written again. */
export const REPEAT_WINDOW_MS = 60_000;
/** Fields that differ between otherwise identical lines (timings, attempt numbers). */
const VOLATILE_FIELDS = new Set(['durationMs', 'attempt', 'retryInMs', 'elapsedMs']);

/** How many of the newest lines a log file keeps in memory, whatever happens to the file. */
export const LOG_RING_LINES = 300;
/** After a write that failed, the file is tried again this long after (doubling up to LOG_RETRY_MAX_MS). */
export const LOG_RETRY_MS = 1_000;
export const LOG_RETRY_MAX_MS = 30_000;

/** Why a log file is not being written now. */
export interface LogFileFailure {
  /** ENOSPC, EROFS, EIO… (or the error's name when it has no code). */
  readonly code: string;
  readonly message: string;
  /** ISO time of the first write that failed. */
  readonly since: string;
  /** Lines that could not be written since. */
  readonly unwritten: number;
}

export interface RotatingFileOptions {
  /** Where a line goes when the file cannot take it (default: stderr; its own failures are ignored). */
  readonly fallback?: (line: string) => void;
  readonly now?: () => number;
}

/** The newest lines of the log: what the window and `doctor` show when the file is not being written. */
export interface LogFileHealth {
  readonly path: string;
  /** Why the file is not being written now; undefined while it is. */
  readonly failure: LogFileFailure | undefined;
  /** The newest lines (up to LOG_RING_LINES, oldest first), written to the file or not. */
  recent(): readonly string[];
  /** Of those, the ones the file does not have (written since it failed), oldest first. */
  unwritten(): readonly string[];
  /** Told when the file starts failing (with why) and when it is written again (undefined). */
  onChange(listener: (failure: LogFileFailure | undefined) => void): () => void;
  /**
   * Tries the file now instead of after the back-off (the disk has room again): writes what it
   * missed (see RotatingFile). True when the file is being written.
   */
  retryNow(): boolean;
}

/** Writes to stderr without ever throwing: the fallback of last resort. */
function toStderr(line: string): void {
  try {
    writeSync(2, line);
  } catch {
    // stderr closed or full too: the line is still in the ring.
  }
}

/** writeSync that writes all of `line` or throws (a regular file may take part of it before ENOSPC). */
function writeWhole(fd: number, line: string): number {
  const buffer = Buffer.from(line);
  let done = 0;
  try {
    while (done < buffer.length) done += writeSync(fd, buffer, done, buffer.length - done);
  } catch (error) {
    throw Object.assign(error as Error, { partial: done > 0 });
  }
  return buffer.length;
}

/**
 * A log file written synchronously (a crash loses no line) and moved aside to `<file>.1` once it
 * passes `maxBytes`. Written by hand: pino-roll builds its stream asynchronously, and the
 * logger is made synchronously everywhere it is needed.
 *
 * It never throws — not when made (a folder that cannot be created, a full disk) and not when
 * writing or rotating (issue 33): a line the file cannot take goes to `fallback` (stderr), the
 * newest lines stay in memory (`recent`, for the window and `doctor`), and the file is tried
 * again after a back-off. When it takes lines again, it first takes off a line cut by the full disk,
 * says how long it could not be written and writes the lines still held in memory: the file has
 * no silent hole and no broken line.
 */
export class RotatingFile implements DestinationStream, LogFileHealth {
  readonly path: string;
  readonly #maxBytes: number;
  readonly #fallback: (line: string) => void;
  readonly #now: () => number;
  readonly #ring: string[] = [];
  readonly #listeners = new Set<(failure: LogFileFailure | undefined) => void>();
  #fd: number | undefined;
  #size = 0;
  #failure: LogFileFailure | undefined;
  /** Lines of the ring not in the file: the newest `#missed` (at most the ring's length). */
  #missed = 0;
  #retryAt = 0;
  #failures = 0;
  /** A write failed part-way: where the file's last whole line ends (the cut line is taken off). */
  #cutAt: number | undefined;

  constructor(path: string, maxBytes = LOG_ROTATE_BYTES, options: RotatingFileOptions = {}) {
    this.path = path;
    this.#maxBytes = maxBytes;
    this.#fallback = options.fallback ?? toStderr;
    this.#now = options.now ?? Date.now;
    try {
      this.#open(true);
    } catch (error) {
      this.#fail(error);
    }
  }

  get failure(): LogFileFailure | undefined {
    return this.#failure;
  }

  recent(): readonly string[] {
    return [...this.#ring];
  }

  unwritten(): readonly string[] {
    return this.#failure === undefined ? [] : this.#ring.slice(Math.max(0, this.#ring.length - this.#missed));
  }

  onChange(listener: (failure: LogFileFailure | undefined) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  retryNow(): boolean {
    if (this.#failure === undefined) return true;
    try {
      this.#resume(false);
      return true;
    } catch (error) {
      this.#fail(error);
      return false;
    }
  }

  write(line: string): void {
    this.#ring.push(line);
    if (this.#ring.length > LOG_RING_LINES) this.#ring.shift();
    if (this.#failure !== undefined && this.#now() < this.#retryAt) {
      this.#unwritten(line);
      return;
    }
    try {
      if (this.#failure !== undefined) this.#resume(true);
      this.#append(line);
    } catch (error) {
      this.#fail(error);
      this.#unwritten(line);
    }
  }

  #open(atStart: boolean): void {
    if (this.#fd !== undefined) return;
    // Private from the start: the logger is made before the agent sets its umask, and a folder
    // created 0755 here was "repaired" at once with a warning on every first start.
    mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
    if (atStart) rotate(this.path, this.#maxBytes);
    this.#fd = openSync(this.path, 'a', 0o600);
    this.#size = fstatSync(this.#fd).size;
  }

  #append(line: string): void {
    this.#open(false);
    const bytes = Buffer.byteLength(line);
    if (this.#size > 0 && this.#size + bytes > this.#maxBytes) {
      this.#close();
      renameSync(this.path, `${this.path}.1`);
      this.#open(false);
    }
    this.#size += writeWhole(this.#fd!, line);
  }

  /**
   * The file takes lines again: take off a cut line, say what happened, write what the ring still
   * holds of what it missed (`current`: the ring's newest line is being written now, not missed).
   */
  #resume(current: boolean): void {
    const failure = this.#failure!;
    const end = this.#ring.length - (current ? 1 : 0);
    const held = this.#ring.slice(Math.max(0, end - this.#missed), end);
    if (this.#cutAt !== undefined) {
      this.#open(false);
      ftruncateSync(this.#fd!, this.#cutAt);
      this.#size = this.#cutAt;
      this.#cutAt = undefined;
    }
    const lost = failure.unwritten - held.length;
    this.#append(
      `${JSON.stringify({
        level: 40,
        time: this.#now(),
        msg: `the log file could not be written from ${failure.since} (${failure.code}): ${held.length} lines kept in memory follow${lost > 0 ? `, ${lost} older ones went to stderr only` : ''}`,
        code: failure.code,
      })}\n`,
    );
    for (const line of held) this.#append(line);
    this.#failure = undefined;
    this.#missed = 0;
    this.#failures = 0;
    for (const listener of this.#listeners) listener(undefined);
  }

  #unwritten(line: string): void {
    this.#missed = Math.min(this.#missed + 1, LOG_RING_LINES);
    if (this.#failure !== undefined) this.#failure = { ...this.#failure, unwritten: this.#failure.unwritten + 1 };
    this.#fallback(line);
  }

  #fail(error: unknown): void {
    if ((error as { partial?: boolean }).partial === true) this.#cutAt ??= this.#size;
    this.#close();
    this.#failures += 1;
    this.#retryAt = this.#now() + Math.min(LOG_RETRY_MAX_MS, LOG_RETRY_MS * 2 ** (this.#failures - 1));
    if (this.#failure !== undefined) return;
    const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.name : 'ERROR');
    this.#failure = {
      code,
      message: error instanceof Error ? error.message : String(error),
      since: new Date(this.#now()).toISOString(),
      unwritten: 0,
    };
    const failure = this.#failure;
    for (const listener of this.#listeners) listener(failure);
  }

  #close(): void {
    if (this.#fd === undefined) return;
    try {
      closeSync(this.#fd);
    } catch {
      // Reopened at the next attempt.
    }
    this.#fd = undefined;
  }
}

function rotate(file: string, maxBytes = LOG_ROTATE_BYTES): void {
  try {
    if (statSync(file).size > maxBytes) renameSync(file, `${file}.1`);
  } catch {
    // No file yet: nothing to rotate.
  }
}

/**
 * The log file behind `logger` (createLogger's `file` or `copyTo`), for the window and `doctor`:
 * whether it is being written and its newest lines. Undefined for a logger writing stderr only.
 */
export function logFileOf(logger: Logger): LogFileHealth | undefined {
  const stream = (logger as unknown as Record<symbol, unknown>)[symbols.streamSym];
  if (stream instanceof RotatingFile) return stream;
  const streams = (stream as { streams?: readonly { stream: unknown }[] } | undefined)?.streams;
  return streams?.map((entry) => entry.stream).find((each): each is RotatingFile => each instanceof RotatingFile);
}

/** A stream that takes the logger's lines (each one JSON line, card data already masked). */
export interface LineSink {
  write(line: string): void;
}

/**
 * Adds `sink` beside the logger's own streams for the lines from `level` up — after the masking
 * (pino's streamWrite hook masks a line before any stream sees it) — and returns its removal.
 * Undefined when the logger writes one stream only (a file alone, stderr alone: not the agent's,
 * which writes stderr and a file). A sink that throws loses that line, never the log's own.
 */
export function teeLogLines(logger: Logger, level: 'warn' | 'error', sink: LineSink): (() => void) | undefined {
  const stream = (logger as unknown as Record<symbol, unknown>)[symbols.streamSym] as
    | {
        add?: (dest: { level: Level; stream: DestinationStream }) => unknown;
        remove?: (id: number) => unknown;
        lastId?: number;
      }
    | undefined;
  if (typeof stream?.add !== 'function' || typeof stream.remove !== 'function') return undefined;
  stream.add({
    level,
    stream: {
      write(line: string): void {
        try {
          sink.write(line);
        } catch {
          // Telemetry's trouble: the line is in the log all the same.
        }
      },
    },
  });
  const id = stream.lastId;
  let removed = false;
  return () => {
    if (removed || id === undefined) return;
    removed = true;
    stream.remove?.(id);
  };
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

/** pino-pretty (CommonJS), loaded only for a person at a terminal: an agent logging JSON never needs it. */
const loadPinoPretty = (): typeof pinoPretty => createRequire(import.meta.url)('pino-pretty') as typeof pinoPretty;

/** stderr, as JSON lines or as pino-pretty's text (synchronous either way: a crash loses no line). */
function stderrStream(format: LogFormat): DestinationStream {
  if (format === 'json') return destination({ fd: 2, sync: true });
  return loadPinoPretty()({
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
  // A line the file cannot take goes to stderr unless stderr had it already (from stderrLevel up).
  const onStderr = levels.values[options.stderrLevel] ?? 0;
  const fallback = (line: string): void => {
    const level = Number(/^\{"level":(\d+)/.exec(line)?.[1] ?? 0);
    if (level < onStderr) toStderr(line);
  };
  return multistream([
    { level: options.stderrLevel, stream: stderrStream(options.format) },
    { level: 'trace', stream: new RotatingFile(options.copyTo, options.rotateBytes, { fallback }) },
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
    loggerOptions(level, options.name),
    logDestination({ ...options, format: options.format ?? logFormat(), stderrLevel }),
  );
}

/**
 * What createLogger's loggers are, whatever they write to. Exported for the log benchmark
 * (test/bench/log.bench.ts), which weighs the masking hook against these options without it.
 */
export function loggerOptions(level: string, name = 'pinbridge'): LoggerOptions {
  return {
    name,
    level,
    // Defence in depth: the drivers never log card data, but if a field with one of these
    // names ever reaches a log line it is censored.
    redact: { paths: ['pan', 'track1', 'track2', 'track3', 'pinBlock', '*.pan', '*.pinBlock'], censor: '[redacted]' },
    // And if card data reaches a line anyway, it is masked as the line is written (maskCardDataInLine).
    hooks: { ...collapsingRepeats(), streamWrite: maskCardDataInLine },
  };
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
