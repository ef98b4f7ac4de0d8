/**
 * Pinbridge's window (renderer/), whole and real: the page, its compiled scripts and the browser
 * client served by the real POS server (simulated PINPAD, payments sandbox, engine, journal,
 * folder printer), in real Chromium. The cashier logs in with the operator key from the address,
 * sees the PINPAD and the training banner, runs a test sale, follows and cancels a payment a POS
 * started, reviews today's sales (receipt, reprint, void), handles pairing requests and paired
 * clients, switches to English, and does all of it with the keyboard on controls big enough to
 * touch. Screenshots of the main pages at 1280×800 and 1024×600 go to the artifacts folder.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallClock } from '../../main/locale/store-time.js';
import { SupervisorPin, supervisorGuard, TRAINING_SUPERVISOR_PIN } from '../../main/agent/supervisor-pin.js';
import { testIntegrityKey } from '../helpers/integrity-key.js';
import { readEmvTables, TablesFileError } from '../../main/pinpad/emv-tables.js';
import { ProviderTables, type TablesChannel } from '../../main/pinpad/provider-tables.js';
import { PinpadLink } from '../../main/pinpad/link-status.js';
import { PACKAGE_ROOT } from '../../main/version.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';
import { attributes, CONTROLS, controlsUnder44px, FOCUSED, tabAround, text } from './keyboard.js';
import { OPERATOR_KEY, posRig, type PosRig, type RpcClient } from '../main/pos/pos-rig.js';
import { DiskWatch } from '../../main/agent/disk-watch.js';
import { AuditLog } from '../../main/audit-log.js';
import { Journal } from '../../main/core/journal/journal.js';
import { createLogger } from '../../main/log.js';
import { mountSmallDisk } from '../helpers/small-disk.js';
import { CLOSED_PORT } from '../helpers/closed-port.js';

/** A separate program that asks to pair (test/main/pos/server/squatter.mjs). */
const SQUATTER = join(PACKAGE_ROOT, 'test', 'main', 'pos', 'server', 'squatter.mjs');

let pos: PosRig;
let browser: Browser;
const contexts: BrowserContext[] = [];

const SHOTS = join(artifactsDir(), 'window');
const VIEWPORTS = { large: { width: 1280, height: 800 }, small: { width: 1024, height: 600 } } as const;

beforeAll(async () => {
  for (const built of [
    ['dist', 'renderer', 'main.js'],
    ['dist', 'client', 'index.js'],
  ]) {
    if (!existsSync(join(PACKAGE_ROOT, ...built)))
      throw new Error(`${built.join('/')} is missing: run \`npm run build\` first`);
  }
  mkdirSync(SHOTS, { recursive: true });
  [pos, browser] = await Promise.all([posRig(), launchChromium()]);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await pos?.close();
});

interface OpenWindow {
  readonly page: Page;
  /** Page errors and console errors: none is expected anywhere. */
  readonly errors: string[];
}

function windowUrl(rig: PosRig, key: string | null = OPERATOR_KEY): string {
  return `http://127.0.0.1:${rig.server.port}/${key === null ? '' : `#key=${key}`}`;
}

/** A fresh browser profile (its own session and local storage) on the window. */
async function openWindow(
  options: {
    rig?: PosRig;
    key?: string | null;
    viewport?: { width: number; height: number };
    waitReady?: boolean;
    browserTimeZone?: string;
  } = {},
): Promise<OpenWindow> {
  const context = await browser.newContext({
    viewport: options.viewport ?? VIEWPORTS.large,
    ...(options.browserTimeZone === undefined ? {} : { timezoneId: options.browserTimeZone }),
  });
  contexts.push(context);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(windowUrl(options.rig ?? pos, options.key === undefined ? OPERATOR_KEY : options.key));
  if (options.waitReady !== false) await waitReady(page);
  return { page, errors };
}

async function waitReady(page: Page): Promise<void> {
  await expect.poll(() => page.locator('body').getAttribute('data-connection'), { timeout: 10_000 }).toBe('ready');
  // The status page (shown or not) has read agent.status.
  await page.locator('#status-mode .state-line').waitFor({ state: 'attached' });
}

async function go(page: Page, route: 'status' | 'payment' | 'transactions' | 'clients'): Promise<void> {
  await page.click(`#nav-${route}`);
  await page.locator(`#page-${route}`).waitFor({ state: 'visible' });
}

/** A sale from a paired POS, run to its result (the default simulated customer is quick). */
async function posSale(client: RpcClient, reference: string, amount: number): Promise<Record<string, unknown>> {
  return client.call('payment.start', {
    reference_id: reference,
    amount,
    payment_type: 'credit',
    installments: 1,
    description: `Pedido ${reference}`,
  });
}

