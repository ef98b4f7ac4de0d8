/**
 * Serial-port transport (USB CDC-ACM PINPADs, RS-232, paired Bluetooth SPP ports) over
 * `@serialport/stream` and the native `@serialport/bindings-cpp`. ABECS fixes the line at 19200 bps
 * 8N1 with no flow control (abecs.md §1.1); USB/Bluetooth virtual ports ignore the line coding, so
 * those defaults are right everywhere and only exotic installations need to change them.
 */
import { EventEmitter } from 'node:events';
import { autoDetect } from '@serialport/bindings-cpp';
import { SerialPortStream } from '@serialport/stream';
import { hangupAwareBinding } from './hangup-aware-binding.js';
import { TransportError, type ByteTransport, type TransportErrorCode, type TransportEvents } from './transport.js';

export type SerialParity = 'none' | 'even' | 'odd' | 'mark' | 'space';

export interface SerialLineSettings {
  readonly baudRate: number;
  readonly dataBits: 5 | 6 | 7 | 8;
  readonly parity: SerialParity;
  readonly stopBits: 1 | 1.5 | 2;
  /** RTS/CTS hardware flow control; ABECS states no flow-control requirement, so off. */
  readonly rtscts: boolean;
}

/** ABECS line settings [S220 §2.1]: 19200 bps, 8 data bits, no parity, 1 stop bit. */
export const ABECS_SERIAL_SETTINGS: SerialLineSettings = Object.freeze({
  baudRate: 19200,
  dataBits: 8,
  parity: 'none',
  stopBits: 1,
  rtscts: false,
});

/** What the transport hands to the port factory. */
export interface SerialPortOpenOptions extends SerialLineSettings {
  readonly path: string;
  /** Always false: the transport opens the port itself so it can map the error. */
  readonly autoOpen: false;
}

type Callback = (error: Error | null | undefined) => void;

/**
 * The part of a `SerialPortStream` this transport uses; anything with
 * this shape can be injected, e.g. a `SerialPortStream` over `@serialport/binding-mock` for tests.
 */
export interface SerialPortLike {
  readonly isOpen: boolean;
  open(callback: Callback): void;
  write(data: Buffer, callback: Callback): boolean;
  drain(callback: Callback): void;
  close(callback: Callback): void;
  on(event: 'data', listener: (chunk: Buffer) => void): this;
  on(event: 'close', listener: (error: Error | null | undefined) => void): this;
  on(event: 'error', listener: (error: Error) => void): this;
  removeAllListeners(): this;
}

export type SerialPortFactory = (options: SerialPortOpenOptions) => SerialPortLike;

export interface SerialTransportOptions extends Partial<SerialLineSettings> {
  /** Builds the port; defaults to serialport's native binding, mended to report a hang-up. */
  readonly portFactory?: SerialPortFactory;
}

let nativeBinding: ReturnType<typeof hangupAwareBinding> | undefined;
const defaultPortFactory: SerialPortFactory = (options) => {
  nativeBinding ??= hangupAwareBinding(autoDetect());
  return new SerialPortStream({ binding: nativeBinding, ...options });
};

export class SerialTransport extends EventEmitter<TransportEvents> implements ByteTransport {
  readonly kind = 'serial' as const;
  readonly settings: SerialLineSettings;
  readonly #portFactory: SerialPortFactory;
  #port: SerialPortLike | undefined;
  #opening: Promise<void> | undefined;
  /** Set while `close()` runs so the port's `close` event is reported as expected. */
  #closingOnPurpose = false;
  readonly #pendingWrites = new Set<(error: Error) => void>();

  constructor(
    readonly address: string,
    options: SerialTransportOptions = {},
  ) {
    super();
    const { portFactory, ...line } = options;
    this.#portFactory = portFactory ?? defaultPortFactory;
    this.settings = Object.freeze({
      baudRate: line.baudRate ?? ABECS_SERIAL_SETTINGS.baudRate,
      dataBits: line.dataBits ?? ABECS_SERIAL_SETTINGS.dataBits,
      parity: line.parity ?? ABECS_SERIAL_SETTINGS.parity,
      stopBits: line.stopBits ?? ABECS_SERIAL_SETTINGS.stopBits,
      rtscts: line.rtscts ?? ABECS_SERIAL_SETTINGS.rtscts,
    });
  }

  get isOpen(): boolean {
    return this.#port?.isOpen === true && !this.#closingOnPurpose;
  }

