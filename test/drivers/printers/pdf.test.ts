import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { DriverError } from '../../../drivers/errors.js';
import type { PaperColumns, PrintDocument } from '../../../drivers/printers/document.js';
import { layout } from '../../../drivers/printers/layout.js';
import { renderPdf, toWinAnsi } from '../../../drivers/printers/pdf.js';
import { paperGeometry, planPaper, qrModules } from '../../../drivers/printers/svg.js';
import { printerArtifactsDir } from './chromium.js';
import { PIX_PAYLOAD, SAMPLE_DOCUMENT } from './sample-document.js';

const POINTS_PER_MM = 72 / 25.4;
/** Fixed, so the same document gives the same bytes (and no timestamp lands among the artifacts). */
const CREATED = new Date(Date.UTC(2025, 2, 5, 14, 32));

function textLinesOf(document: PrintDocument, columns: PaperColumns): string[] {
  return layout(document, columns).lines.flatMap((line) => (line.kind === 'text' ? [line.text] : []));
}

interface PaperText {
  /** The lines rebuilt from where pdf.js finds each piece of text: a piece at x goes to column (x − margin) / advance. */
  readonly lines: string[];
  /** Font size (points) and font of each line, top to bottom. */
  readonly styles: Array<{ size: number; font: string }>;
}

/** Reads the PDF back as the paper: every piece of text put in its column on its line. */
async function readPaper(pdf: Buffer, columns: PaperColumns): Promise<PaperText> {
  const document = await getDocumentProxy(new Uint8Array(pdf));
  const content = await (await document.getPage(1)).getTextContent();
  const marginPt = paperGeometry(columns).marginMm * POINTS_PER_MM;
  const rows = new Map<number, { characters: string[]; size: number; font: string }>();
  for (const item of content.items) {
    if (!('str' in item) || item.str.length === 0) continue;
    const [size = 0, , , , x = 0, y = 0] = item.transform as number[];
    const row = rows.get(Math.round(y * 100)) ?? { characters: [], size, font: item.fontName };
    rows.set(Math.round(y * 100), row);
    // Courier's advance is 0.6 em.
    const column = Math.round((x - marginPt) / (size * 0.6));
    [...item.str].forEach((character, i) => (row.characters[column + i] = character));
  }
  // PDF y grows upwards: the top line has the largest y.
  const ordered = [...rows.entries()].sort(([a], [b]) => b - a).map(([, row]) => row);
  return {
    lines: ordered.map((row) =>
      Array.from(row.characters, (c) => c ?? ' ')
        .join('')
        .trimEnd(),
    ),
    styles: ordered.map((row) => ({ size: row.size, font: row.font })),
  };
}

