/**
 * Network receipt printers on their raw TCP port ("JetDirect", 9100 by default): the socket carries
 * the ESC/POS bytes as they are and the printer answers DLE EOT on the same socket.
 *
 * A dropped connection is not re-established in the background: a printer is idle most of the day and
 * a store network has better things to do than watch it. The drop is reported (`disconnected`) and the
 * next job or status request connects again.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { connectSocket, ConnectTimeout } from '../../transports/connect.js';
import { PrinterError } from '../errors.js';
import type { PrinterTransport, PrinterTransportEvents } from './printer-transport.js';
import { AnswerReader } from './answers.js';
import { Exclusive } from './exclusive.js';

/** The raw printing port of network printers (HP JetDirect, Epson, Elgin, Bematech, …). */
export const RAW_PRINTING_PORT = 9100;

export interface TcpPrinterOptions {
  readonly host: string;
  /** Default 9100. */
  readonly port?: number;
  /** Give up a connection attempt after this long. Default 5000 ms. */
  readonly connectTimeoutMs?: number;
  /** Give up a write the printer does not take within this long (its buffer stays full). Default 30 s. */
  readonly writeTimeoutMs?: number;
  /** TCP keep-alive probe delay, so a printer switched off while idle is noticed. Default 10 s. */
  readonly keepAliveMs?: number;
}

/** `tcp://host:port`, IPv6 literals in brackets. */
export function formatTcpPrinterAddress(host: string, port: number): string {
  return `tcp://${net.isIPv6(host) ? `[${host}]` : host}:${port}`;
}

export class TcpPrinterTransport extends EventEmitter<PrinterTransportEvents> implements PrinterTransport {
  readonly kind = 'tcp' as const;
  readonly address: string;
  readonly host: string;
  readonly port: number;
  readonly #connectTimeoutMs: number;
  readonly #writeTimeoutMs: number;
  readonly #keepAliveMs: number;
  readonly #answers = new AnswerReader();
  readonly #exclusive = new Exclusive();
  #socket: net.Socket | undefined;
  #connecting: Promise<net.Socket> | undefined;
  /** Between open() and close(): jobs may (re)connect. */
  #wanted = false;
  /** Why we destroyed the socket ourselves, reported instead of a plain "connection lost". */
  #closeReason: PrinterError | undefined;

  constructor(options: TcpPrinterOptions) {
    super();
    this.host = options.host;
    this.port = options.port ?? RAW_PRINTING_PORT;
    this.address = formatTcpPrinterAddress(this.host, this.port);
    this.#connectTimeoutMs = options.connectTimeoutMs ?? 5000;
    this.#writeTimeoutMs = options.writeTimeoutMs ?? 30_000;
    this.#keepAliveMs = options.keepAliveMs ?? 10_000;
  }

  get isOpen(): boolean {
    return this.#wanted;
  }

  /** True while a socket is up (false between a drop and the next job). */
  get connected(): boolean {
    return this.#socket !== undefined;
  }

