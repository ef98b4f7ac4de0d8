/**
 * Draws the README's receipt pictures: a training card receipt (customer and merchant copies)
 * and a bolepix slip on 80 mm paper, rendered by the same SVG the cashier's window shows, in
 * Debian's Chromium. Run: `npx tsx scripts/receipt-pictures.ts` (writes docs/images/*.png).
 */
import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { renderHtml } from '../drivers/printers/html.js';
import type { PrintDocument } from '../drivers/printers/document.js';
import type { PaymentRecord } from '../main/core/journal/record.js';
import { buildCardReceipt, cardReceiptDocument } from '../main/receipts/card-receipt.js';
import { TRAINING_RECEIPT_SETTINGS } from '../main/receipts/settings.js';

const record: PaymentRecord = {
  id: '5f0c1d2e3a4b5c6d7e8f9a0b1c2d3e4f',
  referenceId: 'pedido-1001',
  source: 'pos',
  terminal: 'PB0000012345',
  amount: 45000,
  paymentType: 'credit',
  installments: 3,
  description: 'Pedido 1001',
  notification: 'Pedido 1001',
  paramsHash: 'h',
  confirmation: 'auto',
  state: 'confirmed',
  transactionId: 'b7e4c1a9d3f2e8a6c5b4d3e2f1a0c9b8',
  card: { brand: 'visa', maskedPan: '411111******1111', entryMode: 'chip', verification: 'online_pin' },
  authorization: { authorizationCode: '654321', nsu: '000123456', responseCode: '00', responseMessage: 'Approved', transactionNumber: 'Z482913-000123456', acquirer: 'sandbox' },
  problem: null,
  customerTaxId: '52998224725',
  confirmDeadline: null,
  pendingUndo: null,
  createdAt: '2026-11-21T17:03:20.000Z',
  updatedAt: '2026-11-21T17:03:29.000Z',
  finishedAt: '2026-11-21T17:03:29.000Z',
};

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
