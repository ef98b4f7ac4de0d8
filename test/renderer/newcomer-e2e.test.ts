/**
 * The newcomer's first minutes, all real: `npm start` on a machine without the Electron runtime
 * (scripts/start.mjs → the agent headless, training mode), its `ui` address opened in Chromium,
 * a test sale of R$ 12,34 from the window, approved on the simulated PINPAD against the embedded
 * sandbox, then the receipt of that sale among today's sales.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../main/version.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';
import { serveScript, stopServers, type Server } from '../helpers/cli.js';

const START = fileURLToPath(new URL('../../scripts/start.mjs', import.meta.url));
let agent: Server;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'renderer', 'main.js')))
    throw new Error('dist/renderer is missing: run `npm run build` first');
  const home = mkdtempSync(join(tmpdir(), 'pinbridge-newcomer-'));
  [agent, browser] = await Promise.all([
    serveScript(START, ['--pos-port', '0'], {
      HOME: home,
      ELECTRON_OVERRIDE_DIST_PATH: mkdtempSync(join(tmpdir(), 'no-electron-')),
    }),
    launchChromium(),
  ]);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stopServers();
});

describe('npm start, then the window', () => {
  it('takes a training payment end to end from the window the ready line points to', async () => {
    expect(agent.ready).toMatchObject({ status: 'ready', mode: 'training' });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(agent.ready.ui as string);
    await expect.poll(() => page.locator('body').getAttribute('data-connection'), { timeout: 10_000 }).toBe('ready');
    expect(await page.locator('#training-banner').textContent()).toContain('TREINAMENTO');

    await page.click('#nav-payment');
    await page.fill('#training-amount', '12,34');
    await page.check('input[name="training-type"][value="credit"]');
    await page.click('#training-start');
    const current = page.locator('#payment-current');
    // The training customer takes a moment to insert the card, as a person would.
    await expect.poll(() => current.getAttribute('data-status'), { timeout: 30_000 }).toBe('approved');
    expect(await page.locator('#payment-amount').textContent()).toBe('R$ 12,34');
    expect((await page.locator('#payment-steps li').allInnerTexts()).join('\n')).toContain('Aguardando o cartão');

    await page.click('#nav-transactions');
    await expect.poll(() => page.locator('#page-transactions').textContent(), { timeout: 10_000 }).toContain('12,34');
    const shots = join(artifactsDir(), 'window');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'newcomer-sales-1280x800.png') });
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);
});
