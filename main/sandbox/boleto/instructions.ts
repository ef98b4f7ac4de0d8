/**
 * The "Instruções" box of a boleto, worded in Brazilian Portuguese from the stored billing
 * instructions. Two request shapes reach the store (shared/payments-api-notes.md §2.2–§2.3):
 *
 *   boleto   late_fee{mode FIXED|PERCENTAGE, amount|percentage, start_date},
 *            interest{mode DAILY_AMOUNT|DAILY_PERCENTAGE|MONTHLY_PERCENTAGE, …},
 *            discount[{mode, amount|percentage, limit_date}], body_instructions[]
 *   bolepix  late_fee{mode PERCENTAGE|FIXED, value, start_at},
 *            interest{mode, frequency DAILY|MONTHLY|ANNUALLY, value, start_at},
 *            discount{mode, value, limit_at}, billing_message_list[{message}]
 *
 * Fixed values are integer centavos in both shapes (the sandbox keeps money in centavos);
 * numbers may arrive as numeric strings, as the service family writes them. A part that does
 * not make sense is left out: this is display, the request was validated when it was created.
 */
import { formatBrl, formatDateBr, formatDecimalBr } from '../../locale/br-format.js';

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function numberOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^[0-9]+(\.[0-9]+)?$/.test(value)) return Number(value);
  return undefined;
}

const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

const FREQUENCY: Record<string, string> = { DAILY: 'ao dia', MONTHLY: 'ao mês', ANNUALLY: 'ao ano' };

/** "R$ 2,00" for a fixed part, "2% (R$ 2,00)" for a percentage of the document amount. */
function charge(
  mode: string,
  fixed: number | undefined,
  percent: number | undefined,
  base: number,
): string | undefined {
  if (mode === 'FIXED' || mode === 'DAILY_AMOUNT') {
    return fixed === undefined ? undefined : formatBrl(Math.round(fixed));
  }
  if (percent === undefined) return undefined;
  return `${formatDecimalBr(percent)}% (${formatBrl(Math.round((base * percent) / 100))})`;
}

function lateFeeLine(lateFee: Loose, base: number): string | undefined {
  const mode = stringOf(lateFee.mode) ?? '';
  const value = numberOf(lateFee.value);
  const text = charge(mode, numberOf(lateFee.amount) ?? value, numberOf(lateFee.percentage) ?? value, base);
  if (text === undefined) return undefined;
  const from = stringOf(lateFee.start_date) ?? stringOf(lateFee.start_at);
  return from
    ? `A partir de ${formatDateBr(from)}, cobrar multa de ${text}.`
    : `Após o vencimento, cobrar multa de ${text}.`;
}

function interestLine(interest: Loose): string | undefined {
  const mode = stringOf(interest.mode) ?? '';
  const value = numberOf(interest.value);
  let text: string | undefined;
  if (mode === 'DAILY_AMOUNT' || mode === 'FIXED') {
    const fixed = numberOf(interest.amount) ?? value;
    const per = mode === 'DAILY_AMOUNT' ? 'ao dia' : (FREQUENCY[stringOf(interest.frequency) ?? 'DAILY'] ?? 'ao dia');
    text = fixed === undefined ? undefined : `${formatBrl(Math.round(fixed))} ${per}`;
  } else {
    const percent = numberOf(interest.percentage) ?? value;
    const per =
      mode === 'DAILY_PERCENTAGE'
        ? 'ao dia'
        : mode === 'MONTHLY_PERCENTAGE'
          ? 'ao mês'
          : FREQUENCY[stringOf(interest.frequency) ?? ''];
    text = percent === undefined || per === undefined ? undefined : `${formatDecimalBr(percent)}% ${per}`;
  }
  if (text === undefined) return undefined;
  const from = stringOf(interest.start_date) ?? stringOf(interest.start_at);
  return from
    ? `A partir de ${formatDateBr(from)}, cobrar juros de ${text}.`
    : `Após o vencimento, cobrar juros de ${text}.`;
}

function discountLine(discount: Loose, base: number): string | undefined {
  const mode = stringOf(discount.mode) ?? '';
  const value = numberOf(discount.value);
  const text = charge(mode, numberOf(discount.amount) ?? value, numberOf(discount.percentage) ?? value, base);
  const until = stringOf(discount.limit_date) ?? stringOf(discount.limit_at);
  if (text === undefined || until === undefined) return undefined;
  return `Até ${formatDateBr(until)}, conceder desconto de ${text}.`;
}

/**
 * The instruction lines of a boleto of `amountCentavos`, from its stored billing instructions
 * (either shape) plus any free-text instructions.
 */
export function instructionLines(
  billingInstructions: unknown,
  amountCentavos: number,
  extra: readonly string[] = [],
): string[] {
  const lines: string[] = [];
  if (isObject(billingInstructions)) {
    const { late_fee: lateFee, interest, discount } = billingInstructions;
    if (isObject(lateFee)) lines.push(lateFeeLine(lateFee, amountCentavos) ?? '');
    if (isObject(interest)) lines.push(interestLine(interest) ?? '');
    for (const item of Array.isArray(discount) ? discount : [discount]) {
      if (isObject(item)) lines.push(discountLine(item, amountCentavos) ?? '');
    }
    const body = billingInstructions.body_instructions;
    if (Array.isArray(body)) for (const text of body) lines.push(stringOf(text) ?? '');
    const messages = billingInstructions.billing_message_list;
    if (Array.isArray(messages))
      for (const item of messages) lines.push(isObject(item) ? (stringOf(item.message) ?? '') : '');
  }
  lines.push(...extra);
  return lines.map((line) => line.trim()).filter((line) => line.length > 0);
}
