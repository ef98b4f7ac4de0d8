/**
 * Renders the app icon's PNGs from its one source, `build/icon.svg`, in Debian's Chromium:
 * `build/icon.png` (512×512, which electron-builder turns into the Windows .ico and the macOS
 * .icns on the build machine) and `build/icons/<N>x<N>.png`, the sizes the Linux packages
 * install into the hicolor icon theme. Run: `npx tsx scripts/icons.ts` and commit the PNGs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/** Sizes of the Linux icon set (hicolor theme directories electron-builder fills from the names). */
const LINUX_ICON_SIZES: readonly number[] = Object.freeze([16, 24, 32, 48, 64, 128, 256, 512]);
/** Side of build/icon.png: electron-builder needs at least 512 for the macOS icon. */
const MAIN_ICON_SIZE = 512;

const BUILD_DIR = 'build';
const SVG_PATH = join(BUILD_DIR, 'icon.svg');

const svg = readFileSync(SVG_PATH);
const dataUrl = `data:image/svg+xml;base64,${svg.toString('base64')}`;
const outputs: Array<[path: string, size: number]> = [
  [join(BUILD_DIR, 'icon.png'), MAIN_ICON_SIZE],
  ...LINUX_ICON_SIZES.map((size): [string, number] => [join(BUILD_DIR, 'icons', `${size}x${size}.png`), size]),
];
mkdirSync(join(BUILD_DIR, 'icons'), { recursive: true });

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const [path, size] of outputs) {
    // The SVG is drawn at the target size (not scaled down from 512), so small icons stay sharp.
    // setContent waits for the load event, which includes the image.
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(
      `<!doctype html><html><body style="margin:0;background:transparent">` +
        `<img src="${dataUrl}" width="${size}" height="${size}" style="display:block"></body></html>`,
    );
    writeFileSync(
      path,
      await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } }),
    );
    console.log(`wrote ${path}`);
  }
} finally {
  await browser.close();
}
