/**
 * A bolepix's Pix QR code drawn for a PINPAD's graphic display (ABECS multimedia: MLI/MLR/MLE
 * load a PNG, JPG or GIF file, DSI shows it). What the PINPAD tells through GIX — the display's
 * pixels (PP_DSPGRSZ), the formats it takes (PP_MFSUP) and the room it has for media — goes in;
 * a file of exactly the screen's size comes out: white, the QR code in black scaled by a whole
 * number of pixels a module (a fractional scale would blur modules into each other), with its
 * 4-module quiet zone, as large as the smaller side allows, centred; and, when asked, one line
 * of text under it (the amount). Or a QrImageError saying why it cannot be.
 *
 * The BR Code is checked first (main/contract/brcode.ts): a QR of a payload the customer's bank
 * app refuses would fail only after the customer scanned it.
 *
 * PNG, 1 bit a pixel: a QR image for a 240 × 320 screen is well under a kilobyte; GIF (two
 * colours) for a PINPAD that loads GIF and not PNG. A PINPAD that takes only JPG is refused: JPG's
 * lossy compression smears modules (docs/pix.md).
 */
import { CodedError } from '../../lib/errors.js';
import { BrCodeError, type BrCodeErrorCode, checkBrCode } from '../contract/brcode.js';
import { captionBitmap, missingGlyphs } from './caption-font.js';
import { encodeBilevelGif } from './gif.js';
import { encodeGreyPng, type PngBitDepth } from './png.js';
import { qrMatrix, type QrErrorCorrection } from './qr-matrix.js';

/** The media formats of ABECS (SPE_MFINFO's type: 01 PNG, 02 JPG, 03 GIF; PP_MFSUP's flags). */
export type MediaFormat = 'png' | 'jpg' | 'gif';

/** What the PINPAD's GIX says about its graphic display and media memory. */
export interface PinpadScreen {
  /** Pixels across (PP_DSPGRSZ's "CCCC", columns). */
  readonly width: number;
  /** Pixels down (PP_DSPGRSZ's "LLLL", lines: it comes first). */
  readonly height: number;
  /** Formats it loads (PP_MFSUP). */
  readonly formats: readonly MediaFormat[];
  /** Bytes the file may take (the PINPAD's free media memory, less what the caller keeps back). */
  readonly maxBytes: number;
}

export interface PinpadQrOptions {
  /** One line under the code, e.g. "R$ 150,00": upper-case letters, digits, space and $ , . : - / (accents dropped). */
  readonly caption?: string;
  /** The smallest module a phone reads from a PINPAD's screen, in pixels (default 2). */
  readonly minModulePx?: number;
  /** PNG only: 1 (default, smallest) or 8 bits a pixel, for a PINPAD whose PNG decoder wants whole bytes. */
  readonly bitDepth?: PngBitDepth;
  /** Error correction (default M, as Pix QR codes are made). */
  readonly errorCorrection?: QrErrorCorrection;
}

export type QrImageErrorCode =
  /** The payload is not a Pix BR Code (`reason` says what: BR_CODE_BAD_CRC…). */
  | 'BR_CODE_INVALID'
  /** Width, height or memory are not positive whole numbers (a GIX answer misread). */
  | 'BAD_SCREEN'
  /** None of the PINPAD's formats is one Pinbridge draws (PNG, GIF). */
  | 'NO_SUPPORTED_FORMAT'
  /** The code with its quiet zone does not fit the screen at the smallest readable module. */
  | 'SCREEN_TOO_SMALL'
  /** The caption has a character the PINPAD font lacks, or is wider than the screen. */
  | 'CAPTION_UNSUPPORTED'
  /** Even the smallest readable image is larger than the PINPAD's free media memory. */
  | 'MEMORY_TOO_LOW';

export class QrImageError extends CodedError<QrImageErrorCode> {
  /** For BR_CODE_INVALID, the BR Code check's own code. */
  readonly reason: BrCodeErrorCode | undefined;

  constructor(code: QrImageErrorCode, message: string, options: { cause?: unknown; reason?: BrCodeErrorCode } = {}) {
    super(code, message, options);
    this.reason = options.reason;
  }
}

/** Where a thing sits in the image, in pixels. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface PinpadQrImage {
  /** PNG when the PINPAD loads it, else GIF. */
  readonly format: 'png' | 'gif';
  readonly mimeType: 'image/png' | 'image/gif';
  readonly bytes: Buffer;
  /** The screen's size: the image covers it whole. */
  readonly width: number;
  readonly height: number;
  /** Pixels a module. */
  readonly modulePx: number;
  /** Modules a side of the symbol, without the quiet zone. */
  readonly modules: number;
  /** The code with its quiet zone. */
  readonly qr: Box;
  /** The caption's pixels, when there is one. */
  readonly caption: Box | undefined;
}

/** ISO/IEC 18004 asks 4 modules of light margin around the symbol. */
export const QUIET_ZONE_MODULES = 4;
const DEFAULT_MIN_MODULE_PX = 2;

const isCount = (value: number): boolean => Number.isInteger(value) && value > 0;

function checkedBrCode(brCode: string): void {
  try {
    checkBrCode(brCode);
  } catch (error) {
    if (!(error instanceof BrCodeError)) throw error;
    throw new QrImageError('BR_CODE_INVALID', `The bolepix's Pix code cannot be shown: ${error.message}`, {
      cause: error,
      reason: error.code,
    });
  }
}

interface CaptionPlan {
  readonly text: string;
  /** Pixels a font pixel. */
  readonly scale: number;
  /** Height of the band under the code: the text and a font pixel's margin above and below. */
  readonly band: number;
}

