/**
 * Applying saved settings from the window, in real Chromium against the agent as `pinbridge start`
 * runs it (AgentRunner: training mode, its own home): after a save the page offers the restart; a
 * confirmation; the agent restarts at the same address; the window reconnects by itself, says the
 * new settings are in use and shows them. Settings the agent could not start with are said to be
 * not in use, with the reason. While the PINPAD waits for the customer the restart is refused with
 * the reason, and nothing restarts.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent, type AgentOptions } from '../../main/agent/agent.js';
import { AgentRunner } from '../../main/agent/agent-runner.js';
import { loadSettings } from '../../main/settings/settings-file.js';
import { createLogger } from '../../main/log.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';
import { openSocket, RpcClient } from '../main/pos/pos-rig.js';
import { FOCUSED, text } from './keyboard.js';

const SHOTS = join(artifactsDir(), 'window');
let browser: Browser;
const runners: AgentRunner[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
});
afterEach(async () => {
  for (const runner of runners.splice(0)) await runner.stop();
});
afterAll(async () => {
  await browser?.close();
});

async function startRunner(start?: (options: AgentOptions) => Promise<Agent>): Promise<AgentRunner> {
  const home = mkdtempSync(join(artifactsDir(), 'window-restart-'));
  const logger = createLogger({ level: 'info', file: join(home, 'agent.log') });
  const runner = await AgentRunner.start({
    build: () => ({
      settings: loadSettings(undefined, home),
      api: {},
      pinpadAddress: 'sim',
      home,
      posPorts: [0],
      logger,
    }),
    logger,
    ...(start === undefined ? {} : { start }),
  });
  runners.push(runner);
  await runner.agent.ready;
  return runner;
}

/**
 * The window on the settings page. Errors of the page count; the browser's own console line for a
 * WebSocket that cannot connect while the agent restarts does not (the page reconnects by design).
 */
async function openSettings(agent: Agent): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/WebSocket connection to .* failed/.test(message.text()))
      errors.push(message.text());
  });
  await page.goto(agent.pos.uiUrl(agent.operatorKey));
  await expect.poll(() => page.locator('body').getAttribute('data-connection')).toBe('ready');
  await page.click('#nav-settings');
  await page.locator('#settings-form').waitFor({ state: 'visible' });
  return { page, errors };
}

const restartState = (page: Page): Promise<string | null> =>
  page.locator('#settings-restart-status').getAttribute('data-state');

