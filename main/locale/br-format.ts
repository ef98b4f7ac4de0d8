/**
 * Money, dates and tax ids the Brazilian way ("R$ 1.234,56", "31/12/2026", "11.222.333/0001-81",
 * "12.ABC.345/01DE-35"): the one place main/ formats them, for receipts, slips, the PINPAD's
 * display, the CLI and the sandbox's boletos. (drivers/ cannot import main/, and renderer/ and
 * demo/ are browser programs with their own copy.)
 *
 * Money is integer centavos; formatting never goes through floating point.
 */
import { formatCnpj, formatCpf, normalizeCnpj } from '../validation/taxpayer-id.js';

/**
 * 123456 → "1.234,56": the amount alone, for a place that says "R$" its own way (the PINPAD's
 * "2X R$ 50,00", a fiscal decimal). A RangeError for anything but a whole, non-negative number
 * of centavos: no amount Pinbridge shows is negative.
 */
export function formatReais(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0) {
    throw new RangeError(`An amount is a non-negative integer number of centavos, got ${centavos}.`);
  }
  const reais = Math.trunc(centavos / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${reais},${String(centavos % 100).padStart(2, '0')}`;
}

/** 123456 → "R$ 1.234,56": the amount as a person reads it on paper or a screen. */
export const formatBrl = (centavos: number): string => `R$ ${formatReais(centavos)}`;

/** "2026-12-31" (or a timestamp starting so) → "31/12/2026". */
export function formatDateBr(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : date;
}

/** "1.5" → "1,5" (percentages as Brazilians write them). */
export const formatDecimalBr = (value: number): string => String(Number(value.toFixed(4))).replace('.', ',');

/** Which document a tax id is: a CNPJ (numeric or alphanumeric, 14 characters) or else a CPF. */
export const taxIdKind = (value: string): 'CNPJ' | 'CPF' => (normalizeCnpj(value) === undefined ? 'CPF' : 'CNPJ');

/**
 * CPF (11 digits) or CNPJ (14 characters, numeric or alphanumeric: "12.ABC.345/01DE-35") with
 * punctuation; anything else as given.
 */
export function formatTaxId(value: string): string {
  return normalizeCnpj(value) === undefined ? formatCpf(value) : formatCnpj(value);
}

/** A moment as "10/12/2026 23:59" on the clock of `timeZone` (the store's). */
export function formatDateTimeBr(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('pt-BR', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}/${part('month')}/${part('year')} ${part('hour')}:${part('minute')}`;
}