/** The caption's scale: 1 pixel a font pixel for every 80 pixels of the smaller side (3 on 240), at most 4, less when too wide. */
function planCaption(text: string | undefined, width: number, height: number): CaptionPlan | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const missing = missingGlyphs(text);
  if (missing.length > 0) {
    throw new QrImageError(
      'CAPTION_UNSUPPORTED',
      `The caption has characters the PINPAD font cannot draw: ${missing.map((char) => JSON.stringify(char)).join(' ')}`,
    );
  }
  const bitmap = captionBitmap(text.trim());
  let scale = Math.max(1, Math.min(4, Math.floor(Math.min(width, height) / 80)));
  while (scale > 1 && bitmap.width * scale > width) scale--;
  if (bitmap.width * scale > width) {
    throw new QrImageError(
      'CAPTION_UNSUPPORTED',
      `The caption "${text}" is ${bitmap.width} pixels wide; the screen has ${width}`,
    );
  }
  return { text: text.trim(), scale, band: (bitmap.height + 2) * scale };
}

/**
 * The PINPAD's QR image of `brCode` for `screen`: PNG, the screen's size, the largest whole
 * module that fits — or a smaller one, down to `minModulePx`, when the file must fit less memory.
 */
export function renderPinpadQr(brCode: string, screen: PinpadScreen, options: PinpadQrOptions = {}): PinpadQrImage {
  checkedBrCode(brCode);
  const { width, height, maxBytes } = screen;
  if (!isCount(width) || !isCount(height) || !isCount(maxBytes)) {
    throw new QrImageError(
      'BAD_SCREEN',
      `A PINPAD screen of ${width} × ${height} pixels with ${maxBytes} bytes free is not a screen to draw on`,
    );
  }
  const format = screen.formats.includes('png') ? 'png' : screen.formats.includes('gif') ? 'gif' : undefined;
  if (format === undefined) {
    throw new QrImageError(
      'NO_SUPPORTED_FORMAT',
      `The PINPAD loads ${screen.formats.length === 0 ? 'no image format' : screen.formats.map((f) => f.toUpperCase()).join(' and ')}; ` +
        'Pinbridge draws QR codes as PNG or GIF (a JPG blurs the modules)',
    );
  }
  const minModulePx = options.minModulePx ?? DEFAULT_MIN_MODULE_PX;
  const caption = planCaption(options.caption, width, height);
  const matrix = qrMatrix(brCode, options.errorCorrection ?? 'M');
  const sideModules = matrix.size + 2 * QUIET_ZONE_MODULES;
  const areaHeight = height - (caption?.band ?? 0);
  const largest = Math.floor(Math.min(width, areaHeight) / sideModules);
  if (largest < minModulePx) {
    throw new QrImageError(
      'SCREEN_TOO_SMALL',
      `The Pix QR code needs ${sideModules * minModulePx} × ${sideModules * minModulePx} pixels ` +
        `(${matrix.size} modules and the quiet zone, ${minModulePx} pixels a module)` +
        `${caption ? ' above its caption' : ''}; the PINPAD's screen is ${width} × ${height}`,
    );
  }
  let smallest: number | undefined;
  for (let modulePx = largest; modulePx >= minModulePx; modulePx--) {
    const image = draw(matrix, { width, height, modulePx, areaHeight, caption }, format, options.bitDepth ?? 1);
    if (image.bytes.length <= maxBytes) return image;
    smallest = image.bytes.length;
  }
  throw new QrImageError(
    'MEMORY_TOO_LOW',
    `The smallest readable Pix QR image takes ${smallest} bytes; the PINPAD has ${maxBytes} bytes free for media`,
  );
}

function draw(
  matrix: ReturnType<typeof qrMatrix>,
  layout: { width: number; height: number; modulePx: number; areaHeight: number; caption: CaptionPlan | undefined },
  format: 'png' | 'gif',
  bitDepth: PngBitDepth,
): PinpadQrImage {
  const { width, height, modulePx, areaHeight, caption } = layout;
  const side = (matrix.size + 2 * QUIET_ZONE_MODULES) * modulePx;
  const qr: Box = {
    x: Math.floor((width - side) / 2),
    y: Math.floor((areaHeight - side) / 2),
    width: side,
    height: side,
  };
  const symbolX = qr.x + QUIET_ZONE_MODULES * modulePx;
  const symbolY = qr.y + QUIET_ZONE_MODULES * modulePx;
  const text = caption ? captionBitmap(caption.text) : undefined;
  const captionBox: Box | undefined =
    caption && text
      ? {
          x: Math.floor((width - text.width * caption.scale) / 2),
          y: areaHeight + caption.scale,
          width: text.width * caption.scale,
          height: text.height * caption.scale,
        }
      : undefined;
  const black = (x: number, y: number): boolean => {
    if (captionBox && caption && text && y >= areaHeight) {
      return text.black(Math.floor((x - captionBox.x) / caption.scale), Math.floor((y - captionBox.y) / caption.scale));
    }
    if (x < symbolX || y < symbolY) return false;
    return matrix.dark(Math.floor((x - symbolX) / modulePx), Math.floor((y - symbolY) / modulePx));
  };
  return {
    format,
    mimeType: format === 'png' ? 'image/png' : 'image/gif',
    bytes:
      format === 'png' ? encodeGreyPng({ width, height, black }, bitDepth) : encodeBilevelGif({ width, height, black }),
    width,
    height,
    modulePx,
    modules: matrix.size,
    qr,
    caption: captionBox,
  };
}
