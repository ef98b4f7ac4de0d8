/**
 * Sandbox-only helpers that play the outside world: the payer who pays a boleto (at the bank
 * or by Pix), and the seller's phone that reads the card of a tap-to-pay transaction.
 */
import {
  ErrorA,
  SandboxPayRequest,
  SandboxTapToPayRequest,
  Transaction,
  type SandboxTapToPayRequest as TapToPayBody,
} from '../../contract/index.js';
import type { RouteRegistrar } from '../app.js';
import { AUTH_ERRORS, badRequest, conflict } from '../errors.js';
import { authorize, type CardInput } from '../payments/authorization.js';
import { cancellationSweeper } from '../payments/boleto-cancellation.js';
import { changeTransaction } from '../payments/change.js';
import { decideOutcome, DECLINES, type Outcome } from '../payments/outcomes.js';
import { markBoletoPaid } from '../payments/transitions.js';
import type { TransactionRecord } from '../store/transactions.js';
import { transactionView } from '../views/transaction.js';
import { TransactionParams } from './transactions.js';

/** First four digits the phone reports for a brand (it sees no more of the number). */
const FIRST4_BY_BRAND: Readonly<Record<string, string>> = {
  visa: '4761',
  mastercard: '5454',
  elo: '6363',
  amex: '3764',
  hipercard: '6062',
};

function phoneOutcome(body: TapToPayBody, record: TransactionRecord): Outcome {
  switch (body.outcome) {
    case 'approved':
      return { kind: 'approved' };
    case 'declined':
      return { kind: 'declined', decline: DECLINES.card_declined };
    case 'nfc_read_error':
      return { kind: 'declined', decline: DECLINES.nfc_read_error };
    default: {
      // The amount table; the phone holds nothing back, so the slow ending simply approves.
      const outcome = decideOutcome({ amountCentavos: record.amount });
      return outcome.kind === 'approved_slow' ? { kind: 'approved' } : outcome;
    }
  }
}

function phoneCard(body: TapToPayBody): CardInput {
  const brand = body.card_brand ?? 'visa';
  return {
    brand,
    first4: FIRST4_BY_BRAND[brand.toLowerCase().replace(/[^a-z]/g, '')] ?? '0000',
    last4: body.last4_digits ?? '0010',
  };
}

export const registerSandboxPaymentRoutes: RouteRegistrar = (app, ctx) => {
  const sweeper = cancellationSweeper(ctx);

  app.post(
    '/v1/sandbox/marketplaces/:marketplace_id/transactions/:transaction_id/pay',
    {
      schema: {
        tags: ['sandbox'],
        operationId: 'sandboxPayBoleto',
        summary: 'Pay a boleto or bolepix (sandbox only)',
        description:
          'Marks an unpaid boleto paid, as the provider reports it: status `succeeded`, boleto.status `paid`, paid_at, ' +
          'history `paid`, webhook `transaction.succeeded` with paid_at. `via`: `boleto` (the default: at a bank, by ' +
          'the barcode) or `pix` (a bolepix paid with its QR code: also pix.paid_at and pix.end_to_end_id, in the ' +
          'webhook too; 409 after the Pix code expired, 400 for a plain boleto). 409 when it is canceled ("Boleto was ' +
          'canceled; payment refused"), already paid, or past its payment limit date. 400 for a card transaction.',
        params: TransactionParams,
        body: SandboxPayRequest,
        response: { 200: Transaction, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA, 409: ErrorA },
      },
    },
    async (request, reply) => {
      // A cancellation whose delay has passed must refuse this payment even if its timer lags.
      sweeper.applyDue();
      const transition = changeTransaction(ctx, request.marketplaceId, request.params.transaction_id, (record) =>
        markBoletoPaid(record, ctx.now(), request.body.via),
      );
      return reply.send(transactionView(ctx, transition.record));
    },
  );

  app.post(
    '/v1/sandbox/marketplaces/:marketplace_id/transactions/:transaction_id/tap_to_pay',
    {
      schema: {
        tags: ['sandbox'],
        operationId: 'sandboxTapToPay',
        summary: "Complete a pending tap-to-pay transaction as the seller's phone would (sandbox only)",
        description:
          'outcome `approved`, `declined` (error card_declined) or `nfc_read_error` (failed, error nfc_read_error, no card); ' +
          'without outcome the amount table of the terminal channel decides (the slow ending just approves). Entry mode ' +
          '`contactless_chip`. Same effects and webhooks as a PINPAD authorization. 409 when not pending; 400 when not a ' +
          'tap-to-pay transaction.',
        params: TransactionParams,
        body: SandboxTapToPayRequest,
        response: { 200: Transaction, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA, 409: ErrorA },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const transition = changeTransaction(ctx, request.marketplaceId, request.params.transaction_id, (record) => {
        if (record.payment_locale !== 'tap_to_pay') throw badRequest('Transaction is not a tap-to-pay transaction');
        if (record.status !== 'pending') throw conflict('Transaction is not pending');
        const outcome = phoneOutcome(body, record);
        const unread = outcome.kind === 'declined' && outcome.decline.code === 'nfc_read_error';
        return authorize(
          ctx.db,
          record,
          { card: unread ? undefined : phoneCard(body), entryMode: 'contactless_chip', outcome },
          ctx.now(),
        );
      });
      return reply.send(transactionView(ctx, transition.record));
    },
  );
};
