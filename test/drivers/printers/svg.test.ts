import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriverError } from '../../../drivers/errors.js';
import type { PaperColumns, PrintDocument } from '../../../drivers/printers/document.js';
import { layout } from '../../../drivers/printers/layout.js';
import { escapeXml, paperGeometry, planPaper, qrModules, renderSvg } from '../../../drivers/printers/svg.js';
import { thrown } from '../../helpers/thrown.js';
import { CSS_PX_PER_MM, inkRatio, launchChromium, pngSize, printerArtifactsDir, runInPage } from './chromium.js';
import { BOLETO_BARCODE, PIX_PAYLOAD, SAMPLE_DOCUMENT } from './sample-document.js';

function textLinesOf(document: PrintDocument, columns: PaperColumns): string[] {
  return layout(document, columns).lines.flatMap((line) => (line.kind === 'text' ? [line.text] : []));
}

function unescapeXml(text: string): string {
  return text.replace(
    /&(lt|gt|quot|apos|amp);/g,
    (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name] ?? '',
  );
}

/** The <text> elements of an SVG string: their attributes and their characters. */
function textElements(svg: string): Array<{ attributes: string; text: string }> {
  return [...svg.matchAll(/<text\b([^>]*)>([^<]*)<\/text>/g)].map((m) => ({
    attributes: m[1] ?? '',
    text: unescapeXml(m[2] ?? ''),
  }));
}

function attribute(attributes: string, name: string): string | undefined {
  return new RegExp(`\\s${name}="([^"]*)"`).exec(attributes)?.[1];
}

