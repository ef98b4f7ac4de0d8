/**
 * Money for the demo POS: reais as a cashier types them ("12,34", "1.234,56", "R$ 5") to integer
 * centavos and back, with string and integer operations only — a float never touches an amount
 * (12.34 * 100 is 1233.9999999999998).
 */

/** Reais (digits, or groups of three after dots), then optionally a comma and 1–2 centavo digits. */
const AMOUNT_PATTERN = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/;

/**
 * "12,34" → 1234, "12" → 1200, "12,5" → 1250, "1.234,56" → 123456, "R$ 7,00" → 700.
 * Null for anything else ("12.34", "12,345", "-1", "0,00", "abc"): the form says how to write it.
 */
export function parseCentavos(text) {
  const compact = String(text)
    .trim()
    .replace(/^R\$\s*/i, '');
  const match = AMOUNT_PATTERN.exec(compact);
  if (match === null) return null;
  const reais = match[1].replaceAll('.', '');
  const centavos = (match[2] ?? '').padEnd(2, '0');
  const value = Number.parseInt(reais + centavos, 10);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

/** 123456 → "R$ 1.234,56". */
export function formatCentavos(centavos) {
  const digits = String(centavos).padStart(3, '0');
  const reais = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${reais},${digits.slice(-2)}`;
}

/** "" → undefined (the customer chooses on the PINPAD); "3" → 3; null when not 1–12. */
export function parseInstallments(text) {
  const trimmed = String(text).trim();
  if (trimmed === '') return undefined;
  if (!/^\d{1,2}$/.test(trimmed)) return null;
  const value = Number.parseInt(trimmed, 10);
  return value >= 1 && value <= 12 ? value : null;
}