describe('logging in', () => {
  it('logs in with the key from the address (then gone from it), and shows the PINPAD connected and the training banner', async () => {
    const { page, errors } = await openWindow();

    expect(page.url()).not.toContain(OPERATOR_KEY);
    expect(page.url()).toMatch(/#\/status$/);
    expect(await page.isVisible('#training-banner')).toBe(true);
    expect(await text(page, '#training-banner')).toContain('TREINAMENTO');
    const pinpad = page.locator('#status-pinpads [data-serial="POS0000000000001"]');
    expect(await pinpad.getAttribute('data-connected')).toBe('true');
    expect(await pinpad.innerText()).toMatch(/PBSIM-1[\s\S]*Conectado · livre[\s\S]*POS0000000000001/);
    expect(await text(page, '#status-mode')).toContain('Treinamento');
    expect(await text(page, '#status-printers')).toContain('Impressora de comprovantes');
    // The rig's printer is a folder: the card says, in words, that no paper comes out (its address is on Suporte).
    expect(await text(page, '#status-printers')).toContain('Impressora de treino (arquivos, sem papel)');
    expect(await text(page, '#status-printers')).not.toContain('file://');
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('pt-BR');

    // A reload of the same tab logs in again from the tab's storage (the address has no key any more).
    await page.reload();
    await waitReady(page);
    expect(errors).toEqual([]);
  });

  it('without a key, says where to open the window from', async () => {
    const { page, errors } = await openWindow({ key: null, waitReady: false });

    await page.locator('#login').waitFor();
    expect(await page.locator('#login').getAttribute('data-problem')).toBe('missing');
    expect(await text(page, '#login')).toMatch(
      /Abra esta janela pelo endereço do Pinbridge[\s\S]*endereço que o Pinbridge mostrou ao iniciar[\s\S]*aplicativo Pinbridge/,
    );
    expect(await page.isVisible('#app')).toBe(false);
    expect(errors).toEqual([]);
  });

  it('with a wrong key, says the key was refused (OPERATOR_ONLY) and forgets it', async () => {
    const { page } = await openWindow({ key: 'not-the-key-of-this-agent', waitReady: false });

    await page.locator('#login[data-problem="refused"]').waitFor({ timeout: 10_000 });
    expect(await text(page, '#login-title')).toBe('O Pinbridge não aceitou esta chave de acesso');
    expect(await page.evaluate<string | null>("sessionStorage.getItem('pinbridge-window:key')")).toBeNull();
    await page.reload();
    await page.locator('#login[data-problem="missing"]').waitFor();
  });
});

describe('payments', () => {
  it('runs a test sale from the window: the steps, then APROVADA with the card, and the journal has it in centavos', async () => {
    const { page, errors } = await openWindow();
    await go(page, 'payment');
    expect(await page.isVisible('#training-sale')).toBe(true);

    await page.fill('#training-amount', '12,34');
    await page.check('input[name="training-type"][value="credit"]');
    await page.click('#training-start');

    const current = page.locator('#payment-current');
    await expect.poll(() => current.getAttribute('data-status'), { timeout: 15_000 }).toBe('approved');
    expect(await text(page, '#payment-amount')).toBe('R$ 12,34');
    expect(await text(page, '#payment-result-status')).toContain('APROVADA');
    expect(await text(page, '#payment-result-details')).toContain('VISA 411111******1111');
    const steps = await page.locator('#payment-steps li').allInnerTexts();
    expect(steps.join('\n')).toContain('Aguardando o cartão');
    expect(await page.locator('#payment-steps li[data-step="started"]').count()).toBe(1);
    expect(await page.isVisible('#payment-cancel')).toBe(false);

    const reference = await current.getAttribute('data-reference');
    expect(reference).toMatch(/^teste-/);
    expect(pos.rig.engine.list().items.find((item) => item.referenceId === reference)).toMatchObject({
      status: 'approved',
      amount: 1234,
      paymentType: 'credit',
    });
    await page.screenshot({ path: join(SHOTS, 'payment-approved-1280x800.png') });
    expect(errors).toEqual([]);
  });

  it('says why the issuer declined, in Portuguese: NEGADA, "Senha inválida" after the customer typed a wrong PIN', async () => {
    // The sandbox opens the PIN block the PINPAD sealed and compares it with the card's PIN (1234):
    // the issuer's 55 comes from the PIN itself, on an amount it would approve.
    const wrongPin = await posRig({ simulator: { autoCustomer: { delayMs: 5, card: 'visaCredit', pin: '4321' } } });
    try {
      const { page, errors } = await openWindow({ rig: wrongPin });
      await go(page, 'payment');
      await page.fill('#training-amount', '100,00');
      await page.check('input[name="training-type"][value="credit"]');
      await page.click('#training-start');
      const current = page.locator('#payment-current');
      await expect.poll(() => current.getAttribute('data-status'), { timeout: 15_000 }).toBe('declined');
      expect(await text(page, '#payment-result-status')).toContain('NEGADA');
      expect(await text(page, '#payment-result-reason')).toBe('Senha inválida');
      expect(errors).toEqual([]);
    } finally {
      await wrongPin.close();
    }
  });

  it('shows a payment a paired POS started, step by step, and cancels it from the window', async () => {
    const slow = await posRig({ simulator: { autoCustomer: { delayMs: 3000, card: 'visaCredit' } } });
    try {
      const { page, errors } = await openWindow({ rig: slow });
      const caixa = await slow.paired('Caixa 2');
      const answer = posSale(caixa, 'venda-lenta-1', 2500);

      // The notice follows the cashier on other pages; the payment page shows it live.
      await page.locator('#notice-payment:not([hidden])').waitFor({ timeout: 10_000 });
      expect(await text(page, '#notice-payment')).toContain('R$ 25,00');
      await page.click('#notice-payment a');
      const current = page.locator('#payment-current');
      await expect.poll(() => text(page, '#payment-message'), { timeout: 10_000 }).toBe('Aguardando o cartão');
      expect(await current.getAttribute('data-status')).toBe('running');
      expect(await current.getAttribute('data-reference')).toBe('venda-lenta-1');
      expect(await text(page, '#payment-amount')).toBe('R$ 25,00');
      await page.screenshot({ path: join(SHOTS, 'payment-running-1280x800.png') });

      await page.click('#payment-cancel');

      expect(await answer).toMatchObject({ status: 'cancelled', reference_id: 'venda-lenta-1' });
      await expect.poll(() => current.getAttribute('data-status'), { timeout: 10_000 }).toBe('cancelled');
      expect(await text(page, '#payment-result-status')).toBe('CANCELADA');
      expect(await page.isVisible('#notice-payment')).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await slow.close();
    }
  });
});

describe('the keyboard at the checkout', () => {
  it('cancels the sale on screen with Esc after asking ("Não" first: Enter keeps the sale), and clears the amount after a sale so Enter cannot start it again', async () => {
    // A customer who takes a minute to present the card: the sale is still waiting for it however
    // long the window's dialogs take on a loaded machine (at 3 s, it was approved under the spec's feet).
    const slow = await posRig({ simulator: { autoCustomer: { delayMs: 60_000, card: 'visaCredit' } } });
    try {
      const { page, errors } = await openWindow({ rig: slow });
      await go(page, 'payment');
      await page.fill('#training-amount', '42,00');
      await page.press('#training-amount', 'Enter');
      const current = page.locator('#payment-current');
      await expect.poll(() => current.getAttribute('data-status'), { timeout: 10_000 }).toBe('running');

      // Esc asks first, "Não" focused: Enter by habit keeps the sale running.
      await page.keyboard.press('Escape');
      await page.locator('#confirm-dialog[open]').waitFor();
      expect(await text(page, '#confirm-title')).toBe('Cancelar a venda em andamento?');
      expect(await text(page, '#confirm-text')).toContain('R$ 42,00');
      expect(await text(page, '#confirm-no')).toBe('Não');
      expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-no');
      await page.keyboard.press('Enter');
      await page.locator('#confirm-dialog').waitFor({ state: 'hidden' });
      expect(await current.getAttribute('data-status')).toBe('running');
      expect(await page.isVisible('#payment-cancel')).toBe(true);

      // Esc and "Sim": cancelled.
      await page.keyboard.press('Escape');
      await page.locator('#confirm-dialog[open]').waitFor();
      await page.click('#confirm-yes');
      await expect.poll(() => current.getAttribute('data-status'), { timeout: 15_000 }).toBe('cancelled');
      expect(await text(page, '#payment-result-status')).toBe('CANCELADA');
      expect(await page.inputValue('#training-amount')).toBe('');

      // Enter in the empty amount starts nothing: it asks for an amount.
      const shown = await current.getAttribute('data-reference');
      await page.press('#training-amount', 'Enter');
      await expect
        .poll(() => text(page, '#training-error'))
        .toBe('Valor inválido: digite reais e centavos com vírgula, por exemplo 12,34.');
      expect(await current.getAttribute('data-reference')).toBe(shown);
      expect(errors).toEqual([]);
    } finally {
      await slow.close();
    }
  }, 60_000);
});

describe('the payment page after a sale', () => {
  it('says the outcome in its title, shows the type, card, NSU and authorization once, the customer copy and prints each copy', async () => {
    const { page, errors } = await openWindow();
    await go(page, 'payment');
    // No payment on screen yet: the page is just "Pagamento", nothing is "em andamento".
    expect(await text(page, '#payment-title')).toBe('Pagamento');
    await page.fill('#training-amount', '7,00');
    await page.check('input[name="training-type"][value="credit"]');
    await page.click('#training-start');
    const current = page.locator('#payment-current');
    await expect.poll(() => current.getAttribute('data-status'), { timeout: 15_000 }).toBe('approved');

    expect(await text(page, '#payment-title')).toBe('Venda aprovada');
    expect(await page.title()).toContain('Pagamento');
    const shown = await page.locator('#page-payment').innerText();
    // Said once (the steps), not again as the last message and beside APROVADA; and nobody is waited for.
    expect(shown.match(/venda confirmada/gi)).toHaveLength(1);
    expect(shown).not.toMatch(/aguardando confirmação/i);
    expect(await text(page, '#payment-result-status')).toBe('APROVADA');
    const details = await text(page, '#payment-result-details');
    expect(details).toMatch(/Tipo\s+Crédito à vista/);
    expect(details).toMatch(/Cartão\s+VISA 411111\*{6}1111/);
    expect(details).toMatch(/NSU\s+\d+/);
    expect(details).toMatch(/Autorização\s+\d{6}/);

    // The customer copy, in a sandboxed frame; a print button per copy, with what became of the print.
    expect(await page.isVisible('#payment-receipt-frame')).toBe(true);
    expect(await page.locator('#payment-receipt-frame').getAttribute('sandbox')).toBe('');
    await expect
      .poll(() => page.frameLocator('#payment-receipt-frame').locator('body').innerText(), { timeout: 10_000 })
      .toContain('VIA DO CLIENTE');
    await expect
      .poll(() => page.frameLocator('#payment-receipt-frame').locator('body').innerText())
      .toContain('R$ 7,00');
    const printed = (): number => pos.printedJobs().length;
    // Pinbridge prints both copies of an approval by itself: wait for them before counting.
    await expect.poll(() => text(page, '#payment-print-message'), { timeout: 10_000 }).toMatch(/^(Impresso\.)?$/);
    const before = printed();
    await page.locator('#payment-print-merchant').scrollIntoViewIfNeeded();
    await page.click('#payment-print-merchant');
    await expect.poll(printed, { timeout: 10_000 }).toBeGreaterThan(before);
    await expect.poll(() => text(page, '#payment-print-message')).toMatch(/Na fila da impressora|Imprimindo|Impresso/);
    await page.click('#payment-print-customer');
    await expect.poll(printed, { timeout: 10_000 }).toBeGreaterThan(before + 1);
    await page.screenshot({ path: join(SHOTS, 'payment-receipt-1280x800.png'), fullPage: true });

    // The steps scroll with the keyboard: the list takes the focus (Tab), and the arrow keys move it.
    const steps = page.locator('#payment-steps');
    expect(await steps.getAttribute('tabindex')).toBe('0');
    expect(
      await page.evaluate<string>("document.getElementById('payment-steps').getAttribute('aria-labelledby')"),
    ).toBe('payment-steps-title');
    expect(await text(page, '#payment-steps-title')).toBe('Etapas');
    await page.focus('#payment-print-customer');
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await page.evaluate<string>('document.activeElement?.id ?? ""')) === 'payment-steps';
    }
    expect(reached).toBe(true);
    const scrollTop = (): Promise<number> =>
      page.evaluate<number>("document.getElementById('payment-steps').scrollTop");
    const overflow = await page.evaluate<number>(
      "(l => l.scrollHeight - l.clientHeight)(document.getElementById('payment-steps'))",
    );
    expect(overflow).toBeGreaterThan(0);
    await page.keyboard.press('End');
    await expect.poll(scrollTop).toBeGreaterThan(0);
    await page.keyboard.press('Home');
    await expect.poll(scrollTop).toBe(0);
    await page.keyboard.press('ArrowDown');
    await expect.poll(scrollTop).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('shows the installments a POS chose ("Crédito em 3x") and its receipt, and names a declined sale in the title', async () => {
    const caixa = await pos.paired('Caixa 9');
    const { page, errors } = await openWindow();
    await go(page, 'payment');
    await caixa.call('payment.start', {
      reference_id: 'venda-3x',
      amount: 30000,
      payment_type: 'credit',
      installments: 3,
      description: 'Pedido 3x',
    });
    const current = page.locator('#payment-current');
    await expect.poll(() => current.getAttribute('data-reference'), { timeout: 10_000 }).toBe('venda-3x');
    await expect.poll(() => current.getAttribute('data-status'), { timeout: 15_000 }).toBe('approved');
    expect(await text(page, '#payment-title')).toBe('Venda aprovada');
    expect(await text(page, '#payment-result-details')).toMatch(/Tipo\s+Crédito em 3x/);
    await expect
      .poll(() => page.frameLocator('#payment-receipt-frame').locator('body').innerText(), { timeout: 10_000 })
      .toContain('VIA DO CLIENTE');

    // ,51 is the sandbox's insufficient funds: the title says the sale was declined, the reason why.
    await caixa.call('payment.start', {
      reference_id: 'venda-negada',
      amount: 5051,
      payment_type: 'credit',
      installments: 1,
      description: 'Pedido negado',
    });
    await expect.poll(() => current.getAttribute('data-reference'), { timeout: 10_000 }).toBe('venda-negada');
    await expect.poll(() => current.getAttribute('data-status'), { timeout: 15_000 }).toBe('declined');
    expect(await text(page, '#payment-title')).toBe('Venda negada');
    expect(await text(page, '#payment-result-status')).toBe('NEGADA');
    expect(await text(page, '#payment-result-reason')).toBe('Saldo insuficiente');
    expect(await text(page, '#payment-result-details')).toMatch(/Tipo\s+Crédito à vista/);
    expect(errors).toEqual([]);
    await caixa.close();
  });
});

describe("today's sales", () => {
  it('lists them with amount, type, status, card and time; previews a receipt; reprints it; voids one after a confirmation', async () => {
    const caixa = await pos.paired('Caixa 1');
    await posSale(caixa, 'venda-100', 1990);
    await posSale(caixa, 'venda-101', 123456);
    const { page, errors } = await openWindow();
    await go(page, 'transactions');

    const row = page.locator('#transactions-body tr[data-reference="venda-101"]');
    await row.waitFor();
    const cells = await row.locator('td').allInnerTexts();
    expect(cells.slice(1, 5)).toEqual(['R$ 1.234,56', 'Crédito à vista', 'Aprovada', 'VISA 411111******1111']);
    expect(cells[0]).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(await page.locator('#transactions-body tr[data-reference="venda-100"] td.num').innerText()).toBe('R$ 19,90');

    // The sale opens in a dialog: its receipt in a sandboxed frame.
    await row.getByRole('button').click();
    expect(await page.isVisible('#sale')).toBe(true);
    expect(await text(page, '#sale-title')).toBe('Venda de R$ 1.234,56');
    expect(await page.locator('#receipt-frame').getAttribute('sandbox')).toBe('');
    await expect
      .poll(() => page.frameLocator('#receipt-frame').locator('body').innerText(), { timeout: 10_000 })
      .toContain('VIA DO CLIENTE');
    await page.click('#receipt-merchant');
    await expect
      .poll(() => page.frameLocator('#receipt-frame').locator('body').innerText())
      .toContain('VIA DO ESTABELECIMENTO');
    await page.screenshot({ path: join(SHOTS, 'transactions-receipt-1280x800.png') });

    // Reprint: the folder printer gets a job.
    const printedBefore = pos.printedJobs().length;
    // Scrolled first: Playwright's own scroll-and-click can land on the receipt frame just above.
    await page.locator('#receipt-print').scrollIntoViewIfNeeded();
    await page.click('#receipt-print');
    await expect.poll(() => pos.printedJobs().length, { timeout: 10_000 }).toBeGreaterThan(printedBefore);
    await expect.poll(() => text(page, '#sale-message')).toMatch(/Na fila da impressora|Imprimindo|Impresso/);

    // Void: "Voltar" leaves the sale as it was; "Sim, cancelar venda" voids it.
    await page.click('#sale-actions button:has-text("Cancelar venda")');
    expect(await page.isVisible('#confirm-dialog')).toBe(true);
    expect(await text(page, '#confirm-text')).toContain('R$ 1.234,56');
    expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-no');
    await page.click('#confirm-no');
    expect(await page.isVisible('#confirm-dialog')).toBe(false);
    expect(pos.rig.engine.status('venda-101')).toMatchObject({ kind: 'processed', outcome: { state: 'confirmed' } });

    await page.click('#sale-actions button:has-text("Cancelar venda")');
    await page.click('#confirm-yes');
    // A confirmed sale voided is "Cancelada" everywhere: the list, the reason, the receipt's CANCELAMENTO.
    await expect.poll(() => row.locator('.sale-status').innerText(), { timeout: 15_000 }).toBe('Cancelada');
    expect(pos.rig.engine.status('venda-101')).toMatchObject({
      kind: 'processed',
      outcome: { state: 'undone', confirmation: 'undone' },
    });
    expect(await text(page, '#sale-message')).toContain('Venda cancelada');
    expect(await text(page, '#sale-details')).toContain('Venda cancelada pelo caixa');
    await expect.poll(() => text(page, '#receipt-note')).toBe('Comprovante de cancelamento');

    // Escape closes the sale and gives the focus back to its row.
    await page.keyboard.press('Escape');
    expect(await page.isVisible('#sale')).toBe(false);
    await expect.poll(() => page.evaluate<string>(FOCUSED)).toBe('open:venda-101');

    // The status filter: a voided sale is not among the approved ones.
    await page.selectOption('#transactions-filter', 'approved');
    expect(await page.locator('#transactions-body tr[data-reference="venda-101"]').count()).toBe(0);
    expect(await page.locator('#transactions-body tr[data-reference="venda-100"]').count()).toBe(1);
    await page.selectOption('#transactions-filter', 'cancelled');
    expect(await attributes(page, '#transactions-body tr', 'data-reference')).toEqual(['venda-101']);
    expect(errors).toEqual([]);
    await caixa.close();
  });
});

describe('finding a past sale', () => {
  it('searches by amount, last 4, NSU and dates; opens a found sale and reprints it; reprints the last receipt with F8 and the button', async () => {
    // The journal's clock can be set back, so one test sale is from two days ago.
    let behindMs = 0;
    const rig = await posRig({
      timeZone: 'America/Sao_Paulo',
      // The simulated customer's card follows the sale: credit by Visa …1111, debit by Visa …5556.
      simulator: { autoCustomer: { delayMs: 5, card: 'visaCredit', matchApplication: true } },
      journalOptions: { now: () => new Date(Date.now() - behindMs) },
    });
    const printed = (): number => rig.printedJobs().length;
    const day = (msAgo: number): string => {
      const wall = wallClock(new Date(Date.now() - msAgo), 'America/Sao_Paulo');
      // As the search's date fields take and show it: dd/mm/aaaa.
      return `${String(wall.day).padStart(2, '0')}/${String(wall.month).padStart(2, '0')}/${wall.year}`;
    };
    try {
      // A browser on another clock (American Samoa, UTC−11): the dates are the store's all the same.
      const { page, errors } = await openWindow({ rig, browserTimeZone: 'Pacific/Pago_Pago' });
      await go(page, 'payment');

      // No sale yet: F8 says so, and nothing is printed.
      expect(await page.locator('#payment-reprint-last').getAttribute('aria-keyshortcuts')).toBe('F8');
      expect(await page.locator('#payment-reprint-last').getAttribute('title')).toContain('F8');
      await page.keyboard.press('F8');
      await expect.poll(() => text(page, '#toast-status')).toBe('Ainda não há venda com comprovante para reimprimir.');
      expect(printed()).toBe(0);

      const testSale = async (amount: string, type: 'credit' | 'debit'): Promise<string> => {
        const current = page.locator('#payment-current');
        const before = await current.getAttribute('data-reference');
        await page.fill('#training-amount', amount);
        await page.check(`input[name="training-type"][value="${type}"]`);
        await page.click('#training-start');
        await expect
          .poll(
            async () =>
              (await current.getAttribute('data-reference')) !== before && (await current.getAttribute('data-status')),
            { timeout: 15_000 },
          )
          .toBe('approved');
        return (await current.getAttribute('data-reference'))!;
      };
      behindMs = 2 * 86_400_000;
      const old = await testSale('12,34', 'credit');
      behindMs = 0;
      const big = await testSale('1.234,56', 'debit');
      const latest = await testSale('12,34', 'debit');
      const bigSale = rig.rig.engine.list().items.find((item) => item.referenceId === big)!;
      const nsu = bigSale.nsu!;
      const authorization = bigSale.authorizationCode!;
      expect(nsu).toMatch(/^[0-9A-Za-z]+$/);
      expect(authorization).toMatch(/^[0-9A-Za-z]+$/);

      // The button on the payment page: the customer copy of the newest sale.
      await page.click('#payment-reprint-last');
      await expect
        .poll(() => text(page, '#toast-status'))
        .toMatch(
          /^Último comprovante: venda de R\$ 12,34 às \d{2}:\d{2}:\d{2}\. (Na fila da impressora…|Imprimindo…|Impresso\.)$/,
        );
      await expect.poll(printed, { timeout: 10_000 }).toBe(1);
      await expect.poll(() => text(page, '#toast-status'), { timeout: 10_000 }).toMatch(/Impresso\.$/);

      await go(page, 'transactions');
      const rows = (): Promise<(string | null)[]> => attributes(page, '#transactions-body tr', 'data-reference');
      await expect.poll(rows).toEqual([latest, big]);
      expect(await text(page, '#transactions-title')).toBe('Vendas de hoje');
      expect(await text(page, '#transactions-count')).toBe('2 vendas hoje');
      expect(await page.inputValue('#search-from')).toBe(day(0));
      expect(await page.inputValue('#search-to')).toBe(day(0));

      // By amount, as the cashier types it: today's only, then from three days back.
      await page.fill('#search-amount', '12,34');
      await page.click('#search-submit');
      await expect.poll(() => text(page, '#transactions-title')).toBe('Resultado da busca');
      await expect.poll(rows).toEqual([latest]);
      expect(await text(page, '#transactions-count')).toBe('1 venda encontrada');
      await page.fill('#search-from', day(3 * 86_400_000));
      await page.press('#search-amount', 'Enter');
      await expect.poll(rows).toEqual([latest, old]);
      expect(await text(page, '#transactions-count')).toBe('2 vendas encontradas');
      // A search reaches other days: its rows say the date.
      expect(await page.locator(`#transactions-body tr[data-reference="${old}"] td`).first().innerText()).toMatch(
        /^\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}$/,
      );

      // By the last 4 digits (with the amount still there, then alone).
      await page.fill('#search-last4', '5556');
      await page.click('#search-submit');
      await expect.poll(rows).toEqual([latest]);
      await page.fill('#search-amount', '');
      await page.click('#search-submit');
      await expect.poll(rows).toEqual([latest, big]);
      expect(await text(page, '#transactions-count')).toBe('2 vendas encontradas');

      // Bad input is said next to its field, and nothing is searched: the list stays as it was.
      await page.fill('#search-last4', '12a4');
      await page.fill('#search-amount', '12.34');
      await page.click('#search-submit');
      expect(await text(page, '#search-last4-error')).toBe('Digite os 4 últimos números do cartão, só números.');
      expect(await text(page, '#search-amount-error')).toBe(
        'Valor inválido: digite reais e centavos com vírgula, por exemplo 12,34.',
      );
      expect(await page.locator('#search-last4').getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate<string>(FOCUSED)).toBe('search-amount');
      expect(await rows()).toEqual([latest, big]);
      await page.fill('#search-last4', '');
      await page.fill('#search-amount', '');
      await page.fill('#search-from', day(0));
      await page.fill('#search-to', day(86_400_000));
      await page.click('#search-submit');
      expect(await text(page, '#search-to-error')).toBe('A data final é anterior à data inicial.');
      expect(await page.isVisible('#search-last4-error')).toBe(false);
      expect(await rows()).toEqual([latest, big]);

      // By NSU, typed in the one field for NSU or authorization code.
      await page.click('#search-clear');
      await expect.poll(() => text(page, '#transactions-title')).toBe('Vendas de hoje');
      expect(await page.inputValue('#search-to')).toBe(day(0));
      expect(await page.isVisible('#search-to-error')).toBe(false);
      await page.fill('#search-code', nsu);
      await page.click('#search-submit');
      await expect.poll(rows).toEqual([big]);
      expect(await page.locator(`#transactions-body tr[data-reference="${big}"] td.num`).innerText()).toBe(
        'R$ 1.234,56',
      );
      // …or its authorization code, in whatever case the cashier types it.
      await page.click('#search-clear');
      await expect.poll(rows).toEqual([latest, big]);
      await page.fill('#search-code', authorization.toLowerCase());
      await page.click('#search-submit');
      await expect.poll(rows).toEqual([big]);
      expect(await text(page, '#transactions-count')).toBe('1 venda encontrada');
      await page.fill('#search-code', '999999999');
      await page.click('#search-submit');
      await expect.poll(() => text(page, '#transactions-count')).toBe('Nenhuma venda encontrada');
      expect(await text(page, '#transactions-empty')).toBe('Nenhuma venda encontrada com estes dados.');

      // By dates alone: the day two days ago holds the old sale only.
      await page.fill('#search-code', '');
      await page.fill('#search-from', day(2 * 86_400_000));
      await page.fill('#search-to', day(2 * 86_400_000));
      await page.click('#search-submit');
      await expect.poll(rows).toEqual([old]);
      const found = page.locator(`#transactions-body tr[data-reference="${old}"]`);
      expect((await found.locator('td').allInnerTexts()).slice(1, 5)).toEqual([
        'R$ 12,34',
        'Crédito à vista',
        'Aprovada',
        'VISA 411111******1111',
      ]);

      // The status filter works on what the search found.
      await page.selectOption('#transactions-filter', 'declined');
      expect(await rows()).toEqual([]);
      expect(await text(page, '#transactions-empty')).toBe('Nenhuma venda encontrada com esta situação.');
      expect(await text(page, '#transactions-count')).toBe('0 de 1 vendas encontradas');
      await page.selectOption('#transactions-filter', 'approved');
      expect(await rows()).toEqual([old]);

      // A found sale opens as any other: its receipt, and its reprint.
      await found.getByRole('button').click();
      expect(await text(page, '#sale-title')).toBe('Venda de R$ 12,34');
      await expect
        .poll(() => page.frameLocator('#receipt-frame').locator('body').innerText(), { timeout: 10_000 })
        .toContain('VIA DO CLIENTE');
      await page.locator('#receipt-print').scrollIntoViewIfNeeded();
      await page.click('#receipt-print');
      await expect.poll(printed, { timeout: 10_000 }).toBe(2);
      await expect.poll(() => text(page, '#sale-message')).toMatch(/Na fila da impressora|Imprimindo|Impresso/);
      // F8 belongs to the dialog while it is open: nothing more is printed.
      await page.keyboard.press('F8');
      await page.keyboard.press('Escape');
      expect(await page.isVisible('#sale')).toBe(false);
      expect(printed()).toBe(2);

      // F8 on the Vendas page: the newest sale's receipt, whatever the search shows.
      await page.keyboard.press('F8');
      await expect.poll(printed, { timeout: 10_000 }).toBe(3);
      await expect
        .poll(() => text(page, '#toast-status'), { timeout: 10_000 })
        .toMatch(/^Último comprovante: venda de R\$ 12,34 às \d{2}:\d{2}:\d{2}\. Impresso\.$/);
      const lastPrinted = rig.printedJobs().map((file) => readFileSync(file, 'latin1'));
      expect(lastPrinted.filter((job) => job.includes('VIA DO CLIENTE'))).toHaveLength(3);
      expect(lastPrinted.some((job) => job.includes('VIA DO ESTABELECIMENTO'))).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await rig.close();
    }
  });
});

