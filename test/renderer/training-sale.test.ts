/**
 * The "Venda de teste" of training mode with installments, in real Chromium against the real POS
 * server (simulated PINPAD and its simulated customer, payments sandbox, engine, journal): the
 * cashier chooses credit or debit and, for credit, à vista or 2x… up to the installments in use
 * (session.operator), each shown with its value; a choice the amount does not allow is said at
 * the field and starts nothing; a 3x sale ends approved and the page, its receipt and the day's
 * list say 3x — the simulated customer pays it as chosen, the PINPAD asks nothing. The steps list
 * says "Aprovada" once. Esc's question ("Cancelar a venda em andamento?") goes by itself when the
 * sale ends meanwhile.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../drivers/printers/chromium.js';
import { OPERATOR_KEY, posRig, type PosRig } from '../main/pos/pos-rig.js';
import { FOCUSED, text } from './keyboard.js';
import { openWindowPage } from './window-page.js';

let browser: Browser;
const contexts: BrowserContext[] = [];
const rigs: PosRig[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});
afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
  for (const rig of rigs.splice(0)) await rig.close();
});
afterAll(async () => {
  await browser?.close();
});

/** The payment page of a window on `rig`, and the errors of the page. */
async function paymentPage(rig: PosRig): Promise<{ page: Page; errors: string[] }> {
  const { page, context, errors } = await openWindowPage(browser, rig.server.uiUrl(OPERATOR_KEY), {
    viewport: { width: 1024, height: 600 },
  });
  contexts.push(context);
  await page.click('#nav-payment');
  await page.locator('#training-sale').waitFor();
  return { page, errors };
}

/** Each option of the installments choice: its words, and whether it can be chosen. */
function options(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(
    `[...document.querySelectorAll('#training-installments option')].map((o) => o.textContent + (o.disabled ? ' (x)' : ''))`,
  );
}

