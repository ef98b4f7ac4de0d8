import { CodedError } from '../lib/errors.js';

/**
 * The base of every error the drivers raise. `code` is stable and machine-readable (callers
 * switch on it, the CLI and the POS API expose it); `message` is one English sentence for logs
 * and technicians. Card data never goes into either.
 */
export class DriverError extends CodedError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }

  /** A plain object for JSON output (`--json`, logs). */
  toJSON(): { name: string; code: string; message: string } {
    return { name: this.name, code: this.code, message: this.message };
  }
}

/** A caller passed something the driver refuses before anything is sent to the device. */
export class InvalidArgumentError extends DriverError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INVALID_ARGUMENT', message, options);
  }
}
