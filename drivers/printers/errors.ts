/**
 * The one error class of the receipt-printer transports and device: every failure between "bytes to
 * print" and "the printer took them" carries one of these codes, so the agent, the CLI and the POS
 * API can switch on it and the cashier's screen can say what to do (load paper, close the cover…).
 */
import { DriverError } from '../errors.js';
import type { PrinterStatus } from './printer-status.js';

export type PrinterErrorCode =
  /** A printer address (settings, CLI) that cannot be parsed. */
  | 'INVALID_ADDRESS'
  /** The printer cannot be reached: connection refused, host unreachable, no such device or port. */
  | 'UNREACHABLE'
  /** The operating system refused access to the device (e.g. not in the `lp` or `dialout` group). */
  | 'PERMISSION_DENIED'
  /** A connection, a write, a status answer or a print command took longer than allowed. */
  | 'TIMEOUT'
  /** The link went away (peer closed, cable pulled, device removed). */
  | 'DISCONNECTED'
  /** The transport was used before `open()` or after `close()`. */
  | 'NOT_OPEN'
  /** The transport has no way to read the printer's status (device file, print command). */
  | 'STATUS_UNAVAILABLE'
  /** A status answer that is not a valid ESC/POS DLE EOT answer byte. */
  | 'INVALID_STATUS'
  | 'PAPER_OUT'
  | 'COVER_OPEN'
  /** The printer reports an error that needs a person (mechanical, autocutter, unrecoverable). */
  | 'PRINTER_ERROR'
  /** The operating system's print command failed (non-zero exit, not found, stopped reading). */
  | 'COMMAND_FAILED'
  /** Sending the bytes failed for another reason reported by the operating system. */
  | 'IO_ERROR';

export class PrinterError extends DriverError {
  declare readonly code: PrinterErrorCode;
  /** The status that made the printer refuse the job (PAPER_OUT, COVER_OPEN, PRINTER_ERROR). */
  readonly status: PrinterStatus | undefined;

  constructor(code: PrinterErrorCode, message: string, options?: { cause?: unknown; status?: PrinterStatus }) {
    super(code, message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.status = options?.status;
  }
}

/** True for the codes that mean "the link is gone or never came up", as opposed to a printer condition. */
export function isLinkFailure(error: unknown): error is PrinterError {
  return (
    error instanceof PrinterError &&
    (error.code === 'UNREACHABLE' ||
      error.code === 'DISCONNECTED' ||
      error.code === 'TIMEOUT' ||
      error.code === 'PERMISSION_DENIED' ||
      error.code === 'NOT_OPEN')
  );
}
