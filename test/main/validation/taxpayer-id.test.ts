import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cnpjCheckDigits,
  formatCnpj,
  formatCpf,
  isValidCnpj,
  isValidCpf,
  normalizeCnpj,
} from '../../../main/validation/taxpayer-id.js';

describe('CPF', () => {
  it('accepts numbers whose two check digits match, with or without punctuation', () => {
    expect(isValidCpf('12345678909')).toBe(true);
    expect(isValidCpf('529.982.247-25')).toBe(true);
  });

  it('refuses wrong check digits, wrong lengths and repeated digits', () => {
    expect(isValidCpf('12345678900')).toBe(false);
    expect(isValidCpf('1234567890')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
  });

  it('is formatted as 000.000.000-00', () => {
    expect(formatCpf('12345678909')).toBe('123.456.789-09');
  });

  it('has no letters: a CPF with a letter in it is not taken for a CNPJ either', () => {
    expect(isValidCpf('529982247A5')).toBe(false);
    expect(isValidCnpj('529982247A5')).toBe(false);
  });
});

describe('numeric CNPJ (unchanged)', () => {
  it('accepts numbers whose check digits match, with or without the mask', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11222333000181')).toBe(true);
    expect(isValidCnpj('45339827000162')).toBe(true);
    expect(isValidCnpj('00000000000191')).toBe(true);
  });

  it('refuses wrong check digits and repeated digits', () => {
    expect(isValidCnpj('11222333000182')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
    expect(isValidCnpj('00.000.000/0000-00')).toBe(false);
    expect(isValidCnpj('99999999999999')).toBe(false);
  });

  it('is formatted as 00.000.000/0000-00', () => {
    expect(formatCnpj('11222333000181')).toBe('11.222.333/0001-81');
  });
});

describe('alphanumeric CNPJ (IN RFB 2.229/2024)', () => {
  it('accepts the official example 12ABC34501DE35, bare or masked as 12.ABC.345/01DE-35', () => {
    expect(isValidCnpj('12ABC34501DE35')).toBe(true);
    expect(isValidCnpj('12.ABC.345/01DE-35')).toBe(true);
    expect(cnpjCheckDigits('12ABC34501DE')).toBe('35');
  });

  it('computes the check digits of a root and order made only of letters, and of the numeric 000000000001 (91)', () => {
    // The examples public validators built on SERPRO's reference code test with (not the Receita's
    // own publication, which gives 12ABC34501DE35); the independent reading below agrees.
    expect(cnpjCheckDigits('ABCDEFGHIJKL')).toBe('80');
    expect(isValidCnpj('ABCDEFGHIJKL80')).toBe(true);
    expect(cnpjCheckDigits('000000000001')).toBe('91');
  });

  it('refuses 12ABC34501DE36 and 12ABC34501DE45 (wrong check digit) and ABCDEFGHIJKL81', () => {
    expect(isValidCnpj('12ABC34501DE36')).toBe(false);
    expect(isValidCnpj('12ABC34501DE45')).toBe(false);
    expect(isValidCnpj('ABCDEFGHIJKL81')).toBe(false);
  });

  it('refuses letters where the check digits go', () => {
    expect(isValidCnpj('12ABC34501DEAB')).toBe(false);
    expect(isValidCnpj('0000000000019L')).toBe(false);
    expect(isValidCnpj('000000000001P1')).toBe(false);
  });

  it('takes lowercase letters as uppercase: 12abc34501de35 is the official example', () => {
    expect(normalizeCnpj('12abc34501de35')).toBe('12ABC34501DE35');
    expect(normalizeCnpj('12.abc.345/01de-35')).toBe('12ABC34501DE35');
    expect(isValidCnpj('12abc34501de35')).toBe(true);
  });

  it('drops only the mask and spaces: any other character, or a length other than 14, is not a CNPJ', () => {
    expect(normalizeCnpj(' 12.ABC.345/01DE-35 ')).toBe('12ABC34501DE35');
    expect(normalizeCnpj('12 ABC 345 01DE 35')).toBe('12ABC34501DE35');
    for (const value of [
      'CNPJ 12ABC34501DE35',
      '12ABC34501DE35X',
      '12ABC34501DE3',
      '12ABC_34501DE35',
      '12ABÇ34501DE35',
      '12ABC34501DE3５',
      'x11222333000181',
      '11222333000181!',
      '',
    ]) {
      expect(normalizeCnpj(value), value).toBeUndefined();
      expect(isValidCnpj(value), value).toBe(false);
    }
  });

  it('does not take non-ASCII letters for their uppercase ASCII look-alikes', () => {
    // "ı".toUpperCase() is "I" and "ß".toUpperCase() is "SS": only a–z are uppercased.
    expect(normalizeCnpj('ıBCDEFGHIJKL80')).toBeUndefined();
    expect(normalizeCnpj('ßBCDEFGHIJKL80')).toBeUndefined();
  });

  it('is formatted as 12.ABC.345/01DE-35; what is not a CNPJ is returned as given', () => {
    expect(formatCnpj('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(formatCnpj('12abc34501de35')).toBe('12.ABC.345/01DE-35');
    expect(formatCnpj('not a cnpj')).toBe('not a cnpj');
  });

  it('has no check digits for a base that is not 12 digits or uppercase letters', () => {
    for (const base of ['', '12ABC34501D', '12ABC34501DEF', '12abc34501de', '12ABC34501D#']) {
      expect(() => cnpjCheckDigits(base), base).toThrow(RangeError);
    }
  });

  it('does not see a root character swapped for one that weighs the same mod 11 (a limit of the official algorithm)', () => {
    // '1' weighs 1 and 'G' 23: 22 apart, a multiple of 11, so both weighted sums keep their
    // remainders. The official check digits cannot tell them apart, and neither may we.
    expect(isValidCnpj('G2ABC34501DE35')).toBe(true);
    // '3' (3) and 'I' (25), '5' (5) and 'K' (27) likewise.
    expect(isValidCnpj('12ABCI4501DE35')).toBe(true);
    expect(isValidCnpj('12ABC34K01DE35')).toBe(true);
  });
});

describe('CNPJ check digits, for any root (property)', () => {
  const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  /** What each character counts for, written out as the official table: '0'–'9' 0–9, 'A'–'Z' 17–42. */
  const VALUE: Readonly<Record<string, number>> = Object.fromEntries([
    ...[...'0123456789'].map((char, i) => [char, i] as const),
    ...[...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((char, i) => [char, 17 + i] as const),
  ]);
  /** An independent reading of the rule, to judge the validator by. */
  const referenceDigits = (base: string): string => {
    const digit = (values: number[], weights: number[]): number => {
      const rest = values.reduce((sum, value, i) => sum + value * weights[i]!, 0) % 11;
      return rest < 2 ? 0 : 11 - rest;
    };
    const values = [...base].map((char) => VALUE[char]!);
    const first = digit(values, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
    return `${first}${digit([...values, first], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])}`;
  };
  const root = fc.string({ unit: fc.constantFrom(...ALPHANUMERIC), minLength: 12, maxLength: 12 });
  const notRepeated = (cnpj: string): boolean => !/^(.)\1{13}$/.test(cnpj);

  it('gives every alphanumeric root check digits that validate, bare, masked and in lowercase', () => {
    fc.assert(
      fc.property(root, (base) => {
        const cnpj = `${base}${cnpjCheckDigits(base)}`;
        fc.pre(notRepeated(cnpj));
        expect(cnpjCheckDigits(base)).toBe(referenceDigits(base));
        expect(isValidCnpj(cnpj)).toBe(true);
        expect(isValidCnpj(formatCnpj(cnpj))).toBe(true);
        expect(isValidCnpj(cnpj.toLowerCase())).toBe(true);
        expect(normalizeCnpj(formatCnpj(cnpj))).toBe(cnpj);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses any change to a check digit', () => {
    fc.assert(
      fc.property(root, fc.integer({ min: 12, max: 13 }), fc.integer({ min: 1, max: 9 }), (base, position, shift) => {
        const cnpj = `${base}${cnpjCheckDigits(base)}`;
        const changed = `${cnpj.slice(0, position)}${(Number(cnpj[position]) + shift) % 10}${cnpj.slice(position + 1)}`;
        expect(isValidCnpj(changed)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a change to one root character unless the official rule gives the changed root the same check digits', () => {
    fc.assert(
      fc.property(root, fc.integer({ min: 0, max: 11 }), fc.constantFrom(...ALPHANUMERIC), (base, position, char) => {
        fc.pre(base[position] !== char);
        const cnpj = `${base}${cnpjCheckDigits(base)}`;
        const changedBase = `${base.slice(0, position)}${char}${base.slice(position + 1)}`;
        const changed = `${changedBase}${cnpj.slice(12)}`;
        fc.pre(notRepeated(changed));
        expect(isValidCnpj(changed)).toBe(referenceDigits(changedBase) === cnpj.slice(12));
        // Characters that do not weigh the same mod 11 change the weighted sums: the check digits
        // miss that only when both remainders move between 0 and 1 (both give 0).
        if ((VALUE[char]! - VALUE[base[position]!]!) % 11 !== 0 && isValidCnpj(changed)) {
          expect(referenceDigits(changedBase)[0]).toBe('0');
          expect(referenceDigits(changedBase)[1]).toBe('0');
        }
      }),
      { numRuns: 5000 },
    );
  });
});
