import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  NotEnabledError,
  RateLimitError,
  ServerError,
  ValidationError,
} from '../../../main/api/index.js';
import { paymentsPortFailureOf } from '../../../main/agent/payments-port.js';
import { isDefinitiveRefusal, paymentsFailureOf, refusalProblem } from '../../../main/core/payments-failure.js';

// The failure of a call through the agent's port: the HTTP client's error, classified by the adapter.
const throughPort = (error: unknown): unknown => paymentsPortFailureOf(error);

describe('how the engine reads a failed payments call', () => {
  it('reads the kind any error carries, not its class: a provider’s own gateway is understood the same way', () => {
    class ProviderError extends Error {
      readonly kind = 'not_enabled';
      readonly code = 'PINPAD_OFF';
    }
    expect(paymentsFailureOf(new ProviderError('PINPAD flow not yet implemented'))).toEqual({
      kind: 'not_enabled',
      text: 'PINPAD_OFF: PINPAD flow not yet implemented',
      retryAfterMs: undefined,
    });
    expect(paymentsFailureOf(throughPort(new NotEnabledError({ message: 'off' }))).kind).toBe('not_enabled');
  });

  it('counts an error without a known kind as a lost answer, never as a refusal', () => {
    for (const error of [
      new Error('socket hang up'),
      Object.assign(new Error('x'), { code: 'ECONNRESET' }),
      // The client's error that did not go through the adapter: its code is not the port's word.
      new NotEnabledError({ message: 'off' }),
      'a string',
      null,
    ]) {
      const failure = paymentsFailureOf(error);
      expect(failure.kind).toBe('answer_unknown');
      expect(isDefinitiveRefusal(failure)).toBe(false);
    }
    expect(isDefinitiveRefusal(paymentsFailureOf(throughPort(new ConnectionError({ message: 'refused' }))))).toBe(
      false,
    );
  });

  it('reads a 5xx as the service answering with an error of its own: reached, its outcome unknown, never a refusal', () => {
    const failure = paymentsFailureOf(throughPort(new ServerError({ message: 'Bad gateway', status: 502 })));
    expect(failure.kind).toBe('server_error');
    expect(failure.text).toContain('server_error: Bad gateway');
    expect(isDefinitiveRefusal(failure)).toBe(false);
  });

  it('ends a refused create with its own problem: access, not enabled, busy (with the wait), or rejected', () => {
    const denied = refusalProblem(
      paymentsFailureOf(
        Object.assign(new Error('certificate serial does not match'), {
          kind: 'access_denied',
          code: 'permission_denied',
        }),
      ),
    );
    expect(denied).toMatchObject({
      code: 'API_ACCESS_DENIED',
      message: expect.stringContaining('certificate serial does not match') as unknown,
    });
    expect(refusalProblem(paymentsFailureOf(throughPort(new NotEnabledError({ message: 'off' })))).code).toBe(
      'API_NOT_ENABLED',
    );
    const busy = refusalProblem(
      paymentsFailureOf(throughPort(new RateLimitError({ message: 'Rate limit exceeded', retryAfterMs: 60_000 }))),
    );
    expect(busy).toMatchObject({
      code: 'API_BUSY',
      cashierMessage: 'Sistema de pagamentos ocupado; nada foi cobrado. Tente de novo em instantes.',
    });
    expect(busy.message).toContain('retry after 60 s');
    expect(
      refusalProblem(paymentsFailureOf(throughPort(new ValidationError({ message: 'Field amount must be positive' }))))
        .code,
    ).toBe('API_REJECTED');
  });
});