describe('a receipt printer that is off', () => {
  it('never says "Enviado" for a receipt still waiting: it says why in Portuguese and that Pinbridge tries again, and names the printer as the cashier knows it', async () => {
    // A TCP port nothing listens on: the printer is off (connection refused).
    const offline = await posRig({ printerAddress: `tcp://127.0.0.1:${CLOSED_PORT}` });
    try {
      const caixa = await offline.paired('Caixa 1');
      await posSale(caixa, 'venda-sem-papel', 1500);
      const { page, errors } = await openWindow({ rig: offline });
      await go(page, 'transactions');
      const row = page.locator('#transactions-body tr[data-reference="venda-sem-papel"]');
      await row.waitFor();
      await row.getByRole('button').click();
      await page.locator('#receipt-print').scrollIntoViewIfNeeded();
      await page.click('#receipt-print');
      // Not printed is a failure, said in the failure style (the error line), never in a success's green.
      await expect
        .poll(() => text(page, '#sale-error'), { timeout: 15_000 })
        .toBe(
          'Ainda não impresso: a impressora não foi encontrada: veja se está ligada e com o cabo (ou a rede) conectado. O Pinbridge tenta de novo sozinho.',
        );
      expect(await text(page, '#sale-message')).toBe('');

      await page.keyboard.press('Escape');
      await go(page, 'status');
      const printer = page.locator('#status-printers [data-printer="default"]');
      await expect.poll(() => printer.innerText()).toContain('Impressora de comprovantes');
      expect(errors).toEqual([]);
    } finally {
      await offline.close();
    }
  });
});

