/**
 * The window at the three screens a checkout has — 1280×800, 1024×600 and 800×480 (a common POS
 * touch screen) — on every page and dialog in its main states (empty, with data, an error, a sale
 * running, after a sale, a pairing request…), in training mode, in real Chromium: no sideways
 * scroll, no text cut, nothing past the window's edge, every control reachable, uncovered and at
 * least 44 px tall, what must be in view (the sale just started, a dialog's buttons) in view and
 * clear of the training banner, the answer to what the cashier just did (a search's count and
 * first row, a reprint's outcome, a void's confirmation) in view and said in a live region, a
 * failure (a print that has not printed) in the window's failure style and never in success's
 * green, no axe-core violation of impact serious or critical, and not one
 * English word on the window in Portuguese (its default; english.ts says which words). Each
 * state is screenshotted (artifacts, not golden images) to test-artifacts/screenshots/, printed
 * at the end of the run.
 *
 * The states are a table (STATES): a page, a name, and a setup that brings the window there from
 * wherever the previous state left it. Add a row for a new page or state.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../main/agent/agent.js';
import { MAX_FAILURES, SupervisorPin, supervisorGuard } from '../../main/agent/supervisor-pin.js';
import { testIntegrityKey } from '../helpers/integrity-key.js';
import type { SupervisorGuard } from '../../main/pos/server/supervisor.js';
import { defaultSettingsPath, loadSettings } from '../../main/settings/settings-file.js';
import { createLogger } from '../../main/log.js';
import { CHECK_IDS } from '../../main/doctor/check.js';
import { PACKAGE_ROOT } from '../../main/version.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { artifactsDir } from '../helpers/card-data-scan.js';
import { CLOSED_PORT } from '../helpers/closed-port.js';
import { PINPAD, setup as nobleDouble } from '../helpers/noble-double.js';
import { AUTO_CUSTOMER, OPERATOR_KEY, posRig, type PosRig, type RpcClient } from '../main/pos/pos-rig.js';
import { englishIn, englishOnlyWords, shownTexts, windowCatalogs } from './english.js';
import { controlsUnder44px } from './keyboard.js';
import {
  announcementMark,
  failureStyleProblems,
  layoutProblems,
  notAnnounced,
  notInView,
  seriousA11yViolations,
} from './layout.js';

/** The three screens a checkout has; each is one spec file. */
export const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 600 },
  { width: 800, height: 480 },
] as const;
export type Size = (typeof SIZES)[number];

/**
 * Where the screenshots go: test-artifacts/screenshots/<width>x<height>/<page>-<state>.png in the
 * package (git ignores it; the run's artifacts folder is deleted after a clean run), or under
 * $PINBRIDGE_SCREENSHOTS.
 */
const SHOTS = process.env.PINBRIDGE_SCREENSHOTS ?? join(PACKAGE_ROOT, 'test-artifacts', 'screenshots');

/**
 * Which agent a state is shown by: `pos` (the POS rig: sales, POS clients, a PINPAD whose
 * simulated customer takes a moment), `agent` (a whole agent with its settings file and a receipt
 * printer that is off, for the settings and support pages), or `login` (the pos rig's window
 * opened without its key), `confirm` (a POS rig whose policy leaves approvals to the POS to
 * confirm: two wait on top of the day's sales), `lost` (a window whose agent stops: each state
 * starts an agent of its own for it), `live` (an agent out of training: no banner, no test sale),
 * `down` (a POS rig whose receipt printer is off: a port nothing listens on).
 */
type Host = 'pos' | 'agent' | 'login' | 'confirm' | 'lost' | 'live' | 'down';

interface Rigs {
  readonly pos: PosRig;
  readonly agent: Agent;
  /** A paired POS (Caixa 1) that starts sales as a POS would. */
  readonly caixa: RpcClient;
  /** The rig whose approvals wait for the POS's confirmation. */
  readonly confirm: PosRig;
  /** The rig that says it runs live. */
  readonly live: PosRig;
  /** A paired POS of the live rig (Caixa 3): its sales are voided without the supervisor. */
  readonly liveCaixa: RpcClient;
  /** The rig whose receipt printer is off. */
  readonly down: PosRig;
}

interface State {
  readonly page: string;
  readonly name: string;
  readonly host: Host;
  /** Brings the window to the state (the window is on whatever page the previous state left it). */
  readonly setup: (page: Page, rigs: Rigs) => Promise<void>;
  /** What must be wholly on screen as the state is reached, without scrolling. */
  readonly inView?: readonly string[];
  /** What must be in the window's failure style (a print not printed), not success's green; and announced. */
  readonly failure?: readonly string[];
  /** What must have been said to screen readers by the setup: a live region changed to hold its text. */
  readonly announced?: readonly string[];
  /** Leaves the state (undoes what would get in the next one's way). */
  readonly teardown?: (page: Page, rigs: Rigs) => Promise<void>;
}

type Route = 'status' | 'payment' | 'transactions' | 'clients' | 'settings' | 'support';

async function go(page: Page, route: Route): Promise<void> {
  await closeDialogs(page);
  await page.click(`#nav-${route}`);
  await page.locator(`#page-${route}`).waitFor({ state: 'visible' });
  if (route === 'settings')
    await page
      .locator('#settings-form:not([hidden]), #settings-load-error:not(:empty)')
      .first()
      .waitFor({ state: 'visible', timeout: 10_000 });
}

async function closeDialogs(page: Page): Promise<void> {
  await page.evaluate(`for (const dialog of document.querySelectorAll('dialog[open]')) dialog.close()`);
}

/** A fresh page of the agent's window (settings typed and not saved are dropped). */
async function reload(page: Page): Promise<void> {
  await page.reload();
  await expect.poll(() => page.locator('body').getAttribute('data-connection'), { timeout: 10_000 }).toBe('ready');
}

