/**
 * The browser examples of the docs, run verbatim in real Chromium against a real agent (pos-rig):
 * docs/pos-api.md's "Typed client in a web POS" — connect, pair with the code the cashier reads,
 * pay, finish the sale and confirm — and client/README.md's browser snippet (the token kept in
 * localStorage, so the next page load logs in without pairing).
 *
 * How they run: each example is the body of a module script on a page of the agent's own origin
 * (as a POS page would bundle the package, an import map resolves `@pinbridge/client` to the
 * copy the agent serves). The examples use the client's default address, ws://127.0.0.1:17301/pos;
 * the browser's socket to it is handed to the agent under test (on a port of its own, so that no
 * other agent on this machine answers), frame by frame both ways. The functions an example leaves
 * to the POS (showStep, codeTypedByCashier, finishSale…) are defined on the page and record what
 * they were given; what the spec adds after an example is marked as the spec's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { PACKAGE_ROOT } from '../../main/version.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { posRig, type PosRig } from '../main/pos/pos-rig.js';
import { fencedBlocks } from './markdown.js';

const GUIDE = fencedBlocks(readFileSync(join(PACKAGE_ROOT, 'docs', 'pos-api.md'), 'utf8'));
const README = fencedBlocks(readFileSync(join(PACKAGE_ROOT, 'client', 'README.md'), 'utf8'));
const DEFAULT_URL = 'ws://127.0.0.1:17301/pos';

let browser: Browser;
let pos: PosRig;
let context: BrowserContext | undefined;

beforeAll(async () => {
  pos = await posRig({ config: { confirmation: 'pos' } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await pos?.close();
});

afterEach(async () => {
  await context?.close();
  context = undefined;
});

/** The code the cashier reads in the window, as it shows it: "422 105". */
function codeAsShown(): string {
  const { code } = pos.announced.at(-1)!;
  return `${code.slice(0, 3)} ${code.slice(3)}`;
}

/** A browser context whose WebSocket to the default address reaches the agent under test. */
async function newContext(): Promise<BrowserContext> {
  const created = await browser.newContext();
  const origin = new URL(pos.server.demoUrl).origin;
  await created.routeWebSocket(DEFAULT_URL, (route) => {
    const agent = new WebSocket(pos.server.url, { headers: { Origin: origin } });
    const waiting: string[] = [];
    route.onMessage((message) => {
      const text = message.toString();
      if (agent.readyState === WebSocket.OPEN) agent.send(text);
      else waiting.push(text);
    });
    agent.on('open', () => waiting.splice(0).forEach((text) => agent.send(text)));
    agent.on('message', (data) => route.send((data as Buffer).toString('utf8')));
    agent.on(
      'close',
      (code, reason) =>
        // The codes a page can be sent (1005/1006 are only ever observed).
        void route.close(code === 1000 || code >= 3000 ? { code, reason: reason.toString() } : {}),
    );
    route.onClose(() => agent.close());
  });
  await created.exposeFunction('codeShownInTheWindow', codeAsShown);
  context = created;
  return created;
}

/** Opens a page of the agent's origin whose module script is `example`, then `probe` (the spec's). */
async function runExample(page: Page, example: string, probe: string, helpers = ''): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const url = `${new URL(pos.server.demoUrl).origin}/docs-example.html`;
  const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">
<script type="importmap">{"imports":{"@pinbridge/client":"/client/index.js"}}</script>
<script>${helpers}</script>
<script type="module">
${example}
// ---- the spec's, not the example's ----
${probe}
</script></head><body></body></html>`;
  await page.route(url, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }));
  await page.goto(url);
  return errors;
}

describe('docs/pos-api.md, "Typed client in a web POS", run verbatim in Chromium', () => {
  it('connects, pairs with the code the cashier reads ("422 105"), pays, finishes the sale and confirms it', async () => {
    const examples = GUIDE.filter((block) => block.language === 'js' && block.section === 'Typed client in a web POS');
    expect(examples).toHaveLength(1);
    const page = await (await newContext()).newPage();
    // The POS's own functions the example calls: each records what it was given.
    const helpers = `
      window.shown = [];
      for (const name of ['showConnection', 'showStep', 'showBlocked', 'showAgentDown', 'showCodeField', 'showPending', 'showFailure'])
        window[name] = (value) => window.shown.push([name, value]);
      window.sale = { id: 'venda-web-42', number: 42 };
      window.finishSale = async () => window.shown.push(['finishSale']);
      window.codeTypedByCashier = () => window.codeShownInTheWindow();
    `;
    const errors = await runExample(page, examples[0]!.body, 'window.exampleEnded = true;', helpers);
    await expect.poll(() => page.evaluate('window.exampleEnded === true || undefined'), { timeout: 30_000 }).toBe(true);
    expect(errors).toEqual([]);

    const shown = await page.evaluate<[string, unknown][]>('window.shown');
    const calls = (name: string): unknown[] => shown.filter(([called]) => called === name).map(([, value]) => value);
    expect(calls('showCodeField')).toEqual(['Digite aqui o código de 6 dígitos mostrado na janela do Pinbridge.']);
    expect(calls('showConnection')).toContain('ready');
    expect(calls('showStep')).toEqual(expect.arrayContaining(['Aguardando o cartão', 'Autorizando']));
    expect(calls('finishSale')).toHaveLength(1);
    expect([
      ...calls('showFailure'),
      ...calls('showPending'),
      ...calls('showBlocked'),
      ...calls('showAgentDown'),
    ]).toEqual([]);
    const sale = pos.rig.engine.list().items.find((item) => item.referenceId === 'venda-web-42');
    expect(sale).toMatchObject({ status: 'approved', amount: 15990, state: 'confirmed', confirmation: 'confirmed' });
  }, 60_000);
});

describe("client/README.md's browser snippet, run verbatim in Chromium", () => {
  it('keeps the token it is given in localStorage, and the next page load logs in with it instead of pairing', async () => {
    const snippets = README.filter((block) => block.language === 'js' && block.body.includes('localStorage'));
    expect(snippets).toHaveLength(1);
    const page = await (await newContext()).newPage();
    const pairs = `
      await client.connect();
      await client.pair('Caixa do navegador');
      await client.confirmPairing(await window.codeShownInTheWindow());
      window.exampleEnded = { state: client.state, stored: localStorage.getItem('pinbridge-token') };
    `;
    const errors = await runExample(page, snippets[0]!.body, pairs);
    await expect.poll(() => page.evaluate('window.exampleEnded')).toMatchObject({ state: 'ready' });
    const { stored } = await page.evaluate<{ stored: string }>('window.exampleEnded');
    expect(stored).toMatch(/^pbt_/);

    const pairingsBefore = pos.announced.length;
    const reloaded = await context!.newPage();
    const logsIn = `
      await client.connect();
      window.exampleEnded = { state: client.state, paired: client.paired };
    `;
    errors.push(...(await runExample(reloaded, snippets[0]!.body, logsIn)));
    await expect.poll(() => reloaded.evaluate('window.exampleEnded')).toEqual({ state: 'ready', paired: true });
    expect(pos.announced).toHaveLength(pairingsBefore);
    expect(errors).toEqual([]);
  }, 60_000);
});
