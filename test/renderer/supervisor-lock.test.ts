/**
 * The supervisor's PIN locked by wrong PINs, as the cashier sees it in the void dialog, in real
 * Chromium: a countdown (mm:ss) to the lock's end that goes down second by second — never "5
 * minutos" said once — with the PIN field, the confirm button and "Digitar no PINPAD" disabled
 * ("Voltar" alone works), all given back when the lock ends. The lock is the agent's: a window
 * reloaded counts down to the same end, and so does the window of an agent killed with SIGKILL
 * and started again (training, no PIN stored: the lock is in its sealed file).
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SupervisorPin, supervisorGuard } from '../../main/agent/supervisor-pin.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';
import { serve, stopServers, type Server } from '../helpers/cli.js';
import { testIntegrityKey } from '../helpers/integrity-key.js';
import { OPERATOR_KEY, posRig } from '../main/pos/pos-rig.js';
import { FOCUSED, text } from './keyboard.js';
import { openWindowPage, windowReady } from './window-page.js';
import { freedPort } from '../helpers/closed-port.js';

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  await stopServers();
});
afterAll(async () => {
  await browser?.close();
});

const COUNTDOWN = '#confirm-supervisor-countdown';
const LOCKED_LINE =
  /^Senha do supervisor bloqueada por excesso de tentativas erradas\. Tente de novo em \d{2}:\d{2}\.$/;

/** A window on `url`; its page errors (and console errors but the browser's own line for a lost WebSocket). */
async function openWindow(url: string): Promise<{ page: Page; errors: string[] }> {
  const opened = await openWindowPage(browser, url, {
    viewport: { width: 1024, height: 600 },
    reconnects: true,
    readyWithinMs: 20_000,
  });
  contexts.push(opened.context);
  return opened;
}

const waitReady = (page: Page): Promise<void> => windowReady(page, 20_000);

/** Vendas → the sale → "Cancelar venda": the dialog with the supervisor's PIN. */
async function openVoid(page: Page, reference: string): Promise<void> {
  await page.click('#nav-transactions');
  const row = page.locator(`#transactions-body tr[data-reference="${reference}"]`);
  await row.waitFor({ timeout: 15_000 });
  await row.getByRole('button').click();
  await page.click('#sale-actions button:has-text("Cancelar venda")');
  await page.locator('#confirm-dialog[open]').waitFor();
}

/** Seconds left as the dialog shows them ("04:58" → 298). */
async function secondsLeft(page: Page): Promise<number> {
  const [minutes = '', seconds = ''] = (await text(page, COUNTDOWN)).split(':');
  return Number(minutes) * 60 + Number(seconds);
}

/** Wrong PINs until the agent locks: the attempts left said each time, then the countdown. */
async function lockByWrongPins(page: Page, attempts: number): Promise<void> {
  for (let attempt = 1; attempt <= attempts; attempt++) {
    await page.fill('#confirm-supervisor-pin', '0000');
    await page.click('#confirm-yes');
    if (attempt < attempts)
      await expect
        .poll(() => text(page, '#confirm-supervisor-error'), { timeout: 10_000 })
        .toMatch(/^Senha do supervisor incorreta\. Resta/);
  }
  await page.locator(COUNTDOWN).waitFor({ timeout: 10_000 });
}

/** What can be pressed in the dialog while it is locked: "Voltar" alone. */
async function lockedControls(page: Page): Promise<Record<string, boolean>> {
  return {
    pin: await page.locator('#confirm-supervisor-pin').isDisabled(),
    confirm: await page.locator('#confirm-yes').isDisabled(),
    back: await page.locator('#confirm-no').isDisabled(),
  };
}

