/**
 * Money as the service may write it, to integer centavos. Requests always carry integer
 * centavos; responses of the service family carry either integers (centavos) or decimal
 * strings in reais ("30.00"), sometimes in the same body. The client exposes centavos only.
 */

/**
 * Integer centavos from a wire amount: an integer number is centavos; a string is decimal
 * reais with a dot and at most two decimals ("30.00", "30", "30.5" → 3050, "-1.25" → -125).
 * Anything else (fractional numbers, NaN, "1.234,56", "R$ 30", "1e3", "30.123") throws a
 * RangeError: an amount must never be guessed.
 */
export function toCentavos(value: number | string): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) {
      throw new RangeError(`Amount ${String(value)} is not an integer number of centavos`);
    }
    return value;
  }
  if (typeof value !== 'string') throw new RangeError(`Amount of type ${typeof value} is not money`);
  const match = /^(-?)([0-9]+)(?:\.([0-9]{1,2}))?$/.exec(value);
  if (!match) throw new RangeError(`Amount "${value}" is not a decimal number of reais such as "30.00"`);
  const [, sign, reais = '', cents = ''] = match;
  const centavos = Number(reais) * 100 + Number(cents.padEnd(2, '0'));
  if (!Number.isSafeInteger(centavos)) throw new RangeError(`Amount "${value}" is too large`);
  return sign === '-' && centavos !== 0 ? -centavos : centavos;
}
