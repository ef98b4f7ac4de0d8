import { describe, expect, it } from 'vitest';
import {
  ConnectionError,
  NotEnabledError,
  RateLimitError,
  ValidationError,
  type PaymentsErrorCode,
} from '../../../main/api/index.js';
import {
  isDefinitiveRefusal,
  paymentsFailureOf,
  refusalProblem,
  type PaymentsFailureCode,
} from '../../../main/core/payments-failure.js';

// Every code the HTTP client's errors carry is one the engine knows: this does not compile otherwise.
const engineCodeOf = (code: PaymentsErrorCode): PaymentsFailureCode => code;

describe('how the engine reads a failed payments call', () => {
  it('reads the code any error carries, not its class: a provider’s own gateway is understood the same way', () => {
    class ProviderError extends Error {
      readonly code = 'not_enabled';
    }
    expect(paymentsFailureOf(new ProviderError('PINPAD flow not yet implemented'))).toEqual({
      code: 'not_enabled',
      text: 'not_enabled: PINPAD flow not yet implemented',
      retryAfterMs: undefined,
    });
    expect(paymentsFailureOf(new NotEnabledError({ message: 'off' })).code).toBe('not_enabled');
    expect(engineCodeOf('not_enabled')).toBe('not_enabled');
  });

  it('counts an error without a known code as a lost answer, never as a refusal', () => {
    for (const error of [
      new Error('socket hang up'),
      Object.assign(new Error('x'), { code: 'ECONNRESET' }),
      'a string',
      null,
    ]) {
      const failure = paymentsFailureOf(error);
      expect(failure.code).toBeUndefined();
      expect(isDefinitiveRefusal(failure)).toBe(false);
    }
    expect(isDefinitiveRefusal(paymentsFailureOf(new ConnectionError({ message: 'refused' })))).toBe(false);
  });

  it('ends a refused create with its own problem: access, not enabled, busy (with the wait), or rejected', () => {
    const denied = refusalProblem(
      paymentsFailureOf(Object.assign(new Error('certificate serial does not match'), { code: 'permission_denied' })),
    );
    expect(denied).toMatchObject({
      code: 'API_ACCESS_DENIED',
      message: expect.stringContaining('certificate serial does not match') as unknown,
    });
    expect(refusalProblem(paymentsFailureOf(new NotEnabledError({ message: 'off' }))).code).toBe('API_NOT_ENABLED');
    const busy = refusalProblem(
      paymentsFailureOf(new RateLimitError({ message: 'Rate limit exceeded', retryAfterMs: 60_000 })),
    );
    expect(busy).toMatchObject({
      code: 'API_BUSY',
      cashierMessage: 'Sistema de pagamentos ocupado; nada foi cobrado. Tente de novo em instantes.',
    });
    expect(busy.message).toContain('retry after 60 s');
    expect(
      refusalProblem(paymentsFailureOf(new ValidationError({ message: 'Field amount must be positive' }))).code,
    ).toBe('API_REJECTED');
  });
});
