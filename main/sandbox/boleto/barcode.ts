/**
 * The 44-digit FEBRABAN barcode of a bank boleto ("bloqueto de cobrança"):
 *
 *   positions  1–3   bank code (341 = Itaú)
 *              4     currency code (9 = real)
 *              5     general check digit (modulo 11 over the other 43 digits)
 *              6–9   due-date factor
 *              10–19 amount in centavos, zero-padded
 *              20–44 free field, laid out by each bank
 */
import { mod11Barcode } from './modulo.js';

const DAY_MS = 86_400_000;

/** Day 0 of the first factor cycle: factor = days since 1997-10-07. */
const FIRST_BASE = Date.UTC(1997, 9, 7);
/**
 * The factor reached 9999 on 2025-02-21 and restarted at 1000 on 2025-02-22 (BACEN/FEBRABAN
 * rule approved by CENEGESC in 2014, binding on issuers since 2014-03-12). Sources:
 * github.com/cobregratis/boletophp issue #62 ("o fator de vencimento retornará ao valor 1000 na
 * data de vencimento 22/02/2025": 21/02/2025 → 9999, 22/02/2025 → 1000), and the test suite of
 * kivanio/brcobranca (spec/brcobranca/calculo_data_spec.rb: 21/02/2025 → 9999,
 * 22/02/2025 → 1000, 23/02/2025 → 1001).
 */
const SECOND_CYCLE_START = Date.UTC(2025, 1, 22);

export const FACTOR_MIN = 1000;
export const FACTOR_MAX = 9999;
/** The 10-digit amount field: up to R$ 99.999.999,99. */
export const AMOUNT_MAX_CENTAVOS = 9_999_999_999;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Midnight UTC of a YYYY-MM-DD calendar date, refusing impossible dates such as 2025-02-30. */
export function parseCalendarDate(date: string): number {
  const match = DATE_RE.exec(date);
  if (!match) throw new Error(`Due date must be YYYY-MM-DD, got "${date}"`);
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    throw new Error(`Due date is not a calendar date: "${date}"`);
  }
  return ms;
}

const formatDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** First and last due dates the two factor cycles can represent: 2000-07-03 .. 2049-10-13. */
export const DUE_DATE_MIN = formatDate(FIRST_BASE + FACTOR_MIN * DAY_MS);
export const DUE_DATE_MAX = formatDate(SECOND_CYCLE_START + (FACTOR_MAX - FACTOR_MIN) * DAY_MS);

/**
 * The 4-digit due-date factor of a YYYY-MM-DD due date. Before 2025-02-22 it is the number of
 * days since 1997-10-07 (1000 on 2000-07-03); from 2025-02-22 on it is 1000 plus the days since
 * 2025-02-22. Dates outside both cycles cannot be written and throw.
 */
export function dueDateFactor(dueDate: string): string {
  const ms = parseCalendarDate(dueDate);
  const factor =
    ms < SECOND_CYCLE_START
      ? Math.round((ms - FIRST_BASE) / DAY_MS)
      : FACTOR_MIN + Math.round((ms - SECOND_CYCLE_START) / DAY_MS);
  if (factor < FACTOR_MIN || factor > FACTOR_MAX) {
    throw new Error(
      `Due date ${dueDate} has no FEBRABAN due-date factor: representable dates run from ${DUE_DATE_MIN} to ${DUE_DATE_MAX}`,
    );
  }
  return String(factor).padStart(4, '0');
}

/**
 * The general check digit (position 5) of a barcode, computed over the other 43 digits:
 * modulo 11 with weights 2..9 from the right, DV = 11 - sum % 11, 0/10/11 → 1.
 */
export function generalCheckDigit(barcode43: string): number {
  if (!/^[0-9]{43}$/.test(barcode43)) {
    throw new Error(`The general check digit is computed over 43 digits, got "${barcode43}"`);
  }
  return mod11Barcode(barcode43);
}

export interface BoletoBarcodeInput {
  /** 3-digit bank code, e.g. "341". */
  readonly bankCode: string;
  /** Integer centavos, 0..9 999 999 999. */
  readonly amountCentavos: number;
  /** YYYY-MM-DD. */
  readonly dueDate: string;
  /** The bank's 25-digit free field. */
  readonly freeField: string;
}

const CURRENCY_REAL = '9';

/** Builds the 44-digit barcode: bank + "9" + DV + factor + amount + free field. */
export function boletoBarcode(input: BoletoBarcodeInput): string {
  const { bankCode, amountCentavos, dueDate, freeField } = input;
  if (!/^[0-9]{3}$/.test(bankCode)) throw new Error(`Bank code must be 3 digits, got "${bankCode}"`);
  if (!Number.isInteger(amountCentavos) || amountCentavos < 0 || amountCentavos > AMOUNT_MAX_CENTAVOS) {
    throw new Error(
      `Amount must be an integer number of centavos from 0 to ${AMOUNT_MAX_CENTAVOS}, got ${amountCentavos}`,
    );
  }
  if (!/^[0-9]{25}$/.test(freeField)) throw new Error(`Free field must be 25 digits, got "${freeField}"`);
  const factor = dueDateFactor(dueDate);
  const amount = String(amountCentavos).padStart(10, '0');
  const withoutDv = `${bankCode}${CURRENCY_REAL}${factor}${amount}${freeField}`;
  const dv = generalCheckDigit(withoutDv);
  return `${withoutDv.slice(0, 4)}${dv}${withoutDv.slice(4)}`;
}

export interface ParsedBoletoBarcode {
  readonly bankCode: string;
  readonly currency: string;
  readonly checkDigit: number;
  readonly dueDateFactor: string;
  readonly amountCentavos: number;
  readonly freeField: string;
  /** Whether the general check digit matches the other 43 digits. */
  readonly valid: boolean;
}

/** Splits a 44-digit barcode into its fields; a wrong check digit gives `valid: false`. */
export function parseBoletoBarcode(barcode: string): ParsedBoletoBarcode {
  if (!/^[0-9]{44}$/.test(barcode)) throw new Error(`A boleto barcode is 44 digits, got "${barcode}"`);
  const checkDigit = Number(barcode[4]);
  return {
    bankCode: barcode.slice(0, 3),
    currency: barcode.slice(3, 4),
    checkDigit,
    dueDateFactor: barcode.slice(5, 9),
    amountCentavos: Number(barcode.slice(9, 19)),
    freeField: barcode.slice(19, 44),
    valid: generalCheckDigit(barcode.slice(0, 4) + barcode.slice(5)) === checkDigit,
  };
}
