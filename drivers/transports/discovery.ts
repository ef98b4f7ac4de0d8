/**
 * Finding PINPADs: the serial ports present now (USB PINPADs enumerate as CDC-ACM serial ports,
 * paired Bluetooth SPP PINPADs as virtual COM ports), the network PINPADs the config names, and a
 * watcher that notices USB PINPADs being plugged in and pulled out. The watcher lists the ports
 * when the system says devices changed (device-events.ts: `/dev` on Linux, USB hot-plug
 * elsewhere), not on a timer: on Linux each listing spawns `udevadm`.
 */
import { EventEmitter } from 'node:events';
import { realpathSync } from 'node:fs';
import { autoDetect } from '@serialport/bindings-cpp';
import { formatTransportAddress, parseTransportAddress } from './address.js';
import { TransportError } from './transport.js';
import { platformDeviceEvents, type DeviceEvents } from './device-events.js';
import { lookupUsbId, makerFromText } from './usb-ids.js';

/** What the serial binding's `list()` reports for a port (bindings-cpp's PortInfo). */
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

// This platform's native binding lists the ports (what `serialport`'s SerialPort.list() called).
const defaultList: ListPorts = () => autoDetect().list();

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

/**
 * Whether a listed serial port is the one a `--port` address names: the same path, a COM name in
 * any case, or the device a link names (`/dev/serial/by-id/…`, resolved now that it exists).
 * False for any address that is not a serial port.
 */
export function isPortOf(address: string, listedPath: string): boolean {
  let path: string;
  try {
    const parsed = parseTransportAddress(address);
    if (parsed.kind !== 'serial') return false;
    path = parsed.path;
  } catch {
    return false;
  }
  if (path === listedPath) return true;
  if (/^COM\d+$/i.test(path)) return path.toUpperCase() === listedPath.toUpperCase();
  try {
    return realpathSync(path) === realpathSync(listedPath);
  } catch {
    return false;
  }
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
  /** Listing the ports failed (it is tried again at the next device event). Only emitted when someone listens. */
  error: [error: Error];
  /** A listing succeeded (after `attached`/`detached` for what it changed). */
  listed: [ports: SerialPinpadInfo[]];
  /**
   * The device events could not start or stopped working (`error` says why): from now on the
   * ports are listed every `pollMs`. Emitted at most once per start.
   */
  fallback: [error: Error, pollMs: number];
}

export interface HotplugWatcherOptions {
  readonly list?: ListPorts;
  /** Emit `attached` for the ports already present at start. Default false (they are the baseline). */
  readonly emitInitial?: boolean;
  /** What says the devices changed (default: this platform's, see device-events.ts). */
  readonly events?: DeviceEvents;
  /**
   * List every `intervalMs` instead of waiting for device events — the behaviour before issue 19
   * (750 ms), kept for a platform without events and as the idle benchmark's baseline.
   */
  readonly intervalMs?: number;
  /** The listing period when the device events cannot start or stop working. Default 30 s. */
  readonly fallbackPollMs?: number;
  /** How long after a device event the ports are listed (events come in bursts). Default 300 ms. */
  readonly settleMs?: number;
  /**
   * Further listings this long after the first one an event caused: the device node appears (and
   * a USB device attaches) a moment before udev has described it or the OS made its serial port.
   * Default 1 s and 5 s.
   */
  readonly recheckMs?: readonly number[];
}

export const DEFAULT_FALLBACK_POLL_MS = 30_000;
const DEFAULT_SETTLE_MS = 300;
const DEFAULT_RECHECK_MS = [1_000, 5_000] as const;

