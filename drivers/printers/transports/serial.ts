/**
 * Serial receipt printers (RS-232, USB-serial adapters, USB printers that enumerate as a CDC port,
 * Bluetooth SPP) through the project's serial byte transport. ESC/POS printers ship at 9600 bps 8N1;
 * the printer answers DLE EOT on the same line. A port that vanished (USB unplugged) is reported and
 * opened again by the next job.
 */
import { EventEmitter } from 'node:events';
import { SerialTransport, type SerialPortFactory } from '../../transports/serial.js';
import { TransportError } from '../../transports/transport.js';
import { PrinterError, type PrinterErrorCode } from '../errors.js';
import type { PrinterTransport, PrinterTransportEvents } from './printer-transport.js';
import { AnswerReader } from './answers.js';
import { Exclusive } from './exclusive.js';

/** The factory setting of ESC/POS serial printers (Epson, Elgin, Bematech, Daruma…). */
export const DEFAULT_PRINTER_BAUD_RATE = 9600;

/** XON and XOFF: a printer in software flow control sends them whenever its buffer fills or drains. */
const XON = 0x11;
const XOFF = 0x13;

export interface SerialPrinterOptions {
  readonly path: string;
  /** Default 9600. */
  readonly baudRate?: number;
  /** RTS/CTS hardware flow control, for printers set to it. Default off. */
  readonly rtscts?: boolean;
  /** Time allowed beyond the line's transmission time for a write to drain. Default 10 s. */
  readonly writeMarginMs?: number;
  /** Builds the port (tests inject serialport's mock); default: the native port. */
  readonly portFactory?: SerialPortFactory;
}

export class SerialPrinterTransport extends EventEmitter<PrinterTransportEvents> implements PrinterTransport {
  readonly kind = 'serial' as const;
  readonly address: string;
  readonly path: string;
  readonly baudRate: number;
  readonly #writeMarginMs: number;
  readonly #line: SerialTransport;
  // A DLE EOT answer always has bit 0 off, XON/XOFF have it on: dropping them never loses an answer.
  readonly #answers = new AnswerReader((byte) => byte !== XON && byte !== XOFF);
  readonly #exclusive = new Exclusive();
  #wanted = false;
  /** Between the line's `open` and the `disconnected` we report, so a loss is reported once. */
  #linkUp = false;

