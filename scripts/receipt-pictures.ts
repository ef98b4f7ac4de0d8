/**
 * Draws the README's receipt pictures: a training card receipt (customer and merchant copies)
 * and a bolepix slip on 80 mm paper, rendered by the same SVG the cashier's window shows, in
 * Debian's Chromium. Run: `npx tsx scripts/receipt-pictures.ts` (writes docs/images/*.png).
 */
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { renderHtml } from '../drivers/printers/html.js';
import type { PrintDocument } from '../drivers/printers/document.js';
import { buildCardReceipt, cardReceiptDocument } from '../main/receipts/card-receipt.js';
import { TRAINING_RECEIPT_SETTINGS } from '../main/receipts/settings.js';
import { approvedPayment } from '../test/fixtures/approved-payment.js';

const record = approvedPayment({ installments: 3, customerTaxId: '52998224725' });

const receipt = buildCardReceipt(record, { settings: TRAINING_RECEIPT_SETTINGS, training: true });
const pictures: Array<[string, PrintDocument]> = [
  ['docs/images/receipt-customer-80mm.png', cardReceiptDocument(receipt, 'customer')],
  ['docs/images/receipt-merchant-80mm.png', cardReceiptDocument(receipt, 'merchant')],
];

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1.5 });
  for (const [path, document] of pictures) {
    await page.setContent(renderHtml(document, 42));
    const paper = page.locator('svg').first();
    writeFileSync(path, await paper.screenshot());
    console.log(`wrote ${path}`);
  }
} finally {
  await browser.close();
}
