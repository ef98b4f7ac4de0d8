/**
 * The field formats of S220 §1.3 with the spec's own examples: A6 "TEXTO", S8 "Ação", N8 1234,
 * H4 3F6Ch, X3 3000.
 */
import { describe, expect, it } from 'vitest';
import { FieldReader, formatA, formatH, formatN } from '../../../../drivers/simulator/wire/fields.js';
import { ST } from '../../../../drivers/simulator/wire/statuses.js';
import { Params } from '../../../../drivers/simulator/wire/tlv.js';
import { hex, latin1, statusOf } from './bytes.js';

describe('writing fields (§1.3)', () => {
  it('pads A and S fields with spaces on the right: A6 "TEXTO" → 54 45 58 54 4F 20, S8 "Ação" → 41 E7 E3 6F 20 20 20 20', () => {
    expect(latin1(formatA('TEXTO', 6))).toEqual(hex('54 45 58 54 4F 20'));
    expect(latin1(formatA('Ação', 8))).toEqual(hex('41 E7 E3 6F 20 20 20 20'));
  });

  it('pads N fields with zeros on the left: N8 1234 → "00001234"', () => {
    expect(formatN(1234, 8)).toBe('00001234');
    expect(formatN('076', 3)).toBe('076');
    expect(() => formatN(123456, 4)).toThrow(RangeError);
    expect(() => formatN('12a', 3)).toThrow(RangeError);
  });

  it('writes H fields as uppercase hex: 3F6Ch → "3F6C"', () => {
    expect(formatH(Buffer.of(0x3f, 0x6c))).toBe('3F6C');
  });
});

describe('reading fields (§1.3): a field that breaks its format is ST_INVPARM', () => {
  it('reads N, A, S and H fields in order', () => {
    const fields = new FieldReader(latin1('00001234TEXTO Ação    3f6C'), 'test');
    expect(fields.number(8, 'N8')).toBe(1234);
    expect(fields.alpha(6, 'A6')).toBe('TEXTO ');
    expect(fields.text(8, 'S8')).toBe('Ação    ');
    expect(fields.hex(4, 'H4')).toEqual(Buffer.of(0x3f, 0x6c)); // "upper/lower accepted"
    expect(fields.atEnd).toBe(true);
    expect(() => fields.end()).not.toThrow();
  });

  it('refuses what a format does not allow', () => {
    expect(statusOf(() => new FieldReader(latin1('12a4'), 't').digits(4, 'N4'))).toBe(ST.INVPARM);
    expect(statusOf(() => new FieldReader(latin1('Aç'), 't').alpha(2, 'A2'))).toBe(ST.INVPARM); // Ç is not ASCII
    expect(statusOf(() => new FieldReader(latin1('A\r'), 't').text(2, 'S2'))).toBe(ST.INVPARM);
    expect(statusOf(() => new FieldReader(latin1('3G'), 't').hex(2, 'H2'))).toBe(ST.INVPARM);
    expect(statusOf(() => new FieldReader(latin1('123'), 't').hex(3, 'H3'))).toBe(ST.INVPARM);
  });

  it('refuses a field cut short and bytes that no field accounts for', () => {
    expect(statusOf(() => new FieldReader(latin1('12'), 't').digits(3, 'N3'))).toBe(ST.INVPARM);
    const fields = new FieldReader(latin1('12x'), 't');
    fields.digits(2, 'N2');
    expect(statusOf(() => fields.end())).toBe(ST.INVPARM);
  });

  it('reads X fields big-endian: X3 3000 → 00 0B B8', () => {
    const params = Params.decode('T', [hex('00 01 00 03 00 0B B8')]);
    expect(params.uint(0x0001, 'X3', 3)).toBe(3000);
    expect(statusOf(() => params.uint(0x0001, 'X2', 2))).toBe(ST.INVPARM);
  });
});
