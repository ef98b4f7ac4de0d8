/**
 * A PINPAD's graphic display as GIX reports it, turned into the PinpadScreen the QR image is
 * drawn for. PP_DSPGRSZ (8021h) is N8 "LLLLCCCC": lines (pixels down) first, then columns — the
 * PPC-930's "03200240" is 240 pixels across and 320 down. PP_MFSUP (8022h) is A..20 of flags:
 * "1" in the first place PNG, the second JPG, the third GIF (the PPC-930's "11": PNG and JPG).
 * Neither names free media memory; the caller says how many bytes an image may take.
 */
import { type MediaFormat, type PinpadScreen, QrImageError } from './qr-image.js';

const FLAG_ORDER: readonly MediaFormat[] = ['png', 'jpg', 'gif'];

export interface GixDisplayItems {
  /** PP_DSPGRSZ, "LLLLCCCC"; absent or all zeros on a text-only PINPAD. */
  readonly graphicSize: string | undefined;
  /** PP_MFSUP, flags "1xxx" PNG, "x1xx" JPG, "xx1x" GIF. */
  readonly mediaSupport: string | undefined;
  /** The bytes an image may take on this PINPAD. */
  readonly maxBytes: number;
}

/** The screen, or undefined for a PINPAD without a graphic display (no size, or 0 × 0). Throws BAD_SCREEN on a malformed item. */
export function pinpadScreenFromGix(items: GixDisplayItems): PinpadScreen | undefined {
  const size = items.graphicSize;
  if (size === undefined || /^0{8}$/.test(size)) return undefined;
  if (!/^[0-9]{8}$/.test(size)) {
    throw new QrImageError('BAD_SCREEN', `PP_DSPGRSZ "${size}" is not eight digits "LLLLCCCC"`);
  }
  const support = items.mediaSupport ?? '';
  if (!/^[01]{0,20}$/.test(support)) {
    throw new QrImageError('BAD_SCREEN', `PP_MFSUP "${support}" is not a string of 0 and 1 flags`);
  }
  const height = Number(size.slice(0, 4));
  const width = Number(size.slice(4));
  if (width === 0 || height === 0) {
    throw new QrImageError('BAD_SCREEN', `PP_DSPGRSZ "${size}" has no width or no height`);
  }
  return {
    width,
    height,
    formats: FLAG_ORDER.filter((_format, index) => support[index] === '1'),
    maxBytes: items.maxBytes,
  };
}