  constructor(options: SerialPrinterOptions) {
    super();
    this.path = options.path;
    this.baudRate = options.baudRate ?? DEFAULT_PRINTER_BAUD_RATE;
    this.address = formatSerialPrinterAddress(this.path, this.baudRate);
    this.#writeMarginMs = options.writeMarginMs ?? 10_000;
    this.#line = new SerialTransport(this.path, {
      baudRate: this.baudRate,
      dataBits: 8,
      parity: 'none',
      stopBits: 1,
      rtscts: options.rtscts ?? false,
      ...(options.portFactory ? { portFactory: options.portFactory } : {}),
    });
    this.#line.on('data', (chunk) => this.#answers.feed(chunk));
    this.#line.on('open', () => {
      this.#linkUp = true;
      this.emit('connected');
    });
    this.#line.on('close', (info) => {
      if (!info.expected) this.#lost(info.error);
    });
  }

  get isOpen(): boolean {
    return this.#wanted;
  }

  get connected(): boolean {
    return this.#line.isOpen;
  }

  async open(): Promise<void> {
    if (this.#wanted && this.#line.isOpen) return;
    this.#wanted = true;
    try {
      await this.#ensureOpen();
    } catch (error) {
      this.#wanted = false;
      throw error;
    }
  }

  write(bytes: Uint8Array): Promise<void> {
    return this.#exclusive.run(async () => {
      await this.#ensureOpen();
      await this.#send(bytes);
    });
  }

  request(bytes: Uint8Array, answerLength: number, timeoutMs: number): Promise<Uint8Array> {
    return this.#exclusive.run(async () => {
      await this.#ensureOpen();
      this.#answers.discard();
      const answer = this.#answers.expect(
        answerLength,
        timeoutMs,
        () =>
          new PrinterError(
            'TIMEOUT',
            `The printer on ${this.path} did not answer a status request within ${timeoutMs} ms.`,
          ),
      );
      try {
        await this.#send(bytes);
      } catch (error) {
        this.#answers.fail(error as Error);
        await answer.catch(() => undefined);
        throw error;
      }
      return answer;
    });
  }

  async close(): Promise<void> {
    this.#wanted = false;
    this.#answers.fail(new PrinterError('NOT_OPEN', `The printer's serial port ${this.path} was closed.`));
    await this.#line.close();
  }

  async #ensureOpen(): Promise<void> {
    if (!this.#wanted) throw new PrinterError('NOT_OPEN', `The printer's serial port ${this.path} is not open.`);
    if (this.#line.isOpen) return;
    try {
      await this.#line.open();
    } catch (error) {
      const failure = fromTransportError(error);
      // A port that cannot be opened (EIO on a pty whose other end is gone, a USB adapter
      // half-unplugged) is a printer out of reach, not a fault of the job.
      if (failure.code === 'IO_ERROR') throw new PrinterError('UNREACHABLE', failure.message, { cause: error });
      throw failure;
    }
  }

  /** Reports the line gone (once) and fails a pending answer. */
  #lost(cause: unknown): PrinterError {
    const error = new PrinterError(
      'DISCONNECTED',
      `The printer's serial port ${this.path} was disconnected; check the cable.`,
      {
        cause,
      },
    );
    this.#answers.fail(error);
    if (this.#linkUp) {
      this.#linkUp = false;
      this.emit('disconnected', error);
    }
    return error;
  }

  /**
   * A write the port refuses means the device is gone even when serialport has not noticed yet (it
   * does not always see a vanished pty or USB adapter): close the port so the next job opens it again.
   */
  async #failedWrite(error: PrinterError): Promise<PrinterError> {
    if (error.code === 'TIMEOUT') return error;
    const lost = this.#lost(error);
    await this.#line.close().catch(() => undefined);
    return lost;
  }

  /** Resolves once the bytes left the port; the limit grows with the job (9600 bps is ~1 KB/s). */
  async #send(bytes: Uint8Array): Promise<void> {
    // 10 bits per byte on an 8N1 line, twice over for printers that pause to print.
    const limitMs = this.#writeMarginMs + Math.ceil(((bytes.length * 10) / this.baudRate) * 1000 * 2);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new PrinterError(
              'TIMEOUT',
              `The printer on ${this.path} did not take ${bytes.length} bytes within ${limitMs} ms.`,
            ),
          ),
        limitMs,
      );
    });
    try {
      await Promise.race([this.#line.write(bytes), timeout]);
    } catch (error) {
      throw await this.#failedWrite(fromTransportError(error));
    } finally {
      clearTimeout(timer);
    }
  }
}

/** `serial:///dev/ttyUSB0?baud=9600`, or `serial:COM3?baud=9600` for Windows ports. */
export function formatSerialPrinterAddress(path: string, baudRate: number): string {
  return `serial:${path.startsWith('/') ? `//${path}` : path}?baud=${baudRate}`;
}

const CODE_OF: Partial<Record<TransportError['code'], PrinterErrorCode>> = {
  PORT_NOT_FOUND: 'UNREACHABLE',
  PORT_BUSY: 'UNREACHABLE',
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  DISCONNECTED: 'DISCONNECTED',
  NOT_OPEN: 'DISCONNECTED',
  INVALID_PORT: 'INVALID_ADDRESS',
};

/** The serial transport's sentences already name the port and the remedy; only the code changes. */
function fromTransportError(error: unknown): PrinterError {
  if (error instanceof PrinterError) return error;
  if (error instanceof TransportError) {
    return new PrinterError(CODE_OF[error.code] ?? 'IO_ERROR', error.message, { cause: error });
  }
  const err = error instanceof Error ? error : new Error(String(error));
  return new PrinterError('IO_ERROR', `The printer's serial port failed: ${err.message}.`, { cause: err });
}
