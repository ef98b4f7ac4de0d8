/**
 * The demo POS page in a real Chromium, served with the client by a fake agent on one loopback
 * port (same origin as its WebSocket, as the agent serves it): pairing, a credit sale typed as
 * "12,34", the progress log, the result, the receipts, confirming, the stored token on reload, and
 * the blocked origin told apart from a lost agent.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../drivers/printers/chromium.js';
import { FakeAgent, PAIRING_CODE, outcome } from '../client/fake-agent.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
};

/** The policy the agent sends with the page (main/pos/server/server.ts): a violation shows up as a console error. */
const AGENT_CSP =
  "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/** /client/*.js compiled from client/*.ts on the fly (types erased), /demo/* as is. */
function serveDemo(request: IncomingMessage, response: ServerResponse): void {
  const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
  const client = /^\/client\/([a-z-]+)\.js$/.exec(path);
  const demo = /^\/demo\/([a-z-]*(?:\.(?:html|css|js))?)$/.exec(path);
  try {
    if (client !== null) {
      const source = readFileSync(join(ROOT, 'client', `${client[1]}.ts`), 'utf8');
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      });
      response.writeHead(200, { 'content-type': CONTENT_TYPES.js }).end(outputText);
      return;
    }
    if (demo !== null) {
      const file = demo[1] === '' ? 'index.html' : (demo[1] ?? '');
      const extension = file.split('.').pop() ?? '';
      const headers: Record<string, string> = {
        'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
      };
      if (extension === 'html') headers['content-security-policy'] = AGENT_CSP;
      response.writeHead(200, headers).end(readFileSync(join(ROOT, 'demo', file)));
      return;
    }
  } catch {
    // A file that does not exist: 404 below.
  }
  response.writeHead(404).end();
}

let browser: Browser;
let agent: FakeAgent;
const pages: Page[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser.close();
});

afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
  await agent.stop();
  expect(agent.contractBreaches).toEqual([]);
  expect(pageErrors.splice(0)).toEqual([]);
});

async function startAgent(): Promise<FakeAgent> {
  agent = await FakeAgent.start({ onHttpRequest: serveDemo });
  return agent;
}

async function openDemo(context?: Awaited<ReturnType<Browser['newContext']>>): Promise<Page> {
  const page = await (context ?? browser).newPage();
  pages.push(page);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  await page.goto(`http://127.0.0.1:${agent.port}/demo/`);
  return page;
}

async function stateOf(page: Page): Promise<string | null> {
  return page.locator('#state').getAttribute('data-state');
}

