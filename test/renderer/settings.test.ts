/**
 * The window's settings and support pages, whole and real: the page and its compiled scripts
 * served by a real agent (training mode, its own home folder, its log in a file), in real
 * Chromium. The cashier reads the settings with no file yet, fills and saves them (the file then
 * has them, and keeps a key the page does not edit), is told next to the field what the agent
 * refused (the file untouched, nothing typed lost), stores the API token without ever seeing it
 * again, searches for PINPAD ports and for Bluetooth LE PINPADs (noble over fake bindings: there
 * is no Bluetooth hardware here) and puts the one chosen in the PINPAD field, lists the operating
 * system's printers (a fake list: the machine running the tests may have none) and puts the one
 * chosen in the printer field as lp://NAME, and prints a test page (on a folder printer: each job a file) followed until it is printed; an agent started
 * despite a bad file shows the mistake on top. On the support page: the version and mode, the diagnostics with each check and its fix in the window's language,
 * the logs as a download. Every control is reachable by Tab, named, and at least 44 px tall;
 * screenshots at 1280×800 and 1024×600 go to the artifacts folder.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../main/agent/agent.js';
import { apiTokenPath, certificatePassphrasePath, supervisorPinPath } from '../../main/paths.js';
import { defaultSettingsPath, loadSettings, parseSettings } from '../../main/settings/settings-file.js';
import { SettingsError } from '../../main/core/settings.js';
import { settingsViolation } from '../../main/core/settings-violations.js';
import { headlessTokenStore } from '../../main/agent/token-store.js';
import { englishWordsIn } from '../helpers/english-words.js';
import { createLogger } from '../../main/log.js';
import { CHECK_IDS } from '../../main/doctor/check.js';
import { PACKAGE_ROOT, VERSION } from '../../main/version.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';
import { attributes, CONTROLS, controlsUnder44px, FOCUSED, tabAround, text, UNLABELLED } from './keyboard.js';
import { PINPAD, setup } from '../helpers/noble-double.js';
import type { SystemPrinter } from '../../drivers/printers/system-printers.js';

const SHOTS = join(artifactsDir(), 'window');
const VIEWPORTS = { large: { width: 1280, height: 800 }, small: { width: 1024, height: 600 } } as const;
const TOKEN = 'zpk_test_window_0123456789';

let home: string;
let agent: Agent;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** The Bluetooth adapter of the agent's machine, as noble reports it: a spec switches it off. */
let bluetooth: 'poweredOn' | 'poweredOff' = 'poweredOn';
/** The operating system's printers, as the agent's machine lists them: a spec empties the list. */
const RECEIPT_PRINTERS: readonly SystemPrinter[] = [
  { name: 'Recibos_80mm', isDefault: true },
  { name: 'Escritorio', isDefault: false },
];
let systemPrinters: readonly SystemPrinter[] = RECEIPT_PRINTERS;
// The token must come from the page, not from the environment of whoever runs the tests.
const tokenFromEnvironment = process.env.PINBRIDGE_API_TOKEN;

beforeAll(async () => {
  for (const built of [
    ['dist', 'renderer', 'settings-page.js'],
    ['dist', 'renderer', 'support-page.js'],
    ['dist', 'client', 'index.js'],
  ]) {
    if (!existsSync(join(PACKAGE_ROOT, ...built)))
      throw new Error(`${built.join('/')} is missing: run \`npm run build\` first`);
  }
  mkdirSync(SHOTS, { recursive: true });
  delete process.env.PINBRIDGE_API_TOKEN;
  home = mkdtempSync(join(artifactsDir(), 'window-settings-'));
  const logFile = join(home, 'agent.log');
  [agent, browser] = await Promise.all([
    Agent.start({
      settings: loadSettings(undefined, home),
      api: {},
      pinpadAddress: 'sim',
      home,
      posPorts: [0],
      logger: createLogger({ level: 'info', file: logFile }),
      logFile,
      // A radio that hears one BLE PINPAD (noble's own core over fake bindings), asked anew on each scan.
      noble: () => setup([{ ...PINPAD }], bluetooth).noble,
      // Asked anew on each search, as lpstat (or Chromium, in the desktop app) would be.
      listSystemPrinters: () => Promise.resolve(systemPrinters),
    }),
    launchChromium(),
  ]);
  await agent.ready;
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await agent?.stop();
  if (tokenFromEnvironment !== undefined) process.env.PINBRIDGE_API_TOKEN = tokenFromEnvironment;
});

interface OpenWindow {
  readonly page: Page;
  /** Page errors and console errors: none is expected anywhere. */
  readonly errors: string[];
}

/** A fresh browser profile on the agent's window, logged in, on `route`. */
async function openWindow(
  route: 'settings' | 'support',
  options: { of?: Agent; viewport?: { width: number; height: number } } = {},
): Promise<OpenWindow> {
  const of = options.of ?? agent;
  const context = await browser.newContext({ viewport: options.viewport ?? VIEWPORTS.large });
  contexts.push(context);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${of.pos.port}` });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(of.pos.uiUrl(of.operatorKey));
  await expect.poll(() => page.locator('body').getAttribute('data-connection'), { timeout: 10_000 }).toBe('ready');
  await page.click(`#nav-${route}`);
  await page.locator(`#page-${route}`).waitFor({ state: 'visible' });
  if (route === 'settings') await page.locator('#settings-form').waitFor({ state: 'visible', timeout: 10_000 });
  return { page, errors };
}

const settingsFile = (): string => defaultSettingsPath(home);

/** The settings check's summary for the agent's settings file as it is now (earlier specs may have saved one), in Portuguese and in English. */
function settingsSummaryPt(): string {
  const saved = loadSettings(undefined, home);
  return saved.path === null
    ? `Nenhum arquivo de configurações (${settingsFile()}): valem as configurações padrão`
    : `Configurações carregadas de ${saved.path} (${Object.keys(saved.printers).length} impressora(s), comprovantes ${saved.receipts === null ? 'sem' : 'com'} o nome e o CNPJ da loja)`;
}
function settingsSummaryEn(): string {
  const saved = loadSettings(undefined, home);
  return saved.path === null
    ? `No settings file (${settingsFile()}): the defaults apply`
    : `Settings loaded from ${saved.path} (${Object.keys(saved.printers).length} printer(s), receipts ${saved.receipts === null ? 'without' : 'with'} the store's name and CNPJ)`;
}
/** The settings file's text, or null while there is none. */
const settingsText = (): string | null => (existsSync(settingsFile()) ? readFileSync(settingsFile(), 'utf8') : null);

/** Scrolls the card with this title to the middle of the window (clear of the banner on top and the save bar below), for a screenshot. */
async function showCard(page: Page, title: string): Promise<void> {
  await page.evaluate(
    `document.querySelector(${JSON.stringify(title)}).closest('section').scrollIntoView({ block: 'center' })`,
  );
}

