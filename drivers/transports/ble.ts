/**
 * BLE GATT transport for PINPADs that expose a serial-style GATT service: bytes to the device go
 * to a write characteristic, bytes from it arrive as notifications. No source describes ABECS over
 * BLE (abecs.md §7: every Bluetooth PINPAD found uses Classic SPP, which appears as a serial port),
 * so there is no standard service: the UUIDs are options, defaulting to the widespread Nordic UART
 * Service. Uses noble through the small structural interface below, so tests can drive noble with
 * fake bindings and machines without a Bluetooth stack fail with BLE_UNAVAILABLE, not a crash.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { TransportError, type ByteTransport, type TransportEvents } from './transport.js';

/** Nordic UART Service: the de-facto "serial over BLE" service. */
export const NORDIC_UART_SERVICE_UUID = '6e400001-b5a3-f393-e0a9-e50e24dcca9e';
/** NUS RX characteristic: the central writes here. */
export const NORDIC_UART_WRITE_UUID = '6e400002-b5a3-f393-e0a9-e50e24dcca9e';
/** NUS TX characteristic: the peripheral notifies here. */
export const NORDIC_UART_NOTIFY_UUID = '6e400003-b5a3-f393-e0a9-e50e24dcca9e';

/** ATT header bytes in each write (opcode + handle): payload per write is MTU − 3. */
const ATT_WRITE_OVERHEAD = 3;
/** The BLE minimum ATT MTU, used until the peripheral negotiates a larger one. */
const DEFAULT_ATT_MTU = 23;

type ErrorCallback = (error?: Error | string | null) => void;

/** The parts of a noble Characteristic this transport uses. */
export interface NobleCharacteristicLike {
  readonly uuid: string;
  readonly properties: readonly string[];
  write(data: Buffer, withoutResponse: boolean, callback?: ErrorCallback): void;
  subscribe(callback?: ErrorCallback): void;
  on(event: 'data', listener: (data: Buffer, isNotification: boolean) => void): unknown;
  removeAllListeners(event?: string): unknown;
}

/** The parts of a noble Service this transport uses. */
export interface NobleServiceLike {
  readonly uuid: string;
  discoverCharacteristics(
    uuids: string[],
    callback: (error: Error | string | null | undefined, characteristics: NobleCharacteristicLike[]) => void,
  ): void;
}

/** The parts of a noble Peripheral this transport uses. */
export interface NoblePeripheralLike {
  readonly id: string;
  readonly address: string;
  readonly rssi: number;
  readonly mtu: number | null;
  readonly state: string;
  readonly advertisement: { readonly localName?: string; readonly serviceUuids?: readonly string[] };
  connect(callback: ErrorCallback): void;
  disconnect(callback?: () => void): void;
  discoverServices(
    uuids: string[],
    callback: (error: Error | string | null | undefined, services: NobleServiceLike[]) => void,
  ): void;
  once(event: 'disconnect', listener: (reason?: unknown) => void): unknown;
  removeAllListeners(event?: string): unknown;
}

/** The parts of noble itself this transport uses. */
export interface NobleLike {
  readonly state: string;
  on(event: 'stateChange', listener: (state: string) => void): unknown;
  on(event: 'discover', listener: (peripheral: NoblePeripheralLike) => void): unknown;
  removeListener(event: 'stateChange', listener: (state: string) => void): unknown;
  removeListener(event: 'discover', listener: (peripheral: NoblePeripheralLike) => void): unknown;
  startScanning(serviceUuids: string[], allowDuplicates: boolean, callback?: ErrorCallback): void;
  stopScanning(callback?: () => void): void;
  /** Releases the adapter (closes noble's HCI socket, which otherwise keeps the process alive). */
  stop?(): void;
}

