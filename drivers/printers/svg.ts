/**
 * A PrintDocument as a picture of the paper: a standalone SVG for the cashier's window and the
 * demo POS page, drawn from `layout()` so it holds the very characters the printer puts on each
 * line, in a monospace grid at the paper's width. The geometry (`planPaper`) and the barcode and QR
 * encoders are exported for the PDF renderer, which draws the same picture.
 */
import { bwipLibrary } from './symbol-libraries.js';
import { InvalidArgumentError } from '../errors.js';
import { isPaperColumns, paperWidthMm, type PaperColumns, type PrintDocument } from './document.js';
import { layout, type LaidOutLine } from './layout.js';

/** Where things go on the paper, in millimetres. */
export interface PaperGeometry {
  readonly columns: PaperColumns;
  readonly widthMm: 58 | 80;
  /** Left and right margin: what a thermal head leaves unprinted (58 mm prints 48 mm, 80 mm prints 72 mm). */
  readonly marginMm: number;
  readonly printableWidthMm: number;
  /** One column of font A: the printable width shared by the columns. */
  readonly charWidthMm: number;
  /** A monospace font's advance is 0.6 em (Courier, Liberation Mono), so this size fills one column per character. */
  readonly fontSizeMm: number;
  /** Font A is 12×24 dots under a 30-dot line feed: a line is 2.5 columns high. */
  readonly lineHeightMm: number;
  readonly barcodeHeightMm: number;
  readonly qrSideMm: number;
}

const PRINTABLE_WIDTH_MM = { 58: 48, 80: 72 } as const;
const MONOSPACE_ADVANCE_EM = 0.6;
const LINE_HEIGHT_IN_COLUMNS = 2.5;
/** The height FEBRABAN gives the boleto's ITF barcode. */
const BARCODE_HEIGHT_MM = 13;
/** A Pix QR code that phone cameras read from an arm's length, quiet zone included. */
const QR_SIDE_MM = 36;
/** The four-module white border a QR reader needs around the symbol. */
export const QR_QUIET_ZONE_MODULES = 4;

export function paperGeometry(columns: PaperColumns): PaperGeometry {
  if (!isPaperColumns(columns)) {
    throw new InvalidArgumentError(`A paper has 32, 42 or 48 columns, not ${String(columns)}.`);
  }
  const widthMm = paperWidthMm(columns);
  const printableWidthMm = PRINTABLE_WIDTH_MM[widthMm];
  const charWidthMm = printableWidthMm / columns;
  return {
    columns,
    widthMm,
    marginMm: (widthMm - printableWidthMm) / 2,
    printableWidthMm,
    charWidthMm,
    fontSizeMm: charWidthMm / MONOSPACE_ADVANCE_EM,
    lineHeightMm: charWidthMm * LINE_HEIGHT_IN_COLUMNS,
    barcodeHeightMm: BARCODE_HEIGHT_MM,
    qrSideMm: Math.min(QR_SIDE_MM, printableWidthMm),
  };
}

/** A laid-out line with the band of paper it takes (from `topMm`, `heightMm` high). */
export type PlacedLine = LaidOutLine & { readonly topMm: number; readonly heightMm: number };

export interface PaperPlan {
  readonly geometry: PaperGeometry;
  readonly lines: readonly PlacedLine[];
  /** The whole strip of paper, margins included: a receipt is one long page. */
  readonly heightMm: number;
}

/** Stacks the laid-out lines down the paper; codes get half a line of white above and below. */
export function planPaper(document: PrintDocument, columns: PaperColumns): PaperPlan {
  const geometry = paperGeometry(columns);
  const { lineHeightMm } = geometry;
  const lines: PlacedLine[] = [];
  // The top margin equals the side margins, as a printer's first line sits below the cut.
  let top = geometry.marginMm;
  for (const line of layout(document, columns).lines) {
    let height: number;
    switch (line.kind) {
      case 'text':
        height = line.large ? 2 * lineHeightMm : lineHeightMm;
        break;
      case 'barcode':
        height = geometry.barcodeHeightMm + lineHeightMm;
        break;
      case 'qrcode':
        height = geometry.qrSideMm + lineHeightMm;
        break;
    }
    lines.push({ ...line, topMm: top, heightMm: height });
    top += height;
  }
  return { geometry, lines, heightMm: top + geometry.marginMm };
}

/** Where a text line's baseline sits below the top of its band: the glyph cell centred in the line. */
export function baselineOffsetMm(fontSizeMm: number, lineHeightMm: number): number {
  return (lineHeightMm - fontSizeMm) / 2 + 0.8 * fontSizeMm;
}

