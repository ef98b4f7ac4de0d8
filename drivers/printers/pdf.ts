/**
 * A PrintDocument as a PDF, for printers without ESC/POS (the system printer): one page as wide
 * as the paper and as long as the receipt, the same picture as the SVG (`planPaper`) in Courier,
 * barcodes and QR codes as vectors so they stay sharp at any printer resolution.
 */
import PDFDocument from 'pdfkit';
import type { PaperColumns, PrintDocument } from './document.js';
import {
  barcodeBox,
  baselineOffsetMm,
  drawBarcode,
  planPaper,
  qrBox,
  qrModules,
  QR_QUIET_ZONE_MODULES,
  type PaperGeometry,
  type PlacedLine,
} from './svg.js';

export interface PdfOptions {
  /**
   * The PDF's CreationDate, now when omitted. pdfkit always writes one and derives the file ID
   * from it, so a fixed date is what makes the same document give the same bytes.
   */
  readonly creationDate?: Date;
}

const POINTS_PER_MM = 72 / 25.4;

/** The code points the standard fonts' WinAnsi encoding has, beyond Latin-1 (as pdfkit maps them). */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

/**
 * Courier in a PDF only has WinAnsi (all of Portuguese: ç ã õ é ê á…). Anything else would come
 * out as garbage bytes, so it becomes "?", one for one, and every character keeps its column.
 * Composed first (NFC), so an "e" and a combining acute print as the "é" they show on screen.
 */
export function toWinAnsi(text: string): string {
  let result = '';
  for (const unit of text.normalize('NFC').split('')) {
    const code = unit.charCodeAt(0);
    const encodable = (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRAS.has(unit);
    result += encodable ? unit : '?';
  }
  return result;
}

function drawText(pdf: PDFKit.PDFDocument, line: PlacedLine & { kind: 'text' }, geometry: PaperGeometry): void {
  if (line.text.length === 0) return;
  const fontSize = geometry.fontSizeMm * (line.large ? 2 : 1);
  pdf
    .font(line.bold ? 'Courier-Bold' : 'Courier')
    .fontSize(fontSize * POINTS_PER_MM)
    .text(
      toWinAnsi(line.text),
      geometry.marginMm * POINTS_PER_MM,
      (line.topMm + baselineOffsetMm(fontSize, line.heightMm)) * POINTS_PER_MM,
      {
        lineBreak: false,
        baseline: 'alphabetic',
      },
    );
}

/** bwip-js's own bars (the SVG's stroked paths), scaled into the box: the PDF shows what the screen shows. */
function drawBarcodeLine(
  pdf: PDFKit.PDFDocument,
  line: PlacedLine & { kind: 'barcode' },
  geometry: PaperGeometry,
): void {
  const drawing = drawBarcode(line.symbology, line.data);
  const box = barcodeBox(geometry, drawing.width, line.topMm);
  pdf.save();
  pdf.translate(box.x * POINTS_PER_MM, box.y * POINTS_PER_MM);
  pdf.scale((box.width * POINTS_PER_MM) / drawing.width, (box.height * POINTS_PER_MM) / drawing.height);
  for (const path of drawing.body.matchAll(/<path\b([^>]*?)\/?>/g)) {
    const attributes = path[1] ?? '';
    const d = /\sd="([^"]*)"/.exec(attributes)?.[1];
    if (d === undefined) continue;
    const strokeWidth = /\sstroke-width="([\d.]+)"/.exec(attributes)?.[1];
    pdf.path(d);
    if (strokeWidth !== undefined) pdf.lineWidth(Number(strokeWidth)).lineCap('butt').stroke('#000000');
    else pdf.fill('#000000');
  }
  pdf.restore();
}

function drawQrLine(pdf: PDFKit.PDFDocument, line: PlacedLine & { kind: 'qrcode' }, geometry: PaperGeometry): void {
  const qr = qrModules(line.data);
  const box = qrBox(geometry, line.topMm);
  const module = (box.side * POINTS_PER_MM) / (qr.size + 2 * QR_QUIET_ZONE_MODULES);
  const left = box.x * POINTS_PER_MM + QR_QUIET_ZONE_MODULES * module;
  const top = box.y * POINTS_PER_MM + QR_QUIET_ZONE_MODULES * module;
  for (const run of qr.runs) pdf.rect(left + run.column * module, top + run.row * module, run.length * module, module);
  pdf.fill('#000000');
}

export async function renderPdf(document: PrintDocument, columns: PaperColumns, options?: PdfOptions): Promise<Buffer> {
  const plan = planPaper(document, columns);
  const { geometry } = plan;
  const pdf = new PDFDocument({
    size: [geometry.widthMm * POINTS_PER_MM, plan.heightMm * POINTS_PER_MM],
    margin: 0,
    displayTitle: true,
    info: { Title: document.title, Creator: 'Pinbridge', CreationDate: options?.creationDate ?? new Date() },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  for (const line of plan.lines) {
    switch (line.kind) {
      case 'text':
        drawText(pdf, line, geometry);
        break;
      case 'barcode':
        drawBarcodeLine(pdf, line, geometry);
        break;
      case 'qrcode':
        drawQrLine(pdf, line, geometry);
        break;
    }
  }
  pdf.end();
  return done;
}
