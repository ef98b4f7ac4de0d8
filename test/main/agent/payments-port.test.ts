/**
 * The payments API client as the engine's PaymentsPort: each of the client's errors becomes the
 * port's failure, whose `kind` says what the engine may conclude; the client's code stays for
 * the journal and the logs.
 */
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  InvalidRequestError,
  NotEnabledError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from '../../../main/api/index.js';
import { paymentsPortFailureOf, paymentsPortOf } from '../../../main/agent/payments-port.js';
import { PaymentsPortError } from '../../../main/core/payments-failure.js';
import type { PaymentsPort } from '../../../main/core/ports.js';

describe("the payments API client's failures, in the port's words", () => {
  it.each([
    [new AuthenticationError({}), 'access_denied'],
    [new PermissionError({ message: 'another marketplace' }), 'access_denied'],
    [new NotFoundError({ message: 'no such transaction' }), 'not_found'],
    [new ValidationError({ message: 'amount must be positive' }), 'refused'],
    [new InvalidRequestError([{ field: 'amount', code: 'required', message: 'must be positive' }]), 'refused'],
    [new NotEnabledError({ message: 'PINPAD off' }), 'not_enabled'],
    [new RateLimitError({ message: 'slow down' }), 'rate_limited'],
    [new ConflictError({ message: 'duplicate' }), 'conflict'],
    [new ServerError({ message: 'bad gateway' }), 'server_error'],
    [new ConnectionError({ message: 'reset' }), 'answer_unknown'],
    [new TimeoutError({ message: 'slow', timeoutMs: 1 }), 'answer_unknown'],
  ])('%s is %s', (error, kind) => {
    const failure = paymentsPortFailureOf(error);
    expect(failure).toBeInstanceOf(PaymentsPortError);
    expect(failure).toMatchObject({ kind, code: error.code, cause: error });
  });

  it("keeps the service's own words beside a fixed sentence, and the wait a 429 asked for", () => {
    expect(paymentsPortFailureOf(new AuthenticationError({ detail: 'token expired' }))).toMatchObject({
      message: 'Payments API credentials invalid or expired (token expired)',
    });
    expect(paymentsPortFailureOf(new RateLimitError({ message: 'slow down', retryAfterMs: 30_000 }))).toMatchObject({
      retryAfterMs: 30_000,
    });
  });

  it('lets anything that is not the client’s error through as it is (an abort’s reason)', () => {
    const reason = new Error('stopped');
    expect(paymentsPortFailureOf(reason)).toBe(reason);
  });

  it('classifies every call of the port', async () => {
    const refused = (): Promise<never> => Promise.reject(new ValidationError({ message: 'no' }));
    const client: PaymentsPort = {
      transactions: { create: refused, retrieve: refused, listByReference: refused },
      terminal: {
        pendingTransactions: refused,
        authorize: refused,
        complete: refused,
        reverse: refused,
        void: refused,
      },
    };
    const port = paymentsPortOf(client);
    const calls = [
      port.transactions.create({} as never),
      port.transactions.retrieve('t'),
      port.transactions.listByReference('r', { sellerId: 'seller', metadata: {} }),
      port.terminal.pendingTransactions('s'),
      port.terminal.authorize('t', {} as never),
      port.terminal.complete('t', { terminal: 's', chip_result: 'accepted' }),
      port.terminal.reverse('t', { terminal: 's', reason: 'other' }),
      port.terminal.void('t', { on_behalf_of: 'seller' }),
    ];
    for (const call of calls) await expect(call).rejects.toMatchObject({ kind: 'refused', code: 'validation_error' });
  });
});
