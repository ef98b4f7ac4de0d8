/**
 * The window's text is readable at a bright checkout: every page, in both languages and in
 * training mode (its banner), meets WCAG's contrast minimum (4.5:1, large text 3:1).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../main/version.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { OPERATOR_KEY, posRig, type PosRig } from '../main/pos/pos-rig.js';
import { lowContrastTexts } from './contrast.js';

let pos: PosRig;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'renderer', 'main.js')))
    throw new Error('dist/renderer is missing: run `npm run build` first');
  [pos, browser] = await Promise.all([posRig(), launchChromium()]);
  // A sale, so today's list and the payment page have content.
  const caixa = await pos.paired('Caixa do contraste');
  await caixa.call('payment.start', {
    reference_id: 'contraste-1',
    amount: 1234,
    payment_type: 'credit',
    installments: 1,
    description: 'Contraste',
  });
});
afterAll(async () => {
  await browser?.close();
  await pos?.close();
});

describe('contrast', () => {
  it('meets 4.5:1 (3:1 for large text) on every page', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(pos.server.uiUrl(OPERATOR_KEY));
    await expect.poll(() => page.locator('body').getAttribute('data-connection'), { timeout: 10_000 }).toBe('ready');
    const found: string[] = [];
    for (const route of ['status', 'payment', 'transactions', 'clients', 'settings', 'support']) {
      await page.click(`#nav-${route}`);
      await page.locator(`#page-${route}`).waitFor({ state: 'visible' });
      await page.waitForTimeout(300);
      found.push(...(await lowContrastTexts(page)).map((line) => `${route}: ${line}`));
    }
    expect(found).toEqual([]);
    await page.close();
  });
});
