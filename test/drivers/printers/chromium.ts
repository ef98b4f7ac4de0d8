/**
 * The real Chromium the screen renderers are checked in (Debian's, driven by playwright-core),
 * and what the tests read out of it: code run in the page, a PNG's size, how much ink a part of a
 * screenshot has.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { artifactsDir } from '../../helpers/card-data-scan.js';

/** `env`: e.g. a HOME whose NSS database trusts a test CA (Chromium on Linux reads ~/.pki/nssdb). */
export function launchChromium(options: { env?: Record<string, string> } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    ...(options.env === undefined ? {} : { env: options.env }),
  });
}

/** CSS pixels are 1/96 inch: what a millimetre of paper is on the page before the device scale. */
export const CSS_PX_PER_MM = 96 / 25.4;

/** Where the screenshots and PDFs of these tests are kept. */
export function printerArtifactsDir(): string {
  const dir = join(artifactsDir(), 'printers');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * Runs `source` (a JavaScript function, as text) in the page with `arg`. As text because the
 * project compiles without the DOM library; the caller states what the function returns.
 */
export function runInPage<T>(page: Page, source: string, arg: unknown): Promise<T> {
  return page.evaluate<T>(`(${source})(${JSON.stringify(arg)})`);
}

/** Width and height from the PNG's IHDR chunk (bytes 16–23, big-endian). */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(1, 4).toString('latin1') !== 'PNG') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

export interface PixelBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

const INK_RATIO = `async ({ data, box }) => {
  const blob = await (await fetch('data:image/png;base64,' + data)).blob();
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d');
  context.drawImage(bitmap, 0, 0);
  const pixels = context.getImageData(Math.round(box.x), Math.round(box.y), Math.round(box.width), Math.round(box.height)).data;
  let dark = 0;
  for (let i = 0; i < pixels.length; i += 4) if (pixels[i] < 128) dark++;
  return dark / (pixels.length / 4);
}`;

/** The share of dark pixels in a rectangle of a PNG (device pixels), decoded by the browser itself. */
export function inkRatio(page: Page, png: Buffer, box: PixelBox): Promise<number> {
  return runInPage<number>(page, INK_RATIO, { data: png.toString('base64'), box });
}
