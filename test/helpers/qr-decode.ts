/**
 * Reads a QR image back the way a phone would, with decoders of the registry that share nothing
 * with Pinbridge's encoder: pngjs for the PNG (any bit depth, to RGBA), omggif for the GIF, jsQR
 * for the code.
 */
import jsQRModule from 'jsqr';
import omggif from 'omggif';
import { PNG } from 'pngjs';

type JsQr = typeof jsQRModule.default;
/**
 * jsqr is CommonJS exporting `default`: Node's import gives the exports object, a bundler's
 * interop (vitest) the function itself.
 */
const jsQR: JsQr = typeof jsQRModule === 'function' ? jsQRModule : jsQRModule.default;

/** The text of the QR code in RGBA pixels, or null when jsQR finds none. */
export function readQr(rgba: Uint8ClampedArray, width: number, height: number): string | null {
  return jsQR(rgba, width, height, { inversionAttempts: 'dontInvert' })?.data ?? null;
}

export interface DecodedPng {
  readonly width: number;
  readonly height: number;
  readonly bitDepth: number;
  readonly colorType: number;
  /** RGBA, 4 bytes a pixel. */
  readonly rgba: Uint8ClampedArray;
}

export function decodePng(bytes: Uint8Array): DecodedPng {
  const png = PNG.sync.read(Buffer.from(bytes));
  const header = Buffer.from(bytes);
  return {
    width: png.width,
    height: png.height,
    bitDepth: header[24]!,
    colorType: header[25]!,
    rgba: new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length),
  };
}

/** The text of the QR code in the PNG, or null when jsQR finds none. */
export function decodeQrPng(bytes: Uint8Array): string | null {
  const image = decodePng(bytes);
  return readQr(image.rgba, image.width, image.height);
}

export interface DecodedGif {
  readonly width: number;
  readonly height: number;
  readonly frames: number;
  readonly rgba: Uint8ClampedArray;
}

export function decodeGif(bytes: Uint8Array): DecodedGif {
  const reader = new omggif.GifReader(Buffer.from(bytes));
  const rgba = new Uint8ClampedArray(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, rgba);
  return { width: reader.width, height: reader.height, frames: reader.numFrames(), rgba };
}

/** The text of the QR code in the GIF, or null when jsQR finds none. */
export function decodeQrGif(bytes: Uint8Array): string | null {
  const image = decodeGif(bytes);
  return readQr(image.rgba, image.width, image.height);
}

/** Whether the pixel at (x, y) is black (the images are black and white). */
export function isBlack(image: DecodedPng, x: number, y: number): boolean {
  return image.rgba[(y * image.width + x) * 4]! < 128;
}
