/**
 * Ways to reach a simulated PINPAD: an in-memory link (training mode, fast tests), a pseudo
 * terminal made by socat (anything that opens a serial port, e.g. `pinbridge --port /dev/pts/7`),
 * and a TCP listener (network PINPADs carry the same byte stream over a socket, abecs.md §7).
 * Everything the `pinbridge simulator` command needs is exported from here.
 */
import { EventEmitter } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { silentLogger, type DriverLogger } from '../log.js';
import { createMemoryLink, type MemoryLink, type MemoryLinkOptions } from '../transports/memory.js';
import { SerialTransport } from '../transports/serial.js';
import { TransportError, type ByteTransport, type TransportEvents } from '../transports/transport.js';
import type { PinpadSimulator, SimulatorSession } from './simulator.js';
import { SimulatorServerError } from './server-error.js';
import { createPtyPair, type PtyPairOptions } from './socat.js';

export { SimulatorServerError };

// ------------------------------------------------------------------------------------------------
// In-memory

export interface MemorySimulator {
  /** The link; the host opens `link.host`. */
  readonly link: MemoryLink;
  readonly session: SimulatorSession;
  close(): Promise<void>;
}

/** Serves `sim` on the device end of a new in-memory link. */
export async function startMemorySimulator(
  sim: PinpadSimulator,
  options: MemoryLinkOptions = {},
): Promise<MemorySimulator> {
  const link = createMemoryLink(options);
  const session = sim.serve(link.device);
  await session.ready;
  return {
    link,
    session,
    async close() {
      await session.close();
    },
  };
}

// ------------------------------------------------------------------------------------------------
// Pseudo terminal (socat)

export interface PtySimulatorOptions extends PtyPairOptions {
  readonly logger?: DriverLogger;
}

export interface PtySimulator {
  /** The pty the host opens as its serial port. */
  readonly path: string;
  /** The pty the simulator holds. */
  readonly devicePath: string;
  readonly session: SimulatorSession;
  /** Stops serving, closes the pty and stops socat. */
  close(): Promise<void>;
}

/**
 * Serves `sim` on one end of a socat pty pair and returns the other end's path for the host.
 * Rejects with SOCAT_NOT_FOUND when socat is not installed.
 */
export async function startPtySimulator(
  sim: PinpadSimulator,
  options: PtySimulatorOptions = {},
): Promise<PtySimulator> {
  const logger = options.logger ?? silentLogger;
  const pair = await createPtyPair(options);
  const { a: devicePath, b: hostPath } = pair;
  const transport = new SerialTransport(devicePath);
  try {
    await transport.open();
  } catch (error) {
    await pair.close();
    throw error;
  }
  const session = sim.serve(transport);
  await session.ready;
  logger.info({ path: hostPath }, 'simulated PINPAD listening on a pseudo terminal');
  let closing: Promise<void> | undefined;
  return {
    path: hostPath,
    devicePath,
    session,
    close() {
      closing ??= (async () => {
        await session.close();
        await transport.close();
        await pair.close();
      })();
      return closing;
    },
  };
}

// ------------------------------------------------------------------------------------------------
// TCP

/** Server side of one accepted TCP connection, as a ByteTransport the simulator can serve. */
export class SocketTransport extends EventEmitter<TransportEvents> implements ByteTransport {
  readonly kind = 'tcp' as const;
  readonly address: string;
  #opened = true;
  #closedOnPurpose = false;
  readonly #socket: Socket;

