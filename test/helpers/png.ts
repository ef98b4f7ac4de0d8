/**
 * A tiny PNG encoder for specs that need a real image file (ISO/IEC 15948): 8-bit RGB, one IDAT
 * compressed with node:zlib, CRC-32 from node:zlib. Enough for a QR-like test pattern; no decoder
 * is needed to check a PINPAD kept the bytes, and the header it writes is what a PINPAD reads.
 */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** An RGB PNG of `width` × `height` whose pixel (x, y) is `pixel(x, y)` = [r, g, b]. */
export function encodePng(
  width: number,
  height: number,
  pixel: (x: number, y: number) => readonly [number, number, number],
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const rows = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3); // filter byte 0 (none)
    for (let x = 0; x < width; x++) rows.set(pixel(x, y), row + 1 + x * 3);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A noisy black-and-white pattern (hard to compress, so the file spans many MLR packets), like a
 * QR code's modules: `module` pixels per square, squares from a seeded generator.
 */
export function patternPng(width: number, height: number, module = 4, seed = 38): Buffer {
  let state = seed;
  const squares = new Map<string, boolean>();
  const dark = (x: number, y: number): boolean => {
    const key = `${Math.floor(x / module)},${Math.floor(y / module)}`;
    let value = squares.get(key);
    if (value === undefined) {
      state = (state * 1103515245 + 12345) >>> 0;
      value = (state >>> 16) % 2 === 0;
      squares.set(key, value);
    }
    return value;
  };
  return encodePng(width, height, (x, y) => (dark(x, y) ? [0, 0, 0] : [255, 255, 255]));
}
