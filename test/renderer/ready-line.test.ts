/**
 * One "ready to sell" answer on top of every page (issue 34, item 5), in real Chromium against the
 * real POS server and a real agent: the status line says "Pronto para vender", then — as the
 * PINPAD is unplugged, the payments service stops answering, the printer is out of reach, the
 * connection to Pinbridge is lost — exactly what is missing, in words, announced politely (a live
 * region) while the cashier's focus stays where it was. An unreachable printer reads
 * "Desconectada" within seconds of start, not "Verificando…" for minutes. And no cashier page
 * (Situação, Pagamento, Vendas, Caixas) shows a path, an address or "Porta sim": the addresses are
 * on Suporte, as a detail under words. The language switch is labelled "Idioma", its name in the
 * window's language.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../main/agent/agent.js';
import { createLogger } from '../../main/log.js';
import { defaultSettingsPath, loadSettings } from '../../main/settings/settings-file.js';
import { PACKAGE_ROOT } from '../../main/version.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';
import { OPERATOR_KEY, posRig, type PosRig } from '../main/pos/pos-rig.js';
import { openWindowPage } from './window-page.js';
import { CLOSED_PORT } from '../helpers/closed-port.js';

const ROUTES = ['status', 'payment', 'transactions', 'clients', 'settings', 'support'] as const;
const CASHIER_PAGES = ['status', 'payment', 'transactions', 'clients'] as const;
const SMALL = { width: 800, height: 480 };

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (!existsSync(join(PACKAGE_ROOT, 'dist', 'renderer', 'main.js')))
    throw new Error('dist/renderer/main.js is missing: run `npm run build` first');
  browser = await launchChromium();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
});

async function open(url: string, viewport = SMALL): Promise<{ page: Page; errors: string[] }> {
  // Console lines are not read: a spec here stops the agent, and the page's exceptions are what count.
  const opened = await openWindowPage(browser, url, { viewport, hasTouch: true, reconnects: true });
  contexts.push(opened.context);
  return opened;
}

const line = (page: Page): Promise<string> => page.locator('#ready-text').innerText();
const level = (page: Page): Promise<string | null> => page.locator('#ready-line').getAttribute('data-level');

/** Whether the status line is wholly on screen, uncovered, as the page is now. */
function inView(page: Page): Promise<boolean> {
  return page.evaluate<boolean>(`(() => {
    const el = document.getElementById('ready-line');
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > document.documentElement.clientWidth) return false;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return hit !== null && el.contains(hit);
  })()`);
}

describe('the status line', () => {
  let rig: PosRig;
  beforeAll(async () => {
    rig = await posRig();
  });
  afterAll(async () => rig?.close());

  it('says "Pronto para vender" on every page at 800×480, in view and as a polite live region, and in English too', async () => {
    const { page, errors } = await open(rig.server.uiUrl(OPERATOR_KEY));
    for (const route of ROUTES) {
      await page.click(`#nav-${route}`);
      await page.locator(`#page-${route}`).waitFor();
      expect(await line(page), route).toBe('Pronto para vender (treinamento)');
      expect(await level(page), route).toBe('ok');
      expect(await inView(page), route).toBe(true);
      // Scrolled to the bottom of the page, it is still there.
      await page.evaluate('window.scrollTo(0, document.scrollingElement.scrollHeight)');
      expect(await inView(page), `${route}, scrolled`).toBe(true);
    }
    expect(await page.locator('#ready-line').getAttribute('role')).toBe('status');
    expect(await page.getByRole('status').filter({ hasText: 'Pronto para vender' }).count()).toBe(1);

    await page.click('#language');
    expect(await line(page)).toBe('Ready to sell (training)');
    await page.click('#language');
    expect(await line(page)).toBe('Pronto para vender (treinamento)');
    expect(errors).toEqual([]);
  });

  it('says exactly what is missing as it goes and comes back, without moving the focus', async () => {
    const { page, errors } = await open(rig.server.uiUrl(OPERATOR_KEY));
    await page.click('#nav-payment');
    await page.focus('#training-amount');

    // The payments service stops answering: no sale can be made.
    const attempt = { method: 'GET', path: '/v1/health', durationMs: 5, timeoutMs: 2_000 } as const;
    rig.apiHealth.record({ ...attempt, ok: false, status: null, code: 'connection_error', message: 'refused' });
    await expect.poll(() => line(page)).toBe('Sem conexão com o serviço de pagamentos');
    expect(await level(page)).toBe('bad');
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('training-amount');
    expect(await inView(page)).toBe(true);

    // Back: ready again.
    rig.apiHealth.record({ ...attempt, ok: true, status: 200, code: null, message: null });
    await expect.poll(() => line(page)).toBe('Pronto para vender (treinamento)');

    // The PINPAD's cable is pulled.
    rig.pinpads[0]!.unplug();
    await expect.poll(() => line(page)).toBe('PINPAD desconectado');
    expect(await level(page)).toBe('bad');
    expect(await page.locator('#ready-line').getAttribute('data-missing')).toBe('pinpad');
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('training-amount');

    // Another PINPAD is plugged in: ready.
    await rig.addPinpad('POS0000000000002');
    await expect.poll(() => line(page)).toBe('Pronto para vender (treinamento)');
    expect(errors).toEqual([]);
  });

  it('says the connection to Pinbridge is lost when the agent stops answering, on any page', async () => {
    const doomed = await posRig();
    const { page } = await open(doomed.server.uiUrl(OPERATOR_KEY));
    await page.click('#nav-transactions');
    await expect.poll(() => line(page)).toBe('Pronto para vender (treinamento)');
    await doomed.close();
    await expect.poll(() => line(page), { timeout: 15_000 }).toBe('Sem conexão com o Pinbridge — reconectando…');
    expect(await level(page)).toBe('bad');
    expect(await inView(page)).toBe(true);
  });
});