describe('a full disk', () => {
  it('puts a banner on every page while no sale fits, in Portuguese, and takes it away once there is room', async () => {
    const disk = mountSmallDisk(8 * 1024 * 1024);
    const journal = Journal.open(join(disk.dir, 'journal.db'), { reserveBytes: 0, minFreeBytes: 1024 * 1024 });
    const watch = new DiskWatch({
      journal,
      audit: new AuditLog(join(mkdtempSync(join(artifactsDir(), 'window-audit-')), 'audit.log')),
      logger: createLogger({ level: 'silent' }),
      okPollMs: 100,
      fullPollMs: 100,
    });
    watch.start();
    const rig = await posRig({ disk: watch });
    try {
      const { page, errors } = await openWindow({ rig });
      const banner = page.locator('#notice-disk');
      expect(await banner.isHidden()).toBe(true);
      disk.fill();
      await banner.waitFor({ state: 'visible', timeout: 10_000 });
      expect(await text(page, '#notice-disk')).toBe(
        'Disco do computador cheio: novas vendas estão suspensas até liberar espaço; depois, tudo volta sozinho.',
      );
      expect(await banner.getAttribute('role')).toBe('alert');
      // On every page, not only the status.
      await go(page, 'transactions');
      expect(await banner.isVisible()).toBe(true);
      disk.free();
      await banner.waitFor({ state: 'hidden', timeout: 10_000 });
      expect(errors).toEqual([]);
    } finally {
      watch.stop();
      await rig.close();
      journal.close();
      disk.unmount();
    }
  });
});

