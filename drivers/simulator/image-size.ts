/**
 * The pixel size of an image file, read from its own header, for DSI's check that the file is in
 * a format the PINPAD shows and fits its display (S220 §6.6.6: ST_MFERRFMT "formato do arquivo
 * não aceito pelo pinpad, ou suas dimensões superam a capacidade do display"). Formats: PNG (ISO/IEC
 * 15948: signature, then the IHDR chunk's width and height), JPEG (ISO/IEC 10918: SOI, then the
 * first SOFn frame header's lines and samples per line), GIF (87a/89a: the logical screen's width
 * and height, little-endian).
 */
import type { MediaFormat } from './wire/commands/media.js';

export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(file: Buffer): ImageSize | undefined {
  if (file.length < 24 || !file.subarray(0, 8).equals(PNG_SIGNATURE)) return undefined;
  if (file.readUInt32BE(8) !== 13 || file.subarray(12, 16).toString('latin1') !== 'IHDR') return undefined;
  return { width: file.readUInt32BE(16), height: file.readUInt32BE(20) };
}

/** SOF markers C0–CF carry the frame size, except C4 (DHT), C8 (JPG extension) and CC (DAC). */
const isSof = (marker: number): boolean =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpegSize(file: Buffer): ImageSize | undefined {
  if (file.length < 4 || file[0] !== 0xff || file[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 4 <= file.length) {
    if (file[at] !== 0xff) return undefined;
    const marker = file[at + 1]!;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // EOI or scan data before a frame header
    const length = file.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    if (isSof(marker)) {
      if (at + 9 > file.length) return undefined;
      return { height: file.readUInt16BE(at + 5), width: file.readUInt16BE(at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

function gifSize(file: Buffer): ImageSize | undefined {
  const header = file.subarray(0, 6).toString('latin1');
  if (file.length < 10 || (header !== 'GIF87a' && header !== 'GIF89a')) return undefined;
  return { width: file.readUInt16LE(6), height: file.readUInt16LE(8) };
}

/** The size the file's header gives when it is a file of `format`; undefined when it is not. */
export function imageSize(format: MediaFormat, file: Buffer): ImageSize | undefined {
  const size = format === 'png' ? pngSize(file) : format === 'jpg' ? jpegSize(file) : gifSize(file);
  return size && size.width > 0 && size.height > 0 ? size : undefined;
}