describe('a printer out of reach', () => {
  it('reads "Desconectada" within seconds of start, and the status line says the sales go on while receipts queue', async () => {
    const rig = await posRig({ printerAddress: `tcp://127.0.0.1:${CLOSED_PORT}` });
    try {
      const started = Date.now();
      const { page, errors } = await open(rig.server.uiUrl(OPERATOR_KEY));
      const printer = page.locator('#status-printers [data-printer="default"]');
      await expect.poll(() => printer.locator('.state-line').innerText(), { timeout: 5_000 }).toBe('Desconectada');
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await line(page)).toBe('Impressora desconectada — as vendas seguem, o comprovante fica na fila');
      expect(await level(page)).toBe('warn');
      expect(await printer.innerText()).toContain('Impressora de rede');
      expect(await printer.innerText()).not.toContain('tcp://');
      expect(errors).toEqual([]);
    } finally {
      await rig.close();
    }
  });
});

describe('the words a cashier reads', () => {
  let agent: Agent;
  let home: string;
  beforeAll(async () => {
    home = mkdtempSync(join(artifactsDir(), 'ready-line-'));
    mkdirSync(join(home, '.pinbridge'));
    // No printer in the settings: training prints into a folder of PDFs beside its journal.
    writeFileSync(defaultSettingsPath(home), JSON.stringify({ pinpad: { address: 'sim' } }));
    agent = await Agent.start({
      settings: loadSettings(undefined, home),
      api: {},
      pinpadAddress: 'sim',
      home,
      posPorts: [0],
      logger: createLogger({ level: 'silent' }),
    });
    await agent.ready;
  });
  afterAll(async () => agent?.stop());

  it('shows no path, address or "Porta sim" on Situação, Pagamento, Vendas and Caixas; Suporte gives the address under words', async () => {
    const { page, errors } = await open(agent.pos.uiUrl(agent.operatorKey));
    await page.locator('#status-printers .state-line').waitFor();
    const technical = /file:\/\/|\/tmp\/|\.pinbridge|settings\.json|\bPorta\b|tcp:\/\/|\bsim\b/;
    for (const route of CASHIER_PAGES) {
      await page.click(`#nav-${route}`);
      await page.locator(`#page-${route}`).waitFor();
      await page.waitForTimeout(300);
      const shown = await page.locator('#app').innerText();
      expect(shown, route).not.toMatch(technical);
    }
    await page.click('#nav-status');
    // Read once shown: innerText of a hidden page is its bare text, without the breaks a cashier sees.
    await page.locator('#status-pinpads').waitFor({ state: 'visible' });
    expect(await page.locator('#status-pinpads').innerText()).toMatch(/Conexão\s+PINPAD simulado/);
    expect(await page.locator('#status-printers').innerText()).toMatch(
      /Impressora de comprovantes\s+Pronta\s+Impressora de treino \(arquivos, sem papel\)/,
    );

    await page.click('#nav-support');
    const about = page.locator('#support-about');
    await about.waitFor({ state: 'visible' });
    expect(await about.innerText()).toMatch(/PINPAD\s+PINPAD simulado\s+Endereço técnico: sim/);
    expect(await about.innerText()).toMatch(
      /Impressora\s+Impressora de treino \(arquivos, sem papel\)\s+Endereço técnico: file:\/\/\/.*\/training\/receipts\//,
    );

    // Configurações: the words first, the file's path after them.
    await page.click('#nav-settings');
    await expect.poll(() => page.locator('#settings-path').innerText()).toMatch(/^Arquivo: \/.*settings\.json$/);
    expect(errors).toEqual([]);
  });

  it('labels the language switch "Idioma" beside both languages\' names, each in its own language, the one in use marked', async () => {
    const { page, errors } = await open(agent.pos.uiUrl(agent.operatorKey));
    const toggle = page.locator('#language');
    expect(await toggle.innerText()).toMatch(/^Idioma\s+Português\s*(·\s*)?English$/);
    // Its name is what it shows, the label in the window's language.
    expect(await page.getByRole('button', { name: /^Idioma Português English$/ }).count()).toBe(1);
    expect(await page.locator('#language [lang="en"]').innerText()).toBe('English');
    expect(await page.locator('#language .language-name[data-current="true"]').innerText()).toBe('Português');
    await toggle.click();
    expect(await page.locator('#language .language-name[data-current="true"]').innerText()).toBe('English');
    expect(await page.getByRole('button', { name: /^Language Português English$/ }).count()).toBe(1);
    await toggle.click();
    expect(errors).toEqual([]);
  });
});
