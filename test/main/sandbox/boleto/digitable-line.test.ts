import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AMOUNT_MAX_CENTAVOS, boletoBarcode, dueDateFactor } from '../../../../main/sandbox/boleto/barcode.js';
import { barcodeFromDigitableLine, digitableLine, mod10 } from '../../../../main/sandbox/boleto/digitable-line.js';
import { thrown } from '../../../helpers/thrown.js';

/** Published barcode ↔ digitable line pairs. */
const PUBLISHED: ReadonlyArray<{ source: string; barcode: string; line: string }> = [
  {
    source: 'kivanio/brcobranca spec/brcobranca/boleto/itau_spec.rb (Itaú 175, 2009-08-14, R$ 0,00)',
    barcode: '34191432900000000001751234567840810536789000',
    line: '34191.75124 34567.840813 05367.890000 1 43290000000000',
  },
  {
    source: 'kivanio/brcobranca spec/brcobranca/boleto/itau_spec.rb (Itaú 175, 2008-02-02, R$ 135,00)',
    barcode: '34191377000000135001750025828170810536789000',
    line: '34191.75009 25828.170818 05367.890000 1 37700000013500',
  },
  {
    source: 'kivanio/brcobranca spec/brcobranca/boleto/itau_spec.rb (Itaú 168, 2004-09-05)',
    barcode: '34194252500000135001680025828120810536789000',
    line: '34191.68004 25828.120813 05367.890000 4 25250000013500',
  },
  {
    source: 'kivanio/brcobranca spec/brcobranca/boleto/itau_spec.rb (Itaú 196, seu número 1234567)',
    barcode: '34191252500000135001960025828112345671234550',
    line: '34191.96005 25828.112349 56712.345505 1 25250000013500',
  },
  {
    source: 'kivanio/brcobranca spec/brcobranca/boleto/itau_spec.rb (Itaú 109, 2029-05-20, after the factor rollover)',
    barcode: '34194254800006757871090001015271248021246000',
    line: '34191.09008 01015.271248 80212.460002 4 25480000675787',
  },
];

describe('digitable line', () => {
  it.each(PUBLISHED)('reproduces the published line of $barcode ($source)', ({ barcode, line }) => {
    expect(digitableLine(barcode)).toBe(line);
    expect(barcodeFromDigitableLine(line)).toBe(barcode);
    expect(barcodeFromDigitableLine(line.replace(/[.\s]/g, ''))).toBe(barcode);
  });

  it('converts a published line whose barcode was not printed beside it', () => {
    // tomas-stefano/boleto_bancario spec/boleto_bancario/core/itau_spec.rb: Itaú carteira 175,
    // agência 1565, conta 13877, documento 12345678, 2012-12-21, R$ 2.952,95.
    const barcode = barcodeFromDigitableLine('34191.75124 34567.861561 51387.710000 1 55540000295295');
    expect(barcode).toBe('34191555400002952951751234567861565138771000');
    expect(barcode.slice(5, 9)).toBe(dueDateFactor('2012-12-21'));
    // Banco do Brasil boleto printed by impactro/Boleto-Test (files/366060/Boleto.50.pdf):
    // vencimento 20/07/2016, valor R$ 50,00.
    const bb = barcodeFromDigitableLine('00190.00009 02880.310004 00001.176171 3 68610000005000');
    expect(bb).toBe('00193686100000050000000002880310000000117617');
    expect(bb.slice(5, 9)).toBe(dueDateFactor('2016-07-20'));
    expect(digitableLine(bb)).toBe('00190.00009 02880.310004 00001.176171 3 68610000005000');
  });

  it('refuses a wrong check digit, naming the field', () => {
    const line = '34191.09008 01015.271248 80212.460002 4 25480000675787';
    expect((thrown(() => barcodeFromDigitableLine(line.replace('34191.09008', '34191.09009'))) as Error).message).toBe(
      'Digitable line field 1 check digit is 9, expected 8',
    );
    expect(
      (thrown(() => barcodeFromDigitableLine(line.replace('01015.271248', '01015.271249'))) as Error).message,
    ).toMatch(/field 2 check digit/);
    expect(
      (thrown(() => barcodeFromDigitableLine(line.replace('80212.460002', '80212.460003'))) as Error).message,
    ).toMatch(/field 3 check digit/);
    expect((thrown(() => barcodeFromDigitableLine(line.replace(' 4 ', ' 5 '))) as Error).message).toBe(
      'Digitable line general check digit is 5, expected 4',
    );
    expect((thrown(() => barcodeFromDigitableLine('3419')) as Error).message).toMatch(/47 digits/);
    expect((thrown(() => barcodeFromDigitableLine(line.replace(' ', '-'))) as Error).message).toMatch(/47 digits/);
  });
});

describe('mod10', () => {
  it('uses weights 2,1 from the right and sums the digits of products above 9', () => {
    // Field 1 of the published Itaú line 34191.09008: 341910900 → 8.
    expect(mod10('341910900')).toBe(8);
    // 5 × 2 = 10 → 1 + 0 = 1 → DV 9.
    expect(mod10('5')).toBe(9);
    // A sum that is a multiple of 10 gives 0, not 10.
    expect(mod10('0')).toBe(0);
    expect((thrown(() => mod10('12a')) as Error).message).toMatch(/digits/);
  });
});

const barcodes = fc
  .record({
    bankCode: fc.stringMatching(/^[0-9]{3}$/),
    amountCentavos: fc.integer({ min: 0, max: AMOUNT_MAX_CENTAVOS }),
    dueDate: fc
      .date({ min: new Date('2000-07-03T00:00:00Z'), max: new Date('2049-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10)),
    freeField: fc.stringMatching(/^[0-9]{25}$/),
  })
  .map((input) => boletoBarcode(input));

describe('digitable line properties', () => {
  it('barcode → digitable line → barcode is the identity', () => {
    fc.assert(
      fc.property(barcodes, (barcode) => {
        const line = digitableLine(barcode);
        expect(line).toMatch(/^[0-9]{5}\.[0-9]{5} [0-9]{5}\.[0-9]{6} [0-9]{5}\.[0-9]{6} [0-9] [0-9]{14}$/);
        expect(barcodeFromDigitableLine(line)).toBe(barcode);
      }),
    );
  });

  it('any single-digit change in fields 1–3 (or in the general DV) is refused', () => {
    // Field digits positions in the 47-digit line: 0–31 are fields 1–3 with their DVs, 32 is the general DV.
    fc.assert(
      fc.property(
        barcodes,
        fc.integer({ min: 0, max: 32 }),
        fc.integer({ min: 1, max: 9 }),
        (barcode, position, delta) => {
          const digits = digitableLine(barcode).replace(/[.\s]/g, '');
          const changed =
            digits.slice(0, position) + String((Number(digits[position]) + delta) % 10) + digits.slice(position + 1);
          expect(() => barcodeFromDigitableLine(changed)).toThrow(/check digit/);
        },
      ),
      { numRuns: 500 },
    );
  });
});