/** Where a barcode's bars go inside its band: centred, at most 0.375 mm (3 dots) per module. */
export function barcodeBox(
  geometry: PaperGeometry,
  modules: number,
  topMm: number,
): { x: number; y: number; width: number; height: number } {
  const width = Math.min(geometry.printableWidthMm, modules * 0.375);
  return {
    x: (geometry.widthMm - width) / 2,
    y: topMm + geometry.lineHeightMm / 2,
    width,
    height: geometry.barcodeHeightMm,
  };
}

/** Where a QR code goes inside its band (quiet zone included), centred. */
export function qrBox(geometry: PaperGeometry, topMm: number): { x: number; y: number; side: number } {
  return {
    x: (geometry.widthMm - geometry.qrSideMm) / 2,
    y: topMm + geometry.lineHeightMm / 2,
    side: geometry.qrSideMm,
  };
}

const BWIP_IDS = { itf: 'interleaved2of5', code128: 'code128' } as const;

/** bwip-js's drawing of a barcode: its own SVG, one unit per module across, `viewBox` read out of it. */
export interface BarcodeDrawing {
  readonly svg: string;
  readonly width: number;
  readonly height: number;
  /** The SVG's content (the bars' paths), to nest in another SVG. */
  readonly body: string;
}

export function drawBarcode(symbology: 'itf' | 'code128', data: string): BarcodeDrawing {
  // ITF encodes digits in pairs; bwip-js would quietly prepend a 0 to an odd count and print another number.
  if (symbology === 'itf' && !/^(\d\d)+$/.test(data)) {
    throw new InvalidArgumentError(`An ITF barcode holds an even number of digits; got ${data.length} characters.`);
  }
  let svg: string;
  try {
    svg = bwipLibrary().toSVG({
      bcid: BWIP_IDS[symbology],
      text: data,
      scaleX: 1,
      scaleY: 1,
      height: 10,
      includetext: false,
    });
  } catch (error) {
    throw new InvalidArgumentError(`The ${symbology.toUpperCase()} barcode data cannot be encoded.`, { cause: error });
  }
  const match = /^\s*<svg viewBox="0 0 (\d+(?:\.\d+)?) (\d+(?:\.\d+)?)"[^>]*>([\s\S]*)<\/svg>\s*$/.exec(svg);
  if (match === null) throw new Error('bwip-js returned an SVG without the viewBox it always writes');
  return { svg, width: Number(match[1]), height: Number(match[2]), body: (match[3] ?? '').trim() };
}

/** A QR code's dark modules as horizontal runs (row, first column, length): few shapes to draw. */
export interface QrModules {
  readonly size: number;
  readonly runs: ReadonlyArray<{ readonly row: number; readonly column: number; readonly length: number }>;
}

/**
 * Encodes with bwip-js (error correction M, as Pix QR codes are printed; text as UTF-8 bytes).
 * `raw` is used rather than `toSVG` because it gives the modules, which both this SVG and the PDF
 * draw: `pixs` holds the symbol's modules row by row, 1 for dark, without the quiet zone.
 */
export function qrModules(data: string): QrModules {
  let symbol: { readonly pixs: readonly number[]; readonly pixx: number } | undefined;
  try {
    const [first] = bwipLibrary().raw('qrcode', data, 'eclevel=M');
    if (first !== undefined && 'pixs' in first) symbol = first;
  } catch (error) {
    throw new InvalidArgumentError('The QR code data cannot be encoded (empty or too long).', { cause: error });
  }
  if (symbol === undefined) throw new Error('bwip-js returned no QR code modules');
  const { pixs, pixx: size } = symbol;
  const dark = (row: number, column: number): boolean => pixs[row * size + column] === 1;
  const runs: Array<{ row: number; column: number; length: number }> = [];
  for (let row = 0; row < size; row++) {
    let column = 0;
    while (column < size) {
      if (!dark(row, column)) {
        column++;
        continue;
      }
      const start = column;
      while (column < size && dark(row, column)) column++;
      runs.push({ row, column: start, length: column - start });
    }
  }
  return { size, runs };
}

