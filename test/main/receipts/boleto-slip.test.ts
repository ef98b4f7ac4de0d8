/**
 * Boleto and bolepix slips from real API objects (the sandbox over HTTP): what the cashier hands
 * over to be paid at a bank, a lottery outlet or a banking app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layout, renderText } from '../../../drivers/printers/layout.js';
import { PaymentsClient, type Transaction } from '../../../main/api/index.js';
import { boletoSlipDocument } from '../../../main/receipts/boleto-slip.js';
import type { ReceiptSettings } from '../../../main/receipts/settings.js';
import { startSandbox, type RunningSandbox } from '../../../main/sandbox/server.js';
import { thrown } from '../../helpers/thrown.js';

const settings: ReceiptSettings = { merchant: { name: 'ESCOLA ABC LTDA', cnpj: '11222333000181' } };

let sandbox: RunningSandbox;
let client: PaymentsClient;
let boleto: Transaction;
let bolepix: Transaction;

beforeAll(async () => {
  sandbox = await startSandbox({});
  client = new PaymentsClient({ baseUrl: sandbox.url, token: sandbox.token, marketplaceId: sandbox.marketplaceId });
  const payer = await client.buyers.create({ first_name: 'Bruno', taxpayer_id: '86288366757' });
  const common = {
    on_behalf_of: sandbox.sellerId,
    customer: payer.id,
    amount: 15_000,
    description: 'Mensalidade março',
  };
  boleto = await client.boletos.create({ ...common, reference_id: 'slip-boleto' });
  bolepix = await client.boletos.createBolepix({ ...common, reference_id: 'slip-bolepix' });
});
afterAll(async () => {
  await sandbox.close();
});

describe('the boleto slip', () => {
  it('shows the amount, the due date, the digitable line and the ITF barcode of the 44 digits', () => {
    const document = boletoSlipDocument(boleto, { settings });
    const printed = renderText(document, 42);
    expect(printed).toContain('BOLETO BANCÁRIO');
    expect(printed).toMatch(/VALOR +R\$ 150,00/);
    const [year, month, day] = boleto.boleto!.expiration_date.split('-');
    expect(printed).toMatch(new RegExp(`VENCIMENTO +${day}/${month}/${year}`));
    expect(printed.replace(/\s+/g, ' ')).toContain(boleto.boleto!.digitable_line);
    const codes = layout(document, 42).lines.filter((line) => line.kind !== 'text');
    expect(codes).toEqual([{ kind: 'barcode', symbology: 'itf', data: boleto.boleto!.barcode }]);
    expect(document.title).toBe('Boleto de R$ 150,00');
  });

  it('heads the slip of a store with an alphanumeric CNPJ with CNPJ 12.ABC.345/01DE-35', () => {
    const store: ReceiptSettings = { merchant: { name: 'MERCADINHO NOVA ERA', cnpj: '12ABC34501DE35' } };
    const printed = renderText(boletoSlipDocument(boleto, { settings: store }), 32).split('\n');
    expect(printed.slice(0, 2).map((line) => line.trim())).toEqual(['MERCADINHO NOVA ERA', 'CNPJ 12.ABC.345/01DE-35']);
  });

  it('leaves the barcode off 58 mm paper, too narrow for 44 digits, and says to pay by the digitable line', () => {
    const document = boletoSlipDocument(boleto, { settings, columns: 32 });
    expect(layout(document, 32).lines.filter((line) => line.kind !== 'text')).toEqual([]);
    expect(renderText(document, 32).replace(/\s+/g, ' ')).toContain(
      'Pague digitando a linha acima no app do seu banco.',
    );
  });

  it('marks a cancelled boleto "do not pay", training slips and reprints', () => {
    const cancelled: Transaction = { ...boleto, boleto: { ...boleto.boleto!, status: 'canceled' } };
    expect(renderText(boletoSlipDocument(cancelled, { settings }), 42)).toContain('N Ã O   P A G U E');
    const training = renderText(boletoSlipDocument(boleto, { settings, training: true, reprint: true }), 32).split(
      '\n',
    );
    expect(training[0]).toContain('TREINAMENTO');
    expect(training.at(-1)).toContain('TREINAMENTO');
    expect(training.join('\n')).toContain('REIMPRESSÃO');
  });

  it('refuses a card transaction or a boleto without its barcode (INVALID_INPUT)', () => {
    expect(thrown(() => boletoSlipDocument({ ...boleto, payment_type: 'credit' }, { settings }))).toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect(
      thrown(() => boletoSlipDocument({ ...boleto, boleto: { ...boleto.boleto!, barcode: '123' } }, { settings })),
    ).toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('the bolepix slip', () => {
  it('adds the Pix QR code with its payload and its expiry, after the boleto barcode', () => {
    const document = boletoSlipDocument(bolepix, { settings });
    const printed = renderText(document, 48);
    expect(printed).toContain('BOLETO COM PIX');
    expect(printed).toContain('PAGUE COM PIX');
    expect(printed).toMatch(/Pix válido até \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/);
    const codes = layout(document, 48).lines.filter((line) => line.kind !== 'text');
    expect(codes).toEqual([
      { kind: 'barcode', symbology: 'itf', data: bolepix.boleto!.barcode },
      { kind: 'qrcode', data: bolepix.pix!.qr_code },
    ]);
  });

  it('refuses a bolepix without its Pix (INVALID_INPUT)', () => {
    const { pix: _pix, ...withoutPix } = bolepix;
    expect(thrown(() => boletoSlipDocument(withoutPix as Transaction, { settings }))).toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
