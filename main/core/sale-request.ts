/**
 * A sale as the core takes it: camelCase, its amount already Centavos. Whoever receives a sale
 * from outside (the POS protocol's adapter, main/pos/server/wire-adapter.ts) checks its shape and
 * builds this once; the core checks here only what depends on the store's settings (how many
 * installments, the smallest installment), and nothing below the engine checks it again.
 */
import { createHash } from 'node:crypto';
import { INSTALLMENTS_MAX, canonicalJson } from '../contract/index.js';
import type { EngineViolation } from './errors.js';
import type { Centavos } from './money.js';

export type PaymentType = 'credit' | 'debit';

export interface SaleRequest {
  /** The POS's own id of the sale: starting it again returns the same payment. */
  readonly referenceId: string;
  readonly amount: Centavos;
  readonly paymentType: PaymentType;
  /** Credit only; left out, the customer chooses on the PINPAD. */
  readonly installments?: number;
  readonly description: string;
  /** Shown on the PINPAD while it waits for the card (one line, ≤ 32). */
  readonly notification?: string;
  /** Serial number of the PINPAD; needed when several are attached. */
  readonly terminal?: string;
  /** Ask the customer to type a CPF on the PINPAD. */
  readonly askTaxId?: boolean;
}

export interface InstallmentRules {
  /** Most installments offered (≤ 12). */
  readonly max: number;
  /** Smallest installment, in centavos (e.g. 500 = R$ 5,00). */
  readonly minInstallmentAmount: number;
}

/** What the store's installment rules refuse in the sale (empty: nothing). */
export function installmentViolations(request: SaleRequest, rules: InstallmentRules): EngineViolation[] {
  const { installments, paymentType, amount } = request;
  if (installments === undefined) return [];
  if (paymentType !== 'credit') return [{ field: 'installments', message: 'Installments are for credit only' }];
  if (installments > rules.max)
    return [{ field: 'installments', message: `At most ${rules.max} installments are offered` }];
  if (installments > 1 && Math.floor(amount / installments) < rules.minInstallmentAmount) {
    return [
      { field: 'installments', message: `Each installment must be at least ${rules.minInstallmentAmount} centavos` },
    ];
  }
  return [];
}

/** Most installments the amount allows (each ≥ the minimum), capped by the rules. */
export function maxInstallmentsFor(amount: number, rules: InstallmentRules): number {
  return Math.max(
    1,
    Math.min(rules.max, INSTALLMENTS_MAX, Math.floor(amount / Math.max(1, rules.minInstallmentAmount))),
  );
}

/**
 * What makes two starts "the same payment": every parameter but the PINPAD (a retry after a
 * PINPAD swap is still the same sale). SHA-256 of the canonical JSON of the sale as the POS sent
 * it (canonicalJson leaves out what is undefined): the keys are the POS API's, so that a hash the
 * journal stored before the core spoke camelCase still matches (sale-request.test.ts pins three).
 */
export function saleRequestHash(request: SaleRequest): string {
  const asSent = {
    reference_id: request.referenceId,
    amount: request.amount,
    payment_type: request.paymentType,
    installments: request.installments,
    description: request.description,
    notification: request.notification,
    ask_tax_id: request.askTaxId,
  };
  return createHash('sha256').update(canonicalJson(asSent)).digest('hex');
}