describe('when Pinbridge stops answering', () => {
  it('shows no device green under "Conexão perdida": each status says it is unknown, since when, until the connection is back', async () => {
    const doomed = await posRig();
    const { page } = await openWindow({ rig: doomed });
    const pinpads = page.locator('#status-pinpads');
    await expect.poll(() => pinpads.innerText()).toContain('Conectado · livre');
    await doomed.close();

    await expect.poll(() => pinpads.getAttribute('data-stale')).toBe('true');
    for (const box of ['#status-pinpads', '#status-printers', '#status-api', '#status-pos']) {
      expect(await text(page, box), box).toMatch(
        /^Sem informação: o Pinbridge não está respondendo\s+Última informação às \d{2}:\d{2}:\d{2}/,
      );
      expect(await page.locator(`${box} [data-level="ok"]`).count(), box).toBe(0);
    }
    expect(await page.locator('body').getAttribute('data-connection')).not.toBe('ready');
  });
});

describe("the store's clock", () => {
  it("shows a sale's time on the store's clock (Rio Branco), as its receipt prints it, on a computer set to Tokyo", async () => {
    const acre = await posRig({ timeZone: 'America/Rio_Branco' });
    try {
      const caixa = await acre.paired('Caixa 1');
      const sale = await posSale(caixa, 'venda-acre', 2500);
      const { page, errors } = await openWindow({ rig: acre, browserTimeZone: 'Asia/Tokyo' });
      await go(page, 'transactions');
      const row = page.locator('#transactions-body tr[data-reference="venda-acre"]');
      await row.waitFor();
      const shown = (await row.locator('td').first().innerText()).trim();
      const clock = (timeZone: string): string =>
        new Intl.DateTimeFormat('pt-BR', {
          timeZone,
          hour: '2-digit',
          minute: '2-digit',
          second: '2-digit',
          hourCycle: 'h23',
        }).format(new Date(String(sale.created_at)));
      expect(shown).toBe(clock('America/Rio_Branco'));
      expect(shown).not.toBe(clock('Asia/Tokyo'));
      // The receipt prints the approval's time, a moment after the sale began: the same clock.
      await row.getByRole('button').click();
      const receipt = page.frameLocator('#receipt-frame').locator('body');
      await expect.poll(() => receipt.innerText(), { timeout: 10_000 }).toContain('VIA DO CLIENTE');
      const printed = /\b(\d{2}:\d{2}:\d{2})\b/.exec(await receipt.innerText())?.[1];
      const seconds = (time: string | undefined): number =>
        (time ?? '').split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
      const apart = (seconds(printed) - seconds(shown) + 86_400) % 86_400;
      expect(apart, `receipt ${printed}, window ${shown}`).toBeLessThanOrEqual(5);
      expect(errors).toEqual([]);
    } finally {
      await acre.close();
    }
  });
});

describe('approvals waiting for the POS to confirm (confirmation policy "pos")', () => {
  it('lists them on top of the day, confirms one and undoes the other after a confirmation', async () => {
    const rig = await posRig({ config: { confirmation: 'pos' } });
    try {
      const caixa = await rig.paired('Caixa 8');
      expect(await posSale(caixa, 'venda-pendente-1', 1500)).toMatchObject({
        status: 'approved',
        confirmation: 'pending',
      });
      await posSale(caixa, 'venda-pendente-2', 2500);
      const { page, errors } = await openWindow({ rig });
      await go(page, 'transactions');

      const pending = page.locator('#pending-confirmations');
      await pending.locator('li[data-reference="venda-pendente-1"]').waitFor();
      expect(await pending.locator('li').count()).toBe(2);
      expect(await pending.locator('li[data-reference="venda-pendente-2"]').innerText()).toContain('R$ 25,00');
      expect(
        await page.locator('#transactions-body tr[data-reference="venda-pendente-1"] .sale-status').innerText(),
      ).toBe('Aprovada — aguardando confirmação');

      await pending.getByRole('button', { name: /^Confirmar a venda de R\$ 15,00/ }).click();
      await pending.locator('li[data-reference="venda-pendente-1"]').waitFor({ state: 'detached' });
      expect(rig.rig.engine.status('venda-pendente-1')).toMatchObject({
        outcome: { state: 'confirmed', confirmation: 'confirmed' },
      });
      expect(await text(page, '#transactions-message')).toContain('Venda confirmada.');

      await pending.getByRole('button', { name: /^Desfazer a venda de R\$ 25,00/ }).click();
      expect(await text(page, '#confirm-title')).toBe('Desfazer esta venda?');
      await page.click('#confirm-yes');
      await page.locator('#pending').waitFor({ state: 'hidden', timeout: 15_000 });
      expect(rig.rig.engine.status('venda-pendente-2')).toMatchObject({
        outcome: { state: 'undone', confirmation: 'undone' },
      });
      // An approval undone before it was confirmed is "Desfeita" (TEF's desfazimento), never "Cancelada".
      expect(await text(page, '#transactions-message')).toContain('Venda desfeita');
      await expect
        .poll(() => page.locator('#transactions-body tr[data-reference="venda-pendente-2"] .sale-status').innerText(), {
          timeout: 15_000,
        })
        .toBe('Desfeita (nada cobrado)');
      expect(errors).toEqual([]);
    } finally {
      await rig.close();
    }
  });
});