describe('renderSvg', () => {
  it.each([
    [32, 58],
    [42, 80],
    [48, 80],
  ] as const)('draws %i columns on paper %i mm wide, with a viewBox in millimetres', (columns, widthMm) => {
    const svg = renderSvg(SAMPLE_DOCUMENT, columns);
    const root = /^<svg\b([^>]*)>/.exec(svg)?.[1] ?? '';
    const { heightMm } = planPaper(SAMPLE_DOCUMENT, columns);
    expect(attribute(root, 'width')).toBe(`${widthMm}mm`);
    expect(attribute(root, 'height')).toBe(`${Math.round(heightMm * 1000) / 1000}mm`);
    expect(attribute(root, 'viewBox')).toBe(`0 0 ${widthMm} ${Math.round(heightMm * 1000) / 1000}`);
    expect(svg).toContain(`<rect width="${widthMm}" height="${Math.round(heightMm * 1000) / 1000}" fill="#fff"/>`);
  });

  it.each([32, 42, 48] as const)(
    'has one <text> per laid-out text line on %i columns, in order, leading spaces kept',
    (columns) => {
      const elements = textElements(renderSvg(SAMPLE_DOCUMENT, columns));
      expect(elements.map((element) => element.text)).toEqual(textLinesOf(SAMPLE_DOCUMENT, columns));
      for (const element of elements) expect(attribute(element.attributes, 'xml:space')).toBe('preserve');
    },
  );

  it('sets bold lines in bold and large lines at twice the font size, on a line twice as high', () => {
    const document: PrintDocument = {
      title: 'Teste',
      blocks: [
        { kind: 'text', text: 'normal' },
        { kind: 'text', text: 'APROVADA', bold: true, large: true },
        { kind: 'text', text: 'depois' },
      ],
    };
    const geometry = paperGeometry(32);
    const [normal, large, after] = textElements(renderSvg(document, 32));
    expect(attribute(normal?.attributes ?? '', 'font-weight')).toBeUndefined();
    expect(attribute(normal?.attributes ?? '', 'font-size')).toBeUndefined();
    expect(attribute(large?.attributes ?? '', 'font-weight')).toBe('bold');
    expect(Number(attribute(large?.attributes ?? '', 'font-size'))).toBeCloseTo(2 * geometry.fontSizeMm, 3);
    // A large character is two columns wide.
    expect(Number(attribute(large?.attributes ?? '', 'textLength'))).toBeCloseTo(
      'APROVADA'.length * 2 * geometry.charWidthMm,
      3,
    );
    const baseline = (element: { attributes: string } | undefined): number =>
      Number(attribute(element?.attributes ?? '', 'y'));
    // One line, then the large one's two: the next line starts three lines further down.
    expect(baseline(after) - baseline(normal)).toBeCloseTo(3 * geometry.lineHeightMm, 3);
  });

  it('escapes what XML reserves and replaces what it forbids, one character for one', () => {
    const document: PrintDocument = {
      title: 'Loja <A> & "B"',
      blocks: [{ kind: 'text', text: `<script>alert("x")</script> & 'y' \u0007 \uD800` }],
    };
    const svg = renderSvg(document, 48);
    expect(svg).not.toContain('<script');
    expect(svg).toContain('<title>Loja &lt;A&gt; &amp; &quot;B&quot;</title>');
    const [line] = textElements(svg);
    expect(line?.text).toBe(`<script>alert("x")</script> & 'y' \uFFFD \uFFFD`);
    expect(escapeXml('a\tb')).toBe('a b');
  });

  it("draws the boleto's ITF barcode from bwip-js's bars: 44 digits are 114 bars", () => {
    const svg = renderSvg(SAMPLE_DOCUMENT, 32);
    const barcode = /<svg\b([^>]*data-barcode="(\d+)"[^>]*)>([\s\S]*?)<\/svg>/.exec(svg);
    expect(barcode?.[2]).toBe(BOLETO_BARCODE);
    expect(attribute(barcode?.[1] ?? '', 'aria-label')).toBe('Código de barras ITF');
    // ITF: a start pattern (2 bars), 22 digit pairs of 5 bars each, a stop pattern (2 bars).
    const bars = [...(barcode?.[3] ?? '').matchAll(/ d="([^"]*)"/g)].flatMap((m) => (m[1] ?? '').match(/M/g) ?? []);
    expect(bars).toHaveLength(2 + 22 * 5 + 2);
    // The bars take the printable width (48 mm on 58 mm paper), centred.
    expect(attribute(barcode?.[1] ?? '', 'x')).toBe('5');
    expect(attribute(barcode?.[1] ?? '', 'width')).toBe('48');
  });

  it('draws the Pix QR code from its modules, with its three finder patterns and a quiet zone', () => {
    const svg = renderSvg(SAMPLE_DOCUMENT, 48);
    const qr = /<svg\b([^>]*data-qrcode="([^"]*)"[^>]*)>([\s\S]*?)<\/svg>/.exec(svg);
    expect(unescapeXml(qr?.[2] ?? '')).toBe(PIX_PAYLOAD);
    const { size, runs } = qrModules(PIX_PAYLOAD);
    expect(attribute(qr?.[1] ?? '', 'viewBox')).toBe(`0 0 ${size + 8} ${size + 8}`);
    const path = attribute(qr?.[3] ?? '', 'd') ?? '';
    expect(path.match(/M/g)).toHaveLength(runs.length);
    // The top row of each finder pattern is one run of 7 dark modules (offset by the 4-module quiet zone).
    expect(path).toContain('M4 4h7v1h-7z');
    expect(path).toContain(`M${size - 7 + 4} 4h7v1h-7z`);
    expect(path).toContain(`M4 ${size - 7 + 4}h7v1h-7z`);
  });

  it('gives the same string for the same document', () => {
    expect(renderSvg(SAMPLE_DOCUMENT, 42)).toBe(
      renderSvg({ ...SAMPLE_DOCUMENT, blocks: [...SAMPLE_DOCUMENT.blocks] }, 42),
    );
  });

  it.each([
    ['an ITF barcode of an odd number of digits', { kind: 'barcode', symbology: 'itf', data: '12345' }],
    ['an ITF barcode with letters', { kind: 'barcode', symbology: 'itf', data: '12AB' }],
    ['a Code 128 barcode with nothing in it', { kind: 'barcode', symbology: 'code128', data: '' }],
    ['a QR code with nothing in it', { kind: 'qrcode', data: '' }],
    ['a QR code with more than a QR code holds', { kind: 'qrcode', data: 'x'.repeat(5000) }],
  ] as const)('refuses %s with INVALID_ARGUMENT', (_, block) => {
    const error = thrown(() => renderSvg({ title: 'x', blocks: [block] }, 32));
    expect(error).toBeInstanceOf(DriverError);
    expect((error as DriverError).code).toBe('INVALID_ARGUMENT');
  });

  it('refuses a column count no paper has', () => {
    const error = thrown(() => renderSvg(SAMPLE_DOCUMENT, 40 as PaperColumns));
    expect((error as DriverError).code).toBe('INVALID_ARGUMENT');
  });
});

