/**
 * The demo page's amount parsing: what the cashier types in reais becomes integer centavos
 * exactly, and anything ambiguous is refused rather than guessed.
 */
import { describe, expect, it } from 'vitest';

interface Money {
  parseCentavos(text: string): number | null;
  formatCentavos(centavos: number): string;
  parseInstallments(text: string): number | undefined | null;
}

// A plain browser module without types: loaded through a variable so the type checker leaves it be.
const MONEY_MODULE = '../../demo/money.js';
const money = (await import(MONEY_MODULE)) as Money;

describe('parseCentavos', () => {
  it.each([
    ['12,34', 1234],
    ['12', 1200],
    ['12,5', 1250],
    ['0,01', 1],
    ['1.234,56', 123456],
    ['1.000.000,00', 100000000],
    ['R$ 7,00', 700],
    ['  19,90 ', 1990],
    // The classic float trap: 0.29 * 100 = 28.999999999999996.
    ['0,29', 29],
    ['1,15', 115],
  ])('%j → %d centavos', (typed, centavos) => {
    expect(money.parseCentavos(typed)).toBe(centavos);
  });

  it.each(['', '0', '0,00', '12.34', '12,345', '-1', '1,2,3', '12,', ',50', 'abc', '1.23,00', '9'.repeat(20)])(
    'refuses %j',
    (typed) => {
      expect(money.parseCentavos(typed)).toBeNull();
    },
  );

  it('gives back every amount it formats', () => {
    for (const centavos of [1, 9, 10, 99, 100, 1234, 100000, 123456789]) {
      expect(money.parseCentavos(money.formatCentavos(centavos))).toBe(centavos);
    }
  });
});

describe('formatCentavos', () => {
  it.each([
    [1, 'R$ 0,01'],
    [1234, 'R$ 12,34'],
    [123456, 'R$ 1.234,56'],
    [100000000, 'R$ 1.000.000,00'],
  ])('%d → %s', (centavos, text) => {
    expect(money.formatCentavos(centavos)).toBe(text);
  });
});

describe('parseInstallments', () => {
  it('empty is "the customer chooses on the PINPAD"', () => {
    expect(money.parseInstallments('  ')).toBeUndefined();
  });

  it.each([
    ['1', 1],
    ['12', 12],
    ['0', null],
    ['13', null],
    ['2,5', null],
    ['x', null],
  ])('%j → %j', (typed, installments) => {
    expect(money.parseInstallments(typed)).toBe(installments);
  });
});

describe('the demo page and the agent', () => {
  it('write every amount alike (the agent’s formatBrl, main/locale, is the reference)', async () => {
    const { formatBrl } = await import('../../main/locale/br-format.js');
    for (const centavos of [0, 1, 5, 99, 100, 1234, 99_999, 100_000, 123_456, 123_456_789])
      expect(money.formatCentavos(centavos)).toBe(formatBrl(centavos));
  });
});
