/**
 * What a failed command's error means for the person who ran it: its exit code, a stable code and
 * one sentence. Loaded by main.ts only when a command failed, with the modules of the errors it
 * recognises.
 */
import { DriverError } from '../../drivers/errors.js';
import { ClientCertificateError } from '../api/client-certificate.js';
import { SettingsError } from '../core/settings.js';
import { ReceiptError } from '../receipts/errors.js';
import { SupportBundleError } from '../support/bundle.js';
import { RemoteSettingsError } from '../remote-settings/keys.js';
import { EXIT_FAILURE, EXIT_USAGE, UsageError } from './errors.js';

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
  // Consent not given, or no place to send to: the command line's to fix; card data left, a write or an upload that failed: a failure.
  if (error instanceof SupportBundleError) {
    const input = error.code === 'UPLOAD_NOT_CONFIRMED' || error.code === 'UPLOAD_URL_MISSING';
    return { exitCode: input ? EXIT_USAGE : EXIT_FAILURE, code: error.code, message: error.message };
  }
  // A key or a document refused: what the command line named; a write that failed: a failure.
  if (error instanceof RemoteSettingsError)
    return {
      exitCode: error.code === 'WRITE_FAILED' ? EXIT_FAILURE : EXIT_USAGE,
      code: error.code,
      message: error.message,
    };
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
