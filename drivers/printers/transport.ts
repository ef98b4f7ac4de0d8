/**
 * How bytes reach a receipt printer: one small interface over a raw TCP port, a serial line, a device
 * file and the operating system's print command, and the address syntax that picks one of them in the
 * settings and on the command line:
 *
 *   tcp://192.168.0.50:9100        network printer, raw port (9100 when the port is left out)
 *   serial:///dev/ttyUSB0?baud=9600  serial printer (baud 9600 when left out); serial:COM3 on Windows
 *   file:///dev/usb/lp0            device file or spool file, write-only
 *   file:///var/spool/receipts/    a folder: each job a file of its own (PDFs for headless stores)
 *   lp://EPSON_TM_T20              system printer through `lp` (lp:// alone: the default destination)
 *
 * Transports move bytes and, where the medium allows it, carry one request/answer exchange for the
 * ESC/POS status commands. They know nothing of receipts or of what the bytes mean.
 */
import net from 'node:net';
import { PrinterError } from './errors.js';
import type { PrinterTransport } from './transports/printer-transport.js';
import { CommandTransport, expandPrintCommand, systemPrintCommand } from './transports/command.js';
import { DeviceFileTransport, formatFileAddress, type DeviceFileOptions } from './transports/device.js';
import { FolderTransport } from './transports/folder.js';
import {
  DEFAULT_PRINTER_BAUD_RATE,
  SerialPrinterTransport,
  formatSerialPrinterAddress,
  type SerialPrinterOptions,
} from './transports/serial.js';
import {
  RAW_PRINTING_PORT,
  TcpPrinterTransport,
  formatTcpPrinterAddress,
  type TcpPrinterOptions,
} from './transports/tcp.js';

// The interface every transport implements lives beside them (transports/printer-transport.ts), so
// they need not import this module, which imports them all.
export type { PrinterTransport, PrinterTransportEvents, PrinterTransportKind } from './transports/printer-transport.js';

export type PrinterAddress =
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number }
  | { readonly kind: 'serial'; readonly path: string; readonly baudRate: number }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'folder'; readonly path: string }
  /** `printer` null: the system's default destination. */
  | { readonly kind: 'system'; readonly printer: string | null };

/** Line speeds serial printers offer; anything else is a typo (96000) rather than a setting. */
export const SERIAL_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200, 230400] as const;

const ACCEPTED_FORMS =
  'use tcp://host:port, serial:///dev/ttyUSB0?baud=9600 (serial:COM3 on Windows), file:///dev/usb/lp0 or lp://PRINTER_NAME';

const TCP = /^tcp:\/\/(\[[^\]\s]+\]|[A-Za-z0-9._-]+)(?::(\d{1,5}))?\/?$/i;
const WINDOWS_COM = /^(?:\\\\\.\\)?COM[1-9]\d{0,2}$/i;
const WINDOWS_DRIVE_PATH = /^\/[A-Za-z]:\//;
/** CUPS queue names: up to 127 printable characters except space, tab, / \ ? ' " and #. */
function isPrinterName(name: string): boolean {
  if (name.length < 1 || name.length > 127) return false;
  for (const char of name) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || code === 0x7f || `/\\?'"#`.includes(char) || /\s/u.test(char)) return false;
  }
  return true;
}

function invalid(text: string, why: string): PrinterError {
  return new PrinterError('INVALID_ADDRESS', `"${text}" is not a valid printer address: ${why}; ${ACCEPTED_FORMS}.`);
}

function decodePath(text: string, encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw invalid(text, 'the path has a malformed %-escape');
  }
}

/** Parses a printer address from settings or the CLI; throws PrinterError('INVALID_ADDRESS') with a sentence. */
export function parsePrinterAddress(text: string): PrinterAddress {
  if (typeof text !== 'string') throw invalid(String(text), 'it is not text');
  const value = text.trim();
  if (value === '') throw invalid(text, 'it is empty');
  const scheme = /^([a-z]+):/i.exec(value)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'tcp':
      return parseTcp(text, value);
    case 'serial':
      return parseSerial(text, value.slice('serial:'.length));
    case 'file':
      return parseFile(text, value.slice('file:'.length));
    case 'lp':
      return parseSystem(text, value.slice('lp:'.length));
    default:
      throw invalid(text, scheme ? `the scheme "${scheme}:" is not a printer connection` : 'it has no scheme');
  }
}

