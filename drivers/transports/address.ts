/**
 * The `--port` syntax shared by the CLI, the config file and the agent: one string says both which
 * transport to use and where it goes.
 *   serial  /dev/ttyACM0, /dev/pts/3, /dev/tty.usbmodem1, COM3, \\.\COM12
 *   tcp     tcp://10.0.0.5:4000, tcp://pinpad.local:4000, tcp://[fe80::1]:4000
 *   ble     ble:<noble peripheral id or Bluetooth address>
 */
import net from 'node:net';
import { BleTransport, createNoble, type BleTransportOptions, type NobleLike } from './ble.js';
import { SerialTransport, type SerialTransportOptions } from './serial.js';
import { TcpTransport, type TcpTransportOptions } from './tcp.js';
import { TransportError, type ByteTransport } from './transport.js';

export type TransportAddress =
  | { readonly kind: 'serial'; readonly path: string }
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number }
  | { readonly kind: 'ble'; readonly id: string };

const ACCEPTED_FORMS =
  'use a serial device (/dev/ttyACM0, COM3), tcp://host:port (IPv6 as tcp://[::1]:4000) or ble:<device id>';

const WINDOWS_COM = /^(?:\\\\\.\\)?COM[1-9]\d{0,2}$/i;
const TCP = /^tcp:\/\/(\[[^\]\s]+\]|[A-Za-z0-9._-]+):(\d{1,5})\/?$/i;
const BLE = /^ble:([A-Za-z0-9:_-]+)$/i;

function invalid(text: string, why: string): TransportError {
  return new TransportError('INVALID_PORT', `"${text}" is not a valid PINPAD address (${why}); ${ACCEPTED_FORMS}.`);
}

/** Parses a `--port` value; throws TransportError('INVALID_PORT') saying which forms are accepted. */
export function parseTransportAddress(text: string): TransportAddress {
  const value = text.trim();
  if (value === '') throw invalid(text, 'it is empty');
  // Any absolute POSIX path: /dev/tty*, /dev/pts/N, /dev/serial/by-id/…, or a socat link file.
  if (value.startsWith('/')) {
    if (value.length < 2 || value.endsWith('/')) throw invalid(text, 'it names a directory');
    return { kind: 'serial', path: value };
  }
  if (WINDOWS_COM.test(value)) return { kind: 'serial', path: value.replace(/com/i, 'COM') };
  // "COM" alone, "COM 3", "COM0": a Windows port typed almost right deserves the exact form.
  if (/^(?:\\\\\.\\)?COM\b/i.test(value)) throw invalid(text, 'a Windows serial port is COM and its number, e.g. COM3');
  if (/^tcp:/i.test(value)) {
    const match = TCP.exec(value);
    if (!match) throw invalid(text, 'a network address needs a host and a port, e.g. tcp://10.0.0.5:4000');
    const rawHost = match[1] ?? '';
    const port = Number(match[2]);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw invalid(text, 'the TCP port must be 1-65535');
    let host = rawHost;
    if (rawHost.startsWith('[')) {
      host = rawHost.slice(1, -1);
      if (!net.isIPv6(host)) throw invalid(text, `${host} is not an IPv6 address`);
    }
    return { kind: 'tcp', host, port };
  }
  if (/^ble:/i.test(value)) {
    const match = BLE.exec(value);
    if (!match?.[1]) throw invalid(text, 'a BLE address needs a device id');
    return { kind: 'ble', id: match[1] };
  }
  throw invalid(text, 'not a serial port, a network or a Bluetooth address');
}

/** The canonical `--port` string for a parsed address. */
export function formatTransportAddress(address: TransportAddress): string {
  switch (address.kind) {
    case 'serial':
      return address.path;
    case 'tcp':
      return `tcp://${net.isIPv6(address.host) ? `[${address.host}]` : address.host}:${address.port}`;
    case 'ble':
      return `ble:${address.id}`;
  }
}

export interface TransportFactoryOptions {
  readonly serial?: SerialTransportOptions;
  readonly tcp?: Omit<TcpTransportOptions, 'host' | 'port'>;
  readonly ble?: Partial<Omit<BleTransportOptions, 'peripheralId' | 'noble' | 'ownsNoble'>>;
  /** A noble instance the caller owns and stops; when absent each BLE transport makes its own. */
  readonly noble?: NobleLike;
  /** Loader used when `noble` is absent (tests inject one). */
  readonly createNoble?: () => NobleLike;
}

/** Builds the transport an address names, not yet opened. */
export function createTransport(
  address: string | TransportAddress,
  options: TransportFactoryOptions = {},
): ByteTransport {
  const parsed = typeof address === 'string' ? parseTransportAddress(address) : address;
  switch (parsed.kind) {
    case 'serial':
      return new SerialTransport(parsed.path, options.serial);
    case 'tcp':
      return new TcpTransport({ ...options.tcp, host: parsed.host, port: parsed.port });
    case 'ble': {
      if (options.noble) return new BleTransport({ ...options.ble, noble: options.noble, peripheralId: parsed.id });
      // A noble of its own, stopped when the transport closes or fails to open.
      const noble = (options.createNoble ?? (() => createNoble()))();
      return new BleTransport({ ...options.ble, noble, ownsNoble: true, peripheralId: parsed.id });
    }
  }
}

/** Builds and opens the transport an address names; rejects with the transport's TransportError. */
export async function openTransport(
  address: string | TransportAddress,
  options: TransportFactoryOptions = {},
): Promise<ByteTransport> {
  const transport = createTransport(address, options);
  await transport.open();
  return transport;
}
