import { describe, expect, it } from 'vitest';
import { formatCpf, isValidCnpj, isValidCpf } from '../../../main/validation/taxpayer-id.js';

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
});

describe('CNPJ', () => {
  it('accepts numbers whose check digits match', () => {
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11222333000181')).toBe(true);
  });

  it('refuses wrong check digits and repeated digits', () => {
    expect(isValidCnpj('11222333000182')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
  });
});
