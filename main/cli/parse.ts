/** Option parsers for commander: bad values become UsageError (exit code 2). */
import { UsageError } from './errors.js';

/** Whole seconds from 1 to 255 (the PINPAD's X1 timeout fields). */
export function parseSeconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 255) {
    throw new UsageError(`"${value}" is not a number of seconds from 1 to 255`);
  }
  return n;
}

/** "host:port" (IPv6 in brackets); port 0 lets the system pick one. */
export function parseHostPort(value: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:\s]+):(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match?.[1] || port > 65535) {
    throw new UsageError(`"${value}" is not host:port (for example 127.0.0.1:0)`);
  }
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

/** A positive integer, e.g. a baud rate. */
export function parsePositiveInteger(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new UsageError(`"${value}" is not a positive whole number`);
  return n;
}

/** A TCP port, 0–65535 (0 lets the system pick a free one). */
export function parsePort(value: string): number {
  const n = Number(value);
  if (!/^\d{1,5}$/.test(value) || n > 65535) throw new UsageError(`"${value}" is not a TCP port (0–65535)`);
  return n;
}

/** A non-negative number of milliseconds. */
export function parseMilliseconds(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n))
    throw new UsageError(`"${value}" is not a whole number of milliseconds`);
  return n;
}
