/**
 * The agent's structured logger (pino). Logs go to stderr so that stdout stays free for the
 * CLI's machine-readable output. Level from PINBRIDGE_LOG_LEVEL (default "info"; the CLI's
 * one-shot commands default to "warn").
 */
import { destination, pino, type Logger } from 'pino';

export type { Logger } from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** `file`: append to that file instead of stderr (tests keep their logs for the card-data scan). */
export function createLogger(options: { level?: string; name?: string; file?: string } = {}): Logger {
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
    options.file === undefined ? destination({ fd: 2, sync: true }) : destination({ dest: options.file, sync: true, mkdir: true }),
  );
}