describe('installments in the training sale', () => {
  it('offers à vista and 2x up to the installments in use, each with its value; greys what the amount does not allow, says so at the field and starts nothing; none for debit', async () => {
    // A store that offers 6 installments of R$ 10,00 at least.
    const rig = await posRig({
      config: { installments: { max: 6, minInstallmentAmount: 1_000 } },
      simulator: { autoCustomer: { delayMs: 30, card: 'visaCredit', matchApplication: true } },
    });
    rigs.push(rig);
    const { page, errors } = await paymentPage(rig);
    expect(await page.locator('label[for="training-installments"]').innerText()).toBe('Parcelas');
    expect(await options(page)).toEqual(['À vista', '2x', '3x', '4x', '5x', '6x']);
    expect(await page.inputValue('#training-installments')).toBe('1');

    // The amount typed: each installment's value, and R$ 45,00 allows 4 of R$ 10,00 at least.
    await page.fill('#training-amount', '45,00');
    expect(await options(page)).toEqual([
      'À vista',
      '2x de R$ 22,50',
      '3x de R$ 15,00',
      '4x de R$ 11,25',
      '5x de R$ 9,00 (x)',
      '6x de R$ 7,50 (x)',
    ]);

    // 4x chosen, then the amount lowered: said at the field, in the failure style; nothing starts.
    await page.selectOption('#training-installments', '4');
    await page.fill('#training-amount', '25,00');
    await page.click('#training-start');
    await expect
      .poll(() => text(page, '#training-installments-error'))
      .toBe('Para R$ 25,00, no máximo 2x: cada parcela deve ser de pelo menos R$ 10,00.');
    expect(await page.locator('#training-installments-error').getAttribute('class')).toBe('error');
    expect(await page.locator('#training-installments').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate<string>(FOCUSED)).toBe('training-installments');
    expect(rig.rig.engine.list().items).toEqual([]);
    expect(await page.isVisible('#payment-empty')).toBe(true);

    // Debit: no installments to choose.
    await page.check('input[name="training-type"][value="debit"]');
    expect(await page.locator('#training-installments').isDisabled()).toBe(true);
    await page.check('input[name="training-type"][value="credit"]');
    expect(await page.locator('#training-installments').isDisabled()).toBe(false);
    expect(errors).toEqual([]);
  });

  it('runs a 3x sale from the window to APROVADA: the simulated customer pays it as chosen, and the result, the receipt and the day’s list say 3x', async () => {
    const rig = await posRig({ simulator: { autoCustomer: { delayMs: 30, card: 'visaCredit' } } });
    rigs.push(rig);
    const { page, errors } = await paymentPage(rig);
    await page.fill('#training-amount', '150,00');
    await page.check('input[name="training-type"][value="credit"]');
    await page.selectOption('#training-installments', '3');
    expect(await page.locator('#training-installments option:checked').innerText()).toBe('3x de R$ 50,00');
    await page.click('#training-start');

    const current = page.locator('#payment-current');
    await expect.poll(() => current.getAttribute('data-status'), { timeout: 15_000 }).toBe('approved');
    expect(await text(page, '#payment-result-status')).toContain('APROVADA');
    expect(await text(page, '#payment-result-details')).toMatch(/Tipo\s+Crédito em 3x/);
    const reference = (await current.getAttribute('data-reference'))!;
    expect(rig.rig.engine.list().items.find((item) => item.referenceId === reference)).toMatchObject({
      status: 'approved',
      amount: 15_000,
      paymentType: 'credit',
      installments: 3,
    });
    // Chosen in the window: the PINPAD did not ask the customer.
    expect(await page.locator('#payment-steps li[data-step="choosing_installments"]').count()).toBe(0);
    // "Aprovada" once in the steps, though the automatic confirmation says it again.
    const steps = await page.locator('#payment-steps li span').allInnerTexts();
    expect(steps.filter((step) => step === 'Aprovada')).toHaveLength(1);
    expect(steps.at(-1)).toBe('Venda confirmada');

    // The customer's receipt: credit in installments, 3 of R$ 50,00.
    await expect
      .poll(() => page.frameLocator('#payment-receipt-frame').locator('body').innerText(), { timeout: 10_000 })
      .toMatch(/CRÉDITO PARCELADO[\s\S]*PARCELAS\s+3x R\$ 50,00/);

    // The day's list.
    await page.click('#nav-transactions');
    const row = page.locator(`#transactions-body tr[data-reference="${reference}"]`);
    await row.waitFor({ timeout: 10_000 });
    expect((await row.locator('td').allInnerTexts()).slice(1, 3)).toEqual(['R$ 150,00', 'Crédito em 3x']);
    expect(errors).toEqual([]);
  });
});

describe('Esc on a sale running', () => {
  it('takes its question away when the sale ends while it is asked: a "Sim" never turns into the void of an approval', async () => {
    // The customer takes half a second at each prompt: the sale ends while the question is on screen.
    const rig = await posRig({ simulator: { autoCustomer: { delayMs: 500, card: 'visaCredit' } } });
    rigs.push(rig);
    const { page, errors } = await paymentPage(rig);
    await page.fill('#training-amount', '150,00');
    await page.selectOption('#training-installments', '3');
    await page.click('#training-start');
    const current = page.locator('#payment-current');
    await expect.poll(() => current.getAttribute('data-status'), { timeout: 10_000 }).toBe('running');
    await page.keyboard.press('Escape');
    await page.locator('#confirm-dialog[open]').waitFor();
    expect(await text(page, '#confirm-title')).toBe('Cancelar a venda em andamento?');

    await expect.poll(() => current.getAttribute('data-status'), { timeout: 15_000 }).toBe('approved');
    await page.locator('#confirm-dialog').waitFor({ state: 'hidden' });
    const reference = (await current.getAttribute('data-reference'))!;
    expect(rig.rig.engine.status(reference)).toMatchObject({ outcome: { state: 'confirmed' } });
    expect(errors).toEqual([]);
  });
});