export interface BleTransportOptions {
  readonly noble: NobleLike;
  /**
   * The transport owns `noble` (made for it by createNoble): it is stopped when the transport
   * closes or fails to open, so a one-shot command exits and a retry starts from a fresh adapter.
   */
  readonly ownsNoble?: boolean;
  /** noble peripheral id or Bluetooth address (`aa:bb:cc:dd:ee:ff`, case and separators ignored). */
  readonly peripheralId: string;
  readonly serviceUuid?: string;
  readonly writeCharacteristicUuid?: string;
  readonly notifyCharacteristicUuid?: string;
  /** ATT MTU assumed until the peripheral reports a negotiated one. Default 23 (20-byte chunks). */
  readonly mtu?: number;
  /** Write without response; by default chosen from the characteristic's properties. */
  readonly writeWithoutResponse?: boolean;
  /** How long to scan for the peripheral. Default 10 s. */
  readonly scanTimeoutMs?: number;
  /** How long to wait for the adapter to power on, connect, and discover. Default 10 s. */
  readonly operationTimeoutMs?: number;
}

/** noble spells UUIDs in lower case without dashes. */
export function normalizeBleUuid(uuid: string): string {
  return uuid.replace(/-/g, '').toLowerCase();
}

/** Compares peripheral ids/addresses ignoring case and `:`/`-` separators. */
function sameDevice(peripheral: NoblePeripheralLike, wanted: string): boolean {
  const norm = (s: string): string => s.replace(/[:-]/g, '').toLowerCase();
  const target = norm(wanted);
  return norm(peripheral.id) === target || (peripheral.address !== '' && norm(peripheral.address) === target);
}

function asError(error: Error | string | null | undefined): Error | undefined {
  if (error === null || error === undefined) return undefined;
  return typeof error === 'string' ? new Error(error) : error;
}

/** Runs `body` with a deadline; rejects with `onTimeout()` if it does not settle in time. */
function withTimeout<T>(ms: number, onTimeout: () => Error, body: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([body, deadline]).finally(() => clearTimeout(timer));
}

/** One sentence per adapter state noble reports, saying what to do about it. */
export function adapterStateSentence(state: string): string {
  switch (state) {
    case 'unsupported':
      return 'Bluetooth LE is not available: this computer has no Bluetooth LE adapter (adapter state: unsupported).';
    case 'unauthorized':
      return (
        'Bluetooth LE is not available: Pinbridge may not use the adapter (adapter state: unauthorized); on Linux grant it ' +
        'cap_net_raw or run it as a member of the bluetooth group, on macOS allow Bluetooth for Pinbridge in Privacy settings.'
      );
    case 'poweredOff':
      return 'Bluetooth LE is not available: Bluetooth is turned off (adapter state: poweredOff); turn it on.';
    default:
      return `Bluetooth LE is not available (adapter state: ${state}); turn Bluetooth on or check the adapter.`;
  }
}

/**
 * Resolves once the adapter is powered on; rejects with BLE_UNAVAILABLE if it reports any final
 * state other than poweredOn, or stays undecided past the timeout.
 */
export function waitForPoweredOn(noble: NobleLike, timeoutMs: number): Promise<void> {
  const unavailable = (state: string): TransportError =>
    new TransportError('BLE_UNAVAILABLE', adapterStateSentence(state));
  const state = noble.state;
  if (state === 'poweredOn') return Promise.resolve();
  if (state !== 'unknown' && state !== 'resetting') return Promise.reject(unavailable(state));
  let listener: ((state: string) => void) | undefined;
  const settled = new Promise<void>((resolve, reject) => {
    listener = (next: string): void => {
      if (next === 'poweredOn') resolve();
      else if (next !== 'unknown' && next !== 'resetting') reject(unavailable(next));
    };
    noble.on('stateChange', listener);
  });
  return withTimeout(timeoutMs, () => unavailable(noble.state), settled).finally(() => {
    if (listener) noble.removeListener('stateChange', listener);
  });
}

