/**
 * A black-and-white GIF writer (GIF89a), for a PINPAD that loads GIF but not PNG: a global colour
 * table of two entries (0 black, 1 white), one image covering the screen, its pixels compressed
 * with GIF's variable-length LZW (minimum code size 2, the smallest GIF allows; a clear code when
 * the table reaches 4096 codes) in sub-blocks of at most 255 bytes.
 */
import type { GreyImage } from './png.js';

const MIN_CODE_SIZE = 2;
const CLEAR = 1 << MIN_CODE_SIZE;
const END = CLEAR + 1;
const MAX_CODES = 4096;

/** Packs codes of growing width, least significant bit first, as GIF's LZW stream wants. */
class BitWriter {
  readonly bytes: number[] = [];
  #buffer = 0;
  #bits = 0;

  write(code: number, width: number): void {
    this.#buffer |= code << this.#bits;
    this.#bits += width;
    while (this.#bits >= 8) {
      this.bytes.push(this.#buffer & 0xff);
      this.#buffer >>>= 8;
      this.#bits -= 8;
    }
  }

  flush(): void {
    if (this.#bits > 0) this.bytes.push(this.#buffer & 0xff);
    this.#buffer = 0;
    this.#bits = 0;
  }
}

/** The LZW code stream of `pixels` (colour indexes 0 or 1). */
function lzw(pixels: Uint8Array): number[] {
  const out = new BitWriter();
  let table = new Map<string, number>();
  let next = END + 1;
  let width = MIN_CODE_SIZE + 1;
  out.write(CLEAR, width);
  let prefix = String(pixels[0] ?? 0);
  let prefixCode = pixels[0] ?? 0;
  for (let i = 1; i < pixels.length; i++) {
    const pixel = pixels[i]!;
    const key = `${prefix},${pixel}`;
    const known = table.get(key);
    if (known !== undefined) {
      prefix = key;
      prefixCode = known;
      continue;
    }
    out.write(prefixCode, width);
    if (next < MAX_CODES) {
      table.set(key, next);
      // The decoder widens its codes once the table holds the next power of two.
      if (next === 1 << width && width < 12) width++;
      next++;
    } else {
      out.write(CLEAR, width);
      table = new Map();
      next = END + 1;
      width = MIN_CODE_SIZE + 1;
    }
    prefix = String(pixel);
    prefixCode = pixel;
  }
  out.write(prefixCode, width);
  out.write(END, width);
  out.flush();
  return out.bytes;
}

export function encodeBilevelGif(image: GreyImage): Buffer {
  const { width, height } = image;
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) pixels[y * width + x] = image.black(x, y) ? 0 : 1;
  }
  const data = lzw(pixels);
  const blocks: number[] = [];
  for (let at = 0; at < data.length; at += 255) {
    const block = data.slice(at, at + 255);
    blocks.push(block.length, ...block);
  }
  const header = Buffer.alloc(13);
  header.write('GIF89a', 0, 'ascii');
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  header[10] = 0x80; // a global colour table of 2^(0+1) = 2 entries, 1 bit of colour resolution
  header[11] = 1; // background: white
  header[12] = 0; // no aspect ratio
  const colours = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff, 0xff]);
  const descriptor = Buffer.alloc(10);
  descriptor[0] = 0x2c; // image separator
  descriptor.writeUInt16LE(0, 1);
  descriptor.writeUInt16LE(0, 3);
  descriptor.writeUInt16LE(width, 5);
  descriptor.writeUInt16LE(height, 7);
  descriptor[9] = 0; // no local colour table, not interlaced
  return Buffer.concat([
    header,
    colours,
    descriptor,
    Buffer.from([MIN_CODE_SIZE, ...blocks, 0x00]),
    Buffer.from([0x3b]), // trailer
  ]);
}
