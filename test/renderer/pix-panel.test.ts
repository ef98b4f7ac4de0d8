/**
 * Pix at the counter in the window, in real Chromium at 800×480 (a common POS touch screen):
 * when the POS shows a bolepix with pix.show, the window opens its Pix panel over the page — the
 * QR the customer scans, the amount, and the PINPAD's screen beside it. On a text-only PINPAD
 * the window is where the customer pays: what the browser draws, read back by a QR decoder from
 * a screenshot of the window, is exactly the bolepix's BR Code. Once the sandbox pays it, the
 * panel says "Pix recebido". On a graphic PINPAD the mirror shows the very image the PINPAD holds.
 * (The scripts must be built first: `npm run build`, which `npm test` runs.)
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../drivers/printers/chromium.js';
import { decodePng, decodeQrPng, readQr } from '../helpers/qr-decode.js';
import { displayed } from '../main/core/engine-rig.js';
import {
  AUTO_CUSTOMER,
  checkedCall as call,
  OPERATOR_KEY,
  posRig,
  type PosRig,
  type PosRigOptions,
  type RpcClient,
} from '../main/pos/pos-rig.js';
import { notInView, seriousA11yViolations } from './layout.js';
import { openWindowPage, type WindowPage } from './window-page.js';
import { createBolepix, newBuyer, payByPix } from '../main/pos/bolepix-rig.js';

let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
});

/** What a phone pointed at the window reads: a screenshot of the viewport, decoded. */
async function qrOnScreen(page: Page): Promise<string | null> {
  const shot = decodePng(await page.screenshot());
  return readQr(shot.rgba, shot.width, shot.height);
}

/** The window at 800×480, logged in; on the status page unless it opens mid-show (going to a page puts the QR away). */
async function openWindow(pos: PosRig, options: { readonly toStatus?: boolean } = {}): Promise<WindowPage> {
  const window = await openWindowPage(browser, pos.server.uiUrl(OPERATOR_KEY), {
    viewport: { width: 800, height: 480 },
    hasTouch: true,
    waitReady: false,
  });
  await window.page.locator('body[data-connection="ready"]').waitFor({ state: 'attached', timeout: 10_000 });
  if (options.toStatus !== false) await window.page.click('#nav-status');
  return window;
}

/** One describe's checkout: its agent's POS side (a POS rig), a paired POS and the window at 800×480. */
interface Checkout {
  readonly pos: PosRig;
  readonly client: RpcClient;
  readonly window: WindowPage;
}

/** Sets up a checkout before the describe's specs and closes it after them; read it inside a spec. */
function checkout(options: PosRigOptions = {}): Checkout {
  let state: Checkout | undefined;
  beforeAll(async () => {
    const pos = await posRig(options);
    state = { pos, client: await pos.paired('Caixa Pix'), window: await openWindow(pos) };
  }, 60_000);
  afterAll(async () => {
    await state?.window.context.close();
    await state?.pos.close();
  });
  return {
    get pos() {
      return state!.pos;
    },
    get client() {
      return state!.client;
    },
    get window() {
      return state!.window;
    },
  };
}