describe('a void the store gives to the supervisor', () => {
  it('asks for the supervisor PIN in the void dialog, says a wrong one there (field cleared, focus kept), voids with the right one — or with the PIN typed on the PINPAD', async () => {
    const pinFile = join(mkdtempSync(join(artifactsDir(), 'window-supervisor-')), 'supervisor-pin');
    // Training, as the agent runs it: the store's PIN, and the training PIN the simulated PINPAD types.
    const pin = new SupervisorPin(pinFile, { training: true, integrity: testIntegrityKey() });
    pin.set('482193');
    const rig = await posRig({
      simulator: { autoCustomer: { delayMs: 30, card: 'visaCredit', identification: TRAINING_SUPERVISOR_PIN } },
      supervisor: supervisorGuard(pin, {
        requiredFor: 'voids',
        minAmountCentavos: 10_000,
        entry: 'either',
        posVoids: 'trusted',
      }),
    });
    try {
      const caixa = await rig.paired('Caixa 1');
      await posSale(caixa, 'sup-101', 123456);
      await posSale(caixa, 'sup-102', 98765);
      await posSale(caixa, 'sup-small', 1990);
      const { page, errors } = await openWindow({ rig });
      await go(page, 'transactions');
      const notes = (reference: string): string[] =>
        rig.rig.journal.events(rig.rig.journal.findByReference(reference)!.id).map((event) => event.note);

      const row = page.locator('#transactions-body tr[data-reference="sup-101"]');
      await row.waitFor();
      await row.getByRole('button').click();
      await page.click('#sale-actions button:has-text("Cancelar venda")');
      expect(await text(page, '#confirm-title')).toBe('Cancelar esta venda?');
      const field = page.locator('#confirm-supervisor-pin');
      expect(await field.isVisible()).toBe(true);
      expect(await page.locator('label[for="confirm-supervisor-pin"]').innerText()).toBe('Senha do supervisor');
      expect([
        await field.getAttribute('type'),
        await field.getAttribute('inputmode'),
        await field.getAttribute('autocomplete'),
      ]).toEqual(['password', 'numeric', 'off']);
      expect(await page.isVisible('#confirm-supervisor-pinpad')).toBe(true);
      expect(await text(page, '#confirm-supervisor-hint')).toContain('1234');
      expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-supervisor-pin');

      // Enter by habit, nothing typed: asked for the PIN, nothing voided.
      await page.keyboard.press('Enter');
      expect(await text(page, '#confirm-supervisor-error')).toBe('Digite a senha do supervisor.');

      // A wrong PIN: said in the dialog, the field emptied and still focused, the sale untouched.
      await field.fill('907153');
      await page.click('#confirm-yes');
      await expect
        .poll(() => text(page, '#confirm-supervisor-error'))
        .toBe('Senha do supervisor incorreta. Restam 4 tentativas.');
      expect(await field.inputValue()).toBe('');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-supervisor-pin');
      expect(await page.isVisible('#confirm-dialog')).toBe(true);
      expect(rig.rig.engine.status('sup-101')).toMatchObject({ outcome: { state: 'confirmed' } });
      await page.screenshot({ path: join(SHOTS, 'void-supervisor-wrong-pin-1280x800.png') });

      // The right one, with Enter: voided; the cashier sees "Cancelada" and why.
      await field.fill('482193');
      await page.keyboard.press('Enter');
      await page.locator('#confirm-dialog').waitFor({ state: 'hidden', timeout: 15_000 });
      await expect.poll(() => row.locator('.sale-status').innerText(), { timeout: 15_000 }).toBe('Cancelada');
      expect(await text(page, '#sale-message')).toContain('Venda cancelada');
      await expect.poll(() => text(page, '#sale-details')).toContain('Venda cancelada pelo caixa');
      expect(notes('sup-101')).toContain(
        'undoing: VOIDED_BY_POS; authorized by the supervisor (PIN typed in the window)',
      );
      await page.keyboard.press('Escape');

      // On the PINPAD: the dialog waits for the supervisor there, then the sale is voided.
      const other = page.locator('#transactions-body tr[data-reference="sup-102"]');
      await other.getByRole('button').click();
      await page.click('#sale-actions button:has-text("Cancelar venda")');
      // Every text the dialog's status line takes while it waits (a string: these specs have no DOM types).
      await page.evaluate(`(() => { const seen = window.supervisorStatus = []; const status = document.getElementById('confirm-supervisor-status');
        new MutationObserver(() => seen.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true }); })()`);
      await page.click('#confirm-supervisor-pinpad');
      await page.locator('#confirm-dialog').waitFor({ state: 'hidden', timeout: 15_000 });
      expect(await page.evaluate<string[]>('window.supervisorStatus')).toContain(
        'Aguardando o supervisor digitar a senha no PINPAD…',
      );
      await expect.poll(() => other.locator('.sale-status').innerText(), { timeout: 15_000 }).toBe('Cancelada');
      expect(notes('sup-102')).toContain(
        'undoing: VOIDED_BY_POS; authorized by the supervisor (PIN typed on the PINPAD POS0000000000001, training PIN)',
      );
      await page.keyboard.press('Escape');

      // Below the store's amount (R$ 19,90 < R$ 100,00): the plain confirmation, no PIN.
      await page.locator('#transactions-body tr[data-reference="sup-small"]').getByRole('button').click();
      await page.click('#sale-actions button:has-text("Cancelar venda")');
      expect(await page.isVisible('#confirm-supervisor')).toBe(false);
      expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-no');
      await page.click('#confirm-no');
      expect(errors).toEqual([]);
    } finally {
      await rig.close();
    }
  });
});

