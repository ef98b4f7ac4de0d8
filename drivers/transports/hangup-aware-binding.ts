/**
 * serialport's native binding, mended so an unplugged PINPAD is reported instead of spinning a CPU.
 *
 * When a USB serial device goes away on Linux (and when a pty's other end closes) the kernel hangs
 * the port up: every read from then on returns 0 bytes, end of file. bindings-cpp 13 answers a
 * 0-byte read by reading again at once, for ever (serialport/bindings-cpp#162; the fix, #164, was
 * never merged): the port never emits its disconnect and one core runs at 100 %. Here a port reads
 * the unix way itself — read, on EAGAIN wait for the poller's `readable`, read again — and treats
 * end of file as the disconnect it is. With VMIN=1, VTIME=0 and O_NONBLOCK (how bindings-cpp opens
 * a port) a live port with nothing to say answers EAGAIN, never 0, so nothing else changes.
 * Windows ports have no file descriptor and keep the binding's own read.
 */
import { read } from 'node:fs';
import { promisify } from 'node:util';
import {
  BindingsError,
  type BindingInterface,
  type BindingPortInterface,
  type OpenOptions,
  type PortInfo,
  type PortStatus,
  type SetOptions,
  type UpdateOptions,
} from '@serialport/bindings-cpp';

const readAsync = promisify(read);

/** What the unix ports of bindings-cpp (Linux, macOS) expose besides the interface. */
interface UnixPortInternals {
  readonly fd: number | null;
  readonly poller: { once(event: 'readable', callback: (error: Error | null) => void): unknown };
}

function isUnixPort(port: BindingPortInterface): port is BindingPortInterface & UnixPortInternals {
  const candidate = port as Partial<UnixPortInternals>;
  return 'fd' in port && typeof candidate.poller?.once === 'function';
}

/**
 * The error a hung-up port's read rejects with: end of file, or a poller that can no longer watch
 * the descriptor (libuv answers EBADF once the kernel hung the port up). `disconnect` makes
 * serialport close the stream and report it.
 */
export class HangupError extends Error {
  readonly disconnect = true;
  readonly canceled = false;
  constructor(cause?: Error) {
    super(cause ? `the device hung up (${cause.message})` : 'the device hung up (end of file)', { cause });
    this.name = 'HangupError';
  }
}

const RETRY_CODES = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);

function notOpen(): BindingsError {
  return new BindingsError('Port is not open', { canceled: true });
}

async function readUnix(
  port: BindingPortInterface & UnixPortInternals,
  buffer: Buffer,
  offset: number,
  length: number,
): Promise<{ bytesRead: number; buffer: Buffer }> {
  for (;;) {
    if (!port.isOpen || port.fd === null) throw notOpen();
    let bytesRead: number;
    try {
      ({ bytesRead } = await readAsync(port.fd, buffer, offset, length, null));
    } catch (error) {
      if (!RETRY_CODES.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
      if (!port.isOpen) throw notOpen();
      await new Promise<void>((resolve, reject) => {
        port.poller.once('readable', (pollError) => {
          if (!pollError) resolve();
          // The poller's own cancel (the port closed meanwhile) stays a cancel.
          else reject((pollError as Partial<BindingsError>).canceled === true ? pollError : new HangupError(pollError));
        });
      });
      continue;
    }
    if (bytesRead === 0) throw new HangupError();
    return { bytesRead, buffer };
  }
}

/** A port of the wrapped binding whose unix reads end at a hang-up. */
class HangupAwarePort implements BindingPortInterface {
  readonly #inner: BindingPortInterface;

  constructor(inner: BindingPortInterface) {
    this.#inner = inner;
  }

  get openOptions(): Required<OpenOptions> {
    return this.#inner.openOptions;
  }

  get isOpen(): boolean {
    return this.#inner.isOpen;
  }

  read(buffer: Buffer, offset: number, length: number): Promise<{ bytesRead: number; buffer: Buffer }> {
    const inner = this.#inner;
    return isUnixPort(inner) ? readUnix(inner, buffer, offset, length) : inner.read(buffer, offset, length);
  }

  write(buffer: Buffer): Promise<void> {
    return this.#inner.write(buffer);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  update(options: UpdateOptions): Promise<void> {
    return this.#inner.update(options);
  }

  set(options: SetOptions): Promise<void> {
    return this.#inner.set(options);
  }

  get(): Promise<PortStatus> {
    return this.#inner.get();
  }

  getBaudRate(): Promise<{ baudRate: number }> {
    return this.#inner.getBaudRate();
  }

  flush(): Promise<void> {
    return this.#inner.flush();
  }

  drain(): Promise<void> {
    return this.#inner.drain();
  }
}

/** Wraps a serialport binding (bindings-cpp's, in production) so its ports report a hang-up. */
export function hangupAwareBinding(binding: BindingInterface): BindingInterface {
  return {
    list: (): Promise<PortInfo[]> => binding.list(),
    open: async (options: OpenOptions): Promise<BindingPortInterface> =>
      new HangupAwarePort(await binding.open(options)),
  };
}