describe('the settings page', () => {
  it('with no settings file yet: says so, shows the defaults, no token, no mistake, and links to the paired POS', async () => {
    const { page, errors } = await openWindow('settings');

    expect(await text(page, '#settings-path')).toMatch(/^Ainda não há arquivo de configurações: /);
    expect(await text(page, '#settings-path')).toContain(`Arquivo: ${settingsFile()}`);
    expect(await page.isVisible('#settings-problem')).toBe(false);
    for (const id of [
      'settings-api-base-url',
      'settings-api-marketplace-id',
      'settings-api-seller-id',
      'settings-pinpad-address',
      'settings-merchant-name',
      'settings-merchant-cnpj',
      'settings-printer-address',
    ]) {
      expect(await page.inputValue(`#${id}`), id).toBe('');
    }
    // No key in the file is the default policy: "auto".
    expect(await page.getByRole('radio', { name: /^Automática/ }).isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: 'Modo de treinamento' }).isChecked()).toBe(false);
    // Off in the file, yet the agent trains (no payments service set up): said beside the switch.
    expect(await text(page, '#settings-training-now')).toBe(
      'O Pinbridge está em treinamento agora, mesmo com esta chave desligada: o serviço de pagamentos ainda não foi configurado (seção “Serviço de pagamentos”, acima), ou ele foi iniciado com --training.',
    );
    expect(await text(page, '#settings-token-status')).toBe('Nenhum token guardado.');

    await page.getByRole('link', { name: 'Abrir Caixas (PDV)' }).click();
    await page.locator('#page-clients').waitFor({ state: 'visible' });
    expect(page.url()).toMatch(/#\/clients$/);
    expect(existsSync(settingsFile())).toBe(false);
    expect(errors).toEqual([]);
  });

  it('saves what the cashier filled in, keeping the keys it does not edit, to apply at the next start', async () => {
    // Written by hand before: a section the page does not show, and a key beside the store it does.
    mkdirSync(join(home, '.pinbridge'), { recursive: true });
    writeFileSync(
      settingsFile(),
      JSON.stringify({ timeouts: { api_ms: 9000 }, receipts: { auto_print: ['customer'] } }, null, 2),
    );
    const { page, errors } = await openWindow('settings');
    expect(await text(page, '#settings-path')).toBe(`Arquivo: ${settingsFile()}`);
    const receiptsFolder = `file://${join(home, 'receipts')}/`;

    await page.getByLabel('Endereço do serviço (URL)').fill('https://api.example.com');
    await page.getByLabel('ID do marketplace').fill('3249465a7753536b62545a6a684b7a6b');
    await page.getByLabel('ID do vendedor (seller)').fill('c14b6ed4c57a4a1a9f1e0d1bd7a1f2c9');
    await page.getByLabel('Endereço do PINPAD').fill('tcp://192.168.0.20:4000');
    await page.getByRole('radio', { name: /^Pelo caixa \(PDV\)/ }).check();
    await page.getByRole('switch', { name: 'Modo de treinamento' }).check();
    await page.getByLabel('Nome da loja').fill('Padaria Pão Quente');
    // Typed the way it is printed: the file gets the 14 digits.
    await page.getByLabel('CNPJ', { exact: true }).fill('11.222.333/0001-81');
    await page.getByLabel('Endereço, linha 1').fill('Rua das Flores, 10');
    await page.getByLabel('Endereço, linha 2').fill('São Paulo/SP');
    await page.getByLabel('Endereço da impressora padrão').fill(receiptsFolder);
    await page.click('#settings-save');

    await expect
      .poll(() => text(page, '#settings-message'), { timeout: 10_000 })
      .toBe('Configurações salvas. As mudanças valem quando o Pinbridge for reiniciado.');
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toEqual({
      timeouts: { api_ms: 9000 },
      api: {
        base_url: 'https://api.example.com',
        marketplace_id: '3249465a7753536b62545a6a684b7a6b',
        seller_id: 'c14b6ed4c57a4a1a9f1e0d1bd7a1f2c9',
      },
      pinpad: { address: 'tcp://192.168.0.20:4000' },
      confirmation: 'pos',
      training: true,
      receipts: {
        auto_print: ['customer'],
        merchant: {
          name: 'Padaria Pão Quente',
          cnpj: '11222333000181',
          address: ['Rua das Flores, 10', 'São Paulo/SP'],
        },
      },
      printers: { default: { address: receiptsFolder } },
    });

    // Read back in a new window: the form shows the file.
    const again = await openWindow('settings');
    expect(await again.page.inputValue('#settings-merchant-cnpj')).toBe('11222333000181');
    expect(await again.page.inputValue('#settings-merchant-address-1')).toBe('São Paulo/SP');
    expect(await again.page.getByRole('radio', { name: /^Pelo caixa \(PDV\)/ }).isChecked()).toBe(true);
    expect(await again.page.getByRole('switch', { name: 'Modo de treinamento' }).isChecked()).toBe(true);

    // A field emptied leaves its section out (the printer was the only key of "printers").
    await again.page.getByLabel('Endereço da impressora padrão').fill('');
    await again.page.click('#settings-save');
    await expect
      .poll(() => text(again.page, '#settings-message'), { timeout: 10_000 })
      .toContain('Configurações salvas');
    const saved = JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;
    expect(saved.printers).toBeUndefined();
    expect(saved.timeouts).toEqual({ api_ms: 9000 });
    expect(errors).toEqual([]);
    expect(again.errors).toEqual([]);
  });

  it('shows each mistake the agent refuses next to its field, keeps what was typed, and leaves the file as it was', async () => {
    const before = readFileSync(settingsFile(), 'utf8');
    const { page, errors } = await openWindow('settings');

    await page.getByLabel('Endereço do serviço (URL)').fill('ftp://x');
    await page.getByLabel('ID do vendedor (seller)').fill('');
    await page.getByLabel('Nome da loja').fill('Outra Loja');
    await page.click('#settings-save');

    await expect
      .poll(() => text(page, '#settings-api-base-url-error'), { timeout: 10_000 })
      .toBe('Use um endereço que comece com https:// (ou http://), sem espaços.');
    expect(await text(page, '#settings-api-seller-id-error')).toBe('Preencha este campo.');
    expect(await page.getAttribute('#settings-api-base-url', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#settings-api-seller-id', 'aria-invalid')).toBe('true');
    expect(await page.getAttribute('#settings-merchant-name', 'aria-invalid')).toBeNull();
    // The error is part of the field's description: a screen reader says it on the field.
    expect(
      await page.getByRole('textbox', { name: 'Endereço do serviço (URL)' }).getAttribute('aria-describedby'),
    ).toContain('settings-api-base-url-error');
    expect(await page.evaluate<string>(FOCUSED)).toBe('settings-api-base-url');
    expect(await text(page, '#settings-error')).toBe('Nada foi salvo: corrija os 2 problemas marcados.');
    expect(await page.inputValue('#settings-api-base-url')).toBe('ftp://x');
    expect(await page.inputValue('#settings-merchant-name')).toBe('Outra Loja');
    expect(readFileSync(settingsFile(), 'utf8')).toBe(before);
    await page.screenshot({ path: join(SHOTS, 'settings-mistakes-1280x800.png') });

    // Fixed, it saves, and the marks go.
    await page.getByLabel('Endereço do serviço (URL)').fill('https://api2.example.com');
    await page.getByLabel('ID do vendedor (seller)').fill('c14b6ed4c57a4a1a9f1e0d1bd7a1f2c9');
    await page.click('#settings-save');
    await expect.poll(() => text(page, '#settings-message'), { timeout: 10_000 }).toContain('Configurações salvas');
    expect(await page.isVisible('#settings-api-base-url-error')).toBe(false);
    expect(await page.getAttribute('#settings-api-base-url', 'aria-invalid')).toBeNull();
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toMatchObject({
      api: { base_url: 'https://api2.example.com' },
      receipts: { merchant: { name: 'Outra Loja' } },
    });
    expect(errors).toEqual([]);
  });

  it("takes the store's alphanumeric CNPJ typed as printed, in lowercase too, and says next to the field when its check digits do not match", async () => {
    const before = readFileSync(settingsFile(), 'utf8');
    const { page, errors } = await openWindow('settings');
    const cnpj = page.getByLabel('CNPJ', { exact: true });
    expect(await cnpj.getAttribute('inputmode')).toBe('text');

    await cnpj.fill('12.abc.345/01de-36');
    await page.click('#settings-save');
    await expect
      .poll(() => text(page, '#settings-merchant-cnpj-error'), { timeout: 10_000 })
      .toBe('Os dígitos verificadores não conferem: confira o CNPJ.');
    expect(await page.getAttribute('#settings-merchant-cnpj', 'aria-invalid')).toBe('true');
    expect(await page.inputValue('#settings-merchant-cnpj')).toBe('12.abc.345/01de-36');
    expect(readFileSync(settingsFile(), 'utf8')).toBe(before);

    await cnpj.fill('12ABC34501DE3');
    await page.click('#settings-save');
    await expect
      .poll(() => text(page, '#settings-merchant-cnpj-error'), { timeout: 10_000 })
      .toBe(
        'O CNPJ tem 14 caracteres: 12 números ou letras e 2 dígitos verificadores (como 11.222.333/0001-81 ou 12.ABC.345/01DE-35).',
      );

    await cnpj.fill('12.abc.345/01de-35');
    await page.click('#settings-save');
    await expect.poll(() => text(page, '#settings-message'), { timeout: 10_000 }).toContain('Configurações salvas');
    expect(await page.isVisible('#settings-merchant-cnpj-error')).toBe(false);
    expect(JSON.parse(readFileSync(settingsFile(), 'utf8'))).toMatchObject({
      receipts: { merchant: { cnpj: '12ABC34501DE35' } },
    });
    const again = await openWindow('settings');
    expect(await again.page.inputValue('#settings-merchant-cnpj')).toBe('12ABC34501DE35');
    expect(errors).toEqual([]);
    expect(again.errors).toEqual([]);
    // The file as the other specs left it.
    writeFileSync(settingsFile(), before);
  });

  it('refuses a mistyped PINPAD address with the same check as the command line, said in Portuguese next to the field, and saves nothing', async () => {
    const onDisk = (): string | null => (existsSync(settingsFile()) ? readFileSync(settingsFile(), 'utf8') : null);
    const before = onDisk();
    const { page, errors } = await openWindow('settings');
    for (const typed of ['pinpad da loja', 'COM', 'tcp://10.0.0.5']) {
      await page.getByLabel('Endereço do PINPAD').fill(typed);
      await page.click('#settings-save');
      // The agent's Portuguese for the rule (INVALID_PINPAD_ADDRESS), naming what was typed and why it is not an address.
      await expect
        .poll(() => text(page, '#settings-pinpad-address-error'), { timeout: 10_000 })
        .toMatch(
          new RegExp(
            `^O endereço do PINPAD “${typed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}” não é válido \\(.+\\)\\. Use uma porta serial \\(/dev/ttyACM0, COM3\\), tcp://host:porta, ble:<id> ou sim\\.$`,
          ),
        );
      expect(englishWordsIn(await text(page, '#settings-pinpad-address-error')), typed).toEqual([]);
      expect(await page.getAttribute('#settings-pinpad-address', 'aria-invalid'), typed).toBe('true');
      expect(onDisk(), typed).toBe(before);
    }
    expect(errors).toEqual([]);
  });

  it('stores the API token from its own field, says it is kept, and never shows it', async () => {
    const before = readFileSync(settingsFile(), 'utf8');
    const { page, errors } = await openWindow('settings');
    const field = page.getByLabel('Token do serviço de pagamentos');
    expect(await field.getAttribute('type')).toBe('password');

    await field.fill('curto');
    await field.press('Enter');
    expect(await text(page, '#settings-token-error')).toBe('O token tem pelo menos 8 caracteres.');
    expect(existsSync(apiTokenPath(home))).toBe(false);

    // Enter in the token field stores the token, and only the token: the settings file is not saved.
    await field.fill(TOKEN);
    await field.press('Enter');
    await expect
      .poll(() => text(page, '#settings-token-status'), { timeout: 10_000 })
      .toBe(
        'Token guardado em um arquivo privado deste computador. O novo token vale quando o Pinbridge for reiniciado.',
      );
    expect(readFileSync(apiTokenPath(home), 'utf8').trim()).toBe(TOKEN);
    expect(await field.inputValue()).toBe('');
    expect(await page.isVisible('#settings-token-error')).toBe(false);
    expect(readFileSync(settingsFile(), 'utf8')).toBe(before);
    expect(await page.content()).not.toContain(TOKEN);

    // A new window says it is kept, and has no way to show it.
    const again = await openWindow('settings');
    expect(await text(again.page, '#settings-token-status')).toBe(
      'Token guardado em um arquivo privado deste computador.',
    );
    expect(await again.page.inputValue('#settings-api-token')).toBe('');
    expect(await again.page.content()).not.toContain(TOKEN);
    expect(errors).toEqual([]);
    expect(again.errors).toEqual([]);
  });

  it("stores the supervisor's PIN from its own field (never shown, never in the file) and saves when a void needs it", async () => {
    const { page, errors } = await openWindow('settings');
    const field = page.getByLabel('Senha do supervisor (4 a 8 números)');
    expect([
      await field.getAttribute('type'),
      await field.getAttribute('inputmode'),
      await field.getAttribute('autocomplete'),
    ]).toEqual(['password', 'numeric', 'off']);
    expect(await text(page, '#settings-supervisor-pin-status')).toBe('Nenhuma senha de supervisor cadastrada.');

    await field.fill('12');
    await field.press('Enter');
    expect(await text(page, '#settings-supervisor-pin-error')).toBe('A senha do supervisor deve ter de 4 a 8 números.');
    expect(existsSync(supervisorPinPath(home))).toBe(false);

    // Enter in the PIN's field stores the PIN, and only the PIN: the settings file is not saved.
    const before = settingsText();
    await field.fill('482193');
    await field.press('Enter');
    await expect
      .poll(() => text(page, '#settings-supervisor-pin-status'), { timeout: 10_000 })
      .toBe('Senha do supervisor cadastrada. Já está valendo.');
    expect(await field.inputValue()).toBe('');
    expect(readFileSync(supervisorPinPath(home), 'utf8')).not.toContain('482193');
    expect(settingsText()).toBe(before);
    expect(await page.content()).not.toContain('482193');

    // The policy is part of the settings file: from R$ 100,00, typed in the window or on the PINPAD.
    await page.getByRole('switch', { name: /^Pedir a senha do supervisor/ }).check();
    await page.getByLabel('Só para vendas a partir de (R$)').fill('100.5');
    await page.getByRole('radio', { name: /^Nos dois/ }).check();
    await page.click('#settings-save');
    await expect
      .poll(() => text(page, '#settings-supervisor-min-amount-error'), { timeout: 10_000 })
      .toBe('Valor inválido: escreva em reais, por exemplo 100,00 (em branco: todas as vendas).');
    expect(settingsText()).toBe(before);
    await page.getByLabel('Só para vendas a partir de (R$)').fill('100,00');
    await page.click('#settings-save');
    await expect.poll(() => text(page, '#settings-message'), { timeout: 10_000 }).toContain('Configurações salvas');
    const saved = JSON.parse(readFileSync(settingsFile(), 'utf8')) as Record<string, unknown>;
    expect(saved.supervisor).toEqual({ required_for: 'voids', min_amount_centavos: 10_000, entry: 'either' });
    expect(JSON.stringify(saved)).not.toContain('482193');

    // Read back in a new window: the policy as saved, the PIN only as "set".
    const again = await openWindow('settings');
    expect(await again.page.getByRole('switch', { name: /^Pedir a senha do supervisor/ }).isChecked()).toBe(true);
    expect(await again.page.inputValue('#settings-supervisor-min-amount')).toBe('100,00');
    expect(await again.page.getByRole('radio', { name: /^Nos dois/ }).isChecked()).toBe(true);
    expect(await text(again.page, '#settings-supervisor-pin-status')).toBe('Senha do supervisor cadastrada.');
    expect(await again.page.inputValue('#settings-supervisor-pin')).toBe('');
    await showCard(again.page, '#settings-supervisor-title');
    await again.page.screenshot({ path: join(SHOTS, 'settings-supervisor-1280x800.png') });
    expect(errors).toEqual([]);
    expect(again.errors).toEqual([]);
  });

  it('says when the supervisor PIN file was changed outside Pinbridge, and takes the PIN set again there as the way back', async () => {
    // The same OS user writes the hash of a PIN they know over the sealed file (its seal no longer fits).
    const file = supervisorPinPath(home);
    const sealed = JSON.parse(readFileSync(file, 'utf8')) as { pin: { hash: string } };
    writeFileSync(
      file,
      JSON.stringify({ ...sealed, pin: { ...sealed.pin, hash: Buffer.alloc(32, 7).toString('base64') } }),
    );
    const { page, errors } = await openWindow('settings');
    await expect
      .poll(() => text(page, '#settings-supervisor-pin-status'))
      .toBe(
        'O arquivo da senha do supervisor foi alterado fora do Pinbridge: por segurança, nenhuma senha é aceita. O supervisor deve cadastrar a senha de novo aqui.',
      );
    expect(await page.getAttribute('#settings-supervisor-pin-status', 'data-tampered')).toBe('true');
    const field = page.getByLabel('Senha do supervisor (4 a 8 números)');
    await field.fill('482193');
    await field.press('Enter');
    await expect
      .poll(() => text(page, '#settings-supervisor-pin-status'), { timeout: 10_000 })
      .toBe('Senha do supervisor cadastrada. Já está valendo.');
    const again = await openWindow('settings');
    expect(await text(again.page, '#settings-supervisor-pin-status')).toBe('Senha do supervisor cadastrada.');
    expect(errors).toEqual([]);
    expect(again.errors).toEqual([]);
  });

  it('searches for PINPAD ports and puts the one chosen in the PINPAD field', async () => {
    const { page, errors } = await openWindow('settings');
    await page.getByRole('button', { name: 'Procurar', exact: true }).click();

    const status = page.locator('#settings-ports-status');
    await expect
      .poll(() => status.innerText(), { timeout: 15_000 })
      .toMatch(/^(Nenhuma porta serial encontrada\.|1 porta serial encontrada:|\d+ portas seriais encontradas:)/);
    const ports = page.locator('#settings-ports li');
    const found = await ports.count();
    expect(await status.innerText()).toContain(found === 0 ? 'tcp://endereço:porta' : 'encontrada');
    if (found > 0) {
      // This machine has serial ports: the first one is chosen with its button.
      const address = (await ports.first().getAttribute('data-address')) ?? '';
      await ports
        .first()
        .getByRole('button', { name: `Usar a porta ${address}` })
        .click();
      expect(await page.inputValue('#settings-pinpad-address')).toBe(address);
      expect(await page.evaluate<string>(FOCUSED)).toBe('settings-pinpad-address');
    }
    expect(errors).toEqual([]);
  });

  it('searches Bluetooth for 5 seconds, lists the PINPAD heard with its signal, and puts its ble: address in the PINPAD field', async () => {
    const { page, errors } = await openWindow('settings');
    const before = settingsText();
    const search = page.getByRole('button', { name: 'Procurar Bluetooth' });
    await search.click();

    const status = page.locator('#settings-ble-status');
    expect(await status.innerText()).toBe('Procurando PINPADs Bluetooth… (5 s)');
    expect(await search.isDisabled()).toBe(true);
    await expect.poll(() => status.innerText(), { timeout: 15_000 }).toBe('1 PINPAD Bluetooth encontrado:');
    expect(await search.isEnabled()).toBe(true);
    expect(await status.getAttribute('data-level')).toBeNull();
    const devices = page.locator('#settings-ble-devices li');
    expect(await devices.count()).toBe(1);
    expect(await devices.first().getAttribute('data-address')).toBe('ble:c0ffee000001');
    expect(await devices.first().locator('.port-name').innerText()).toBe(
      'ble:c0ffee000001 — PINPAD-BLE, sinal forte (-60 dBm)',
    );
    expect(await controlsUnder44px(page)).toEqual([]);
    await showCard(page, '#settings-pinpad-title');
    await page.screenshot({ path: join(SHOTS, 'settings-pinpad-ble-1280x800.png') });

    await page.getByRole('button', { name: 'Usar o PINPAD Bluetooth PINPAD-BLE (ble:c0ffee000001)' }).click();
    expect(await page.inputValue('#settings-pinpad-address')).toBe('ble:c0ffee000001');
    expect(await page.evaluate<string>(FOCUSED)).toBe('settings-pinpad-address');
    expect(await status.innerText()).toBe('PINPAD Bluetooth ble:c0ffee000001 escolhido: salve para usá-lo.');
    // Chosen, not saved: the file changes only with "Salvar configurações".
    expect(settingsText()).toBe(before);

    // In English, the list says the same in the other language.
    await page.click('#language');
    expect(await status.innerText()).toBe('Bluetooth PINPAD ble:c0ffee000001 chosen: save to use it.');
    expect(await devices.first().locator('.port-name').innerText()).toBe(
      'ble:c0ffee000001 — PINPAD-BLE, strong signal (-60 dBm)',
    );
    await page.screenshot({ path: join(SHOTS, 'settings-pinpad-ble-en-1280x800.png') });
    await page.click('#language');
    expect(errors).toEqual([]);
  });

  it('says so in words when the computer has no Bluetooth to search with', async () => {
    bluetooth = 'poweredOff';
    try {
      const { page, errors } = await openWindow('settings');
      await page.getByRole('button', { name: 'Procurar Bluetooth' }).click();
      const status = page.locator('#settings-ble-status');
      await expect
        .poll(() => status.innerText(), { timeout: 15_000 })
        .toMatch(/^Este computador não tem Bluetooth disponível/);
      expect(await status.innerText()).toBe(
        'Este computador não tem Bluetooth disponível: ligue o Bluetooth (ou conecte um adaptador) e procure de novo, ou use um PINPAD no cabo USB ou na rede.',
      );
      expect(await status.getAttribute('data-level')).toBe('bad');
      expect(await page.locator('#settings-ble-devices li').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Procurar Bluetooth' }).isEnabled()).toBe(true);
      await showCard(page, '#settings-pinpad-title');
      await page.screenshot({ path: join(SHOTS, 'settings-pinpad-ble-unavailable-1280x800.png') });
      expect(errors).toEqual([]);
    } finally {
      bluetooth = 'poweredOn';
    }
  });

  it("lists the system's printers, the default one marked, and puts the lp:// address of the one chosen in the printer field", async () => {
    const { page, errors } = await openWindow('settings');
    const before = settingsText();
    const field = page.getByLabel('Endereço da impressora padrão');
    const typed = await field.inputValue();
    const search = page.getByRole('button', { name: 'Impressoras do sistema' });
    expect(await search.getAttribute('aria-describedby')).toBe('settings-system-printers-hint');
    expect(await text(page, '#settings-system-printers-hint')).toBe(
      'No aplicativo para computador, uma impressora do sistema imprime o comprovante no tamanho do próprio papel: a largura da bobina e a altura do comprovante, não uma folha A4.',
    );
    await search.click();

    const status = page.locator('#settings-system-printers-status');
    await expect.poll(() => status.innerText(), { timeout: 10_000 }).toBe('2 impressoras do sistema:');
    expect(await search.isEnabled()).toBe(true);
    expect(await status.getAttribute('data-level')).toBeNull();
    const printers = page.locator('#settings-system-printers li');
    expect(await printers.count()).toBe(2);
    expect(
      await Promise.all(
        (await printers.all()).map(async (item) => [
          await item.getAttribute('data-address'),
          await item.getAttribute('data-default'),
        ]),
      ),
    ).toEqual([
      ['lp://Recibos_80mm', 'true'],
      ['lp://Escritorio', 'false'],
    ]);
    expect(await printers.nth(0).locator('.port-name').innerText()).toBe('Recibos_80mm (padrão) — lp://Recibos_80mm');
    expect(await printers.nth(1).locator('.port-name').innerText()).toBe('Escritorio — lp://Escritorio');
    expect(await page.getByRole('button', { name: 'Usar a impressora Escritorio' }).isVisible()).toBe(true);
    expect(await controlsUnder44px(page)).toEqual([]);
    // Found, nothing chosen yet: the field keeps what it had.
    expect(await field.inputValue()).toBe(typed);

    // By keyboard, as a cashier without a mouse: from the search button, Tab reaches the first "Usar", Enter chooses it.
    await search.focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>(FOCUSED)).toBe('printer:lp://Recibos_80mm');
    expect(await page.evaluate<string>('document.activeElement.getAttribute("aria-label")')).toBe(
      'Usar a impressora Recibos_80mm',
    );
    await page.keyboard.press('Enter');
    expect(await field.inputValue()).toBe('lp://Recibos_80mm');
    expect(await page.evaluate<string>(FOCUSED)).toBe('settings-printer-address');
    expect(await status.innerText()).toBe('Impressora lp://Recibos_80mm escolhida: salve para usá-la.');
    // Chosen, not saved: the file changes only with "Salvar configurações".
    expect(settingsText()).toBe(before);
    await showCard(page, '#settings-printer-title');
    await page.screenshot({ path: join(SHOTS, 'settings-system-printers-1280x800.png') });

    // In English, the list and the hint say the same in the other language.
    await page.click('#language');
    expect(await status.innerText()).toBe('Printer lp://Recibos_80mm chosen: save to use it.');
    expect(await printers.nth(0).locator('.port-name').innerText()).toBe('Recibos_80mm (default) — lp://Recibos_80mm');
    expect(await page.getByRole('button', { name: 'Use the printer Escritorio' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'System printers' }).isVisible()).toBe(true);
    expect(await text(page, '#settings-system-printers-hint')).toBe(
      "In the desktop app, a system printer prints the receipt at its own paper size: the roll's width and the receipt's height, not an A4 sheet.",
    );
    await page.click('#language');
    expect(await field.inputValue()).toBe('lp://Recibos_80mm');
    expect(settingsText()).toBe(before);
    expect(errors).toEqual([]);
  });

  it('says there are no system printers, and how a network printer is typed, when the system lists none', async () => {
    systemPrinters = [];
    try {
      const { page, errors } = await openWindow('settings');
      await page.getByRole('button', { name: 'Impressoras do sistema' }).click();
      const status = page.locator('#settings-system-printers-status');
      await expect
        .poll(() => status.innerText(), { timeout: 10_000 })
        .toBe(
          'Nenhuma impressora do sistema: este computador não tem impressoras instaladas (ou, no Linux, falta o CUPS). Uma impressora na rede se digita como tcp://IP:9100.',
        );
      expect(await status.getAttribute('data-level')).toBeNull();
      expect(await page.locator('#settings-system-printers li').count()).toBe(0);
      await page.click('#language');
      expect(await status.innerText()).toBe(
        'No system printer: this computer has no printers installed (or, on Linux, CUPS is missing). A network printer is typed as tcp://IP:9100.',
      );
      await page.click('#language');
      expect(errors).toEqual([]);
    } finally {
      systemPrinters = RECEIPT_PRINTERS;
    }
  });

  it('in training started without a printer, prints the test page as a PDF in the training folder, so printing can be practised', async () => {
    const folder = join(home, '.pinbridge', 'training', 'receipts');
    const pdfs = (): string[] =>
      existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith('.pdf')) : [];
    const before = pdfs().length;
    const { page, errors } = await openWindow('settings');
    await page.getByRole('button', { name: 'Imprimir teste' }).click();
    const status = page.locator('#settings-test-print-status');
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 15_000 }).toBe('printed');
    expect(await status.getAttribute('data-level')).toBe('ok');
    expect(pdfs()).toHaveLength(before + 1);
    expect(errors).toEqual([]);
  });
});

