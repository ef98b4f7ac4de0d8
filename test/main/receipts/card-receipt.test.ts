/**
 * The card receipt built from the journal's record: what each copy says, for each way a payment
 * ends, and what it never says (more than first 6 / last 4 digits of a card).
 */
import { describe, expect, it } from 'vitest';
import { layout, renderText } from '../../../drivers/printers/layout.js';
import { PAPER_COLUMNS } from '../../../drivers/printers/document.js';
import type { JournalEvent, PaymentRecord } from '../../../main/core/journal/record.js';
import {
  buildCardReceipt,
  cardReceiptDocument,
  installmentsText,
  type CardReceiptOptions,
} from '../../../main/receipts/card-receipt.js';
import { ReceiptError } from '../../../main/receipts/errors.js';
import type { ReceiptSettings } from '../../../main/receipts/settings.js';
import { thrown } from '../../helpers/thrown.js';
import { approvedPayment, APPROVED_AT } from '../../fixtures/approved-payment.js';
import { centavos } from '../../../main/core/money.js';

const settings: ReceiptSettings = {
  merchant: {
    name: 'PADARIA PÃO DOURADO LTDA',
    cnpj: '11222333000181',
    address: ['Av. São João, 1000 - Centro', 'São Paulo - SP'],
  },
  acquirer: { cnpj: '01027058000191' },
  footer: 'Obrigado pela preferência!',
};

const approved = approvedPayment;

const history = (...moves: Array<[string, string]>): JournalEvent[] =>
  moves.map(([to, at], i) => ({
    paymentId: 'a'.repeat(32),
    seq: i + 1,
    at,
    from: null,
    to: to as JournalEvent['to'],
    note: '',
  }));

function text(
  record: PaymentRecord,
  copy: 'customer' | 'merchant',
  options: Partial<CardReceiptOptions> = {},
  columns: 32 | 42 | 48 = 42,
): string {
  return renderText(
    cardReceiptDocument(buildCardReceipt(record, { settings, events: APPROVED_AT, ...options }), copy),
    columns,
  );
}

