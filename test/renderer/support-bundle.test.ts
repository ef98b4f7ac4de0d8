/**
 * The support page's "Gerar pacote de suporte" in real Chromium at 800×480, against the agent
 * (training mode, its own home, the simulated PINPAD, after a sale and a CPF typed on the PINPAD):
 * the button makes the bundle and says where it was saved, the download is that file; "Enviar ao
 * suporte" asks first — the dialog says what goes and where — and nothing reaches the 127.0.0.1
 * receiver of support.upload_url until the cashier says yes: "Voltar" sends nothing, "Sim, enviar"
 * sends one archive, which, untarred, holds the doctor's report and no card data or CPF; a server
 * that refuses is said in pt-BR. Each answer is in view at 800×480.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../main/agent/agent.js';
import { createLogger } from '../../main/log.js';
import { loadSettings } from '../../main/settings/settings-file.js';
import { scanBundleText } from '../../main/support/bundle.js';
import { TEST_CARDS } from '../../drivers/simulator/index.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';
import { extractTarGz } from '../helpers/tar-extract.js';
import { openSocket, RpcClient } from '../main/pos/pos-rig.js';
import { FOCUSED, text } from './keyboard.js';
import { failureStyleProblems, notInView } from './layout.js';
import { openWindowPage } from './window-page.js';

const SHOTS = join(artifactsDir(), 'window');
const CPF = '52998224725';
const CARD = TEST_CARDS.visaCredit;

let browser: Browser;
let agent: Agent;
let receiver: Server;
let to: string;
let received: Buffer[] = [];
let answer = 201;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push(Buffer.concat(chunks));
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  to = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;

  const home = mkdtempSync(join(artifactsDir(), 'window-support-bundle-'));
  mkdirSync(join(home, '.pinbridge'), { recursive: true });
  writeFileSync(
    join(home, '.pinbridge', 'settings.json'),
    JSON.stringify({ pinpad: { address: 'sim' }, support: { upload_url: `${to}/bundles/caixa-1` } }),
  );
  const logFile = join(home, '.pinbridge', 'logs', 'pinbridge.log');
  agent = await Agent.start({
    settings: loadSettings(undefined, home),
    api: {},
    pinpadAddress: 'sim',
    home,
    posPorts: [0],
    logger: createLogger({ level: 'info', file: logFile }),
    logFile,
    simulatedCustomerDelayMs: 20,
  });
  await agent.ready;
  // A training sale and a CPF at the PINPAD before the bundle: card data and a CPF crossed the wire.
  const program = new RpcClient(await openSocket(agent.pos.url));
  await program.call('session.operator', { key: agent.operatorKey });
  const terminal = agent.pinpads.list()[0]!.serialNumber;
  await program.call('payment.start', {
    reference_id: 'window-bundle-1',
    amount: 990,
    payment_type: 'credit',
    installments: 1,
    description: 'Antes do pacote',
    terminal,
  });
  await program.call('pinpad.readCustomerData', { terminal, kind: 'cpf', timeout_s: 10 });
  program.socket.terminate();
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await agent?.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

describe('the support bundle from the window', () => {
  it('makes it, asks before sending, sends nothing on "Voltar" and one clean archive on "Sim, enviar"', async () => {
    const { page, errors } = await openWindowPage(browser, agent.pos.uiUrl(agent.operatorKey), {
      viewport: { width: 800, height: 480 },
    });
    await page.click('#nav-support');
    await page.getByRole('button', { name: 'Gerar pacote de suporte' }).click();
    const status = page.locator('#support-bundle-status');
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 60_000 }).toBe('saved');
    const said = await text(page, '#support-bundle-status');
    const saved = /salvo em (.+\.tar\.gz)\.$/.exec(said)?.[1];
    expect(said).toMatch(/^Pacote gerado às \d\d:\d\d(?::\d\d)? \([\d,]+ KB, \d+ arquivos\), salvo em /);
    expect(saved).toMatch(/\.pinbridge\/support\/pinbridge-support-.+\.tar\.gz$/);
    expect(await notInView(page, ['#support-bundle-status'])).toEqual([]);
    const archive = readFileSync(saved!);

    // The download is the file saved.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Baixar o pacote' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(saved!.split('/').at(-1));
    expect(readFileSync(await download.path())).toEqual(archive);

    // Asked first, saying what goes and where; "Voltar" has the focus and sends nothing.
    await page.getByRole('button', { name: 'Enviar ao suporte' }).click();
    await page.locator('#confirm-dialog').waitFor({ state: 'visible' });
    expect(await text(page, '#confirm-title')).toBe('Enviar o pacote ao suporte?');
    const question = await text(page, '#confirm-text');
    expect(question).toContain(saved!.split('/').at(-1));
    expect(question).toContain('o diagnóstico, os registros recentes, o último rastreamento do PINPAD');
    expect(question).toContain('(dados de cartão e CPF mascarados)');
    expect(question).toMatch(new RegExp(`para ${to.replace(/[.]/g, '\\.')}\\.$`));
    expect(await page.evaluate<string>(FOCUSED)).toBe('confirm-no');
    expect(await notInView(page, ['#confirm-text', '#confirm-yes', '#confirm-no'])).toEqual([]);
    expect(received).toHaveLength(0);
    await page.click('#confirm-no');
    expect(await text(page, '#support-bundle-upload')).toBe('Envio cancelado: nada foi enviado.');
    // Given the time a send would take, still nothing arrived.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toHaveLength(0);

    await page.getByRole('button', { name: 'Enviar ao suporte' }).click();
    await page.getByRole('button', { name: 'Sim, enviar' }).click();
    const upload = page.locator('#support-bundle-upload');
    await expect.poll(() => upload.getAttribute('data-state'), { timeout: 30_000 }).toBe('sent');
    expect(await text(page, '#support-bundle-upload')).toMatch(
      new RegExp(`^Pacote enviado para ${to.replace(/[.]/g, '\\.')} às \\d\\d:\\d\\d(?::\\d\\d)?\\.$`),
    );
    expect(await notInView(page, ['#support-bundle-upload'])).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'support-bundle-sent-800x480.png') });

    // One archive, the one made; untarred: the doctor's report, and no card data nor CPF anywhere.
    expect(received).toHaveLength(1);
    expect(received[0]).toEqual(archive);
    const { names, files } = extractTarGz(received[0]!);
    const doctor = JSON.parse(files.get('doctor.json')!.toString()) as { ok: boolean; checks: { id: string }[] };
    expect(doctor.checks.length).toBeGreaterThan(3);
    const trace = names.find((name) => name.startsWith('pinpad-trace/'));
    expect(trace).toBeDefined();
    expect(files.get(trace!)!.toString()).toContain('"id":"GCD"');
    for (const [name, bytes] of files) {
      const content = bytes.toString('latin1');
      expect(scanBundleText(content, name), name).toEqual([]);
      const packets = [...content.matchAll(/"data":"([0-9a-f]+)"/g)]
        .map((match) => Buffer.from(match[1]!, 'hex').toString('latin1'))
        .join('\n');
      for (const secret of [CARD.pan, CARD.cardholderName, CPF]) {
        expect(content, name).not.toContain(secret);
        expect(packets, name).not.toContain(secret);
      }
    }
    expect(errors).toEqual([]);
    await page.context().close();
  }, 120_000);

  it('says in pt-BR why the bundle was not sent when the server refuses it, in view', async () => {
    received = [];
    answer = 503;
    const { page, errors } = await openWindowPage(browser, agent.pos.uiUrl(agent.operatorKey), {
      viewport: { width: 800, height: 480 },
    });
    await page.click('#nav-support');
    await page.getByRole('button', { name: 'Gerar pacote de suporte' }).click();
    await page.getByRole('button', { name: 'Enviar ao suporte' }).click({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Sim, enviar' }).click();
    const upload = page.locator('#support-bundle-upload');
    await expect.poll(() => upload.getAttribute('data-state'), { timeout: 30_000 }).toBe('failed');
    expect(await text(page, '#support-bundle-upload')).toBe(
      `O pacote não foi enviado. ${to} recusou o pacote (HTTP 503). Avise o suporte.`,
    );
    await page.screenshot({ path: join(SHOTS, 'support-bundle-refused-800x480.png') });
    expect(await notInView(page, ['#support-bundle-upload'])).toEqual([]);
    expect(await failureStyleProblems(page, ['#support-bundle-upload'])).toEqual([]);
    expect(received).toHaveLength(1);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);
});
