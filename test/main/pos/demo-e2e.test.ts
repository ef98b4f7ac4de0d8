/**
 * The newcomer's path, end to end and all real: the demo POS page and the browser client served
 * by the real POS server, in real Chromium, pairing with the code the cashier is shown, then
 * paying 12,34 on credit on the simulated PINPAD against the payments sandbox. The same page on
 * a blocked origin cannot even connect. A page opened again (the tab closed mid-sale) finds the
 * sale by its reference, as the POS API's recovery allows: still running, then its result; or
 * the last result. (The browser client itself must be built: `npm test` builds first.)
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../main/version.js';
import { artifactsDir } from '../../helpers/card-data-scan.js';
import { launchChromium } from '../../drivers/printers/chromium.js';
import { posRig, type PosRig } from './pos-rig.js';

let pos: PosRig;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(PACKAGE_ROOT, 'client', 'dist', 'index.js')))
    throw new Error('client/dist is missing: run `npm run build` first');
  pos = await posRig();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await pos?.close();
});

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

describe('the demo POS page on the real agent', () => {
  it('pairs with the code the cashier reads, pays 12,34 on credit and shows the steps, the result and both receipts', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(pos.server.demoUrl);
    await expect.poll(() => page.locator('#state').getAttribute('data-state'), { timeout: 10_000 }).toBe('open');

    await page.fill('#pair-name', 'Caixa da demonstração');
    await page.click('#pair-start');
    await page.locator('#pair-code').waitFor({ state: 'visible' });
    const announced = pos.announced.at(-1)!;
    expect(announced).toMatchObject({ name: 'Caixa da demonstração', origin: new URL(pos.server.demoUrl).origin });
    // Typed as the window shows it: "422 105".
    await page.fill('#pair-code', `${announced.code.slice(0, 3)} ${announced.code.slice(3)}`);
    await page.click('#pair-confirm');
    await expect.poll(() => page.locator('#state').getAttribute('data-state')).toBe('ready');
    expect(pos.clients.list().map((client) => client.name)).toContain('Caixa da demonstração');

    await page.fill('#amount', '12,34');
    await page.selectOption('#payment-type', 'credit');
    const reference = await page.inputValue('#reference');
    await page.click('#pay');
    await expect.poll(() => page.locator('#result').getAttribute('data-status'), { timeout: 20_000 }).toBe('approved');
    expect(await page.locator('#result-status').textContent()).toContain('APROVADA');
    expect(await page.locator('#result-card').textContent()).toContain('411111******1111');
    expect(await page.locator('#log').textContent()).toContain('Aguardando o cartão');
    await expect
      .poll(() => page.frameLocator('#receipt-customer').locator('body').textContent(), { timeout: 10_000 })
      .toContain('VIA DO CLIENTE');
    await expect
      .poll(() => page.frameLocator('#receipt-merchant').locator('body').textContent())
      .toContain('VIA DO ESTABELECIMENTO');

    // The agent's journal holds exactly that sale, in centavos.
    const sale = pos.rig.engine.list().items.find((item) => item.referenceId === reference);
    expect(sale).toMatchObject({ status: 'approved', amount: 1234, paymentType: 'credit' });
    const shots = join(artifactsDir(), 'pos-demo');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'demo-approved-1280.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows "blocked" — not "agent down" — to a page whose origin the cashier blocked', async () => {
    const origin = new URL(pos.server.demoUrl).origin;
    pos.clients.blockOrigin(origin);
    try {
      const page = await browser.newPage();
      await page.goto(pos.server.demoUrl);
      await expect.poll(() => page.locator('#state').getAttribute('data-state'), { timeout: 10_000 }).toBe('blocked');
      expect(await page.locator('#state').textContent()).toBe('Bloqueado pelo Pinbridge');
      await page.close();
    } finally {
      pos.clients.unblockOrigin(origin);
    }
  });
});

/** Pairs the demo page through its form, with the code the cashier is shown. */
async function pairPage(page: Page, rig: PosRig, name: string): Promise<void> {
  await page.goto(rig.server.demoUrl);
  await expect.poll(() => page.locator('#state').getAttribute('data-state'), { timeout: 10_000 }).toBe('open');
  await page.fill('#pair-name', name);
  await page.click('#pair-start');
  await page.locator('#pair-code').waitFor({ state: 'visible' });
  // Typed in wide digits with a hyphen, as an input method in full-width mode gives them.
  const code = rig.announced.at(-1)!.code;
  const wide = (digits: string): string =>
    [...digits].map((digit) => String.fromCodePoint(0xff10 + Number(digit))).join('');
  await page.fill('#pair-code', `${wide(code.slice(0, 3))}-${wide(code.slice(3))}`);
  await page.click('#pair-confirm');
  await expect.poll(() => page.locator('#state').getAttribute('data-state')).toBe('ready');
}

