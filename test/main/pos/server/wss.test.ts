/**
 * wss:// with the certificate `pinbridge pos cert` makes: Node clients that trust the local CA
 * talk to the agent by address and by name; a client that does not trust it, or that speaks
 * plain ws://, gets nothing. And the reason it exists: a real Chromium whose trust store holds
 * the CA (added as the Linux instructions say, with NSS's certutil) opens the demo page over
 * https as a secure context and pays over wss.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalCertificate, type LocalCertificate } from '../../../../main/pos/tls/local-certificate.js';
import { artifactsDir } from '../../../helpers/card-data-scan.js';
import { launchChromium } from '../../../drivers/printers/chromium.js';
import { checkedCall, openSocket, posRig, RpcClient, type PosRig } from '../pos-rig.js';

let made: LocalCertificate;
let pos: PosRig;

beforeAll(async () => {
  made = await createLocalCertificate();
  pos = await posRig({ tls: { key: made.key, cert: made.cert, ca: made.caCert } });
});

afterAll(async () => {
  await pos?.close();
});

function httpsGet(url: string, ca?: string): Promise<{ status: number; type: string | undefined }> {
  return new Promise((resolve, reject) => {
    get(url, ca === undefined ? {} : { ca }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, type: response.headers['content-type'] });
    }).once('error', reject);
  });
}

describe('the POS API over wss://', () => {
  it('answers a client that trusts the local CA, at 127.0.0.1 and at localhost', async () => {
    expect(pos.server.url).toBe(`wss://127.0.0.1:${pos.server.port}/pos`);
    const byAddress = await pos.connect();
    expect(await checkedCall(byAddress, 'agent.info')).toMatchObject({ name: 'Pinbridge' });
    const byName = new RpcClient(await openSocket(`wss://localhost:${pos.server.port}/pos`, {}, made.caCert));
    expect(await checkedCall(byName, 'agent.info')).toMatchObject({ name: 'Pinbridge' });
    byName.socket.close();
    const paired = await pos.paired('Caixa TLS');
    expect((await checkedCall(paired, 'pinpad.list')).pinpads).toHaveLength(1);
  });

  it('serves the demo page and the browser client over https', async () => {
    expect(pos.server.demoUrl).toBe(`https://127.0.0.1:${pos.server.port}/demo/`);
    const page = await httpsGet(pos.server.demoUrl, made.caCert);
    expect(page.status).toBe(200);
    expect(page.type).toContain('text/html');
    expect(await httpsGet(`https://localhost:${pos.server.port}/client/index.js`, made.caCert)).toMatchObject({
      status: 200,
    });
  });

  it('gives nothing to a client that does not trust the CA, or that speaks plain ws://', async () => {
    await expect(openSocket(pos.server.url)).rejects.toMatchObject({ code: 'SELF_SIGNED_CERT_IN_CHAIN' });
    await expect(httpsGet(pos.server.demoUrl)).rejects.toMatchObject({ code: 'SELF_SIGNED_CERT_IN_CHAIN' });
    await expect(openSocket(`ws://127.0.0.1:${pos.server.port}/pos`)).rejects.toThrow();
    // Still serving after all that.
    expect(await checkedCall(await pos.connect(), 'agent.info')).toMatchObject({ name: 'Pinbridge' });
  });
});

describe('a web POS in Chromium that trusts the local CA', () => {
  let browser: Browser;

  beforeAll(async () => {
    // A home of its own whose NSS database (where Chromium on Linux looks) trusts the CA: the
    // second Linux step `pinbridge pos cert` prints.
    const home = mkdtempSync(join(artifactsDir(), 'wss-home-'));
    const nssdb = join(home, '.pki', 'nssdb');
    mkdirSync(nssdb, { recursive: true });
    const caFile = join(home, 'pinbridge-local-ca.pem');
    writeFileSync(caFile, made.caCert);
    execFileSync('certutil', ['-d', `sql:${nssdb}`, '-N', '--empty-password']);
    execFileSync('certutil', ['-d', `sql:${nssdb}`, '-A', '-t', 'C,,', '-n', 'Pinbridge local CA', '-i', caFile]);
    browser = await launchChromium({ env: { ...(process.env as Record<string, string>), HOME: home } });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens https://localhost/demo/ as a secure context, pairs and pays 12,34 over wss://', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`https://localhost:${pos.server.port}/demo/`);
    expect(await page.evaluate('window.isSecureContext')).toBe(true);
    await expect.poll(() => page.locator('#state').getAttribute('data-state'), { timeout: 10_000 }).toBe('open');

    await page.fill('#pair-name', 'Caixa HTTPS');
    await page.click('#pair-start');
    await page.locator('#pair-code').waitFor({ state: 'visible' });
    const announced = pos.announced.at(-1)!;
    expect(announced.origin).toBe(`https://localhost:${pos.server.port}`);
    await page.fill('#pair-code', announced.code);
    await page.click('#pair-confirm');
    await expect.poll(() => page.locator('#state').getAttribute('data-state')).toBe('ready');

    await page.fill('#amount', '12,34');
    await page.selectOption('#payment-type', 'credit');
    await page.click('#pay');
    await expect.poll(() => page.locator('#result').getAttribute('data-status'), { timeout: 20_000 }).toBe('approved');
    expect(errors).toEqual([]);
    await page.close();
  });
});