  constructor(socket: Socket) {
    super();
    this.#socket = socket;
    this.address = `tcp://${socket.remoteAddress ?? 'unknown'}:${socket.remotePort ?? 0}`;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.emit('data', chunk));
    // Errors end in 'close'; without a listener Node would throw.
    socket.on('error', () => {});
    socket.on('close', () => {
      if (!this.#opened) return;
      this.#opened = false;
      if (this.#closedOnPurpose) this.emit('close', { expected: true });
      else
        this.emit('close', {
          expected: false,
          error: new TransportError('DISCONNECTED', `${this.address} closed the connection.`),
        });
    });
  }

  get isOpen(): boolean {
    return this.#opened;
  }

  /** The socket is already connected when accepted. */
  open(): Promise<void> {
    if (!this.#opened) return Promise.reject(new TransportError('DISCONNECTED', `${this.address} is closed.`));
    return Promise.resolve();
  }

  write(data: Uint8Array): Promise<void> {
    if (!this.#opened) return Promise.reject(new TransportError('NOT_OPEN', `${this.address} is not open.`));
    return new Promise<void>((resolve, reject) => {
      this.#socket.write(data, (error) =>
        error
          ? reject(new TransportError('IO_ERROR', `Writing to ${this.address} failed: ${error.message}.`))
          : resolve(),
      );
    });
  }

  close(): Promise<void> {
    if (!this.#opened) return Promise.resolve();
    this.#closedOnPurpose = true;
    return new Promise<void>((resolve) => {
      this.#socket.once('close', () => resolve());
      this.#socket.end();
      // A peer that never closes its side must not keep us waiting.
      setTimeout(() => this.#socket.destroy(), 1000).unref();
    });
  }
}

export interface TcpSimulatorOptions {
  /** Interface to listen on; loopback by default (a simulator has no business on the LAN). */
  readonly host?: string;
  /** 0 picks a free port. */
  readonly port?: number;
  readonly logger?: DriverLogger;
}

export interface TcpSimulator {
  readonly host: string;
  readonly port: number;
  /** `tcp://host:port`, the host driver's `--port` syntax. */
  readonly address: string;
  /** The session of the connected host, if one is connected (fault injection, tests). */
  readonly session: SimulatorSession | undefined;
  /** Drops the connected host, as a network cable pulled out would; the listener stays. */
  disconnectClient(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Listens for a host on TCP. One client at a time, like one cable: a second connection while one
 * is being served is closed at once (and logged).
 */
export async function startTcpSimulator(
  sim: PinpadSimulator,
  options: TcpSimulatorOptions = {},
): Promise<TcpSimulator> {
  const logger = options.logger ?? silentLogger;
  let current: { transport: SocketTransport; session: SimulatorSession } | undefined;
  const server: Server = createServer((socket) => {
    if (current) {
      logger.warn({ remote: socket.remoteAddress }, 'simulated PINPAD already has a client; connection refused');
      socket.on('error', () => {});
      socket.destroy();
      return;
    }
    const transport = new SocketTransport(socket);
    const session = sim.serve(transport);
    const served = { transport, session };
    current = served;
    logger.info({ remote: transport.address }, 'host connected to the simulated PINPAD');
    transport.once('close', () => {
      void session.close();
      if (current === served) current = undefined;
      logger.info({}, 'host disconnected from the simulated PINPAD');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new SimulatorServerError(
          error.code === 'EADDRINUSE' ? 'ADDRESS_IN_USE' : 'LISTEN_FAILED',
          `The simulator could not listen on ${options.host ?? '127.0.0.1'}:${options.port ?? 0}: ${error.message}.`,
        ),
      ),
    );
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const info = server.address() as AddressInfo;
  logger.info({ host: info.address, port: info.port }, 'simulated PINPAD listening on TCP');
  let closing: Promise<void> | undefined;
  return {
    host: info.address,
    port: info.port,
    address: `tcp://${info.address}:${info.port}`,
    get session() {
      return current?.session;
    },
    async disconnectClient() {
      const served = current;
      if (!served) return;
      current = undefined;
      await served.session.close();
      await served.transport.close();
    },
    close() {
      closing ??= (async () => {
        const served = current;
        current = undefined;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        if (served) {
          await served.session.close();
          await served.transport.close();
        }
        await stopped;
      })();
      return closing;
    },
  };
}
