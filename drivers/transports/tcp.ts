/**
 * TCP transport for network (Wi-Fi/Ethernet) PINPADs. No source gives a port or a wrapper for
 * ABECS over TCP, so the socket carries the same SYN…ETB+CRC byte stream as a serial line
 * (abecs.md §7). Network links drop more often than cables, so the transport can reconnect in the
 * background with exponential backoff and announces each re-established link with `open`.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { backoffDelay } from '../../lib/backoff.js';
import { connectSocket, ConnectTimeout } from './connect.js';
import { TransportError, type ByteTransport, type TransportEvents } from './transport.js';

export interface TcpReconnectOptions {
  /** Delay before the first reconnection attempt. Default 500 ms. */
  readonly initialDelayMs?: number;
  /** Upper bound for the delay between attempts. Default 10 s. */
  readonly maxDelayMs?: number;
  /** Growth of the delay after each failed attempt. Default 2. */
  readonly factor?: number;
  /** Attempts before giving up. Default unlimited. */
  readonly maxAttempts?: number;
  /** Randomise each delay by up to ±this fraction (0–1) so many agents do not retry in step. Default 0. */
  readonly jitter?: number;
}

export interface TcpTransportOptions {
  readonly host: string;
  readonly port: number;
  /** Give up a connection attempt after this long. Default 5000 ms. */
  readonly connectTimeoutMs?: number;
  /** Reconnect after an unexpected drop (default on); `false` to only report the drop. */
  readonly reconnect?: TcpReconnectOptions | false;
  /** TCP keep-alive probe delay in ms (`true` = 10 s); detects dead peers on idle links. Default on. */
  readonly keepAlive?: boolean | number;
}

interface ResolvedReconnect {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly factor: number;
  readonly maxAttempts: number;
  readonly jitter: number;
}

const DEFAULT_KEEPALIVE_MS = 10_000;

/**
 * Delay before reconnection attempt number `attempt` (0-based): initial × factor^attempt, capped at
 * the maximum, then spread by ±jitter. `random` is injectable so the spread can be tested.
 */
export function backoffDelayMs(
  attempt: number,
  options: Pick<TcpReconnectOptions, 'initialDelayMs' | 'maxDelayMs' | 'factor' | 'jitter'> = {},
  random: () => number = Math.random,
): number {
  const initial = options.initialDelayMs ?? 500;
  const max = options.maxDelayMs ?? 10_000;
  const factor = options.factor ?? 2;
  const jitter = Math.min(Math.max(options.jitter ?? 0, 0), 1);
  return backoffDelay(
    attempt + 1,
    { baseMs: initial, capMs: max, factor, jitter: { kind: 'spread', ratio: jitter } },
    random,
  );
}