describe('the demo POS page', () => {
  it('pairs, charges 12,34 on credit, logs the progress, shows result and receipts, confirms; the token survives a reload', async () => {
    await startAgent();
    agent.handle('payment.start', async (params, session) => {
      const base = {
        payment_id: 'pay-1',
        reference_id: params.reference_id,
        terminal: 'SIM0001',
        at: new Date().toISOString(),
      };
      agent.notify(session, 'payment.progress', {
        ...base,
        step: 'waiting_card',
        state: 'created',
        phase: 'in_progress',
        message: 'Waiting for the card',
        cashier_message: 'Aguardando o cartão',
      });
      agent.notify(session, 'payment.progress', {
        ...base,
        step: 'approved',
        state: 'approved',
        phase: 'in_progress',
        message: 'Approved',
        cashier_message: 'Aprovada',
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      return outcome({
        reference_id: params.reference_id,
        amount: params.amount,
        installments: params.installments ?? 3,
      });
    });
    agent.handle('receipt.get', (params) => ({
      reference_id: params.reference_id,
      copy: params.copy,
      kind: 'sale',
      format: 'html',
      encoding: 'utf8',
      content: `<!doctype html><p>VIA ${params.copy === 'customer' ? 'CLIENTE' : 'ESTABELECIMENTO'} ${params.reference_id}</p>`,
    }));
    agent.handle('payment.confirm', (params) =>
      outcome({ reference_id: params.reference_id, confirmation: 'confirmed', state: 'confirmed' }),
    );
    const context = await browser.newContext();
    const page = await openDemo(context);

    await expect.poll(() => stateOf(page)).toBe('open');
    await page.fill('#pair-name', 'Caixa 7');
    await page.click('#pair-start');
    await page.locator('#pair-code').waitFor({ state: 'visible' });
    expect(await page.locator('#pair-instructions').textContent()).toBe(
      'Digite o código de 6 dígitos mostrado no Pinbridge',
    );
    await page.fill('#pair-code', '000000');
    await page.click('#pair-confirm');
    await expect.poll(() => page.locator('#pair-error').textContent()).toMatch(/Código incorreto/);
    // With the hyphen a person types between the halves: the page reads past it.
    await page.fill('#pair-code', `${PAIRING_CODE.slice(0, 3)}-${PAIRING_CODE.slice(3)}`);
    await page.click('#pair-confirm');
    await expect.poll(() => stateOf(page)).toBe('ready');
    expect(await page.evaluate('localStorage.getItem("pinbridge-demo:token")')).toBe('token-client-1');
    expect(await page.locator('#paired-name').textContent()).toBe('Caixa 7');

    await page.fill('#amount', '12,34');
    await page.selectOption('#payment-type', 'credit');
    await page.fill('#notification', 'Obrigado!');
    const reference = await page.inputValue('#reference');
    expect(reference).toMatch(/^demo-/);
    await page.click('#pay');

    await expect.poll(() => page.locator('#result').getAttribute('data-status')).toBe('approved');
    expect(agent.received('payment.start').map((request) => request.params)).toEqual([
      {
        reference_id: reference,
        amount: 1234,
        payment_type: 'credit',
        description: 'Venda de demonstração',
        notification: 'Obrigado!',
      },
    ]);
    expect(await page.locator('#log').textContent()).toContain('Aguardando o cartão');
    expect(await page.locator('#result-status').textContent()).toContain('APROVADA');
    expect(await page.locator('#result-nsu').textContent()).toBe('000123');
    expect(await page.locator('#result-authorization').textContent()).toBe('A1B2C3');
    // In the window's words (the customer chose 3 on the PINPAD here), the brand in capitals.
    expect(await page.locator('#result-type').textContent()).toBe('Crédito em 3x');
    expect(await page.locator('#result-card').textContent()).toBe('VISA 411111******1111');
    await expect
      .poll(() => page.locator('#receipt-customer').getAttribute('srcdoc'))
      .toContain(`VIA CLIENTE ${reference}`);
    expect(await page.locator('#receipt-merchant').getAttribute('srcdoc')).toContain('VIA ESTABELECIMENTO');
    await expect
      .poll(() => page.frameLocator('#receipt-customer').locator('body').textContent())
      .toContain('VIA CLIENTE');
    expect(await page.locator('#receipt-customer').getAttribute('sandbox')).toBe('');

    await page.click('#confirm');
    await expect.poll(() => page.locator('#result').getAttribute('data-confirmation')).toBe('confirmed');
    expect(await page.locator('#confirmation-actions').isHidden()).toBe(true);

    // A new page load (not reload(): its scroll restoration races the clicks).
    await page.goto(page.url());
    await expect.poll(() => stateOf(page)).toBe('ready');
    expect(agent.received('session.hello').at(-1)?.params).toEqual({ token: 'token-client-1' });

    await page.click('#unpair');
    await expect.poll(() => stateOf(page)).toBe('open');
    expect(await page.evaluate('localStorage.getItem("pinbridge-demo:token")')).toBeNull();
    await context.close();
  });

  it('refuses an amount it cannot read exactly, and sends nothing', async () => {
    await startAgent();
    agent.tokens.set('t', { client_id: 'client-1', name: 'Caixa 1' });
    const context = await browser.newContext();
    // Only in the page itself: the receipt frames are sandboxed, without storage.
    await context.addInitScript('if (window === window.top) localStorage.setItem("pinbridge-demo:token", "t")');
    const page = await openDemo(context);
    await expect.poll(() => stateOf(page)).toBe('ready');

    await page.fill('#amount', '12.34');
    await page.click('#pay');

    expect(await page.locator('#pay-error').textContent()).toMatch(/Valor inválido/);
    expect(await page.locator('#amount').getAttribute('aria-invalid')).toBe('true');
    expect(agent.received('payment.start')).toEqual([]);
    await context.close();
  });

  it('says "venda cancelada" for a confirmed sale voided later, and "venda desfeita" only for an approval undone before its confirmation', async () => {
    await startAgent();
    const undone = (reference_id: string, code: string): ReturnType<typeof outcome> =>
      outcome({
        reference_id,
        confirmation: 'undone',
        state: 'undone',
        problem: { code, message: code, cashier_message: code },
      });
    agent.handle('payment.status', (params) => ({
      status: 'Processed',
      result: undone(params.reference_id, params.reference_id === 'anulada' ? 'VOIDED_BY_POS' : 'UNDONE_BY_POS'),
      receipts: null,
    }));
    agent.handle('receipt.get', (params) => ({
      reference_id: params.reference_id,
      copy: params.copy,
      kind: 'cancellation',
      format: 'html',
      encoding: 'utf8',
      content: '<p>CANCELAMENTO</p>',
    }));
    const page = await openDemo();
    await expect.poll(() => stateOf(page)).toBe('open');
    await page.fill('#pair-name', 'Caixa 8');
    await page.click('#pair-start');
    await page.locator('#pair-code').waitFor({ state: 'visible' });
    await page.fill('#pair-code', PAIRING_CODE);
    await page.click('#pair-confirm');
    await expect.poll(() => stateOf(page)).toBe('ready');
    for (const [reference, label] of [
      ['anulada', 'venda cancelada'],
      ['desfeita', 'venda desfeita'],
    ] as const) {
      await page.fill('#reference', reference);
      await page.click('#status-check');
      await expect.poll(() => page.locator('#result-confirmation').textContent()).toBe(label);
      expect(await page.locator('#result-status').textContent()).toContain(label);
    }
  });

  it('tells a blocked origin apart from a lost agent', async () => {
    await startAgent();
    agent.refuseWith = { code: 4003, reason: 'ORIGIN_BLOCKED' };
    const blocked = await openDemo();
    await expect.poll(() => stateOf(blocked)).toBe('blocked');
    expect(await blocked.locator('#state').textContent()).toBe('Bloqueado pelo Pinbridge');
    expect(await blocked.locator('#retry').isVisible()).toBe(true);

    agent.refuseWith = null;
    const lost = await openDemo();
    await expect.poll(() => stateOf(lost)).toBe('open');
    agent.closeAll(1001, 'AGENT_STOPPING');
    await expect.poll(() => stateOf(lost)).toBe('reconnecting');
    expect(await lost.locator('#state').textContent()).toBe('Conexão perdida — reconectando…');
  });
});