function parseTcp(text: string, value: string): PrinterAddress {
  const match = TCP.exec(value);
  if (!match) throw invalid(text, 'a TCP address is tcp://host or tcp://host:port');
  const port = match[2] === undefined ? RAW_PRINTING_PORT : Number(match[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw invalid(text, 'the TCP port must be 1-65535');
  let host = match[1] ?? '';
  if (host.startsWith('[')) {
    host = host.slice(1, -1);
    if (!net.isIPv6(host)) throw invalid(text, `${host} is not an IPv6 address`);
  }
  return { kind: 'tcp', host, port };
}

function parseSerial(text: string, rest: string): PrinterAddress {
  const queryAt = rest.indexOf('?');
  let path = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const query = queryAt === -1 ? '' : rest.slice(queryAt + 1);
  // serial:///dev/ttyUSB0 (URL form, empty host) and serial://COM3 both drop the two slashes.
  if (path.startsWith('//')) path = path.slice(2);
  path = decodePath(text, path);
  if (path === '') throw invalid(text, 'a serial address needs a port');
  if (path.startsWith('/')) {
    if (path.length < 2 || path.endsWith('/')) throw invalid(text, 'the serial port path names a directory');
  } else if (WINDOWS_COM.test(path)) {
    path = path.replace(/com/i, 'COM');
  } else {
    throw invalid(text, `"${path}" is not a serial port (an absolute device path or COMn)`);
  }
  let baudRate: number = DEFAULT_PRINTER_BAUD_RATE;
  for (const [key, raw] of new URLSearchParams(query)) {
    if (key !== 'baud') throw invalid(text, `unknown serial setting "${key}" (only baud is accepted)`);
    const rate = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(SERIAL_BAUD_RATES as readonly number[]).includes(rate)) {
      throw invalid(text, `baud must be one of ${SERIAL_BAUD_RATES.join(', ')}`);
    }
    baudRate = rate;
  }
  return { kind: 'serial', path, baudRate };
}

function parseFile(text: string, rest: string): PrinterAddress {
  if (!rest.startsWith('//')) throw invalid(text, 'a file address is file:// followed by an absolute path');
  let path = rest.slice(2);
  // file://localhost/dev/usb/lp0 names the same file as file:///dev/usb/lp0; other hosts are not local.
  if (/^localhost\//i.test(path)) path = path.slice('localhost'.length);
  if (!path.startsWith('/')) throw invalid(text, 'a file address needs an absolute path (file:///dev/usb/lp0)');
  if (/[?#]/.test(path)) throw invalid(text, 'a file address takes no ?query or #fragment');
  path = decodePath(text, path);
  // file:///C:/spool/receipt.prn on Windows.
  if (WINDOWS_DRIVE_PATH.test(path)) path = path.slice(1);
  if (path.includes('\u0000')) throw invalid(text, 'the path contains a NUL character');
  // A trailing slash says folder: every job a file of its own.
  if (path.endsWith('/')) {
    if (path.length < 2) throw invalid(text, 'the folder cannot be the root of the file system');
    return { kind: 'folder', path: path.replace(/\/+$/, '') };
  }
  if (path.length < 2) throw invalid(text, 'the path names a directory');
  return { kind: 'file', path };
}

function parseSystem(text: string, rest: string): PrinterAddress {
  if (!rest.startsWith('//')) throw invalid(text, 'a system printer address is lp://PRINTER_NAME');
  const name = rest.slice(2).replace(/\/$/, '');
  if (name === '') return { kind: 'system', printer: null };
  if (!isPrinterName(name)) {
    throw invalid(text, 'a printer name has up to 127 characters and no spaces, slashes, quotes, ? or #');
  }
  // Arguments of the print command come after the name; one that looks like an option is refused.
  if (name.startsWith('-')) throw invalid(text, 'a printer name cannot start with "-"');
  return { kind: 'system', printer: name };
}

/** The canonical text of an address (what settings store and logs show). */
export function formatPrinterAddress(address: PrinterAddress): string {
  switch (address.kind) {
    case 'tcp':
      return formatTcpPrinterAddress(address.host, address.port);
    case 'serial':
      return formatSerialPrinterAddress(address.path, address.baudRate);
    case 'file':
      return formatFileAddress(address.path);
    case 'folder':
      return `${formatFileAddress(address.path)}/`;
    case 'system':
      return `lp://${address.printer ?? ''}`;
  }
}

export interface PrinterTransportOptions {
  readonly tcp?: Omit<TcpPrinterOptions, 'host' | 'port'>;
  readonly serial?: Omit<SerialPrinterOptions, 'path' | 'baudRate'>;
  readonly file?: Omit<DeviceFileOptions, 'path'>;
  readonly system?: {
    /** The print command as argv, `{printer}` standing for the name; default `lp [-d {printer}] -o raw`. */
    readonly command?: readonly string[];
    readonly timeoutMs?: number;
    /** For tests of the per-platform default. */
    readonly platform?: NodeJS.Platform;
  };
}

/** Builds the transport an address names, not yet opened. */
export function createTransport(
  address: string | PrinterAddress,
  options: PrinterTransportOptions = {},
): PrinterTransport {
  const parsed = typeof address === 'string' ? parsePrinterAddress(address) : address;
  switch (parsed.kind) {
    case 'tcp':
      return new TcpPrinterTransport({ ...options.tcp, host: parsed.host, port: parsed.port });
    case 'serial':
      return new SerialPrinterTransport({ ...options.serial, path: parsed.path, baudRate: parsed.baudRate });
    case 'file':
      return new DeviceFileTransport({ ...options.file, path: parsed.path });
    case 'folder':
      return new FolderTransport(parsed.path);
    case 'system': {
      const system = options.system ?? {};
      const argv = system.command
        ? expandPrintCommand(system.command, parsed.printer)
        : systemPrintCommand(parsed.printer, system.platform);
      return new CommandTransport({
        argv,
        address: formatPrinterAddress(parsed),
        ...(system.timeoutMs === undefined ? {} : { timeoutMs: system.timeoutMs }),
      });
    }
  }
}

/** Builds and opens the transport an address names; rejects with a PrinterError. */
export async function openTransport(
  address: string | PrinterAddress,
  options: PrinterTransportOptions = {},
): Promise<PrinterTransport> {
  const transport = createTransport(address, options);
  await transport.open();
  return transport;
}
