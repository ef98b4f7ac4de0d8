/**
 * A simulated ESC/POS receipt printer for tests: a raw TCP port on 127.0.0.1 (like port 9100 of a
 * network printer) and/or one end of a socat pty pair (like a serial printer). It keeps every byte it
 * receives, answers `DLE EOT n` (n = 1…4) from a state the test sets (paper out, cover open, offline,
 * errors…), and can misbehave on purpose: stop answering, answer garbage, drop the connection.
 *
 * The answer bytes are built here from the Epson table (fixed bits 0xx1xx10, see
 * drivers/printers/status.ts for the source) independently of the parser under test, so a test that
 * round-trips through both checks one against the other.
 *
 * Like a real printer, the simulator takes `10 04 n` as a status request wherever it appears in the
 * data; `printed` is what is left, the bytes that would reach the paper.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { SerialTransport } from '../../drivers/transports/serial.js';

const DLE = 0x10;
const EOT = 0x04;
/** Bits 1 and 4 on, bits 0 and 7 off: present in every answer. */
const FIXED = 0x12;

export type SimulatedFault = 'mechanical' | 'autocutter' | 'unrecoverable' | 'auto-recoverable';

export interface SimulatedPrinterState {
  /** Offline for a reason of its own (e.g. paper fed with the FEED button). */
  readonly offline: boolean;
  readonly coverOpen: boolean;
  readonly paperOut: boolean;
  readonly paperNearEnd: boolean;
  readonly feedButtonPressed: boolean;
  readonly drawerPin3High: boolean;
  readonly faults: readonly SimulatedFault[];
}

export const READY_PRINTER: SimulatedPrinterState = Object.freeze({
  offline: false,
  coverOpen: false,
  paperOut: false,
  paperNearEnd: false,
  feedButtonPressed: false,
  drawerPin3High: false,
  faults: [],
});

/** The answer byte to DLE EOT n for a state, per the Epson table. */
export function simulatedAnswer(n: 1 | 2 | 3 | 4, state: SimulatedPrinterState): number {
  const error = state.faults.length > 0;
  switch (n) {
    case 1: {
      // A real printer goes offline with the cover open, at paper end, on an error, while feeding.
      const offline = state.offline || state.coverOpen || state.paperOut || error || state.feedButtonPressed;
      return FIXED | (state.drawerPin3High ? 0x04 : 0) | (offline ? 0x08 : 0) | (state.feedButtonPressed ? 0x40 : 0);
    }
    case 2:
      return (
        FIXED |
        (state.coverOpen ? 0x04 : 0) |
        (state.feedButtonPressed ? 0x08 : 0) |
        (state.paperOut ? 0x20 : 0) |
        (error ? 0x40 : 0)
      );
    case 3:
      return (
        FIXED |
        (state.faults.includes('mechanical') ? 0x04 : 0) |
        (state.faults.includes('autocutter') ? 0x08 : 0) |
        (state.faults.includes('unrecoverable') ? 0x20 : 0) |
        (state.faults.includes('auto-recoverable') ? 0x40 : 0)
      );
    case 4:
      // The paper end sensor going dark implies the near-end one did before.
      return FIXED | (state.paperNearEnd || state.paperOut ? 0x0c : 0) | (state.paperOut ? 0x60 : 0);
  }
}

interface Peer {
  write(bytes: Uint8Array): void;
  destroy(): void;
}

/** Splits one connection's bytes into print data and status requests, across chunk boundaries. */
class InputParser {
  #held: number[] = [];
  readonly #onPrinted: (byte: number) => void;
  readonly #onRequest: (n: 1 | 2 | 3 | 4) => void;

  constructor(onPrinted: (byte: number) => void, onRequest: (n: 1 | 2 | 3 | 4) => void) {
    this.#onPrinted = onPrinted;
    this.#onRequest = onRequest;
  }

  push(chunk: Uint8Array): void {
    for (const byte of chunk) this.#take(byte);
  }

  #take(byte: number): void {
    if (this.#held.length === 0) {
      if (byte === DLE) this.#held = [DLE];
      else this.#onPrinted(byte);
      return;
    }
    if (this.#held.length === 1 && byte === EOT) {
      this.#held.push(EOT);
      return;
    }
    if (this.#held.length === 2 && byte >= 1 && byte <= 4) {
      this.#held = [];
      this.#onRequest(byte as 1 | 2 | 3 | 4);
      return;
    }
    // Not a status request after all: the held bytes were print data; look at this byte afresh.
    const held = this.#held;
    this.#held = [];
    for (const b of held) this.#onPrinted(b);
    this.#take(byte);
  }
}

export interface PrinterSimulatorEvents {
  /** After every chunk received. */
  data: [];
  connection: [];
}

