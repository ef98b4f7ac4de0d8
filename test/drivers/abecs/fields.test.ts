import { describe, expect, it } from 'vitest';
import { FieldReader, FieldWriter } from '../../../drivers/abecs/fields.js';
import { AbecsFormatError } from '../../../drivers/abecs/format-error.js';
import { InvalidArgumentError } from '../../../drivers/errors.js';

describe('FieldWriter', () => {
  it('zero-pads N, space-pads A and S, upper-cases H', () => {
    const out = new FieldWriter()
      .n('amount', 1000, 12)
      .a('version', 'TABVER', 10)
      .s('message', 'AÇÃO', 6)
      .h('key', 'ab01')
      .toBuffer();
    expect(out.toString('latin1')).toBe('000000001000TABVER    AÇÃO  AB01');
  });

  it('refuses values that do not fit, naming the field', () => {
    expect(() => new FieldWriter().n('amount', 10 ** 13, 12)).toThrow(/amount takes at most 12 digits/);
    expect(() => new FieldWriter().n('amount', -1, 12)).toThrow(InvalidArgumentError);
    expect(() => new FieldWriter().a('label', 'Ç', 4)).toThrow(/printable ASCII/);
    expect(() => new FieldWriter().s('message', '€', 4)).toThrow(/ISO-8859-1/);
    expect(() => new FieldWriter().h('key', 'abc')).toThrow(/even number/);
  });
});

describe('FieldReader', () => {
  it('reads fields back and checks that nothing is left over', () => {
    const reader = new FieldReader(Buffer.from('000000001000TABVER    AB01', 'latin1'), 'test block');
    expect(reader.n('amount', 12)).toBe(1000);
    expect(reader.text('version', 10)).toBe('TABVER');
    expect(reader.hex('key', 4)).toBe('AB01');
    expect(() => reader.end()).not.toThrow();
  });

  it('raises a format error naming the field when the data is short or wrong', () => {
    expect(() => new FieldReader(Buffer.from('12'), 'GIN response').n('spec', 4)).toThrow(
      /Malformed GIN response: spec needs 4 bytes/,
    );
    expect(() => new FieldReader(Buffer.from('1a'), 'x').n('n', 2)).toThrow(AbecsFormatError);
    expect(() => new FieldReader(Buffer.from('abc'), 'x').end()).toThrow(/3 unexpected bytes/);
  });
});
