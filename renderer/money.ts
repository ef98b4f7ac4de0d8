/**
 * Money in the window: integer centavos to "R$ 1.234,56" and what a cashier types back to
 * centavos, with string and integer operations only — a float never touches an amount
 * (12.34 * 100 is 1233.9999999999998).
 */

/** Reais (digits, or groups of three after dots), then optionally a comma and 1–2 centavo digits. */
const AMOUNT_PATTERN = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/;

/** 1234 → "R$ 12,34", 5 → "R$ 0,05", 123456 → "R$ 1.234,56"; "—" for anything but a safe integer. */
export function formatCentavos(centavos: number): string {
  if (!Number.isSafeInteger(centavos)) return '—';
  const sign = centavos < 0 ? '-' : '';
  const digits = String(Math.abs(centavos)).padStart(3, '0');
  const reais = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${sign}R$ ${reais},${digits.slice(-2)}`;
}

/**
 * "12,34" → 1234, "12" → 1200, "12,5" → 1250, "1.234,56" → 123456, "R$ 7,00" → 700. Null for
 * anything else ("12.34", "12,345", "-1", "0,00", "abc"): the form says how to write it.
 */
export function parseCentavos(text: string): number | null {
  const compact = text.trim().replace(/^R\$\s*/i, '');
  const match = AMOUNT_PATTERN.exec(compact);
  if (match === null) return null;
  const reais = (match[1] ?? '').replaceAll('.', '');
  const centavos = (match[2] ?? '').padEnd(2, '0');
  const value = Number.parseInt(reais + centavos, 10);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}
