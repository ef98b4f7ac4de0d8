import { describe, expect, it } from 'vitest';
import {
  formatSandboxNossoNumero,
  issueBoletoNumbers,
  SANDBOX_AGENCIA_CODIGO,
} from '../../../../main/sandbox/boleto/index.js';
import { formatBrl, formatDateBr, formatTaxId, taxIdKind } from '../../../../main/locale/br-format.js';
import { instructionLines } from '../../../../main/sandbox/boleto/instructions.js';
import { renderBoletoPdf, toWinAnsi, type BoletoPdfInput } from '../../../../main/sandbox/boleto/pdf.js';
import { pixCopyAndPaste } from '../../../../main/sandbox/pix/brcode.js';
import { pdfText } from './pdf-text.js';

const numbers = issueBoletoNumbers({ amountCentavos: 123_456, dueDate: '2026-12-01', sequence: 42 });

const base: BoletoPdfInput = {
  bankCode: '341',
  bankName: 'Itaú',
  barcode: numbers.barcode,
  digitableLine: numbers.digitableLine,
  nossoNumero: formatSandboxNossoNumero(numbers.nossoNumero),
  agenciaCodigo: SANDBOX_AGENCIA_CODIGO,
  carteira: '109',
  documentNumber: 'PED-42',
  documentDate: '2026-11-21',
  dueDate: '2026-12-01',
  paymentLimitDate: '2026-12-10',
  amountCentavos: 123_456,
  beneficiary: { name: 'Loja Exemplo Ltda', taxId: '11222333000181' },
  payer: {
    name: 'José da Conceição',
    taxId: '12345678909',
    addressLines: ['Rua das Flores, 123', 'Centro — São Paulo/SP — CEP 01001-000'],
  },
  description: 'Pedido 42',
  instructions: ['Após o vencimento, cobrar multa de 2% (R$ 24,69).', 'Não receber após 10 dias do vencimento.'],
  status: 'not_paid',
};

describe('boleto PDF', () => {
  it('is a PDF carrying the digitable line, the amount, the parties and the instructions in Portuguese', async () => {
    const pdf = await renderBoletoPdf(base, { compress: false });
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    expect(text).toContain(numbers.digitableLine);
    expect(text).toContain('R$ 1.234,56');
    expect(text).toContain('Vencimento');
    expect(text).toContain('01/12/2026');
    expect(text).toContain('Valor do documento');
    expect(text).toContain('Loja Exemplo Ltda — CNPJ 11.222.333/0001-81');
    expect(text).toContain('José da Conceição — CPF 123.456.789-09');
    expect(text).toContain('Centro — São Paulo/SP — CEP 01001-000');
    expect(text).toContain('Nosso número');
    expect(text).toContain(base.nossoNumero);
    expect(text).toContain('0057 / 12345-7');
    expect(text).toContain('Após o vencimento, cobrar multa de 2% (R$ 24,69).');
    expect(text).toContain('Pagável em qualquer banco até 10/12/2026.');
    expect(text).toContain('SANDBOX — SEM VALOR');
    expect(text).not.toContain('PAGO');
    expect(text).not.toContain('CANCELADO');
    expect(text).not.toContain('Pague com Pix');
  });

  it('names a company payer with an alphanumeric CNPJ as CNPJ 12.ABC.345/01DE-35', async () => {
    const text = pdfText(
      await renderBoletoPdf(
        { ...base, payer: { name: 'Mercadinho Nova Era Ltda', taxId: '12ABC34501DE35', addressLines: [] } },
        { compress: false },
      ),
    );
    expect(text).toContain('Mercadinho Nova Era Ltda — CNPJ 12.ABC.345/01DE-35');
  });

  it('compresses its streams by default', async () => {
    const compressed = await renderBoletoPdf(base);
    expect(compressed.toString('latin1')).toContain('/FlateDecode');
    // The test helper inflates them: the same text is there.
    expect(pdfText(compressed)).toContain(numbers.digitableLine);
  });

  it('stamps PAGO with the payment date, or CANCELADO', async () => {
    const paid = pdfText(
      await renderBoletoPdf({ ...base, status: 'paid', paidAt: '2026-11-30T10:00:00+00:00' }, { compress: false }),
    );
    expect(paid).toContain('PAGO');
    expect(paid).toContain('em 30/11/2026');
    const canceled = pdfText(await renderBoletoPdf({ ...base, status: 'canceled' }, { compress: false }));
    expect(canceled).toContain('CANCELADO');
    expect(canceled).not.toContain('PAGO');
  });

  it('shows the Pix QR code section with the copia-e-cola text for a bolepix', async () => {
    const payload = pixCopyAndPaste({
      key: '11222333000181',
      merchantName: 'Loja Exemplo',
      merchantCity: 'Sao Paulo',
      amountCentavos: 123_456,
    });
    const pdf = await renderBoletoPdf(
      { ...base, pix: { copyAndPaste: payload, expiresAt: '2026-12-01T23:59:59+00:00' } },
      { compress: false },
    );
    const text = pdfText(pdf);
    expect(text).toContain('Pague com Pix');
    expect(text.replace(/\n/g, '')).toContain(payload);
    expect(text).toContain('QR Code válido até 01/12/2026 23:59 (UTC).');
  });

  it('draws the ITF barcode as vector bars: 22 digit pairs between start and stop', async () => {
    const pdf = (await renderBoletoPdf(base, { compress: false })).toString('latin1');
    // Each bar is a `re` + `f` path; ITF of 44 digits has 2 (start) + 22 × 5 + 2 (stop) = 114 bars.
    // The page draws other filled rectangles only for the Pix QR code, which this boleto has not.
    const filledRects = pdf.match(/re\nf\n/g) ?? [];
    expect(filledRects.length).toBe(114);
  });

  it('survives names the standard fonts cannot draw', async () => {
    expect(toWinAnsi('Łódź 東京 café — “ok”')).toBe('?ódz ?? café — “ok”');
    const text = pdfText(await renderBoletoPdf({ ...base, payer: { name: '山田 Ōta' } }, { compress: false }));
    expect(text).toContain('?? Ota');
    expect(text).toContain('Endereço não informado');
  });
});