export class PrinterSimulator extends EventEmitter<PrinterSimulatorEvents> {
  /** The state the next answers are built from; change it with `set()`. */
  state: SimulatedPrinterState = READY_PRINTER;
  /** False: requests are taken but never answered. */
  answering = true;
  /** When set, every answer is this byte instead (a printer that does not speak ESC/POS). */
  answerOverride: number | undefined;
  /** Bytes sent right before each answer (e.g. XOFF/XON of a serial printer in software flow control). */
  answerPrefix: readonly number[] = [];
  /** Every byte received, status requests included. */
  readonly #rawBytes: number[] = [];
  readonly #printedBytes: number[] = [];
  /** The `n` of every status request received, in order. */
  readonly requests: number[] = [];
  /** TCP connections accepted so far. */
  connections = 0;
  #dropOnRequest = false;
  #server: net.Server | undefined;
  readonly #sockets = new Set<net.Socket>();
  #pty: SerialTransport | undefined;

  /** Starts the TCP side on 127.0.0.1 and `port` (default: one the OS chooses). */
  static async listen(port = 0): Promise<PrinterSimulator> {
    const sim = new PrinterSimulator();
    await sim.#listenTcp(port);
    return sim;
  }

  /** Serves one end of a pty pair (the printer's side of the "cable"). */
  static async onPty(path: string): Promise<PrinterSimulator> {
    const sim = new PrinterSimulator();
    await sim.#servePty(path);
    return sim;
  }

  get port(): number {
    const address = this.#server?.address();
    if (!address || typeof address === 'string') throw new Error('the simulator is not listening on TCP');
    return address.port;
  }

  /** `tcp://127.0.0.1:PORT`. */
  get address(): string {
    return `tcp://127.0.0.1:${this.port}`;
  }

  get raw(): Buffer {
    return Buffer.from(this.#rawBytes);
  }

  /** What would reach the paper: every byte except the status requests. */
  get printed(): Buffer {
    return Buffer.from(this.#printedBytes);
  }

  set(change: Partial<SimulatedPrinterState>): void {
    this.state = { ...this.state, ...change };
  }

  /** Closes every open TCP connection abruptly, as a printer switched off would. */
  dropConnections(): void {
    for (const socket of this.#sockets) socket.destroy();
  }

  /** Stops reading from the TCP connections, as a printer with a full buffer does; TCP's window fills up. */
  stopReading(): void {
    for (const socket of this.#sockets) socket.pause();
  }

  /** The next status request closes the connection instead of being answered. */
  dropOnNextRequest(): void {
    this.#dropOnRequest = true;
  }

  /** Resolves once `printed` holds at least `length` bytes. */
  waitForPrinted(length: number, timeoutMs = 10_000): Promise<Buffer> {
    return this.#waitFor(() => this.#printedBytes.length >= length, timeoutMs, `${length} printed bytes`).then(
      () => this.printed,
    );
  }

  /** Resolves once `raw` holds at least `length` bytes. */
  waitForRaw(length: number, timeoutMs = 10_000): Promise<Buffer> {
    return this.#waitFor(() => this.#rawBytes.length >= length, timeoutMs, `${length} bytes`).then(() => this.raw);
  }

  /** Resolves once `count` status requests arrived in total. */
  waitForRequests(count: number, timeoutMs = 10_000): Promise<void> {
    return this.#waitFor(() => this.requests.length >= count, timeoutMs, `${count} status requests`);
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    const server = this.#server;
    this.#server = undefined;
    if (server?.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    const pty = this.#pty;
    this.#pty = undefined;
    if (pty) await pty.close();
  }

  async #listenTcp(port: number): Promise<void> {
    const server = net.createServer((socket) => {
      this.connections += 1;
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => {});
      this.#attach({ write: (bytes) => socket.write(bytes), destroy: () => socket.destroy() }, socket);
      this.emit('connection');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.#server = server;
  }

  async #servePty(path: string): Promise<void> {
    const line = new SerialTransport(path, { baudRate: 9600 });
    await line.open();
    this.#pty = line;
    const peer: Peer = {
      write: (bytes) => void line.write(bytes).catch(() => undefined),
      destroy: () => void line.close(),
    };
    this.#attach(peer, line);
  }

  #attach(peer: Peer, source: { on(event: 'data', listener: (chunk: Buffer) => void): unknown }): void {
    const parser = new InputParser(
      (byte) => this.#printedBytes.push(byte),
      (n) => this.#answer(peer, n),
    );
    source.on('data', (chunk: Buffer) => {
      for (const byte of chunk) this.#rawBytes.push(byte);
      parser.push(chunk);
      this.emit('data');
    });
  }

  #answer(peer: Peer, n: 1 | 2 | 3 | 4): void {
    this.requests.push(n);
    if (this.#dropOnRequest) {
      this.#dropOnRequest = false;
      peer.destroy();
      return;
    }
    if (!this.answering) return;
    peer.write(Uint8Array.of(...this.answerPrefix, this.answerOverride ?? simulatedAnswer(n, this.state)));
  }

  #waitFor(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('data', check);
        reject(new Error(`the printer simulator did not receive ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = (): void => {
        if (!done()) return;
        clearTimeout(timer);
        this.off('data', check);
        resolve();
      };
      this.on('data', check);
    });
  }
}