async function trainingSale(page: Page, amount: string, until: string): Promise<void> {
  await go(page, 'payment');
  await page.fill('#training-amount', amount);
  await page.click('#training-start');
  await expect
    .poll(() => page.locator('#payment-current').getAttribute('data-status'), { timeout: 20_000 })
    .toBe(until);
}

async function openSale(page: Page, reference: string): Promise<void> {
  await go(page, 'transactions');
  const row = page.locator(`#transactions-body tr[data-reference="${reference}"]`);
  await row.waitFor({ timeout: 10_000 });
  await row.getByRole('button').click();
  await page.locator('#sale[open]').waitFor();
  await expect
    .poll(() => page.frameLocator('#receipt-frame').locator('body').innerText(), { timeout: 10_000 })
    .toMatch(/VIA D/);
}

/** Waits until the status line on top says `text` (issue 34: one "ready to sell" answer on every page). */
async function readyLineSays(page: Page, text: string): Promise<void> {
  await expect.poll(() => page.locator('#ready-text').innerText(), { timeout: 15_000 }).toBe(text);
}

/** An attempt at the payments API as its client reports it, answered or not (the health monitor's input). */
const apiAttempt = (answered: boolean) =>
  ({
    method: 'GET',
    path: '/v1/health',
    ok: answered,
    status: answered ? 200 : null,
    code: answered ? null : 'connection_error',
    message: answered ? null : 'connection refused',
    durationMs: 5,
    timeoutMs: 2_000,
  }) as const;

/** Takes the toast (the answer to F8) away, so it covers nothing of the next state. */
async function closeToast(page: Page): Promise<void> {
  const close = page.locator('#toast-close');
  if (await close.isVisible()) await close.click();
}

/** "Reimprimir último comprovante" by `how` (F8, or a button), until the toast says the outcome's `tone`. */
async function reprintLast(page: Page, how: string, tone: 'ok' | 'bad'): Promise<void> {
  await closeToast(page);
  if (how === 'F8') await page.keyboard.press('F8');
  else await page.click(how);
  const toast = page.locator('#toast');
  await expect
    .poll(async () => `${await toast.getAttribute('data-tone')}: ${await toast.innerText()}`, { timeout: 15_000 })
    .toMatch(new RegExp(`^${tone}: `));
}

type SearchField = 'from' | 'to' | 'amount' | 'code' | 'last4';

/** Unfolds the search's fields where they fold away (a short screen). */
async function unfoldSearch(page: Page): Promise<void> {
  const toggle = page.locator('#search-toggle');
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
}

/** Vendas → a search by `fields` with Buscar, until the list shows the sale `found` (null: "no sale found"). */
async function search(page: Page, fields: Partial<Record<SearchField, string>>, found: string | null): Promise<void> {
  await go(page, 'transactions');
  await unfoldSearch(page);
  for (const [field, value] of Object.entries(fields)) await page.fill(`#search-${field}`, value);
  await page.click('#search-submit');
  await expect
    .poll(() => page.locator('#transactions-title').innerText(), { timeout: 10_000 })
    .toBe('Resultado da busca');
  if (found === null) await page.locator('#transactions-empty:not([hidden])').waitFor({ timeout: 10_000 });
  else await page.locator(`#transactions-body tr[data-reference="${found}"]`).waitFor({ timeout: 10_000 });
  await page.locator('#transactions-count:not(:empty)').waitFor();
}

/** Back to the day's list from a search: "Vendas de hoje" where the fields are folded away, else "Limpar". */
async function backToToday(page: Page): Promise<void> {
  const today = page.locator('#search-today');
  await ((await today.isVisible()) ? today : page.locator('#search-clear')).click();
  await expect.poll(() => page.locator('#transactions-title').innerText()).toBe('Vendas de hoje');
}

/** The sale of `reference` in the journal of `rig`: its NSU and authorization code, as the receipt prints them. */
function journalSale(rig: PosRig, reference: string): { nsu: string; authorization: string } {
  const sale = rig.rig.engine.list().items.find((item) => item.referenceId === reference);
  const nsu = sale?.nsu;
  const authorization = sale?.authorizationCode;
  if (typeof nsu !== 'string' || typeof authorization !== 'string')
    throw new Error(`${reference} has no NSU or authorization code`);
  return { nsu, authorization };
}

/**
 * A confirmed sale of `client` (a paired POS) voided from its dialog in the window — with the
 * supervisor's PIN where `pin` is given — until the dialog says it is voided.
 */
async function voidNewSale(page: Page, client: RpcClient, reference: string, pin?: string): Promise<void> {
  await client.call('payment.start', {
    reference_id: reference,
    amount: 4560,
    payment_type: 'credit',
    installments: 1,
    description: 'Para cancelar',
  });
  await openSale(page, reference);
  await page.click('#sale-actions button.danger');
  await page.locator('#confirm-dialog[open]').waitFor();
  if (pin !== undefined) await page.fill('#confirm-supervisor-pin', pin);
  await page.click('#confirm-yes');
  await expect.poll(() => page.locator('#sale-message').innerText(), { timeout: 30_000 }).toContain('Venda cancelada');
  // The sale as the cashier knows it (amount, time, card, NSU), never its reference id.
  const said = await page.locator('#sale-message').innerText();
  expect(said).toMatch(/R\$ 45,60 das \d{2}:\d{2}:\d{2} · VISA final 1111 · NSU \S+\)$/);
  expect(said).not.toContain(reference);
}

/** The sale dialog's head and the receipt's buttons: always on screen, whatever the window. */
const SALE_DIALOG_IN_VIEW = ['#sale-title', '#sale-close', '#receipt-customer', '#receipt-merchant', '#receipt-print'];

