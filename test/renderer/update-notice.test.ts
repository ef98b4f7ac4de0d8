/**
 * The desktop app's update in the window, in real Chromium at 800×480 (a common POS touch
 * screen): the status page says, in Portuguese, which version is on its way and when it installs
 * — when Pinbridge is closed, or in the maintenance window outside a sale, or once the sale in
 * progress ends — and says nothing when none is pending. What the shell reports reaches the page
 * through the agent's port (main/updates/status.ts) and the agent.update event, without a reload.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpdateStatus } from '../../main/updates/status.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';
import { OPERATOR_KEY, posRig, type PosRig } from '../main/pos/pos-rig.js';
import { notInView, seriousA11yViolations } from './layout.js';
import { openWindowPage, type WindowPage } from './window-page.js';

let browser: Browser;
let pos: PosRig;
let window: WindowPage;
const updates = new UpdateStatus();

beforeAll(async () => {
  browser = await launchChromium();
  pos = await posRig({ noPinpad: true, updates });
  window = await openWindowPage(browser, pos.server.uiUrl(OPERATOR_KEY), {
    viewport: { width: 800, height: 480 },
    hasTouch: true,
    waitReady: false,
  });
  await window.page.locator('body[data-connection="ready"]').waitFor({ state: 'attached', timeout: 10_000 });
  await window.page.click('#nav-status');
  await window.page.locator('#status-mode .mode-line').waitFor();
}, 60_000);

afterAll(async () => {
  await window?.context.close();
  await browser?.close();
  await pos?.close();
});

/** What the status page says of the update, brought into view as the cashier scrolls to it; null when nothing. */
async function updateLine(page: Page): Promise<string | null> {
  const line = page.locator('#status-update');
  if ((await line.count()) === 0) return null;
  await line.scrollIntoViewIfNeeded();
  expect(await notInView(page, ['#status-update'])).toEqual([]);
  return line.innerText();
}

describe('the update on its way, on the status page', () => {
  it('is not mentioned when none is pending, updates on or off', async () => {
    const { page } = window;
    expect(await updateLine(page)).toBeNull();
    updates.update({ enabled: true, channel: 'latest', stagedBy: 'store', rolloutPosition: 12.5 });
    await expect.poll(() => page.locator('#status-mode').innerText()).toContain('Pinbridge');
    expect(await updateLine(page)).toBeNull();
  });

  it('says the version downloading, then that it installs when Pinbridge is closed', async () => {
    const { page } = window;
    updates.update({ state: 'downloading', version: '1.4.0' });
    await expect.poll(() => updateLine(page)).toBe('Baixando a atualização 1.4.0…');
    updates.update({ state: 'downloaded' });
    await expect.poll(() => updateLine(page)).toBe('Atualização 1.4.0 baixada; será instalada ao fechar o Pinbridge.');
  });

  it('says when the maintenance window installs it, outside a sale — and, during one, that it waits for the sale to end', async () => {
    const { page } = window;
    updates.update({ installWindow: '02:00-05:00' });
    await expect
      .poll(() => updateLine(page))
      .toBe(
        'Atualização 1.4.0 baixada; será instalada entre 02:00 e 05:00, fora de uma venda, ou ao fechar o Pinbridge.',
      );
    updates.update({ waitingForSale: true });
    await expect
      .poll(() => updateLine(page))
      .toBe('Atualização 1.4.0 baixada; será instalada assim que a venda em andamento terminar.');
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: join(artifactsDir(), 'status-update-800x480.png') });
  });

  it('says it is installing, Pinbridge coming back in a moment; a fresh window reads the same', async () => {
    const { page } = window;
    updates.update({ state: 'installing', waitingForSale: false });
    await expect.poll(() => updateLine(page)).toBe('Instalando a atualização 1.4.0; o Pinbridge volta em instantes.');
    await page.reload();
    await page.click('#nav-status');
    await expect.poll(() => updateLine(page)).toBe('Instalando a atualização 1.4.0; o Pinbridge volta em instantes.');
    expect(window.errors).toEqual([]);
  });
});