describe('an agent started with the store and a folder printer', () => {
  let printed: string;
  let started: Agent;

  beforeAll(async () => {
    const printerHome = mkdtempSync(join(artifactsDir(), 'window-settings-printer-'));
    printed = join(printerHome, 'printed');
    mkdirSync(printed);
    // The settings file the agent starts with, as the page saves it: the page shows what is being tested.
    const path = defaultSettingsPath(printerHome);
    mkdirSync(join(printerHome, '.pinbridge'));
    writeFileSync(
      path,
      JSON.stringify({
        receipts: { merchant: { name: 'Padaria Teste', cnpj: '11222333000181' } },
        printers: { default: { address: `file://${printed}/`, format: 'escpos' } },
      }),
    );
    started = await Agent.start({
      settings: loadSettings(undefined, printerHome),
      api: {},
      pinpadAddress: 'sim',
      home: printerHome,
      posPorts: [0],
      logger: createLogger({ level: 'silent' }),
    });
  });

  afterAll(async () => {
    await started?.stop();
  });

  it('prints a test page on the default printer and follows it until it is printed', async () => {
    const { page, errors } = await openWindow('settings', { of: started });
    expect(await page.inputValue('#settings-printer-address')).toBe(`file://${printed}/`);
    expect(readdirSync(printed)).toEqual([]);
    await page.getByRole('button', { name: 'Imprimir teste' }).click();

    const status = page.locator('#settings-test-print-status');
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 15_000 }).toBe('printed');
    expect(await status.innerText()).toBe('Teste impresso. Confira no papel os acentos, a linha e o QR code.');
    expect(await status.getAttribute('data-level')).toBe('ok');
    // The job is a file in the printer's folder: ESC/POS with the store's name and the printer's.
    const files = readdirSync(printed).filter((name) => !name.startsWith('.'));
    expect(files).toHaveLength(1);
    const bytes = readFileSync(join(printed, files[0] ?? ''));
    expect([...bytes.subarray(0, 2)]).toEqual([0x1b, 0x40]);
    expect(bytes.toString('latin1')).toContain('Padaria Teste');
    expect(bytes.toString('latin1')).toContain('Impressora');
    expect(await controlsUnder44px(page)).toEqual([]);
    await showCard(page, '#settings-printer-title');
    await page.screenshot({ path: join(SHOTS, 'settings-test-print-1280x800.png') });
    expect(errors).toEqual([]);
  });
});

