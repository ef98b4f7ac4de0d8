/**
 * One byte-transport interface under the ABECS link layer, whatever the medium: USB/RS-232 and
 * Bluetooth Classic SPP (serial), network PINPADs (TCP), BLE GATT, and in-memory links for the
 * simulator and tests. A transport moves bytes and reports the link going away; it knows nothing
 * of ABECS.
 */
import type { EventEmitter } from 'node:events';
import { DriverError } from '../errors.js';

export type TransportKind = 'serial' | 'tcp' | 'ble' | 'memory';

export interface TransportCloseInfo {
  /** True when `close()` was called; false when the device or the peer went away. */
  readonly expected: boolean;
  readonly error?: Error;
}

export interface TransportEvents {
  /** The link is up: after `open()`, and again after an automatic reconnection (TCP). */
  open: [];
  /** Bytes received, in arrival order. */
  data: [chunk: Buffer];
  /** The link is gone (closed by us, unplugged, peer closed, connection lost). */
  close: [info: TransportCloseInfo];
}

/** Every code a transport fails with (a list, so the layers above can prove they name each one). */
export const TRANSPORT_ERROR_CODES = [
  'PORT_NOT_FOUND',
  'PORT_BUSY',
  'PERMISSION_DENIED',
  'CONNECTION_REFUSED',
  'HOST_UNREACHABLE',
  'CONNECT_TIMEOUT',
  'DISCONNECTED',
  'NOT_OPEN',
  'ALREADY_OPEN',
  'BLE_UNAVAILABLE',
  'BLE_DEVICE_NOT_FOUND',
  'BLE_SERVICE_NOT_FOUND',
  'INVALID_PORT',
  'IO_ERROR',
] as const;
export type TransportErrorCode = (typeof TRANSPORT_ERROR_CODES)[number];

export class TransportError extends DriverError {
  declare readonly code: TransportErrorCode;

  constructor(code: TransportErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
  }
}

export interface ByteTransport extends EventEmitter<TransportEvents> {
  readonly kind: TransportKind;
  /** Where it goes, in the `--port` syntax: `/dev/ttyACM0`, `tcp://10.0.0.5:4000`, `ble:<id>`. */
  readonly address: string;
  readonly isOpen: boolean;
  /** Opens the link; rejects with a TransportError saying why not. */
  open(): Promise<void>;
  /**
   * Queues bytes for sending; resolves once handed to the OS / peer. Rejects with NOT_OPEN when
   * not open. A write in flight when the link closes — `close()` called, or the device or peer
   * gone — settles: resolved if its bytes were handed over first, else rejected with NOT_OPEN or
   * DISCONNECTED; it never leaves its caller waiting (test/drivers/transports/contract.test.ts).
   */
  write(data: Uint8Array): Promise<void>;
  /** Closes the link (idempotent); emits `close` with `expected: true` once, if it was open. */
  close(): Promise<void>;
}
