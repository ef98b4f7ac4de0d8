/**
 * A printer reached through a file: the Linux USB printer class device (/dev/usb/lp0), a parallel
 * port (/dev/lp0), or a plain file that a spooler or a test picks up. Write-only: the usblp driver
 * and spool files have no request/answer channel this transport could rely on, so it reports no status.
 *
 * Regular files are appended to (created if missing) so jobs queue up instead of overwriting each
 * other; device files are opened write-only and never created, so a typo under /dev cannot leave a
 * regular file where the device should be.
 */
import { EventEmitter } from 'node:events';
import { constants as fsConstants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PrinterError } from '../errors.js';
import type { PrinterTransport, PrinterTransportEvents } from './printer-transport.js';
import { Exclusive } from './exclusive.js';

export interface DeviceFileOptions {
  readonly path: string;
  /** Give up opening after this long (a FIFO without a reader blocks). Default 5000 ms. */
  readonly openTimeoutMs?: number;
  /** Give up a write after this long (usblp blocks while the printer is off or out of paper). Default 30 s. */
  readonly writeTimeoutMs?: number;
}

/** Errors that mean the device went away under an open handle. */
const GONE = new Set(['EIO', 'ENODEV', 'ENXIO', 'EPIPE', 'ESHUTDOWN']);

export class DeviceFileTransport extends EventEmitter<PrinterTransportEvents> implements PrinterTransport {
  readonly kind = 'file' as const;
  readonly address: string;
  readonly path: string;
  readonly #openTimeoutMs: number;
  readonly #writeTimeoutMs: number;
  readonly #exclusive = new Exclusive();
  #handle: FileHandle | undefined;
  #wanted = false;

  constructor(options: DeviceFileOptions) {
    super();
    this.path = options.path;
    this.address = formatFileAddress(this.path);
    this.#openTimeoutMs = options.openTimeoutMs ?? 5000;
    this.#writeTimeoutMs = options.writeTimeoutMs ?? 30_000;
  }

  get isOpen(): boolean {
    return this.#wanted;
  }

  async open(): Promise<void> {
    if (this.#wanted && this.#handle) return;
    this.#wanted = true;
    try {
      await this.#exclusive.run(() => this.#ensureOpen());
    } catch (error) {
      this.#wanted = false;
      throw error;
    }
  }

  write(bytes: Uint8Array): Promise<void> {
    return this.#exclusive.run(async () => {
      const handle = await this.#ensureOpen();
      try {
        await withTimeout(
          writeAll(handle, bytes),
          this.#writeTimeoutMs,
          () =>
            new PrinterError(
              'TIMEOUT',
              `The printer device ${this.path} did not take the data within ${this.#writeTimeoutMs} ms.`,
            ),
        );
      } catch (error) {
        throw this.#onWriteError(handle, error);
      }
    });
  }

  async close(): Promise<void> {
    this.#wanted = false;
    const handle = this.#handle;
    this.#handle = undefined;
    // A handle stuck in a blocked write cannot be waited for; close it in the background then.
    if (handle) await withTimeout(handle.close(), 1000, () => new Error('close timed out')).catch(() => undefined);
  }

  async #ensureOpen(): Promise<FileHandle> {
    if (!this.#wanted) throw new PrinterError('NOT_OPEN', `The printer device ${this.path} is not open.`);
    if (this.#handle) return this.#handle;
    const opening = openPrinterFile(this.path);
    const handle = await withTimeout(opening, this.#openTimeoutMs, () => {
      // Close the handle if the open completes after all.
      void opening.then((late) => late.close()).catch(() => undefined);
      return new PrinterError(
        'TIMEOUT',
        `Opening the printer device ${this.path} did not finish within ${this.#openTimeoutMs} ms.`,
      );
    });
    if (!this.#wanted) {
      await handle.close();
      throw new PrinterError('NOT_OPEN', `The printer device ${this.path} was closed.`);
    }
    this.#handle = handle;
    this.emit('connected');
    return handle;
  }

  #onWriteError(handle: FileHandle, error: unknown): PrinterError {
    if (error instanceof PrinterError && error.code !== 'TIMEOUT') return error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const gone = error instanceof PrinterError || GONE.has(code);
    if (!gone) {
      const message = error instanceof Error ? error.message : String(error);
      return new PrinterError('IO_ERROR', `Writing to the printer device ${this.path} failed: ${message}.`, {
        cause: error,
      });
    }
    // Reopen on the next job: the device may come back (printer switched on, cable plugged in).
    if (this.#handle === handle) this.#handle = undefined;
    void handle.close().catch(() => undefined);
    const failure =
      error instanceof PrinterError
        ? error
        : new PrinterError(
            'DISCONNECTED',
            `The printer device ${this.path} went away while printing (${code}); check the cable and that the printer is on.`,
            {
              cause: error,
            },
          );
    this.emit('disconnected', failure);
    return failure;
  }
}

/** `file:///dev/usb/lp0`. */
export function formatFileAddress(path: string): string {
  return `file://${path.startsWith('/') ? '' : '/'}${encodeURI(path).replace(/[?#]/g, encodeURIComponent)}`;
}

async function openPrinterFile(path: string): Promise<FileHandle> {
  let isRegular = true;
  try {
    const info = await stat(path);
    if (info.isDirectory()) {
      throw new PrinterError('UNREACHABLE', `The printer path ${path} is a directory, not a device or a file.`);
    }
    isRegular = info.isFile();
  } catch (error) {
    if (error instanceof PrinterError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw mapOpenError(path, error);
    if (path.startsWith('/dev/')) {
      throw new PrinterError(
        'UNREACHABLE',
        `There is no printer device ${path}; check that the printer is on and plugged in.`,
        {
          cause: error,
        },
      );
    }
    // A new spool file: its folder must exist.
    try {
      await stat(dirname(path));
    } catch (dirError) {
      throw new PrinterError('UNREACHABLE', `The folder of the printer file ${path} does not exist.`, {
        cause: dirError,
      });
    }
  }
  try {
    return await open(path, isRegular ? 'a' : fsConstants.O_WRONLY);
  } catch (error) {
    throw mapOpenError(path, error);
  }
}

function mapOpenError(path: string, error: unknown): PrinterError {
  const err = error instanceof Error ? error : new Error(String(error));
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ENOENT':
    case 'ENODEV':
    case 'ENXIO':
      return new PrinterError(
        'UNREACHABLE',
        `There is no printer device ${path}; check that the printer is on and plugged in.`,
        {
          cause: err,
        },
      );
    case 'EACCES':
    case 'EPERM':
      return new PrinterError(
        'PERMISSION_DENIED',
        `Permission denied opening the printer device ${path}; on Linux add the user to the lp group.`,
        { cause: err },
      );
    case 'EBUSY':
      return new PrinterError('UNREACHABLE', `The printer device ${path} is in use by another program.`, {
        cause: err,
      });
    default:
      return new PrinterError('IO_ERROR', `The printer device ${path} could not be opened: ${err.message}.`, {
        cause: err,
      });
  }
}

/** Devices may take part of a buffer per write(2); keep going until all of it is written. */
async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
    if (bytesWritten <= 0) throw Object.assign(new Error('the device took no bytes'), { code: 'EIO' });
    offset += bytesWritten;
  }
}

function withTimeout<T>(work: Promise<T>, timeoutMs: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
