/**
 * The public documents of the sandbox over real HTTP: the boleto PDF and the Pix QR PNG of a
 * bolepix, served without a token outside /v1, and 404 (error shape A) for anything that is not
 * a boleto. Transaction rows are written with SQL here, in the shape the transactions routes
 * store (the contract's `Transaction` as JSON, integer amounts, document links as paths).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../main/contract/index.js';
import { boletoPdfUrl, formatSandboxNossoNumero, issueBoletoNumbers } from '../../../main/sandbox/boleto/index.js';
import { blankTransaction } from '../../../main/sandbox/payments/create.js';
import { pixCopyAndPaste } from '../../../main/sandbox/pix/brcode.js';
import { pixQrPngUrl } from '../../../main/sandbox/pix/qr.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { newId } from '../../../main/sandbox/time.js';
import { freshMarket, storeBuyer, type Market } from '../../helpers/sandbox.js';
import { pdfText } from './boleto/pdf-text.js';

let sandbox: RunningSandbox;
let market: Market;
let buyerId = '';
let sequence = 1;

function transaction(kind: 'boleto' | 'bolepix' | 'credit', overrides: Partial<Transaction> = {}): Transaction {
  const id = newId();
  const amount = 25_990;
  const numbers = issueBoletoNumbers({ amountCentavos: amount, dueDate: '2026-12-05', sequence: sequence++ });
  const isBoleto = kind !== 'credit';
  const basics = { amount, description: 'Pedido 1001', reference_id: 'PED-1001', on_behalf_of: market.sellerId };
  return {
    ...blankTransaction(market.id, id, basics, '2026-11-21T13:00:00+00:00'),
    payment_type: kind,
    payment_locale: kind === 'credit' ? 'pinpad' : 'api',
    customer: isBoleto ? buyerId : null,
    terminal: kind === 'credit' ? 'PINPAD-1' : null,
    gateway_authorizer: isBoleto ? 'ITAU' : null,
    ...(isBoleto
      ? {
          boleto: {
            barcode: numbers.barcode,
            digitable_line: numbers.digitableLine,
            url: boletoPdfUrl('', id),
            expiration_date: '2026-12-05',
            payment_limit_date: '2026-12-15',
            billing_instructions: {
              late_fee: { mode: 'PERCENTAGE', percentage: 2 },
              interest: { mode: 'MONTHLY_PERCENTAGE', percentage: 1 },
            },
            status: 'not_paid' as const,
            paid_at: null,
          },
        }
      : {}),
    ...(kind === 'bolepix'
      ? {
          pix: {
            qr_code: pixCopyAndPaste({
              key: '11222333000181',
              merchantName: 'Loja Exemplo Ltda',
              merchantCity: 'Sao Paulo',
              amountCentavos: amount,
              txid: id.slice(0, 25),
            }),
            qr_code_url: pixQrPngUrl('', id),
            expiration_date_time: '2026-12-05T23:59:59+00:00',
          },
        }
      : {}),
    ...overrides,
  };
}

/** The text of the boleto PDF the sandbox serves for transaction `id`. */
async function servedPdfText(id: string): Promise<string> {
  return pdfText(Buffer.from(await (await fetch(boletoPdfUrl(sandbox.url, id))).arrayBuffer()));
}