describe('the receipt of an approved sale', () => {
  it('prints the customer copy with the store, the card, the numbers, the amount and APROVADA', () => {
    expect(text(approved(), 'customer').split('\n')).toEqual([
      '         PADARIA PÃO DOURADO LTDA',
      '         CNPJ 11.222.333/0001-81',
      '       Av. São João, 1000 - Centro',
      '              São Paulo - SP',
      '------------------------------------------',
      '           COMPROVANTE DE VENDA',
      '              VIA DO CLIENTE',
      '------------------------------------------',
      'VISA                       CRÉDITO À VISTA',
      '411111******1111                      CHIP',
      '21/11/2026                        14:03:27',
      'TERMINAL                      PB0000012345',
      'NSU                                 123456',
      'AUT                                 654321',
      'TRANSAÇÃO                Z123456-000123456',
      'ID        f3c1d2e4a5b6c7d8e9f0a1b2c3d4e5f6',
      'ADQUIRENTE                         SANDBOX',
      '------------------------------------------',
      'VALOR                            R$ 450,00',
      // Double width: 6 leading spaces of a 21-character line are 12 columns of paper.
      '            A P R O V A D A',
      '------------------------------------------',
      '        Obrigado pela preferência!',
    ]);
  });

  it('shows the date and time on the store clock (America/Sao_Paulo unless set), from the approval', () => {
    const receipt = buildCardReceipt(approved(), { settings, events: APPROVED_AT });
    expect([receipt.date, receipt.time]).toEqual(['21/11/2026', '14:03:27']);
    const manaus = buildCardReceipt(approved(), {
      settings: { ...settings, time_zone: 'America/Manaus' },
      events: APPROVED_AT,
    });
    expect(manaus.time).toBe('13:03:27');
    // Without a history, the payment's own creation time.
    expect(buildCardReceipt(approved(), { settings }).time).toBe('14:03:20');
  });

  it('says how many installments and of how much, as credit in installments', () => {
    const receipt = buildCardReceipt(approved({ installments: 3 }), { settings });
    expect(receipt).toMatchObject({ paymentLabel: 'CRÉDITO PARCELADO', installmentsText: '3x R$ 150,00' });
    expect(text(approved({ installments: 3 }), 'customer')).toContain('PARCELAS                      3x R$ 150,00');
    expect(installmentsText(10000, 3)).toBe('3x R$ 33,34');
  });

  it('says DÉBITO for a debit sale, with no installments', () => {
    const receipt = buildCardReceipt(approved({ paymentType: 'debit', installments: null }), { settings });
    expect(receipt).toMatchObject({ paymentLabel: 'DÉBITO', installmentsText: null, installments: 1 });
    expect(text(approved({ paymentType: 'debit', installments: null }), 'customer')).not.toContain('PARCELAS');
  });

  it('gives the merchant copy a signature line when no PIN verified the cardholder, and the PIN statement when one did', () => {
    const swiped = approved({
      card: { brand: 'mastercard', maskedPan: '555555******4444', entryMode: 'magstripe', verification: 'none' },
    });
    expect(text(swiped, 'merchant')).toContain('ASSINATURA DO CLIENTE');
    expect(text(swiped, 'merchant')).toMatch(/_{38}/);
    expect(text(swiped, 'customer')).not.toContain('ASSINATURA');
    const chipSignature = approved({
      card: { brand: 'visa', maskedPan: '411111******1111', entryMode: 'chip', verification: 'signature' },
    });
    expect(text(chipSignature, 'merchant')).toContain('ASSINATURA DO CLIENTE');
    expect(text(approved(), 'merchant')).toContain('VIA DO ESTABELECIMENTO');
    expect(text(approved(), 'merchant')).toMatch(/MEDIANTE USO DE SENHA\s+PESSOAL/);
    expect(text(approved(), 'merchant')).not.toContain('ASSINATURA');
    // A contactless payment under the no-CVM limit: neither.
    const tapped = approved({
      card: { brand: 'visa', maskedPan: '411111******1111', entryMode: 'contactless_chip', verification: 'none' },
    });
    expect(text(tapped, 'merchant')).not.toMatch(/ASSINATURA|SENHA/);
    expect(text(tapped, 'merchant')).toContain('APROXIMAÇÃO');
  });

  it('prints the CPF the customer typed on the customer copy only', () => {
    const withCpf = approved({ customerTaxId: '52998224725' });
    expect(text(withCpf, 'customer')).toContain('529.982.247-25');
    expect(text(withCpf, 'merchant')).not.toContain('529.982.247-25');
  });

  it('shows a store with an alphanumeric CNPJ as CNPJ 12.ABC.345/01DE-35 on both copies, and gives it to the NFC-e as it is', () => {
    const store: ReceiptSettings = {
      ...settings,
      merchant: { ...settings.merchant, name: 'MERCADINHO NOVA ERA LTDA', cnpj: '12ABC34501DE35' },
      acquirer: { cnpj: 'A1B2C3D4000193' },
    };
    for (const copy of ['customer', 'merchant'] as const) {
      const lines = text(approved(), copy, { settings: store }).split('\n');
      expect(lines.slice(0, 2)).toEqual(['         MERCADINHO NOVA ERA LTDA', '         CNPJ 12.ABC.345/01DE-35']);
    }
    expect(buildCardReceipt(approved(), { settings: store }).fiscal).toMatchObject({
      CNPJReceb: '12ABC34501DE35',
      CNPJ: 'A1B2C3D4000193',
    });
  });

  it('prints a customer tax id that is an alphanumeric CNPJ masked, on the customer copy', () => {
    const company = approved({ customerTaxId: '12ABC34501DE35' });
    expect(text(company, 'customer')).toMatch(/CPF\/CNPJ\s+12\.ABC\.345\/01DE-35/);
    expect(text(company, 'merchant')).not.toContain('12.ABC.345/01DE-35');
  });

  it('marks training receipts TREINAMENTO at the top and the bottom, and reprints as such', () => {
    const lines = text(approved(), 'customer', { training: true }).split('\n');
    expect(lines[0]).toContain('TREINAMENTO - SEM VALOR');
    expect(lines.at(-1)).toContain('TREINAMENTO - SEM VALOR');
    expect(text(approved(), 'customer', { reprint: true })).toContain('*** REIMPRESSÃO ***');
    expect(cardReceiptDocument(buildCardReceipt(approved(), { settings, reprint: true }), 'customer').title).toBe(
      'Comprovante de venda — via do cliente (reimpressão)',
    );
  });

  it('returns the NFC-e payment group as data: tPag, vPag, tpIntegra, CNPJ, tBand, cAut, CNPJReceb, idTermPag', () => {
    expect(buildCardReceipt(approved({ amount: centavos(123456) }), { settings }).fiscal).toEqual({
      tPag: '03',
      vPag: '1234.56',
      tpIntegra: 1,
      CNPJ: '01027058000191',
      tBand: '01',
      cAut: '654321',
      CNPJReceb: '11222333000181',
      idTermPag: 'PB0000012345',
      nsu: '123456',
      acquirer: 'sandbox',
    });
    const debit = buildCardReceipt(
      approved({
        paymentType: 'debit',
        installments: null,
        card: { brand: 'Elo', maskedPan: '636368******1111', entryMode: 'chip' },
      }),
      { settings },
    );
    expect(debit.fiscal).toMatchObject({ tPag: '04', tBand: '06' });
    const unknownBrand = buildCardReceipt(
      approved({ card: { brand: 'NovaBandeira', maskedPan: '999999******1111', entryMode: 'chip' } }),
      { settings },
    );
    expect(unknownBrand.fiscal.tBand).toBe('99');
  });

  it('fits every line on 58 mm (32 columns) and 80 mm (42, 48) paper', () => {
    const document = cardReceiptDocument(
      buildCardReceipt(approved({ installments: 12, customerTaxId: '52998224725' }), { settings, events: APPROVED_AT }),
      'customer',
    );
    for (const columns of PAPER_COLUMNS) {
      for (const line of layout(document, columns).lines) {
        if (line.kind === 'text') expect(line.text.length).toBeLessThanOrEqual(line.large ? columns / 2 : columns);
      }
      // Nothing is lost by wrapping: the transaction id is whole on some line.
      expect(renderText(document, columns).replace(/\n/g, '')).toContain('f3c1d2e4a5b6c7d8e9f0a1b2c3d4e5f6');
    }
  });
});

