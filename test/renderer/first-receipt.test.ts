/**
 * The first receipt is not a reprint (issue 34, item 4). A training agent as it runs — receipts
 * printed by themselves, as PDF files in its training folder — and its window in real Chromium:
 * the sale's two copies print unmarked; the receipt the cashier then sees in the window (after
 * the sale, and in the sale's dialog on Vendas) reads as that first paper, not "*** REIMPRESSÃO
 * ***"; a copy printed again from the window is marked. The same for the cancellation receipt of
 * a voided sale. What the paper says is read back from the PDFs, what the window shows from the
 * receipt's frame.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { extractText } from 'unpdf';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Agent } from '../../main/agent/agent.js';
import { TRAINING_SUPERVISOR_PIN } from '../../main/agent/supervisor-pin.js';
import { createLogger } from '../../main/log.js';
import { loadSettings } from '../../main/settings/settings-file.js';
import { PACKAGE_ROOT } from '../../main/version.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';

const MARK = 'REIMPRESSÃO';

let agent: Agent;
let browser: Browser;
let folder: string;

beforeAll(async () => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'renderer', 'main.js')))
    throw new Error('dist/renderer/main.js is missing: run `npm run build` first');
  const home = mkdtempSync(join(artifactsDir(), 'first-receipt-'));
  folder = join(home, '.pinbridge', 'training', 'receipts');
  [agent, browser] = await Promise.all([
    Agent.start({
      settings: loadSettings(undefined, home),
      api: {},
      pinpadAddress: 'sim',
      home,
      posPorts: [0],
      logger: createLogger({ level: 'silent' }),
    }),
    launchChromium(),
  ]);
  await agent.ready;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await agent?.stop();
});

/** The PDFs printed so far, oldest first, as their text. */
async function paper(): Promise<string[]> {
  if (!existsSync(folder)) return [];
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.pdf'))
    .sort();
  return Promise.all(
    files.map(
      async (name) => (await extractText(new Uint8Array(readFileSync(join(folder, name))), { mergePages: true })).text,
    ),
  );
}

/** Waits until `count` receipts are on paper; returns them. */
async function printed(count: number): Promise<string[]> {
  await expect.poll(async () => (await paper()).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  return paper();
}

const frameText = (page: Page, frame: string): Promise<string> => page.frameLocator(frame).locator('body').innerText();

it('shows and prints the first receipt of a sale and of its cancellation unmarked, and marks only a copy printed again', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(agent.pos.uiUrl(agent.operatorKey));
    await expect.poll(() => page.locator('body').getAttribute('data-connection')).toBe('ready');

    // A test sale from the window; both copies print by themselves.
    await page.click('#nav-payment');
    await page.fill('#training-amount', '43,21');
    await page.click('#training-start');
    await expect
      .poll(() => page.locator('#payment-current').getAttribute('data-status'), { timeout: 20_000 })
      .toBe('approved');
    const sale = await printed(2);
    expect(sale).toEqual([
      expect.stringContaining('VIA DO CLIENTE'),
      expect.stringContaining('VIA DO ESTABELECIMENTO'),
    ]);
    for (const copy of sale) expect(copy).not.toContain(MARK);

    // What the cashier sees after the sale: the receipt as it printed.
    await expect.poll(() => frameText(page, '#payment-receipt-frame')).toContain('VIA DO CLIENTE');
    expect(await frameText(page, '#payment-receipt-frame')).not.toContain(MARK);

    // On Vendas, opened once the paper is out: still the first paper, each copy.
    await page.click('#nav-transactions');
    const row = page.locator('#transactions-body tr').first();
    await row.waitFor({ timeout: 10_000 });
    await row.getByRole('button').click();
    await page.locator('#sale[open]').waitFor();
    await expect.poll(() => frameText(page, '#receipt-frame')).toContain('VIA DO CLIENTE');
    expect(await frameText(page, '#receipt-frame')).not.toContain(MARK);
    await page.click('#receipt-merchant');
    await expect.poll(() => frameText(page, '#receipt-frame')).toContain('VIA DO ESTABELECIMENTO');
    expect(await frameText(page, '#receipt-frame')).not.toContain(MARK);

    // Printed again from the window: that paper, and only it, is the reprint.
    await page.click('#receipt-print');
    const again = await printed(3);
    expect(again[2]).toContain('VIA DO ESTABELECIMENTO');
    expect(again[2]).toContain(MARK);

    // Voided from the window: the cancellation receipt prints unmarked, and the window shows it unmarked.
    await page.click('#sale-actions button.danger');
    await page.locator('#confirm-dialog[open]').waitFor();
    if (await page.isVisible('#confirm-supervisor-pin'))
      await page.fill('#confirm-supervisor-pin', TRAINING_SUPERVISOR_PIN);
    await page.click('#confirm-yes');
    const voided = await printed(5);
    expect(voided.slice(3)).toEqual([
      expect.stringMatching(/CANCELAMENTO[\s\S]*VIA DO CLIENTE/),
      expect.stringMatching(/CANCELAMENTO[\s\S]*VIA DO ESTABELECIMENTO/),
    ]);
    for (const copy of voided.slice(3)) expect(copy).not.toContain(MARK);
    await expect
      .poll(() => page.locator('#receipt-note').innerText(), { timeout: 15_000 })
      .toBe('Comprovante de cancelamento');
    await page.click('#receipt-customer');
    await expect.poll(() => frameText(page, '#receipt-frame')).toMatch(/CANCELAMENTO[\s\S]*VIA DO CLIENTE/);
    expect(await frameText(page, '#receipt-frame')).not.toContain(MARK);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
}, 90_000);