/** Starts a 12,34 credit sale on the page; its reference. */
async function startSale(page: Page): Promise<string> {
  await page.fill('#amount', '12,34');
  await page.selectOption('#payment-type', 'credit');
  const reference = await page.inputValue('#reference');
  await page.click('#pay');
  return reference;
}

describe('the demo POS page opened again', () => {
  // A slow customer (3 s before each action at the PINPAD), so a sale is still running when its tab closes.
  let slow: PosRig;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    slow = await posRig({ simulator: { autoCustomer: { delayMs: 3_000, card: 'visaCredit' } } });
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await slow?.close();
  });

  async function newContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    return context;
  }

  it('finds the sale that was running when the tab closed: in progress, then its result, with the same reference — charged once', async () => {
    const context = await newContext();
    const first = await context.newPage();
    await pairPage(first, slow, 'Caixa que fecha a aba');
    const reference = await startSale(first);
    await first.locator('#log li[data-step="waiting_card"]').waitFor({ timeout: 10_000 });
    await first.close();

    const again = await context.newPage();
    const errors = watchErrors(again);
    await again.goto(slow.server.demoUrl);
    await expect.poll(() => again.locator('#result').getAttribute('data-status'), { timeout: 10_000 }).toBe('paying');
    expect(await again.locator('#result-status').textContent()).toBe(`Venda ${reference} em andamento…`);
    expect(await again.inputValue('#reference')).toBe(reference);
    expect(await again.locator('#pay').isDisabled()).toBe(true);
    expect(await again.locator('#log').textContent()).toContain(`Venda ${reference} em andamento no PINPAD`);

    await expect.poll(() => again.locator('#result').getAttribute('data-status'), { timeout: 30_000 }).toBe('approved');
    expect(await again.locator('#result-reference').textContent()).toBe(reference);
    expect(await again.locator('#result-amount').textContent()).toBe('R$ 12,34');
    // Progress of the joined sale reaches the new page too.
    expect(await again.locator('#log li[data-step]').count()).toBeGreaterThan(0);
    const sales = slow.rig.engine.list().items.filter((item) => item.referenceId === reference);
    expect(sales).toHaveLength(1);
    expect(sales[0]).toMatchObject({ status: 'approved', amount: 1234 });
    expect(errors).toEqual([]);
  }, 90_000);

  it('shows the last sale\'s result and receipts — not "Nenhum pagamento ainda" — when opened after that sale ended', async () => {
    const context = await newContext();
    const first = await context.newPage();
    await pairPage(first, slow, 'Caixa que reabre');
    const reference = await startSale(first);
    await expect.poll(() => first.locator('#result').getAttribute('data-status'), { timeout: 40_000 }).toBe('approved');
    await first.close();

    const again = await context.newPage();
    const errors = watchErrors(again);
    await again.goto(slow.server.demoUrl);
    await expect.poll(() => again.locator('#result').getAttribute('data-status'), { timeout: 10_000 }).toBe('approved');
    expect(await again.locator('#result-status').textContent()).toContain('APROVADA');
    expect(await again.locator('#result-reference').textContent()).toBe(reference);
    expect(await again.inputValue('#reference')).toBe(reference);
    expect(await again.locator('#log').textContent()).toContain(`Última venda: ${reference} (APROVADA)`);
    await expect
      .poll(() => again.frameLocator('#receipt-customer').locator('body').textContent(), { timeout: 10_000 })
      .toContain('VIA DO CLIENTE');
    expect(slow.rig.engine.list().items.filter((item) => item.referenceId === reference)).toHaveLength(1);
    expect(errors).toEqual([]);
  }, 90_000);

  it('leaves a sale whose start never reached Pinbridge in the form, same reference, for the cashier to charge — nothing charged by itself', async () => {
    const context = await newContext();
    const page = await context.newPage();
    await pairPage(page, slow, 'Caixa sem rede');
    // As a tab closed between pressing Pagar and payment.start leaving it would have kept it.
    const params = {
      reference_id: 'demo-nunca-enviada',
      amount: 4321,
      payment_type: 'debit',
      description: 'Venda perdida',
    };
    await page.evaluate(
      (sale) => localStorage.setItem('pinbridge-demo:sale', JSON.stringify({ params: sale, paying: true })),
      params,
    );
    await page.reload();
    await expect
      .poll(() => page.locator('#log').textContent(), { timeout: 10_000 })
      .toContain('A venda demo-nunca-enviada não chegou ao Pinbridge');
    expect(await page.inputValue('#reference')).toBe('demo-nunca-enviada');
    expect(await page.inputValue('#amount')).toBe('43,21');
    expect(await page.inputValue('#payment-type')).toBe('debit');
    expect(await page.locator('#pay').isDisabled()).toBe(false);
    expect(await page.locator('#result').getAttribute('data-status')).toBe('none');
    expect(slow.rig.engine.list().items.filter((item) => item.referenceId === 'demo-nunca-enviada')).toEqual([]);
  }, 60_000);
});