  async open(): Promise<void> {
    if (this.#wanted && this.#socket) return;
    this.#wanted = true;
    try {
      await this.#ensureConnected();
    } catch (error) {
      this.#wanted = false;
      throw error;
    }
  }

  write(bytes: Uint8Array): Promise<void> {
    return this.#exclusive.run(async () => {
      const socket = await this.#ensureConnected();
      await this.#send(socket, bytes);
    });
  }

  request(bytes: Uint8Array, answerLength: number, timeoutMs: number): Promise<Uint8Array> {
    return this.#exclusive.run(async () => {
      const socket = await this.#ensureConnected();
      this.#answers.discard();
      const answer = this.#answers.expect(
        answerLength,
        timeoutMs,
        () =>
          new PrinterError(
            'TIMEOUT',
            `The printer at ${this.address} did not answer a status request within ${timeoutMs} ms.`,
          ),
      );
      try {
        await this.#send(socket, bytes);
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
    this.#answers.fail(new PrinterError('NOT_OPEN', `The connection to the printer at ${this.address} was closed.`));
    if (this.#connecting) await this.#connecting.catch(() => undefined);
    const socket = this.#socket;
    if (!socket) return;
    this.#socket = undefined;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.end();
      // A peer that never acknowledges the FIN must not hold close() up.
      setTimeout(() => socket.destroy(), 1000).unref();
    });
  }

  #ensureConnected(): Promise<net.Socket> {
    if (!this.#wanted) {
      return Promise.reject(
        new PrinterError('NOT_OPEN', `The connection to the printer at ${this.address} is not open.`),
      );
    }
    if (this.#socket) return Promise.resolve(this.#socket);
    this.#connecting ??= this.#connect()
      .then((socket) => this.#adopt(socket))
      .finally(() => {
        this.#connecting = undefined;
      });
    return this.#connecting;
  }

  #connect(): Promise<net.Socket> {
    return connectSocket(this.host, this.port, this.#connectTimeoutMs).catch((error: unknown) => {
      if (error instanceof ConnectTimeout) {
        throw new PrinterError(
          'TIMEOUT',
          `The printer at ${this.address} did not accept a connection within ${this.#connectTimeoutMs} ms; check that it is on and its network address.`,
        );
      }
      throw mapConnectError(this.address, error as NodeJS.ErrnoException);
    });
  }

  #adopt(socket: net.Socket): net.Socket {
    if (!this.#wanted) {
      socket.destroy();
      throw new PrinterError('NOT_OPEN', `The connection to the printer at ${this.address} was closed.`);
    }
    // Status requests are three bytes waiting for one; Nagle would hold them back.
    socket.setNoDelay(true);
    socket.setKeepAlive(true, this.#keepAliveMs);
    this.#socket = socket;
    this.#closeReason = undefined;
    let lastError: Error | undefined;
    socket.on('data', (chunk: Buffer) => this.#answers.feed(chunk));
    socket.on('error', (error) => {
      lastError = error;
    });
    socket.on('close', () => {
      if (this.#socket !== socket) return;
      this.#socket = undefined;
      const error =
        this.#closeReason ??
        new PrinterError(
          'DISCONNECTED',
          `The connection to the printer at ${this.address} was lost${lastError ? ` (${lastError.message})` : ''}.`,
          { cause: lastError },
        );
      this.#answers.fail(error);
      this.emit('disconnected', error);
    });
    this.emit('connected');
    return socket;
  }

  /** Resolves once the OS took the bytes; fails on a drop or when the printer stops reading. */
  #send(socket: net.Socket, bytes: Uint8Array): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const finish = (error?: PrinterError): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        socket.off('close', onClose);
        if (error) reject(error);
        else resolve();
      };
      const onClose = (): void =>
        finish(
          this.#closeReason ??
            new PrinterError(
              'DISCONNECTED',
              `The connection to the printer at ${this.address} was lost while sending.`,
            ),
        );
      const timer = setTimeout(() => {
        const error = new PrinterError(
          'TIMEOUT',
          `The printer at ${this.address} did not take the data within ${this.#writeTimeoutMs} ms; the connection was closed.`,
        );
        // What reached the printer is unknown; a fresh connection is the only clean state.
        this.#closeReason = error;
        finish(error);
        socket.destroy();
      }, this.#writeTimeoutMs);
      socket.once('close', onClose);
      socket.write(bytes, (error) => {
        if (!error) {
          finish();
          return;
        }
        finish(
          new PrinterError('DISCONNECTED', `Sending to the printer at ${this.address} failed: ${error.message}.`, {
            cause: error,
          }),
        );
      });
    });
  }
}

function mapConnectError(address: string, error: NodeJS.ErrnoException): PrinterError {
  switch (error.code) {
    case 'ECONNREFUSED':
      return new PrinterError(
        'UNREACHABLE',
        `The printer at ${address} refused the connection; check that it is on and that the port is its raw printing port (usually 9100).`,
        { cause: error },
      );
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EHOSTDOWN':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new PrinterError(
        'UNREACHABLE',
        `The printer at ${address} cannot be reached (${error.code}); check the network and its address.`,
        {
          cause: error,
        },
      );
    case 'ETIMEDOUT':
      return new PrinterError('TIMEOUT', `Connecting to the printer at ${address} timed out.`, { cause: error });
    default:
      return new PrinterError('IO_ERROR', `Connecting to the printer at ${address} failed: ${error.message}.`, {
        cause: error,
      });
  }
}