function store(tx: Transaction): Transaction {
  sandbox.context.db
    .statement(
      `INSERT INTO transactions (id, marketplace_id, seller_id, reference_id, terminal, payment_type, payment_locale, status, data, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      tx.id,
      market.id,
      market.sellerId,
      tx.reference_id,
      tx.terminal,
      tx.payment_type,
      tx.payment_locale,
      tx.status,
      JSON.stringify(tx),
      tx.created_at,
      tx.updated_at,
    );
  return tx;
}

beforeAll(async () => {
  sandbox = await startSandbox({ openapi: true });
  market = await freshMarket(sandbox);
  buyerId = storeBuyer(market, {
    first_name: 'Maria Aparecida',
    last_name: 'Souza',
    taxpayer_id: '52998224725',
    address: {
      line1: 'Rua das Flores, 123',
      neighborhood: 'Centro',
      city: 'São Paulo',
      state: 'SP',
      postal_code: '01001000',
    },
  });
});

afterAll(async () => {
  await sandbox.close();
});

describe('GET /boletos/{transaction_id}.pdf', () => {
  it('serves the boleto PDF without a token, with the digitable line, amount, payer and seller', async () => {
    const tx = store(transaction('boleto'));
    expect(tx.boleto?.url).toBe(`/boletos/${tx.id}.pdf`);
    const response = await fetch(`${sandbox.url}${tx.boleto?.url ?? ''}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const pdf = Buffer.from(await response.arrayBuffer());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain(tx.boleto?.digitable_line);
    expect(text).toContain('R$ 259,90');
    expect(text).toContain('05/12/2026');
    expect(text).toContain('Loja Exemplo Ltda — CNPJ 11.222.333/0001-81');
    expect(text).toContain('Maria Aparecida Souza — CPF 529.982.247-25');
    expect(text).toContain('Rua das Flores, 123');
    expect(text).toContain('Centro — São Paulo/SP — CEP 01001-000');
    expect(text).toContain(formatSandboxNossoNumero(tx.boleto?.barcode.slice(22, 30) ?? ''));
    expect(text).toContain('PED-1001');
    expect(text).toContain('Após o vencimento, cobrar multa de 2% (R$ 5,20).');
    expect(text).toContain('Pagável em qualquer banco até 15/12/2026.');
    expect(text).not.toContain('Pague com Pix');
  });

  it('prints inline payer data kept on the record as `payer` instead of the customer', async () => {
    const tx = transaction('boleto');
    const stored = store({
      ...tx,
      payer: { first_name: 'Pedro', last_name: 'Alves', taxpayer_id: '39053344705', address: null },
    } as Transaction);
    const text = await servedPdfText(stored.id);
    expect(text).toContain('Pedro Alves — CPF 390.533.447-05');
    expect(text).not.toContain('Maria Aparecida');
  });

  it('names a company payer with an alphanumeric CNPJ as CNPJ 12.ABC.345/01DE-35', async () => {
    const tx = transaction('boleto');
    const stored = store({
      ...tx,
      payer: { first_name: 'Mercadinho Nova Era', last_name: 'Ltda', ein: '12ABC34501DE35', address: null },
    } as Transaction);
    expect(await servedPdfText(stored.id)).toContain('Mercadinho Nova Era Ltda — CNPJ 12.ABC.345/01DE-35');
  });

  it('stamps a paid boleto PAGO and a cancelled one CANCELADO', async () => {
    const paid = transaction('boleto', { status: 'succeeded' });
    const paidTx = store({
      ...paid,
      boleto: { ...paid.boleto!, status: 'paid', paid_at: '2026-11-30T10:00:00+00:00' },
    });
    const paidText = await servedPdfText(paidTx.id);
    expect(paidText).toContain('PAGO');
    expect(paidText).toContain('em 30/11/2026');

    const canceled = transaction('boleto', { status: 'canceled' });
    const canceledTx = store({ ...canceled, boleto: { ...canceled.boleto!, status: 'canceled' } });
    const canceledText = await servedPdfText(canceledTx.id);
    expect(canceledText).toContain('CANCELADO');
  });

  it('adds the Pix section to a bolepix PDF', async () => {
    const tx = store(transaction('bolepix'));
    const text = await servedPdfText(tx.id);
    expect(text).toContain('Pague com Pix');
    expect(text.replace(/\n/g, '')).toContain(tx.pix?.qr_code);
  });

  it('answers 404 (shape A) for an unknown id and for a card transaction', async () => {
    for (const id of [newId(), store(transaction('credit')).id, 'not-an-id']) {
      const response = await fetch(boletoPdfUrl(sandbox.url, id));
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['detail', 'status', 'trace_id']);
      expect(body.status).toBe(404);
      expect(body.detail).toBe(`Boleto not found: ${id}`);
    }
  });
});

describe('GET /pix/{transaction_id}.png', () => {
  it('serves the QR code PNG of a bolepix without a token', async () => {
    const tx = store(transaction('bolepix'));
    expect(tx.pix?.qr_code_url).toBe(`/pix/${tx.id}.png`);
    const response = await fetch(`${sandbox.url}${tx.pix?.qr_code_url ?? ''}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await response.arrayBuffer());
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect(png.readUInt32BE(16)).toBe(png.readUInt32BE(20));
  });

  it('answers 404 for a plain boleto (no Pix option), an unknown id and a card transaction', async () => {
    const boleto = store(transaction('boleto'));
    const plain = await fetch(pixQrPngUrl(sandbox.url, boleto.id));
    expect(plain.status).toBe(404);
    expect(((await plain.json()) as { detail: string }).detail).toMatch(/has no Pix payment option/);
    for (const id of [newId(), store(transaction('credit')).id]) {
      const response = await fetch(pixQrPngUrl(sandbox.url, id));
      expect(response.status).toBe(404);
      expect(((await response.json()) as { status: number }).status).toBe(404);
    }
  });
});

describe('documents in the OpenAPI document', () => {
  it('are public routes tagged documents with binary responses', () => {
    const paths = sandbox.openapi().paths as Record<
      string,
      Record<
        string,
        { tags: string[]; security: unknown[]; responses: Record<string, { content: Record<string, unknown> }> }
      >
    >;
    const pdf = paths['/boletos/{transaction_id}.pdf']?.get;
    const png = paths['/pix/{transaction_id}.png']?.get;
    expect(pdf?.tags).toEqual(['documents']);
    expect(pdf?.security).toEqual([]);
    expect(Object.keys(pdf?.responses['200']?.content ?? {})).toEqual(['application/pdf']);
    expect(png?.tags).toEqual(['documents']);
    expect(png?.security).toEqual([]);
    expect(Object.keys(png?.responses['200']?.content ?? {})).toEqual(['image/png']);
  });
});