/** Numbers as the SVG writes them: at most three decimals (a micrometre), so the output is stable. */
function mm(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

const XML_ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** What XML 1.0 forbids in text: control characters, U+FFFE/U+FFFF and lone surrogates. */
/* eslint-disable no-control-regex -- finding the control characters XML forbids is the point */
const XML_FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/* eslint-enable no-control-regex */

/**
 * Text for XML content and attributes. Characters XML 1.0 forbids (control characters, lone
 * surrogates, U+FFFE/U+FFFF) become U+FFFD, one for one, so the SVG stays well-formed and every
 * character keeps its column.
 */
export function escapeXml(text: string): string {
  return (
    text
      .replace(XML_FORBIDDEN, '\uFFFD')
      // A tab or line break inside a line would move the rest of it; the paper shows one space.
      .replace(/[\t\n\r]/g, ' ')
      .replace(/[&<>"']/g, (c) => XML_ENTITIES[c] ?? c)
  );
}

/** Screen fonts whose advance is 0.6 em like the PDF's Courier; `textLength` pins the grid for any other. */
const FONT_FAMILY = "'Liberation Mono', 'Courier New', Cousine, 'DejaVu Sans Mono', monospace";

function textElement(line: PlacedLine & { kind: 'text' }, geometry: PaperGeometry): string {
  const scale = line.large ? 2 : 1;
  const fontSize = geometry.fontSizeMm * scale;
  const attributes = [
    `x="${mm(geometry.marginMm)}"`,
    `y="${mm(line.topMm + baselineOffsetMm(fontSize, line.heightMm))}"`,
    ...(line.large ? [`font-size="${mm(fontSize)}"`] : []),
    ...(line.bold ? ['font-weight="bold"'] : []),
    // The line is exactly its columns wide whatever font the screen has (a large character is two columns).
    ...(line.text.length > 0
      ? [`textLength="${mm(line.text.length * geometry.charWidthMm * scale)}"`, 'lengthAdjust="spacingAndGlyphs"']
      : []),
  ];
  // On each <text>: browsers set `white-space` on text elements themselves, so it does not inherit.
  return `<text xml:space="preserve" ${attributes.join(' ')}>${escapeXml(line.text)}</text>`;
}

function barcodeElement(line: PlacedLine & { kind: 'barcode' }, geometry: PaperGeometry): string {
  const drawing = drawBarcode(line.symbology, line.data);
  const box = barcodeBox(geometry, drawing.width, line.topMm);
  const label = line.symbology === 'itf' ? 'Código de barras ITF' : 'Código de barras Code 128';
  // The bars stretch to the box (1D: only widths matter, and they keep their ratios).
  return (
    `<svg x="${mm(box.x)}" y="${mm(box.y)}" width="${mm(box.width)}" height="${mm(box.height)}" ` +
    `viewBox="0 0 ${mm(drawing.width)} ${mm(drawing.height)}" preserveAspectRatio="none" role="img" aria-label="${label}" data-barcode="${escapeXml(line.data)}">` +
    `<title>${label}: ${escapeXml(line.data)}</title>${drawing.body}</svg>`
  );
}

function qrElement(line: PlacedLine & { kind: 'qrcode' }, geometry: PaperGeometry): string {
  const qr = qrModules(line.data);
  const box = qrBox(geometry, line.topMm);
  const side = qr.size + 2 * QR_QUIET_ZONE_MODULES;
  const path = qr.runs
    .map(
      (run) =>
        `M${run.column + QR_QUIET_ZONE_MODULES} ${run.row + QR_QUIET_ZONE_MODULES}h${run.length}v1h-${run.length}z`,
    )
    .join('');
  return (
    `<svg x="${mm(box.x)}" y="${mm(box.y)}" width="${mm(box.side)}" height="${mm(box.side)}" viewBox="0 0 ${side} ${side}" ` +
    `shape-rendering="crispEdges" role="img" aria-label="QR Code" data-qrcode="${escapeXml(line.data)}">` +
    `<title>QR Code: ${escapeXml(line.data)}</title><path fill="#000" d="${path}"/></svg>`
  );
}

/**
 * The document as a standalone SVG of the paper: `width`/`height` in millimetres, a viewBox in
 * millimetres, white paper, one <text> per laid-out text line (blank ones included), its
 * leading spaces kept (`xml:space="preserve"`) so they position the line as on paper.
 */
export function renderSvg(document: PrintDocument, columns: PaperColumns): string {
  const plan = planPaper(document, columns);
  const { geometry } = plan;
  const width = mm(geometry.widthMm);
  const height = mm(plan.heightMm);
  const elements = plan.lines.map((line) => {
    switch (line.kind) {
      case 'text':
        return textElement(line, geometry);
      case 'barcode':
        return barcodeElement(line, geometry);
      case 'qrcode':
        return qrElement(line, geometry);
    }
  });
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}mm" height="${height}mm" viewBox="0 0 ${width} ${height}" ` +
      `data-columns="${columns}">`,
    `<title>${escapeXml(document.title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<g font-family="${FONT_FAMILY}" font-size="${mm(geometry.fontSizeMm)}" fill="#000">`,
    ...elements,
    '</g>',
    '</svg>',
    '',
  ].join('\n');
}
