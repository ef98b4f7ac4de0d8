/**
 * The modules of a QR code: the same encoder the receipts print Pix QR codes with (bwip-js,
 * through drivers/printers' loader, so it is loaded once, on first use), error correction M
 * as Pix QR codes are made, byte mode.
 */
import { bwipLibrary } from '../../drivers/printers/symbol-libraries.js';

export type QrErrorCorrection = 'L' | 'M' | 'Q' | 'H';

export interface QrMatrix {
  /** Modules a side, without the quiet zone (21 for version 1, 4 more a version). */
  readonly size: number;
  /** Whether the module at (column, row) is dark. */
  readonly dark: (column: number, row: number) => boolean;
}

/** Throws when the data cannot be encoded (empty, or longer than a QR code holds). */
export function qrMatrix(data: string, errorCorrection: QrErrorCorrection = 'M'): QrMatrix {
  const [symbol] = bwipLibrary().raw('qrcode', data, `eclevel=${errorCorrection}`);
  if (symbol === undefined || !('pixs' in symbol) || symbol.pixx !== symbol.pixy) {
    throw new Error('The QR encoder returned no square symbol');
  }
  const { pixs, pixx: size } = symbol;
  return {
    size,
    dark: (column, row) => column >= 0 && row >= 0 && column < size && row < size && pixs[row * size + column] === 1,
  };
}
