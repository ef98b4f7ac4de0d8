/**
 * The agent's structured logger (pino). Logs go to stderr so that stdout stays free for the
 * CLI's machine-readable output. Level from PINBRIDGE_LOG_LEVEL (default "info"; the CLI's
 * one-shot commands default to "warn").
 */
import { renameSync, statSync } from 'node:fs';
import { destination, multistream, pino, type DestinationStream, type Logger } from 'pino';

export type { Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A log file past this size is moved to `<file>.1` when the agent starts (one old file is kept). */
export const LOG_ROTATE_BYTES = 5 * 1024 * 1024;

function rotate(file: string): void {
  try {
    if (statSync(file).size > LOG_ROTATE_BYTES) renameSync(file, `${file}.1`);
  } catch {
    // No file yet: nothing to rotate.
  }
}

/** Where the lines go: a file alone, stderr alone, or stderr with a copy in a (rotated) file. */
function logDestination(options: { file?: string; copyTo?: string }): DestinationStream {
  if (options.file !== undefined) return destination({ dest: options.file, sync: true, mkdir: true });
  if (options.copyTo === undefined) return destination({ fd: 2, sync: true });
  rotate(options.copyTo);
  return multistream([
    { level: 'trace', stream: destination({ fd: 2, sync: true }) },
    { level: 'trace', stream: destination({ dest: options.copyTo, sync: true, mkdir: true }) },
  ]);
}

/**
 * `file`: append to that file instead of stderr (tests keep their logs for the card-data scan).
 * `copyTo`: stderr and also that file (the agent's, for the window's log export and support).
 */
export function createLogger(options: { level?: string; name?: string; file?: string; copyTo?: string } = {}): Logger {
  const requested = options.level ?? process.env.PINBRIDGE_LOG_LEVEL ?? 'info';
  const level = (LEVELS as readonly string[]).includes(requested) ? requested : 'info';
  return pino(
    {
      name: options.name ?? 'pinbridge',
      level,
      // Defence in depth: the drivers never log card data, but if a field with one of these
      // names ever reaches a log line it is censored.
      redact: { paths: ['pan', 'track1', 'track2', 'track3', 'pinBlock', '*.pan', '*.pinBlock'], censor: '[redacted]' },
    },
    logDestination(options),
  );
}
