import { describe, expect, it } from 'vitest';
import { formatDisplay2x16 } from '../../../drivers/abecs/text.js';
import {
  amountLine,
  amountScreen,
  fitLine,
  fitMessage,
  formatBrl,
  installmentChoices,
} from '../../../main/pinpad/display-text.js';

describe('amounts in pt-BR', () => {
  it('formats centavos with thousands dots and a decimal comma', () => {
    expect(formatBrl(0)).toBe('0,00');
    expect(formatBrl(5)).toBe('0,05');
    expect(formatBrl(100)).toBe('1,00');
    expect(formatBrl(123456)).toBe('1.234,56');
    expect(formatBrl(999_999_999_999)).toBe('9.999.999.999,99');
    expect(() => formatBrl(1.5)).toThrow(RangeError);
    expect(() => formatBrl(-1)).toThrow(RangeError);
  });

  it('drops the prefix when the amount would not fit one line', () => {
    expect(amountLine(123456)).toBe('R$ 1.234,56');
    expect(amountLine(123456, 'VALOR: ')).toBe('VALOR: 1.234,56');
    expect(amountLine(9_999_999_999, 'VALOR: ')).toBe('99.999.999,99');
  });
});

describe('the amount screen', () => {
  it('shows the amount on line 1 and the notification, cut to 16 columns, on line 2', () => {
    expect(amountScreen(123456, null)).toBe('R$ 1.234,56\n');
    expect(amountScreen(1000, 'Loja Centro')).toBe('R$ 10,00\nLoja Centro');
    expect(amountScreen(1000, 'Pedido 4521 - Loja do Centro SP')).toBe('R$ 10,00\nPedido 4521 - Lo');
  });

  it('always gives the PINPAD a text it accepts', () => {
    for (const notification of ['Açaí & Cia 😀', 'tab\there', '“aspas” — travessão…', 'x'.repeat(32)]) {
      expect(() => formatDisplay2x16(amountScreen(999_999_999_999, notification))).not.toThrow();
    }
    expect(fitLine('Café 😀 bom')).toBe('Café ? bom');
  });
});

describe('fitMessage', () => {
  it('keeps short texts, wraps long ones at a space and cuts the rest', () => {
    expect(fitMessage('APROVADA')).toBe('APROVADA');
    expect(fitMessage('TRANSAÇÃO APROVADA')).toBe('TRANSAÇÃO\nAPROVADA');
    expect(fitMessage('RETIRE O CARTÃO\nOBRIGADO')).toBe('RETIRE O CARTÃO\nOBRIGADO');
    expect(fitMessage('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')).toBe('ABCDEFGHIJKLMNOP\nQRSTUVWXYZ012345');
    expect(() => formatDisplay2x16(fitMessage('uma frase muito longa que não cabe no visor do pinpad'))).not.toThrow();
  });
});

describe('installmentChoices', () => {
  it('offers "A VISTA" and every n whose installment reaches the minimum', () => {
    expect(installmentChoices(10000, { max: 12, minInstallmentAmount: 2500 })).toEqual([
      { installments: 1, label: 'A VISTA' },
      { installments: 2, label: '2X R$ 50,00' },
      { installments: 3, label: '3X R$ 33,33' },
      { installments: 4, label: '4X R$ 25,00' },
    ]);
  });

  it('stops at max, and offers only "A VISTA" when even two installments are too small', () => {
    expect(installmentChoices(1_000_000, { max: 3, minInstallmentAmount: 500 }).map((c) => c.installments)).toEqual([1, 2, 3]);
    expect(installmentChoices(900, { max: 12, minInstallmentAmount: 500 })).toEqual([{ installments: 1, label: 'A VISTA' }]);
  });

  it('keeps every label within the 24 columns of a menu option', () => {
    for (const choice of installmentChoices(999_999_999_999, { max: 20, minInstallmentAmount: 0 })) {
      expect(choice.label.length).toBeLessThanOrEqual(24);
    }
  });

  it('refuses rules the PINPAD menu cannot show', () => {
    expect(() => installmentChoices(1000, { max: 0, minInstallmentAmount: 0 })).toThrow(RangeError);
    expect(() => installmentChoices(1000, { max: 21, minInstallmentAmount: 0 })).toThrow(RangeError);
    expect(() => installmentChoices(0, { max: 2, minInstallmentAmount: 0 })).toThrow(RangeError);
  });
});
