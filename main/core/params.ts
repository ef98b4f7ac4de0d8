/**
 * The parameters of a PINPAD payment, as one TypeBox schema: it validates `start`, gives the
 * TypeScript type, and documents the POS API (the WebSocket layer publishes the same schema).
 * Rules a schema cannot say (installments only for credit, the minimum installment value) are
 * checked in `startViolations`.
 */
import { Type, type Static } from 'typebox';
import {
  DESCRIPTION_MAX,
  INSTALLMENTS_MAX,
  INSTALLMENTS_MIN,
  NOTIFICATION_MAX_PINPAD,
  REFERENCE_ID_MAX,
  schemaViolations,
} from '../contract/index.js';
import type { EngineViolation } from './errors.js';

export const StartParams = Type.Object(
  {
    reference_id: Type.String({
      minLength: 1,
      maxLength: REFERENCE_ID_MAX,
      description: "The POS's own id of this sale: repeating `start` with it returns the same payment.",
    }),
    amount: Type.Integer({ minimum: 1, description: 'Centavos, an integer > 0.' }),
    payment_type: Type.Union([Type.Literal('credit'), Type.Literal('debit')]),
    installments: Type.Optional(
      Type.Integer({
        minimum: INSTALLMENTS_MIN,
        maximum: INSTALLMENTS_MAX,
        description:
          'Credit only, 1–12. Left out for credit: the customer chooses on the PINPAD (1 when the amount is too small to split).',
      }),
    ),
    description: Type.String({ minLength: 1, maxLength: DESCRIPTION_MAX }),
    notification: Type.Optional(
      Type.String({
        maxLength: NOTIFICATION_MAX_PINPAD,
        description: 'Shown on the PINPAD while it waits for the card (≤ 32).',
      }),
    ),
    terminal: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'Serial number of the PINPAD; needed when several are attached.',
      }),
    ),
    ask_tax_id: Type.Optional(
      Type.Boolean({ description: 'Ask the customer to type a CPF on the PINPAD (for the receipt).' }),
    ),
  },
  { additionalProperties: false, title: 'PaymentStartParams' },
);
export type StartParams = Static<typeof StartParams>;

export interface InstallmentRules {
  /** Most installments offered (≤ 12). */
  readonly max: number;
  /** Smallest installment, in centavos (e.g. 500 = R$ 5,00). */
  readonly minInstallmentAmount: number;
}

export function startViolations(params: unknown, rules: InstallmentRules): EngineViolation[] {
  const violations: EngineViolation[] = schemaViolations(StartParams, params).map(({ field, message }) => ({
    field,
    message,
  }));
  if (violations.length > 0) return violations;
  const p = params as StartParams;
  if (p.installments !== undefined) {
    if (p.payment_type !== 'credit') {
      violations.push({ field: 'installments', message: 'Installments are for credit only' });
    } else if (p.installments > rules.max) {
      violations.push({ field: 'installments', message: `At most ${rules.max} installments are offered` });
    } else if (p.installments > 1 && Math.floor(p.amount / p.installments) < rules.minInstallmentAmount) {
      violations.push({
        field: 'installments',
        message: `Each installment must be at least ${rules.minInstallmentAmount} centavos`,
      });
    }
  }
  if (p.notification !== undefined && /[\r\n]/.test(p.notification)) {
    violations.push({ field: 'notification', message: 'Field notification must be one line' });
  }
  return violations;
}

/** Most installments the amount allows (each ≥ the minimum), capped by the rules. */
export function maxInstallmentsFor(amount: number, rules: InstallmentRules): number {
  return Math.max(
    1,
    Math.min(rules.max, INSTALLMENTS_MAX, Math.floor(amount / Math.max(1, rules.minInstallmentAmount))),
  );
}
