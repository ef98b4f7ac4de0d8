/**
 * A receipt-printer document, independent of any printer language: what main/receipts builds
 * and every renderer consumes (ESC/POS bytes, plain text, HTML/SVG for screens, PDF for printers
 * without ESC/POS). It knows nothing of payments: a receipt, a boleto slip and a test page are
 * all documents.
 */

export type Align = 'left' | 'center' | 'right';

export type PrintBlock =
  /** A paragraph: wrapped to the paper's columns (half as many when `large`: double width and height). */
  | {
      readonly kind: 'text';
      readonly text: string;
      readonly align?: Align;
      readonly bold?: boolean;
      readonly large?: boolean;
    }
  /** A label on the left and its value on the right of one line ("VALOR ........ R$ 19,90"); wraps when both do not fit. */
  | { readonly kind: 'pair'; readonly label: string; readonly value: string; readonly bold?: boolean }
  /** A horizontal line across the paper. */
  | { readonly kind: 'rule'; readonly style?: 'single' | 'double' }
  /** Blank lines. */
  | { readonly kind: 'feed'; readonly lines: number }
  /** A 1D barcode (ITF for the 44-digit boleto barcode), with its digits as an optional caption. */
  | {
      readonly kind: 'barcode';
      readonly symbology: 'itf' | 'code128';
      readonly data: string;
      readonly caption?: string;
    }
  /** A QR code (the Pix "copia e cola" payload), with an optional caption under it. */
  | { readonly kind: 'qrcode'; readonly data: string; readonly caption?: string }
  /** Room to sign: a few blank lines, a line to sign on, and the label under it. */
  | { readonly kind: 'signature'; readonly label: string };

export interface PrintDocument {
  /** What the document is, for a spool job, a PDF's title or a log line ("Comprovante de venda — via do cliente"). */
  readonly title: string;
  readonly blocks: readonly PrintBlock[];
  /** Cut the paper after it (default true). */
  readonly cut?: boolean;
  /** Kick the cash drawer after it (default false). */
  readonly openDrawer?: boolean;
}

/** Paper widths in characters of the printer's font A: 58 mm paper has 32, 80 mm has 42 or 48. */
export const PAPER_COLUMNS = [32, 42, 48] as const;
export type PaperColumns = (typeof PAPER_COLUMNS)[number];

export function isPaperColumns(value: number): value is PaperColumns {
  return (PAPER_COLUMNS as readonly number[]).includes(value);
}

/** The paper width a column count stands for, for renderers that draw (HTML, SVG, PDF). */
export function paperWidthMm(columns: PaperColumns): 58 | 80 {
  return columns === 32 ? 58 : 80;
}
