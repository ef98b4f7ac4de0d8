/**
 * The chain's signed settings in the window, in real Chromium at 800×480 against an agent that
 * follows them as `pinbridge start` runs it (training mode, its own home, the document served over
 * HTTPS on 127.0.0.1): the settings page says which version runs and from where; a field the
 * document sets shows the document's value, locked, with a note in Portuguese saying so; a field
 * it does not set stays editable, and saving the page keeps the file's own value of the locked one.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentRunner } from '../../main/agent/agent-runner.js';
import { startWithRemoteSettings } from '../../main/agent/remote-follow.js';
import { createLogger } from '../../main/log.js';
import { remoteSettingsKeyPath } from '../../main/paths.js';
import { pinKey } from '../../main/remote-settings/keys.js';
import { RemoteSettings } from '../../main/remote-settings/remote-settings.js';
import { defaultSettingsPath } from '../../main/settings/settings-file.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';
import {
  generateKeyPair,
  signedDocument,
  startSettingsServer,
  type SettingsServer,
} from '../helpers/remote-settings.js';

const SHOTS = join(artifactsDir(), 'window');
let browser: Browser;
let server: SettingsServer;
let runner: AgentRunner;
let remote: RemoteSettings;
let home: string;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  home = mkdtempSync(join(artifactsDir(), 'window-remote-'));
  server = await startSettingsServer();
  const keys = generateKeyPair();
  pinKey(remoteSettingsKeyPath(home), keys.publicKey);
  mkdirSync(dirname(defaultSettingsPath(home)), { recursive: true });
  writeFileSync(
    defaultSettingsPath(home),
    JSON.stringify({
      confirmation: 'auto',
      fleet: { chain: 'rede-sul', store: 'loja-7' },
      remote_settings: {
        url: `${server.url}/{chain}/{store}.json`,
        ca: server.caFile,
      },
    }),
  );
  server.serve(
    signedDocument(keys, {
      version: 12,
      settings: { confirmation: 'pos', printers: { default: { address: 'tcp://127.0.0.1:9100' } } },
    }),
  );
  const logger = createLogger({ level: 'info', file: join(home, 'agent.log') });
  remote = new RemoteSettings({ home, logger });
  [runner, browser] = await Promise.all([
    startWithRemoteSettings({
      remote,
      settingsPath: undefined,
      build: (settings) => ({ settings, api: {}, pinpadAddress: 'sim', home, posPorts: [0], logger }),
      logger,
      firstCheckMs: 20,
      intervalMs: 60_000,
      idlePollMs: 20,
    }),
    launchChromium(),
  ]);
  // The document applied by itself (a restart at the first idle moment) before the window opens.
  for (let waited = 0; remote.store.state.current?.version !== 12; waited += 50) {
    if (waited > 20_000) throw new Error('version 12 did not apply');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await runner.agent.ready;
});

afterAll(async () => {
  await browser?.close();
  remote?.stop();
  await runner?.stop();
  await server?.close();
});

describe("the chain's settings in the window", () => {
  it('shows the version running, and the fields it sets locked with a note in Portuguese', async () => {
    const agent = runner.agent;
    const context = await browser.newContext({ viewport: { width: 800, height: 480 } });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(agent.pos.uiUrl(agent.operatorKey));
      await expect.poll(() => page.locator('body').getAttribute('data-connection'), { timeout: 10_000 }).toBe('ready');
      await page.click('#nav-settings');
      await page.locator('#settings-form').waitFor({ state: 'visible', timeout: 10_000 });

      const summary = page.locator('#settings-remote');
      await expect.poll(() => summary.innerText()).toContain('Configuração da rede em uso: versão 12');
      expect(await summary.innerText()).toContain(`${server.url}/rede-sul/loja-7.json`);

      // The printer's address: the document's value, locked, with the note read as its description.
      const printer = page.locator('#settings-printer-address');
      expect(await printer.inputValue()).toBe('tcp://127.0.0.1:9100');
      expect(await printer.isDisabled()).toBe(true);
      const note = page.locator('#settings-printer-address-governed');
      expect(await note.innerText()).toBe(
        'Definido pela configuração da rede (versão 12): não pode ser alterado aqui.',
      );
      expect(await note.isVisible()).toBe(true);
      expect(await printer.getAttribute('aria-describedby')).toContain('settings-printer-address-governed');
      // The confirmation policy: the document's choice checked, every option locked.
      expect(await page.locator('#settings-confirmation input[value="pos"]').isChecked()).toBe(true);
      expect(await page.locator('#settings-confirmation input[value="auto"]').isDisabled()).toBe(true);
      expect(await page.locator('#settings-confirmation-governed').innerText()).toContain('versão 12');
      // A field the document does not set stays the cashier's.
      expect(await page.locator('#settings-merchant-name').isDisabled()).toBe(false);
      expect(await page.locator('#settings-merchant-name-governed').count()).toBe(0);
      await note.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, 'settings-remote-800x480.png') });

      // Saving the page leaves the file's own values of the locked fields as they were.
      await page.click('#settings-save');
      await expect.poll(() => page.locator('#settings-message').innerText()).toContain('Configurações salvas');
      const file = JSON.parse(readFileSync(defaultSettingsPath(home), 'utf8')) as Record<string, unknown>;
      expect(file.confirmation).toBe('auto');
      expect(file).not.toHaveProperty('printers');
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
