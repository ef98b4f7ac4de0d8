/**
 * The last line of defence (issue 33): an exception nobody caught, or a promise rejected with
 * nobody waiting, becomes a logged fault — never the end of the agent. Installed by
 * `pinbridge start` and the desktop app around the agent they run.
 *
 * - A disk fault (ENOSPC, EDQUOT, EIO, EROFS, SQLITE_FULL, SQLITE_IOERR…, see lib/io-faults.ts):
 *   logged as an error and reported (`onDiskFault`: the agent's DiskWatch, which records
 *   `disk.full` in the audit trail once and shows it in the window and on the PINPAD). Every
 *   writer degrades on its own; this only catches one that did not.
 * - Anything else is a bug: logged as fatal, with its stack, and the agent keeps running too.
 *   Exiting is exactly the failure this issue is about — a POS left without an agent, and
 *   without the answer to a sale the payments API may have charged — while staying up costs
 *   little: every answer a POS gets is read from the journal, which each step is written to
 *   before its side effect, and each part of the agent keeps its own state behind its own
 *   error handling. The fatal line is there (log file, or the window's and doctor's in-memory
 *   lines when the disk refuses it) for a technician to act on.
 *
 * Faults are counted, for `doctor` and the window (`faults`).
 */
import { ioFaultOf } from '../../lib/io-faults.js';

/** What the guard logs with (the agent's pino logger). */
export interface FaultLogger {
  error(fields: object, message: string): void;
  fatal(fields: object, message: string): void;
}

/** Where uncaught errors are told (the process; tests give an EventEmitter). */
export interface FaultSource {
  on(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown, origin?: unknown) => void): unknown;
  off(event: 'uncaughtException' | 'unhandledRejection', listener: (error: unknown, origin?: unknown) => void): unknown;
}

export interface FaultGuardOptions {
  readonly logger: FaultLogger;
  /** Told about each disk fault nobody handled (the running agent's DiskWatch.report). */
  readonly onDiskFault?: (error: unknown) => void;
  /** The process whose events are watched (default: this process). */
  readonly process?: FaultSource;
}

export interface FaultCounts {
  readonly disk: number;
  readonly other: number;
}

export interface FaultGuard {
  readonly faults: FaultCounts;
  /** Stops watching (the default handlers, which exit, are back). */
  uninstall(): void;
}

function describe(error: unknown): { err: string; stack?: string; code?: string } {
  if (!(error instanceof Error)) return { err: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    err: error.message,
    ...(error.stack === undefined ? {} : { stack: error.stack }),
    ...(typeof code === 'string' ? { code } : {}),
  };
}

export function guardProcess(options: FaultGuardOptions): FaultGuard {
  const target = options.process ?? process;
  const counts = { disk: 0, other: 0 };
  const fault = (error: unknown, origin: string): void => {
    try {
      const disk = ioFaultOf(error);
      if (disk !== undefined) {
        counts.disk += 1;
        options.logger.error(
          { ...describe(error), origin, fault: disk.code },
          'a write the disk refused was not handled; Pinbridge keeps running',
        );
        options.onDiskFault?.(error);
        return;
      }
      counts.other += 1;
      options.logger.fatal({ ...describe(error), origin }, 'an error nobody handled (a bug); Pinbridge keeps running');
    } catch {
      // The guard itself must not throw: that would be the exit it exists to prevent.
    }
  };
  const onException = (error: unknown, origin?: unknown): void =>
    fault(error, typeof origin === 'string' ? origin : 'uncaughtException');
  const onRejection = (reason: unknown): void => fault(reason, 'unhandledRejection');
  target.on('uncaughtException', onException);
  target.on('unhandledRejection', onRejection);
  return {
    get faults() {
      return { ...counts };
    },
    uninstall() {
      target.off('uncaughtException', onException);
      target.off('unhandledRejection', onRejection);
    },
  };
}
