/**
 * The one small interface every receipt-printer transport implements (tcp, serial, device file,
 * folder, print command); transport.ts picks one from an address and re-exports this.
 */
import type { EventEmitter } from 'node:events';
import type { PrinterError } from '../errors.js';

export type PrinterTransportKind = 'tcp' | 'serial' | 'file' | 'command';

export interface PrinterTransportEvents {
  /** The link came up: after open(), and again when a job reconnects after a drop. */
  connected: [];
  /** The link went away by itself (not after close()); the next job tries again. */
  disconnected: [error: PrinterError];
}

export interface PrinterTransport extends EventEmitter<PrinterTransportEvents> {
  readonly kind: PrinterTransportKind;
  /** Where it goes, in the address syntax above. */
  readonly address: string;
  /** Between open() and close(), whether or not the link is up right now. */
  readonly isOpen: boolean;
  /** Makes the printer reachable or rejects with a PrinterError saying why not. Idempotent. */
  open(): Promise<void>;
  /** Sends the bytes; resolves once the OS or the command took all of them. */
  write(bytes: Uint8Array): Promise<void>;
  /**
   * Sends `bytes` and resolves with the next `answerLength` bytes the printer sends back, or rejects
   * with PrinterError('TIMEOUT') after `timeoutMs`. Absent on write-only transports.
   */
  request?(bytes: Uint8Array, answerLength: number, timeoutMs: number): Promise<Uint8Array>;
  /** Releases the link. Idempotent. */
  close(): Promise<void>;
}
