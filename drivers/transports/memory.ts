/**
 * An in-memory byte link between two transports, for the simulator's training mode and for fast
 * tests. Delivery is asynchronous like real I/O; with `baud` set, each direction is paced like a
 * serial line. `unplug()` drops the link as a yanked cable would.
 */
import { EventEmitter } from 'node:events';
import { LinePacer } from './pacer.js';
import { TransportError, type ByteTransport, type TransportEvents } from './transport.js';

export interface MemoryLinkOptions {
  /** Pace both directions at this line speed (bits per second, 8N1). Unpaced when absent. */
  readonly baud?: number;
  /** Name used in addresses (`memory:<name>/host`, `memory:<name>/device`). */
  readonly name?: string;
}

export class MemoryTransport extends EventEmitter<TransportEvents> implements ByteTransport {
  readonly kind = 'memory' as const;
  #opened = false;
  #peer: MemoryTransport | undefined;
  readonly #pacer: LinePacer | undefined;
  #connected = true;

  constructor(
    readonly address: string,
    baud: number | undefined,
  ) {
    super();
    this.#pacer = baud === undefined ? undefined : new LinePacer(baud);
  }

  /** @internal wires the two ends together. */
  static pair(a: MemoryTransport, b: MemoryTransport): void {
    a.#peer = b;
    b.#peer = a;
  }

  get isOpen(): boolean {
    return this.#opened;
  }

  open(): Promise<void> {
    if (!this.#connected) {
      return Promise.reject(new TransportError('DISCONNECTED', `${this.address} is unplugged.`));
    }
    if (!this.#opened) {
      this.#opened = true;
      this.emit('open');
    }
    return Promise.resolve();
  }

  write(data: Uint8Array): Promise<void> {
    if (!this.#opened || !this.#connected) {
      return Promise.reject(new TransportError('NOT_OPEN', `${this.address} is not open.`));
    }
    const peer = this.#peer;
    const deliver = (slice: Buffer): void => {
      if (this.#connected && peer !== undefined && peer.#opened) peer.emit('data', slice);
    };
    if (this.#pacer) return this.#pacer.send(data, deliver);
    const copy = Buffer.from(data);
    setImmediate(() => deliver(copy));
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.#opened) {
      this.#opened = false;
      this.#pacer?.reset();
      this.emit('close', { expected: true });
    }
    return Promise.resolve();
  }

  /** @internal */
  dropLink(error: Error): void {
    this.#connected = false;
    this.#pacer?.reset();
    if (this.#opened) {
      this.#opened = false;
      this.emit('close', { expected: false, error });
    }
  }

  /** @internal */
  restoreLink(): void {
    this.#connected = true;
  }
}

export interface MemoryLink {
  /** The end the host driver opens. */
  readonly host: MemoryTransport;
  /** The end the simulated PINPAD serves. */
  readonly device: MemoryTransport;
  /** Both ends lose the link, as when the cable is pulled; open ones emit `close`. */
  unplug(): void;
  /** The cable is back: the ends can be opened again. */
  replug(): void;
}

export function createMemoryLink(options: MemoryLinkOptions = {}): MemoryLink {
  const name = options.name ?? 'pinpad';
  const host = new MemoryTransport(`memory:${name}/host`, options.baud);
  const device = new MemoryTransport(`memory:${name}/device`, options.baud);
  MemoryTransport.pair(host, device);
  return {
    host,
    device,
    unplug() {
      const error = new TransportError('DISCONNECTED', `The link ${name} was unplugged.`);
      host.dropLink(error);
      device.dropLink(error);
    },
    replug() {
      host.restoreLink();
      device.restoreLink();
    },
  };
}
