/**
 * How the window is opened: the key in the address's fragment is taken and erased from the
 * address bar, and the agent's `pairing` address (`…&page=clients`) opens the page where pairing
 * codes appear. Real Chromium, real server.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../main/version.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { OPERATOR_KEY, posRig, type PosRig } from '../main/pos/pos-rig.js';

let pos: PosRig;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'renderer', 'main.js')))
    throw new Error('dist/renderer is missing: run `npm run build` first');
  [pos, browser] = await Promise.all([posRig(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await pos?.close();
});

describe('opening the window', () => {
  it('opens the POS clients page from the pairing address, with the key gone from the address bar', async () => {
    const page = await browser.newPage();
    await page.goto(pos.server.pairingUrl(OPERATOR_KEY));
    await expect.poll(() => page.evaluate('location.hash')).toBe('#/clients');
    await expect.poll(() => page.locator('a[aria-current="page"]').getAttribute('href')).toBe('#/clients');
    expect(page.url()).not.toContain(OPERATOR_KEY);
    await page.close();
  });

  it('opens the status page from the plain window address', async () => {
    const page = await browser.newPage();
    await page.goto(pos.server.uiUrl(OPERATOR_KEY));
    await expect.poll(() => page.evaluate('location.hash')).toBe('#/status');
    expect(page.url()).not.toContain(OPERATOR_KEY);
    await page.close();
  });
});