/** Identity of a device on a port, so a different device replugged on the same path is noticed. */
function portKey(port: PortInfo): string {
  return [port.path, port.vendorId ?? '', port.productId ?? '', port.serialNumber ?? ''].join('|').toLowerCase();
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Reports serial ports attached and detached. The ports are listed at start, when the device
 * events say something changed (after `settleMs`, then again after each `recheckMs`), and when
 * `refresh()` asks — never on a timer unless the events are unavailable (`fallback`) or
 * `intervalMs` asks for the old polling. Listings never overlap.
 */
export class HotplugWatcher extends EventEmitter<HotplugEvents> {
  /** The polling period when polling was asked for (`intervalMs`); undefined when driven by device events. */
  readonly intervalMs: number | undefined;
  readonly #list: ListPorts;
  readonly #emitInitial: boolean;
  readonly #events: DeviceEvents;
  readonly #fallbackPollMs: number;
  readonly #settleMs: number;
  readonly #recheckMs: readonly number[];
  #known: Map<string, SerialPinpadInfo> | undefined;
  #running = false;
  /** Bumped by stop() so a listing still in flight, or a timer, does not report after it. */
  #generation = 0;
  /** Listing every this many ms (asked for, or the fallback); undefined while events drive it. */
  #pollMs: number | undefined;
  #listing: Promise<void> | undefined;
  /** Someone asked for a listing while one ran: one more follows it. */
  #again = false;
  readonly #timers = new Set<NodeJS.Timeout>();
  #settleTimer: NodeJS.Timeout | undefined;
  #pollTimer: NodeJS.Timeout | undefined;
  #listings = 0;

  constructor(options: HotplugWatcherOptions = {}) {
    super();
    if (options.intervalMs !== undefined && !(options.intervalMs > 0))
      throw new RangeError(`intervalMs must be positive, got ${options.intervalMs}`);
    this.intervalMs = options.intervalMs;
    this.#list = options.list ?? defaultList;
    this.#emitInitial = options.emitInitial ?? false;
    this.#events = options.events ?? platformDeviceEvents();
    this.#fallbackPollMs = options.fallbackPollMs ?? DEFAULT_FALLBACK_POLL_MS;
    if (!(this.#fallbackPollMs > 0))
      throw new RangeError(`fallbackPollMs must be positive, got ${this.#fallbackPollMs}`);
    this.#settleMs = Math.max(0, options.settleMs ?? DEFAULT_SETTLE_MS);
    this.#recheckMs = options.recheckMs ?? DEFAULT_RECHECK_MS;
  }

  get isRunning(): boolean {
    return this.#running;
  }

  /** The ports seen at the last successful listing. */
  get ports(): SerialPinpadInfo[] {
    return [...(this.#known?.values() ?? [])];
  }

  /** How the watcher learns of changes now: device events ('dev', 'usb') or a timer ('poll'). */
  get mode(): DeviceEvents['kind'] | 'poll' {
    return this.#pollMs === undefined ? this.#events.kind : 'poll';
  }

  /** How many times the ports were listed since the watcher was made (each one spawns udevadm on Linux). */
  get listingCount(): number {
    return this.#listings;
  }

  /**
   * Starts watching; resolves after the first listing (its errors are emitted, not thrown). When
   * the device events cannot start, `fallback` is emitted and the ports are polled instead.
   */
  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#generation += 1;
    const generation = this.#generation;
    this.#pollMs = this.intervalMs;
    if (this.#pollMs === undefined) {
      try {
        await this.#events.start(
          () => this.#changed(generation),
          (error) => this.#fallBack(generation, error),
        );
      } catch (error) {
        if (generation !== this.#generation) return;
        this.#pollMs = this.#fallbackPollMs;
        this.emit('fallback', asError(error), this.#fallbackPollMs);
      }
      if (generation !== this.#generation) {
        // Stopped while the events were starting.
        this.#events.stop();
        return;
      }
    }
    await this.refresh();
  }

  stop(): void {
    this.#running = false;
    this.#generation += 1;
    this.#events.stop();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#settleTimer = undefined;
    this.#pollTimer = undefined;
    this.#known = undefined;
    this.#listing = undefined;
    this.#again = false;
  }

  /**
   * Lists the ports now (after a listing in flight, if any) and reports what changed; resolves
   * when done. For an explicit request (someone looks for PINPADs), beside the events.
   */
  refresh(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    const generation = this.#generation;
    if (this.#listing !== undefined) {
      this.#again = true;
      return this.#listing;
    }
    const listing = (async () => {
      do {
        this.#again = false;
        await this.#listOnce(generation);
      } while (this.#again && generation === this.#generation);
    })();
    this.#listing = listing;
    void listing.finally(() => {
      if (this.#listing === listing) this.#listing = undefined;
      if (generation === this.#generation) this.#schedulePoll(generation);
    });
    return listing;
  }

  /** A device event: list once the burst settles, then again after each recheck delay. */
  #changed(generation: number): void {
    if (generation !== this.#generation || this.#settleTimer !== undefined) return;
    this.#settleTimer = this.#later(generation, this.#settleMs, () => {
      this.#settleTimer = undefined;
      void this.refresh();
      for (const delay of this.#recheckMs) this.#later(generation, delay, () => void this.refresh());
    });
  }

  /** The device events stopped working: poll from now on. */
  #fallBack(generation: number, error: Error): void {
    if (generation !== this.#generation || this.#pollMs !== undefined) return;
    this.#events.stop();
    this.#pollMs = this.#fallbackPollMs;
    this.emit('fallback', error, this.#fallbackPollMs);
    this.#schedulePoll(generation);
  }

  /** When polling: the next listing `pollMs` after the last one, whatever caused that one. */
  #schedulePoll(generation: number): void {
    if (this.#pollMs === undefined || !this.#running) return;
    if (this.#pollTimer !== undefined) {
      clearTimeout(this.#pollTimer);
      this.#timers.delete(this.#pollTimer);
    }
    this.#pollTimer = this.#later(generation, this.#pollMs, () => {
      this.#pollTimer = undefined;
      void this.refresh();
    });
  }

  #later(generation: number, ms: number, run: () => void): NodeJS.Timeout {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      if (generation === this.#generation) run();
    }, ms);
    this.#timers.add(timer);
    return timer;
  }

  async #listOnce(generation: number): Promise<void> {
    this.#listings += 1;
    try {
      const ports = await this.#list();
      if (generation !== this.#generation) return;
      this.#update(ports);
      this.emit('listed', this.ports);
    } catch (error) {
      if (generation !== this.#generation) return;
      if (this.listenerCount('error') > 0) this.emit('error', asError(error));
    }
  }

  #update(ports: readonly PortInfo[]): void {
    const current = new Map<string, SerialPinpadInfo>();
    for (const port of ports) current.set(portKey(port), describeSerialPort(port));
    const previous = this.#known;
    this.#known = current;
    if (!previous) {
      if (this.#emitInitial) for (const info of current.values()) this.emit('attached', info);
      return;
    }
    for (const [key, info] of previous) if (!current.has(key)) this.emit('detached', info);
    for (const [key, info] of current) if (!previous.has(key)) this.emit('attached', info);
  }
}
