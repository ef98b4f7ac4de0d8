/**
 * Boleto cancellation, on the service family's route
 * `POST /v1/cancellation/marketplaces/{marketplace_id}/transactions/{transaction_id}` with an
 * empty JSON object (an empty body is accepted too). The answer is immediate; the effect comes
 * after the processing delay (payments/boleto-cancellation.ts).
 */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { BoletoCancellation, EmptyObject, ErrorA } from '../../contract/index.js';
import type { RouteRegistrar } from '../app.js';
import { AUTH_ERRORS, badRequest } from '../errors.js';
import { cancellationSweeper, requestBoletoCancellation } from '../payments/boleto-cancellation.js';
import { loadTransaction } from '../payments/change.js';
import { TransactionParams } from './transactions.js';

export const registerCancellationRoutes: RouteRegistrar = (app, ctx) => {
  const sweeper = cancellationSweeper(ctx);
  // Resume what was requested before a restart (and apply what fell due while stopped).
  sweeper.applyDue();
  sweeper.schedule();

  // In its own scope: an empty application/json body means {} here, and only here.
  void app.register(async (plugin) => {
    const scope = plugin.withTypeProvider<TypeBoxTypeProvider>();
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
      const raw = typeof text === 'string' ? text : text.toString('utf8');
      if (raw.trim() === '') {
        done(null, {});
        return;
      }
      try {
        done(null, JSON.parse(raw) as unknown);
      } catch {
        done(badRequest('Body is not valid JSON'), undefined);
      }
    });

    scope.post(
      '/v1/cancellation/marketplaces/:marketplace_id/transactions/:transaction_id',
      {
        schema: {
          tags: ['transactions'],
          operationId: 'cancelBoleto',
          summary: 'Cancel an unpaid boleto (or bolepix)',
          description:
            'Body: an empty JSON object (or no body). 200 `REQUESTED`: the boleto is canceled after the processing delay ' +
            '(`boletoCancellationDelayMs`); until then GET still shows it not canceled. Then the transaction and its boleto ' +
            'become `canceled` (history `canceled`, webhook `transaction.canceled`) and paying it is refused. Irreversible: a ' +
            'repeat is `REQUESTED` again and changes nothing. A paid boleto ignores the request: 200 `IGNORED` and webhook ' +
            '`transaction.cancellation.ignored`. Not a boleto: 400. Unknown: 404.',
          params: TransactionParams,
          body: EmptyObject,
          response: { 200: BoletoCancellation, 400: ErrorA, ...AUTH_ERRORS.A, 404: ErrorA },
        },
        // No body at all (no Content-Type) is the same as {}.
        preValidation: (request, _reply, done) => {
          request.body ??= {};
          done();
        },
      },
      async (request, reply) => {
        sweeper.applyDue();
        const record = loadTransaction(ctx, request.marketplaceId, request.params.transaction_id);
        return reply.send(requestBoletoCancellation(ctx, request.marketplaceId, record));
      },
    );
    await Promise.resolve();
  });
};