export class BleTransport extends EventEmitter<TransportEvents> implements ByteTransport {
  readonly kind = 'ble' as const;
  readonly address: string;
  readonly #noble: NobleLike;
  readonly #ownsNoble: boolean;
  readonly #peripheralId: string;
  readonly #serviceUuid: string;
  readonly #writeUuid: string;
  readonly #notifyUuid: string;
  readonly #defaultMtu: number;
  readonly #writeWithoutResponseOption: boolean | undefined;
  readonly #scanTimeoutMs: number;
  readonly #operationTimeoutMs: number;
  #peripheral: NoblePeripheralLike | undefined;
  #writeCharacteristic: NobleCharacteristicLike | undefined;
  #notifyCharacteristic: NobleCharacteristicLike | undefined;
  #withoutResponse = false;
  #opening: Promise<void> | undefined;
  #closingOnPurpose = false;
  /** Writes run one after another so chunks of two writes never interleave. */
  #writeChain: Promise<void> = Promise.resolve();
  /** Rejects in-flight writes when the link drops (their callbacks would never fire). */
  readonly #dropListeners = new Set<(error: Error) => void>();
  readonly #onStateChange = (state: string): void => {
    if (state !== 'poweredOn' && this.#peripheral) {
      this.#linkLost(new TransportError('BLE_UNAVAILABLE', `Bluetooth went ${state} while ${this.address} was open.`));
    }
  };

  constructor(options: BleTransportOptions) {
    super();
    this.#noble = options.noble;
    this.#ownsNoble = options.ownsNoble ?? false;
    this.#peripheralId = options.peripheralId;
    this.address = `ble:${options.peripheralId}`;
    this.#serviceUuid = normalizeBleUuid(options.serviceUuid ?? NORDIC_UART_SERVICE_UUID);
    this.#writeUuid = normalizeBleUuid(options.writeCharacteristicUuid ?? NORDIC_UART_WRITE_UUID);
    this.#notifyUuid = normalizeBleUuid(options.notifyCharacteristicUuid ?? NORDIC_UART_NOTIFY_UUID);
    this.#defaultMtu = options.mtu ?? DEFAULT_ATT_MTU;
    if (!Number.isInteger(this.#defaultMtu) || this.#defaultMtu <= ATT_WRITE_OVERHEAD) {
      throw new RangeError(`mtu must be an integer above ${ATT_WRITE_OVERHEAD}, got ${this.#defaultMtu}`);
    }
    this.#writeWithoutResponseOption = options.writeWithoutResponse;
    this.#scanTimeoutMs = options.scanTimeoutMs ?? 10_000;
    this.#operationTimeoutMs = options.operationTimeoutMs ?? 10_000;
  }

  get isOpen(): boolean {
    return this.#peripheral !== undefined && !this.#closingOnPurpose;
  }

  /** Bytes per write: the negotiated ATT MTU (or the configured one) minus the ATT header. */
  get chunkSize(): number {
    const mtu = this.#peripheral?.mtu ?? this.#defaultMtu;
    return Math.max(1, mtu - ATT_WRITE_OVERHEAD);
  }

  open(): Promise<void> {
    if (this.#opening) return this.#opening;
    if (this.#peripheral) {
      return Promise.reject(new TransportError('ALREADY_OPEN', `${this.address} is already open.`));
    }
    this.#opening = this.#doOpen()
      .catch((error: unknown) => {
        this.#releaseNoble();
        throw error;
      })
      .finally(() => {
        this.#opening = undefined;
      });
    return this.#opening;
  }

  async #doOpen(): Promise<void> {
    await waitForPoweredOn(this.#noble, this.#operationTimeoutMs);
    const peripheral = await this.#findPeripheral();
    await withTimeout(
      this.#operationTimeoutMs,
      () => new TransportError('CONNECT_TIMEOUT', `Connecting to ${this.address} timed out.`),
      new Promise<void>((resolve, reject) => {
        peripheral.connect((error) => {
          const err = asError(error);
          if (err) {
            reject(
              new TransportError('IO_ERROR', `Connecting to ${this.address} failed: ${err.message}.`, { cause: err }),
            );
          } else {
            resolve();
          }
        });
      }),
    );
    try {
      await withTimeout(
        this.#operationTimeoutMs,
        () => new TransportError('BLE_SERVICE_NOT_FOUND', `${this.address} did not list its GATT services in time.`),
        this.#setUpGatt(peripheral),
      );
    } catch (error) {
      peripheral.disconnect();
      throw error;
    }
    this.#peripheral = peripheral;
    peripheral.once('disconnect', () => {
      if (this.#peripheral !== peripheral) return;
      if (this.#closingOnPurpose) return;
      this.#linkLost(new TransportError('DISCONNECTED', `The BLE device ${this.address} disconnected.`));
    });
    this.#noble.on('stateChange', this.#onStateChange);
    this.emit('open');
  }

  /** Scans until the wanted peripheral shows up, or fails with BLE_DEVICE_NOT_FOUND. */
  #findPeripheral(): Promise<NoblePeripheralLike> {
    let onDiscover: ((p: NoblePeripheralLike) => void) | undefined;
    const found = new Promise<NoblePeripheralLike>((resolve, reject) => {
      onDiscover = (p: NoblePeripheralLike): void => {
        if (sameDevice(p, this.#peripheralId)) resolve(p);
      };
      this.#noble.on('discover', onDiscover);
      // Scan for everything: many devices do not advertise their serial service UUID.
      this.#noble.startScanning([], false, (error) => {
        const err = asError(error);
        if (err)
          reject(new TransportError('BLE_UNAVAILABLE', `Bluetooth scanning failed: ${err.message}.`, { cause: err }));
      });
    });
    return withTimeout(
      this.#scanTimeoutMs,
      () =>
        new TransportError(
          'BLE_DEVICE_NOT_FOUND',
          `The BLE device ${this.#peripheralId} was not seen within ${this.#scanTimeoutMs} ms; is it on, nearby and not connected elsewhere?`,
        ),
      found,
    ).finally(() => {
      if (onDiscover) this.#noble.removeListener('discover', onDiscover);
      this.#noble.stopScanning();
    });
  }

  async #setUpGatt(peripheral: NoblePeripheralLike): Promise<void> {
    const notFound = (what: string): TransportError =>
      new TransportError(
        'BLE_SERVICE_NOT_FOUND',
        `${this.address} has no ${what}; check the configured service and characteristic UUIDs.`,
      );
    const services = await new Promise<NobleServiceLike[]>((resolve, reject) => {
      peripheral.discoverServices([this.#serviceUuid], (error, list) => {
        const err = asError(error);
        if (err) reject(notFound(`service ${this.#serviceUuid} (${err.message})`));
        else resolve(list ?? []);
      });
    });
    const service = services.find((s) => normalizeBleUuid(s.uuid) === this.#serviceUuid);
    if (!service) throw notFound(`service ${this.#serviceUuid}`);
    const characteristics = await new Promise<NobleCharacteristicLike[]>((resolve, reject) => {
      service.discoverCharacteristics([this.#writeUuid, this.#notifyUuid], (error, list) => {
        const err = asError(error);
        if (err) reject(notFound(`characteristics in ${this.#serviceUuid} (${err.message})`));
        else resolve(list ?? []);
      });
    });
    const write = characteristics.find((c) => normalizeBleUuid(c.uuid) === this.#writeUuid);
    const notify = characteristics.find((c) => normalizeBleUuid(c.uuid) === this.#notifyUuid);
    if (!write) throw notFound(`write characteristic ${this.#writeUuid}`);
    if (!notify) throw notFound(`notify characteristic ${this.#notifyUuid}`);
    this.#withoutResponse =
      this.#writeWithoutResponseOption ??
      (write.properties.includes('writeWithoutResponse') && !write.properties.includes('write'));
    notify.on('data', (data: Buffer) => {
      if (this.#notifyCharacteristic === notify) this.emit('data', Buffer.from(data));
    });
    this.#writeCharacteristic = write;
    this.#notifyCharacteristic = notify;
    await new Promise<void>((resolve, reject) => {
      notify.subscribe((error) => {
        const err = asError(error);
        if (err)
          reject(
            new TransportError('IO_ERROR', `Subscribing to ${this.address} failed: ${err.message}.`, { cause: err }),
          );
        else resolve();
      });
    });
  }

  write(data: Uint8Array): Promise<void> {
    if (!this.isOpen || !this.#writeCharacteristic) {
      return Promise.reject(new TransportError('NOT_OPEN', `${this.address} is not open.`));
    }
    const characteristic = this.#writeCharacteristic;
    const buffer = Buffer.from(data);
    const run = async (): Promise<void> => {
      let offset = 0;
      while (offset < buffer.length) {
        if (!this.isOpen) throw new TransportError('NOT_OPEN', `${this.address} closed during a write.`);
        // Re-read the size each time: the MTU exchange may finish while a long write is under way.
        const chunk = buffer.subarray(offset, offset + this.chunkSize);
        await this.#writeChunk(characteristic, chunk);
        offset += chunk.length;
      }
    };
    const result = this.#writeChain.then(run);
    this.#writeChain = result.catch(() => undefined);
    return result;
  }

  #writeChunk(characteristic: NobleCharacteristicLike, chunk: Buffer): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onDrop = (error: Error): void => reject(error);
      this.#dropListeners.add(onDrop);
      characteristic.write(Buffer.from(chunk), this.#withoutResponse, (error) => {
        this.#dropListeners.delete(onDrop);
        const err = asError(error);
        if (err)
          reject(new TransportError('IO_ERROR', `Writing to ${this.address} failed: ${err.message}.`, { cause: err }));
        else resolve();
      });
    });
  }

  async close(): Promise<void> {
    if (this.#opening) await this.#opening.catch(() => undefined);
    const peripheral = this.#peripheral;
    if (!peripheral || this.#closingOnPurpose) return;
    this.#closingOnPurpose = true;
    try {
      await withTimeout(
        this.#operationTimeoutMs,
        () => new Error('disconnect timed out'),
        new Promise<void>((resolve) => peripheral.disconnect(() => resolve())),
      ).catch(() => undefined);
      this.#teardown(new TransportError('NOT_OPEN', `${this.address} was closed.`));
      this.#releaseNoble();
      this.emit('close', { expected: true });
    } finally {
      this.#closingOnPurpose = false;
    }
  }

  #linkLost(error: TransportError): void {
    this.#teardown(error);
    this.#releaseNoble();
    this.emit('close', { expected: false, error });
  }

  /** Stops an owned noble; a closed BLE transport is not reopened (a new one is made). */
  #releaseNoble(): void {
    if (this.#ownsNoble) this.#noble.stop?.();
  }

  #teardown(error: Error): void {
    this.#noble.removeListener('stateChange', this.#onStateChange);
    this.#notifyCharacteristic?.removeAllListeners('data');
    this.#peripheral = undefined;
    this.#writeCharacteristic = undefined;
    this.#notifyCharacteristic = undefined;
    for (const drop of this.#dropListeners) drop(error);
    this.#dropListeners.clear();
  }
}

export interface BleDeviceInfo {
  /** noble's peripheral id (use as `ble:<id>`). */
  readonly id: string;
  readonly address: string;
  readonly name: string | undefined;
  readonly rssi: number;
}

export interface ScanBleOptions {
  readonly noble: NobleLike;
  /** The scan owns `noble` (made for it by createNoble) and stops it when done, failed or not. */
  readonly ownsNoble?: boolean;
  /** How long to listen for advertisements. Default 5 s. */
  readonly durationMs?: number;
  /** Only devices advertising one of these services; default the Nordic UART Service, `[]` for all. */
  readonly serviceUuids?: readonly string[];
  /** How long to wait for the adapter to power on. Default 5 s. */
  readonly powerOnTimeoutMs?: number;
}

/** Lists the BLE devices advertising during `durationMs`, strongest signal first. */
export async function scanBlePinpads(options: ScanBleOptions): Promise<BleDeviceInfo[]> {
  const { noble } = options;
  try {
    return await scan(noble, options);
  } finally {
    if (options.ownsNoble === true) noble.stop?.();
  }
}

async function scan(noble: NobleLike, options: ScanBleOptions): Promise<BleDeviceInfo[]> {
  const durationMs = options.durationMs ?? 5000;
  const serviceUuids = (options.serviceUuids ?? [NORDIC_UART_SERVICE_UUID]).map(normalizeBleUuid);
  await waitForPoweredOn(noble, options.powerOnTimeoutMs ?? 5000);
  const seen = new Map<string, BleDeviceInfo>();
  const onDiscover = (p: NoblePeripheralLike): void => {
    const previous = seen.get(p.id);
    seen.set(p.id, {
      id: p.id,
      address: p.address,
      name: p.advertisement.localName ?? previous?.name,
      rssi: p.rssi,
    });
  };
  noble.on('discover', onDiscover);
  try {
    await new Promise<void>((resolve, reject) => {
      noble.startScanning(serviceUuids, true, (error) => {
        const err = asError(error);
        if (err)
          reject(new TransportError('BLE_UNAVAILABLE', `Bluetooth scanning failed: ${err.message}.`, { cause: err }));
        else resolve();
      });
    });
    await new Promise<void>((resolve) => setTimeout(resolve, durationMs));
  } finally {
    noble.removeListener('discover', onDiscover);
    noble.stopScanning();
  }
  return [...seen.values()].sort((a, b) => b.rssi - a.rssi);
}

/** noble's module: a default instance, and `withBindings` for more (@stoprocent/noble). */
interface NobleModule {
  withBindings?: (bindingType?: string) => unknown;
}

/** noble's platform bindings as far as they are silenced here. */
interface NobleBindingsLike {
  onStateChange?: (state: string) => void;
}

/** The console lines noble's HCI bindings print on an unsupported or unauthorized adapter. */
const NOBLE_CONSOLE_LINE = /^(noble warning:|\s{8,}\S)/;

/**
 * noble's HCI bindings print a three-line warning with console.log on every adapter state change to
 * unsupported/unauthorized, and noble console.warns its `warning` events: on stdout they would break
 * `--json` output and the agent's ready line. The state itself reaches us as `stateChange` and
 * becomes one BLE_UNAVAILABLE sentence, so those lines are dropped.
 */
function silence(noble: NobleLike): void {
  const emitter = noble as unknown as EventEmitter;
  emitter.removeAllListeners('warning');
  emitter.on('warning', () => undefined);
  const bindings = (noble as unknown as { _bindings?: NobleBindingsLike })._bindings;
  const onStateChange = bindings?.onStateChange;
  if (!bindings || typeof onStateChange !== 'function') return;
  bindings.onStateChange = (state: string): void => {
    const log = console.log;
    console.log = (...args: unknown[]): void => {
      if (typeof args[0] === 'string' && NOBLE_CONSOLE_LINE.test(args[0])) return;
      log(...args);
    };
    try {
      onStateChange.call(bindings, state);
    } finally {
      console.log = log;
    }
  };
}

const loadNobleModule = (): unknown => createRequire(import.meta.url)('@stoprocent/noble');

/**
 * A new noble instance with this platform's bindings, loaded only when BLE is actually used: the
 * native Bluetooth module may be missing or unloadable, and starting it opens an HCI socket. Each
 * call gives a separate instance (the caller stops it when done); a module without `withBindings`
 * (a test double) is used as the instance itself.
 */
export function createNoble(load: () => unknown = loadNobleModule): NobleLike {
  try {
    const loaded = load();
    const module = ((loaded as { default?: unknown }).default ?? loaded) as NobleModule;
    const noble = typeof module.withBindings === 'function' ? module.withBindings('default') : module;
    if (typeof (noble as Partial<NobleLike> | undefined)?.startScanning !== 'function') {
      throw new Error('the module does not export a noble instance');
    }
    silence(noble as NobleLike);
    return noble as NobleLike;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new TransportError(
      'BLE_UNAVAILABLE',
      `Bluetooth LE is not available on this machine (the noble native binding could not be loaded: ${reason}).`,
      { cause: error },
    );
  }
}