describe('applying saved settings from the window', () => {
  it('offers the restart after a save, asks first, and comes back by itself with the new settings in use', async () => {
    const runner = await startRunner();
    const first = runner.agent;
    const { page, errors } = await openSettings(first);
    expect(await page.isVisible('#settings-restart')).toBe(false);

    await page.getByLabel('Nome da loja').fill('Padaria Pão Quente');
    await page.getByLabel('CNPJ', { exact: true }).fill('11.222.333/0001-81');
    await page.click('#settings-save');
    await expect.poll(() => text(page, '#settings-message')).toContain('Configurações salvas');
    expect(await page.isVisible('#settings-restart')).toBe(true);
    expect(await text(page, '#settings-restart')).toContain('As mudanças valem quando o Pinbridge reiniciar.');

    // "Voltar" first: nothing restarts.
    await page.getByRole('button', { name: 'Reiniciar o Pinbridge agora' }).click();
    expect(await text(page, '#confirm-title')).toBe('Reiniciar o Pinbridge?');
    expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-no');
    await page.click('#confirm-no');
    expect(runner.agent).toBe(first);
    expect(await restartState(page)).toBe('idle');

    await page.getByRole('button', { name: 'Reiniciar o Pinbridge agora' }).click();
    await page.getByRole('button', { name: 'Sim, reiniciar' }).click();
    await expect.poll(() => restartState(page), { timeout: 20_000 }).toBe('restarted');
    expect(runner.agent).not.toBe(first);
    expect(runner.agent.pos.port).toBe(first.pos.port);
    expect(await page.locator('body').getAttribute('data-connection')).toBe('ready');
    expect(await text(page, '#settings-restart-status')).toBe(
      'Pinbridge reiniciado: as novas configurações estão em uso.',
    );
    expect(await page.isVisible('#settings-restart-now')).toBe(false);
    expect(await page.isVisible('#settings-restart-text')).toBe(false);
    expect(await text(page, '#settings-message')).toBe('');
    expect(await page.evaluate<string>(FOCUSED)).toBe('settings-restart-title');
    expect(await page.inputValue('#settings-merchant-name')).toBe('Padaria Pão Quente');
    await page.locator('#settings-restart').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'settings-restarted-1280x800.png') });
    expect(errors).toEqual([]);
  }, 60_000);

  it('says so, with the reason, when the agent could not start with the saved settings and went back to the previous ones', async () => {
    // A start that fails with this store (as a port taken or a journal locked would).
    const runner = await startRunner((options) =>
      options.settings.receipts?.merchant.name === 'Loja Quebrada'
        ? Promise.reject(new Error('the printer port is taken'))
        : Agent.start(options),
    );
    const first = runner.agent;
    const { page, errors } = await openSettings(first);
    await page.getByLabel('Nome da loja').fill('Loja Quebrada');
    await page.getByLabel('CNPJ', { exact: true }).fill('11.222.333/0001-81');
    await page.click('#settings-save');
    await expect.poll(() => text(page, '#settings-message')).toContain('Configurações salvas');

    await page.getByRole('button', { name: 'Reiniciar o Pinbridge agora' }).click();
    await page.getByRole('button', { name: 'Sim, reiniciar' }).click();
    await expect.poll(() => restartState(page), { timeout: 20_000 }).toBe('notApplied');
    expect(runner.agent).not.toBe(first);
    expect(await text(page, '#settings-restart-status')).toBe(
      'O Pinbridge reiniciou, mas não conseguiu usar as configurações salvas e voltou às anteriores. Motivo: the printer port is taken',
    );
    // The saved file is still what the page shows, to fix and restart again.
    expect(await page.inputValue('#settings-merchant-name')).toBe('Loja Quebrada');
    expect(await page.isEnabled('#settings-restart-now')).toBe(true);
    expect(errors).toEqual([]);
  }, 60_000);

  it('is refused while the PINPAD waits for the customer, with the reason, and nothing restarts', async () => {
    const runner = await startRunner();
    const agent = runner.agent;
    const { page, errors } = await openSettings(agent);
    await page.getByLabel('Nome da loja').fill('Mercado Central');
    await page.getByLabel('CNPJ', { exact: true }).fill('11.222.333/0001-81');
    await page.click('#settings-save');
    await expect.poll(() => text(page, '#settings-message')).toContain('Configurações salvas');

    // A POS-side prompt on the PINPAD (through a program on this computer logged in as the window).
    const program = new RpcClient(await openSocket(agent.pos.url));
    await program.call('session.operator', { key: agent.operatorKey });
    const prompt = program.call('pinpad.readKey', { prompt: 'APERTE ENTRA', timeout_s: 10 }).catch(() => undefined);
    await expect.poll(() => agent.pinpads.list().some((pinpad) => pinpad.busy)).toBe(true);

    await page.getByRole('button', { name: 'Reiniciar o Pinbridge agora' }).click();
    await page.getByRole('button', { name: 'Sim, reiniciar' }).click();
    await expect.poll(() => restartState(page)).toBe('refused');
    expect(await text(page, '#settings-restart-status')).toBe(
      'O PINPAD está com uma venda ou pergunta em andamento: reinicie quando ela terminar.',
    );
    expect(runner.agent).toBe(agent);
    expect(await page.isEnabled('#settings-restart-now')).toBe(true);

    // In English too, from the same refusal.
    await page.click('#language');
    await expect
      .poll(() => text(page, '#settings-restart-status'))
      .toBe('The PINPAD is running a sale or a prompt: restart once it ends.');
    await prompt;
    program.socket.terminate();
    expect(errors).toEqual([]);
  }, 60_000);
});
