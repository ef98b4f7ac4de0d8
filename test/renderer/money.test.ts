/**
 * The window's money: integer centavos shown as Brazilian reais to the centavo, and what a
 * cashier types in the test-sale form read back as centavos — never through a float.
 */
import { describe, expect, it } from 'vitest';
import { formatCentavos, parseCentavos } from '../../renderer/money.js';

describe('formatCentavos', () => {
  it('writes R$, a comma before the centavos and dots between thousands', () => {
    expect(formatCentavos(1234)).toBe('R$ 12,34');
    expect(formatCentavos(5)).toBe('R$ 0,05');
    expect(formatCentavos(0)).toBe('R$ 0,00');
    expect(formatCentavos(100)).toBe('R$ 1,00');
    expect(formatCentavos(123456)).toBe('R$ 1.234,56');
    expect(formatCentavos(123456789)).toBe('R$ 1.234.567,89');
    expect(formatCentavos(Number.MAX_SAFE_INTEGER)).toBe('R$ 90.071.992.547.409,91');
  });

  it('shows a dash for anything that is not a whole number of centavos', () => {
    expect(formatCentavos(12.34)).toBe('—');
    expect(formatCentavos(Number.NaN)).toBe('—');
  });
});

describe('parseCentavos', () => {
  it('reads reais as a cashier types them', () => {
    expect(parseCentavos('12,34')).toBe(1234);
    expect(parseCentavos('12')).toBe(1200);
    expect(parseCentavos('12,5')).toBe(1250);
    expect(parseCentavos(' 1.234,56 ')).toBe(123456);
    expect(parseCentavos('R$ 7,00')).toBe(700);
    expect(parseCentavos('0,01')).toBe(1);
  });

  it('refuses what would be ambiguous or no sale at all', () => {
    for (const text of ['12.34', '12,345', '-1', '0,00', '0', 'abc', '', '1.23,45', '1,2,3'])
      expect(parseCentavos(text), text).toBeNull();
  });

  it('round-trips every amount it formats', () => {
    for (const centavos of [1, 9, 10, 99, 100, 1234, 99999, 100000, 123456789]) {
      expect(parseCentavos(formatCentavos(centavos))).toBe(centavos);
    }
  });
});

describe('the window and the agent', () => {
  it('write every amount alike (the agent’s formatBrl, main/locale, is the reference)', async () => {
    const { formatBrl } = await import('../../main/locale/br-format.js');
    for (const centavos of [0, 1, 5, 99, 100, 1234, 99_999, 100_000, 123_456, 123_456_789, Number.MAX_SAFE_INTEGER])
      expect(formatCentavos(centavos)).toBe(formatBrl(centavos));
  });
});