describe('POS clients', () => {
  it('shows a pairing request live with its code, name, origin and countdown, and rejects it', async () => {
    const { page, errors } = await openWindow();
    // One name for the POS everywhere: the sidebar, the status card, the page's title.
    expect(await text(page, '#status-pos-title')).toBe('Caixas (PDV)');
    await go(page, 'clients');
    expect(await text(page, '#nav-clients')).toMatch(/^Caixas \(PDV\)/);
    expect(await text(page, '#clients-title')).toBe('Caixas (PDV)');
    expect(await page.locator('#app').innerText()).not.toMatch(/sistemas? de vendas/i);
    const stranger = await pos.connect({ origin: 'https://pdv.example.com' });

    const started = await stranger.call<{ pairing_id: string }>('session.pair', { name: 'Caixa 3 — Loja Centro' });

    const card = page.locator(`.pairing[data-pairing-id="${started.pairing_id}"]`);
    await card.waitFor({ timeout: 10_000 });
    const code = pos.announced.at(-1)?.code ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(await card.locator('.pairing-code').getAttribute('data-code')).toBe(code);
    expect(await card.locator('.pairing-code [aria-hidden="true"]').innerText()).toBe(
      `${code.slice(0, 3)} ${code.slice(3)}`,
    );
    expect(await card.innerText()).toMatch(
      /Caixa 3 — Loja Centro[\s\S]*Origem: https:\/\/pdv\.example\.com[\s\S]*Expira em [12]:\d{2}/,
    );
    // When it expires, on the store's clock (São Paulo here, the tests' computer being on UTC), never the API's ISO.
    const expiresAt = pos.announced.at(-1)?.expiresAt ?? '';
    const storeClock = new Intl.DateTimeFormat('pt-BR', {
      timeZone: 'America/Sao_Paulo',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).format(new Date(expiresAt));
    expect(await card.locator('.countdown').innerText()).toMatch(
      new RegExp(`^Expira em [12]:\\d{2} \\(às ${storeClock}\\)$`),
    );
    expect(await card.innerText()).not.toContain(expiresAt.slice(0, 16));
    // Very large: a cashier reads it from a step away.
    expect((await card.locator('.pairing-code').boundingBox())?.height).toBeGreaterThanOrEqual(48);
    expect(await page.locator('#nav-clients-badge').isVisible()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'clients-pairing-1280x800.png') });

    await card.getByRole('button', { name: 'Recusar o pedido de “Caixa 3 — Loja Centro”' }).click();

    await card.waitFor({ state: 'detached' });
    const refused = await stranger.failure('session.confirmPairing', { pairing_id: started.pairing_id, code });
    expect(refused.data.code).toBe('PAIRING_INVALID');
    expect(await page.isVisible('#pairings-empty')).toBe(true);
    expect(errors).toEqual([]);
  });

  it('shows each wrong pairing code with where it came from, and blocks that origin in one click', async () => {
    const { page, errors } = await openWindow();
    await go(page, 'clients');
    const guesser = await pos.connect({ origin: 'https://adivinho.example.net' });
    const started = await guesser.call<{ pairing_id: string }>('session.pair', { name: 'Caixa falso' });
    const code = pos.announced.find((a) => a.pairingId === started.pairing_id)!.code;
    const wrong = code === '000000' ? '000001' : '000000';
    expect(
      (await guesser.failure('session.confirmPairing', { pairing_id: started.pairing_id, code: wrong })).data.code,
    ).toBe('WRONG_CODE');

    const guard = page.locator('#pairing-guard');
    await guard.waitFor({ state: 'visible', timeout: 10_000 });
    expect(await guard.innerText()).toMatch(
      /código\(s\) de pareamento errado\(s\) nas últimas 24 horas[\s\S]*https:\/\/adivinho\.example\.net: 1 código\(s\) errado\(s\)/,
    );
    await page.screenshot({ path: join(SHOTS, 'clients-wrong-code-1280x800.png') });
    await guard.getByRole('button', { name: 'Bloquear a origem https://adivinho.example.net' }).click();

    expect((await guesser.closed).code).toBe(4003);
    await page.locator('#blocked-list li[data-origin="https://adivinho.example.net"]').waitFor();
    expect(pos.clients.isBlocked('https://adivinho.example.net')).toBe(true);
    pos.clients.unblockOrigin('https://adivinho.example.net');
    pos.clients.unlockPairing();
    expect(errors).toEqual([]);
  });

  it('lists paired clients live and revokes one with the keyboard, after a confirmation; unblocks an origin', async () => {
    const { page, errors } = await openWindow();
    await go(page, 'clients');
    const caixa = await pos.paired('Caixa 4', { origin: 'https://caixa4.example.com' });
    const id = (await caixa.call<{ client_id: string }>('session.hello', { token: caixa.token })).client_id;

    const row = page.locator(`#paired-body tr[data-client-id="${id}"]`);
    await expect.poll(() => row.getAttribute('data-connected'), { timeout: 10_000 }).not.toBe('0');
    expect(await row.innerText()).toMatch(/Caixa 4[\s\S]*https:\/\/caixa4\.example\.com[\s\S]*Conectado/);
    // Seen now, not "Nunca", while it is connected.
    expect((await row.locator('td').allInnerTexts())[3]).toBe('Agora');

    await row.getByRole('button', { name: 'Revogar “Caixa 4”' }).focus();
    await page.keyboard.press('Enter');
    expect(await page.isVisible('#confirm-dialog')).toBe(true);
    expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-no');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-yes');
    await page.keyboard.press('Enter');

    expect((await caixa.closed).code).toBe(4004);
    await row.waitFor({ state: 'detached' });
    expect(await text(page, '#clients-message')).toBe('“Caixa 4” foi revogado.');
    expect(await text(page, '#revoked-summary')).toMatch(/^Revogados \(\d+\)$/);
    expect(pos.clients.list().find((client) => client.id === id)?.revokedAt).not.toBeNull();

    pos.clients.blockOrigin('https://bloqueado.example.com');
    await go(page, 'status');
    await go(page, 'clients');
    const blocked = page.locator('#blocked-list li[data-origin="https://bloqueado.example.com"]');
    await blocked.waitFor();
    await blocked.getByRole('button').click();
    await blocked.waitFor({ state: 'detached' });
    expect(pos.clients.isBlocked('https://bloqueado.example.com')).toBe(false);
    expect(errors).toEqual([]);
  });

  it.runIf(process.platform === 'linux')(
    'shows the program behind each request, and blocks a program after a confirmation (a page by its site); unblocks it',
    async () => {
      const { page, errors } = await openWindow();
      await go(page, 'clients');
      // A web page: its program is the browser (here this test's process), blocked by its site only.
      const site = await pos.connect({ origin: 'https://pagina.example.com' });
      const fromPage = await site.call<{ pairing_id: string }>('session.pair', { name: 'Página estranha' });
      const pageCard = page.locator(`.pairing[data-pairing-id="${fromPage.pairing_id}"]`);
      await pageCard.waitFor({ timeout: 10_000 });
      expect(await pageCard.locator('.pairing-program').innerText()).toBe(`No navegador: node (PID ${process.pid})`);
      expect(await pageCard.getByRole('button', { name: 'Bloquear o site https://pagina.example.com' }).count()).toBe(
        1,
      );
      expect(await pageCard.getByRole('button', { name: /Bloquear o programa/ }).count()).toBe(0);

      // A program of its own: a separate process asking to pair.
      const program = spawn(process.execPath, [SQUATTER, pos.server.url, '0', '1', '0', '60000'], { stdio: 'pipe' });
      try {
        const card = page.locator(`.pairing:has(.pairing-program[data-pid="${program.pid}"])`);
        await card.waitFor({ timeout: 10_000 });
        expect(await card.locator('.pairing-program').innerText()).toBe(`Programa: node (PID ${program.pid})`);
        expect(await card.locator('.pairing-program').getAttribute('title')).toContain('squatter.mjs');
        await page.screenshot({ path: join(SHOTS, 'clients-program-1280x800.png') });

        await card.getByRole('button', { name: `Bloquear o programa node (PID ${program.pid})` }).click();
        expect(await page.isVisible('#confirm-dialog')).toBe(true);
        expect(await text(page, '#confirm-dialog')).toContain('squatter.mjs');
        await page.locator('#confirm-yes').click();

        await card.waitFor({ state: 'detached' });
        expect(await text(page, '#clients-message')).toBe('O programa node foi bloqueado.');
        const blocked = page.locator('#blocked-programs-list li');
        await blocked.waitFor();
        expect(await blocked.innerText()).toMatch(/node[\s\S]*squatter\.mjs[\s\S]*bloqueado em/);
        expect(pos.clients.blockedPrograms()).toHaveLength(1);
        // The page's request is untouched.
        expect(await pageCard.isVisible()).toBe(true);

        // It ends before it is let back in (it would ask again at once).
        const exited = new Promise((resolve) => program.once('exit', resolve));
        program.kill();
        await exited;
        await blocked.getByRole('button', { name: 'Desbloquear o programa node' }).click();
        await blocked.waitFor({ state: 'detached' });
        expect(await text(page, '#clients-message')).toBe('O programa node foi desbloqueado.');
        expect(pos.clients.hasBlockedPrograms()).toBe(false);
      } finally {
        program.stdin.end();
        program.kill();
        await site.close();
      }
      // The page's request goes too: the other specs expect no request waiting.
      await pageCard.getByRole('button', { name: 'Recusar o pedido de “Página estranha”' }).click();
      await pageCard.waitFor({ state: 'detached' });
      expect(errors).toEqual([]);
    },
  );
});

