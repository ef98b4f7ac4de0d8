import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaperColumns, PrintDocument } from '../../../drivers/printers/document.js';
import { renderHtml } from '../../../drivers/printers/html.js';
import { layout } from '../../../drivers/printers/layout.js';
import { planPaper, renderSvg } from '../../../drivers/printers/svg.js';
import { CSS_PX_PER_MM, inkRatio, launchChromium, pngSize, printerArtifactsDir, runInPage } from './chromium.js';
import { SAMPLE_DOCUMENT } from './sample-document.js';

function textLinesOf(document: PrintDocument, columns: PaperColumns): string[] {
  return layout(document, columns).lines.flatMap((line) => (line.kind === 'text' ? [line.text] : []));
}

describe('renderHtml', () => {
  it('is a complete UTF-8 page in Brazilian Portuguese, titled by the document', () => {
    const html = renderHtml(SAMPLE_DOCUMENT, 32);
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="pt-BR">')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain('<title>Comprovante de venda — via do cliente</title>');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('takes its title from the options when given, escaped', () => {
    const html = renderHtml(SAMPLE_DOCUMENT, 32, { title: 'Reimpressão <2ª via> & "cópia"' });
    expect(html).toContain('<title>Reimpressão &lt;2ª via&gt; &amp; &quot;cópia&quot;</title>');
  });

  it('holds the paper as inline SVG, its lines as text', () => {
    const html = renderHtml(SAMPLE_DOCUMENT, 42);
    const svg = renderSvg(SAMPLE_DOCUMENT, 42).trimEnd();
    expect(html).toContain(svg.replace(/^<svg /, '<svg class="paper" '));
    expect(html.match(/<text\b/g)).toHaveLength(textLinesOf(SAMPLE_DOCUMENT, 42).length);
  });

  it.each([
    [32, 58],
    [48, 80],
  ] as const)('on %i columns, prints on a %i mm page as long as the receipt, without margins', (columns, widthMm) => {
    const html = renderHtml(SAMPLE_DOCUMENT, columns);
    const heightMm = Math.ceil(planPaper(SAMPLE_DOCUMENT, columns).heightMm);
    expect(html).toContain(`@page { size: ${widthMm}mm ${heightMm}mm; margin: 0 }`);
    expect(html).toContain(`.paper { display: block; width: ${widthMm}mm;`);
  });

  it('needs nothing from outside: no links, scripts, images, imports or fonts', () => {
    const html = renderHtml(SAMPLE_DOCUMENT, 48);
    expect(html).not.toMatch(/<(link|script|img|iframe|object|embed)\b|\s(src|href)=|url\(|@import|@font-face/i);
  });
});

describe('renderHtml in Chromium', () => {
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const deviceScaleFactor = 2;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage({ deviceScaleFactor });
    page.on('request', (request) => {
      if (!request.url().startsWith('data:')) requests.push(request.url());
    });
  });

  afterAll(async () => {
    await browser.close();
  });

  it.each([
    [32, 58],
    [42, 80],
    [48, 80],
  ] as const)('shows %i columns at %i mm, every laid-out line as text Chromium reads', async (columns, widthMm) => {
    requests.length = 0;
    await page.setContent(renderHtml(SAMPLE_DOCUMENT, columns));
    expect(requests).toEqual([]);

    const paper = page.locator('svg.paper');
    const png = await paper.screenshot();
    writeFileSync(join(printerArtifactsDir(), `sample-${columns}col-${widthMm}mm.html.png`), png);
    const box = await paper.boundingBox();
    expect(box?.width).toBeCloseTo(widthMm * CSS_PX_PER_MM, 1);
    expect(box?.height).toBeCloseTo(planPaper(SAMPLE_DOCUMENT, columns).heightMm * CSS_PX_PER_MM, 1);
    // The screenshot takes the whole CSS pixels the paper touches (it is centred, so it starts mid-pixel).
    const { width, height } = pngSize(png);
    const touched = (start: number, size: number): number =>
      (Math.ceil(start + size) - Math.floor(start)) * deviceScaleFactor;
    expect(Math.abs(width - touched(box?.x ?? 0, box?.width ?? 0))).toBeLessThanOrEqual(deviceScaleFactor);
    expect(Math.abs(height - touched(box?.y ?? 0, box?.height ?? 0))).toBeLessThanOrEqual(deviceScaleFactor);
    // White paper with black print on it: neither blank nor a black box.
    const ink = await inkRatio(page, png, { x: 0, y: 0, width, height });
    expect(ink).toBeGreaterThan(0.03);
    expect(ink).toBeLessThan(0.5);

    const seen = (await page.locator('body').innerText()).split('\n').map((line) => line.trim());
    const laidOut = textLinesOf(SAMPLE_DOCUMENT, columns)
      .map((line) => line.trim())
      .filter((line) => line.length > 0);
    expect(seen.filter((line) => line.length > 0)).toEqual(laidOut);
    expect(await paper.locator('text').allTextContents()).toEqual(textLinesOf(SAMPLE_DOCUMENT, columns));
  });

  it('lets the cashier select and copy the text', async () => {
    await page.setContent(renderHtml(SAMPLE_DOCUMENT, 32));
    const selected = await runInPage<string>(
      page,
      `() => { const selection = getSelection(); selection.selectAllChildren(document.body); return selection.toString(); }`,
      null,
    );
    for (const line of textLinesOf(SAMPLE_DOCUMENT, 32).filter((line) => line.trim().length > 0))
      expect(selected).toContain(line.trim());
  });

  it('names the picture and its codes for screen readers', async () => {
    await page.setContent(renderHtml(SAMPLE_DOCUMENT, 32));
    await expect(page.title()).resolves.toBe(SAMPLE_DOCUMENT.title);
    expect(await page.getByRole('img', { name: 'Código de barras ITF' }).count()).toBe(1);
    expect(await page.getByRole('img', { name: 'QR Code' }).count()).toBe(1);
    expect(await page.getByText('COMPROVANTE DE VENDA', { exact: true }).isVisible()).toBe(true);
  });

  it.each([
    [32, 58],
    [48, 80],
  ] as const)('prints %i columns on one page %i mm wide', async (columns, widthMm) => {
    await page.setContent(renderHtml(SAMPLE_DOCUMENT, columns));
    // Not kept with the artifacts: its timestamp is a 14-digit run that the card-data scan may take for a card number.
    const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
    const document = await getDocumentProxy(new Uint8Array(pdf));
    expect(document.numPages).toBe(1);
    const [, , widthPt, heightPt] = (await document.getPage(1)).view;
    const pointsPerMm = 72 / 25.4;
    // Chromium rounds the page to whole CSS pixels.
    expect(Math.abs((widthPt ?? 0) - widthMm * pointsPerMm)).toBeLessThan(1);
    expect(
      Math.abs((heightPt ?? 0) - Math.ceil(planPaper(SAMPLE_DOCUMENT, columns).heightMm) * pointsPerMm),
    ).toBeLessThan(1);
  });
});