describe('an agent started despite a bad settings file', () => {
  let badPath: string;
  let started: Agent;

  beforeAll(async () => {
    // As the desktop app does: the file did not load, the agent started on the defaults, and keeps the mistake.
    const badHome = mkdtempSync(join(artifactsDir(), 'window-settings-bad-'));
    badPath = join(badHome, 'settings.json');
    const json = { confirmation: 'sometimes', timeouts: { api_ms: 9000 } };
    writeFileSync(badPath, JSON.stringify(json));
    let problem: SettingsError | undefined;
    try {
      parseSettings(json, badPath);
    } catch (error) {
      if (error instanceof SettingsError) problem = error;
    }
    if (problem === undefined) throw new Error('the bad file was accepted');
    started = await Agent.start({
      settings: { ...loadSettings(undefined, badHome), path: badPath },
      api: {},
      pinpadAddress: 'sim',
      home: badHome,
      posPorts: [0],
      logger: createLogger({ level: 'silent' }),
      settingsProblem: problem,
    });
  });

  afterAll(async () => {
    await started?.stop();
  });

  it('says so on top of the settings page, marks the field, runs the doctor on it, and saves the fix', async () => {
    const { page, errors } = await openWindow('settings', { of: started });

    const banner = page.locator('#settings-problem');
    expect(await banner.isVisible()).toBe(true);
    expect(await banner.innerText()).toMatch(
      /O arquivo de configurações tem erros[\s\S]*começou com as configurações padrão/,
    );
    // In the cashier's words where the page knows them, the agent's English sentence beside as the detail.
    expect(await banner.locator('li[data-field="confirmation"]').innerText()).toBe(
      'confirmation (Confirmação das vendas aprovadas): Escolha uma das opções. (Field confirmation must be one of "auto", "pos")',
    );
    expect(await text(page, '#settings-confirmation-error')).toBe('Escolha uma das opções.');
    // A value the schema refuses checks neither option.
    expect(await page.getByRole('radio', { name: /^Automática/ }).isChecked()).toBe(false);
    expect(await page.getByRole('radio', { name: /^Pelo caixa \(PDV\)/ }).isChecked()).toBe(false);
    await page.screenshot({ path: join(SHOTS, 'settings-problem-1280x800.png') });

    // The doctor finds the same mistake, with a fix to copy for support.
    await page.click('#nav-support');
    await page.getByRole('button', { name: 'Executar diagnóstico' }).click();
    const check = page.locator('#support-checks li[data-check-id="settings"]');
    await check.waitFor({ timeout: 30_000 });
    expect(await check.getAttribute('data-status')).toBe('fail');
    expect(await check.innerText()).toMatch(/Arquivo de configurações[\s\S]*Falha/);
    const fix = await check.locator('pre.fix-code').innerText();
    expect(fix).toContain('confirmation');
    // In the window's language, with the file, the field and the command as the doctor gives them.
    // Each rule in its Portuguese sentence (by its code), no English quoted.
    expect(await check.locator('.check-summary').innerText()).toBe(
      `O arquivo de configurações ${badPath} é inválido: confirmation: Escolha uma das opções.`,
    );
    // The doctor's backticks (a terminal's convention) are code on the page, never shown raw.
    expect(fix).toBe(
      `Edite ${badPath} e corrija confirmation (Escolha uma das opções.); depois execute pinbridge doctor --settings ${badPath} de novo.`,
    );
    expect(await check.locator('pre.fix-code code.inline-code').allInnerTexts()).toEqual([
      'confirmation',
      `pinbridge doctor --settings ${badPath}`,
    ]);
    await check.getByRole('button', { name: 'Copiar como resolver: Arquivo de configurações' }).click();
    await expect.poll(() => check.locator('.copy-note').innerText()).toBe('Copiado.');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(fix);

    await page.click('#nav-settings');
    await page.getByRole('radio', { name: /^Pelo caixa \(PDV\)/ }).check();
    await page.click('#settings-save');
    await expect.poll(() => text(page, '#settings-message'), { timeout: 10_000 }).toContain('Configurações salvas');
    expect(JSON.parse(readFileSync(badPath, 'utf8'))).toEqual({ confirmation: 'pos', timeouts: { api_ms: 9000 } });
    // The agent still runs on the defaults until it restarts: the banner stays, and says what to do.
    expect(await text(page, '#settings-problem-saved')).toBe(
      'Configurações salvas: reinicie o Pinbridge (no fim da página) para que ele as use.',
    );
    expect(await page.isVisible('#settings-restart-now')).toBe(true);
    expect(await page.isVisible('#settings-confirmation-error')).toBe(false);
    expect(errors).toEqual([]);
  }, 60_000);
});

