/**
 * The Vendas page where people look, in real Chromium against the real POS server: the amounts of
 * the narrow row cards (800×480) stand in one column, centavos under centavos, whatever each
 * row's type ("Débito", "Crédito à vista", "Crédito em 3x"); and the search's dates read and are
 * typed dd/mm/aaaa in the Portuguese window even on a browser set to American English, whose own
 * date fields would say mm/dd/yyyy.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallClock } from '../../main/locale/store-time.js';
import { launchChromium } from '../drivers/printers/chromium.js';
import { OPERATOR_KEY, posRig, type PosRig } from '../main/pos/pos-rig.js';
import { FOCUSED, text } from './keyboard.js';
import { openWindowPage } from './window-page.js';

let browser: Browser;
let pos: PosRig;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [pos, browser] = await Promise.all([
    posRig({
      timeZone: 'America/Sao_Paulo',
      // The card follows the sale: credit by Visa …1111, debit by Visa …5556.
      simulator: { autoCustomer: { delayMs: 5, card: 'visaCredit', matchApplication: true } },
    }),
    launchChromium(),
  ]);
  const caixa = await pos.paired('Caixa 1');
  for (const [reference, amount, type, installments] of [
    ['vista-1', 990, 'credit', 1],
    ['debito-1', 123456, 'debit', undefined],
    ['parcelado-1', 4560, 'credit', 3],
  ] as const) {
    await caixa.call('payment.start', {
      reference_id: reference,
      amount,
      payment_type: type,
      ...(installments === undefined ? {} : { installments }),
      description: 'Pedido',
    });
  }
}, 60_000);

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => undefined);
  await browser?.close();
  await pos?.close();
});

async function salesPage(options: { viewport: { width: number; height: number }; locale?: string }): Promise<{
  page: Page;
  errors: string[];
}> {
  const { page, context, errors } = await openWindowPage(browser, pos.server.uiUrl(OPERATOR_KEY), options);
  contexts.push(context);
  await page.click('#nav-transactions');
  await expect.poll(() => page.locator('#transactions-body tr').count(), { timeout: 10_000 }).toBe(3);
  return { page, errors };
}

/** Where each row's amount text starts and ends on screen (its characters, not its cell), by reference. */
function amountEdges(page: Page): Promise<Record<string, { left: number; right: number }>> {
  return page.evaluate(`Object.fromEntries([...document.querySelectorAll('#transactions-body tr')].map((row) => {
    const range = document.createRange();
    range.selectNodeContents(row.querySelector('td.num'));
    const box = range.getBoundingClientRect();
    return [row.dataset.reference, { left: box.left, right: box.right }];
  }))`);
}

describe('the amounts of the day’s sales', () => {
  it('stand in one column in the narrow row cards: centavos under centavos for credit, debit and installments', async () => {
    const { page, errors } = await salesPage({ viewport: { width: 800, height: 480 } });
    // The narrow window shows row cards, not the table.
    expect(
      await page.evaluate<string>(`getComputedStyle(document.querySelector('#transactions-body tr')).display`),
    ).toBe('grid');
    const types = await page.locator('#transactions-body tr td:nth-child(3)').allInnerTexts();
    expect(types.sort()).toEqual(['Crédito em 3x', 'Crédito à vista', 'Débito']);
    const edges = await amountEdges(page);
    const rights = Object.values(edges).map((edge) => edge.right);
    expect(Math.max(...rights) - Math.min(...rights)).toBeLessThan(1);
    // The longest amount's left edge is the column's; the shorter ones start further right, not elsewhere.
    expect(edges['debito-1']!.left).toBeLessThan(edges['vista-1']!.left);
    expect(errors).toEqual([]);
  });

  it('stand in the table’s column at 1280×800 too', async () => {
    const { page, errors } = await salesPage({ viewport: { width: 1280, height: 800 } });
    const rights = Object.values(await amountEdges(page)).map((edge) => edge.right);
    expect(Math.max(...rights) - Math.min(...rights)).toBeLessThan(1);
    expect(errors).toEqual([]);
  });
});

describe('the search’s dates', () => {
  it('read and are typed dd/mm/aaaa in the Portuguese window of a browser set to American English', async () => {
    const { page, errors } = await salesPage({ viewport: { width: 1024, height: 600 }, locale: 'en-US' });
    expect(await page.evaluate<string>('navigator.language')).toBe('en-US');
    const wall = wallClock(new Date(), 'America/Sao_Paulo');
    const today = `${String(wall.day).padStart(2, '0')}/${String(wall.month).padStart(2, '0')}/${wall.year}`;
    expect(await page.inputValue('#search-from')).toBe(today);
    expect(await page.inputValue('#search-to')).toBe(today);
    // What the cashier sees: the date as written, and the format beside the label.
    expect(await page.locator('#search-from').getAttribute('type')).toBe('text');
    expect(await text(page, 'label[for="search-from"]')).toBe('De dd/mm/aaaa');
    expect(await text(page, 'label[for="search-to"]')).toBe('Até dd/mm/aaaa');

    // Typed with digits only: the slashes come by themselves.
    await page.fill('#search-from', '');
    await page.focus('#search-from');
    await page.keyboard.type('01012026');
    expect(await page.inputValue('#search-from')).toBe('01/01/2026');
    // Day and month of one digit, with the slashes typed.
    await page.fill('#search-from', '');
    await page.keyboard.type('1/3/2026');
    expect(await page.inputValue('#search-from')).toBe('01/03/2026');

    // A date that is not on the calendar is said at its field, and nothing is searched.
    await page.fill('#search-from', '31/02/2026');
    await page.click('#search-submit');
    await expect
      .poll(() => text(page, '#search-from-error'))
      .toBe('Data inválida: digite dia, mês e ano, por exemplo 10/03/2026.');
    expect(await page.locator('#search-from').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate<string>(FOCUSED)).toBe('search-from');
    expect(await text(page, '#transactions-title')).toBe('Vendas de hoje');

    // From the first of the month (a search), then back to today.
    const first = `01/${String(wall.month).padStart(2, '0')}/${wall.year}`;
    await page.fill('#search-from', first);
    await page.click('#search-submit');
    await expect.poll(() => text(page, '#transactions-title')).toBe('Resultado da busca');
    await expect.poll(() => page.locator('#transactions-body tr').count()).toBe(3);
    expect(await text(page, '#search-from-error')).toBe('');
    // A search's rows say their date, dd/mm/aaaa too.
    expect(await page.locator('#transactions-body tr td').first().innerText()).toMatch(
      /^\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}$/,
    );
    await page.click('#search-clear');
    expect(await page.inputValue('#search-from')).toBe(today);
    expect(errors).toEqual([]);
  });
});
