import { CodedError } from '../../lib/errors.js';
import { DriverError } from '../../drivers/errors.js';
import { ClientCertificateError } from '../api/client-certificate.js';
import { SettingsError } from '../core/settings.js';
import { ReceiptError } from '../receipts/errors.js';

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

/** Driver error codes that mean the user's input was wrong rather than the device. */
const INPUT_ERROR_CODES = new Set([
  'INVALID_ARGUMENT',
  'INVALID_PORT',
  'INVALID_TRACE',
  'TRACE_UNREADABLE',
  'INVALID_ADDRESS',
  'UNKNOWN_PRINTER_MODEL',
  'UNKNOWN_CODEPAGE',
  'UNSUPPORTED_CODEPAGE',
  'UNSUPPORTED_COLUMNS',
]);

/** Receipt error codes that mean the request named something wrong rather than a failure. */
const RECEIPT_INPUT_CODES = new Set(['NOT_FOUND', 'NO_RECEIPT', 'INVALID_INPUT', 'INVALID_SETTINGS']);

export interface ReportedError {
  readonly exitCode: number;
  readonly code: string;
  readonly message: string;
}

/** Maps anything thrown by a command to its exit code and one clear sentence. */
export function classifyError(error: unknown): ReportedError {
  if (error instanceof UsageError) return { exitCode: EXIT_USAGE, code: 'USAGE', message: error.message };
  if (error instanceof SettingsError) return { exitCode: EXIT_USAGE, code: error.code, message: error.message };
  // The certificate files the store named cannot be used: its input, not a failure of the runtime.
  if (error instanceof ClientCertificateError)
    return { exitCode: EXIT_USAGE, code: error.code, message: error.message };
  if (error instanceof ReceiptError) {
    return {
      exitCode: RECEIPT_INPUT_CODES.has(error.code) ? EXIT_USAGE : EXIT_FAILURE,
      code: error.code,
      message: error.message,
    };
  }
  if (error instanceof DriverError) {
    return {
      exitCode: INPUT_ERROR_CODES.has(error.code) ? EXIT_USAGE : EXIT_FAILURE,
      code: error.code,
      message: error.message,
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT_FAILURE, code: 'INTERNAL', message };
}