describe('an agent that could not use its client certificate', () => {
  let started: Agent;
  let problemHome: string;

  beforeAll(async () => {
    // As the desktop app starts when the PKCS#12 passphrase is not stored yet: training mode, the reason kept for the window.
    problemHome = mkdtempSync(join(artifactsDir(), 'window-settings-cert-'));
    const path = join(problemHome, 'settings.json');
    const pfx = join(problemHome, 'loja.pfx');
    const problem = new SettingsError(
      [
        settingsViolation(
          'api.client_certificate',
          'CERTIFICATE_PASSPHRASE',
          `The passphrase of the PKCS#12 file ${pfx} is missing (enter it in the Pinbridge window, or set PINBRIDGE_CERT_PASSPHRASE).`,
        ),
      ],
      path,
    );
    started = await Agent.start({
      settings: { ...loadSettings(undefined, problemHome), path },
      api: {},
      pinpadAddress: 'sim',
      home: problemHome,
      posPorts: [0],
      logger: createLogger({ level: 'silent' }),
      settingsProblem: problem,
    });
  });

  afterAll(async () => {
    await started?.stop();
  });

  it('says why in Portuguese, and takes the certificate password in its own field, never showing it again', async () => {
    const { page, errors } = await openWindow('settings', { of: started });
    const item = page.locator('#settings-problem li[data-field="api.client_certificate"]');
    expect(await item.innerText()).toMatch(
      /^api\.client_certificate \(Senha do certificado digital\): A senha do certificado digital está faltando ou errada: digite-a em "Senha do certificado digital" e guarde-a\. \(The passphrase of the PKCS#12 file .*loja\.pfx is missing/,
    );
    expect(await item.locator('span[lang="en"]').count()).toBe(1);
    expect(await text(page, '#settings-passphrase-status')).toBe('Nenhuma senha de certificado guardada.');

    const field = page.getByLabel('Senha do certificado digital');
    expect(await field.getAttribute('type')).toBe('password');
    await field.press('Enter');
    expect(await text(page, '#settings-passphrase-error')).toBe('Digite a senha do certificado.');
    // Spaces are part of a passphrase: kept as typed.
    await field.fill(' senha do A1 ');
    await field.press('Enter');
    await expect
      .poll(() => text(page, '#settings-passphrase-status'), { timeout: 10_000 })
      .toBe(
        'Senha do certificado guardada em um arquivo privado deste computador. A nova senha vale quando o Pinbridge for reiniciado.',
      );
    expect(readFileSync(certificatePassphrasePath(problemHome), 'utf8')).toBe(' senha do A1 \n');
    expect(await field.inputValue()).toBe('');
    expect(await page.content()).not.toContain('senha do A1');
    // Stored, it waits for a restart like a saved file or a token.
    expect(await page.isVisible('#settings-restart-now')).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('an agent whose API token comes from the environment', () => {
  let started: Agent;

  beforeAll(async () => {
    // Headless with PINBRIDGE_API_TOKEN set (given as the agent's token store, not this process's environment).
    const envHome = mkdtempSync(join(artifactsDir(), 'window-settings-env-'));
    started = await Agent.start({
      settings: loadSettings(undefined, envHome),
      api: {},
      pinpadAddress: 'sim',
      home: envHome,
      posPorts: [0],
      logger: createLogger({ level: 'silent' }),
      tokens: headlessTokenStore(apiTokenPath(envHome), { PINBRIDGE_API_TOKEN: 'zpk_from_the_environment' }),
    });
  });

  afterAll(async () => {
    await started?.stop();
  });

  it('says where the token comes from and offers no field for it; a page that sends one anyway is told why in Portuguese', async () => {
    const { page, errors } = await openWindow('settings', { of: started });
    await expect
      .poll(() => text(page, '#settings-token-status'))
      .toBe('O token vem da variável de ambiente PINBRIDGE_API_TOKEN: para trocá-lo, mude a variável.');
    expect(await page.isDisabled('#settings-api-token')).toBe(true);
    // A page that had not read that yet (as one open before a restart): its token reaches the agent, which refuses it.
    await page.evaluate(
      "for (const id of ['settings-api-token', 'settings-token-save']) document.getElementById(id).disabled = false",
    );
    await page.fill('#settings-api-token', TOKEN);
    await page.press('#settings-api-token', 'Enter');
    await expect
      .poll(() => text(page, '#settings-token-error'))
      .toBe(
        'O token do serviço de pagamentos é definido pela variável de ambiente PINBRIDGE_API_TOKEN e não pode ser trocado pela janela: mude a variável e reinicie o Pinbridge.',
      );
    expect(await page.content()).not.toContain('zpk_from_the_environment');
    expect(errors).toEqual([]);
  });
});

describe('the support page', () => {
  it('shows the version and the mode, and runs the diagnostics: each check with its state and, when something is wrong, its fix', async () => {
    const { page, errors } = await openWindow('support');
    expect(await text(page, '#support-version')).toBe(VERSION);
    expect(await text(page, '#support-mode')).toMatch(/^Treinamento/);

    await page.getByRole('button', { name: 'Executar diagnóstico' }).click();
    await expect
      .poll(() => page.locator('#support-checks li.check').count(), { timeout: 30_000 })
      .toBe(CHECK_IDS.length);
    expect(await text(page, '#support-doctor-status')).toMatch(
      /^Diagnóstico das \d{2}:\d{2}:\d{2}: (tudo certo|\d+ com falha, \d+ com atenção)\.$/,
    );
    const ids = await attributes(page, '#support-checks li.check', 'data-check-id');
    expect(ids).toEqual([
      'serial-permissions',
      'pinpads',
      'printers',
      'payments-api',
      'client-certificate',
      'pos-ports',
      'disk',
      'remote-settings',
      'updates',
      'settings',
    ]);
    expect(await page.locator('li[data-check-id="settings"]').getAttribute('data-status')).toBe('ok');
    // Training mode: the payments API is not checked, and says so in words.
    expect(await page.locator('li[data-check-id="payments-api"]').getAttribute('data-status')).toBe('skip');
    expect(await page.locator('li[data-check-id="payments-api"] .check-status').innerText()).toBe('Não verificado');
    // What was found, in Portuguese like the rest of the page (so marked with no other language).
    expect(await page.locator('li[data-check-id="payments-api"] .check-summary').innerText()).toBe(
      'Modo de treinamento (sem --api): o sandbox embutido responde às chamadas de pagamento, não há API para alcançar',
    );
    expect(await page.locator('li[data-check-id="settings"] .check-summary').innerText()).toBe(settingsSummaryPt());
    for (const item of await page.locator('#support-checks li.check').all()) {
      const status = await item.getAttribute('data-status');
      expect(await item.locator('.check-summary').innerText()).not.toBe('');
      expect(await item.locator('.check-summary').getAttribute('lang')).toBeNull();
      expect(await item.innerText()).not.toContain('`');
      if (status === 'warn' || status === 'fail') {
        expect(await item.locator('pre.fix-code').innerText()).not.toBe('');
        expect(await item.locator('pre.fix-code').getAttribute('lang')).toBeNull();
      }
    }
    expect(errors).toEqual([]);
  }, 60_000);

  it('exports the logs: how many lines, that card data is masked, the text, and a pinbridge-logs.txt download', async () => {
    const { page, errors } = await openWindow('support');
    await page.getByRole('button', { name: 'Exportar registros' }).click();

    await expect
      .poll(() => text(page, '#support-logs-status'), { timeout: 10_000 })
      .toMatch(/^[\d.]+ linhas exportadas\. Dados de cartão não aparecem: números de cartão saem mascarados/);
    const lines = Number(await page.locator('#support-logs-status').getAttribute('data-lines'));
    expect(lines).toBeGreaterThan(0);
    const shown = await page.getByLabel('Registros exportados').inputValue();
    expect(shown).toContain('"msg":"POS API listening"');
    expect(shown.split('\n').filter((line) => line !== '')).toHaveLength(lines);
    expect(await page.getByLabel('Registros exportados').getAttribute('readonly')).not.toBeNull();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Baixar pinbridge-logs.txt' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('pinbridge-logs.txt');
    expect(readFileSync(await download.path(), 'utf8')).toBe(shown);

    await page.getByRole('button', { name: 'Copiar registros' }).click();
    await expect.poll(() => text(page, '#support-logs-status')).toBe('Registros copiados.');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(shown);
    expect(errors).toEqual([]);
  });
});

describe('keyboard, labels, touch and screenshots', () => {
  it('reaches every control of both pages with Tab, and every field has a name', async () => {
    for (const route of ['settings', 'support'] as const) {
      const { page, errors } = await openWindow(route);
      if (route === 'support') {
        await page.click('#support-doctor-run');
        await page.locator('#support-checks li.check').first().waitFor({ timeout: 30_000 });
        await page.click('#support-logs-export');
        await page.locator('#support-logs-text').waitFor({ state: 'visible' });
      }
      // From the navigation, by keyboard: the link, Enter, and the focus lands on the page's title.
      // The status page first (and wait until it is shown: its hashchange would otherwise land after
      // the second Enter and take the focus back), then the page under test.
      await page.locator('#nav-status').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate<string>(FOCUSED), { timeout: 10_000 }).toBe('status-title');
      await page.locator(`#nav-${route}`).focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.evaluate<string>(FOCUSED), { timeout: 10_000 }).toBe(`${route}-title`);

      const reached = await tabAround(page, 120);
      const controls = await page.evaluate<string[]>(CONTROLS);
      expect(controls.length).toBeGreaterThan(route === 'settings' ? 20 : 10);
      expect(
        controls.filter((control) => !reached.includes(control)),
        `not reached by Tab on #/${route}`,
      ).toEqual([]);
      expect(await page.evaluate<string[]>(UNLABELLED), `fields without a label on #/${route}`).toEqual([]);
      expect(errors).toEqual([]);
    }
  }, 90_000);

  it('has every control at least 44 px tall, and screenshots of both pages at 1280×800 and 1024×600', async () => {
    for (const [size, viewport] of Object.entries(VIEWPORTS)) {
      const label = `${viewport.width}x${viewport.height}`;
      const settings = await openWindow('settings', { viewport });
      expect(await controlsUnder44px(settings.page), `controls under 44 px on #/settings at ${size}`).toEqual([]);
      await settings.page.screenshot({ path: join(SHOTS, `settings-${label}.png`) });

      const support = await openWindow('support', { viewport });
      await support.page.click('#support-doctor-run');
      await support.page.locator('#support-checks li.check').first().waitFor({ timeout: 30_000 });
      await support.page.click('#support-logs-export');
      await support.page.locator('#support-logs-text').waitFor({ state: 'visible' });
      expect(await controlsUnder44px(support.page), `controls under 44 px on #/support at ${size}`).toEqual([]);
      // The diagnostics from the top, then the exported logs.
      await support.page.evaluate('window.scrollTo(0, 0)');
      await support.page.screenshot({ path: join(SHOTS, `support-${label}.png`) });
      await support.page.locator('#support-logs-title').scrollIntoViewIfNeeded();
      await support.page.screenshot({ path: join(SHOTS, `support-logs-${label}.png`) });
      expect(settings.errors).toEqual([]);
      expect(support.errors).toEqual([]);
    }
  }, 120_000);

  it('switches both pages to English', async () => {
    const { page, errors } = await openWindow('settings');
    await page.click('#language');
    expect(await text(page, '#settings-title')).toBe('Settings');
    expect(await text(page, '#settings-token-status')).toBe('Token stored in a private file on this computer.');
    expect(await page.getByLabel('Service address (URL)').inputValue()).toBe('https://api2.example.com');
    await page.click('#nav-support');
    expect(await text(page, '#support-title')).toBe('Support');
    expect(await text(page, '#support-mode')).toMatch(/^Training/);
    // The diagnostics in English too; switching back shows the same report in Portuguese.
    await page.getByRole('button', { name: 'Run diagnostics' }).click();
    const summaryOf = (id: string): Promise<string> =>
      page.locator(`li[data-check-id="${id}"] .check-summary`).innerText();
    await expect
      .poll(() => page.locator('#support-checks li.check').count(), { timeout: 30_000 })
      .toBe(CHECK_IDS.length);
    expect(await summaryOf('payments-api')).toBe(
      'Training mode (no --api): the embedded sandbox answers the payment calls, there is no API to reach',
    );
    expect(await summaryOf('settings')).toBe(settingsSummaryEn());
    await page.click('#language');
    expect(await summaryOf('settings')).toBe(settingsSummaryPt());
    expect(await summaryOf('payments-api')).toMatch(/^Modo de treinamento/);
    await page.click('#language');
    expect(await summaryOf('settings')).toBe(settingsSummaryEn());
    expect(errors).toEqual([]);
  }, 60_000);
});