describe('a text-only PINPAD: the customer pays from the window', () => {
  const at = checkout({ autoPrint: ['customer'] });

  it('shows the QR over the page, in view and readable, with the amount and the PINPAD pointing at it', async () => {
    const { pos, client, window } = at;
    const { page } = window;
    const bolepix = await createBolepix(client, await newBuyer(pos));
    const shown = await call(client, 'pix.show', { transaction_id: bolepix.id });
    expect(shown.pinpad).toBe('text');

    await page.locator('#pix-panel[data-state="waiting"]').waitFor();
    expect(await notInView(page, ['#pix-qr', '#pix-title', '#pix-amount', '#pix-pinpad'])).toEqual([]);
    expect(await page.locator('#pix-title').innerText()).toBe('Pague com Pix');
    expect(await page.locator('#pix-amount').innerText()).toBe('R$ 150,00');
    // The PINPAD tells the customer to look here; the window's mirror says the same.
    expect(pos.pinpads[0]!.sim.display.lines.slice(0, 2)).toEqual(['PAGUE COM PIX', 'QR NA TELA']);
    expect((await page.locator('#pix-pinpad-text').innerText()).split('\n')).toEqual(['PAGUE COM PIX', 'QR NA TELA']);
    // The page under it is out of the way; the panel is accessible.
    expect(await page.locator('#page-status').isVisible()).toBe(false);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // What a phone reads off the window is exactly the bolepix's BR Code.
    expect(await qrOnScreen(page)).toBe(bolepix.pix.qr_code);

    // "Imprimir QR": for a customer who scans better from paper; the window says it printed.
    const printedBefore = pos.printedJobs().length;
    await page.getByRole('button', { name: 'Imprimir QR' }).click();
    await expect.poll(() => page.locator('#pix-print-message').innerText()).toBe('QR Code: Impresso.');
    expect(pos.printedJobs().length).toBe(printedBefore + 1);
    expect(await notInView(page, ['#pix-print-message'])).toEqual([]);

    await payByPix(pos, bolepix.id);
    await page.locator('#pix-panel[data-state="paid"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('#pix-title').innerText()).toBe('Pix recebido');
    // The receipt of the Pix printed by itself, and the window follows it.
    await expect.poll(() => page.locator('#pix-print-message').innerText()).toBe('Comprovante: Impresso.');
    expect(pos.printedJobs().length).toBe(printedBefore + 2);
    expect(await page.locator('#pix-amount').innerText()).toBe('R$ 150,00');
    expect((await page.locator('#pix-pinpad-text').innerText()).split('\n')).toEqual(['PIX RECEBIDO', 'R$ 150,00']);
    expect(await notInView(page, ['#pix-title', '#pix-amount', '#pix-status'])).toEqual([]);
    await displayed(pos.pinpads[0]!.sim, /PIX RECEBIDO/);
    // The QR is gone: nothing left to pay.
    expect(await page.locator('#pix-qr').count()).toBe(0);

    await page.getByRole('button', { name: 'Fechar' }).click();
    await expect.poll(() => page.locator('#pix-panel').isHidden()).toBe(true);
    expect(await page.locator('#page-status').isVisible()).toBe(true);
    expect(window.errors).toEqual([]);
  }, 40_000);

  it('"Ocultar" puts the QR away behind a notice that brings it back; a window opened later finds it too', async () => {
    const { pos, client, window } = at;
    const { page } = window;
    const bolepix = await createBolepix(client, await newBuyer(pos), 4_990);
    await call(client, 'pix.show', { transaction_id: bolepix.id });
    await page.locator('#pix-panel[data-state="waiting"]').waitFor();
    await expect.poll(() => page.locator('#pix-amount').innerText()).toBe('R$ 49,90');

    await page.getByRole('button', { name: 'Ocultar' }).click();
    await expect.poll(() => page.locator('#pix-panel').isHidden()).toBe(true);
    expect(await page.locator('#notice-pix-text').innerText()).toBe('Pix de R$ 49,90 aguardando pagamento');
    expect(await notInView(page, ['#notice-pix-show'])).toEqual([]);

    // A second window (or this one after a reload) opens mid-show: it reads the show with pix.list.
    const later = await openWindow(pos, { toStatus: false });
    try {
      await later.page.locator('#pix-panel[data-state="waiting"]').waitFor();
      expect(await qrOnScreen(later.page)).toBe(bolepix.pix.qr_code);
    } finally {
      await later.context.close();
    }

    await page.click('#notice-pix-show');
    await page.locator('#pix-panel[data-state="waiting"]').waitFor();
    expect(await qrOnScreen(page)).toBe(bolepix.pix.qr_code);

    // "Cancelar Pix": the QR goes from the window and the PINPAD is free again.
    await page.getByRole('button', { name: 'Cancelar Pix' }).click();
    await expect.poll(() => page.locator('#pix-panel').isHidden()).toBe(true);
    expect(await page.locator('#notice-pix').isHidden()).toBe(true);
    await displayed(pos.pinpads[0]!.sim, /CAIXA LIVRE/);
    expect(window.errors).toEqual([]);
  }, 40_000);
});

describe('a Pix paid while a card sale runs on the PINPAD it was taken from', () => {
  const at = checkout({ simulator: {} });

  it('is said in the toast, not over the sale the cashier is following', async () => {
    const { pos, client, window } = at;
    const { page } = window;
    const bolepix = await createBolepix(client, await newBuyer(pos));
    await call(client, 'pix.show', { transaction_id: bolepix.id });
    await page.locator('#pix-panel[data-state="waiting"]').waitFor();

    // The customer pays by card instead: the sale takes the PINPAD, the QR goes from the window too.
    const referenceId = `card-${Date.now()}`;
    const sale = client.call('payment.start', {
      reference_id: referenceId,
      amount: 1_234,
      payment_type: 'credit',
      installments: 1,
      description: 'Pedido',
    });
    await expect.poll(() => page.locator('#pix-panel').isHidden()).toBe(true);
    await expect.poll(() => page.locator('#notice-payment').isVisible()).toBe(true);

    // …then the Pix is paid after all (from the paper, say): the window says so without covering the sale.
    await payByPix(pos, bolepix.id);
    await expect.poll(() => page.locator('#toast-status').innerText()).toBe('Pix de R$ 150,00 recebido.');
    expect(await page.locator('#pix-panel').isHidden()).toBe(true);
    expect(await notInView(page, ['#toast-status'])).toEqual([]);

    await call(client, 'payment.cancel', { reference_id: referenceId });
    await sale.catch(() => undefined);
    expect(window.errors).toEqual([]);
  }, 40_000);
});

describe('a practice Pix from the training form: the cashier plays the whole flow', () => {
  const at = checkout();

  it('"Pix" in "Venda de teste" shows a QR of the amount typed; "Simular pagamento" plays the bank and the panel says Pix recebido', async () => {
    const { pos, window } = at;
    const { page } = window;
    await page.click('#nav-payment');
    await page.getByRole('radio', { name: 'Pix' }).check();
    expect(await page.locator('#training-installments').isDisabled()).toBe(true);
    await page.fill('#training-amount', '25,00');
    await page.click('#training-start');

    await page.locator('#pix-panel[data-state="waiting"]').waitFor();
    expect(await page.locator('#pix-amount').innerText()).toBe('R$ 25,00');
    // The QR on the screen is the practice bolepix's own, as the agent lists it.
    const operator = await pos.operator();
    const { shows } = await call(operator, 'pix.list', {});
    await operator.close();
    expect(shows).toHaveLength(1);
    expect(await qrOnScreen(page)).toBe(shows[0]!.br_code);
    expect(await notInView(page, ['#pix-qr', '#pix-amount'])).toEqual([]);

    await page.getByRole('button', { name: 'Simular pagamento' }).click();
    await page.locator('#pix-panel[data-state="paid"]').waitFor({ timeout: 15_000 });
    expect(await page.locator('#pix-amount').innerText()).toBe('R$ 25,00');
    await displayed(pos.pinpads[0]!.sim, /PIX RECEBIDO/);
    expect(window.errors).toEqual([]);
  }, 40_000);

  it("says at the amount why a Pix cannot be made (below a boleto's minimum)", async () => {
    const { window } = at;
    const { page } = window;
    await page
      .getByRole('button', { name: 'Fechar' })
      .click()
      .catch(() => undefined);
    await page.click('#nav-payment');
    await page.getByRole('radio', { name: 'Pix' }).check();
    await page.fill('#training-amount', '1,00');
    await page.click('#training-start');
    await expect
      .poll(() => page.locator('#training-error').innerText())
      .toBe('O Pix de teste precisa ser de pelo menos R$ 3,00 (o mínimo de um boleto).');
    expect(await notInView(page, ['#training-error'])).toEqual([]);
    expect(await page.locator('#pix-panel').isHidden()).toBe(true);
    expect(window.errors).toEqual([]);
  }, 20_000);
});

describe('a graphic PINPAD (PPC-930): the window mirrors the image it shows', () => {
  const at = checkout({ simulator: { profile: 'ppc930', ...AUTO_CUSTOMER } });

  it('shows the image file the PINPAD displays, beside the QR for the customer', async () => {
    const { pos, client, window } = at;
    const { page } = window;
    const bolepix = await createBolepix(client, await newBuyer(pos));
    expect((await call(client, 'pix.show', { transaction_id: bolepix.id })).pinpad).toBe('image');
    await page.locator('#pix-panel[data-state="waiting"]').waitFor();
    const held = pos.pinpads[0]!.sim.display.image!;
    // The mirror's image is the PINPAD's file, byte for byte, drawn at its own size's proportions.
    const src = await page.locator('#pix-pinpad-image').getAttribute('src');
    expect(Buffer.from(src!.replace(/^data:image\/png;base64,/, ''), 'base64')).toEqual(Buffer.from(held.bytes));
    expect(decodeQrPng(held.bytes)).toBe(bolepix.pix.qr_code);
    const natural = await page.locator('#pix-pinpad-image').evaluate((element) => {
      const img = element as unknown as { complete: boolean; naturalWidth: number; naturalHeight: number };
      return [img.complete, img.naturalWidth, img.naturalHeight];
    });
    expect(natural).toEqual([true, 240, 320]);
    expect(await notInView(page, ['#pix-pinpad-image', '#pix-qr'])).toEqual([]);
    expect(await qrOnScreen(page)).toBe(bolepix.pix.qr_code);

    await payByPix(pos, bolepix.id);
    await page.locator('#pix-panel[data-state="paid"]').waitFor({ timeout: 15_000 });
    expect((await page.locator('#pix-pinpad-text').innerText()).split('\n')).toEqual(['PIX RECEBIDO', 'R$ 150,00']);
    expect(window.errors).toEqual([]);
  }, 40_000);
});