/** Formats a host for a URL: IPv6 literals go in brackets. */
export function formatTcpAddress(host: string, port: number): string {
  return `tcp://${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

export class TcpTransport extends EventEmitter<TransportEvents> implements ByteTransport {
  readonly kind = 'tcp' as const;
  readonly address: string;
  readonly host: string;
  readonly port: number;
  readonly #connectTimeoutMs: number;
  readonly #reconnectOptions: ResolvedReconnect | undefined;
  readonly #keepAliveMs: number | undefined;
  #socket: net.Socket | undefined;
  #opening: Promise<void> | undefined;
  /** True between `open()` and `close()`: the user wants the link up. */
  #wanted = false;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #attempts = 0;
  #reconnectInFlight = false;

  constructor(options: TcpTransportOptions) {
    super();
    this.host = options.host;
    this.port = options.port;
    this.address = formatTcpAddress(options.host, options.port);
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    const keepAlive = options.keepAlive ?? true;
    this.#keepAliveMs = keepAlive === false ? undefined : keepAlive === true ? DEFAULT_KEEPALIVE_MS : keepAlive;
    if (options.reconnect !== false) {
      const r = options.reconnect ?? {};
      this.#reconnectOptions = {
        initialDelayMs: r.initialDelayMs ?? 500,
        maxDelayMs: r.maxDelayMs ?? 10_000,
        factor: r.factor ?? 2,
        maxAttempts: r.maxAttempts ?? Number.POSITIVE_INFINITY,
        jitter: Math.min(Math.max(r.jitter ?? 0, 0), 1),
      };
    }
  }

  get isOpen(): boolean {
    return this.#socket !== undefined;
  }

  /** True while the link is down and a background reconnection is scheduled or in progress. */
  get reconnecting(): boolean {
    return this.#reconnectTimer !== undefined || this.#reconnectInFlight;
  }

  /** Failed reconnection attempts since the link last went down. */
  get reconnectAttempts(): number {
    return this.#attempts;
  }

  open(): Promise<void> {
    if (this.#opening) return this.#opening;
    if (this.#socket) {
      return Promise.reject(new TransportError('ALREADY_OPEN', `The connection to ${this.address} is already open.`));
    }
    this.#cancelReconnect();
    this.#wanted = true;
    this.#opening = this.#connect()
      .then((socket) => this.#adopt(socket))
      .catch((error: unknown) => {
        this.#wanted = false;
        throw error;
      })
      .finally(() => {
        this.#opening = undefined;
      });
    return this.#opening;
  }

  write(data: Uint8Array): Promise<void> {
    const socket = this.#socket;
    if (!socket) {
      return Promise.reject(new TransportError('NOT_OPEN', `The connection to ${this.address} is not open.`));
    }
    return new Promise<void>((resolve, reject) => {
      socket.write(Buffer.from(data), (error) => {
        if (error) {
          reject(
            new TransportError('IO_ERROR', `Sending to ${this.address} failed: ${error.message}.`, { cause: error }),
          );
        } else {
          resolve();
        }
      });
    });
  }

  async close(): Promise<void> {
    this.#wanted = false;
    this.#cancelReconnect();
    if (this.#opening) await this.#opening.catch(() => undefined);
    const socket = this.#socket;
    if (!socket) return;
    this.#socket = undefined;
    socket.removeAllListeners();
    socket.on('error', () => {});
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.end();
      // Do not wait for a peer that never acknowledges the FIN.
      socket.destroySoon();
      setTimeout(() => socket.destroy(), 1000).unref();
    });
    this.emit('close', { expected: true });
  }

  /** One connection attempt, with timeout and error mapping. */
  #connect(): Promise<net.Socket> {
    return connectSocket(this.host, this.port, this.#connectTimeoutMs).catch((error: unknown) => {
      if (error instanceof ConnectTimeout) {
        throw new TransportError(
          'CONNECT_TIMEOUT',
          `No answer from ${this.address} within ${this.#connectTimeoutMs} ms; check the PINPAD's network address.`,
        );
      }
      throw mapConnectError(this.address, error as NodeJS.ErrnoException);
    });
  }

  #adopt(socket: net.Socket): void {
    if (!this.#wanted) {
      // close() was called while connecting.
      socket.destroy();
      return;
    }
    // ABECS packets are small and latency-bound (ACK within 2 s); Nagle would hold them back.
    socket.setNoDelay(true);
    if (this.#keepAliveMs !== undefined) socket.setKeepAlive(true, this.#keepAliveMs);
    this.#socket = socket;
    this.#attempts = 0;
    let lastError: Error | undefined;
    socket.on('data', (chunk: Buffer) => this.emit('data', chunk));
    socket.on('error', (error) => {
      lastError = error;
    });
    socket.on('close', () => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      const error = new TransportError(
        'DISCONNECTED',
        `The connection to ${this.address} was lost${lastError ? `: ${lastError.message}` : ''}.`,
        { cause: lastError },
      );
      // Schedule first so `close` listeners already see `reconnecting === true`.
      if (this.#wanted) this.#scheduleReconnect();
      this.emit('close', { expected: false, error });
    });
    this.emit('open');
  }

  #scheduleReconnect(): void {
    const r = this.#reconnectOptions;
    if (!r || !this.#wanted) return;
    if (this.#attempts >= r.maxAttempts) {
      this.#wanted = false;
      return;
    }
    const delay = backoffDelayMs(this.#attempts, r);
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = undefined;
      this.#reconnectInFlight = true;
      this.#connect().then(
        (socket) => {
          this.#reconnectInFlight = false;
          this.#adopt(socket);
        },
        () => {
          this.#reconnectInFlight = false;
          this.#attempts += 1;
          this.#scheduleReconnect();
        },
      );
    }, delay);
  }

  #cancelReconnect(): void {
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = undefined;
    this.#attempts = 0;
  }
}

function mapConnectError(address: string, error: NodeJS.ErrnoException): TransportError {
  switch (error.code) {
    case 'ECONNREFUSED':
      return new TransportError(
        'CONNECTION_REFUSED',
        `${address} refused the connection; is the PINPAD on and listening on that port?`,
        { cause: error },
      );
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new TransportError(
        'HOST_UNREACHABLE',
        `${address} cannot be reached (${error.code}); check the network.`,
        {
          cause: error,
        },
      );
    case 'ETIMEDOUT':
      return new TransportError('CONNECT_TIMEOUT', `Connecting to ${address} timed out.`, { cause: error });
    default:
      return new TransportError('IO_ERROR', `Connecting to ${address} failed: ${error.message}.`, { cause: error });
  }
}