const STATES: readonly State[] = [
  {
    page: 'login',
    name: 'no-key',
    host: 'login',
    setup: async (page) => {
      await page.locator('#login[data-problem="missing"]').waitFor();
    },
    inView: ['#login-title'],
  },
  {
    page: 'status',
    name: 'ready',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'status');
      await page.locator('#status-pinpads [data-connected="true"]').waitFor();
    },
  },
  {
    page: 'status',
    name: 'ready-line',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'status');
      await readyLineSays(page, 'Pronto para vender (treinamento)');
    },
    inView: ['#ready-line', '#training-banner'],
  },
  {
    page: 'payment',
    name: 'empty',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'payment');
      await page.locator('#payment-empty').waitFor();
    },
    inView: ['#payment-title', '#payment-empty'],
  },
  {
    page: 'payment',
    name: 'bad-amount',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'payment');
      await page.fill('#training-amount', '12.3.4');
      await page.click('#training-start');
      await page.locator('#training-error:not(:empty)').waitFor();
    },
    inView: ['#training-error', '#training-amount'],
    failure: ['#training-error'],
  },
  {
    page: 'payment',
    name: 'installments',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'payment');
      await page.fill('#training-amount', '150,00');
      // Reached as the cashier reaches it (Tab, a tap): the browser brings it into view.
      await page.focus('#training-installments');
      await page.selectOption('#training-installments', '3');
    },
    inView: ['#training-installments'],
  },
  {
    page: 'payment',
    name: 'installments-mistake',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'payment');
      await page.fill('#training-amount', '150,00');
      await page.selectOption('#training-installments', '12');
      await page.fill('#training-amount', '25,00');
      await page.click('#training-start');
      await page.locator('#training-installments-error:not(:empty)').waitFor();
    },
    // The field is focused: in view, its mistake under it.
    inView: ['#training-installments', '#training-installments-error'],
    failure: ['#training-installments-error'],
    // À vista again, and no amount: the next sales are the ones they ask for.
    teardown: async (page) => {
      await page.selectOption('#training-installments', '1');
      await page.fill('#training-amount', '');
    },
  },
  {
    page: 'payment',
    name: 'running',
    host: 'pos',
    setup: (page) => trainingSale(page, '12,34', 'running'),
    // The sale just started is on screen, below the banner, though "Iniciar" sat under it.
    inView: ['#payment-amount', '#payment-message', '#payment-cancel'],
  },
  {
    page: 'payment',
    name: 'esc-confirm',
    host: 'pos',
    setup: async (page) => {
      // A sale of its own (the one just shown may be over by now), and Esc as soon as it runs.
      await go(page, 'payment');
      await page.locator('#training-start:not([disabled])').waitFor({ timeout: 20_000 });
      await trainingSale(page, '12,34', 'running');
      await page.keyboard.press('Escape');
      await page.locator('#confirm-dialog[open]').waitFor();
    },
    inView: ['#confirm-title', '#confirm-text', '#confirm-no', '#confirm-yes'],
    // "Sim": the next state shows the sale cancelled.
    teardown: (page) => page.click('#confirm-yes'),
  },
  {
    page: 'payment',
    name: 'cancelled',
    host: 'pos',
    setup: async (page) => {
      await expect
        .poll(() => page.locator('#payment-current').getAttribute('data-status'), { timeout: 20_000 })
        .toBe('cancelled');
    },
    inView: ['#payment-amount', '#payment-result-status'],
  },
  {
    page: 'payment',
    name: 'approved',
    host: 'pos',
    setup: (page) => trainingSale(page, '1.234,56', 'approved'),
    inView: ['#payment-amount', '#payment-result-status'],
    announced: ['#payment-result-status'],
  },
  {
    page: 'payment',
    name: 'declined',
    host: 'pos',
    // ,51: the sandbox's insufficient funds; the reason is said beside NEGADA.
    setup: (page) => trainingSale(page, '10,51', 'declined'),
    inView: ['#payment-amount', '#payment-result-reason'],
    failure: ['#payment-result-status', '#payment-result-reason'],
  },
  {
    page: 'payment',
    name: 'reprint-last',
    host: 'pos',
    // After a sale (the declined one is on the page): its outcome at the bottom of the window.
    setup: async (page) => {
      await go(page, 'payment');
      await reprintLast(page, '#payment-reprint-last', 'ok');
    },
    inView: ['#payment-reprint-last', '#toast-status'],
    announced: ['#toast-status'],
    teardown: closeToast,
  },
  {
    page: 'status',
    name: 'reprint-last-f8',
    host: 'pos',
    // F8 on Situação, where there is no button: the outcome is said there all the same.
    setup: async (page) => {
      await go(page, 'status');
      await reprintLast(page, 'F8', 'ok');
      expect(await page.locator('#toast-status').innerText()).toMatch(/^Último comprovante: .* Impresso\.$/);
    },
    inView: ['#toast-status', '#toast-close'],
    announced: ['#toast-status'],
    teardown: closeToast,
  },
  {
    page: 'clients',
    name: 'reprint-last-f8',
    host: 'pos',
    // F8 works from every page: on Caixas too, the answer is where the cashier is.
    setup: async (page) => {
      await go(page, 'clients');
      await reprintLast(page, 'F8', 'ok');
      expect(await page.locator('#toast-status').innerText()).toMatch(/^Último comprovante: .* Impresso\.$/);
    },
    inView: ['#toast-status', '#toast-close'],
    announced: ['#toast-status'],
    teardown: closeToast,
  },
  {
    page: 'status',
    name: 'pos-sale-notice',
    host: 'pos',
    setup: async (page, { caixa }) => {
      await go(page, 'status');
      void caixa.call('payment.start', {
        reference_id: `aviso-${Date.now()}`,
        amount: 2500,
        payment_type: 'credit',
        installments: 1,
        description: 'Aviso',
      });
      await page.locator('#notice-payment:not([hidden])').waitFor({ timeout: 10_000 });
    },
    inView: ['#notice-payment'],
    // The next states start sales of their own: this one ends first.
    teardown: async (page) => {
      await page.locator('#notice-payment').waitFor({ state: 'hidden', timeout: 20_000 });
    },
  },
  {
    page: 'transactions',
    name: 'list',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'transactions');
      await page.locator('#transactions-body tr[data-reference="parcelado-1"]').waitFor({ timeout: 10_000 });
    },
  },
  {
    page: 'transactions',
    name: 'none-in-filter',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'transactions');
      // No sale of the day failed (one was declined, one cancelled): the filter shows none.
      await page.selectOption('#transactions-filter', 'failed');
      await page.locator('#transactions-empty:not([hidden])').waitFor();
    },
    teardown: (page) => page.selectOption('#transactions-filter', 'all').then(() => undefined),
  },
  {
    page: 'transactions',
    name: 'search-results',
    host: 'pos',
    setup: (page) => search(page, { amount: '1.234,56' }, 'parcelado-1'),
    // What Buscar found: its count and first row in view, the count said.
    inView: ['#transactions-count', '#transactions-body tr:first-child'],
    announced: ['#transactions-count'],
    teardown: backToToday,
  },
  {
    page: 'transactions',
    name: 'search-by-dates',
    host: 'pos',
    setup: (page) => search(page, { from: '01/01/2020' }, 'parcelado-1'),
    inView: ['#transactions-count', '#transactions-body tr:first-child'],
    announced: ['#transactions-count'],
    teardown: backToToday,
  },
  {
    page: 'transactions',
    name: 'search-by-nsu',
    host: 'pos',
    setup: (page, { pos }) => search(page, { code: journalSale(pos, 'parcelado-1').nsu }, 'parcelado-1'),
    inView: ['#transactions-count', '#transactions-body tr:first-child'],
    announced: ['#transactions-count'],
    teardown: backToToday,
  },
  {
    page: 'transactions',
    name: 'search-by-authorization',
    host: 'pos',
    setup: (page, { pos }) => search(page, { code: journalSale(pos, 'parcelado-1').authorization }, 'parcelado-1'),
    inView: ['#transactions-count', '#transactions-body tr:first-child'],
    announced: ['#transactions-count'],
    teardown: backToToday,
  },
  {
    page: 'transactions',
    name: 'search-by-last4',
    host: 'pos',
    setup: (page) => search(page, { last4: '1111' }, 'parcelado-1'),
    inView: ['#transactions-count', '#transactions-body tr:first-child'],
    announced: ['#transactions-count'],
    teardown: backToToday,
  },
  {
    page: 'transactions',
    name: 'search-none-found',
    host: 'pos',
    setup: async (page) => {
      await search(page, { amount: '9.876,54' }, null);
      expect(await page.locator('#transactions-count').innerText()).toBe('Nenhuma venda encontrada');
    },
    inView: ['#transactions-count', '#transactions-empty'],
    announced: ['#transactions-count'],
  },
  {
    page: 'transactions',
    name: 'back-to-today',
    host: 'pos',
    // "Vendas de hoje" (or "Limpar" where the fields show) after a search: the day's list in view, its count said.
    setup: async (page) => {
      await backToToday(page);
      await page.locator('#transactions-body tr[data-reference="parcelado-1"]').waitFor({ timeout: 10_000 });
      await expect.poll(() => page.locator('#transactions-count').innerText()).toMatch(/vendas hoje$/);
    },
    inView: ['#transactions-count', '#transactions-body tr:first-child'],
    announced: ['#transactions-count'],
  },
  {
    page: 'transactions',
    name: 'reprint-last',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'transactions');
      await reprintLast(page, '#transactions-reprint-last', 'ok');
    },
    inView: ['#transactions-reprint-last', '#toast-status'],
    announced: ['#toast-status'],
    teardown: closeToast,
  },
  {
    page: 'transactions',
    name: 'search-mistakes',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'transactions');
      await unfoldSearch(page);
      await page.fill('#search-amount', 'doze');
      await page.fill('#search-last4', '12a4');
      await page.click('#search-submit');
      await page.locator('#search-last4-error:not(:empty)').waitFor();
    },
    // The first mistake is brought into view (the focus goes to it).
    inView: ['#search-amount', '#search-amount-error'],
    failure: ['#search-amount-error', '#search-last4-error'],
    teardown: (page) => page.click('#search-clear'),
  },
  {
    page: 'transactions',
    name: 'pending-confirmations',
    host: 'confirm',
    setup: async (page) => {
      await go(page, 'transactions');
      await page.locator('#pending-confirmations li[data-reference="pendente-2"]').waitFor({ timeout: 10_000 });
    },
    inView: ['#pending-confirmations li[data-reference="pendente-1"]'],
  },
  {
    page: 'transactions',
    name: 'undo-confirm',
    host: 'confirm',
    setup: async (page) => {
      await page.locator('#pending-confirmations li[data-reference="pendente-2"] button.danger').click();
      await page.locator('#confirm-dialog[open]').waitFor();
    },
    inView: ['#confirm-title', '#confirm-text', '#confirm-no', '#confirm-yes'],
    teardown: (page) => page.click('#confirm-no'),
  },
  {
    page: 'sale',
    name: 'approved-receipt',
    host: 'pos',
    setup: (page) => openSale(page, 'parcelado-1'),
    inView: SALE_DIALOG_IN_VIEW,
  },
  {
    page: 'sale',
    name: 'merchant-copy',
    host: 'pos',
    setup: async (page) => {
      await page.click('#receipt-merchant');
      await expect
        .poll(() => page.frameLocator('#receipt-frame').locator('body').innerText(), { timeout: 10_000 })
        .toContain('VIA DO ESTABELECIMENTO');
    },
    inView: SALE_DIALOG_IN_VIEW,
  },
  {
    page: 'sale',
    name: 'void-confirm',
    host: 'pos',
    setup: async (page) => {
      await page.click('#sale-actions button.danger');
      await page.locator('#confirm-dialog[open]').waitFor();
    },
    inView: ['#confirm-title', '#confirm-text', '#confirm-supervisor-pin', '#confirm-no', '#confirm-yes'],
    teardown: (page) => page.click('#confirm-no'),
  },
  {
    page: 'sale',
    name: 'void-supervisor-wrong-pin',
    host: 'pos',
    setup: async (page) => {
      await openSale(page, 'parcelado-1');
      await page.click('#sale-actions button.danger');
      await page.locator('#confirm-dialog[open]').waitFor();
      await page.fill('#confirm-supervisor-pin', '0000');
      await page.click('#confirm-yes');
      await page.locator('#confirm-supervisor-error:not(:empty)').waitFor({ timeout: 10_000 });
    },
    inView: ['#confirm-supervisor-pin', '#confirm-supervisor-error', '#confirm-no', '#confirm-yes'],
    failure: ['#confirm-supervisor-error'],
    teardown: (page) => page.click('#confirm-no'),
  },
  {
    page: 'sale',
    name: 'void-supervisor-locked',
    host: 'pos',
    setup: async (page) => {
      // Five wrong PINs for the window's voids (as the agent counts them): locked for 5 minutes.
      for (let attempt = 0; attempt < MAX_FAILURES; attempt++) storePin.check('000000', 'window');
      await openSale(page, 'parcelado-1');
      await page.click('#sale-actions button.danger');
      await page.locator('#confirm-supervisor-countdown').waitFor({ timeout: 10_000 });
    },
    inView: ['#confirm-supervisor-lock', '#confirm-no', '#confirm-yes'],
    failure: ['#confirm-supervisor-lock'],
    // The store sets its PIN again: the lock and the wrong PINs so far are gone.
    teardown: async (page) => {
      await page.click('#confirm-no');
      storePin.set(STORE_PIN);
    },
  },
  {
    page: 'sale',
    name: 'voided-with-supervisor',
    host: 'pos',
    // The supervisor's PIN, then the void's confirmation on top of the sale's details, in view.
    setup: (page, { caixa }) => voidNewSale(page, caixa, `anular-${Date.now()}`, '482193'),
    inView: ['#sale-message', '#sale-title', '#sale-close'],
    announced: ['#sale-message'],
  },
  {
    page: 'sale',
    name: 'voided-receipt',
    host: 'pos',
    setup: async (page) => {
      await openSale(page, 'estornada-1');
      await expect.poll(() => page.locator('#receipt-note').innerText()).toBe('Comprovante de cancelamento');
    },
    inView: SALE_DIALOG_IN_VIEW,
  },
  {
    page: 'clients',
    name: 'paired-guard-blocked',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'clients');
      await page.locator('#paired-body tr').first().waitFor();
      await page.locator('#pairing-guard:not([hidden])').waitFor({ timeout: 10_000 });
      await page.locator('#blocked-list li').first().waitFor();
    },
  },
  {
    page: 'clients',
    name: 'pairing-request',
    host: 'pos',
    setup: async (page, { pos }) => {
      await go(page, 'clients');
      const stranger = await pos.connect({ origin: 'https://caixa-novo.loja-exemplo.com.br' });
      await stranger.call('session.pair', { name: 'Caixa 9 — Loja Centro' });
      await page.locator('.pairing').first().waitFor({ timeout: 10_000 });
    },
    inView: ['.pairing-code'],
    teardown: async (page) => {
      while ((await page.locator('.pairing').count()) > 0) {
        await page.locator('.pairing button.danger').first().click();
        await page.waitForTimeout(100);
      }
      await page.locator('#pairings-empty').waitFor({ state: 'visible' });
    },
  },
  {
    page: 'clients',
    name: 'revoke-confirm',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'clients');
      await page.locator('#paired-body tr button').first().click();
      await page.locator('#confirm-dialog[open]').waitFor();
    },
    inView: ['#confirm-no', '#confirm-yes'],
    teardown: (page) => page.click('#confirm-no'),
  },
  {
    page: 'settings',
    name: 'unreadable',
    host: 'pos',
    setup: async (page) => {
      await go(page, 'settings');
    },
  },
  {
    page: 'support',
    name: 'about',
    host: 'pos',
    setup: (page) => go(page, 'support'),
  },
  {
    page: 'settings',
    name: 'loaded',
    host: 'agent',
    setup: async (page) => {
      await reload(page);
      await go(page, 'settings');
      await page.locator('#settings-form').waitFor({ state: 'visible' });
    },
  },
  {
    page: 'settings',
    name: 'mistakes',
    host: 'agent',
    setup: async (page) => {
      await go(page, 'settings');
      await page.fill('#settings-api-base-url', 'ftp://x');
      await page.fill('#settings-merchant-cnpj', '12.345.678/0001-00');
      await page.fill('#settings-pinpad-address', 'pinpad da loja');
      await page.fill('#settings-printer-address', 'impressora da loja');
      await page.click('#settings-save');
      await page.locator('#settings-error:not(:empty)').waitFor({ timeout: 10_000 });
    },
    inView: ['#settings-save', '#settings-error'],
    failure: ['#settings-error'],
    teardown: reload,
  },
  {
    page: 'settings',
    name: 'finders',
    host: 'agent',
    setup: async (page) => {
      await go(page, 'settings');
      await page.click('#settings-pinpad-detect');
      await page.click('#settings-printer-system');
      await page.click('#settings-pinpad-ble');
      await expect.poll(() => page.locator('#settings-ports-status').innerText(), { timeout: 15_000 }).not.toBe('');
      await expect.poll(() => page.locator('#settings-system-printers li').count(), { timeout: 10_000 }).toBe(2);
      await expect.poll(() => page.locator('#settings-ble-devices li').count(), { timeout: 15_000 }).toBe(1);
    },
  },
  {
    page: 'settings',
    name: 'test-print-printer-off',
    host: 'agent',
    setup: async (page) => {
      await go(page, 'settings');
      await page.click('#settings-test-print');
      // The printer does not answer: the page says the test has not printed and why, as a failure, and that Pinbridge tries again.
      await page.locator('#settings-test-print-status[data-level="bad"]').waitFor({ timeout: 20_000 });
      expect(await page.locator('#settings-test-print-status').innerText()).toMatch(
        /^Teste ainda não impresso: a impressora não foi encontrada.*O Pinbridge tenta de novo sozinho\.$/,
      );
      await page.locator('#settings-test-print-status').scrollIntoViewIfNeeded();
    },
    inView: ['#settings-test-print-status'],
    failure: ['#settings-test-print-status'],
  },
  {
    page: 'status',
    name: 'printer-off',
    host: 'agent',
    setup: async (page) => {
      await go(page, 'status');
      await page.locator('#status-printers [data-level="bad"]').first().waitFor({ timeout: 20_000 });
    },
  },
  {
    page: 'status',
    name: 'update-pending',
    host: 'agent',
    setup: async (page, rigs) => {
      // What the desktop shell reports of a downloaded update (main/app/updates.ts).
      rigs.agent.updates.update({
        enabled: true,
        channel: 'latest',
        state: 'downloaded',
        version: '1.4.0',
        installWindow: '02:00-05:00',
      });
      await go(page, 'status');
      await page.locator('#status-update').scrollIntoViewIfNeeded();
    },
    inView: ['#status-update'],
    teardown: (_page, rigs) => {
      rigs.agent.updates.update({ enabled: false, channel: null, state: 'none', version: null, installWindow: null });
      return Promise.resolve();
    },
  },
  {
    page: 'payment',
    name: 'ready-line-printer-down',
    host: 'agent',
    setup: async (page) => {
      await go(page, 'payment');
      await readyLineSays(page, 'Impressora desconectada — as vendas seguem, o comprovante fica na fila');
    },
    inView: ['#ready-line'],
  },
  {
    page: 'support',
    name: 'doctor-and-logs',
    host: 'agent',
    setup: async (page) => {
      await go(page, 'support');
      await page.click('#support-doctor-run');
      await page.click('#support-logs-export');
      await expect
        .poll(() => page.locator('#support-checks li.check').count(), { timeout: 30_000 })
        .toBe(CHECK_IDS.length);
      await page.locator('#support-logs-box:not([hidden])').waitFor({ timeout: 10_000 });
    },
  },
  {
    page: 'support',
    name: 'support-bundle-made',
    host: 'agent',
    setup: async (page) => {
      await go(page, 'support');
      await page.click('#support-bundle-make');
      await expect
        .poll(() => page.locator('#support-bundle-status').getAttribute('data-state'), { timeout: 60_000 })
        .toBe('saved');
    },
    inView: ['#support-bundle-status'],
  },
  {
    page: 'status',
    name: 'live',
    host: 'live',
    setup: async (page) => {
      await go(page, 'status');
      await page.locator('#status-pinpads [data-connected="true"]').waitFor({ timeout: 10_000 });
    },
  },
  {
    page: 'payment',
    name: 'live-empty',
    host: 'live',
    setup: async (page) => {
      await go(page, 'payment');
      await page.locator('#payment-empty').waitFor();
    },
    inView: ['#payment-title', '#payment-empty'],
  },
  {
    page: 'transactions',
    name: 'live-list',
    host: 'live',
    setup: async (page) => {
      await go(page, 'transactions');
      await page.locator('#transactions-body tr[data-reference="ao-vivo-1"]').waitFor({ timeout: 10_000 });
    },
  },
  {
    page: 'transactions',
    name: 'ready-line-api-down',
    host: 'live',
    setup: async (page, { live }) => {
      await go(page, 'transactions');
      live.apiHealth.record(apiAttempt(false));
      await readyLineSays(page, 'Sem conexão com o serviço de pagamentos');
    },
    inView: ['#ready-line'],
    failure: ['#ready-line'],
    announced: ['#ready-text'],
    teardown: async (page, { live }) => {
      live.apiHealth.record(apiAttempt(true));
      await readyLineSays(page, 'Pronto para vender');
    },
  },
  {
    page: 'status',
    name: 'ready-line-pinpad-down',
    host: 'live',
    setup: async (page, { live }) => {
      await go(page, 'status');
      // The one plugged in now (a state at an earlier size plugged in another after pulling the first).
      live.pinpads.at(-1)?.unplug();
      await readyLineSays(page, 'PINPAD desconectado');
    },
    inView: ['#ready-line'],
    failure: ['#ready-line'],
    announced: ['#ready-text'],
    // A PINPAD plugged in again (another serial number: the one pulled stays listed, disconnected).
    teardown: async (page, { live }) => {
      await live.addPinpad(`LIVE${String(live.pinpads.length + 1).padStart(12, '0')}`, AUTO_CUSTOMER);
      await readyLineSays(page, 'Pronto para vender');
    },
  },
  {
    page: 'sale',
    name: 'voided-without-supervisor',
    host: 'live',
    // No supervisor in this store: "Sim, cancelar venda", then the confirmation in view.
    setup: (page, { liveCaixa }) => voidNewSale(page, liveCaixa, `anular-ao-vivo-${Date.now()}`),
    inView: ['#sale-message', '#sale-title', '#sale-close'],
    announced: ['#sale-message'],
  },
  {
    page: 'status',
    name: 'reprint-last-f8-printer-down',
    host: 'down',
    // F8 with the printer off: not printed, said as a failure with the reason, where the cashier is.
    setup: async (page) => {
      await go(page, 'status');
      await reprintLast(page, 'F8', 'bad');
      expect(await page.locator('#toast-error').innerText()).toMatch(
        /^Último comprovante: venda de R\$ [\d.,]+ às .*\. Ainda não impresso: a impressora não foi encontrada/,
      );
    },
    inView: ['#toast-error', '#toast-close'],
    failure: ['#toast-error'],
    teardown: closeToast,
  },
  {
    page: 'payment',
    name: 'reprint-last-printer-down',
    host: 'down',
    // After a sale, the printer known to be off: said at once, not "Na fila…" until a retry fails.
    setup: async (page) => {
      await trainingSale(page, '23,45', 'approved');
      await reprintLast(page, '#payment-reprint-last', 'bad');
    },
    inView: ['#payment-reprint-last', '#toast-error'],
    failure: ['#toast-error'],
    teardown: closeToast,
  },
  {
    page: 'transactions',
    name: 'reprint-last-printer-down',
    host: 'down',
    setup: async (page) => {
      await go(page, 'transactions');
      await reprintLast(page, '#transactions-reprint-last', 'bad');
    },
    inView: ['#transactions-reprint-last', '#toast-error'],
    failure: ['#toast-error'],
    teardown: closeToast,
  },
  {
    page: 'sale',
    name: 'reprint-printer-down',
    host: 'down',
    setup: async (page) => {
      await openSale(page, 'sem-impressora-1');
      // Scrolled first: Playwright's own scroll-and-click can land on the receipt frame just above.
      await page.locator('#receipt-print').scrollIntoViewIfNeeded();
      await page.click('#receipt-print');
      await expect
        .poll(() => page.locator('#sale-error').innerText(), { timeout: 15_000 })
        .toMatch(/^Ainda não impresso: a impressora não foi encontrada/);
    },
    inView: ['#sale-error', ...SALE_DIALOG_IN_VIEW],
    failure: ['#sale-error'],
  },
  {
    page: 'status',
    name: 'connection-lost',
    host: 'lost',
    setup: async (page) => {
      const doomed = await posRig();
      await page.goto(doomed.server.uiUrl(OPERATOR_KEY));
      await page.locator('body[data-connection="ready"]').waitFor({ state: 'attached', timeout: 10_000 });
      await page.locator('#status-pinpads [data-connected="true"]').waitFor({ timeout: 10_000 });
      await doomed.close();
      await page.locator('#status-pinpads[data-stale="true"]').waitFor({ state: 'attached', timeout: 15_000 });
    },
  },
  {
    page: 'status',
    name: 'ready-line-connection-lost',
    host: 'lost',
    // The window of the state before, its agent gone.
    // (Said as it changed, in the state before: its page was loaded there, so nothing before is recorded.)
    setup: async (page) => {
      await readyLineSays(page, 'Sem conexão com o Pinbridge — reconectando…');
      expect(await failureStyleProblems(page, ['#ready-line'])).toEqual([]);
    },
    inView: ['#ready-line'],
  },
];