  open(): Promise<void> {
    if (this.#opening) return this.#opening;
    if (this.#port) {
      return Promise.reject(new TransportError('ALREADY_OPEN', `The serial port ${this.address} is already open.`));
    }
    this.#opening = this.#doOpen().finally(() => {
      this.#opening = undefined;
    });
    return this.#opening;
  }

  async #doOpen(): Promise<void> {
    let port: SerialPortLike;
    try {
      port = this.#portFactory({ path: this.address, autoOpen: false, ...this.settings });
    } catch (error) {
      // serialport validates options synchronously (e.g. an unsupported data-bit count).
      throw mapSerialOpenError(this.address, error);
    }
    await new Promise<void>((resolve, reject) => {
      port.open((error) => (error ? reject(mapSerialOpenError(this.address, error)) : resolve()));
    });
    this.#port = port;
    port.on('data', (chunk) => this.emit('data', chunk));
    // serialport emits 'error' for failed writes etc.; without a listener Node would throw. The
    // failure itself reaches the caller through write()'s promise or the 'close' event.
    port.on('error', () => {});
    port.on('close', (error) => this.#onPortClosed(port, error ?? undefined));
    this.emit('open');
  }

  /** serialport emits `close` with a DisconnectedError when the device vanished (unplug). */
  #onPortClosed(port: SerialPortLike, error: Error | undefined): void {
    if (this.#port !== port) return;
    this.#port = undefined;
    port.removeAllListeners();
    port.on('error', () => {});
    const pending = [...this.#pendingWrites];
    this.#pendingWrites.clear();
    const gone = new TransportError('NOT_OPEN', `The serial port ${this.address} closed before the write finished.`);
    for (const fail of pending) fail(gone);
    if (this.#closingOnPurpose) {
      this.emit('close', { expected: true });
      return;
    }
    const cause = new TransportError(
      'DISCONNECTED',
      `The serial port ${this.address} was disconnected${error ? `: ${error.message}` : ''}.`,
      { cause: error },
    );
    this.emit('close', { expected: false, error: cause });
  }

  write(data: Uint8Array): Promise<void> {
    const port = this.#port;
    if (!port || !this.isOpen) {
      return Promise.reject(new TransportError('NOT_OPEN', `The serial port ${this.address} is not open.`));
    }
    return new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => {
        this.#pendingWrites.delete(fail);
        // The port closing under the write (close() called, the cable pulled) cancels it: that is
        // the link gone (NOT_OPEN, as the close path says), not a fault of the write itself.
        const closedUnder = this.#closingOnPurpose || this.#port !== port || !port.isOpen;
        reject(
          error instanceof TransportError
            ? error
            : closedUnder
              ? new TransportError('NOT_OPEN', `The serial port ${this.address} closed before the write finished.`, {
                  cause: error,
                })
              : new TransportError('IO_ERROR', `Writing to the serial port ${this.address} failed: ${error.message}.`, {
                  cause: error,
                }),
        );
      };
      // A port that vanishes mid-write may never call back; onPortClosed() fails these instead.
      this.#pendingWrites.add(fail);
      port.write(Buffer.from(data), (error) => {
        if (error) fail(error);
      });
      // drain() waits until the OS has taken the bytes (tcdrain), which is what "sent" means here.
      port.drain((error) => {
        if (error) {
          fail(error);
        } else {
          this.#pendingWrites.delete(fail);
          resolve();
        }
      });
    });
  }

  async close(): Promise<void> {
    if (this.#opening) await this.#opening.catch(() => undefined);
    const port = this.#port;
    if (!port || this.#closingOnPurpose) return;
    this.#closingOnPurpose = true;
    try {
      await new Promise<void>((resolve) => {
        if (!port.isOpen) {
          this.#onPortClosed(port, undefined);
          resolve();
          return;
        }
        port.close((error) => {
          // A failed close still leaves us without a usable port; report it as closed.
          if (error && this.#port === port) this.#onPortClosed(port, undefined);
          resolve();
        });
      });
    } finally {
      this.#closingOnPurpose = false;
    }
  }
}

/** Turns serialport/OS open errors into TransportErrors with a sentence naming the port. */
export function mapSerialOpenError(path: string, error: unknown): TransportError {
  if (error instanceof TransportError) return error;
  const err = error instanceof Error ? error : new Error(String(error));
  const text = `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`;
  let code: TransportErrorCode = 'IO_ERROR';
  let message = `The serial port ${path} could not be opened: ${err.message}.`;
  if (/ENOENT|No such file|not found|does not exist|File not found/i.test(text)) {
    code = 'PORT_NOT_FOUND';
    message = `The serial port ${path} does not exist; check the cable and the port name.`;
  } else if (/EACCES|EPERM|Permission denied|Access denied/i.test(text)) {
    code = 'PERMISSION_DENIED';
    message = `Permission denied opening the serial port ${path}; on Linux add the user to the dialout group.`;
  } else if (/EBUSY|lock|busy|Resource temporarily unavailable/i.test(text)) {
    code = 'PORT_BUSY';
    message = `The serial port ${path} is in use by another program.`;
  }
  return new TransportError(code, message, { cause: err });
}
