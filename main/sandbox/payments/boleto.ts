/**
 * Issuing a boleto or a bolepix: due date and payment limit, the limits the service family
 * documents (R$ 3,00 minimum, R$ 30,00 with a late fee or interest, R$ 10.000,00 maximum —
 * shared/payments-api-notes.md §2.1), the FEBRABAN numbers, and for bolepix the Pix payload.
 */
import type {
  BillingInstructions,
  BoletoDetails,
  BolepixTransactionRequest,
  BoletoTransactionRequest,
  PixDetails,
} from '../../contract/index.js';
import { DUE_DATE_MAX, DUE_DATE_MIN, parseCalendarDate } from '../boleto/barcode.js';
import { issueBoletoNumbers } from '../boleto/index.js';
import { badRequest } from '../errors.js';
import { pixCopyAndPaste } from '../pix/brcode.js';
import type { SandboxDatabase } from '../store/database.js';
import { nextCounter } from '../store/transactions.js';
import { dateOnly } from '../time.js';

export const BOLETO_AMOUNT_MIN = 300;
export const BOLETO_AMOUNT_MIN_WITH_CHARGES = 3_000;
export const BOLETO_AMOUNT_MAX = 1_000_000;
/** Days to the due date when none is given. */
export const DEFAULT_DUE_DAYS = 3;
/** Days after the due date that payment is still accepted when no limit is given. */
export const DEFAULT_LIMIT_DAYS = 29;
/** The sandbox's Pix key (an EVP "random key"); every bolepix is payable to it. */
export const SANDBOX_PIX_KEY = '4f0b8c1e-7a3d-4e92-b5c6-2d9e8f1a7b30';
export const SANDBOX_PIX_CITY = 'SAO PAULO';

const DAY_MS = 86_400_000;

/** Due date, payment limit and billing instructions of a boleto, checked. */
export interface BoletoTerms {
  readonly expirationDate: string;
  readonly paymentLimitDate: string;
  readonly billingInstructions: BillingInstructions | null;
}

function calendarDate(field: string, value: string): number {
  try {
    return parseCalendarDate(value);
  } catch {
    throw badRequest(`Field ${field} is not a calendar date`);
  }
}

export function addDays(date: string, days: number): string {
  return dateOnly(new Date(parseCalendarDate(date) + days * DAY_MS));
}

function dueAndLimit(
  today: Date,
  given: { due?: string | undefined; limit?: string | undefined },
  fields: { due: string; limit: string },
): { expirationDate: string; paymentLimitDate: string } {
  const expirationDate = given.due ?? addDays(dateOnly(today), DEFAULT_DUE_DAYS);
  calendarDate(fields.due, expirationDate);
  if (expirationDate < DUE_DATE_MIN || expirationDate > DUE_DATE_MAX) {
    throw badRequest(`Field ${fields.due} must be between ${DUE_DATE_MIN} and ${DUE_DATE_MAX}`);
  }
  const paymentLimitDate = given.limit ?? addDays(expirationDate, DEFAULT_LIMIT_DAYS);
  calendarDate(fields.limit, paymentLimitDate);
  if (paymentLimitDate < expirationDate) throw badRequest(`Field ${fields.limit} must not be before ${fields.due}`);
  return { expirationDate, paymentLimitDate };
}

function checkAmount(amount: number, withCharges: boolean): void {
  if (amount < BOLETO_AMOUNT_MIN)
    throw badRequest(`Field amount must be at least ${BOLETO_AMOUNT_MIN} (R$ 3,00) for a boleto`);
  if (amount > BOLETO_AMOUNT_MAX) {
    throw badRequest(`Field amount must be at most ${BOLETO_AMOUNT_MAX} (R$ 10.000,00) for a boleto`);
  }
  if (withCharges && amount < BOLETO_AMOUNT_MIN_WITH_CHARGES) {
    throw badRequest(
      `Field amount must be at least ${BOLETO_AMOUNT_MIN_WITH_CHARGES} (R$ 30,00) when a late fee or interest is given`,
    );
  }
}

export function boletoTerms(request: BoletoTransactionRequest, today: Date): BoletoTerms {
  const method = request.payment_method;
  const instructions = method?.billing_instructions ?? null;
  checkAmount(request.amount, instructions?.late_fee !== undefined || instructions?.interest !== undefined);
  const dates = dueAndLimit(
    today,
    { due: method?.expiration_date, limit: method?.payment_limit_date },
    { due: 'payment_method.expiration_date', limit: 'payment_method.payment_limit_date' },
  );
  return { ...dates, billingInstructions: instructions };
}

type BolepixMethod = NonNullable<BolepixTransactionRequest['payment_method']>;

/** A bolepix FIXED value is centavos (the contract's unit for money), so it must be whole. */
function fixedCentavos(field: string, value: string | number): number {
  const number = Number(value);
  if (!Number.isInteger(number)) throw badRequest(`Field ${field} must be a whole number of centavos in FIXED mode`);
  return number;
}

