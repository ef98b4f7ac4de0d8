/**
 * Ways to reach a simulated PINPAD: an in-memory link (training mode, fast tests), a pseudo
 * terminal made by socat (anything that opens a serial port, e.g. `pinbridge --port /dev/pts/7`),
 * and a TCP listener (network PINPADs carry the same byte stream over a socket, abecs.md §7).
 * Everything the `pinbridge simulator` command needs is exported from here.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { DriverError } from '../errors.js';
import { silentLogger, type DriverLogger } from '../log.js';
import { createMemoryLink, type MemoryLink, type MemoryLinkOptions } from '../transports/memory.js';
import { SerialTransport } from '../transports/serial.js';
import { TransportError, type ByteTransport, type TransportEvents } from '../transports/transport.js';
import type { PinpadSimulator, SimulatorSession } from './simulator.js';

export class SimulatorServerError extends DriverError {}

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

export interface PtySimulatorOptions {
  /** The socat executable; "socat" from PATH by default. */
  readonly socatPath?: string;
  /** How long to wait for socat to report both ptys. */
  readonly startTimeoutMs?: number;
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

const PTY_LINE = /PTY is (\S+)/g;

interface SocatPair {
  readonly paths: [string, string];
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

function spawnSocat(socatPath: string, timeoutMs: number): Promise<SocatPair> {
  const child = spawn(socatPath, ['-d', '-d', 'pty,raw,echo=0', 'pty,raw,echo=0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) child.kill('SIGTERM');
    await exited;
  };
  return new Promise<SocatPair>((resolve, reject) => {
    let stderr = '';
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void stop().finally(() => reject(error));
    };
    const timer = setTimeout(
      () =>
        fail(new SimulatorServerError('SOCAT_FAILED', `socat did not create the two pseudo terminals within ${timeoutMs} ms.`)),
      timeoutMs,
    );
    child.once('error', (error: NodeJS.ErrnoException) => {
      fail(
        error.code === 'ENOENT'
          ? new SimulatorServerError(
              'SOCAT_NOT_FOUND',
              'The pseudo-terminal simulator needs socat; install it (e.g. "apt-get install socat" or "brew install socat").',
            )
          : new SimulatorServerError('SOCAT_FAILED', `socat could not be started: ${error.message}.`),
      );
    });
    child.once('exit', (code) => fail(new SimulatorServerError('SOCAT_FAILED', `socat exited early with code ${code}.`)));
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      if (settled) return;
      stderr += text;
      const paths = [...stderr.matchAll(PTY_LINE)].map((match) => match[1]!);
      // "starting data transfer loop" means both ptys exist and socat relays bytes.
      if (paths.length >= 2 && stderr.includes('starting data transfer loop')) {
        settled = true;
        clearTimeout(timer);
        child.stderr?.removeAllListeners('data');
        child.stderr?.resume();
        resolve({ paths: [paths[0]!, paths[1]!], child, stop });
      }
    });
  });
}

/**
 * Serves `sim` on one end of a socat pty pair and returns the other end's path for the host.
 * Rejects with SOCAT_NOT_FOUND when socat is not installed.
 */
export async function startPtySimulator(sim: PinpadSimulator, options: PtySimulatorOptions = {}): Promise<PtySimulator> {
  const logger = options.logger ?? silentLogger;
  const pair = await spawnSocat(options.socatPath ?? 'socat', options.startTimeoutMs ?? 10_000);
  const [devicePath, hostPath] = pair.paths;
  const transport = new SerialTransport(devicePath);
  try {
    await transport.open();
  } catch (error) {
    await pair.stop();
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
        await pair.stop();
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
  private opened = true;
  private closedOnPurpose = false;

  constructor(private readonly socket: Socket) {
    super();
    this.address = `tcp://${socket.remoteAddress ?? 'unknown'}:${socket.remotePort ?? 0}`;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.emit('data', chunk));
    // Errors end in 'close'; without a listener Node would throw.
    socket.on('error', () => {});
    socket.on('close', () => {
      if (!this.opened) return;
      this.opened = false;
      if (this.closedOnPurpose) this.emit('close', { expected: true });
      else this.emit('close', { expected: false, error: new TransportError('DISCONNECTED', `${this.address} closed the connection.`) });
    });
  }

  get isOpen(): boolean {
    return this.opened;
  }

  /** The socket is already connected when accepted. */
  open(): Promise<void> {
    if (!this.opened) return Promise.reject(new TransportError('DISCONNECTED', `${this.address} is closed.`));
    return Promise.resolve();
  }

  write(data: Uint8Array): Promise<void> {
    if (!this.opened) return Promise.reject(new TransportError('NOT_OPEN', `${this.address} is not open.`));
    return new Promise<void>((resolve, reject) => {
      this.socket.write(data, (error) =>
        error ? reject(new TransportError('IO_ERROR', `Writing to ${this.address} failed: ${error.message}.`)) : resolve(),
      );
    });
  }

  close(): Promise<void> {
    if (!this.opened) return Promise.resolve();
    this.closedOnPurpose = true;
    return new Promise<void>((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.end();
      // A peer that never closes its side must not keep us waiting.
      setTimeout(() => this.socket.destroy(), 1000).unref();
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
export async function startTcpSimulator(sim: PinpadSimulator, options: TcpSimulatorOptions = {}): Promise<TcpSimulator> {
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
