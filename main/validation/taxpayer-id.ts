/**
 * Brazilian taxpayer ids: CPF (people, 11 digits) and CNPJ (companies, 14 characters), each
 * ending in two mod-11 check digits.
 *
 * The CNPJ may be alphanumeric (IN RFB 2.229/2024, issued from July 2026): its first 12
 * characters (root 8 + order 4) are digits or uppercase letters A–Z, its last 2 are still numeric
 * check digits. Each character counts as its ASCII code minus 48 ('0'–'9' → 0–9, 'A' → 17 …
 * 'Z' → 42), with the weights the numeric CNPJ always had, so a numeric CNPJ validates exactly as
 * before (SERPRO's published algorithm; the official example is 12.ABC.345/01DE-35).
 *
 * Normalisation (`normalizeCnpj`): the mask's dots, slash and dash and whitespace are dropped and
 * lowercase ASCII letters are taken as uppercase — the way a person may type or paste one. Nothing
 * else is dropped or changed: any other character, a letter among the check digits, or a length
 * other than 14 is not a CNPJ. Machine interfaces (the payments API, the POS API, the settings
 * file) take the canonical form only: 14 characters, uppercase, no punctuation.
 */
const onlyDigits = (value: string): string => value.replace(/\D/g, '');

/** The canonical CNPJ: 12 digits or uppercase letters, then 2 numeric check digits. */
export const CNPJ_PATTERN = '^[0-9A-Z]{12}[0-9]{2}$';
const CNPJ_SHAPE = new RegExp(CNPJ_PATTERN);
/** The 12 characters the check digits are computed from. */
const CNPJ_BASE_SHAPE = /^[0-9A-Z]{12}$/;

const CNPJ_FIRST_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;
const CNPJ_SECOND_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** Sum of value × weight, mod 11: a remainder under 2 gives 0, any other 11 − remainder. */
function mod11Digit(values: readonly number[], weights: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < weights.length; i++) sum += values[i]! * weights[i]!;
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(value: string): boolean {
  const cpf = onlyDigits(value);
  if (cpf.length !== 11 || /^(\d)\1{10}$/.test(cpf)) return false;
  const digits = [...cpf].map(Number);
  const first = mod11Digit(digits, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11Digit(digits, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return first === digits[9] && second === digits[10];
}

/**
 * The CNPJ as typed or pasted, in its canonical form ("12.abc.345/01de-35" → "12ABC34501DE35"),
 * or undefined when it does not have a CNPJ's shape. The check digits are not checked here.
 */
export function normalizeCnpj(value: string): string | undefined {
  const cnpj = value.replace(/[.\-/\s]/g, '').replace(/[a-z]/g, (letter) => letter.toUpperCase());
  return CNPJ_SHAPE.test(cnpj) ? cnpj : undefined;
}

/**
 * The two check digits of a CNPJ's first 12 characters (digits or uppercase letters):
 * "12ABC34501DE" → "35". Throws on anything else.
 */
export function cnpjCheckDigits(base: string): string {
  if (!CNPJ_BASE_SHAPE.test(base)) throw new RangeError('A CNPJ base is 12 digits or uppercase letters');
  const values = [...base].map((char) => char.charCodeAt(0) - 48);
  const first = mod11Digit(values, CNPJ_FIRST_WEIGHTS);
  const second = mod11Digit([...values, first], CNPJ_SECOND_WEIGHTS);
  return `${first}${second}`;
}

/**
 * True for a CNPJ, numeric or alphanumeric, whose check digits match, as typed or in its canonical
 * form (see `normalizeCnpj`). Fourteen times the same character ("00000000000000") is not a CNPJ.
 */
export function isValidCnpj(value: string): boolean {
  const cnpj = normalizeCnpj(value);
  if (cnpj === undefined || /^(.)\1{13}$/.test(cnpj)) return false;
  return cnpjCheckDigits(cnpj.slice(0, 12)) === cnpj.slice(12);
}

/** "12345678909" → "123.456.789-09" (other lengths are returned as given). */
export function formatCpf(value: string): string {
  const cpf = onlyDigits(value);
  return cpf.length === 11 ? `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}` : value;
}

/**
 * "12ABC34501DE35" → "12.ABC.345/01DE-35", "11222333000181" → "11.222.333/0001-81" (anything
 * `normalizeCnpj` takes; anything else is returned as given).
 */
export function formatCnpj(value: string): string {
  const cnpj = normalizeCnpj(value);
  return cnpj === undefined
    ? value
    : `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
}
