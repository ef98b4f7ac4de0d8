/**
 * Public documents, like the real service's public boleto links: the boleto PDF
 * (`GET /boletos/{transaction_id}.pdf`) and the PNG of a bolepix's Pix QR code
 * (`GET /pix/{transaction_id}.png`). They sit outside /v1 and need no token: the links are
 * handed to payers. A transaction that does not exist, or is not a boleto / bolepix, is 404.
 */
import { Type } from 'typebox';
import { ErrorA, type Transaction } from '../../contract/index.js';
import type { RouteRegistrar } from '../app.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { boletoPdfInput, isBoletoTransaction, type BuyerData } from '../boleto/document.js';
import { findSeller } from '../marketplaces.js';
import { findBuyer } from '../store/buyers.js';
import { renderPixQrPng } from '../pix/qr.js';

const DocumentParams = Type.Object({
  transaction_id: Type.String({ description: 'Id of the boleto or bolepix transaction (32 hexadecimal characters).' }),
});

const binary = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } },
});

interface TransactionRow {
  data: string;
  marketplace_id: string;
  seller_id: string;
}

function findBoletoTransaction(
  ctx: SandboxContext,
  transactionId: string,
): { transaction: Transaction; row: TransactionRow } {
  const row = ctx.db
    .statement('SELECT data, marketplace_id, seller_id FROM transactions WHERE id = ?')
    .get(transactionId) as TransactionRow | undefined;
  const transaction = row ? (JSON.parse(row.data) as Transaction) : undefined;
  if (!row || !transaction || !isBoletoTransaction(transaction)) {
    throw notFound(`Boleto not found: ${transactionId}`);
  }
  return { transaction, row };
}

export const registerDocumentRoutes: RouteRegistrar = (app, ctx) => {
  app.get(
    '/boletos/:transaction_id.pdf',
    {
      config: { auth: false, errorShape: 'A' },
      schema: {
        tags: ['documents'],
        operationId: 'getBoletoPdf',
        summary: 'The boleto as a PDF (public link)',
        description:
          'A4 boleto in Brazilian Portuguese with the ITF barcode, the digitable line and, for a bolepix, the Pix QR code. ' +
          'Marked "SANDBOX — SEM VALOR"; stamped PAGO or CANCELADO by status. No token needed.',
        security: [],
        params: DocumentParams,
        response: { 200: binary('application/pdf', 'The boleto PDF.'), 404: ErrorA },
      },
    },
    async (request, reply) => {
      const { transaction, row } = findBoletoTransaction(ctx, request.params.transaction_id);
      const seller = findSeller(ctx, row.marketplace_id, row.seller_id);
      // Inline payer data (payment_method.buyer) wins when the record keeps it as `payer`;
      // otherwise the customer, even one removed after the boleto was issued.
      const inlinePayer = (transaction as Transaction & { payer?: BuyerData | null }).payer ?? undefined;
      const buyer =
        inlinePayer ??
        (transaction.customer === null
          ? undefined
          : findBuyer(ctx.db, row.marketplace_id, transaction.customer, { includeRemoved: true }));
      // pdfkit is loaded for the first PDF asked for, not at every start of the sandbox.
      const { renderBoletoPdf } = await import('../boleto/pdf.js');
      const pdf = await renderBoletoPdf(boletoPdfInput(transaction, seller, buyer));
      return reply
        .type('application/pdf')
        .header('content-disposition', `inline; filename="boleto-${transaction.id}.pdf"`)
        .header('cache-control', 'no-store')
        .send(pdf);
    },
  );

  app.get(
    '/pix/:transaction_id.png',
    {
      config: { auth: false, errorShape: 'A' },
      schema: {
        tags: ['documents'],
        operationId: 'getPixQrCode',
        summary: 'The Pix QR code of a bolepix as a PNG (public link)',
        description: 'Encodes the transaction\'s Pix "copia e cola" payload (`pix.qr_code`). No token needed.',
        security: [],
        params: DocumentParams,
        response: { 200: binary('image/png', 'The QR code image.'), 404: ErrorA },
      },
    },
    async (request, reply) => {
      const { transaction } = findBoletoTransaction(ctx, request.params.transaction_id);
      if (!transaction.pix) throw notFound(`Pix QR code not found: ${transaction.id} has no Pix payment option`);
      const png = await renderPixQrPng(transaction.pix.qr_code);
      return reply.type('image/png').header('cache-control', 'no-store').send(png);
    },
  );
};
