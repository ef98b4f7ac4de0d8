/**
 * The 47-digit digitable line ("linha digitável") a payer types when the barcode cannot be read:
 *
 *   field 1  AAAAA.AAAAA   bank + currency + free field 1–5, + mod-10 DV
 *   field 2  BBBBB.BBBBBB  free field 6–15, + mod-10 DV
 *   field 3  CCCCC.CCCCCC  free field 16–25, + mod-10 DV
 *   field 4  D             the barcode's general check digit
 *   field 5  EEEEFFFFFFFFFF due-date factor + amount
 */
import { generalCheckDigit } from './barcode.js';
import { mod10 } from './modulo.js';

export { mod10 };

/** The digitable line of a 44-digit barcode, formatted with dots and spaces. */
export function digitableLine(barcode44: string): string {
  if (!/^[0-9]{44}$/.test(barcode44)) throw new Error(`A boleto barcode is 44 digits, got "${barcode44}"`);
  const head = barcode44.slice(0, 4); // bank + currency
  const dv = barcode44.slice(4, 5);
  const factorAndAmount = barcode44.slice(5, 19);
  const free = barcode44.slice(19, 44);
  const field1 = head + free.slice(0, 5);
  const field2 = free.slice(5, 15);
  const field3 = free.slice(15, 25);
  const f1 = `${field1}${mod10(field1)}`;
  const f2 = `${field2}${mod10(field2)}`;
  const f3 = `${field3}${mod10(field3)}`;
  return `${f1.slice(0, 5)}.${f1.slice(5)} ${f2.slice(0, 5)}.${f2.slice(5)} ${f3.slice(0, 5)}.${f3.slice(5)} ${dv} ${factorAndAmount}`;
}

/**
 * The barcode behind a digitable line, typed with or without dots and spaces. Every check digit
 * is verified (the three field DVs and the general DV); a wrong one throws, naming the field.
 */
export function barcodeFromDigitableLine(line: string): string {
  const digits = line.replace(/[.\s]/g, '');
  if (!/^[0-9]{47}$/.test(digits)) {
    throw new Error(`A digitable line has 47 digits (dots and spaces allowed), got "${line}"`);
  }
  const fields: Array<{ name: string; data: string; dv: number }> = [
    { name: 'field 1', data: digits.slice(0, 9), dv: Number(digits[9]) },
    { name: 'field 2', data: digits.slice(10, 20), dv: Number(digits[20]) },
    { name: 'field 3', data: digits.slice(21, 31), dv: Number(digits[31]) },
  ];
  for (const field of fields) {
    const expected = mod10(field.data);
    if (expected !== field.dv) {
      throw new Error(`Digitable line ${field.name} check digit is ${field.dv}, expected ${expected}`);
    }
  }
  const head = digits.slice(0, 4);
  const free = digits.slice(4, 9) + digits.slice(10, 20) + digits.slice(21, 31);
  const dv = Number(digits[32]);
  const factorAndAmount = digits.slice(33, 47);
  const expectedDv = generalCheckDigit(head + factorAndAmount + free);
  if (expectedDv !== dv) throw new Error(`Digitable line general check digit is ${dv}, expected ${expectedDv}`);
  return `${head}${dv}${factorAndAmount}${free}`;
}
