/**
 * A black-and-white GIF (GIF89a), for a PINPAD that loads GIF but not PNG: a global colour table of
 * two entries (0 black, 1 white) and one image covering the screen. The LZW and the file's blocks
 * are omggif's (GifWriter), the GIF codec made for the job; only the pixels are ours.
 */
import omggif from 'omggif';
import type { GreyImage } from './png.js';

/** Black and white, in the colour table's order: a pixel's index is 0 for black, 1 for white. */
const PALETTE = [0x000000, 0xffffff];

/** The header, the colour table, the image descriptor and the trailer, with room to spare. */
const FIXED_BYTES = 1024;

/** `image` as a two-colour GIF89a file. */
export function encodeBilevelGif(image: GreyImage): Buffer {
  const { width, height } = image;
  const pixels = new Array<number>(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = image.black(x, y) ? 0 : 1;
  // LZW never writes more than a 12-bit code a pixel, plus a length byte every 255 bytes.
  const buffer = Buffer.alloc(FIXED_BYTES + Math.ceil(pixels.length * 1.6));
  const writer = new omggif.GifWriter(buffer, width, height, { palette: PALETTE });
  writer.addFrame(0, 0, width, height, pixels);
  return Buffer.from(buffer.subarray(0, writer.end()));
}
