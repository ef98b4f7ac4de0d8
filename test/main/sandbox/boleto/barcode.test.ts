import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AMOUNT_MAX_CENTAVOS,
  boletoBarcode,
  DUE_DATE_MAX,
  DUE_DATE_MIN,
  dueDateFactor,
  generalCheckDigit,
  parseBoletoBarcode,
} from '../../../../main/sandbox/boleto/barcode.js';
import { thrown } from '../../../helpers/thrown.js';

describe('due-date factor', () => {
  // Published values: kivanio/brcobranca spec/brcobranca/calculo_data_spec.rb, and
  // tomas-stefano/boleto_bancario FatorVencimento docs (2012-12-02 → 5535).
  it.each([
    ['2000-07-03', '1000'],
    ['2000-07-04', '1001'],
    ['2000-07-05', '1002'],
    ['2002-05-01', '1667'],
    ['2008-02-01', '3769'],
    ['2008-02-02', '3770'],
    ['2008-02-06', '3774'],
    ['2010-11-17', '4789'],
    ['2012-12-02', '5535'],
  ])('is the number of days since 1997-10-07 for %s (%s)', (date, factor) => {
    expect(dueDateFactor(date)).toBe(factor);
  });

  it('reaches 9999 on 2025-02-21 and restarts at 1000 on 2025-02-22 (FEBRABAN rollover)', () => {
    expect(dueDateFactor('2025-02-20')).toBe('9998');
    expect(dueDateFactor('2025-02-21')).toBe('9999');
    expect(dueDateFactor('2025-02-22')).toBe('1000');
    expect(dueDateFactor('2025-02-23')).toBe('1001');
    expect(dueDateFactor('2026-02-22')).toBe('1365');
  });

  it('covers 2000-07-03 to the last day of the second cycle and refuses dates outside', () => {
    expect(DUE_DATE_MIN).toBe('2000-07-03');
    expect(dueDateFactor(DUE_DATE_MAX)).toBe('9999');
    expect((thrown(() => dueDateFactor('2000-07-02')) as Error).message).toMatch(/no FEBRABAN due-date factor/);
    const dayAfterMax = new Date(Date.parse(`${DUE_DATE_MAX}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((thrown(() => dueDateFactor(dayAfterMax)) as Error).message).toMatch(/no FEBRABAN due-date factor/);
  });

  it('refuses text that is not a calendar date', () => {
    expect((thrown(() => dueDateFactor('2025-02-30')) as Error).message).toMatch(/not a calendar date/);
    expect((thrown(() => dueDateFactor('22/02/2025')) as Error).message).toMatch(/YYYY-MM-DD/);
  });
});

describe('general check digit', () => {
  // kivanio/brcobranca spec/brcobranca/boleto/itau_spec.rb and banco_brasil examples: position 5
  // of each published barcode is the modulo-11 DV of the other 43 digits.
  it.each([
    '34191432900000000001751234567840810536789000',
    '34191377000000135001750025828170810536789000',
    '34194252500000135001680025828120810536789000',
    '34192252500000135001960025828101234561234550',
    '34194254800006757871090001015271248021246000',
  ])('reproduces the DV of the published barcode %s', (barcode) => {
    expect(generalCheckDigit(barcode.slice(0, 4) + barcode.slice(5))).toBe(Number(barcode[4]));
  });

  it('maps the results 0, 10 and 11 to 1', () => {
    // 43 zeros: sum 0 → 11 - 0 = 11 → 1.
    expect(generalCheckDigit('0'.repeat(43))).toBe(1);
    // A single 1 at the rightmost position (weight 2): 11 - 2 = 9.
    expect(generalCheckDigit(`${'0'.repeat(42)}1`)).toBe(9);
    // Weight 2 × 5 = 10 → 11 - 10 = 1 (remainder 10 gives DV 1 legitimately).
    expect(generalCheckDigit(`${'0'.repeat(42)}5`)).toBe(1);
    // Weight 2 × 6 = 12, remainder 1 → 11 - 1 = 10 → 1.
    expect(generalCheckDigit(`${'0'.repeat(42)}6`)).toBe(1);
  });

  it('needs exactly 43 digits', () => {
    expect((thrown(() => generalCheckDigit('123')) as Error).message).toMatch(/43 digits/);
  });
});

describe('boleto barcode', () => {
  it('assembles bank, currency, DV, factor, amount and free field (brcobranca Itaú carteira 109 example)', () => {
    // brcobranca itau_spec: vencimento 2029-05-20 (second factor cycle), R$ 6.757,87.
    expect(
      boletoBarcode({
        bankCode: '341',
        amountCentavos: 675_787,
        dueDate: '2029-05-20',
        freeField: '1090001015271248021246000',
      }),
    ).toBe('34194254800006757871090001015271248021246000');
    // Same source: vencimento 2008-02-02, R$ 135,00.
    expect(
      boletoBarcode({
        bankCode: '341',
        amountCentavos: 13_500,
        dueDate: '2008-02-02',
        freeField: '1750025828170810536789000',
      }),
    ).toBe('34191377000000135001750025828170810536789000');
  });

  it('refuses malformed inputs with clear messages', () => {
    const base = { bankCode: '341', amountCentavos: 100, dueDate: '2026-01-10', freeField: '1'.repeat(25) };
    expect((thrown(() => boletoBarcode({ ...base, bankCode: '34' })) as Error).message).toMatch(
      /Bank code must be 3 digits/,
    );
    expect((thrown(() => boletoBarcode({ ...base, amountCentavos: 1.5 })) as Error).message).toMatch(
      /integer number of centavos/,
    );
    expect((thrown(() => boletoBarcode({ ...base, amountCentavos: -1 })) as Error).message).toMatch(
      /integer number of centavos/,
    );
    expect(
      (thrown(() => boletoBarcode({ ...base, amountCentavos: AMOUNT_MAX_CENTAVOS + 1 })) as Error).message,
    ).toMatch(/integer number of centavos/);
    expect((thrown(() => boletoBarcode({ ...base, freeField: '123' })) as Error).message).toMatch(
      /Free field must be 25 digits/,
    );
    expect(boletoBarcode({ ...base, amountCentavos: AMOUNT_MAX_CENTAVOS }).slice(9, 19)).toBe('9999999999');
  });

  it('parses back into its fields', () => {
    expect(parseBoletoBarcode('34194254800006757871090001015271248021246000')).toEqual({
      bankCode: '341',
      currency: '9',
      checkDigit: 4,
      dueDateFactor: '2548',
      amountCentavos: 675_787,
      freeField: '1090001015271248021246000',
      valid: true,
    });
    expect(parseBoletoBarcode('34195254800006757871090001015271248021246000').valid).toBe(false);
    expect((thrown(() => parseBoletoBarcode('3419')) as Error).message).toMatch(/44 digits/);
  });
});

const barcodeInputs = fc.record({
  bankCode: fc.stringMatching(/^[0-9]{3}$/),
  amountCentavos: fc.integer({ min: 0, max: AMOUNT_MAX_CENTAVOS }),
  dueDate: fc
    .integer({
      min: Date.parse(`${DUE_DATE_MIN}T00:00:00Z`) / 86_400_000,
      max: Date.parse(`${DUE_DATE_MAX}T00:00:00Z`) / 86_400_000,
    })
    .map((day) => new Date(day * 86_400_000).toISOString().slice(0, 10)),
  freeField: fc.stringMatching(/^[0-9]{25}$/),
});

describe('barcode properties', () => {
  it('every barcode it builds parses back to the same fields and is valid', () => {
    fc.assert(
      fc.property(barcodeInputs, (input) => {
        const parsed = parseBoletoBarcode(boletoBarcode(input));
        expect(parsed.valid).toBe(true);
        expect(parsed.bankCode).toBe(input.bankCode);
        expect(parsed.amountCentavos).toBe(input.amountCentavos);
        expect(parsed.freeField).toBe(input.freeField);
        expect(parsed.dueDateFactor).toBe(dueDateFactor(input.dueDate));
      }),
    );
  });

  it('a single changed digit is caught by the general DV, except the known 0/1 remainder collision (DV 1)', () => {
    // Weights 2..9 and a change of 1..9 never change the sum by a multiple of 11, so the
    // remainder always changes; only remainders 0 and 1 share a DV (both become 1).
    fc.assert(
      fc.property(
        barcodeInputs,
        fc.integer({ min: 0, max: 43 }),
        fc.integer({ min: 1, max: 9 }),
        (input, position, delta) => {
          const barcode = boletoBarcode(input);
          const changed =
            barcode.slice(0, position) + String((Number(barcode[position]) + delta) % 10) + barcode.slice(position + 1);
          const detected = !parseBoletoBarcode(changed).valid;
          if (!detected) {
            expect(position).not.toBe(4);
            expect(barcode[4]).toBe('1');
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
