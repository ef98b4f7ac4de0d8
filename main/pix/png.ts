/**
 * A greyscale PNG writer (ISO/IEC 15948, colour type 0), just what a QR image needs: no palette,
 * no alpha, filter 0 on every row, one IDAT deflated by node:zlib. A QR is black and white, so
 * 1 bit a pixel keeps the file a few hundred bytes for a whole PINPAD screen; 8 bits a pixel is
 * there for a PINPAD whose decoder wants whole bytes.
 */
import { crc32, deflateSync } from 'node:zlib';

export type PngBitDepth = 1 | 8;

export interface GreyImage {
  readonly width: number;
  readonly height: number;
  /** Whether the pixel at (x, y) is black; everything else is white. */
  readonly black: (x: number, y: number) => boolean;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  // The CRC covers the type and the data, not the length.
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** The raw scanlines: a filter byte (0, none) then the row's pixels, packed most significant bit first. */
function scanlines(image: GreyImage, bitDepth: PngBitDepth): Buffer {
  const rowBytes = bitDepth === 1 ? Math.ceil(image.width / 8) : image.width;
  const raw = Buffer.alloc((rowBytes + 1) * image.height);
  for (let y = 0; y < image.height; y++) {
    const start = y * (rowBytes + 1) + 1;
    if (bitDepth === 8) {
      for (let x = 0; x < image.width; x++) raw[start + x] = image.black(x, y) ? 0x00 : 0xff;
      continue;
    }
    // 1 bit a pixel: 1 is white (the greatest grey), 0 black; padding bits at a row's end stay 0.
    for (let x = 0; x < image.width; x++) {
      if (!image.black(x, y)) raw[start + (x >> 3)]! |= 0x80 >> (x & 7);
    }
  }
  return raw;
}

export function encodeGreyPng(image: GreyImage, bitDepth: PngBitDepth = 1): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(image.width, 0);
  header.writeUInt32BE(image.height, 4);
  header[8] = bitDepth;
  header[9] = 0; // colour type 0: greyscale
  header[10] = 0; // deflate
  header[11] = 0; // adaptive filtering (each row says its filter: 0 here)
  header[12] = 0; // not interlaced
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(scanlines(image, bitDepth), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
