/**
 * The same Pix QR code for the cashier's window (a customer-facing panel, or the QR when the
 * PINPAD has no graphic display): SVG, one unit a module with the 4-module quiet zone on a white
 * ground, so the page scales it to any size and it stays sharp. The BR Code is checked first, as
 * for the PINPAD's image. (The receipt printer needs nothing of this: a receipt's `qrcode` block
 * carries the BR Code and drivers/printers draws it with the same encoder, ESC/POS natively.)
 */
import { checkBrCode } from '../contract/brcode.js';
import { QUIET_ZONE_MODULES } from './qr-image.js';
import { qrMatrix } from './qr-matrix.js';

export interface PixQrSvg {
  /** The SVG document (viewBox in modules, crisp edges). */
  readonly svg: string;
  /** The same as a data: URL, for an <img src>. */
  readonly dataUrl: string;
  /** Modules a side, quiet zone included. */
  readonly sideModules: number;
}

/** Throws BrCodeError when the payload is not a Pix BR Code. */
export function renderPixQrSvg(brCode: string): PixQrSvg {
  checkBrCode(brCode);
  const matrix = qrMatrix(brCode, 'M');
  const side = matrix.size + 2 * QUIET_ZONE_MODULES;
  let path = '';
  for (let row = 0; row < matrix.size; row++) {
    let column = 0;
    while (column < matrix.size) {
      if (!matrix.dark(column, row)) {
        column++;
        continue;
      }
      const start = column;
      while (column < matrix.size && matrix.dark(column, row)) column++;
      path += `M${start + QUIET_ZONE_MODULES} ${row + QUIET_ZONE_MODULES}h${column - start}v1h-${column - start}z`;
    }
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges" role="img" aria-label="QR Code Pix">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`;
  return { svg, dataUrl: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`, sideModules: side };
}
