/**
 * Finding PINPADs: the serial ports present now (USB PINPADs enumerate as CDC-ACM serial ports,
 * paired Bluetooth SPP PINPADs as virtual COM ports), the network PINPADs the config names, and a
 * watcher that notices USB PINPADs being plugged in and pulled out. Serial hot-plug is detected by
 * polling the port list, which works the same on Linux, macOS and Windows without native hooks.
 */
import { EventEmitter } from 'node:events';
import { SerialPort } from 'serialport';
import { formatTransportAddress, parseTransportAddress } from './address.js';
import { TransportError } from './transport.js';
import { lookupUsbId, makerFromText } from './usb-ids.js';

/** What serialport's `SerialPort.list()` reports for a port. */
export interface PortInfo {
  readonly path: string;
  readonly manufacturer?: string | undefined;
  readonly serialNumber?: string | undefined;
  readonly pnpId?: string | undefined;
  readonly locationId?: string | undefined;
  readonly vendorId?: string | undefined;
  readonly productId?: string | undefined;
}

export type ListPorts = () => Promise<readonly PortInfo[]>;

export interface SerialPinpadInfo {
  /** The `--port` address: the device path. */
  readonly address: string;
  readonly transport: 'serial';
  readonly vendorId: string | undefined;
  readonly productId: string | undefined;
  readonly manufacturer: string | undefined;
  readonly serialNumber: string | undefined;
  /** PINPAD maker guessed from the USB ids, else from the manufacturer string. */
  readonly maker: string | undefined;
  /** Model when the USB product id is known. */
  readonly model: string | undefined;
  /** True when the ids or the manufacturer name a PINPAD maker; only an ABECS exchange proves it. */
  readonly likelyPinpad: boolean;
}

const defaultList: ListPorts = () => SerialPort.list();

/** Describes one serial port as a PINPAD candidate. */
export function describeSerialPort(port: PortInfo): SerialPinpadInfo {
  const entry = lookupUsbId(port.vendorId, port.productId);
  const maker = entry?.maker ?? makerFromText(port.manufacturer) ?? makerFromText(port.pnpId);
  return {
    address: port.path,
    transport: 'serial',
    vendorId: port.vendorId?.toLowerCase(),
    productId: port.productId?.toLowerCase(),
    manufacturer: port.manufacturer,
    serialNumber: port.serialNumber,
    maker,
    model: entry?.model,
    likelyPinpad: maker !== undefined,
  };
}

/** Lists the serial ports, likely PINPADs first, then by path. */
export async function listSerialPinpads(options: { list?: ListPorts } = {}): Promise<SerialPinpadInfo[]> {
  const ports = await (options.list ?? defaultList)();
  return ports
    .map(describeSerialPort)
    .sort((a, b) => Number(b.likelyPinpad) - Number(a.likelyPinpad) || a.address.localeCompare(b.address));
}

export interface TcpPinpadEntry {
  readonly host: string;
  readonly port: number;
  readonly name?: string;
}

export interface TcpPinpadInfo {
  readonly address: string;
  readonly transport: 'tcp';
  readonly host: string;
  readonly port: number;
  readonly name: string | undefined;
}

/**
 * The network PINPADs named in the configuration (`"10.0.0.5:4000"`, `"tcp://[fe80::1]:4000"` or
 * `{ host, port, name }`), as `tcp://` addresses. Network PINPADs cannot be discovered generically:
 * the only known finder is a closed vendor library (abecs.md §7).
 */
export function configuredTcpPinpads(config: readonly (string | TcpPinpadEntry)[]): TcpPinpadInfo[] {
  return config.map((entry) => {
    const text =
      typeof entry === 'string'
        ? entry.startsWith('tcp://')
          ? entry
          : `tcp://${entry}`
        : formatTransportAddress({ kind: 'tcp', host: entry.host, port: entry.port });
    const parsed = parseTransportAddress(text);
    if (parsed.kind !== 'tcp') {
      throw new TransportError('INVALID_PORT', `"${text}" is not a network PINPAD address (host:port).`);
    }
    return {
      address: formatTransportAddress(parsed),
      transport: 'tcp' as const,
      host: parsed.host,
      port: parsed.port,
      name: typeof entry === 'string' ? undefined : entry.name,
    };
  });
}

export interface HotplugEvents {
  attached: [port: SerialPinpadInfo];
  detached: [port: SerialPinpadInfo];
  /** Listing the ports failed; polling goes on. Only emitted when someone listens. */
  error: [error: Error];
}

export interface HotplugWatcherOptions {
  /** Poll period; 750 ms makes a plug or unplug visible within 2 s even with a slow list call. */
  readonly intervalMs?: number;
  readonly list?: ListPorts;
  /** Emit `attached` for the ports already present at start. Default false (they are the baseline). */
  readonly emitInitial?: boolean;
}

/** Identity of a device on a port, so a different device replugged on the same path is noticed. */
function portKey(port: PortInfo): string {
  return [port.path, port.vendorId ?? '', port.productId ?? '', port.serialNumber ?? ''].join('|').toLowerCase();
}

export class HotplugWatcher extends EventEmitter<HotplugEvents> {
  readonly intervalMs: number;
  private readonly list: ListPorts;
  private readonly emitInitial: boolean;
  private known: Map<string, SerialPinpadInfo> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Bumped by stop() so a poll still in flight does not report after it. */
  private generation = 0;

  constructor(options: HotplugWatcherOptions = {}) {
    super();
    this.intervalMs = options.intervalMs ?? 750;
    if (!(this.intervalMs > 0)) throw new RangeError(`intervalMs must be positive, got ${this.intervalMs}`);
    this.list = options.list ?? defaultList;
    this.emitInitial = options.emitInitial ?? false;
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** The ports seen at the last successful poll. */
  get ports(): SerialPinpadInfo[] {
    return [...(this.known?.values() ?? [])];
  }

  /** Starts polling; resolves after the first poll (its errors are emitted, not thrown). */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.generation += 1;
    await this.poll(this.generation);
  }

  stop(): void {
    this.running = false;
    this.generation += 1;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.known = undefined;
  }

  /** One poll; the next is scheduled only after this one finishes, so polls never overlap. */
  private async poll(generation: number): Promise<void> {
    try {
      const ports = await this.list();
      if (generation !== this.generation) return;
      this.update(ports);
    } catch (error) {
      if (generation !== this.generation) return;
      if (this.listenerCount('error') > 0) {
        this.emit('error', error instanceof Error ? error : new Error(String(error)));
      }
    }
    if (generation !== this.generation || !this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.poll(generation);
    }, this.intervalMs);
  }

  private update(ports: readonly PortInfo[]): void {
    const current = new Map<string, SerialPinpadInfo>();
    for (const port of ports) current.set(portKey(port), describeSerialPort(port));
    const previous = this.known;
    this.known = current;
    if (!previous) {
      if (this.emitInitial) for (const info of current.values()) this.emit('attached', info);
      return;
    }
    for (const [key, info] of previous) if (!current.has(key)) this.emit('detached', info);
    for (const [key, info] of current) if (!previous.has(key)) this.emit('attached', info);
  }
}