interface RenderedText {
  readonly text: string;
  /** Where Chromium put each character's left edge, in the SVG's millimetres. */
  readonly starts: number[];
}

const READ_TEXTS = `() => [...document.querySelectorAll('text')].map((element) => ({
  text: element.textContent,
  starts: Array.from({ length: element.getNumberOfChars() }, (_, i) => element.getStartPositionOfChar(i).x),
}))`;

const READ_BOXES = `() => [...document.querySelectorAll('svg[data-barcode], svg[data-qrcode]')].map((element) => {
  const box = element.getBoundingClientRect();
  return { x: box.x, y: box.y, width: box.width, height: box.height };
})`;

describe('renderSvg in Chromium', () => {
  let browser: Browser;
  let page: Page;
  const deviceScaleFactor = 2;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ deviceScaleFactor });
  });

  afterAll(async () => {
    await browser.close();
  });

  it.each([
    [32, 58],
    [48, 80],
  ] as const)('shows %i columns as a picture %i mm wide, each character in its column', async (columns, widthMm) => {
    const svg = renderSvg(SAMPLE_DOCUMENT, columns);
    // As an image/svg+xml document Chromium parses it as XML: a well-formedness error would show instead.
    await page.goto(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    expect(await page.locator('parsererror').count()).toBe(0);

    const png = await page.locator('svg').first().screenshot();
    writeFileSync(join(printerArtifactsDir(), `sample-${widthMm}mm.svg.png`), png);
    expect(Math.abs(pngSize(png).width - widthMm * CSS_PX_PER_MM * deviceScaleFactor)).toBeLessThanOrEqual(
      deviceScaleFactor,
    );

    const geometry = paperGeometry(columns);
    const laidOut = layout(SAMPLE_DOCUMENT, columns).lines.flatMap((line) => (line.kind === 'text' ? [line] : []));
    const rendered = await runInPage<RenderedText[]>(page, READ_TEXTS, null);
    expect(rendered.map((line) => line.text)).toEqual(laidOut.map((line) => line.text));
    rendered.forEach((line, index) => {
      const columnWidth = geometry.charWidthMm * (laidOut[index]?.large === true ? 2 : 1);
      // Leading spaces are laid out too (not collapsed): character i starts at column i.
      expect(line.starts).toHaveLength(line.text.length);
      line.starts.forEach((x, column) =>
        expect(Math.abs(x - (geometry.marginMm + column * columnWidth))).toBeLessThan(0.05),
      );
    });

    // The codes are drawn (ink where they are), inside the printable width.
    const boxes = await runInPage<Array<{ x: number; y: number; width: number; height: number }>>(
      page,
      READ_BOXES,
      null,
    );
    expect(boxes).toHaveLength(2);
    for (const box of boxes) {
      expect(box.x).toBeGreaterThanOrEqual(geometry.marginMm * CSS_PX_PER_MM - 0.5);
      expect(box.x + box.width).toBeLessThanOrEqual((geometry.widthMm - geometry.marginMm) * CSS_PX_PER_MM + 0.5);
      const ink = await inkRatio(page, png, {
        x: box.x * deviceScaleFactor,
        y: box.y * deviceScaleFactor,
        width: box.width * deviceScaleFactor,
        height: box.height * deviceScaleFactor,
      });
      expect(ink).toBeGreaterThan(0.2);
      expect(ink).toBeLessThan(0.8);
    }
  });
});
