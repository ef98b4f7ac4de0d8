/**
 * The sale the core takes (main/core/sale-request.ts) and its amount (main/core/money.ts): the
 * store's installment rules, and the fingerprint the journal keeps to tell a repeat from a
 * conflict — unchanged since the core took the POS's snake_case parameters, so that a sale
 * journaled by an older agent is still recognised when its POS asks again.
 */
import { describe, expect, it } from 'vitest';
import { centavos, isCentavos } from '../../../main/core/money.js';
import {
  installmentViolations,
  maxInstallmentsFor,
  saleRequestHash,
  type SaleRequest,
} from '../../../main/core/sale-request.js';

const rules = { max: 12, minInstallmentAmount: 500 };
const sale = (overrides: Partial<SaleRequest> = {}): SaleRequest => ({
  referenceId: 'venda-1',
  amount: centavos(1990),
  paymentType: 'credit',
  description: 'Venda',
  ...overrides,
});

describe('an amount in the core', () => {
  it('is a whole number of centavos from 1 to 12 digits (the PINPAD amount field)', () => {
    for (const good of [1, 1990, 999_999_999_999]) expect(isCentavos(good)).toBe(true);
    for (const bad of [0, -1, 19.9, 1e12, Number.NaN, Infinity, '1990', null]) expect(isCentavos(bad)).toBe(false);
    expect(centavos(1990)).toBe(1990);
    expect(() => centavos(0)).toThrow(/whole number of centavos from 1 to 999999999999/);
    expect(() => centavos(1e12)).toThrow(RangeError);
  });
});

describe("the store's installment rules", () => {
  it('refuse installments for debit, more than the store offers, and installments below the minimum', () => {
    expect(installmentViolations(sale({ paymentType: 'debit', installments: 2 }), rules)).toEqual([
      { field: 'installments', message: 'Installments are for credit only' },
    ]);
    expect(installmentViolations(sale({ installments: 4 }), { ...rules, max: 3 })).toEqual([
      { field: 'installments', message: 'At most 3 installments are offered' },
    ]);
    expect(installmentViolations(sale({ amount: centavos(900), installments: 2 }), rules)).toEqual([
      { field: 'installments', message: 'Each installment must be at least 500 centavos' },
    ]);
  });

  it('accept a sale without installments, one installment, and installments at the minimum', () => {
    expect(installmentViolations(sale(), rules)).toEqual([]);
    expect(installmentViolations(sale({ amount: centavos(100), installments: 1 }), rules)).toEqual([]);
    expect(installmentViolations(sale({ amount: centavos(1000), installments: 2 }), rules)).toEqual([]);
  });

  it('offer at most as many installments as the amount allows', () => {
    expect(maxInstallmentsFor(1990, rules)).toBe(3);
    expect(maxInstallmentsFor(100, rules)).toBe(1);
    expect(maxInstallmentsFor(1_000_000, rules)).toBe(12);
    expect(maxInstallmentsFor(1_000_000, { ...rules, max: 6 })).toBe(6);
  });
});

describe("a sale's fingerprint", () => {
  it('is the one older agents journaled, computed over the POS API names', () => {
    // Computed with the snake_case paramsHash this replaces (main/core/params-hash.ts at af845b5).
    expect(
      saleRequestHash(
        sale({
          amount: centavos(1990),
          installments: 3,
          notification: 'Loja',
          terminal: 'PP1',
          askTaxId: true,
        }),
      ),
    ).toBe('b22f8579db8b11de0ca11c24d74a3e0a349667f501b29981ab2e7a755f0d8dfe');
    const debit = sale({ referenceId: 'venda-2', amount: centavos(500), paymentType: 'debit', description: 'Café' });
    expect(saleRequestHash(debit)).toBe('79f8e2616bb687aff6f27a13ea9f5c79f5115d993ee2a56ea12c65ba5cf3cdf7');
    // ask_tax_id false is a parameter the POS sent: not the same as leaving it out.
    expect(saleRequestHash({ ...debit, askTaxId: false })).toBe(
      '8b8492ca79f1a89e5eb3ef0ae9533c91b26c4c043fb4cd5c703481df0715d34d',
    );
  });

  it('leaves the PINPAD out: a retry on another PINPAD is the same sale', () => {
    expect(saleRequestHash(sale({ terminal: 'PP1' }))).toBe(saleRequestHash(sale({ terminal: 'PP2' })));
    expect(saleRequestHash(sale())).not.toBe(saleRequestHash(sale({ amount: centavos(1991) })));
  });
});