/** The page's drawing operators, from its (deflated) content streams. */
function contentOperators(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  const operators: string[] = [];
  for (const match of text.matchAll(/\/Filter \/FlateDecode[^]*?>>\s*stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = text.indexOf('endstream', start);
    const stream = inflateSync(pdf.subarray(start, end)).toString('latin1');
    operators.push(...stream.split('\n').map((line) => line.trim().split(' ').at(-1) ?? ''));
  }
  return operators;
}

describe('renderPdf', () => {
  it.each([
    [32, 58],
    [42, 80],
    [48, 80],
  ] as const)('on %i columns, is one page %i mm wide and as long as the receipt', async (columns, widthMm) => {
    const pdf = await renderPdf(SAMPLE_DOCUMENT, columns, { creationDate: CREATED });
    writeFileSync(join(printerArtifactsDir(), `sample-${columns}col-${widthMm}mm.pdf`), pdf);
    const document = await getDocumentProxy(new Uint8Array(pdf));
    expect(document.numPages).toBe(1);
    const [, , width = 0, height = 0] = (await document.getPage(1)).view;
    expect(width).toBeCloseTo(widthMm * POINTS_PER_MM, 3);
    expect(height).toBeCloseTo(planPaper(SAMPLE_DOCUMENT, columns).heightMm * POINTS_PER_MM, 3);
  });

  it.each([32, 42, 48] as const)(
    'on %i columns, holds every laid-out line, accents included, each character in its column',
    async (columns) => {
      const pdf = await renderPdf(SAMPLE_DOCUMENT, columns, { creationDate: CREATED });
      const paper = await readPaper(pdf, columns);
      expect(paper.lines).toEqual(textLinesOf(SAMPLE_DOCUMENT, columns).filter((line) => line.length > 0));
      for (const accented of 'çãéõêáàü—') expect(paper.lines.join('\n')).toContain(accented);
    },
  );

  it('reads back through unpdf.extractText as the laid-out lines (spaces collapsed by pdf.js)', async () => {
    const pdf = await renderPdf(SAMPLE_DOCUMENT, 32, { creationDate: CREATED });
    const { text } = await extractText(new Uint8Array(pdf), { mergePages: true });
    const collapse = (line: string): string => line.replace(/\s+/g, ' ').trim();
    expect(text.split('\n').map(collapse)).toEqual(
      textLinesOf(SAMPLE_DOCUMENT, 32)
        .map(collapse)
        .filter((line) => line.length > 0),
    );
  });

  it('sets bold lines in Courier-Bold and large lines at twice the size', async () => {
    const document: PrintDocument = {
      title: 'Teste',
      blocks: [
        { kind: 'text', text: 'normal' },
        { kind: 'text', text: 'negrito', bold: true },
        { kind: 'text', text: 'GRANDE', bold: true, large: true },
      ],
    };
    const pdf = await renderPdf(document, 32, { creationDate: CREATED });
    const [normal, bold, large] = (await readPaper(pdf, 32)).styles;
    expect(bold?.font).not.toBe(normal?.font);
    expect(large?.font).toBe(bold?.font);
    expect(bold?.size).toBeCloseTo(normal?.size ?? 0, 6);
    expect(large?.size).toBeCloseTo(2 * (normal?.size ?? 0), 6);
    const fonts = pdf.toString('latin1').match(/\/BaseFont \/[\w-]+/g);
    expect(fonts?.sort()).toEqual(['/BaseFont /Courier', '/BaseFont /Courier-Bold']);
  });

  it("draws the ITF barcode's 114 bars and the QR code's modules as vectors", async () => {
    const pdf = await renderPdf(SAMPLE_DOCUMENT, 32, { creationDate: CREATED });
    const operators = contentOperators(pdf);
    // Each bar is one stroked segment (m … l); each run of dark QR modules one rectangle.
    expect(operators.filter((op) => op === 'm')).toHaveLength(2 + 22 * 5 + 2);
    expect(operators.filter((op) => op === 're')).toHaveLength(qrModules(PIX_PAYLOAD).runs.length);
  });

  it('has the document title in its metadata', async () => {
    const pdf = await renderPdf({ ...SAMPLE_DOCUMENT, title: 'Boleto — Padaria "Pão & Açúcar" <2ª via>' }, 42, {
      creationDate: CREATED,
    });
    const { info } = await getMeta(new Uint8Array(pdf));
    expect(info['Title']).toBe('Boleto — Padaria "Pão & Açúcar" <2ª via>');
    expect(info['Creator']).toBe('Pinbridge');
    expect(info['CreationDate']).toBe('D:20250305143200Z');
  });

  it('gives the same bytes for the same document and creation date', async () => {
    const first = await renderPdf(SAMPLE_DOCUMENT, 48, { creationDate: CREATED });
    const second = await renderPdf({ ...SAMPLE_DOCUMENT, blocks: [...SAMPLE_DOCUMENT.blocks] }, 48, {
      creationDate: CREATED,
    });
    expect(first.equals(second)).toBe(true);
  });

  it('prints a character Courier does not have as "?", in its column', async () => {
    const document: PrintDocument = { title: 'x', blocks: [{ kind: 'pair', label: '✓ Pago', value: '€ 1,00 ☺' }] };
    const pdf = await renderPdf(document, 32, { creationDate: CREATED });
    expect((await readPaper(pdf, 32)).lines).toEqual([`? Pago${' '.repeat(32 - 6 - 8)}€ 1,00 ?`]);
    expect(toWinAnsi('ação\u0007\u{1F600}')).toBe('ação???');
  });

  it('refuses barcode data that cannot be encoded with INVALID_ARGUMENT', async () => {
    const document: PrintDocument = { title: 'x', blocks: [{ kind: 'barcode', symbology: 'itf', data: '123' }] };
    const error: unknown = await renderPdf(document, 32).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).code).toBe('INVALID_ARGUMENT');
  });
});
