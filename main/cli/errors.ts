/**
 * The exit codes of `pinbridge` and the two errors a command throws on purpose. Light on purpose:
 * every command's options load it (parse.ts); what any other error means is classify.ts's, loaded
 * only when a command failed.
 */
import { CodedError } from '../../lib/errors.js';

/** Exit codes of the `pinbridge` command. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1; // the device or the runtime failed
export const EXIT_USAGE = 2; // bad usage or bad input

/** A bad command line: wrong option, missing argument, unparseable value. Exit code 2. */
export class UsageError extends CodedError<'USAGE'> {
  constructor(message: string, options?: { cause?: unknown }) {
    super('USAGE', message, options);
  }
}

/**
 * Thrown by a command that has already printed its result and ends with a non-zero exit code
 * without being an error (`pay` when the payment ended without a sale).
 */
export class CommandExit extends Error {
  constructor(readonly exitCode: number) {
    super(`exit code ${exitCode}`);
  }
}
