/**
 * A gzipped tar archive (POSIX ustar) of a few in-memory files: what the support bundle is. Written
 * here rather than with an archive library: a bundle is a handful of regular files under 100
 * characters of name, which ustar's 512-byte header says in a few lines, and Node's zlib gzips it
 * — every tar (GNU, bsdtar on Windows and macOS) reads the result.
 */
import { gzipSync } from 'node:zlib';

export interface TarEntry {
  /** A relative path, at most 100 bytes (ustar's name field). */
  readonly name: string;
  readonly data: Buffer;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  // width − 1 digits and a NUL, as ustar asks.
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mtime: number): Buffer {
  const bytes = Buffer.alloc(BLOCK);
  const nameBytes = Buffer.from(name, 'utf8');
  if (nameBytes.length > 100) throw new RangeError(`tar entry name longer than 100 bytes: ${name}`);
  nameBytes.copy(bytes, 0);
  bytes.write(octal(0o600, 8), 100, 'ascii');
  bytes.write(octal(0, 8), 108, 'ascii');
  bytes.write(octal(0, 8), 116, 'ascii');
  bytes.write(octal(size, 12), 124, 'ascii');
  bytes.write(octal(mtime, 12), 136, 'ascii');
  bytes.write('        ', 148, 'ascii'); // the checksum counts its own field as spaces
  bytes.write('0', 156, 'ascii'); // a regular file
  bytes.write('ustar\0', 257, 'ascii');
  bytes.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of bytes) sum += byte;
  bytes.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return bytes;
}

/** The entries as one .tar.gz, each file dated `mtime` (seconds). */
export function tarGz(entries: readonly TarEntry[], mtime: number): Buffer {
  const parts: Buffer[] = [];
  for (const entry of entries) {
    parts.push(header(entry.name, entry.data.length, mtime), entry.data);
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2)); // the end of the archive
  return gzipSync(Buffer.concat(parts));
}