describe('instruction lines', () => {
  it('words the boleto shape (late fee, interest, discounts, free text) in Portuguese', () => {
    expect(
      instructionLines(
        {
          late_fee: { mode: 'PERCENTAGE', percentage: 2, start_date: null },
          interest: { mode: 'MONTHLY_PERCENTAGE', percentage: 1 },
          discount: [
            { mode: 'FIXED', amount: 500, limit_date: '2026-11-25' },
            { mode: 'PERCENTAGE', percentage: 2.5, limit_date: '2026-11-28' },
          ],
          body_instructions: ['Não receber após 10 dias do vencimento'],
        },
        10_000,
      ),
    ).toEqual([
      'Após o vencimento, cobrar multa de 2% (R$ 2,00).',
      'Após o vencimento, cobrar juros de 1% ao mês.',
      'Até 25/11/2026, conceder desconto de R$ 5,00.',
      'Até 28/11/2026, conceder desconto de 2,5% (R$ 2,50).',
      'Não receber após 10 dias do vencimento',
    ]);
    expect(
      instructionLines(
        {
          late_fee: { mode: 'FIXED', amount: '300', start_date: '2026-12-02' },
          interest: { mode: 'DAILY_AMOUNT', amount: 10 },
        },
        10_000,
      ),
    ).toEqual([
      'A partir de 02/12/2026, cobrar multa de R$ 3,00.',
      'Após o vencimento, cobrar juros de R$ 0,10 ao dia.',
    ]);
  });

  it('words the bolepix shape (value, frequency, single discount, message list)', () => {
    expect(
      instructionLines(
        {
          late_fee: { mode: 'PERCENTAGE', value: '2', start_at: '2026-12-02' },
          interest: { mode: 'PERCENTAGE', frequency: 'DAILY', value: '0.033' },
          discount: { mode: 'FIXED', value: 1000, limit_at: '2026-11-25' },
          billing_message_list: [{ message: 'Obrigado pela compra' }],
        },
        50_000,
      ),
    ).toEqual([
      'A partir de 02/12/2026, cobrar multa de 2% (R$ 10,00).',
      'Após o vencimento, cobrar juros de 0,033% ao dia.',
      'Até 25/11/2026, conceder desconto de R$ 10,00.',
      'Obrigado pela compra',
    ]);
  });

  it('is empty without instructions and skips parts that make no sense', () => {
    expect(instructionLines(null, 100)).toEqual([]);
    expect(instructionLines({ late_fee: { mode: 'FIXED' }, discount: [{ mode: 'FIXED', amount: 1 }] }, 100)).toEqual(
      [],
    );
  });
});

describe('formats', () => {
  it('writes reais, dates and tax ids the Brazilian way', () => {
    expect(formatBrl(0)).toBe('R$ 0,00');
    expect(formatBrl(5)).toBe('R$ 0,05');
    expect(formatBrl(123_456)).toBe('R$ 1.234,56');
    expect(formatBrl(999_999_999_999)).toBe('R$ 9.999.999.999,99');
    expect(formatDateBr('2026-12-01')).toBe('01/12/2026');
    expect(formatDateBr('2026-12-01T10:00:00+00:00')).toBe('01/12/2026');
    expect(formatTaxId('11222333000181')).toBe('11.222.333/0001-81');
    expect(formatTaxId('12345678909')).toBe('123.456.789-09');
    expect(formatTaxId('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(taxIdKind('12ABC34501DE35')).toBe('CNPJ');
    expect(taxIdKind('11222333000181')).toBe('CNPJ');
    expect(taxIdKind('12345678909')).toBe('CPF');
  });
});