describe('the PINPAD’s EMV tables', () => {
  it('shows the version the PINPAD holds, says in Portuguese when its tables cannot be used, and when their copy here was changed outside Pinbridge', async () => {
    const rig = await posRig({ noPinpad: true });
    try {
      const { page, errors } = await openWindow({ rig });
      const tablesOf = (serial: string) => page.locator(`#status-pinpads [data-serial="${serial}"] [data-tables]`);

      await rig.addPinpad(
        'TABLES0000000001',
        {},
        { tables: readEmvTables(join(PACKAGE_ROOT, 'docs', 'emv-tables.sample.json')) },
      );
      await expect.poll(() => tablesOf('TABLES0000000001').getAttribute('data-tables')).toBe('current');
      expect(await tablesOf('TABLES0000000001').innerText()).toBe('Tabelas EMV em dia (versão 2611260001)');

      const broken = new TablesFileError('tabelas.json', [{ field: 'version', message: 'is missing' }]);
      await rig.addPinpad('TABLES0000000002', {}, { tables: broken });
      await expect.poll(() => tablesOf('TABLES0000000002').getAttribute('data-tables')).toBe('failed');
      expect(await tablesOf('TABLES0000000002').innerText()).toBe(
        'Tabelas EMV indisponíveis: as vendas serão recusadas. Chame o suporte técnico.',
      );
      expect(await tablesOf('TABLES0000000002').getAttribute('data-level')).toBe('bad');

      // The provider's tables, whose copy on this computer was edited: refused, fetched again, and said.
      const sample = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'docs', 'emv-tables.sample.json'), 'utf8')) as {
        version: string;
      };
      const cacheFile = join(mkdtempSync(join(artifactsDir(), 'window-tables-')), 'TABLES0000000003.json');
      writeFileSync(
        cacheFile,
        JSON.stringify({
          format: 'pinbridge-emv-tables-cache',
          serial: 'TABLES0000000003',
          sealed_by: 'file',
          seal: 'A'.repeat(43),
          document: sample,
        }),
      );
      // The provider's side: its own tables, whatever version the caller holds.
      const provider: TablesChannel = {
        emvTables: () => Promise.resolve({ version: sample.version, changed: true, tables: sample }),
      };
      await rig.addPinpad(
        'TABLES0000000003',
        {},
        {
          tablesFrom: (serial) =>
            new ProviderTables({ channel: provider, serial, cacheFile, integrity: testIntegrityKey() }),
        },
      );
      await expect.poll(() => tablesOf('TABLES0000000003').getAttribute('data-tables')).toBe('current');
      const tampered = page.locator('#status-pinpads [data-serial="TABLES0000000003"] .tables-tampered');
      expect(await tampered.innerText()).toBe(
        'As tabelas EMV guardadas neste computador foram alteradas fora do Pinbridge: foram descartadas e baixadas de novo do serviço de pagamentos. Avise o suporte técnico.',
      );
      expect(await tampered.getAttribute('data-level')).toBe('warn');
      expect(await page.locator('#status-pinpads [data-serial="TABLES0000000001"] .tables-tampered').count()).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await rig.close();
    }
  });
});

describe('a PINPAD that is not there', () => {
  it('says in Portuguese where it was looked for and that Pinbridge keeps trying, until it answers', async () => {
    const link = new PinpadLink('/dev/ttyACM0');
    link.set({
      address: '/dev/ttyACM0',
      state: 'not_found',
      code: 'PORT_NOT_FOUND',
      error: 'The serial port /dev/ttyACM0 does not exist',
      since: new Date(),
    });
    const rig = await posRig({ noPinpad: true, pinpadLink: link });
    try {
      const { page, errors } = await openWindow({ rig });
      const shown = page.locator('#status-pinpads [data-link-state]');
      expect(await shown.getAttribute('data-link-state')).toBe('not_found');
      expect((await shown.locator('p').allInnerTexts()).map((line) => line.trim())).toEqual([
        'PINPAD não encontrado em /dev/ttyACM0. Verifique o cabo e se ele está ligado.',
        'O Pinbridge continua tentando sozinho; o endereço do PINPAD fica em Configurações.',
      ]);
      expect(await page.locator('#status-pinpads .pinpad-link .state-line').getAttribute('data-level')).toBe('bad');

      // Plugged in: the line goes, the PINPAD shows.
      await rig.addPinpad('LINK000000000001');
      link.set({ address: '/dev/ttyACM0', state: 'ready', code: null, error: null, since: new Date() });
      await shown.waitFor({ state: 'detached' });
      await page.locator('#status-pinpads [data-serial="LINK000000000001"][data-connected="true"]').waitFor();
      expect(errors).toEqual([]);
    } finally {
      await rig.close();
    }
  });
});

describe('language, keyboard and touch', () => {
  it('switches to English and remembers it', async () => {
    const { page, errors } = await openWindow();
    await page.click('#language');

    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('en');
    expect(await text(page, '#nav-transactions')).toBe("Today's sales");
    expect(await text(page, '#status-title')).toBe('Status');
    expect(await text(page, '#training-banner')).toContain('TRAINING');
    expect(await text(page, '#status-pinpads')).toContain('Connected · free');
    expect(await text(page, '#language .language-label')).toBe('Language');
    expect(await text(page, '#language .language-name[data-current="true"]')).toBe('English');

    // A debit test sale in English: the simulated card is a credit card, so it fails, and says why.
    await go(page, 'payment');
    await page.fill('#training-amount', '3,00');
    await page.check('input[name="training-type"][value="debit"]');
    await page.click('#training-start');
    await expect
      .poll(() => page.locator('#payment-current').getAttribute('data-status'), { timeout: 15_000 })
      .toBe('failed');
    expect(await text(page, '#payment-result-status')).toBe('FAILED');
    expect(await text(page, '#payment-result-reason')).toContain('does not support this payment type');
    expect(await page.locator('#payment-steps li[data-step="started"]').innerText()).toContain('Payment started');
    await page.screenshot({ path: join(SHOTS, 'payment-failed-english-1280x800.png') });

    await page.reload();
    await waitReady(page);
    // The label only: a pairing request an earlier spec left pending adds its badge beside it.
    expect(await text(page, '#nav-clients .nav-label')).toBe('POS clients');
    await page.click('#language');
    expect(await text(page, '#nav-clients .nav-label')).toBe('Caixas (PDV)');
    expect(errors).toEqual([]);
  });

  it('reaches every page and every button with the keyboard alone', async () => {
    const caixa = await pos.paired('Caixa 5');
    await posSale(caixa, 'venda-teclado', 500);
    const { page, errors } = await openWindow();

    for (const route of ['status', 'payment', 'transactions', 'clients'] as const) {
      // From the navigation, by keyboard: the link, Enter, and the focus lands on the page's title.
      await page.locator(`#nav-${route}`).focus();
      await page.keyboard.press('Enter');
      await page.locator(`#page-${route}`).waitFor({ state: 'visible' });
      await expect.poll(() => page.evaluate<string>(FOCUSED), { timeout: 10_000 }).toBe(`${route}-title`);
      if (route === 'transactions') await page.locator('#transactions-body tr').first().waitFor();

      const reached = await tabAround(page);
      const controls = await page.evaluate<string[]>(CONTROLS);
      expect(controls.length).toBeGreaterThan(4);
      expect(
        controls.filter((control) => !reached.includes(control)),
        `not reached by Tab on #/${route}`,
      ).toEqual([]);
      for (const tab of ['nav-status', 'nav-payment', 'nav-transactions', 'nav-clients', 'language'])
        expect(reached).toContain(tab);
    }
    expect(errors).toEqual([]);
    await caixa.close();
  });

  it('has every button and link at least 44 px tall, and screenshots of the main pages at 1280×800 and 1024×600', async () => {
    const caixa = await pos.paired('Caixa 6');
    await posSale(caixa, 'venda-foto', 4990);
    const stranger = await pos.connect({ origin: 'https://pdv-foto.example.com' });
    await stranger.call('session.pair', { name: 'Caixa 7 — Loja Centro' });
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const { page, errors } = await openWindow({ viewport });
      const label = `${viewport.width}x${viewport.height}`;
      for (const route of ['status', 'payment', 'transactions', 'clients'] as const) {
        await go(page, route);
        if (route === 'transactions')
          await page.locator('#transactions-body tr[data-reference="venda-foto"]').waitFor({ timeout: 5_000 });
        if (route === 'clients') await page.locator('.pairing').first().waitFor({ timeout: 5_000 });
        expect(await controlsUnder44px(page), `controls under 44 px on #/${route} at ${size}`).toEqual([]);
        await page.screenshot({ path: join(SHOTS, `${route}-${label}.png`) });
        if (route === 'transactions') {
          await page.locator('#transactions-body tr[data-reference="venda-foto"] button').click();
          await expect
            .poll(() => page.frameLocator('#receipt-frame').locator('body').innerText(), { timeout: 5_000 })
            .toContain('VIA DO CLIENTE');
          expect(await controlsUnder44px(page), `controls under 44 px in a sale at ${size}`).toEqual([]);
          await page.screenshot({ path: join(SHOTS, `sale-${label}.png`) });
          await page.click('#sale-close');
        }
      }
      expect(errors).toEqual([]);
    }
    await stranger.close();
    await caixa.close();
    // Four pages at two sizes, each measured and photographed: more than the default 30 s on a busy 2-core runner.
  }, 90_000);
});