describe('the receipt of a sale that did not go through', () => {
  it('prints NEGADA with the reason and the issuer response code for a declined card, and no signature', () => {
    const declined = approved({
      state: 'declined',
      authorization: { authorizationCode: null, nsu: '777', responseCode: '51', responseMessage: 'Insufficient funds' },
      problem: {
        code: 'CARD_DECLINED',
        message: 'declined',
        cashierMessage: 'Saldo insuficiente',
        declineCode: 'insufficient_funds',
        issuerCode: '51',
      },
    });
    const receipt = text(declined, 'merchant', { events: history(['declined', '2026-11-21T17:03:27.000Z']) });
    expect(receipt).toContain('N E G A D A');
    expect(receipt).toContain('Saldo insuficiente');
    expect(receipt.split('\n')).toContain(`CÓD. RESPOSTA${' '.repeat(42 - 15)}51`);
    expect(receipt).not.toMatch(/ASSINATURA|SENHA PESSOAL/);
    expect(receipt).not.toContain('AUT ');
  });

  it('prints no response code on an approval or a cancellation, nor on a decline by the card itself', () => {
    expect(text(approved(), 'merchant')).not.toContain('CÓD. RESPOSTA');
    const offline = approved({
      state: 'declined',
      authorization: null,
      problem: { code: 'CARD_DECLINED_OFFLINE', message: 'x', cashierMessage: 'Transação negada pelo cartão' },
    });
    expect(text(offline, 'merchant', { events: history(['declined', '2026-11-21T17:03:27.000Z']) })).not.toContain(
      'CÓD. RESPOSTA',
    );
  });

  it('prints a cancellation receipt for a voided sale, with both times', () => {
    const undone = approved({
      state: 'undone',
      problem: { code: 'UNDONE_BY_POS', message: 'undone', cashierMessage: 'Venda cancelada pelo caixa' },
    });
    const events = history(['approved', '2026-11-21T17:03:27.000Z'], ['undone', '2026-11-21T17:10:00.000Z']);
    const receipt = buildCardReceipt(undone, { settings, events });
    expect(receipt).toMatchObject({
      kind: 'cancellation',
      status: 'CANCELADA',
      cancelledAt: { date: '21/11/2026', time: '14:10:00' },
    });
    const printed = renderText(cardReceiptDocument(receipt, 'customer'), 42);
    expect(printed).toContain('COMPROVANTE DE CANCELAMENTO');
    expect(printed).toContain('CANCELADA EM');
    expect(printed).toContain('C A N C E L A D A');
  });

  it('has no receipt while the payment runs (NOT_READY), nor for one that ended before a card sale (NO_RECEIPT)', () => {
    expect(
      thrown(() => buildCardReceipt(approved({ state: 'authorizing', finishedAt: null }), { settings })),
    ).toMatchObject({ code: 'NOT_READY' });
    expect(thrown(() => buildCardReceipt(approved({ state: 'failed' }), { settings }))).toMatchObject({
      code: 'NO_RECEIPT',
    });
    expect(thrown(() => buildCardReceipt(approved({ state: 'cancelled', card: null }), { settings }))).toMatchObject({
      code: 'NO_RECEIPT',
    });
    expect(
      thrown(() => buildCardReceipt(approved({ state: 'reversed', authorization: null }), { settings })),
    ).toMatchObject({ code: 'NO_RECEIPT' });
  });
});

describe('card data on receipts', () => {
  it('refuses a record whose card is not masked to first 6 / last 4 (INVALID_RECORD)', () => {
    const error = thrown(() =>
      buildCardReceipt(approved({ card: { brand: 'visa', maskedPan: '4111111111111111', entryMode: 'chip' } }), {
        settings,
      }),
    );
    expect(error).toBeInstanceOf(ReceiptError);
    expect(error).toMatchObject({ code: 'INVALID_RECORD' });
  });

  it('never prints a run of card digits beyond the mask, on any copy or paper', () => {
    for (const copy of ['customer', 'merchant'] as const) {
      for (const columns of PAPER_COLUMNS) {
        const printed = text(approved(), copy, {}, columns);
        expect(printed).toContain('411111******1111');
        expect(printed).not.toMatch(/\d{13,}/);
      }
    }
  });

  it('refuses an unknown time zone with INVALID_SETTINGS', () => {
    expect(
      thrown(() => buildCardReceipt(approved(), { settings: { ...settings, time_zone: 'Mars/Olympus' } })),
    ).toMatchObject({ code: 'INVALID_SETTINGS' });
  });
});