describe('the supervisor PIN locked by wrong PINs', () => {
  it('counts down to the lock’s end with the PIN field and the confirm button disabled, the same after a reload, and gives them back when it ends', async () => {
    const pinFile = join(mkdtempSync(join(artifactsDir(), 'window-lock-')), 'supervisor-pin');
    // A lock of 20 s instead of 5 min, so the spec sees it end.
    const pin = new SupervisorPin(pinFile, { training: true, integrity: testIntegrityKey(), lockMs: 20_000 });
    pin.set('482193');
    const rig = await posRig({
      simulator: { autoCustomer: { delayMs: 30, card: 'visaCredit' } },
      supervisor: supervisorGuard(pin, {
        requiredFor: 'voids',
        minAmountCentavos: 0,
        entry: 'window',
        posVoids: 'trusted',
      }),
    });
    try {
      const caixa = await rig.paired('Caixa 1');
      await caixa.call('payment.start', {
        reference_id: 'trava-1',
        amount: 4590,
        payment_type: 'credit',
        installments: 1,
        description: 'Trava',
      });
      const { page, errors } = await openWindow(rig.server.uiUrl(OPERATOR_KEY));
      await openVoid(page, 'trava-1');
      await lockByWrongPins(page, 5);

      // Locked: the line says so with the time left, in the failure style; only "Voltar" works, and has the focus.
      expect(await text(page, '#confirm-supervisor-lock')).toMatch(LOCKED_LINE);
      expect(await page.locator('#confirm-supervisor-lock').getAttribute('class')).toContain('field-error');
      expect(await page.locator(COUNTDOWN).getAttribute('role')).toBe('timer');
      expect(await text(page, '#confirm-supervisor-error')).toBe('');
      expect(await lockedControls(page)).toEqual({ pin: true, confirm: true, back: false });
      expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-no');
      const first = await secondsLeft(page);
      expect(first).toBeGreaterThan(15);
      expect(first).toBeLessThanOrEqual(20);
      // It goes down as time passes.
      await page.waitForTimeout(2_100);
      const later = await secondsLeft(page);
      expect(later).toBeLessThanOrEqual(first - 2);
      expect(later).toBeGreaterThanOrEqual(first - 3);
      // Enter on the locked dialog's "Voltar" leaves it; nothing was voided.
      await page.keyboard.press('Enter');
      await page.locator('#confirm-dialog').waitFor({ state: 'hidden' });
      expect(rig.rig.engine.status('trava-1')).toMatchObject({ outcome: { state: 'confirmed' } });

      // A reload: the agent's lock, counted down to the same end.
      await page.reload();
      await waitReady(page);
      await openVoid(page, 'trava-1');
      await page.locator(COUNTDOWN).waitFor();
      expect(await lockedControls(page)).toEqual({ pin: true, confirm: true, back: false });
      // Not a new lock of 20 s: what was left of this one.
      const reloaded = await secondsLeft(page);
      expect(reloaded).toBeLessThanOrEqual(later);
      expect(reloaded).toBeGreaterThan(0);

      // At the end: the line goes, the field and the button come back, the focus in the field.
      await page.locator(COUNTDOWN).waitFor({ state: 'detached', timeout: 25_000 });
      expect(await text(page, '#confirm-supervisor-lock')).toBe('');
      expect(await text(page, '#confirm-supervisor-status')).toBe('A senha do supervisor pode ser digitada de novo.');
      expect(await lockedControls(page)).toEqual({ pin: false, confirm: false, back: false });
      expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-supervisor-pin');
      // And the agent takes the right PIN again.
      await page.fill('#confirm-supervisor-pin', '482193');
      await page.keyboard.press('Enter');
      await page.locator('#confirm-dialog').waitFor({ state: 'hidden', timeout: 15_000 });
      await expect
        .poll(() => page.locator('#transactions-body tr[data-reference="trava-1"] .sale-status').innerText(), {
          timeout: 15_000,
        })
        .toBe('Cancelada');
      expect(errors).toEqual([]);
    } finally {
      await rig.close();
    }
  }, 90_000);

  it('keeps counting down to the same end after the agent is killed (kill -9) and started again: training, no PIN stored', async () => {
    const home = mkdtempSync(join(artifactsDir(), 'window-lock-kill-'));
    mkdirSync(join(home, '.pinbridge'));
    writeFileSync(
      join(home, '.pinbridge', 'settings.json'),
      JSON.stringify({ supervisor: { required_for: 'voids', entry: 'window' } }),
    );
    const port = await freedPort();
    const start = (): Promise<Server> =>
      serve(['start', '--headless', '--training', '--pos-port', String(port)], { HOME: home });
    let agent = await start();
    const { page, errors } = await openWindow(agent.ready.ui as string);

    // A test sale from the window, then its void, locked by five wrong PINs.
    await page.click('#nav-payment');
    await page.fill('#training-amount', '20,00');
    await page.click('#training-start');
    const current = page.locator('#payment-current');
    await expect.poll(() => current.getAttribute('data-status'), { timeout: 30_000 }).toBe('approved');
    const reference = (await current.getAttribute('data-reference'))!;
    await openVoid(page, reference);
    // The training PIN (1234) is not typed here: a wrong PIN is anything else.
    await lockByWrongPins(page, 5);
    expect(await lockedControls(page)).toEqual({ pin: true, confirm: true, back: false });
    const before = await secondsLeft(page);
    expect(before).toBeGreaterThan(4 * 60 + 50);

    // kill -9: no exit handler runs. The same home, the same port: the window reconnects by itself.
    const killed = new Promise((resolve) => agent.child.once('close', resolve));
    agent.child.kill('SIGKILL');
    await killed;
    await expect
      .poll(() => page.locator('body').getAttribute('data-connection'), { timeout: 10_000 })
      .not.toBe('ready');
    agent = await start();
    await waitReady(page);
    // The open dialog kept counting, its controls still disabled. (Polled: the clock shows whole
    // seconds rounded up, and a quick restart can be back within the second "05:00" stands for.)
    expect(await page.locator('#confirm-dialog').isVisible()).toBe(true);
    await expect.poll(() => secondsLeft(page)).toBeLessThan(before);
    expect(await lockedControls(page)).toEqual({ pin: true, confirm: true, back: false });

    // A new look after the restart: the agent's lock, read back, counted down to the same end.
    await page.reload();
    await waitReady(page);
    await openVoid(page, reference);
    await page.locator(COUNTDOWN).waitFor();
    const resumed = await secondsLeft(page);
    expect(resumed).toBeLessThan(before);
    expect(resumed).toBeGreaterThan(4 * 60);
    expect(await text(page, '#confirm-supervisor-lock')).toMatch(LOCKED_LINE);
    expect(await lockedControls(page)).toEqual({ pin: true, confirm: true, back: false });
    await page.waitForTimeout(1_100);
    expect(await secondsLeft(page)).toBeLessThan(resumed);
    expect(errors).toEqual([]);
  }, 120_000);
});