const STORE_PIN = '482193';
/** The store's supervisor PIN (the pos rig's): a state locks it, and sets it again after. */
let storePin: SupervisorPin;

/** The store gives every void from the window to the supervisor (a PIN in the window or on the PINPAD). */
function storeSupervisor(file: string): SupervisorGuard {
  storePin = new SupervisorPin(file, { training: true, integrity: testIntegrityKey() });
  storePin.set(STORE_PIN);
  return supervisorGuard(storePin, {
    requiredFor: 'voids',
    minAmountCentavos: 0,
    entry: 'either',
    posVoids: 'trusted',
  });
}

let rigs: Rigs;
let browser: Browser;
let home: string;
/** English words no Portuguese text of the window uses (english.ts): none may show on the pt-BR window. */
let english: ReadonlySet<string>;

/**
 * The spec at one screen size: its own agents, POS servers and Chromium, so the three sizes run as
 * three files, side by side (layout-<width>x<height>.test.ts).
 */
export function layoutSpecAt(size: Size): void {
  beforeAll(async () => {
    for (const built of [
      ['dist', 'renderer', 'main.js'],
      ['dist', 'client', 'index.js'],
    ]) {
      if (!existsSync(join(PACKAGE_ROOT, ...built)))
        throw new Error(`${built.join('/')} is missing: run \`npm run build\` first`);
    }
    home = mkdtempSync(join(artifactsDir(), 'layout-agent-'));
    const logFile = join(home, 'agent.log');
    // The store, and a receipt printer that is off (a port nothing listens on): its troubles are shown too.
    const closed = CLOSED_PORT;
    mkdirSync(join(home, '.pinbridge'));
    writeFileSync(
      defaultSettingsPath(home),
      JSON.stringify({
        receipts: { merchant: { name: 'Padaria Teste', cnpj: '11222333000181' } },
        printers: { default: { address: `tcp://127.0.0.1:${closed}`, format: 'escpos' } },
      }),
    );
    // The simulated customer takes two seconds at each prompt: long enough to see a sale running.
    const [pos, confirm, live, down, agent, launched] = await Promise.all([
      posRig({
        simulator: { autoCustomer: { delayMs: 2000, card: 'visaCredit' } },
        supervisor: storeSupervisor(join(home, 'supervisor-pin')),
      }),
      // Long enough a deadline that the approvals still wait when the last size is shown.
      posRig({
        config: { confirmation: 'pos', confirmationDeadlineMs: 3_600_000 },
        simulator: { autoCustomer: { delayMs: 30, card: 'visaCredit' } },
      }),
      posRig({ mode: 'live', simulator: { autoCustomer: { delayMs: 30, card: 'visaCredit' } } }),
      // Its receipt printer is off: the same closed port as the agent's.
      posRig({
        printerAddress: `tcp://127.0.0.1:${closed}`,
        simulator: { autoCustomer: { delayMs: 30, card: 'visaCredit' } },
      }),
      Agent.start({
        settings: loadSettings(undefined, home),
        api: {},
        pinpadAddress: 'sim',
        home,
        posPorts: [0],
        logger: createLogger({ level: 'info', file: logFile }),
        logFile,
        noble: () => nobleDouble([{ ...PINPAD }]).noble,
        listSystemPrinters: () =>
          Promise.resolve([
            { name: 'Recibos_80mm', isDefault: true },
            { name: 'Escritorio', isDefault: false },
          ]),
      }),
      launchChromium(),
    ]);
    browser = launched;
    english = englishOnlyWords(await windowCatalogs());
    await agent.ready;
    // The day so far: a sale in 3 installments, a voided one, a paired POS, a wrong pairing code, a blocked origin.
    const caixa = await pos.paired('Caixa 1 — Frente de loja', { origin: 'https://caixa1.loja-exemplo.com.br' });
    await caixa.call('payment.start', {
      reference_id: 'parcelado-1',
      amount: 123456,
      payment_type: 'credit',
      installments: 3,
      description: 'Parcelado',
    });
    await caixa.call('payment.start', {
      reference_id: 'estornada-1',
      amount: 1990,
      payment_type: 'credit',
      installments: 1,
      description: 'Estornada',
    });
    await caixa.call('payment.undo', { reference_id: 'estornada-1' });
    const guesser = await pos.connect({ origin: 'https://adivinho.example.net' });
    const { pairing_id } = await guesser.call<{ pairing_id: string }>('session.pair', { name: 'Caixa falso' });
    const code = pos.announced.find((announced) => announced.pairingId === pairing_id)?.code ?? '';
    await guesser.failure('session.confirmPairing', { pairing_id, code: code === '000000' ? '000001' : '000000' });
    pos.clients.blockOrigin('https://bloqueado.example.com');
    const caixa2 = await confirm.paired('Caixa 2 — Balcão');
    for (const [reference, amount] of [
      ['pendente-1', 1500],
      ['pendente-2', 2500],
    ] as const) {
      await caixa2.call('payment.start', {
        reference_id: reference,
        amount,
        payment_type: 'credit',
        installments: 1,
        description: 'Pendente',
      });
    }
    const caixa3 = await live.paired('Caixa 3');
    await caixa3.call('payment.start', {
      reference_id: 'ao-vivo-1',
      amount: 4590,
      payment_type: 'credit',
      installments: 1,
      description: 'Ao vivo',
    });
    const caixa4 = await down.paired('Caixa 4');
    await caixa4.call('payment.start', {
      reference_id: 'sem-impressora-1',
      amount: 1500,
      payment_type: 'credit',
      installments: 1,
      description: 'Sem impressora',
    });
    rigs = { pos, agent, caixa, confirm, live, liveCaixa: caixa3, down };
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await rigs?.pos.close();
    await rigs?.confirm.close();
    await rigs?.live.close();
    await rigs?.down.close();
    await rigs?.agent.stop();
    console.log(`Layout screenshots: ${SHOTS}`);
  });

  describe(`at ${size.width}×${size.height}`, () => {
    const label = `${size.width}x${size.height}`;
    const contexts: BrowserContext[] = [];
    const pages = new Map<Host, Page>();
    const errors: string[] = [];

    beforeAll(async () => {
      mkdirSync(join(SHOTS, label), { recursive: true });
      const urls: Record<Host, string> = {
        pos: rigs.pos.server.uiUrl(OPERATOR_KEY),
        agent: rigs.agent.pos.uiUrl(rigs.agent.operatorKey),
        login: `http://127.0.0.1:${rigs.pos.server.port}/`,
        confirm: rigs.confirm.server.uiUrl(OPERATOR_KEY),
        // Its state opens an agent of its own; until then, any page.
        lost: 'about:blank',
        live: rigs.live.server.uiUrl(OPERATOR_KEY),
        down: rigs.down.server.uiUrl(OPERATOR_KEY),
      };
      for (const host of ['pos', 'agent', 'login', 'confirm', 'lost', 'live', 'down'] as const) {
        const context = await browser.newContext({ viewport: size, hasTouch: true });
        contexts.push(context);
        const page = await context.newPage();
        page.on('pageerror', (error) => errors.push(`${host}: ${error.message}`));
        page.on('console', (message) => {
          // The browser's own line for each failed reconnection is the state being shown, not a fault of the page.
          const reconnecting = host === 'lost' && /WebSocket connection to .* failed/.test(message.text());
          if (message.type() === 'error' && !reconnecting) errors.push(`${host}: ${message.text()}`);
        });
        await page.goto(urls[host]);
        if (host !== 'login' && host !== 'lost')
          await page.locator('body[data-connection="ready"]').waitFor({ state: 'attached', timeout: 10_000 });
        pages.set(host, page);
      }
    }, 60_000);

    afterAll(async () => {
      for (const context of contexts) await context.close().catch(() => undefined);
    });

    for (const state of STATES) {
      it(`${state.page} — ${state.name}`, async () => {
        const page = pages.get(state.host);
        if (page === undefined) throw new Error(`no window for ${state.host}`);
        const mark = await announcementMark(page);
        await state.setup(page, rigs);
        // Let a scroll, a resize observer and the fonts settle before looking.
        await page.waitForTimeout(200);
        await page.screenshot({ path: join(SHOTS, label, `${state.page}-${state.name}.png`) });
        const found = {
          inView: await notInView(page, state.inView ?? []),
          failure: await failureStyleProblems(page, state.failure ?? []),
          announced: await notAnnounced(page, [...(state.announced ?? []), ...(state.failure ?? [])], mark),
          touch: await controlsUnder44px(page),
          layout: await layoutProblems(page),
          axe: await seriousA11yViolations(page),
          english: englishIn(await shownTexts(page), english),
        };
        await state.teardown?.(page, rigs);
        // Vitest folds failures with the same message: LAYOUT_DEBUG=1 prints what each state found.
        if (process.env.LAYOUT_DEBUG !== undefined) console.log(label, state.page, state.name, JSON.stringify(found));
        expect(found).toEqual({ inView: [], failure: [], announced: [], touch: [], layout: [], axe: [], english: [] });
        expect(errors).toEqual([]);
      }, 90_000);
    }
  });
}
