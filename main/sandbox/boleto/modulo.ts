/**
 * The two check-digit algorithms of the FEBRABAN boleto: modulo 10 (digitable-line fields and
 * the banks' own DACs) and modulo 11 (the general check digit of the barcode).
 */

const DIGITS = /^[0-9]+$/;

function requireDigits(digits: string, what: string): void {
  if (!DIGITS.test(digits)) throw new Error(`${what} must be a non-empty string of digits, got "${digits}"`);
}

/**
 * Modulo 10: weights 2, 1, 2, 1… from the rightmost digit; a product above 9 counts as the
 * sum of its digits; DV = (10 - sum % 10) % 10.
 */
export function mod10(digits: string): number {
  requireDigits(digits, 'mod10 input');
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product; // 1x → 1 + x, which is x - 9 for two-digit products < 20
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/**
 * Modulo 11 as the barcode's general check digit uses it: weights 2..9 cycling from the right,
 * DV = 11 - sum % 11, and the results 0, 10 and 11 become 1 (a barcode DV is never 0).
 */
export function mod11Barcode(digits: string): number {
  requireDigits(digits, 'mod11 input');
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i--) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}