function percent(field: string, value: string | number): number {
  const number = Number(value);
  if (number > 100) throw badRequest(`Field ${field} must be at most 100 in PERCENTAGE mode`);
  return number;
}

/**
 * The bolepix charges in the boleto's billing_instructions shape, which is what is stored (and
 * printed on the PDF): interest DAILY/MONTHLY as DAILY_PERCENTAGE / MONTHLY_PERCENTAGE /
 * DAILY_AMOUNT, an ANNUALLY percentage as its monthly twelfth. A FIXED amount per month or
 * year has no boleto equivalent and is refused.
 */
export function bolepixBillingInstructions(method: BolepixMethod | undefined): BillingInstructions | null {
  if (!method) return null;
  const result: BillingInstructions = {};
  const { late_fee: lateFee, interest, discount } = method;
  if (lateFee) {
    result.late_fee =
      lateFee.mode === 'FIXED'
        ? {
            mode: 'FIXED',
            amount: fixedCentavos('payment_method.late_fee.value', lateFee.value),
            start_date: lateFee.start_at ?? null,
          }
        : {
            mode: 'PERCENTAGE',
            percentage: percent('payment_method.late_fee.value', lateFee.value),
            start_date: lateFee.start_at ?? null,
          };
  }
  if (interest) {
    const start = interest.start_at ?? null;
    if (interest.mode === 'FIXED') {
      if (interest.frequency !== 'DAILY') {
        throw badRequest('Field payment_method.interest.frequency must be DAILY when mode is FIXED');
      }
      result.interest = {
        mode: 'DAILY_AMOUNT',
        amount: fixedCentavos('payment_method.interest.value', interest.value),
        start_date: start,
      };
    } else if (interest.frequency === 'DAILY') {
      result.interest = {
        mode: 'DAILY_PERCENTAGE',
        percentage: percent('payment_method.interest.value', interest.value),
        start_date: start,
      };
    } else {
      const rate = percent('payment_method.interest.value', interest.value);
      const monthly = interest.frequency === 'MONTHLY' ? rate : Math.round((rate / 12) * 10_000) / 10_000;
      result.interest = { mode: 'MONTHLY_PERCENTAGE', percentage: monthly, start_date: start };
    }
  }
  if (discount) {
    result.discount = [
      discount.mode === 'FIXED'
        ? {
            mode: 'FIXED',
            amount: fixedCentavos('payment_method.discount.value', discount.value),
            limit_date: discount.limit_at,
          }
        : {
            mode: 'PERCENTAGE',
            percentage: percent('payment_method.discount.value', discount.value),
            limit_date: discount.limit_at,
          },
    ];
  }
  return Object.keys(result).length === 0 ? null : result;
}

export function bolepixTerms(request: BolepixTransactionRequest, today: Date): BoletoTerms {
  const method = request.payment_method;
  checkAmount(request.amount, method?.late_fee !== undefined || method?.interest !== undefined);
  const dates = dueAndLimit(
    today,
    { due: method?.due_at, limit: method?.payment_limit_at },
    { due: 'payment_method.due_at', limit: 'payment_method.payment_limit_at' },
  );
  return { ...dates, billingInstructions: bolepixBillingInstructions(method) };
}

/**
 * The boleto's numbers and details. The sequence (nosso número) is a counter taken in the
 * caller's database transaction, so it is unique and never skipped by a rolled-back creation.
 */
export function issueBoleto(
  db: SandboxDatabase,
  input: { id: string; amount: number; terms: BoletoTerms },
): BoletoDetails {
  const sequence = nextCounter(db, 'boleto_sequence', 1);
  const numbers = issueBoletoNumbers({ amountCentavos: input.amount, dueDate: input.terms.expirationDate, sequence });
  return {
    barcode: numbers.barcode,
    digitable_line: numbers.digitableLine,
    url: `/boletos/${input.id}.pdf`,
    expiration_date: input.terms.expirationDate,
    payment_limit_date: input.terms.paymentLimitDate,
    billing_instructions: input.terms.billingInstructions,
    status: 'not_paid',
    paid_at: null,
  };
}

/** The Pix half of a bolepix: a static payload to the sandbox key, valid until the due date ends. */
export function issuePix(input: { id: string; amount: number; merchantName: string; dueDate: string }): PixDetails {
  return {
    qr_code: pixCopyAndPaste({
      key: SANDBOX_PIX_KEY,
      merchantName: input.merchantName,
      merchantCity: SANDBOX_PIX_CITY,
      amountCentavos: input.amount,
      txid: input.id.slice(0, 25),
    }),
    qr_code_url: `/pix/${input.id}.png`,
    expiration_date_time: `${input.dueDate}T23:59:59+00:00`,
  };
}
