import { describe, expect, it } from 'vitest';
import { formatDisplay2x16 } from '../../../drivers/abecs/text.js';
import {
  amountLine,
  amountScreen,
  cardPromptScreen,
  fitLine,
  fitMessage,
  installmentChoices,
} from '../../../main/pinpad/display-text.js';
import { formatReais } from '../../../main/locale/br-format.js';

describe('amounts in pt-BR', () => {
  it('formats centavos with thousands dots and a decimal comma', () => {
    expect(formatReais(0)).toBe('0,00');
    expect(formatReais(5)).toBe('0,05');
    expect(formatReais(100)).toBe('1,00');
    expect(formatReais(123456)).toBe('1.234,56');
    expect(formatReais(999_999_999_999)).toBe('9.999.999.999,99');
    expect(() => formatReais(1.5)).toThrow(RangeError);
    expect(() => formatReais(-1)).toThrow(RangeError);
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

describe('the card prompt with the notification (GCX SPE_DSPMSG)', () => {
  const screen = (message: string | undefined): string[] | undefined => message?.split('\r');

  it('lays the amount, the whole notification and the request out on an 8 × 16 display (PPC-930), with blank lines between', () => {
    expect(
      screen(cardPromptScreen({ lines: 8, columns: 16 }, 123456, 'Pedido 4521 Loja Centro', { contactless: true })),
    ).toEqual(['R$ 1.234,56', '', 'Pedido 4521 Loja', 'Centro', '', 'APROXIME, INSIRA', 'OU PASSE CARTAO']);
  });

  it('asks only for insertion or a swipe when contactless is off (after a fallback)', () => {
    expect(screen(cardPromptScreen({ lines: 8, columns: 16 }, 1000, 'Mesa 12', { contactless: false }))).toEqual([
      'R$ 10,00',
      '',
      'Mesa 12',
      '',
      'INSIRA OU PASSE',
      'O CARTAO',
    ]);
  });

  it('keeps a 32-character notification whole on 4 lines, breaking inside a word only when words need a third line', () => {
    const text = 'Pedido 4521 - Loja do Centro SP';
    expect(screen(cardPromptScreen({ lines: 4, columns: 16 }, 1000, text, { contactless: true }))).toEqual([
      'R$ 10,00',
      'Pedido 4521 - Lo',
      'ja do Centro SP',
      'APRESENTE CARTAO',
    ]);
    expect(
      screen(cardPromptScreen({ lines: 4, columns: 16 }, 1000, 'Obrigado pela preferência', { contactless: true })),
    ).toEqual(['R$ 10,00', 'Obrigado pela', 'preferência', 'APRESENTE CARTAO']);
  });

  it('uses wider lines where the display has them', () => {
    expect(
      screen(
        cardPromptScreen({ lines: 4, columns: 32 }, 1000, 'Pedido 4521 - Loja do Centro SP', { contactless: true }),
      ),
    ).toEqual(['R$ 10,00', 'Pedido 4521 - Loja do Centro SP', 'APROXIME, INSIRA', 'OU PASSE CARTAO']);
  });

  it('gives up where the display cannot hold amount, notification and request: 2 lines, or 3 for a 2-line notification', () => {
    expect(cardPromptScreen({ lines: 2, columns: 16 }, 1000, 'Mesa 12', { contactless: true })).toBeUndefined();
    expect(
      cardPromptScreen({ lines: 3, columns: 16 }, 1000, 'Pedido 4521 - Loja do Centro SP', { contactless: true }),
    ).toBeUndefined();
    expect(screen(cardPromptScreen({ lines: 3, columns: 16 }, 1000, 'Mesa 12', { contactless: true }))).toEqual([
      'R$ 10,00',
      'Mesa 12',
      'APRESENTE CARTAO',
    ]);
  });

  it('never exceeds SPE_DSPMSG’s 128 characters, and keeps only what the display can show', () => {
    for (const display of [
      { lines: 4, columns: 16 },
      { lines: 16, columns: 40 },
      { lines: 99, columns: 99 },
    ]) {
      const message = cardPromptScreen(display, 999_999_999_999, 'Açaí & Cia 😀 — ' + 'x'.repeat(16), {
        contactless: true,
      });
      expect(message).toBeDefined();
      expect(message!.length).toBeLessThanOrEqual(128);
      expect(message!.split('\r').length).toBeLessThanOrEqual(display.lines);
      expect(message!.split('\r').every((line) => line.length <= display.columns)).toBe(true);
      expect(message).toContain('Açaí & Cia ? -');
    }
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
    expect(installmentChoices(1_000_000, { max: 3, minInstallmentAmount: 500 }).map((c) => c.installments)).toEqual([
      1, 2, 3,
    ]);
    expect(installmentChoices(900, { max: 12, minInstallmentAmount: 500 })).toEqual([
      { installments: 1, label: 'A VISTA' },
    ]);
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
