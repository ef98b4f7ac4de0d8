/**
 * Receipts (issue 5): building a card receipt from a journal record and encoding it as ESC/POS
 * for an 80 mm printer — what happens between a payment's end and the first byte to the printer —
 * per receipt (median, p99) and the bytes a receipt takes on the wire (a 9600 bps serial printer
 * moves about 1 KB/s). The SVG and PDF renders (window preview, printers without ESC/POS) are
 * timed beside it.
 */
import { performance } from 'node:perf_hooks';
import { encodeEscPos } from '../../drivers/printers/escpos.js';
import { renderPdf } from '../../drivers/printers/pdf.js';
import { renderSvg } from '../../drivers/printers/svg.js';
import { buildCardReceipt, cardReceiptDocument } from '../../main/receipts/card-receipt.js';
import type { ReceiptSettings } from '../../main/receipts/settings.js';
import { approvedPayment, APPROVED_AT } from '../fixtures/approved-payment.js';
import { round, stats, type Stats } from './harness.js';

const SETTINGS: ReceiptSettings = {
  merchant: {
    name: 'PADARIA PÃO DOURADO LTDA',
    cnpj: '11222333000181',
    address: ['Av. São João, 1000 - Centro', 'São Paulo - SP'],
  },
  acquirer: { cnpj: '01027058000191' },
  footer: 'Obrigado pela preferência!',
};

const RECORD = approvedPayment({ installments: 3, customerTaxId: '52998224725' });
const EVENTS = APPROVED_AT;

function time(samples: number, work: () => unknown): Stats {
  for (let i = 0; i < Math.ceil(samples / 10); i++) work();
  const ms: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    work();
    ms.push(performance.now() - start);
  }
  const s = stats(ms);
  return { samples: s.samples, medianMs: round(s.medianMs, 4), p99Ms: round(s.p99Ms, 4), minMs: round(s.minMs, 4) };
}

export interface ReceiptsBench {
  /** Record → receipt model → customer copy (a PrintDocument). */
  readonly build: Stats;
  /** Record → receipt model → customer copy → ESC/POS bytes (Epson TM-T20III, 48 columns). */
  readonly buildAndEncode: Stats;
  readonly escposBytes: { readonly customer: number; readonly merchant: number };
  /** The same copy as SVG (window preview) and PDF (printers without ESC/POS). */
  readonly svg: Stats;
  readonly pdf: Stats;
  readonly pdfBytes: number;
}

export async function benchReceipts(samples = 2000): Promise<ReceiptsBench> {
  const encode = (copy: 'customer' | 'merchant'): Uint8Array =>
    encodeEscPos(cardReceiptDocument(buildCardReceipt(RECORD, { settings: SETTINGS, events: EVENTS }), copy), {
      columns: 48,
      printerModel: 'epson-tm-t20iii',
    });
  const document = cardReceiptDocument(buildCardReceipt(RECORD, { settings: SETTINGS, events: EVENTS }), 'customer');
  const pdfMs: number[] = [];
  let pdfBytes = 0;
  for (let i = 0; i < 100; i++) {
    const start = performance.now();
    pdfBytes = (await renderPdf(document, 48)).length;
    if (i >= 10) pdfMs.push(performance.now() - start);
  }
  const pdf = stats(pdfMs);
  return {
    build: time(samples, () =>
      cardReceiptDocument(buildCardReceipt(RECORD, { settings: SETTINGS, events: EVENTS }), 'customer'),
    ),
    buildAndEncode: time(samples, () => encode('customer')),
    escposBytes: { customer: encode('customer').length, merchant: encode('merchant').length },
    svg: time(samples / 4, () => renderSvg(document, 48)),
    pdf: {
      samples: pdf.samples,
      medianMs: round(pdf.medianMs, 3),
      p99Ms: round(pdf.p99Ms, 3),
      minMs: round(pdf.minMs, 3),
    },
    pdfBytes,
  };
}
